"""The upgrade to the host and its plugins: a database written by the code before it (main at commit
``e3d7772``: both games, finished and running, a timed one past its reminder, with unsent announcements,
ratings, stats, an analysis, a puzzle and its answer) opens, migrates losslessly and resumes exactly, on
SQLite and on PostgreSQL.

The databases were written by that commit's own code: ``upgrade/make_old_databases.py`` extracts its tree
with ``git archive`` and plays the games of ``upgrade/old_main_driver.py`` in it, keeping both databases
as SQL text committed beside it: a dump of the SQLite file with its schema version, and a ``pg_dump`` of
the PostgreSQL database (the script needs the repository's history; the tests only read its output).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from service_fakes import (
    ALICE,
    BOB,
    CAROL,
    AnyWord,
    FakeClock,
    RecordingNotifier,
    SimpleAdvisor,
    SimpleAi,
    find_play,
    games_host,
    make_config,
    typed,
)

from bot.games.go.commands import GoCommands
from bot.games.scrabble.commands import ScrabbleCommands
from bot.host.runner import Host
from bot.host.store import MIGRATIONS_DIR, Store
from go_core import Game as GoGame
from scrabble_core.game import Game
from tests.pg_cluster import query

HERE = Path(__file__).parent / "upgrade"
SQLITE = HERE / "main-e3d7772.sqlite.sql"
POSTGRESQL = HERE / "main-e3d7772.postgresql.sql"
FINISHED_SCRABBLE, FINISHED_GO, PLAYING_SCRABBLE, PLAYING_GO, LOBBY, TIMED = (
    2000,
    3000,
    2001,
    3001,
    2002,
    2003,
)
AFTER = 1_800_000_000.0
"""The upgraded bot's clock: long after the old games were played."""


@pytest.fixture
def old_database(store_database: Path | str, tmp_path: Path) -> Path | str:
    """The old database on the backend of ``store_database``: its dump loaded into the new SQLite file
    or PostgreSQL database."""
    if isinstance(store_database, Path):
        with sqlite3.connect(store_database) as lite:
            lite.executescript(SQLITE.read_text(encoding="utf-8"))
        lite.close()
        return store_database
    import psycopg

    with psycopg.connect(store_database, autocommit=True) as connection:
        connection.execute(POSTGRESQL.read_text(encoding="utf-8").encode())
    return store_database


def rows(database: Path | str, sql: str) -> list[tuple[Any, ...]]:
    """The rows of ``sql``, their JSON texts read as JSON."""
    found = []
    for row in query(database, sql):
        found.append(tuple(json.loads(v) if isinstance(v, str) and v[:1] in "{[" else v for v in row))
    return found


async def start_host(store: Store, notifier: RecordingNotifier) -> Host:
    host = await games_host(
        make_config(), store, notifier, AnyWord(), SimpleAi(), SimpleAdvisor(), clock=FakeClock(AFTER)
    )
    await host.start()
    return host


async def test_an_old_database_migrates_losslessly_and_its_games_resume(old_database: Path | str) -> None:
    games = "id, kind, guild_id, channel_id, creator_id, status, options, seed, state, deadline, reminded"
    before_games = rows(old_database, f"SELECT {games}, created_at, updated_at FROM games ORDER BY id")
    before_seats = rows(old_database, "SELECT * FROM seats ORDER BY game_id, seat")
    before_events = rows(old_database, "SELECT * FROM events ORDER BY id")
    ratings = "guild_id, kind, player, name, mu, sigma, games"
    before_ratings = rows(old_database, f"SELECT {ratings} FROM ratings ORDER BY kind, player")
    before_history = rows(
        old_database, "SELECT game_id, kind, player, place, mu, sigma FROM rating_history ORDER BY seq"
    )
    scrabble_stats = rows(
        old_database,
        "SELECT guild_id, user_id, name, games, wins, total_score, best_score, best_move FROM stats ORDER BY user_id",
    )
    go_stats = rows(
        old_database,
        "SELECT guild_id, kind, user_id, name, games, wins, draws FROM kind_stats ORDER BY user_id",
    )
    kept = ["analyses", "puzzles", "puzzle_answers", "guild_features"]
    before_kept = {table: rows(old_database, f"SELECT * FROM {table}") for table in kept}
    assert [row[:2] for row in before_games] == [
        (1, "scrabble"), (2, "go"), (3, "scrabble"), (4, "go"), (5, "scrabble"), (6, "scrabble"),
    ]  # fmt: skip
    assert [row[9:11] for row in before_games if row[9] is not None] == [(1_700_000_780.0, 1)]
    assert len(rows(old_database, "SELECT id FROM outbox WHERE sent_at IS NULL")) == 2

    notifier = RecordingNotifier()
    store = await Store.open(old_database)  # migrated
    host = None
    try:
        assert await store.schema_version() == len(list(MIGRATIONS_DIR.glob("*.sql")))
        # Every row kept as it was, the kind in the same column, the codec's version the first.
        after = rows(old_database, f"SELECT {games}, created_at, updated_at, format FROM games ORDER BY id")
        assert [row[:-1] for row in after] == before_games
        assert {row[-1] for row in after} == {1}
        assert rows(old_database, "SELECT * FROM seats ORDER BY game_id, seat") == before_seats
        assert rows(old_database, "SELECT * FROM events ORDER BY id") == before_events
        assert {table: rows(old_database, f"SELECT * FROM {table}") for table in kept} == before_kept
        host = await start_host(store, notifier)
        # The results the finished games rate were computed at start: the same ratings and history.
        assert rows(old_database, f"SELECT {ratings} FROM ratings ORDER BY kind, player") == before_ratings
        history = (
            "SELECT game_id, kind, player, place, mu, sigma FROM rating_history ORDER BY finished_at, game_id"
        )
        assert rows(old_database, history) == before_history
        # The stats of both games, in the one table.
        for guild_id, user_id, name, played, wins, total, best, move in scrabble_stats:
            row = await store.stats(guild_id, "scrabble", user_id)
            assert row is not None
            assert (row.name, row.games, row.wins, row.draws, row.total_score, row.best_score, row.best_move) == (
                name, played, wins, 0, total, best, move,
            )  # fmt: skip
        for guild_id, kind, user_id, name, played, wins, draws in go_stats:
            row = await store.stats(guild_id, kind, user_id)
            assert row is not None and (row.name, row.games, row.wins, row.draws) == (
                name,
                played,
                wins,
                draws,
            )
        # The unsent announcements went out at start: the move that left each game as it is.
        await host.delivered()
        scrabble_news, go_news = notifier.texts(PLAYING_SCRABBLE), notifier.texts(PLAYING_GO)
        assert len(scrabble_news) == 1 and scrabble_news[0].startswith("AI played ")
        assert go_news == [
            "Alice (Black) played F6.\nBlack: Alice (captured 0) · White: Bob (captured 0)\n"
            "<@12>, your move as White."
        ]
        assert await store.pending_outbox() == []
        # The timed game's deadline passed while the bot was down: the turn times out at start.
        assert notifier.texts(TIMED)[0].startswith("Bob ran out of time.\nBob passed.\n")
        timed = host.tables[TIMED].row
        assert (timed.deadline, timed.reminded) == (AFTER + 600, False)
        await assert_games_resume(host, {row[0]: row[8] for row in before_games})
    finally:
        if host is not None:
            await host.close()
        await store.close()


async def assert_games_resume(host: Host, states: dict[int, Any]) -> None:
    """The upgraded games, of the old ``states`` by id, resume exactly where they were, and the finished
    ones read as before."""
    scrabble: ScrabbleCommands = host.commands["scrabble"]
    go: GoCommands = host.commands["go"]
    game = scrabble.game(PLAYING_SCRABBLE)
    assert game.to_dict() == Game.from_dict(states[3]).to_dict()
    play = find_play(game, 0)
    assert play is not None
    await scrabble.play(PLAYING_SCRABBLE, ALICE.id, typed(play))
    await host.idle()
    assert len(scrabble.game(PLAYING_SCRABBLE).history) == len(game.history) + 2  # and the AI replied
    assert go.game(PLAYING_GO).to_dict() == GoGame.from_dict(states[4]["game"]).to_dict()
    await go.play(PLAYING_GO, BOB.id, "C3")
    assert [str(move) for move in go.game(PLAYING_GO).moves] == ["B E5", "W D4", "B F6", "W C3"]
    await scrabble.join(LOBBY, BOB)
    await scrabble.start_game(LOBBY, CAROL.id)
    assert [p.name for p in scrabble.game(LOBBY).players] == ["Carol", "Bob"]
    # The finished games read as before: the record with its analysis, the Go record.
    record = await scrabble.history(FINISHED_SCRABBLE)
    assert record.text.startswith("The last game here (game 1 for /scrabble analyze):\n")
    sgf = await go.export_sgf(FINISHED_GO)
    assert sgf.attachments[0].filename == "go-2.sgf"
