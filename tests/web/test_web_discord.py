"""One game, every front end: a move made in the page is announced in Discord (through the fake
Discord API) like a slash-command move, and a slash-command move appears in the page."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import discord.http
import pytest
from aiohttp.test_utils import TestServer
from discord_fake import TEST_TOKEN, BotHarness, FakeDiscord, Payloads
from service_fakes import (
    CREATOR_FIRST_SEED,
    AnyWord,
    SimpleAdvisor,
    SimpleAi,
    find_play,
    games_host,
    typed,
)

from bot.config import Config
from bot.discord.client import GameBot
from bot.games.scrabble.commands import NewGame
from bot.host.protocols import Notifier
from bot.host.runner import Host
from bot.host.seats import User
from bot.host.store import Store
from bot.web.links import LinkSigner, Role
from bot.web.server import WebServer
from tests.web.web_harness import WsClient

ALICE_ID, BOB_ID = 700_000_000_000_000_001, 700_000_000_000_000_002


@pytest.fixture
async def discord_bot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[BotHarness]:
    """A bot logged in against the fake Discord API, its service over a real SQLite file."""
    fake = FakeDiscord()
    await fake.start()
    monkeypatch.setattr(discord.http.Route, "BASE", fake.api_base)
    store = await Store.open(tmp_path / "games.sqlite3")

    async def make_host(notifier: Notifier) -> Host:
        config = Config(database=tmp_path / "games.sqlite3")
        return await games_host(config, store, notifier, AnyWord(), SimpleAi(), SimpleAdvisor())

    bot = GameBot(Config(database=tmp_path / "games.sqlite3"), make_host, sync_commands=False)
    await bot.login(TEST_TOKEN)
    yield BotHarness(bot, fake, Payloads(application_id=fake.application_id), store)
    await bot.close()
    await store.close()
    await fake.close()


async def test_a_move_from_the_page_is_announced_in_discord_and_back(discord_bot: BotHarness) -> None:
    service, payloads = discord_bot.service, discord_bot.payloads
    channel = payloads.channel_id
    await service.new_game(
        payloads.guild_id, channel, User(ALICE_ID, "Alice"), NewGame(seed=CREATOR_FIRST_SEED)
    )
    await service.join(channel, User(BOB_ID, "Bob"))
    await service.start_game(channel, ALICE_ID)
    await service.idle()  # the start's messages are out before the move's are counted
    server = WebServer(service, LinkSigner(b"k" * 32))
    test_server = TestServer(server.app())
    await test_server.start_server()
    async with aiohttp.ClientSession() as session:
        table_id = next(t.row.id for t in service.host.tables.values())
        client = WsClient(await session.ws_connect(test_server.make_url("/ws")))
        token = server.signer.token(table_id, Role.PLAYER, 0)
        await client.send({"type": "hello", "protocol": 1, "token": token})
        await client.until("welcome")
        game = service.game(channel)
        play = find_play(game, 0)
        assert play is not None
        posted_before = len(discord_bot.fake.find("POST", f"/channels/{channel}/messages"))
        reply = await client.call("play", turn=0, move=typed(play))
        assert reply["ok"], reply
        announced = await discord_bot.fake.wait_for(
            lambda r: r.route == f"POST /channels/{channel}/messages", count=posted_before + 1
        )
        message = announced[-1]
        assert message.content.startswith(f"Alice played {play.gcg()} for ")
        score = service.game(channel).players[0].score
        assert message.content == (
            f"Alice played {play.gcg()} for {score} ({play.letters} {score}).\n"
            f"Scores: Alice {score} · Bob 0\n"
            f"Next: Bob (<@{BOB_ID}>). 84 tiles in the bag."
        )
        assert message.body["allowed_mentions"] == {"parse": [], "users": [BOB_ID]}
        assert [f.filename for f in message.files] == ["board.png"]
        assert (await client.until("move"))["events"][0]["move"] == play.gcg()
        # And a slash command in Discord shows in the page.
        await discord_bot.reply(payloads.slash("pass", user_id=BOB_ID))
        event = await client.until("move")
        assert event["events"] == [
            {"kind": "pass", "player": 1, "move": "-", "score": 0, "total": 0, "detail": ""}
        ]
        assert event["state"]["current"] == 0
        await client.ws.close()
    await test_server.close()
