"""The board as a Discord Activity in real Chromium, under the fake Discord client frame
(``discord_client_frame``): Discord's Embedded App SDK in the page does its handshake, ``authorize`` and
``authenticate`` with the frame; the server exchanges the code at the fake Discord API and signs each
user in to their own seat, or as a spectator.

Two players each open the Activity, see their own rack only and play by dragging while a third user
spectates; a forged or a replayed code is refused; a channel without a game says how to start one; the
look is checked (and saved, see ``SCRABBLE_SCREENSHOTS``) at desktop and phone sizes. The SDK's bundle is
built from ``bot/web/sdk``'s lockfile when it is missing (these tests skip without npm, as without
Chromium).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from discord_fake import TEST_TOKEN, FakeDiscord
from playwright.sync_api import Browser, BrowserContext, FrameLocator, Page, expect, sync_playwright
from service_fakes import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    OTHER_CHANNEL,
    Harness,
    open_harness,
    started_game,
)

from bot.config import ActivityConfig
from bot.games.go.options import GoNewGame
from bot.host.seats import User
from bot.web.links import LinkSigner
from bot.web.server import ACTIVITY_SDK, STATIC_DIR, WebServer
from scrabble_core.lexicon import Lexicon
from scrabble_core.move_words import move_in_words
from tests.web.discord_client_frame import FAKE_CLIENT, DiscordClientFrame, activity_of, handshakes
from tests.web.test_browser import (
    CHROMIUM,
    CHROMIUM_ARGS,
    LiveGame,
    drag,
    finished_game,
    plain_letters,
    play_best_by_dragging,
)

SDK_PROJECT = STATIC_DIR.parent / "sdk"

pytestmark = [
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"the browser tests need Chromium at {CHROMIUM}"),
    pytest.mark.skipif(
        not ACTIVITY_SDK.exists() and shutil.which("npm") is None,
        reason="the Activity's SDK is built with npm (Node.js): apt-get install npm",
    ),
]


@pytest.fixture(scope="module")
def sdk_bundle() -> Path:
    """The SDK's bundle, built from the lockfile if it is missing (``npm ci``, then ``npm run build``)."""
    if not ACTIVITY_SDK.exists():
        for command in (["npm", "ci", "--no-audit", "--no-fund"], ["npm", "run", "build"]):
            subprocess.run(command, cwd=SDK_PROJECT, check=True, capture_output=True, timeout=300)
    return ACTIVITY_SDK


class ActivityGame(LiveGame):
    """A :class:`LiveGame` whose server runs the board as the Activity of the fake Discord API's
    application (started in the game's event loop)."""

    fake: FakeDiscord

    async def _start(self, tmp_path: Path, users: Sequence[User], options: dict[str, Any]) -> None:
        self.fake = FakeDiscord()
        await self.fake.start()
        activity = ActivityConfig(
            self.fake.application_id, self.fake.client_secret, api=self.fake.api_base, clients=(FAKE_CLIENT,)
        )
        self.harness: Harness = await open_harness(tmp_path)
        self.server = WebServer(
            self.harness.svc,
            LinkSigner(b"k" * 32),
            port=0,
            now=self.harness.clock.now,
            activity=activity,
            bot_token=TEST_TOKEN,
        )
        await self.server.start()
        if users:
            await started_game(self.harness, users, **options)

    @property
    def activity_url(self) -> str:
        """The Activity's page: the root of the board's server (the root of its URL mapping)."""
        return f"http://127.0.0.1:{self.server.port}/"

    def client(self, user: User) -> DiscordClientFrame:
        """The Discord client of ``user``."""
        return DiscordClientFrame(self.fake, user, self.call)

    def close(self) -> None:
        self.run(self.fake.close())
        super().close()


LOCAL_FRAMES = "--disable-features=LocalNetworkAccessChecks"
"""Chromium counts the fake client's page (served by Playwright's routing, from no address) as a page of
the internet, which may not frame a loopback server; Discord's client frames the Activity from its own
site through its proxy, where no such check applies."""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=[*CHROMIUM_ARGS, LOCAL_FRAMES])
        yield chromium
        chromium.close()


@pytest.fixture
def activity_game(tmp_path: Path, sdk_bundle: Path) -> Iterator[Callable[..., ActivityGame]]:
    """``activity_game(users=(ALICE, BOB), **options)``: a game in CHANNEL and its board as an Activity."""
    games: list[ActivityGame] = []

    def make(users: Sequence[User] = (ALICE, BOB), **options: Any) -> ActivityGame:
        games.append(ActivityGame(tmp_path, users, options))
        return games[-1]

    yield make
    for game in games:
        game.close()


def screenshots(game_server: ActivityGame) -> Path:
    """Where the screenshots go: ``$SCRABBLE_SCREENSHOTS``, or beside the game's database."""
    shots = Path(os.environ.get("SCRABBLE_SCREENSHOTS", str(game_server.harness.path.parent)))
    shots.mkdir(parents=True, exist_ok=True)
    return shots


class Opened:
    """A user's fake Discord client showing the Activity, with the errors its pages logged."""

    def __init__(self, page: Page, client: DiscordClientFrame) -> None:
        self.page, self.client = page, client
        self.board: FrameLocator = activity_of(page)
        self.errors: list[str] = []
        self.sent: list[str] = []
        """The frames the page sent over its websockets."""
        page.on(
            "websocket", lambda socket: socket.on("framesent", lambda frame: self.sent.append(str(frame)))
        )
        page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))
        page.on(
            "console", lambda message: self.errors.append(message.text) if message.type == "error" else None
        )

    def square(self, row: int, col: int) -> Any:
        return self.board.locator(f'.square[data-row="{row}"][data-col="{col}"]')

    def rack(self) -> str:
        letters: list[str] = self.board.locator("#rack .rack-tile").evaluate_all(
            "tiles => tiles.map(t => t.dataset.letter)"
        )
        return "".join(letters)


@pytest.fixture
def open_activity(browser: Browser) -> Iterator[Callable[..., Opened]]:
    """``open_activity(game, user, width=1280, height=800, platform="desktop", channel=CHANNEL)``: the
    user's Discord client (its own browser context) showing the channel's Activity."""
    contexts: list[BrowserContext] = []

    def make(
        game: ActivityGame,
        user: User,
        width: int = 1280,
        height: int = 800,
        platform: str = "desktop",
        channel: int = CHANNEL,
        client: DiscordClientFrame | None = None,
    ) -> Opened:
        context = browser.new_context(
            viewport={"width": width, "height": height}, has_touch=platform == "mobile"
        )
        contexts.append(context)
        client = client or game.client(user)
        page = client.open(context, game.activity_url, channel=channel, guild=GUILD, platform=platform)
        return Opened(page, client)

    yield make
    for context in contexts:
        context.close()


def test_two_players_open_the_activity_and_play_by_dragging_while_a_third_user_spectates(
    activity_game: Callable[..., ActivityGame], open_activity: Callable[..., Opened]
) -> None:
    game_server = activity_game()
    alice, bob, carol = (open_activity(game_server, user) for user in (ALICE, BOB, CAROL))
    for opened in (alice, bob, carol):
        expect(opened.board.locator("#connection")).to_have_text("Live")
    game = game_server.game()
    # Each player sees their own rack, the third user none.
    expect(alice.board.locator("#rack .rack-tile")).to_have_count(7)
    expect(bob.board.locator("#rack .rack-tile")).to_have_count(7)
    assert sorted(alice.rack()) == sorted(game.players[0].rack)
    assert sorted(bob.rack()) == sorted(game.players[1].rack)
    expect(carol.board.locator("#play-panel")).to_be_hidden()
    expect(alice.board.locator("#turn")).to_have_text("Your turn")
    expect(carol.board.locator("#turn")).to_have_text("Alice to move")

    # The SDK's frames: the handshake, then authorize (identify, no prompt) and authenticate.
    (handshake,) = handshakes(alice.page)
    assert handshake == {
        "v": 1,
        "encoding": "json",
        "client_id": str(game_server.fake.application_id),
        "frame_id": handshake["frame_id"],
        "sdk_version": "2.5.0",
    }
    authorize, authenticate = alice.client.commands
    assert authorize == (
        "AUTHORIZE",
        {
            "client_id": str(game_server.fake.application_id),
            "response_type": "code",
            "state": "",
            "prompt": "none",
            "scope": ["identify"],
        },
    )
    assert authenticate == ("AUTHENTICATE", {"access_token": game_server.fake.access_token_of(ALICE.id)})

    # Alice drags a word across the start square, Bob one down through its first letter.
    row, col = game.variant.start
    word = plain_letters(game.players[0].rack, 3)
    for index, letter in enumerate(word):
        tile = alice.board.locator(f'#rack .rack-tile[data-letter="{letter}"]').first
        drag(alice.page, tile, alice.square(row, col + index))
    alice.board.get_by_role("button", name="Play", exact=True).click()
    expect(carol.board.locator("#history li")).to_have_count(1)
    first = game_server.game()
    expect(bob.board.locator("#turn")).to_have_text("Your turn")
    letters = plain_letters(first.players[1].rack, 2)
    for index, letter in enumerate(letters):
        tile = bob.board.locator(f'#rack .rack-tile[data-letter="{letter}"]').first
        drag(bob.page, tile, bob.square(row + 1 + index, col))
    bob.board.get_by_role("button", name="Play", exact=True).click()
    expect(carol.board.locator("#history li")).to_have_count(2)
    second = game_server.game()
    expect(carol.board.locator("#history li .move")).to_have_text(
        [move_in_words(entry.move, second.board) for entry in second.history]
    )
    expect(carol.board.locator("#players .score")).to_have_text([str(p.score) for p in second.players])
    assert second.players[0].score > 0 and second.players[1].score > 0
    assert sorted(bob.rack()) == sorted(second.players[1].rack)
    assert alice.errors == bob.errors == carol.errors == []


def test_a_player_who_opened_the_lobby_plays_their_seat_once_the_game_starts(
    activity_game: Callable[..., ActivityGame], open_activity: Callable[..., Opened]
) -> None:
    game_server = activity_game(users=())
    service = game_server.harness.svc
    game_server.run(service.new_game(GUILD, CHANNEL, ALICE))
    game_server.run(service.join(CHANNEL, BOB))
    alice = open_activity(game_server, ALICE)
    expect(alice.board.locator("#connection")).to_have_text("Live")
    expect(alice.board.locator("#play-panel")).to_be_hidden()
    game_server.run(service.start_game(CHANNEL, ALICE.id))
    expect(alice.board.locator("#rack .rack-tile")).to_have_count(7)
    game = game_server.game()
    seat = next(
        s.seat
        for s in game_server.call(lambda: service.host.tables[CHANNEL].row.seats)
        if s.user_id == ALICE.id
    )
    assert sorted(alice.rack()) == sorted(game.players[seat].rack)
    assert [command for command, _ in alice.client.commands] == ["AUTHORIZE", "AUTHENTICATE"] * 2
    assert alice.errors == []


def test_a_go_game_opens_in_the_activity_too(
    activity_game: Callable[..., ActivityGame], open_activity: Callable[..., Opened]
) -> None:
    game_server = activity_game(users=())
    go = game_server.harness.svc.host.commands["go"]
    game_server.run(go.new_game(GUILD, CHANNEL, ALICE, GoNewGame(size=5, colour="black", opponent=BOB.id)))
    game_server.run(go.join(CHANNEL, BOB))
    alice, bob, carol = (open_activity(game_server, user) for user in (ALICE, BOB, CAROL))
    expect(alice.board.locator("#grid-turn")).to_have_text("Your move")
    expect(bob.board.locator("#grid-turn")).to_have_text("Alice to move")
    expect(carol.board.locator("#grid-actions button")).to_have_count(0)
    alice.board.locator('.grid-cell[data-row="2"][data-col="2"]').click()
    expect(carol.board.locator("#grid-history li")).to_have_text(["Alice: C3"])
    expect(bob.board.locator("#grid-turn")).to_have_text("Your move")
    alice.page.screenshot(path=str(screenshots(game_server) / "activity-go-1280x800.png"))
    assert alice.errors == bob.errors == carol.errors == []


def test_a_user_with_no_seat_cannot_act(
    activity_game: Callable[..., ActivityGame], open_activity: Callable[..., Opened]
) -> None:
    game_server = activity_game()
    carol = open_activity(game_server, CAROL)
    expect(carol.board.locator("#connection")).to_have_text("Live")
    expect(carol.board.locator("#play-panel")).to_be_hidden()
    # Even a command sent by hand with the token the page got is refused: it is a spectator's.
    hello = json.loads(next(frame for frame in carol.sent if '"hello"' in frame))
    answer = carol.page.frames[1].evaluate(
        """(token) => new Promise((resolve) => {
            const socket = new WebSocket(new URL("ws", location.href).href.replace(/^http/, "ws"));
            socket.onopen = () => socket.send(JSON.stringify({type: "hello", protocol: 1, token}));
            socket.onmessage = (message) => {
                const data = JSON.parse(message.data);
                if (data.type === "welcome") socket.send(JSON.stringify({type: "pass", id: 1, turn: 0}));
                if (data.type === "reply") resolve(data);
            };
        })""",
        hello["token"],
    )
    assert answer["error"] == {"code": "not_seated", "message": answer["error"]["message"]}
    assert game_server.game().history == []


class ForgedClient(DiscordClientFrame):
    """A client whose ``authorize`` answers ``code`` whatever Discord would give."""

    forged: str = ""

    def command(self, cmd: str, args: Any) -> dict[str, Any]:
        if cmd == "AUTHORIZE" and self.forged:
            self.commands.append((cmd, args))
            return {"data": {"code": self.forged}}
        return super().command(cmd, args)


def test_a_forged_or_replayed_code_is_refused_and_no_game_says_how_to_start_one(
    activity_game: Callable[..., ActivityGame], open_activity: Callable[..., Opened]
) -> None:
    game_server = activity_game()
    forger = ForgedClient(game_server.fake, CAROL, game_server.call)
    forger.forged = "f0rgedc0de" * 3
    forged = open_activity(game_server, CAROL, client=forger)
    expect(forged.board.locator("#fatal")).to_have_text(
        "Discord did not accept this sign-in: close the board and open it again"
    )
    expect(forged.board.locator("#play-panel")).to_be_hidden()
    # Alice's code, spent by her own client, replayed by another.
    alice = open_activity(game_server, ALICE)
    expect(alice.board.locator("#connection")).to_have_text("Live")
    spent = next(request.json["code"] for request in game_server.fake.find("POST", "/oauth2/token")[-1:])
    replayer = ForgedClient(game_server.fake, ALICE, game_server.call)
    replayer.forged = spent
    replayed = open_activity(game_server, ALICE, client=replayer)
    expect(replayed.board.locator("#fatal")).to_have_text(
        "this sign-in was used already: close the board and open it again"
    )
    expect(replayed.board.locator("#rack .rack-tile")).to_have_count(0)
    elsewhere = open_activity(game_server, ALICE, channel=OTHER_CHANNEL)
    expect(elsewhere.board.locator("#fatal")).to_have_text(
        "No game here: start one with /scrabble new or /go new, then open the board again."
    )
    elsewhere.page.screenshot(path=str(screenshots(game_server) / "activity-no-game.png"))


def test_outside_discord_the_board_still_opens_by_its_links_and_is_never_framed(
    activity_game: Callable[..., ActivityGame], browser: Browser
) -> None:
    game_server = activity_game()
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(game_server.link(0))
        expect(page.locator("#connection")).to_have_text("Live")
        expect(page.locator("#rack .rack-tile")).to_have_count(7)
        # The Activity's root without Discord's query: the plain page, asking for its link.
        page.goto(game_server.activity_url)
        expect(page.locator("#fatal")).to_have_text(
            "This page needs the link the bot gave you: it ends with #t= and a token."
        )
        # The plain board refuses to be framed, even by Discord's client.
        client = game_server.client(ALICE)
        framed = client.open(context, game_server.link(0), channel=CHANNEL, guild=GUILD)
        framed.wait_for_timeout(500)
        assert activity_of(framed).locator("#connection").count() == 0
    finally:
        context.close()


@pytest.mark.parametrize(("width", "height", "platform"), [(1280, 800, "desktop"), (360, 740, "mobile")])
def test_the_activity_at_desktop_and_phone_sizes(
    activity_game: Callable[..., ActivityGame],
    open_activity: Callable[..., Opened],
    width: int,
    height: int,
    platform: str,
) -> None:
    game_server = activity_game()
    alice = open_activity(game_server, ALICE, width, height, platform)
    board = alice.board
    expect(board.locator("#connection")).to_have_text("Live")
    expect(board.locator("#rack .rack-tile")).to_have_count(7)
    expect(board.get_by_role("button", name="Play", exact=True)).to_be_in_viewport()
    frame = alice.page.frames[1]
    assert frame.evaluate("document.documentElement.scrollWidth") <= width
    alice.page.screenshot(path=str(screenshots(game_server) / f"activity-{width}x{height}.png"))
    assert alice.errors == []


@pytest.mark.slow
def test_a_whole_game_between_two_players_in_the_activity_by_dragging(
    activity_game: Callable[..., ActivityGame],
    open_activity: Callable[..., Opened],
    enable_lexicon: Lexicon,
    tmp_path: Path,
) -> None:
    from scrabble_core.movegen import load_move_generator

    generator = load_move_generator(enable_lexicon, tmp_path / "movegen")
    game_server = activity_game()
    variant = game_server.game().variant
    players = [open_activity(game_server, user) for user in (ALICE, BOB)]
    watcher = open_activity(game_server, CAROL)
    plays = 0
    while game_server.call(lambda: CHANNEL in game_server.harness.svc.host.tables):
        opened = players[game_server.game().current or 0]
        expect(opened.board.locator("#turn")).to_have_text("Your turn", timeout=15_000)
        plays += play_best_by_dragging(opened.page, opened.page.frames[1], generator, variant)
    final = finished_game(game_server)
    assert final.is_over and plays >= 10, plays
    expect(watcher.board.locator("#final-scores .score")).to_have_count(2)
    assert sorted(
        int(s) for s in watcher.board.locator("#final-scores .score").all_text_contents()
    ) == sorted(p.score for p in final.players)
