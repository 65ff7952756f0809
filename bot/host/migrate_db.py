"""``scrabble-bot migrate-db --from scrabble.sqlite3 --to postgresql://...``: copy a whole database into
another, empty one (typically SQLite to PostgreSQL; any of the two to any), then verify the copy.

Both are opened as the bot opens them (:meth:`bot.host.store.games.Store.open`): each for this process alone, so a
bot still running on either is refused, and each brought to the newest schema. Every table is copied
(games, seats, events, outbox, stats, ratings, analyses, puzzles... and those of later migrations)
with its ids, in one transaction on the target: all of it or nothing. Then the copy is verified: every
table holds as many rows as the source's, with the same contents (a digest of every row), and every
game's state is replayed from the copy by its game's codec to the source's state.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import sqlite3
import sys
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from bot.host import registry
from bot.host.store import Store, StoreOpenError
from bot.host.store.backends import Backend, display_name, identifier, is_postgresql_url

CHUNK: Final = 2000
"""Rows read and written per trip."""

PARENTS: Final = ("games", "puzzles")
"""The tables others refer to, copied first."""

EXIT_FAILED: Final = 1
EXIT_USAGE: Final = 2


class MigrationError(Exception):
    """The copy cannot be made or does not match its source; the message says why and what to do."""


@dataclass(frozen=True, slots=True)
class TableCopy:
    """One table copied: its name and row count (the same in both databases)."""

    table: str
    rows: int


@dataclass(frozen=True, slots=True)
class MigrationReport:
    """What was copied and verified: each table's rows, and the games whose state was replayed."""

    tables: tuple[TableCopy, ...]
    replayed: int

    def lines(self) -> list[str]:
        """The report as lines for a person."""
        width = max((len(copy.table) for copy in self.tables), default=0)
        return [
            *(f"{copy.table:<{width}}  {copy.rows} rows, identical" for copy in self.tables),
            f"{self.replayed} game states replayed from the copy, identical",
        ]


async def migrate(source: Path | str, target: Path | str) -> MigrationReport:
    """Copy every table of ``source`` into the empty database ``target`` and verify the copy.

    Raises:
        MigrationError: the target holds games already, is the source, or the copy differs.
        StoreOpenError: either database cannot be opened (in use, unreachable, too new...).
        sqlite3.Error: the copy failed (nothing was written to the target).
    """
    if str(source) == str(target):
        raise MigrationError("the source and the target are the same database: name another target")
    source_store = await Store.open(source)
    try:
        target_store = await Store.open(target)
        try:
            await _refuse_unless_empty(target_store.backend, target)
            tables = await _common_tables(source_store.backend, target_store.backend)
            await _copy(source_store.backend, target_store.backend, tables)
            copies = tuple(
                [await _verify_table(source_store.backend, target_store.backend, table) for table in tables]
            )
            replayed = await _replay(source_store, target_store)
        finally:
            await target_store.close()
    finally:
        await source_store.close()
    return MigrationReport(copies, replayed)


async def _refuse_unless_empty(backend: Backend, target: Path | str) -> None:
    row = await backend.fetchone("SELECT COUNT(*) FROM games")
    if row is not None and row[0]:
        raise MigrationError(
            f"the target database {display_name(target)} already holds {row[0]} games: migrate into a new, empty "
            "database"
        )


async def _common_tables(source: Backend, target: Backend) -> list[str]:
    """The tables to copy, parents first.

    Raises:
        MigrationError: the two schemas do not have the same tables.
    """
    names = await source.tables()
    if names != await target.tables():
        raise MigrationError(
            f"the two databases do not have the same tables ({', '.join(names)} against "
            f"{', '.join(await target.tables())}): use the same version of scrabble-bot for both"
        )
    return sorted(
        names, key=lambda name: (name not in PARENTS, PARENTS.index(name) if name in PARENTS else 0, name)
    )


async def _columns(backend: Backend, table: str) -> list[str]:
    return await backend.run(
        lambda db: [str(c[0]) for c in db.execute(f"SELECT * FROM {identifier(table)} LIMIT 0").description]
    )


async def _chunks(
    backend: Backend, table: str, columns: Sequence[str]
) -> AsyncIterator[list[tuple[Any, ...]]]:
    """Every row of ``table``, in a total order (by every column), in chunks of :data:`CHUNK`."""
    order = ", ".join(str(n) for n in range(1, len(columns) + 1))
    offset = 0
    while rows := await backend.fetchall(
        f"SELECT {', '.join(map(identifier, columns))} FROM {identifier(table)} ORDER BY {order} LIMIT ? OFFSET ?",
        (CHUNK, offset),
    ):
        yield rows
        offset += len(rows)


async def _copy(source: Backend, target: Backend, tables: Sequence[str]) -> None:
    """Copy ``tables`` in one transaction on ``target`` (emptied first of the rows its migrations
    seeded, such as ``rating_state``'s)."""
    await target.begin()
    try:
        for table in reversed(tables):
            await target.execute(f"DELETE FROM {identifier(table)}")
        for table in tables:
            columns = await _columns(source, table)
            names = ", ".join(map(identifier, columns))
            insert = f"INSERT INTO {identifier(table)} ({names}) VALUES ({', '.join('?' for _ in columns)})"
            async for rows in _chunks(source, table, columns):
                await target.executemany(insert, rows)
        await target.restart_ids()
        await target.commit()
    except BaseException:
        await target.rollback()
        raise


def _canonical(value: object) -> object:
    """A value as both engines return it: a whole float as an int (SQLite keeps the int a REAL column
    was given; PostgreSQL returns a float)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


async def _digest(backend: Backend, table: str, columns: Sequence[str]) -> tuple[int, str]:
    digest = hashlib.sha256()
    count = 0
    async for rows in _chunks(backend, table, columns):
        for row in rows:
            digest.update(json.dumps([_canonical(value) for value in row]).encode())
        count += len(rows)
    return count, digest.hexdigest()


async def _verify_table(source: Backend, target: Backend, table: str) -> TableCopy:
    """Raises MigrationError unless ``table`` has the same rows in both."""
    columns = await _columns(source, table)
    (count, expected), (copied, found) = (
        await _digest(source, table, columns),
        await _digest(target, table, columns),
    )
    if (count, expected) != (copied, found):
        raise MigrationError(
            f"the copy of the table {table} differs from its source ({copied} rows against {count}): "
            "nothing else wrote to the target? Empty it and run again"
        )
    return TableCopy(table, count)


async def _replay(source: Store, target: Store) -> int:
    """Restore every game's state from the copy with its game's codec (:mod:`bot.host.registry`) and
    compare it with the source's; the number of states replayed (a game of a kind not registered here
    is compared as a row only).

    Raises:
        MigrationError: a game reads differently, or its state does not restore to the source's.
    """
    replayed = 0
    kinds = {game.kind for game in registry.games()}
    for (game_id,) in await source.backend.fetchall("SELECT id FROM games ORDER BY id"):
        try:
            original, copy = await source.game(game_id), await target.game(game_id)
        except ValueError:
            continue  # a row the store cannot read (quarantined): compared as rows above
        if original != copy:
            raise MigrationError(f"game {game_id} reads differently from the copy")
        if copy is None or copy.state is None or copy.kind not in kinds:
            continue
        try:
            restored = registry.load(registry.game(copy.kind).codec).replay(copy.state)
        except Exception as error:
            raise MigrationError(f"game {game_id} cannot be restored from the copy: {error}") from error
        if restored != original.state:  # type: ignore[union-attr]
            raise MigrationError(f"game {game_id} restores from the copy to another state")
        replayed += 1
    return replayed


def _database(text: str) -> Path | str:
    return text if is_postgresql_url(text) else Path(text)


def main(argv: Sequence[str]) -> int:
    """``scrabble-bot migrate-db --from DATABASE --to DATABASE``; the exit code (0 copied and verified,
    1 failed, 2 bad usage)."""
    parser = argparse.ArgumentParser(
        prog="scrabble-bot migrate-db",
        description="Copy every game, event, announcement, stat and rating of one database into another, "
        "empty one, and verify the copy (row counts and contents, and a replay of every game's state).",
    )
    parser.add_argument("--from", dest="source", required=True, help="an SQLite file or a postgresql:// URL")
    parser.add_argument("--to", dest="target", required=True, help="a postgresql:// URL or an SQLite file")
    args = parser.parse_args(argv)
    try:
        report = asyncio.run(migrate(_database(args.source), _database(args.target)))
    except (MigrationError, StoreOpenError, sqlite3.Error, ValueError) as error:
        print(f"scrabble-bot migrate-db: {error}", file=sys.stderr)
        return EXIT_FAILED
    for line in report.lines():
        print(line)
    print(f"copied {display_name(_database(args.source))} to {display_name(_database(args.target))}")
    return 0
