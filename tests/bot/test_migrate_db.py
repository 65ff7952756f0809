"""``scrabble-bot migrate-db``: a real SQLite database (games played by the service, ratings, puzzles,
an analysis, a pending announcement) copied into a real PostgreSQL database, and verified."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from service_fakes import (
    ALICE,
    BOB,
    CAROL,
    GUILD,
    OTHER_CHANNEL,
    Harness,
    open_harness,
    play_to_end,
    play_turn,
    started_game,
)

from bot.__main__ import main as scrabble_bot
from bot.games.scrabble.commands import NewGame
from bot.host.migrate_db import MigrationError, migrate
from bot.host.store import LogEntry, PuzzleAnswer, Store
from bot.host.store.backends import identifier
from tests.pg_cluster import PgCluster, query


async def cli(*args: str) -> int:
    """``scrabble-bot migrate-db ARGS`` (in a thread: it runs its own event loop); its exit code."""
    return await asyncio.to_thread(scrabble_bot, ["migrate-db", *args])


TABLES = (
    "games",
    "puzzles",
    "analyses",
    "events",
    "guild_features",
    "outbox",
    "puzzle_answers",
    "rating_history",
    "rating_state",
    "ratings",
    "seats",
    "shard_leases",
    "stats",
    "user_preferences",
)


async def played_database(tmp_path: Path) -> Harness:
    """A database with a finished rated game, a game being played against the AI, a lobby, a feature
    turned off, a puzzle with an answer, an analysis and an announcement not yet sent (closed)."""
    harness = await open_harness(tmp_path)
    await started_game(harness, (ALICE, BOB))
    await play_to_end(harness, (ALICE, BOB))
    await started_game(harness, (ALICE,), ai=1, ai_level="hard")
    for _ in range(3):
        await play_turn(harness, (ALICE,))
    await harness.svc.new_game(GUILD, OTHER_CHANNEL, CAROL, NewGame())
    await harness.svc.set_feature(GUILD, "analysis", False)
    store = harness.store
    assert store is not None
    await store.add_puzzle(GUILD, "2026-11-26", {"rack": "AEINRST"}, 5.0)
    await store.add_puzzle_answer(
        PuzzleAnswer(GUILD, "2026-11-26", ALICE.id, "Alice", "8H RETAINS", 3, True, 6.0)
    )
    await store.save_analysis(1, "hard", {"moves": [1, 2]}, 7.0)
    (lobby,) = [row for row in await store.open_games() if row.channel_id == OTHER_CHANNEL]
    await store.save(lobby, [LogEntry("note", None, {"x": 1}, 8.0)], (), {"move": 0, "lines": ["pending"]})
    await harness.close()
    return harness


async def test_a_played_database_is_copied_whole_and_verified(
    tmp_path: Path, pg_cluster: PgCluster, capsys: pytest.CaptureFixture[str]
) -> None:
    harness = await played_database(tmp_path)
    url = pg_cluster.new_database()
    assert await cli("--from", str(harness.path), "--to", url) == 0
    out = capsys.readouterr().out.splitlines()
    counts = {table: int(str(query(harness.path, f"SELECT COUNT(*) FROM {table}")[0][0])) for table in TABLES}
    assert counts["games"] == 3 and counts["events"] > 20 and counts["outbox"] > 3
    assert out == [
        *(f"{table:<16}  {counts[table]} rows, identical" for table in TABLES),
        "2 game states replayed from the copy, identical",
        f"copied {harness.path} to {url}",
    ]
    source, copy = await Store.open(harness.path), await Store.open(url)
    assert await copy.open_games() == await source.open_games()
    for game_id in (1, 2, 3):
        assert await copy.game(game_id) == await source.game(game_id)
        assert await copy.log(game_id) == await source.log(game_id)
    assert await copy.pending_outbox() == await source.pending_outbox() != []
    assert await copy.ratings(GUILD, "scrabble") == await source.ratings(GUILD, "scrabble") != []
    assert await copy.rating_history(GUILD, f"user:{ALICE.id}", "scrabble") == await source.rating_history(
        GUILD, f"user:{ALICE.id}", "scrabble"
    )
    assert (
        await copy.leaderboard(GUILD, "scrabble", 10) == await source.leaderboard(GUILD, "scrabble", 10) != []
    )
    assert await copy.features(GUILD) == {"analysis": False}
    assert await copy.puzzle_answers(GUILD) == await source.puzzle_answers(GUILD) != []
    assert await copy.analysis(1) == {"moves": [1, 2]}
    await source.close()
    # The copy goes on where the source stopped: the next game is number 4, and its log follows.
    (lobby,) = [row for row in await copy.open_games() if row.channel_id == OTHER_CHANNEL]
    await copy.save(lobby, [], (), {"move": 1})
    assert (await copy.pending_outbox())[-1].id == counts["outbox"] + 1
    await copy.close()
    harness.url = url
    await harness.open()  # a service runs on the copy
    await harness.svc.cancel(OTHER_CHANNEL, CAROL.id, can_manage=False)
    await harness.svc.new_game(GUILD, OTHER_CHANNEL, CAROL, NewGame())
    assert query(url, "SELECT MAX(id) FROM games") == [(4,)]
    await harness.close()


async def test_tables_and_columns_of_any_name_are_copied(tmp_path: Path, pg_cluster: PgCluster) -> None:
    """The names come from the databases' schemas and are quoted as identifiers, never pasted into the
    SQL: a reserved word and a name with a quote and a space copy like any other."""
    harness = await played_database(tmp_path)
    url = pg_cluster.new_database()
    await (await Store.open(url)).close()
    create = 'CREATE TABLE "order" ("select" INTEGER, "a ""quoted"" name" TEXT)'
    query(harness.path, create, """INSERT INTO "order" VALUES (1, 'one'), (2, 'two')""")
    query(url, create)
    await migrate(harness.path, url)
    assert query(url, 'SELECT "select", "a ""quoted"" name" FROM "order" ORDER BY 1') == [
        (1, "one"),
        (2, "two"),
    ]


def test_a_name_that_would_read_as_a_placeholder_is_refused() -> None:
    assert identifier('a "b"') == '"a ""b"""'
    for name in ("a?", "a%s", "a\0"):
        with pytest.raises(ValueError, match=r"^not an identifier of the store: "):
            identifier(name)


async def test_a_target_with_games_is_refused_and_left_alone(
    tmp_path: Path, pg_cluster: PgCluster, capsys: pytest.CaptureFixture[str]
) -> None:
    harness = await played_database(tmp_path)
    url = pg_cluster.new_database()
    await migrate(harness.path, url)
    events = query(url, "SELECT COUNT(*) FROM events")
    assert await cli("--from", str(harness.path), "--to", url) == 1
    assert capsys.readouterr().err == (
        f"scrabble-bot migrate-db: the target database {url} already holds 3 games: migrate into a new, "
        "empty database\n"
    )
    assert query(url, "SELECT COUNT(*) FROM events") == events
    with pytest.raises(MigrationError, match=r"^the source and the target are the same database"):
        await migrate(url, url)


async def test_a_copy_that_differs_from_its_source_is_reported(tmp_path: Path, pg_cluster: PgCluster) -> None:
    harness = await played_database(tmp_path)
    url = pg_cluster.new_database()
    await (await Store.open(url)).close()
    query(  # the target changes what it is given: the verification must see it
        url,
        "CREATE FUNCTION rename() RETURNS trigger LANGUAGE plpgsql AS "
        "$$ BEGIN NEW.name := 'Mallory'; RETURN NEW; END $$",
        "CREATE TRIGGER rename BEFORE INSERT ON seats FOR EACH ROW EXECUTE FUNCTION rename()",
    )
    with pytest.raises(MigrationError) as refused:
        await migrate(harness.path, url)
    assert str(refused.value) == (
        "the copy of the table seats differs from its source (5 rows against 5): nothing else wrote to the "
        "target? Empty it and run again"
    )


async def test_an_unreachable_target_is_named_and_the_source_stays_usable(
    tmp_path: Path, pg_cluster: PgCluster, capsys: pytest.CaptureFixture[str]
) -> None:
    harness = await played_database(tmp_path)
    url = f"postgresql://bot:secret@127.0.0.1:{pg_cluster.port}/missing"
    assert await cli("--from", str(harness.path), "--to", url) == 1
    err = capsys.readouterr().err
    assert err.startswith(
        f"scrabble-bot migrate-db: cannot connect to the database postgresql://bot:***@127.0.0.1:{pg_cluster.port}/missing"
    )
    assert "secret" not in err
    await (await Store.open(harness.path)).close()  # its lock was released
