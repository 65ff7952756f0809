"""Go as a game of the host: one open game per channel whatever its kind (both directions), Go games
beside Scrabble's in the same store (Scrabble's start, outbox and stats do not see them), a database of
schema 4 carried over, the real board image, and the real Go AI in a thread and in the AI worker pool."""

from __future__ import annotations

import json
import logging
import sqlite3
from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from go_fakes import GO_CHANNEL, ScriptedGoAi
from service_fakes import (
    ALICE,
    BOB,
    CHANNEL,
    GUILD,
    AnyWord,
    GatedNotifier,
    Harness,
    SimpleAdvisor,
    first_post_started,
    games_host,
    make_config,
)

from bot.games.go import engines
from bot.games.go.ai_turns import PoolGoAi, ThreadGoAi
from bot.games.go.board_image import render_go_board
from bot.games.go.commands import GoCommands
from bot.games.go.engines import Level, find_gnugo
from bot.games.go.options import GoNewGame
from bot.games.scrabble.commands import ScrabbleCommands
from bot.games.scrabble.options import ScrabbleOptions
from bot.host.ai.executor import AiExecutor, WorkerConfig
from bot.host.errors import ChannelBusyError, GameExistsError
from bot.host.rating_model import INITIAL, rate
from bot.host.store import MIGRATIONS_DIR, ChannelTakenError, GameRow, GameStatus, SeatRow, Store
from go_core import Board, Color, Game, Point
from go_core.ai import STATUS_BUDGET
from scrabble_core.ai import Level as ScrabbleLevel
from scrabble_core.game import ChallengeMode
from scrabble_core.lexicon import Lexicon

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@dataclass
class HostHarness(Harness):
    """The Scrabble harness, its service hosting Go too (the scripted Go AI, the real board image)."""

    go_ai: ScriptedGoAi | None = None
    store_type: type[Store] = Store

    async def open(self) -> ScrabbleCommands:
        self.store = await self.store_type.open(self.path)
        self.go_ai = self.go_ai or ScriptedGoAi()
        self.host = await games_host(
            self.config,
            self.store,
            self.notifier,
            self.lexicon,
            self.ai,
            SimpleAdvisor(),
            clock=self.clock,
            go_ai=self.go_ai,
            go_renderer=render_go_board,
        )
        self.service = self.host.commands["scrabble"]
        await self.host.start()
        return self.service

    @property
    def go(self) -> GoCommands:
        go: GoCommands = self.games.commands["go"]
        return go


@pytest.fixture
async def host(tmp_path: Path) -> AsyncIterator[HostHarness]:
    harness = HostHarness(tmp_path / "games.sqlite3", make_config(), AnyWord())
    await harness.open()
    yield harness
    await harness.close()


async def test_a_channel_with_a_scrabble_game_refuses_a_go_game_and_says_why(host: HostHarness) -> None:
    await host.svc.new_game(GUILD, CHANNEL, ALICE)
    with pytest.raises(ChannelBusyError) as refused:
        await host.go.new_game(GUILD, CHANNEL, BOB, GoNewGame(size=9))
    assert str(refused.value) == (
        "This channel already has a Scrabble game: finish or cancel it first, or use another channel or a thread"
    )
    assert not host.go.has_game(CHANNEL)
    await host.go.new_game(GUILD, GO_CHANNEL, BOB, GoNewGame(size=9))  # another channel is free
    assert host.go.has_game(GO_CHANNEL)


async def test_a_channel_with_a_go_game_refuses_a_scrabble_game_and_another_go_game(
    host: HostHarness,
) -> None:
    await host.go.new_game(GUILD, CHANNEL, ALICE, GoNewGame(size=9))
    go_busy = (
        "This channel already has a Go game: finish or cancel it first, or use another channel or a thread"
    )
    with pytest.raises(ChannelBusyError) as refused:
        await host.svc.new_game(GUILD, CHANNEL, BOB)
    assert str(refused.value) == go_busy
    assert isinstance(refused.value, GameExistsError)  # the front ends' "game exists" refusal
    with pytest.raises(ChannelBusyError, match=f"^{go_busy}$"):
        await host.go.new_game(GUILD, CHANNEL, BOB, GoNewGame(size=13))
    await host.go.cancel(CHANNEL, ALICE.id)
    await host.svc.new_game(GUILD, CHANNEL, BOB)  # free again once the Go game is over


async def test_scrabble_and_go_share_the_channel_locks(host: HostHarness) -> None:
    assert host.go.host.locks is host.svc.host.locks


async def test_scrabble_and_go_messages_of_a_channel_go_out_in_order_behind_their_answers(
    host: HostHarness,
) -> None:
    notifier = GatedNotifier()
    host.notifier = notifier
    await host.restart()
    notifier.gate.clear()
    await host.svc.new_game(GUILD, CHANNEL, ALICE)
    await host.svc.cancel(CHANNEL, ALICE.id, can_manage=False)
    ack = await host.go.new_game(GUILD, CHANNEL, BOB, GoNewGame(size=9))
    assert ack.text == "Your Go game is open: it starts when someone presses Join."
    await first_post_started(notifier)
    assert (notifier.started, notifier.posts) == (1, [])  # one channel, one queue: the others wait
    notifier.gate.set()
    await host.svc.idle()
    texts = notifier.texts(CHANNEL)
    assert len(texts) == 3
    assert texts[0].startswith("New standard game by <@11>: ")
    assert texts[1:] == [
        "<@11> cancelled the game.",
        "<@12> opened a Go game (9×9, komi 7.5, area scoring, no time limit) and plays Black.\n"
        "Anyone may join to play White.",
    ]


async def test_go_games_restart_beside_scrabble_games(host: HostHarness) -> None:
    await host.svc.new_game(GUILD, CHANNEL, ALICE)
    await host.go.new_game(GUILD, GO_CHANNEL, ALICE, GoNewGame(size=9, opponent=BOB.id))
    await host.go.join(GO_CHANNEL, BOB)
    await host.go.play(GO_CHANNEL, ALICE.id, "E5")
    before = host.go.game(GO_CHANNEL).to_dict()
    await host.restart()
    assert host.go.game(GO_CHANNEL).to_dict() == before
    assert host.svc.open_table(1).row.channel_id == CHANNEL  # the Scrabble game, game 1
    with pytest.raises(Exception, match="That game is over"):
        host.svc.open_table(2)  # the Go game is not Scrabble's
    with sqlite3.connect(host.path) as db:
        assert db.execute("SELECT id, kind, quarantined FROM games ORDER BY id").fetchall() == [
            (1, "scrabble", None),
            (2, "go", None),
        ]


async def test_a_go_announcement_left_unsent_is_delivered_by_go_not_dropped_by_scrabble(
    host: HostHarness,
) -> None:
    class NoMarks(Store):
        async def mark_sent(self, entry_id: int, at: float) -> None:
            raise OSError("the process died before marking it sent")

    host.store_type = NoMarks
    await host.restart()
    await host.go.new_game(GUILD, GO_CHANNEL, ALICE, GoNewGame(size=9, ai_level="easy", seed=1))
    await host.go.delivered()
    posted = host.notifier.texts(GO_CHANNEL)[-1]
    host.store_type = Store
    await host.restart()
    assert host.notifier.texts(GO_CHANNEL)[-2:] == [posted, posted]
    assert host.store is not None
    assert await host.store.pending_outbox() == []


async def test_the_board_image_is_a_real_png(host: HostHarness) -> None:
    await host.go.new_game(GUILD, GO_CHANNEL, ALICE, GoNewGame(size=19, ai_level="easy", seed=1))
    await host.go.delivered()
    (image,) = host.notifier.posts[-1][1].attachments
    assert image.filename == "go-1-1.png"
    assert image.data.startswith(PNG_MAGIC)
    assert len(image.data) < 300_000


async def test_a_schema_4_database_carries_over(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    options = ScrabbleOptions("standard", ChallengeMode.VOID, 0, 0, ScrabbleLevel.MEDIUM)
    with sqlite3.connect(path) as db:  # as the previous version left it: schema 4, one open game
        for script in sorted(MIGRATIONS_DIR.glob("000[1-4]_*.sql")):
            db.executescript(script.read_text(encoding="utf-8"))
        db.execute("PRAGMA user_version = 4")
        db.execute(
            "INSERT INTO games (guild_id, channel_id, creator_id, status, options, seed, created_at, updated_at) "
            "VALUES (?, ?, ?, 'lobby', ?, 1, 0, 0)",
            (GUILD, CHANNEL, ALICE.id, json.dumps(options.to_dict())),
        )
        db.execute("INSERT INTO seats (game_id, seat, user_id, name) VALUES (1, 0, ?, 'Alice')", (ALICE.id,))
    store = await Store.open(path)
    try:
        assert await store.schema_version() == len(list(MIGRATIONS_DIR.glob("*.sql")))
        (row,) = await store.open_games()
        assert (row.id, row.kind, row.channel_id, row.options) == (1, "scrabble", CHANNEL, options.to_dict())
        go = GameRow(
            0,
            "go",
            GUILD,
            CHANNEL,
            BOB.id,
            GameStatus.LOBBY,
            {"size": 9},
            1,
            None,
            (SeatRow(0, BOB.id, "Bob"),),
        )
        with pytest.raises(ChannelTakenError) as taken:
            await store.create_game(go, [])
        assert taken.value.kind == "scrabble"
        created = await store.create_game(replace(go, channel_id=GO_CHANNEL), [])
        assert created.id == 2
        assert [(g.id, g.kind) for g in await store.open_games()] == [(1, "scrabble"), (2, "go")]
        assert await store.game(2) == created
    finally:
        await store.close()


def _territory_game() -> Game:
    """A 9×9 game after two passes: Black's wall on the D column, White's on E, a lone black stone on
    H5 inside White's area (dead)."""
    rows = ["...XO...."] * 4 + ["...XO..X."] + ["...XO...."] * 4
    game = Game(9)
    board = Board.from_rows(rows)
    for color in (Color.BLACK, Color.WHITE):
        for point in board.stones(color):
            game.play(point, color, any_turn=True)
    game.pass_turn(Color.WHITE, any_turn=True)
    game.pass_turn(Color.BLACK, any_turn=True)
    return game


async def test_the_builtin_ai_in_a_thread_plays_legal_moves_and_proposes_dead_stones(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The lone stone is Black's at the end of about 47% of the playouts: only some thousand playouts tell
    # it dead, so the estimate runs all the status budget's playouts, on either core and however loaded
    # the machine (the easy level's move stops at its own playouts).
    monkeypatch.setattr(engines, "STATUS_BUDGET", replace(STATUS_BUDGET, seconds=60.0))
    ai = ThreadGoAi(60.0, "builtin")
    game = Game(9)
    move = await ai.choose(game, Level.EASY, seed=3)
    assert isinstance(move, Point) and game.is_legal(move)
    assert await ai.dead_stones(_territory_game()) == (frozenset({Point.parse("H5", 9)}), "the built-in AI")


@pytest.mark.skipif(find_gnugo() is None, reason="GNU Go is not installed")
async def test_gnu_go_in_a_thread_plays_and_proposes_dead_stones() -> None:
    ai = ThreadGoAi(10.0, "gnugo")
    game = Game(9)
    move = await ai.choose(game, Level.EASY, seed=3)
    assert isinstance(move, Point) and game.is_legal(move)  # GNU Go opens on an empty board
    assert await ai.dead_stones(_territory_game()) == (frozenset({Point.parse("H5", 9)}), "GNU Go")


async def test_the_go_ai_runs_in_the_ai_worker_pool(enable_lexicon: Lexicon) -> None:
    assert enable_lexicon.trie_path is not None
    config = WorkerConfig(cache_dir=str(enable_lexicon.trie_path.parent))
    async with AiExecutor(config) as executor:
        ai = PoolGoAi(executor, 10.0, "builtin")
        game = Game(9)
        move = await ai.choose(game, Level.EASY, seed=3)
        assert isinstance(move, Point) and game.is_legal(move)
        dead = await ai.dead_stones(_territory_game())
        assert dead == (frozenset({Point.parse("H5", 9)}), "the built-in AI")
        if find_gnugo() is not None:  # GNU Go in a subprocess of the worker
            gnugo = PoolGoAi(executor, 10.0, "auto")
            move = await gnugo.choose(game, Level.EASY, seed=3)
            assert isinstance(move, Point) and game.is_legal(move)
            assert (await gnugo.dead_stones(_territory_game()))[1] == "GNU Go"


async def test_a_finished_go_game_has_its_own_ratings_and_leaves_scrabble_alone(
    host: HostHarness, caplog: pytest.LogCaptureFixture
) -> None:
    await host.go.new_game(GUILD, GO_CHANNEL, ALICE, GoNewGame(size=9, opponent=BOB.id))
    await host.go.join(GO_CHANNEL, BOB)
    await host.go.resign(GO_CHANNEL, BOB.id)
    caplog.set_level(logging.INFO)
    await host.restart()
    assert "ratings are out of date" not in caplog.text  # rated as it finished
    store = host.store
    assert store is not None
    assert await store.ratings(GUILD, "scrabble") == []  # Scrabble's
    assert await store.stats(GUILD, "scrabble", ALICE.id) is None
    assert await store.last_finished_game(GO_CHANNEL, "scrabble") is None
    winner, loser = rate([INITIAL, INITIAL], [1, 2])
    go = {
        rating.player: (rating.name, rating.rating, rating.games)
        for rating in await store.ratings(GUILD, "go")
    }
    assert go == {"user:11": ("Alice", winner, 1), "user:12": ("Bob", loser, 1)}
    assert [point.rating for point in await store.rating_history(GUILD, "user:11", "go")] == [winner]
    (record,) = await store.records(GUILD, "user:11", "go")
    assert (record.name, record.wins, record.losses, record.draws) == ("Bob", 1, 0, 0)
    assert await store.rebuild_ratings(GUILD) == 1  # the same numbers again
    assert {r.player: r.rating for r in await store.ratings(GUILD, "go")} == {
        "user:11": winner,
        "user:12": loser,
    }
    stats = await host.go.stats(GUILD, ALICE)
    assert stats.text == (
        "Go in this server, Alice: 1 game, 1 won, 0 lost, 0 drawn.\n"
        f"Go: Rating {winner.ordinal:.1f} (μ {winner.mu:.2f}, σ {winner.sigma:.2f}; rating = μ − 3σ: the skill "
        "estimate μ less three times its uncertainty σ), rank 1 of 2 in this server, provisional (1 of 5 rated "
        "games)."
    )
    await host.svc.set_feature(GUILD, "ratings", False)
    assert (
        await host.go.stats(GUILD, ALICE)
    ).text == "Go in this server, Alice: 1 game, 1 won, 0 lost, 0 drawn."


async def test_a_go_game_against_the_ai_rates_the_ai_level(host: HostHarness) -> None:
    assert host.go_ai is not None
    host.go_ai.moves = ["resign"]
    await host.go.new_game(GUILD, GO_CHANNEL, ALICE, GoNewGame(size=9, ai_level="hard", colour="white"))
    await host.svc.idle()
    assert host.store is not None
    ratings = {r.player: (r.name, r.games) for r in await host.store.ratings(GUILD, "go")}
    assert ratings == {"user:11": ("Alice", 1), "ai:hard": ("AI (hard)", 1)}
