"""One game, every front end: a move made in the page is announced in Discord (through the fake
Discord API) like a slash-command move, and a slash-command move appears in the page."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import discord.http
import pytest
from aiohttp.test_utils import TestServer
from discord_fake import TEST_TOKEN, BotHarness, FakeDiscord, Payloads, custom_ids
from service_fakes import (
    CREATOR_FIRST_SEED,
    AnyWord,
    SimpleAdvisor,
    SimpleAi,
    find_play,
    games_host,
    typed,
)

from bot.config import ActivityConfig, Config
from bot.discord.client import GameBot
from bot.games.go.options import GoNewGame
from bot.games.scrabble.commands import NewGame
from bot.host.protocols import Notifier
from bot.host.runner import Host
from bot.host.seats import User
from bot.host.store import Store
from bot.web.links import LinkSigner, Role
from bot.web.server import ServerLinks, WebServer
from scrabble_core.move_words import move_in_words
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
        score = service.game(channel).players[0].score
        assert message.content == (
            f"Alice played {move_in_words(play, game.board)} for {score}.\n"
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
            {
                "kind": "pass",
                "player": 1,
                "move": "-",
                "score": 0,
                "total": 0,
                "detail": "",
                "words": "",
                "text": "Bob passed.",
            }
        ]
        assert event["state"]["current"] == 0
        await client.ws.close()
    await test_server.close()


def link_buttons(message: dict[str, Any]) -> list[tuple[str, str]]:
    """The label and URL of each link button of a stored message."""
    rows = message.get("components") or []
    return [(c["label"], c["url"]) for row in rows for c in row["components"] if "url" in c]


async def started_with_links(
    discord_bot: BotHarness, activity: ActivityConfig | None
) -> tuple[int, WebServer]:
    """A started game of Alice and Bob in the channel, the board served (as the ``activity`` if given)
    and its links in the host's messages; the game's id."""
    service, payloads = discord_bot.service, discord_bot.payloads
    server = WebServer(
        service,
        LinkSigner(b"k" * 32),
        public_url="https://board.example",
        activity=activity,
        bot_token=TEST_TOKEN,
    )
    discord_bot.host.use_links(ServerLinks(server))
    await service.new_game(
        payloads.guild_id, payloads.channel_id, User(ALICE_ID, "Alice"), NewGame(seed=CREATOR_FIRST_SEED)
    )
    await service.join(payloads.channel_id, User(BOB_ID, "Bob"))
    await service.start_game(payloads.channel_id, ALICE_ID)
    await service.idle()
    return next(t.row.id for t in service.host.tables.values()), server


async def test_open_the_board_launches_the_activity_when_it_is_configured(discord_bot: BotHarness) -> None:
    fake, payloads = discord_bot.fake, discord_bot.payloads
    activity = ActivityConfig(fake.application_id, fake.client_secret, api=fake.api_base)
    game_id, server = await started_with_links(discord_bot, activity)
    lobby = next(
        m for m in fake.channel_messages(payloads.channel_id) if "Players (2/4)" in str(m.get("content"))
    )
    turn = fake.channel_messages(payloads.channel_id)[-1]
    assert turn["content"].startswith("The game has started.\n")
    assert (custom_ids(lobby), link_buttons(lobby)) == ([], [])  # the turn's post took its buttons
    assert f"board:open:{game_id}" in custom_ids(turn)
    assert link_buttons(turn) == []
    (button,) = [
        c
        for row in turn["components"]
        for c in row["components"]
        if c.get("custom_id") == f"board:open:{game_id}"
    ]
    assert (button["label"], button["style"]) == ("Open the board", 1)
    callback = await discord_bot.ack(payloads.component(turn, f"board:open:{game_id}", user_id=BOB_ID))
    assert callback.json == {"type": 12}
    # Where Discord refuses to launch it, the user gets the link privately.
    fake.launch_refused = True
    press = payloads.component(turn, f"board:open:{game_id}", user_id=BOB_ID)
    discord_bot.dispatch(press)
    refused, answer = await fake.wait_for(
        lambda r: r.path.startswith(f"/interactions/{press['id']}/"), count=2
    )
    assert refused.json == {"type": 12}
    assert answer.json["type"] == 4
    assert answer.content == "Discord could not open the board here: open it in your browser instead."
    assert answer.ephemeral
    assert [(c["label"], c["url"]) for row in answer.body["components"] for c in row["components"]] == [
        ("Open board", server.link(game_id))
    ]


async def test_open_board_is_the_link_without_the_activity(discord_bot: BotHarness) -> None:
    fake, payloads = discord_bot.fake, discord_bot.payloads
    game_id, server = await started_with_links(discord_bot, None)
    for message in fake.channel_messages(payloads.channel_id):
        assert not any(found.startswith("board:open") for found in custom_ids(message))
    turn = fake.channel_messages(payloads.channel_id)[-1]
    assert link_buttons(turn) == [("Open board", server.link(game_id))]


async def test_a_go_game_opens_the_activity_too(discord_bot: BotHarness) -> None:
    fake, payloads = discord_bot.fake, discord_bot.payloads
    activity = ActivityConfig(fake.application_id, fake.client_secret, api=fake.api_base)
    server = WebServer(discord_bot.go, LinkSigner(b"k" * 32), activity=activity, bot_token=TEST_TOKEN)
    discord_bot.host.use_links(ServerLinks(server))
    alice = User(ALICE_ID, "Alice")
    await discord_bot.go.new_game(
        payloads.guild_id, payloads.channel_id, alice, GoNewGame(size=9, opponent=BOB_ID)
    )
    await discord_bot.go.join(payloads.channel_id, User(BOB_ID, "Bob"))
    await discord_bot.host.delivered()
    game_id = next(t.row.id for t in discord_bot.host.tables.values())
    lobby, started = fake.channel_messages(payloads.channel_id)[:2]
    assert (custom_ids(lobby), link_buttons(lobby)) == ([], [])  # the start's post took its buttons
    assert f"board:open:{game_id}" in custom_ids(started)
    assert link_buttons(started) == []
    callback = await discord_bot.ack(payloads.component(started, f"board:open:{game_id}", user_id=BOB_ID))
    assert callback.json == {"type": 12}
