"""The store on PostgreSQL: its migrations, its one-writer lock, its errors and what only it can get
wrong (64-bit ids, trips to its thread). The tests shared with SQLite are in test_store.py."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import psycopg
import pytest
from psycopg import sql
from service_fakes import scrabble_row
from test_store import OPTIONS, draft

from bot.config import Config, load_config
from bot.host.assembly import AssemblyError, host_parts
from bot.host.store import (
    MIGRATIONS_DIR,
    PG_MIGRATIONS_DIR,
    GameStatus,
    LogEntry,
    SeatRow,
    StatsDelta,
    Store,
    StoreOpenError,
)
from bot.host.store.backends import PostgresBackend, redacted
from bot.host.store.rows import INT64_MAX
from tests.pg_cluster import PgCluster, query


@pytest.fixture
def url(pg_cluster: PgCluster) -> str:
    return pg_cluster.new_database()


def test_postgresql_has_each_migration_sqlite_has() -> None:
    assert [p.name for p in sorted(PG_MIGRATIONS_DIR.glob("*.sql"))] == [
        p.name for p in sorted(MIGRATIONS_DIR.glob("*.sql"))
    ]


async def test_migrations_are_applied_once_and_recorded(url: str) -> None:
    store = await Store.open(url)
    newest = len(list(PG_MIGRATIONS_DIR.glob("*.sql")))
    assert await store.schema_version() == newest
    await store.close()
    store = await Store.open(url)  # nothing re-applied (a second CREATE TABLE would fail)
    assert await store.schema_version() == newest
    await store.close()
    assert query(url, "SELECT version FROM schema_version") == [(newest,)]


async def test_a_failing_migration_is_rolled_back(url: str, tmp_path: Path) -> None:
    (tmp_path / "0001_first.sql").write_text("CREATE TABLE x (a INTEGER);")
    (tmp_path / "0002_broken.sql").write_text("CREATE TABLE y (a INTEGER); NOT SQL;")
    with pytest.raises(sqlite3.ProgrammingError, match="syntax error"):
        await Store.open(url, tmp_path)
    assert query(url, "SELECT to_regclass('x') IS NOT NULL, to_regclass('y') IS NULL") == [(True, True)]
    (tmp_path / "0002_broken.sql").write_text("CREATE TABLE y (a INTEGER);")
    store = await Store.open(url, tmp_path)
    assert await store.schema_version() == 2
    await store.close()


async def test_a_newer_schema_is_refused_before_anything_is_written(url: str) -> None:
    await (await Store.open(url)).close()
    query(url, "UPDATE schema_version SET version = 99")
    newest = len(list(PG_MIGRATIONS_DIR.glob("*.sql")))
    with pytest.raises(StoreOpenError) as refused:
        await Store.open(url)
    assert str(refused.value) == (
        f"the database {url} has schema version 99, newer than this program's ({newest}): it was written by a "
        "newer version. Upgrade this program, or use another database"
    )


async def test_one_process_has_a_database_open(url: str) -> None:
    store = await Store.open(url)
    with pytest.raises(StoreOpenError) as refused:
        await Store.open(url)
    assert str(refused.value) == (
        f"the database {url} is in use by another scrabble-bot or console (it holds the database's "
        "advisory lock): stop that one first, or use another database"
    )
    await store.close()
    await (await Store.open(url)).close()  # the lock went with the connection


async def test_an_unreachable_server_is_named_without_its_password(pg_cluster: PgCluster) -> None:
    url = f"postgresql://bot:hunter2@127.0.0.1:{pg_cluster.port}/no_such_database"
    with pytest.raises(StoreOpenError) as refused:
        await Store.open(url)
    message = str(refused.value)
    assert message.startswith(
        f"cannot connect to the database postgresql://bot:***@127.0.0.1:{pg_cluster.port}/no_such_database: "
    )
    assert message.endswith(
        "Check that the server runs, that the URL (host, port, user, database name) is right and that this "
        "user may log in"
    )
    assert "hunter2" not in message
    assert redacted("postgresql://u@h/d") == "postgresql://u@h/d"


async def test_the_event_log_is_append_only(url: str) -> None:
    store = await Store.open(url)
    await store.create_game(draft(), [LogEntry("created", 0, {}, 1.0)])
    await store.close()
    with psycopg.connect(url) as db, pytest.raises(psycopg.errors.RaiseException, match="append-only"):
        db.execute("UPDATE events SET kind = 'x'")
    with psycopg.connect(url) as db, pytest.raises(psycopg.errors.RaiseException, match="append-only"):
        db.execute("DELETE FROM events")


async def test_64_bit_ids_and_exact_floats_round_trip(url: str) -> None:
    store = await Store.open(url)
    big = INT64_MAX
    row = scrabble_row(
        0,
        big,
        big - 1,
        big - 2,
        GameStatus.ACTIVE,
        OPTIONS,
        -big,
        {"a": 1},
        (SeatRow(0, big, "Ann"),),
        0.1 + 0.2,
    )
    created = await store.create_game(row, [LogEntry("created", 0, {}, 1.0 / 3)])
    assert await store.game(created.id) == created
    assert (await store.log(created.id))[0].at == 1.0 / 3
    await store.save(
        created, [], [StatsDelta(big, "scrabble", big, "Ann", True, score=5, best_score=5, best_move="8H AB")]
    )
    stats = await store.stats(big, "scrabble", big)
    assert stats is not None and (stats.games, stats.total_score) == (1, 5)
    await store.close()


async def test_a_statement_failing_in_the_middle_of_a_save_leaves_nothing(url: str) -> None:
    store = await Store.open(url)
    row = await store.create_game(draft(), [LogEntry("created", 0, {}, 1.0)])
    query(
        url,
        "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS "
        "$$ BEGIN RAISE EXCEPTION 'outbox refused'; END $$",
        "CREATE TRIGGER no_outbox BEFORE INSERT ON outbox FOR EACH ROW EXECUTE FUNCTION refuse()",
    )
    changed = scrabble_row(
        row.id, 1, 5, 7, GameStatus.ACTIVE, OPTIONS, 42, {"a": 1}, (SeatRow(0, 7, "Ann", None, 2),)
    )
    with pytest.raises(sqlite3.ProgrammingError, match="outbox refused"):
        await store.save(
            changed,
            [LogEntry("ended", None, {}, 2.0)],
            [StatsDelta(1, "scrabble", 7, "Ann", True, score=5, best_score=5, best_move="8H AB")],
            {"m": 9},
        )
    assert await store.game(row.id) == row
    assert [entry.kind for entry in await store.log(row.id)] == ["created"]
    assert await store.stats(1, "scrabble", 7) is None
    await store.save(changed, [LogEntry("ended", None, {}, 2.0)])  # no transaction was left open
    assert await store.game(row.id) == changed
    await store.close()


async def test_a_save_is_one_trip_to_the_connections_thread(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = await Store.open(url)
    row = await store.create_game(draft(), [])
    trips: list[object] = []
    run = PostgresBackend.run

    async def counted(self: PostgresBackend, work: object) -> object:
        trips.append(work)
        return await run(self, work)  # type: ignore[arg-type]

    monkeypatch.setattr(PostgresBackend, "run", counted)
    stats = [
        StatsDelta(1, "scrabble", 7, "Ann", True, score=5, best_score=5, best_move="8H AB"),
        StatsDelta(1, "scrabble", 8, "Bob", False, score=3, best_score=3, best_move="8H A"),
    ]
    assert await store.save(row, [LogEntry("play", 0, {}, 2.0)], stats, {"move": 1}) == 1
    assert len(trips) == 1  # the statements and the commit
    monkeypatch.undo()
    assert [entry.kind for entry in await store.log(row.id)] == ["play"]
    await store.close()


def test_the_config_keeps_a_postgresql_url_and_resolves_a_path(tmp_path: Path) -> None:
    config_file = tmp_path / "config.toml"
    config_file.write_text('database = "postgresql://bot:pw@db.example:5432/scrabble"\n')
    config = load_config(config_file, {})
    assert config.database == "postgresql://bot:pw@db.example:5432/scrabble"
    assert config.links_file == Path("scrabble.links.json")
    config_file.write_text('database = "games.sqlite3"\n')
    config = load_config(config_file, {})
    assert config.database == tmp_path / "games.sqlite3"
    assert config.links_file == tmp_path / "games.sqlite3.links.json"


async def test_the_bot_names_a_database_it_cannot_migrate_without_its_password(url: str) -> None:
    query(url, "CREATE TABLE games (id INTEGER)")  # another program's table: migration 1 fails
    with_password = url.replace("postgres@", "postgres:hunter2@")  # trusted: any password logs in
    with pytest.raises(AssemblyError) as refused:
        async with host_parts(Config(database=with_password)):
            pass
    assert str(refused.value) == (
        f"cannot open the database {url.replace('postgres@', 'postgres:***@')}: "
        'relation "games" already exists'
    )


async def test_ids_restart_after_the_largest_in_tables_of_any_name(url: str) -> None:
    odd_table, odd_column = 'Odd ?%\' "table"', "the id's %s"
    with psycopg.connect(url) as db:
        db.execute(
            sql.SQL("CREATE TABLE {} ({} BIGINT GENERATED BY DEFAULT AS IDENTITY, note TEXT)").format(
                sql.Identifier(odd_table), sql.Identifier(odd_column)
            )
        )
        db.execute(
            sql.SQL("INSERT INTO {} ({}, note) VALUES (41, 'copied')").format(
                sql.Identifier(odd_table), sql.Identifier(odd_column)
            )
        )
    backend = await PostgresBackend.connect(url)
    try:
        await backend.restart_ids()
    finally:
        await backend.close()
    with psycopg.connect(url) as db:
        added = db.execute(
            sql.SQL("INSERT INTO {} (note) VALUES ('new') RETURNING {}").format(
                sql.Identifier(odd_table), sql.Identifier(odd_column)
            )
        ).fetchone()
    assert added == (42,)
