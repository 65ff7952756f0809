"""The web board from Discord (through the real discord.py bot and the fake Discord API): the Open board
button of the turn message, each player's private link with their rack, its renewal, the seat tokens of
programs, and no link at all when the bot serves no board."""

from __future__ import annotations

import asyncio
import re
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp
import discord.http
import pytest
from aiohttp.test_utils import TestServer
from discord_fake import TEST_TOKEN, BotHarness, FakeDiscord, Payloads, RecordedRequest, integer_option
from service_fakes import (
    ALICE,
    CHANNEL,
    CREATOR_FIRST_SEED,
    GUILD,
    AnyWord,
    SimpleAdvisor,
    SimpleAi,
    find_play,
    games_host,
    make_config,
    open_harness,
    typed,
)

from bot.config import Config, WebConfig
from bot.discord.client import GameBot
from bot.games.scrabble.commands import NewGame
from bot.host.messages import Link, Message
from bot.host.protocols import Notifier
from bot.host.runner import Host
from bot.host.store import Store
from bot.web.links import LinkSigner, Role
from bot.web.server import ServerLinks, WebServer, board_server
from scrabble_core.move_words import move_in_words
from tests.web.web_harness import WsClient

EXAMPLE = Path(__file__).parents[2] / "examples" / "bot_client.py"
ALICE_ID, BOB_ID = 700_000_000_000_000_001, 700_000_000_000_000_002
LINK_STYLE = 5
TOKEN = re.compile(r"\d+\.[spb]\d?\.\d+\.[A-Za-z0-9_-]{22}")
SEAT_TOKEN = re.compile(r"\d+\.[pb]\d\.\d+\.[A-Za-z0-9_-]{22}")
RACK = re.compile(r"Your rack in <#[0-9]+>: ([A-Z?]+)")


class Linked:
    """The bot on the fake Discord API and, if served, the board's web server over the same service."""

    def __init__(self, harness: BotHarness, server: WebServer | None, test_server: TestServer | None) -> None:
        self.harness, self.server, self.test_server = harness, server, test_server
        self.session = aiohttp.ClientSession()
        self.clients: list[WsClient] = []

    @property
    def fake(self) -> FakeDiscord:
        return self.harness.fake

    @property
    def payloads(self) -> Payloads:
        return self.harness.payloads

    async def slash(self, name: str, *options: dict[str, Any], user_id: int = ALICE_ID) -> RecordedRequest:
        return await self.harness.reply(self.payloads.slash(name, options, user_id=user_id))

    async def click(self, custom_id: str, *, user_id: int = ALICE_ID) -> RecordedRequest:
        message = self.fake.last_with_button(self.payloads.channel_id, custom_id)
        return await self.harness.reply(self.payloads.component(message, custom_id, user_id=user_id))

    async def new_link(self, *, user_id: int = ALICE_ID, clicked_by: int | None = None) -> RecordedRequest:
        """Ask for ``/scrabble rack`` as ``user_id`` and click its New web link button (as ``clicked_by``)."""
        rack = await self.slash("rack", user_id=user_id)
        game_id = next(iter(self.harness.service.host.tables.values())).row.id
        custom_id = f"scrabble:new-link:{game_id}"
        assert custom_id in str(rack.body)
        shown = {
            **self.fake.channel_messages(self.payloads.channel_id)[-1],
            "components": rack.body["components"],
        }
        payload = self.payloads.component(shown, custom_id, user_id=clicked_by or user_id)
        return await self.harness.reply(payload)

    async def connect(self, token: str, url: str | None = None) -> tuple[WsClient, dict[str, Any]]:
        """A client that said hello with ``token`` (to ``url``, or the test server's), and its first answer."""
        assert self.test_server is not None
        ws = await self.session.ws_connect(url or self.test_server.make_url("/ws"))
        client = WsClient(ws)
        self.clients.append(client)
        await client.send({"type": "hello", "protocol": 1, "token": token})
        return client, await client.recv()


MakeLinked = Callable[..., Awaitable[Linked]]


@pytest.fixture
async def make_linked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[MakeLinked]:
    """``await make_linked(web=True)``: a bot logged in against the fake Discord API, its service over a
    real SQLite file, and (``web``) the board served on aiohttp's test server, its links in the messages."""
    opened: list[tuple[Linked, Store]] = []

    async def make(*, web: bool = True) -> Linked:
        fake = FakeDiscord()
        await fake.start()
        monkeypatch.setattr(discord.http.Route, "BASE", fake.api_base)
        config = Config(database=tmp_path / "games.sqlite3")
        store = await Store.open(config.database)

        async def make_host(notifier: Notifier) -> Host:
            return await games_host(
                config,
                store,
                notifier,
                AnyWord(),
                SimpleAi(),
                SimpleAdvisor(),
                new_seed=lambda: CREATOR_FIRST_SEED,  # Alice draws first
            )

        bot = GameBot(config, make_host, sync_commands=False)
        await bot.login(TEST_TOKEN)
        server = test_server = None
        if web:
            server = WebServer(bot.host.commands["scrabble"], LinkSigner(b"k" * 32))
            test_server = TestServer(server.app())
            await test_server.start_server()
            server.public_url = str(test_server.make_url("")).rstrip("/")
            bot.host.use_links(ServerLinks(server))
        linked = Linked(
            BotHarness(bot, fake, Payloads(application_id=fake.application_id), store), server, test_server
        )
        opened.append((linked, store))
        return linked

    yield make
    for linked, store in opened:
        for client in linked.clients:
            await client.ws.close()
        await linked.session.close()
        if linked.test_server is not None:
            await linked.test_server.close()
        await linked.harness.bot.close()
        await store.close()
        await linked.fake.close()


def link_buttons(body: dict[str, Any]) -> list[tuple[str, str]]:
    """The (label, url) of every link button of a message body."""
    return [
        (component["label"], component["url"])
        for row in body.get("components") or []
        for component in row["components"]
        if component.get("style") == LINK_STYLE
    ]


def token_of(url: str) -> str:
    """The token in a board link's fragment."""
    prefix, _, token = url.partition("#t=")
    assert prefix.endswith("/game") and TOKEN.fullmatch(token), url
    return token


def assert_no_seat_token_in_public(fake: FakeDiscord) -> int:
    """No public request carries a seat's token (in its text or in a link button); returns how many
    public requests were checked."""
    public = fake.public_requests()
    for request in public:
        assert not SEAT_TOKEN.search(request.content), request
        for _, url in link_buttons(request.body):
            assert not SEAT_TOKEN.search(url), (url, request)
    return len(public)


async def started_game(linked: Linked) -> RecordedRequest:
    """Alice opens a game, Bob joins, Alice starts it: the start's answer (which shows Alice her rack;
    Bob's goes by DM)."""
    await linked.slash("new")
    await linked.slash("join", user_id=BOB_ID)
    return await linked.slash("start")


def turn_messages(linked: Linked) -> list[RecordedRequest]:
    channel = linked.payloads.channel_id
    return [
        r for r in linked.fake.find("POST", f"/channels/{channel}/messages") if "board.png" in r.filenames
    ]


async def test_the_turn_message_opens_the_board_as_a_spectator(make_linked: MakeLinked) -> None:
    linked = await make_linked()
    await started_game(linked)
    links = link_buttons(turn_messages(linked)[-1].body)
    assert [label for label, _ in links] == ["Open board"]
    url = links[0][1]
    assert linked.server is not None
    assert url.startswith(f"{linked.server.public_url}/game#t=")
    _, welcome = await linked.connect(token_of(url))
    assert welcome["type"] == "welcome"
    assert welcome["you"]["role"] == "spectator" and welcome["you"]["seat"] is None
    assert "rack" not in welcome["state"]
    # The reposted board (/scrabble board) has it too; the lobby and the end of the game do not.
    board = await linked.slash("board")
    assert [label for label, _ in link_buttons(board.body)] == ["Open board"]
    await linked.slash("resign", user_id=BOB_ID)
    last = turn_messages(linked)[-1]
    assert "\nGame over: " in last.content and link_buttons(last.body) == []
    assert assert_no_seat_token_in_public(linked.fake) >= 4


async def test_the_rack_dm_and_show_my_rack_carry_the_seat_link(make_linked: MakeLinked) -> None:
    linked = await make_linked()
    started = await started_game(linked)
    game_id = next(iter(linked.harness.service.host.tables.values())).row.id
    assert linked.fake.dms_to(ALICE_ID) == []  # the starter's rack is in the start's answer
    (bobs,) = linked.fake.dms_to(BOB_ID)
    assert started.ephemeral and started.content.startswith("The game has started.\n")
    for seat, shown in enumerate((started, bobs)):
        rack = RACK.fullmatch(shown.content.splitlines()[-1])
        assert rack is not None
        [(label, url)] = link_buttons(shown.body)
        assert label == "Play on the board"
        assert token_of(url).startswith(f"{game_id}.p{seat}.0.")
        _, welcome = await linked.connect(token_of(url))
        assert (welcome["you"]["role"], welcome["you"]["seat"]) == ("player", seat)
        assert welcome["state"]["rack"] == rack[1]
    for answer in (
        await linked.slash("rack", user_id=BOB_ID),
        await linked.click(f"scrabble:rack:{game_id}", user_id=BOB_ID),
    ):
        assert answer.ephemeral
        [(_, url)] = link_buttons(answer.body)
        assert url == link_buttons(linked.fake.dms_to(BOB_ID)[-1].body)[0][1]
    # A play from the page: the next DM to Alice has her new rack and the same link.
    client, _ = await linked.connect(token_of(link_buttons(started.body)[0][1]))
    game = linked.harness.service.game(linked.payloads.channel_id)
    play = find_play(game, 0)
    assert play is not None
    dms = len(linked.fake.dms_to(ALICE_ID))
    assert (await client.call("play", turn=0, move=typed(play)))["ok"]
    await linked.fake.wait_for(lambda r: linked.fake.dms_to(ALICE_ID)[dms:] != [])
    after = linked.fake.dms_to(ALICE_ID)[-1]
    rack = RACK.fullmatch(after.content)
    assert rack is not None, after.content
    assert rack[1] == linked.harness.service.game(linked.payloads.channel_id).players[0].rack
    assert token_of(link_buttons(after.body)[0][1]).startswith(f"{game_id}.p0.0.")
    assert assert_no_seat_token_in_public(linked.fake) >= 4


async def test_the_new_web_link_button_renews_the_link_and_the_old_one_is_refused(
    make_linked: MakeLinked,
) -> None:
    linked = await make_linked()
    await started_game(linked)
    old = token_of(link_buttons(linked.fake.dms_to(BOB_ID)[-1].body)[0][1])
    old_client, welcome = await linked.connect(old)
    assert welcome["type"] == "welcome"
    answer = await linked.new_link(user_id=BOB_ID)
    assert answer.ephemeral
    assert answer.content == "Your new link to play on the board (your older links no longer work):"
    [(label, url)] = link_buttons(answer.body)
    new = token_of(url)
    assert label == "Play on the board" and new != old and new.split(".")[:3] == [*old.split(".")[:2], "1"]
    closing = await old_client.ws.receive(timeout=5)  # the page opened with the old link is cut off
    assert (closing.type, closing.data, closing.extra) == (aiohttp.WSMsgType.CLOSE, 4001, "link renewed")
    _, refused = await linked.connect(old)
    assert refused["ok"] is False
    assert refused["error"]["code"] == "unauthorized"
    assert refused["error"]["message"] == "this link was renewed: use the newest one"
    _, welcome = await linked.connect(new)
    assert (welcome["type"], welcome["you"]["seat"]) == ("welcome", 1)
    # The rack answers now carry the new link; someone not seated gets no link.
    assert link_buttons((await linked.slash("rack", user_id=BOB_ID)).body) == [("Play on the board", url)]
    refusal = await linked.new_link(user_id=BOB_ID, clicked_by=ALICE_ID + 5)
    assert refusal.ephemeral and refusal.content.endswith("You are not playing in this game")
    assert link_buttons(refusal.body) == []
    assert assert_no_seat_token_in_public(linked.fake) >= 3


async def test_a_bot_seat_token_goes_to_the_creator_and_plays_a_move(make_linked: MakeLinked) -> None:
    linked = await make_linked()
    answer = await linked.slash("new", integer_option("bot_seats", 1), integer_option("time_limit", 60))
    assert answer.ephemeral
    token = TOKEN.search(answer.content)
    assert token is not None
    game_id = next(iter(linked.harness.service.host.tables.values())).row.id
    assert token[0].startswith(f"{game_id}.b0.0.")
    assert linked.server is not None
    url = "ws" + linked.server.public_url.removeprefix("http") + "/ws"
    assert f"python examples/bot_client.py --url {url} --token {token[0]}" in answer.content
    assert "docs/protocol.md" in answer.content
    lobby = linked.fake.channel_messages(linked.payloads.channel_id)[-1]
    assert "Bot" in lobby["content"] and "<@-" not in lobby["content"]
    await linked.slash("start")
    # Alice passes; the program, with only its token, sees its rack and plays.
    await linked.slash("pass")
    client, welcome = await linked.connect(token[0], url)
    assert (welcome["you"]["role"], welcome["you"]["seat"]) == ("bot", 1)
    game = linked.harness.service.game(linked.payloads.channel_id)
    assert welcome["state"]["rack"] == game.players[1].rack
    play = find_play(game, 1)
    assert play is not None
    reply = await client.call("play", turn=1, move=typed(play))
    assert reply["ok"], reply
    announced = await linked.fake.wait_for(lambda r: "board.png" in r.filenames, count=3)
    assert announced[-1].content.startswith(f"Bot played {move_in_words(play, game.board)} for ")
    assert "<@-" not in announced[-1].content
    assert announced[-1].body["allowed_mentions"]["users"] == [ALICE_ID]
    # The program's seat gets no DM (it reads its rack on the board), and no public notice about one.
    assert all("could not send you your rack" not in r.content for r in linked.fake.public_requests())
    assert assert_no_seat_token_in_public(linked.fake) >= 3


async def test_the_add_bot_button_is_for_the_creator(make_linked: MakeLinked) -> None:
    linked = await make_linked()
    await linked.slash("new")
    game_id = next(iter(linked.harness.service.host.tables.values())).row.id
    refused = await linked.click(f"scrabble:add-bot:{game_id}", user_id=BOB_ID)
    assert refused.ephemeral and refused.content.endswith(
        "Only the game's creator can give a seat to a program"
    )
    answer = await linked.click(f"scrabble:add-bot:{game_id}")
    assert answer.ephemeral and answer.content.startswith("Bot takes seat 2, for a program.")
    token = TOKEN.search(answer.content)
    assert token is not None
    assert token[0].startswith(f"{game_id}.b0.0.")
    assert assert_no_seat_token_in_public(linked.fake) >= 2


async def test_no_links_without_the_web_board(make_linked: MakeLinked) -> None:
    linked = await make_linked(web=False)
    refused = await linked.slash("new", integer_option("bot_seats", 1))
    assert refused.ephemeral
    assert refused.content.endswith("This bot does not serve the web board (its [web] settings disable it)")
    assert linked.harness.service.host.tables == {}
    assert linked.fake.public_requests() == []
    started = await started_game(linked)
    lobby = linked.fake.channel_messages(linked.payloads.channel_id)[0]
    assert "scrabble:add-bot" not in str(lobby["components"])
    assert link_buttons(turn_messages(linked)[-1].body) == []
    assert link_buttons(started.body) == [] and link_buttons(linked.fake.dms_to(BOB_ID)[-1].body) == []
    rack = await linked.slash("rack")
    assert link_buttons(rack.body) == []
    assert "scrabble:new-link" not in str(rack.body)  # no New web link button without the board
    assert not any(TOKEN.search(r.content) or link_buttons(r.body) for r in linked.fake.requests)


async def test_a_bot_token_follows_its_seat_when_the_lobby_moves(make_linked: MakeLinked) -> None:
    linked = await make_linked()
    await linked.slash("new")
    await linked.slash("join", user_id=BOB_ID)
    game_id = next(iter(linked.harness.service.host.tables.values())).row.id
    answer = await linked.click(f"scrabble:add-bot:{game_id}")
    match = TOKEN.search(answer.content)
    assert match is not None
    token = match[0]
    assert token.startswith(f"{game_id}.b0.0.")
    await linked.slash("leave", user_id=BOB_ID)  # the program's seat moves up to seat 2 (index 1)
    await linked.slash("join", user_id=BOB_ID + 1)  # a person now sits where the program was (index 2)
    await linked.slash("start")
    seats = linked.harness.service.host.tables[linked.payloads.channel_id].row.seats
    program = next(seat.seat for seat in seats if seat.user_id == -1)
    _, welcome = await linked.connect(token)
    assert (welcome["type"], welcome["you"]["seat"], welcome["you"]["name"]) == ("welcome", program, "Bot")
    game = linked.harness.service.game(linked.payloads.channel_id)
    assert welcome["state"]["rack"] == game.players[program].rack
    # A person's link does not play the program's seat, nor a program's token another number.
    assert linked.server is not None
    _, refused = await linked.connect(linked.server.signer.token(game_id, Role.PLAYER, program))
    assert (refused["ok"], refused["error"]["code"]) == (False, "unauthorized")
    _, refused = await linked.connect(linked.server.signer.token(game_id, Role.BOT, 1))
    assert (refused["ok"], refused["error"]["code"]) == (False, "unauthorized")


async def test_the_example_bot_runs_with_the_command_the_creator_was_given(make_linked: MakeLinked) -> None:
    linked = await make_linked()
    answer = await linked.slash("new", integer_option("bot_seats", 1))
    command = re.search(r"`python examples/bot_client\.py (--url \S+ --token \S+)`", answer.content)
    assert command is not None
    await linked.slash("start")
    await linked.slash("pass")
    process = await asyncio.create_subprocess_exec(
        sys.executable, str(EXAMPLE), *command[1].split(), stdout=asyncio.subprocess.PIPE
    )
    announced = await linked.fake.wait_for(lambda r: "board.png" in r.filenames, count=3, timeout=60)
    assert announced[-1].content.startswith("Bot played ")
    await linked.slash("resign")
    output, _ = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 0
    row = await linked.harness.store.last_finished_game(linked.payloads.channel_id, "scrabble")
    assert row is not None and row.state is not None
    scores = [player["score"] for player in row.state["players"]]
    assert scores[0] == 0 and scores[1] > 0
    assert output.decode().strip() == f"game over, scores: {scores}"


async def test_too_many_seats_for_programs_are_refused_and_nothing_is_created(
    make_linked: MakeLinked,
) -> None:
    linked = await make_linked()
    refused = await linked.slash("new", integer_option("ai_opponents", 2), integer_option("bot_seats", 2))
    assert refused.ephemeral
    assert refused.content.endswith("A game has at most 4 players, AI and programs included")
    assert linked.harness.service.host.tables == {}
    assert linked.fake.public_requests() == []
    answer = await linked.slash("new", integer_option("ai_opponents", 1), integer_option("bot_seats", 2))
    assert answer.content.startswith("Your game is open: the others press Join, then you press Start.\n\n")
    seats = next(iter(linked.harness.service.host.tables.values())).row.seats
    assert [(seat.name, seat.user_id) for seat in seats] == [
        ("User700000000000000001", ALICE_ID),
        ("AI", None),
        ("Bot", -1),
        ("Bot 2", -2),
    ]
    tokens = TOKEN.findall(answer.content)
    assert [token.split(".")[1] for token in tokens[::2]] == [
        "b0",
        "b1",
    ]  # each token twice: alone, in the command; numbered by program, not by seat


async def test_the_board_server_gives_the_service_its_links_while_it_runs(tmp_path: Path) -> None:
    harness = await open_harness(tmp_path)
    try:
        web = WebConfig(True, port=0, public_url="https://x.org")
        async with board_server(Config(database=tmp_path / "db.sqlite3", web=web), harness.games) as server:
            assert server is not None
            links = harness.svc.host.links
            assert links is not None
            assert links.spectator(7) == server.link(7)
            assert links.seat(7, 1) == server.link(7, 1)
            assert links.program(7, -3) == ("wss://x.org/ws", server.signer.token(7, Role.BOT, 2))
            renewed = links.seat(7, 1, renew=True)
            assert renewed.split("#t=")[1].startswith("7.p1.1.")
        assert harness.svc.host.links is None
        async with board_server(Config(database=tmp_path / "db.sqlite3"), harness.games):
            assert harness.svc.host.links is None
    finally:
        await harness.close()


def test_a_private_link_is_refused_in_a_public_message() -> None:
    seat = Link("Play on the board", "https://x.org/game#t=1.p0.0." + "a" * 22, private=True)
    with pytest.raises(ValueError, match="a private link never goes in a public message"):
        Message("Your turn", links=(seat,))
    assert Message("Your rack", private=True, links=(seat,)).links == (seat,)


async def test_a_programs_seat_times_out_like_a_persons(tmp_path: Path) -> None:
    harness = await open_harness(tmp_path, make_config(time_limit=60, max_timeouts=2))
    try:
        service = harness.svc
        harness.games.use_links(ServerLinks(WebServer(service, LinkSigner(b"k" * 32))))
        await service.new_game(GUILD, CHANNEL, ALICE, NewGame(seed=2, programs=1))
        await service.start_game(CHANNEL, ALICE.id)
        await service.pass_turn(CHANNEL, ALICE.id)
        await service.delivered()  # out long before the minute is up
        await harness.clock.advance(60)  # the program does not move: a pass (1)
        await service.idle()
        assert harness.notifier.texts()[-1] == (
            "Bot ran out of time.\nBot passed.\nScores: Alice 0 · Bot 0\nNext: Alice (<@11>). 86 tiles in the bag."
        )
        await service.pass_turn(CHANNEL, ALICE.id)
        await service.delivered()  # out long before the minute is up
        await harness.clock.advance(60)  # (2): forfeit
        await service.idle()
        assert harness.notifier.texts()[-1] == (
            "Bot ran out of time.\nBot forfeited.\nGame over: Alice (<@11>) wins.\n1. Alice 0\n2. Bot 0 (forfeited)\n"
            "The record (GCG) is attached."
        )
        # No message pinged it (nor reminded it); it was never sent a DM; its results go in no stats.
        assert not any("<@-" in text or "seconds left" in text for text in harness.notifier.texts())
        assert all(user_id == ALICE.id for user_id, _ in harness.notifier.dms)
        assert all(message.mentions in ((), (ALICE.id,)) for _, message in harness.notifier.posts)
        assert harness.store is not None
        assert await harness.store.stats(GUILD, "scrabble", -1) is None
    finally:
        await harness.close()


async def test_go_turn_messages_open_the_board_and_each_player_gets_a_private_link(
    make_linked: MakeLinked,
) -> None:
    linked = await make_linked()
    h, channel = linked.harness, linked.payloads.channel_id
    await h.reply(linked.payloads.slash("new", [integer_option("size", 9)], group="go"))
    await h.reply(linked.payloads.slash("join", group="go", user_id=BOB_ID))
    turn = [r for r in linked.fake.find("POST", f"/channels/{channel}/messages") if "go-" in str(r.filenames)]
    links = link_buttons(turn[-1].body)
    assert [label for label, _ in links] == ["Open board"]
    _, welcome = await linked.connect(token_of(links[0][1]))
    assert (welcome["kind"], welcome["you"]["role"]) == ("go", "spectator")
    game_id = welcome["game_id"]
    for seat, user_id in enumerate((ALICE_ID, BOB_ID)):
        dm = linked.fake.dms_to(user_id)[-1]
        assert dm.content == f"Your link to play Go game {game_id} on the board (it is yours alone):"
        [(label, url)] = link_buttons(dm.body)
        assert label == "Play on the board"
        client, welcome = await linked.connect(token_of(url))
        assert (welcome["you"]["role"], welcome["you"]["seat"]) == ("player", seat)
    assert (await client.call("play", row=0, col=0))["error"]["message"] == "It is Black's turn"
    assert assert_no_seat_token_in_public(linked.fake) >= 2
