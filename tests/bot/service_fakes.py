"""Fakes and helpers for the game-service tests: a fake clock, a recording notifier, a quick renderer,
a deterministic AI and advisor, and a harness that opens a service over a real SQLite file.

Imported by the ``test_service*.py`` modules (pytest puts this directory on ``sys.path``).
"""

from __future__ import annotations

import asyncio
import datetime
import heapq
import itertools
import sqlite3
import time
from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest

from bot.config import Config, TurnConfig
from bot.games.go.ai_turns import ThreadGoAi
from bot.games.go.protocols import GoAi, GoBoardRenderer
from bot.games.scrabble import records
from bot.games.scrabble.commands import NewGame, ScrabbleCommands, User
from bot.games.scrabble.images import BoardHeader
from bot.games.scrabble.options import ScrabbleOptions
from bot.games.scrabble.protocols import Advisor, AiPlayer, Renderer, Suggestion
from bot.games.scrabble.table import ScrabbleTable
from bot.host.errors import NoGameError
from bot.host.messages import Message
from bot.host.protocols import Clock, Notifier, SystemClock
from bot.host.runner import Host
from bot.host.setup import build_host
from bot.host.store import GameRow, GameStatus, SeatRow, Store
from scrabble_core.board import Board
from scrabble_core.errors import ScrabbleError
from scrabble_core.game import Game
from scrabble_core.lexicon import WordList
from scrabble_core.move import Move, Pass, Play
from scrabble_core.squares import Square
from scrabble_core.validation import check_play
from scrabble_core.variant import BLANK, Variant

GUILD = 1000
CHANNEL = 2000
OTHER_CHANNEL = 2001
ALICE = User(11, "Alice")
BOB = User(12, "Bob")
CAROL = User(13, "Carol")
DAVE = User(14, "Dave")
EVE = User(15, "Eve")
START_TIME = 1_700_000_000.0
CREATOR_FIRST_SEED = 2
"""A game seed whose draw for the first turn is won by the creator (the first seat to join), with 2, 3
or 4 players, on the standard and super boards: seats then play in joining order from the creator.
Other seeds draw someone else first (seed 7: the second player with 2 or 3 players, the fourth with 4),
and tests that use them find who is on turn (:func:`on_turn`)."""


class DayClock(SystemClock):
    """The real clock moved to noon UTC of ``day`` when it is made: time passes and sleeps end as in real
    time, on a day the test fixes (what depends on the day, as the daily puzzle, is that day's)."""

    def __init__(self, day: datetime.date) -> None:
        noon = datetime.datetime.combine(day, datetime.time(12), datetime.UTC).timestamp()
        self._offset = noon - time.time()

    def now(self) -> float:
        """The real time, moved to ``day``."""
        return time.time() + self._offset


class FakeClock:
    """A clock that moves only when told to: :meth:`advance` wakes the sleepers whose time came, and
    after each waits for what it woke (:attr:`settle`) before it moves on."""

    def __init__(self, now: float = START_TIME) -> None:
        self._now = now
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._slept = asyncio.Event()
        self.settle: Callable[[], Awaitable[None]] | None = None
        """What :meth:`advance` awaits after waking a sleeper, until it is over or something sleeps on
        this clock again: the host's timer actions (they save in the store's thread, in real time, may
        arm the next timer, or sleep before retrying a save)."""

    def now(self) -> float:
        return self._now

    async def sleep(self, seconds: float) -> None:
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (self._now + seconds, next(self._order), future))
        self._slept.set()
        await future

    async def advance(self, seconds: float) -> None:
        """Move time forward, waking sleepers in order and letting what each woke run (:attr:`settle`).
        Tasks started just before (a timer armed by the last command) begin their sleep first."""
        for _ in range(5):
            await asyncio.sleep(0)
        target = self._now + seconds
        while self._sleepers and self._sleepers[0][0] <= target:
            wake, _, future = heapq.heappop(self._sleepers)
            self._now = max(self._now, wake)
            self._slept.clear()
            if not future.done():
                future.set_result(None)
            for _ in range(5):
                await asyncio.sleep(0)
            await self._settled()
        self._now = target
        for _ in range(5):
            await asyncio.sleep(0)

    async def _settled(self) -> None:
        """Wait until :attr:`settle` is over or something sleeps on this clock (since the last wake)."""
        if self.settle is None or self._slept.is_set():
            return
        waits = [asyncio.ensure_future(self.settle()), asyncio.ensure_future(self._slept.wait())]
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for wait in waits:
                wait.cancel()


@dataclass
class RecordingNotifier:
    """Records every public post, DM and typing indicator; users in ``closed`` have their DMs closed."""

    posts: list[tuple[int, Message]] = field(default_factory=list)
    dms: list[tuple[int, Message]] = field(default_factory=list)
    closed: set[int] = field(default_factory=set)
    typings: list[int] = field(default_factory=list)

    async def typing(self, channel_id: int) -> None:
        self.typings.append(channel_id)

    async def post(self, channel_id: int, message: Message) -> None:
        self.posts.append((channel_id, message))

    async def direct(self, user_id: int, message: Message) -> bool:
        if user_id in self.closed:
            return False
        self.dms.append((user_id, message))
        return True

    def texts(self, channel_id: int = CHANNEL) -> list[str]:
        return [message.text for channel, message in self.posts if channel == channel_id]


class QuickRenderer:
    """A renderer that returns small fake PNGs at once (the real one is used in a few tests)."""

    def board(self, board: Board, last_move: Collection[Square], header: BoardHeader) -> bytes:
        return b"board"

    def rack(self, tiles: str, variant: Variant) -> bytes:
        return b"rack"

    def chart(self, players: Sequence[str], totals: Sequence[Sequence[int]]) -> bytes:
        return b"chart"

    def rating_chart(self, name: str, ratings: Sequence[object]) -> bytes:
        return b"rating chart"


class AnyWord:
    """A lexicon that accepts every word except those listed as phonies."""

    name = "TESTWORDS"

    def __init__(self, phonies: Collection[str] = ()) -> None:
        self.phonies = set(phonies)

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and word not in self.phonies


class GatedNotifier(RecordingNotifier):
    """Records posts like :class:`RecordingNotifier`, but each post waits for :attr:`gate` first
    (while it is not set), counting the posts that started in :attr:`started`."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = asyncio.Event()
        self.gate.set()
        self.started = 0

    async def post(self, channel_id: int, message: Message) -> None:
        self.started += 1
        await self.gate.wait()
        await super().post(channel_id, message)

    def hold(self) -> None:
        """Make the posts from now on wait at the gate, counting them from 0."""
        self.gate.clear()
        self.started = 0


def lose_outbox_marks(monkeypatch: pytest.MonkeyPatch, store: Store) -> None:
    """Make every mark of ``store``'s outbox (posted, sent) fail: the store as a process killed right
    after each post leaves it."""

    async def lost(entry_id: int, at: float) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(store, "mark_posted", lost)
    monkeypatch.setattr(store, "mark_sent", lost)


async def gated(harness: Harness) -> GatedNotifier:
    """Give ``harness`` a :class:`GatedNotifier` (its gate open) and restart its service with it."""
    notifier = GatedNotifier()
    harness.notifier = notifier
    await harness.restart()
    return notifier


async def settle() -> None:
    """Let the event loop run what is ready (a few rounds)."""
    for _ in range(50):
        await asyncio.sleep(0)


async def first_post_started(notifier: GatedNotifier, count: int = 1) -> None:
    """Wait (in real time: images are rendered in threads) until ``count`` posts started since the
    gate was held (the last of them waits at it)."""
    for _ in range(2000):
        if notifier.started >= count:
            break
        await asyncio.sleep(0.01)
    await settle()


def find_play(game: Game, seat: int) -> Play | None:
    """A legal play of ``seat``, found deterministically: on an empty board, the first two rack tiles
    across the start square; later, one tile on the first free square next to a tile (any word is
    accepted by :class:`AnyWord`)."""
    rack = game.players[seat].rack
    board = game.board
    letters = [tile.lower() if tile != BLANK else "e" for tile in rack]
    real = ["E" if tile == BLANK else tile for tile in rack]
    tiles = [letters[i] if rack[i] == BLANK else real[i] for i in range(len(rack))]
    if not tiles:
        return None
    if board.is_empty():
        if len(tiles) < 2:
            return None
        row, col = game.variant.start
        return Play(row, col, True, tiles[0] + tiles[1])
    for square in game.variant.squares():
        if board.occupied(square):
            continue
        row, col = square
        if not any(
            board.occupied(n) for n in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
        ):
            continue
        play = Play(row, col, True, tiles[0])
        try:
            check_play(board, play, rack=rack)
        except ScrabbleError:
            continue
        return play
    return None


def typed(play: Play) -> str:
    """A play as a player types it: uppercase letters, ``?E`` for a blank E."""
    word = "".join(f"?{letter.upper()}" if letter.islower() else letter for letter in play.letters)
    return f"{play.coordinate} {word}"


class SimpleAi:
    """An in-process AI: :func:`find_play`, else a pass. Records its calls; ``gate`` (if set) makes
    every choice wait until it is set."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, str, int]] = []
        self.gate: asyncio.Event | None = None

    async def choose(self, game: Game, seat: int, level: str, seed: int) -> Move:
        self.calls.append((seat, level, seed))
        if self.gate is not None:
            await self.gate.wait()
        play = find_play(game, seat)
        return Pass() if play is None else play


class SimpleAdvisor:
    """An advisor that suggests :func:`find_play` as its only move."""

    async def top_moves(self, game: Game, seat: int, limit: int) -> Sequence[Suggestion]:
        play = find_play(game, seat)
        if play is None:
            return []
        return [Suggestion(typed(play), 1, "")][:limit]


async def games_host(
    config: Config,
    store: Store,
    notifier: Notifier,
    lexicon: WordList,
    ai: AiPlayer,
    advisor: Advisor | None = None,
    *,
    renderer: Renderer | None = None,
    clock: Clock | None = None,
    new_seed: Callable[[], int] | None = None,
    go_ai: GoAi | None = None,
    go_renderer: GoBoardRenderer | None = None,
) -> Host:
    """A host over ``store`` with the built-in games and these stand-ins (Scrabble's ``lexicon``, ``ai``,
    ``advisor`` and ``renderer``, by default :class:`QuickRenderer`; Go's AI, by default the built-in
    one in a thread, and board renderer), as the bot builds it (:func:`bot.host.setup.build_host`). A
    :class:`FakeClock` settles on the host's timer actions (:attr:`FakeClock.settle`)."""
    scrabble: dict[str, object] = {"lexicon": lexicon, "ai": ai, "advisor": advisor}
    scrabble["renderer"] = renderer or QuickRenderer()
    go: dict[str, object] = {"ai": go_ai or ThreadGoAi(0.2, "builtin")}
    if go_renderer is not None:
        go["renderer"] = go_renderer
    if new_seed is not None:
        scrabble["new_seed"] = go["new_seed"] = new_seed
    host = await build_host(config, store, notifier, clock=clock, options={"scrabble": scrabble, "go": go})
    if isinstance(clock, FakeClock):
        clock.settle = host.timer_actions_done
    return host


def make_config(**turn: object) -> Config:
    """A configuration for tests, with turn settings overridden."""
    return Config(database=Path("unused"), turn=TurnConfig(**turn))  # type: ignore[arg-type]


@dataclass
class Harness:
    """A service over a real database (an SQLite file, or a PostgreSQL URL) with recording fakes;
    :meth:`restart` replaces the service by a new one on the same database (keeping the notifier and
    clock)."""

    path: Path
    config: Config
    lexicon: AnyWord
    clock: FakeClock = field(default_factory=FakeClock)
    notifier: RecordingNotifier = field(default_factory=RecordingNotifier)
    ai: SimpleAi = field(default_factory=SimpleAi)
    store: Store | None = None
    host: Host | None = None
    service: ScrabbleCommands | None = None
    url: str | None = None
    """A PostgreSQL database to use instead of the file ``path``."""

    @property
    def database(self) -> Path | str:
        """The database the service runs on: ``url``, or else ``path``."""
        return self.url or self.path

    async def open(self) -> ScrabbleCommands:
        self.store = await Store.open(self.database)
        self.host = await games_host(
            self.config, self.store, self.notifier, self.lexicon, self.ai, SimpleAdvisor(), clock=self.clock
        )
        self.service = self.host.commands["scrabble"]
        await self.host.start()
        return self.service

    async def close(self) -> None:
        if self.host is not None:
            await self.host.close()
        if self.store is not None:
            await self.store.close()
        self.host = None
        self.service = None
        self.store = None

    async def restart(self) -> ScrabbleCommands:
        await self.close()
        return await self.open()

    @property
    def svc(self) -> ScrabbleCommands:
        assert self.service is not None
        return self.service

    @property
    def games(self) -> Host:
        assert self.host is not None
        return self.host


async def open_harness(
    tmp_path: Path,
    config: Config | None = None,
    phonies: Collection[str] = (),
    database: Path | str | None = None,
) -> Harness:
    """A started harness on ``database`` (a file, or a PostgreSQL URL; by default
    ``tmp_path/games.sqlite3``)."""
    path = database if isinstance(database, Path) else tmp_path / "games.sqlite3"
    url = database if isinstance(database, str) else None
    harness = Harness(path, config or make_config(), AnyWord(phonies), url=url)
    await harness.open()
    return harness


async def started_game(
    harness: Harness,
    users: Sequence[User] = (ALICE, BOB),
    *,
    ai: int = 0,
    seed: int = CREATOR_FIRST_SEED,
    **options: object,
) -> None:
    """Create and start a game in CHANNEL: ``users`` (the first creates it) and ``ai`` AI opponents.
    With the default seed the creator draws first (see :data:`CREATOR_FIRST_SEED`)."""
    service = harness.svc
    await service.new_game(GUILD, CHANNEL, users[0], NewGame(ai_opponents=ai, seed=seed, **options))  # type: ignore[arg-type]
    for user in users[1:]:
        await service.join(CHANNEL, user)
    await service.start_game(CHANNEL, users[0].id)
    await service.idle()


async def delivered(harness: Harness) -> None:
    """Wait until what the service queued for the channels went out (while an AI may still think)."""
    await harness.games.delivered()


def seat_users(users: Sequence[User], ai: int) -> list[User]:
    """The users by seat in a game made by :func:`started_game` in which the creator drew first: the
    creator, the AI seats (a user of id 0 stands for each), then the others in joining order."""
    return [users[0], *[User(0, "AI")] * ai, *users[1:]]


def on_turn(harness: Harness, users: Sequence[User]) -> User:
    """The user of ``users`` whose turn it is in CHANNEL's game (found by their seat's name)."""
    game = harness.svc.game(CHANNEL)
    name = game.players[game.current].name
    return next(user for user in users if user.name == name)


async def play_turn(harness: Harness, users: Sequence[User]) -> None:
    """The human whose turn it is plays :func:`find_play`, or passes."""
    service = harness.svc
    game = service.game(CHANNEL)
    seat = game.current
    user = on_turn(harness, users)
    play = find_play(game, seat)
    if game.awaiting_final_challenge:
        await service.accept(CHANNEL, user.id)
    elif play is None:
        await service.pass_turn(CHANNEL, user.id)
    else:
        await service.play(CHANNEL, user.id, typed(play))
    await service.idle()


async def play_to_end(harness: Harness, users: Sequence[User], max_turns: int = 500) -> None:
    """Play the channel's game to its end (humans in ``users`` by seat, AI seats by themselves)."""
    for _ in range(max_turns):
        try:
            harness.svc.game(CHANNEL)
        except NoGameError:
            return
        await play_turn(harness, users)
    raise AssertionError("the game did not end")


def scrabble_row(
    id: int,
    guild_id: int,
    channel_id: int,
    creator_id: int,
    status: GameStatus,
    options: ScrabbleOptions,
    seed: int,
    state: Mapping[str, Any] | None,
    seats: tuple[SeatRow, ...],
    deadline: float | None = None,
    reminded: bool = False,
    created_at: float = 0.0,
    updated_at: float = 0.0,
) -> GameRow:
    """A stored Scrabble game with these fields (its options written as Scrabble's plugin writes them)."""
    return GameRow(
        id, "scrabble", guild_id, channel_id, creator_id, status, options.to_dict(), seed, state, seats,
        deadline, reminded, created_at, updated_at,
    )  # fmt: skip


def with_result(row: GameRow) -> GameRow:
    """The finished Scrabble game ``row`` with its result, as the host stores it when it finishes (none
    when its state cannot be read)."""
    try:
        table = ScrabbleTable(
            row, ScrabbleOptions.from_dict(row.options), Game.from_dict(dict(row.state or {}))
        )
    except ScrabbleError:
        return replace(row, result=())
    return replace(row, result=records.result(table))
