"""The real ``scrabble-bot`` process driven through the fake gateway and the fake REST API: it logs in,
syncs its commands, identifies, answers a slash command sent as a gateway event, and plays Go against its
AI (in the AI worker pool), and sends the boards and racks its drawing process draws."""

from __future__ import annotations

import asyncio
import io
import json
import os
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from discord_fake import TEST_TOKEN, FakeDiscord, Payloads, RecordedRequest
from discord_gateway import FakeGateway, guild_payload, stop_bot
from PIL import Image

from bot.games.scrabble.images.board import board_size
from scrabble_core.variant import get_variant

GATEWAY_SCRIPT = Path(__file__).with_name("discord_gateway.py")

pytestmark = pytest.mark.slow


@dataclass
class RunningBot:
    fake: FakeDiscord
    gateway: FakeGateway
    payloads: Payloads
    process: asyncio.subprocess.Process

    async def interact(self, payload: dict[str, object]) -> RecordedRequest:
        """Send ``payload`` as an ``INTERACTION_CREATE`` event; the answer (followup after a deferral)."""
        await self.gateway.dispatch("INTERACTION_CREATE", payload)
        callback = await self.fake.callback_for(payload, timeout=20)
        if callback.json["type"] != 5:
            return callback
        (followup, *_) = await self.fake.followups_for(payload, timeout=20)
        return followup


async def started_fakes() -> tuple[FakeDiscord, FakeGateway, Payloads]:
    """The fake REST API and the fake gateway, started, with one guild (its channel, its member)."""
    fake = FakeDiscord(valid_token=TEST_TOKEN)
    await fake.start()
    payloads = Payloads(application_id=fake.application_id)
    gateway = FakeGateway(
        fake.bot_user, fake.application_id, [guild_payload(payloads.guild_id, payloads.user_id)]
    )
    await gateway.start()
    fake.gateway_url = gateway.url
    return fake, gateway, payloads


@pytest.fixture
async def running_bot(tmp_path: Path) -> AsyncIterator[RunningBot]:
    """``scrabble-bot`` in a subprocess, logged in and identified against the fakes."""
    fake, gateway, payloads = await started_fakes()
    config = tmp_path / "config.toml"
    config.write_text(f'database = {json.dumps(str(tmp_path / "games.sqlite3"))}\nlog_level = "WARNING"\n')
    process = await asyncio.create_subprocess_exec(
        sys.executable, str(GATEWAY_SCRIPT), fake.api_base, gateway.url, "--config", str(config),
        env=os.environ | {"DISCORD_TOKEN": TEST_TOKEN},
    )  # fmt: skip
    try:
        await asyncio.wait_for(gateway.identified.wait(), 60)
        yield RunningBot(fake, gateway, payloads, process)
    finally:
        await stop_bot(process)
        await gateway.close()
        await fake.close()


async def test_the_real_bot_identifies_and_answers_a_slash_command(running_bot: RunningBot) -> None:
    fake, gateway = running_bot.fake, running_bot.gateway
    assert gateway.identify is not None
    assert gateway.identify["token"] == TEST_TOKEN
    assert gateway.identify["intents"] == (1 << 0) | (1 << 12)  # guilds, direct messages
    synced = fake.find("PUT", f"/applications/{fake.application_id}/commands")
    assert [command["name"] for command in synced[0].json] == ["scrabble", "scrabble-settings", "go"]

    reply = await running_bot.interact(running_bot.payloads.slash("new"))

    assert reply.content == "Your game is open: the others press Join, then you press Start."
    assert reply.ephemeral
    await fake.wait_for_route("POST", f"/channels/{running_bot.payloads.channel_id}/messages")  # behind it
    (lobby,) = fake.channel_messages(running_bot.payloads.channel_id)
    assert "Join" in json.dumps(lobby["components"])


async def test_the_real_bot_plays_go_against_its_ai_in_the_worker_pool(running_bot: RunningBot) -> None:
    fake, payloads = running_bot.fake, running_bot.payloads
    new = payloads.slash(
        "new",
        [{"name": "size", "type": 4, "value": 5}, {"name": "ai_level", "type": 3, "value": "easy"}],
        group="go",
    )
    assert (await running_bot.interact(new)).content == "Your game against the AI (easy) has started."
    played = await running_bot.interact(
        payloads.slash("play", [{"name": "point", "type": 3, "value": "C3"}], group="go")
    )
    assert played.content == "You played C3."
    path = f"/channels/{payloads.channel_id}/messages"
    # The AI's answer joins the person's move in one post.
    (answer,) = await fake.wait_for(lambda r: r.path == path and "\nAI (White) " in r.content, timeout=60)
    said = answer.content
    assert -1 < said.find("Alice (Black) played C3.\n") < said.find("\nAI (White) played "), said
    assert answer.content.splitlines()[-1] == f"<@{payloads.user_id}>, your move as Black."
    assert answer.filenames == ["go-1-3.png"]


async def test_the_real_bot_draws_the_board_and_the_rack_in_its_drawing_process(
    running_bot: RunningBot,
) -> None:
    fake, payloads = running_bot.fake, running_bot.payloads
    options = [
        {"name": "ai_opponents", "type": 4, "value": 1},
        {"name": "ai_level", "type": 3, "value": "easy"},
    ]
    await running_bot.interact(payloads.slash("new", options))
    await running_bot.interact(payloads.slash("start"))
    path = f"/channels/{payloads.channel_id}/messages"
    # The game's start shows the board, unless the AI drew first and moved while it was being drawn:
    # then the start goes out as its text, and the AI's move shows the board.
    (shown, *_) = await fake.wait_for(lambda r: r.path == path and r.filenames == ["board.png"], timeout=60)
    (rack, *_) = await fake.wait_for(
        lambda r: r.method == "POST" and r.path != path and r.filenames == ["rack.png"], timeout=60
    )
    assert shown.content.startswith(("The game has started.", "AI played "))
    board = Image.open(io.BytesIO(shown.files[0].data))
    assert (board.format, board.size) == ("PNG", board_size(get_variant("standard"), header=True))
    assert Image.open(io.BytesIO(rack.files[0].data)).format == "PNG"
