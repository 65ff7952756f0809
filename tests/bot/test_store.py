"""The store: migrations, WAL, one transaction per write, the append-only log, stats. The tests taking
``store_database`` or ``store`` run on SQLite and on PostgreSQL; tests/bot/test_store_postgresql.py has
PostgreSQL's own."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiosqlite
import pytest
from service_fakes import scrabble_row, with_result

from bot.games.scrabble.options import ScrabbleOptions
from bot.host.store import MIGRATIONS_DIR, GameRow, GameStatus, LogEntry, SeatRow, StatsDelta, Store
from scrabble_core.ai import Level
from scrabble_core.game import ChallengeMode, Game
from scrabble_core.variant import get_variant

NEWEST_MIGRATION = len(list(MIGRATIONS_DIR.glob("*.sql")))
OPTIONS = ScrabbleOptions("standard", ChallengeMode.VOID, 0, 3, Level.MEDIUM)


def draft(channel: int = 5, status: GameStatus = GameStatus.LOBBY) -> GameRow:
    return scrabble_row(
        0,
        1,
        channel,
        7,
        status,
        OPTIONS,
        42,
        None,
        (SeatRow(0, 7, "Ann"), SeatRow(1, None, "AI", Level.HARD)),
    )


async def test_migrations_wal_and_reopen(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "db.sqlite3")
    assert await store.schema_version() == NEWEST_MIGRATION
    await store.close()
    store = await Store.open(tmp_path / "db.sqlite3")  # nothing re-applied
    assert await store.schema_version() == NEWEST_MIGRATION
    await store.close()
    async with aiosqlite.connect(tmp_path / "db.sqlite3") as db, db.execute("PRAGMA journal_mode") as cursor:
        assert await cursor.fetchone() == ("wal",)


async def test_bad_migration_directories(tmp_path: Path) -> None:
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "0002_second.sql").write_text("CREATE TABLE x (a);")
    with pytest.raises(ValueError, match="without a gap"):
        await Store.open(tmp_path / "db.sqlite3", tmp_path / "m")
    (tmp_path / "m" / "0002_second.sql").rename(tmp_path / "m" / "second.sql")
    with pytest.raises(ValueError, match=r"NNNN_name\.sql"):
        await Store.open(tmp_path / "db.sqlite3", tmp_path / "m")


async def test_a_failing_migration_is_rolled_back(tmp_path: Path) -> None:
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "0001_first.sql").write_text("CREATE TABLE x (a);")
    (tmp_path / "m" / "0002_broken.sql").write_text("CREATE TABLE y (a); NOT SQL;")
    with pytest.raises(sqlite3.OperationalError):
        await Store.open(tmp_path / "db.sqlite3", tmp_path / "m")
    (tmp_path / "m" / "0002_broken.sql").write_text("CREATE TABLE y (a);")
    store = await Store.open(tmp_path / "db.sqlite3", tmp_path / "m")
    assert await store.schema_version() == 2
    await store.close()


async def test_games_round_trip_and_one_open_game_per_channel(store_database: Path | str) -> None:
    store = await Store.open(store_database)
    row = await store.create_game(draft(), [LogEntry("created", 0, {"x": 1}, 10.0)])
    assert row.id == 1
    assert await store.game(1) == row
    with pytest.raises(sqlite3.IntegrityError):
        await store.create_game(draft(), [])
    started = scrabble_row(
        1,
        1,
        5,
        7,
        GameStatus.ACTIVE,
        OPTIONS,
        42,
        {"state": [1, 2]},
        (SeatRow(0, 7, "Ann", None, 1, 2),),
        99.5,
        True,
    )
    await store.save(started, [LogEntry("started", None, {}, 11.0)])
    assert await store.open_games() == [started]
    assert [(e.kind, e.seat, e.data) for e in await store.log(1)] == [
        ("created", 0, {"x": 1}),
        ("started", None, {}),
    ]
    await store.save(_finished(started), [])
    assert await store.open_games() == []
    assert (await store.last_finished_game(5, "scrabble")) == _finished(started)
    await store.create_game(draft(), [])  # the channel is free again
    with pytest.raises(KeyError):
        await store.save(GameRow(**_fields(started, id=99)), [])  # type: ignore[arg-type]
    await store.close()


def _fields(row: GameRow, **changes: object) -> dict[str, object]:
    fields = {name: getattr(row, name) for name in GameRow.__dataclass_fields__}
    fields.update(changes)
    return fields


def _finished(row: GameRow) -> GameRow:
    """``row`` finished, with its result as the host stores it."""
    return with_result(GameRow(**_fields(row, status=GameStatus.FINISHED, deadline=None, reminded=False)))  # type: ignore[arg-type]


async def test_a_failed_commit_writes_nothing(
    store_database: Path | str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = await Store.open(store_database)
    row = await store.create_game(draft(), [])

    def fail(connection: object) -> None:
        raise sqlite3.OperationalError("disk full")

    monkeypatch.setattr(store.backend, "_commit", fail)
    changed = GameRow(**_fields(row, status=GameStatus.ACTIVE, state={"a": 1}, seats=()))  # type: ignore[arg-type]
    with pytest.raises(sqlite3.OperationalError):
        await store.save(
            changed,
            [LogEntry("started", None, {}, 1.0)],
            [StatsDelta(1, "scrabble", 7, "Ann", True, score=5, best_score=5, best_move="8H AB")],
            {"move": 0},
        )
    monkeypatch.undo()
    assert await store.game(row.id) == row
    assert await store.log(row.id) == []
    assert await store.stats(1, "scrabble", 7) is None
    assert await store.pending_outbox() == []
    await store.close()


async def test_the_event_log_is_append_only(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "db.sqlite3")
    await store.create_game(draft(), [LogEntry("created", 0, {}, 1.0)])
    await store.close()
    async with aiosqlite.connect(tmp_path / "db.sqlite3") as db:
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            await db.execute("UPDATE events SET kind = 'x'")
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            await db.execute("DELETE FROM events")


async def test_stats_add_up_and_the_leaderboard_ranks_wins_then_average(store_database: Path | str) -> None:
    store = await Store.open(store_database)
    row = await store.create_game(draft(), [])
    deltas = [
        StatsDelta(1, "scrabble", 7, "Ann", True, score=300, best_score=40, best_move="8H QUIZ"),
        StatsDelta(1, "scrabble", 8, "Ben", False, score=350, best_score=90, best_move="H8 JINX"),
        StatsDelta(1, "scrabble", 9, "Cy", True, score=200, best_score=None, best_move=None),
        StatsDelta(2, "scrabble", 7, "Ann", False, score=100, best_score=10, best_move="8H AB"),
    ]
    await store.save(row, [], deltas)
    await store.save(
        row, [], [StatsDelta(1, "scrabble", 7, "Annie", False, score=100, best_score=30, best_move="8H AA")]
    )
    ann = await store.stats(1, "scrabble", 7)
    assert ann is not None
    assert (ann.name, ann.games, ann.wins, ann.total_score, ann.best_score, ann.best_move) == (
        "Annie",
        2,
        1,
        400,
        40,
        "8H QUIZ",
    )
    assert ann.average == 200.0
    assert [r.user_id for r in await store.leaderboard(1, "scrabble", 10)] == [7, 9, 8]
    assert [r.user_id for r in await store.leaderboard(1, "scrabble", 1)] == [7]
    assert [r.user_id for r in await store.leaderboard(2, "scrabble", 10)] == [7]
    assert await store.stats(3, "scrabble", 7) is None
    await store.close()


@pytest.fixture
async def store(store_database: Path | str) -> AsyncIterator[Store]:
    """An empty store on each backend (see tests/pg_cluster.py)."""
    opened = await Store.open(store_database)
    yield opened
    await opened.close()


async def test_concurrent_transactions_are_serialised(store: Store) -> None:
    rows = await asyncio.gather(
        *(store.create_game(draft(channel), [LogEntry("created", 0, {}, 1.0)]) for channel in range(20))
    )
    assert sorted(row.id for row in rows) == list(range(1, 21))
    saved = [GameRow(**_fields(row, status=GameStatus.ACTIVE, state={"n": row.id})) for row in rows]  # type: ignore[arg-type]
    # Saves (several statements each) interleaved with reads: every read sees whole games.
    results = await asyncio.gather(
        *(store.save(row, [LogEntry("started", None, {}, 2.0)]) for row in saved),
        *(store.open_games() for _ in range(5)),
    )
    for games in results[len(saved) :]:
        assert all(len(game.seats) == 2 for game in games)  # type: ignore[union-attr]
    assert await store.open_games() == saved
    for row in rows:
        assert [entry.kind for entry in await store.log(row.id)] == ["created", "started"]


async def test_a_cancelled_begin_leaves_the_connection_usable(store: Store) -> None:
    row = await store.create_game(draft(), [])
    changed = GameRow(**_fields(row, status=GameStatus.ACTIVE, state={"a": 1}))  # type: ignore[arg-type]
    task = asyncio.create_task(store.save(changed, [LogEntry("started", None, {}, 1.0)]))
    await asyncio.sleep(0)  # the task has sent BEGIN to the connection's thread and waits for it
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await store.game(row.id) == row  # nothing written
    await store.save(changed, [])  # and no transaction was left open
    assert await store.game(row.id) == changed


async def test_the_outbox_is_written_with_its_change_and_marked_posted_then_sent(store: Store) -> None:
    row = await store.create_game(draft(), [])
    first = await store.save(row, [], (), {"move": 1, "lines": ["a"]})
    second = await store.save(row, [], (), {"move": 2})
    assert await store.save(row, []) is None
    assert first is not None and second is not None
    assert [
        (entry.id, entry.game_id, entry.data, entry.posted) for entry in await store.pending_outbox()
    ] == [
        (first, row.id, {"move": 1, "lines": ["a"]}, False),
        (second, row.id, {"move": 2}, False),
    ]
    await store.mark_posted(second, 4.0)
    assert [(entry.id, entry.posted) for entry in await store.pending_outbox()] == [
        (first, False),
        (second, True),
    ]
    await store.mark_sent(first, 5.0)
    assert [(entry.id, entry.posted) for entry in await store.pending_outbox()] == [(second, True)]


async def test_a_statement_failing_in_the_middle_of_a_save_leaves_nothing(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "db.sqlite3")
    row = await store.create_game(draft(), [LogEntry("created", 0, {}, 1.0)])
    async with aiosqlite.connect(tmp_path / "db.sqlite3") as db:  # the last statement of a save fails
        await db.execute(
            "CREATE TRIGGER no_outbox BEFORE INSERT ON outbox BEGIN SELECT RAISE(ABORT, 'outbox refused'); END"
        )
        await db.commit()
    seats = (SeatRow(0, 7, "Ann", None, 2),)
    changed = GameRow(**_fields(row, status=GameStatus.FINISHED, state={"a": 1}, seats=seats))  # type: ignore[arg-type]
    with pytest.raises(sqlite3.IntegrityError, match="outbox refused"):
        await store.save(
            changed,
            [LogEntry("ended", None, {}, 2.0)],
            [StatsDelta(1, "scrabble", 7, "Ann", True, score=5, best_score=5, best_move="8H AB")],
            {"move": 9},
        )
    assert await store.game(row.id) == row
    assert [entry.kind for entry in await store.log(row.id)] == ["created"]
    assert await store.stats(1, "scrabble", 7) is None
    await store.save(changed, [LogEntry("ended", None, {}, 2.0)])  # no transaction was left open
    assert await store.game(row.id) == changed
    await store.close()


async def test_a_save_is_one_trip_to_the_connections_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = await Store.open(tmp_path / "db.sqlite3")  # PostgreSQL's: test_store_postgresql.py
    row = await store.create_game(draft(), [])
    trips: list[object] = []
    execute = aiosqlite.Connection._execute

    async def counted(self: aiosqlite.Connection, fn: object, *args: object, **kwargs: object) -> object:
        trips.append(fn)
        return await execute(self, fn, *args, **kwargs)  # type: ignore[no-untyped-call]

    monkeypatch.setattr(aiosqlite.Connection, "_execute", counted)
    stats = [
        StatsDelta(1, "scrabble", 7, "Ann", True, score=5, best_score=5, best_move="8H AB"),
        StatsDelta(1, "scrabble", 8, "Bob", False, score=3, best_score=3, best_move="8H A"),
    ]
    log = [LogEntry("play", 0, {}, 2.0), LogEntry("end-rack", None, {}, 2.0)]
    assert await store.save(row, log, stats, {"move": 1}) is not None
    assert len(trips) == 1  # the statements and the commit
    await store.mark_sent(1, 3.0)
    assert len(trips) == 2
    monkeypatch.undo()
    assert [entry.kind for entry in await store.log(row.id)] == ["play", "end-rack"]
    assert await store.pending_outbox() == []
    await store.close()


def count_trips(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """The calls made on the store's connection thread from now on (on either backend)."""
    trips: list[object] = []
    run = store.backend.run

    async def counted(work: Any) -> Any:
        trips.append(work)
        return await run(work)

    monkeypatch.setattr(store.backend, "run", counted)
    return trips


async def active_games(store: Store, count: int) -> list[GameRow]:
    """``count`` new games, in channels 0, 1, 2..., as rows started but not yet saved."""
    rows = [await store.create_game(draft(channel), []) for channel in range(count)]
    return [GameRow(**_fields(row, status=GameStatus.ACTIVE, state={"n": row.id})) for row in rows]  # type: ignore[arg-type]


def started() -> list[LogEntry]:
    return [LogEntry("started", None, {}, 2.0)]


async def test_writes_queued_together_are_committed_in_one_trip(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    rows = await active_games(store, 10)
    trips = count_trips(store, monkeypatch)
    entries = await asyncio.gather(*(store.save(row, started(), (), {"move": 0}) for row in rows))
    assert len(trips) == 1
    await asyncio.gather(*(store.mark_sent(entry, 3.0) for entry in entries if entry is not None))
    assert len(trips) == 2
    monkeypatch.undo()
    assert [await store.game(row.id) for row in rows] == rows
    assert [[entry.kind for entry in await store.log(row.id)] for row in rows] == [["started"]] * 10
    assert await store.pending_outbox() == []


async def test_a_write_that_fails_beside_others_is_rolled_back_alone(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = await active_games(store, 2)
    missing = GameRow(**_fields(first, id=99))  # type: ignore[arg-type]
    trips = count_trips(store, monkeypatch)
    outcomes = await asyncio.gather(
        store.save(first, started(), (), {"move": 0}),
        store.save(missing, started(), (), {"move": 0}),
        store.save(second, started(), (), {"move": 0}),
        return_exceptions=True,
    )
    assert len(trips) == 1
    assert isinstance(outcomes[1], KeyError)
    monkeypatch.undo()
    assert (await store.game(first.id), await store.game(second.id)) == (first, second)
    assert await store.game(99) is None
    pending = await store.pending_outbox()
    assert [(entry.id, entry.game_id) for entry in pending] == [
        (outcomes[0], first.id),
        (outcomes[2], second.id),
    ]


async def test_a_failed_commit_fails_every_write_of_its_trip(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    rows = await active_games(store, 3)
    before = [await store.game(row.id) for row in rows]

    def fail(connection: object) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(store.backend, "_commit", fail)
    outcomes = await asyncio.gather(
        *(store.save(row, started(), (), {"move": 0}) for row in rows), return_exceptions=True
    )
    assert [repr(outcome) for outcome in outcomes] == ["OperationalError('disk I/O error')"] * 3
    monkeypatch.undo()
    assert [await store.game(row.id) for row in rows] == before
    assert [await store.log(row.id) for row in rows] == [[]] * 3
    assert await store.pending_outbox() == []
    await store.save(rows[0], [])  # and no transaction was left open
    assert await store.game(rows[0].id) == rows[0]


async def test_a_write_cancelled_before_its_trip_writes_nothing(store: Store) -> None:
    rows = await active_games(store, 3)
    tasks = [asyncio.create_task(store.save(row, started())) for row in rows]
    await asyncio.sleep(0)  # the three are queued; their trip has not started
    tasks[1].cancel()
    outcomes = await asyncio.gather(*tasks, return_exceptions=True)
    assert isinstance(outcomes[1], asyncio.CancelledError)
    assert (await store.game(rows[0].id), await store.game(rows[2].id)) == (rows[0], rows[2])
    assert (await store.game(rows[1].id)).status is GameStatus.LOBBY  # type: ignore[union-attr]
    assert await store.log(rows[1].id) == []


async def test_closing_waits_for_the_queued_writes(store_database: Path | str) -> None:
    store = await Store.open(store_database)
    rows = await active_games(store, 5)
    saves = [asyncio.create_task(store.save(row, started())) for row in rows]
    await asyncio.sleep(0)  # queued, not yet written
    await store.close()
    assert [save.result() for save in saves] == [None] * 5
    store = await Store.open(store_database)
    assert [await store.game(row.id) for row in rows] == rows
    await store.close()


async def test_a_game_that_finishes_is_saved_and_rated_in_one_trip_beside_other_writes(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    rows = [await store.create_game(draft(channel), []) for channel in (5, 6)]
    finishing, going_on = (GameRow(**_fields(row, status=GameStatus.ACTIVE)) for row in rows)  # type: ignore[arg-type]
    await asyncio.gather(store.save(finishing, []), store.save(going_on, []))
    game = Game(get_variant("standard"), ["Ann", "AI"], rng=random.Random(1))
    game.resign(1)  # Ann wins: a game the ratings count
    finishing = GameRow(**_fields(finishing, state=game.to_dict()))  # type: ignore[arg-type]
    trips = 0
    run = store.backend.run

    async def counted(work: Any) -> Any:
        nonlocal trips
        trips += 1
        return await run(work)

    monkeypatch.setattr(store.backend, "run", counted)
    await asyncio.gather(store.save(_finished(finishing), []), store.save(going_on, []))
    assert trips == 1  # the rating's reads and writes included: no other write waits behind them
    monkeypatch.undo()
    assert await store.last_finished_game(5, "scrabble") == _finished(finishing)
    assert await store.game(going_on.id) == going_on
    assert [(rating.name, rating.games) for rating in await store.ratings(1, "scrabble")] == [
        ("AI (hard)", 1),
        ("Ann", 1),
    ]


async def test_games_are_read_with_their_own_seats_across_queries_of_a_few_ids(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bot.host.store.reading.IDS_PER_QUERY", 2)  # five games: three queries of seats
    created = []
    for channel in range(10, 15):
        row = await store.create_game(draft(channel), [])
        seats = (SeatRow(0, channel, f"P{channel}"), SeatRow(1, None, "AI", Level.HARD))
        created.append(GameRow(**_fields(row, status=GameStatus.ACTIVE, state={"n": channel}, seats=seats)))  # type: ignore[arg-type]
        await store.save(created[-1], [])
    assert await store.open_games() == created
    for row in created[:3]:
        await store.save(_finished(row), [])
    assert await store.finished_games(1, "scrabble", 2) == [_finished(row) for row in reversed(created[1:3])]
    assert await store.open_games() == created[3:]
