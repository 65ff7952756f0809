"""Opening a database: the connection (SQLite with aiosqlite, the default, or PostgreSQL at a
``postgresql://`` URL with psycopg 3), the one-writer lock, the checks made before anything is written,
and the schema's migrations. :class:`StoreBase` is the part of :class:`~bot.host.store.Store` every other
part builds on: its connection, the lock that serialises its use and its transactions.

The schema is built by the numbered SQL files of ``bot/host/store/migrations`` (``0001_initial.sql``...;
the same numbers in ``migrations/postgresql`` for PostgreSQL), applied in order at :meth:`StoreBase.open`;
SQLite's ``PRAGMA user_version`` (PostgreSQL's ``schema_version`` table) records the last one applied. An
SQLite database runs in WAL mode. Every write method is one transaction: it is committed whole or not at
all.

One process writes a database: :meth:`StoreBase.open` takes an exclusive lock (``flock``) on
``<database>.lock``, which the OS releases when the process ends, however it ends (on PostgreSQL, a
session advisory lock, released when the connection ends). It also refuses, with a message that names
the database and says what to do, a database that is damaged, read-only or of a newer schema than this
program's, before anything is written.

A store has one connection, shared by every caller: an :class:`asyncio.Lock` serialises its use, so a
transaction never starts inside another one, and a read never sees the uncommitted writes of a
transaction in progress. Errors are ``sqlite3``'s exception classes whatever the engine.
"""

from __future__ import annotations

import asyncio
import fcntl
import logging
import os
import re
import sqlite3
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Final, Self, TypeVar

import aiosqlite

from bot.host.shards import Shards
from bot.host.store.backends import (
    Backend,
    Connection,
    PostgresBackend,
    SqliteBackend,
    is_postgresql_url,
    redacted,
)
from bot.host.store.group_commit import GroupCommit
from bot.host.store.rows import ForeignShardError

MIGRATIONS_DIR: Final = Path(__file__).parent / "migrations"
PG_MIGRATIONS_DIR: Final = MIGRATIONS_DIR / "postgresql"
"""PostgreSQL's migrations: numbered as SQLite's, each building the same schema in its SQL."""
_MIGRATION_NAME: Final = re.compile(r"^(\d{4})_\w+\.sql$")

DEFAULT_BUSY_TIMEOUT: Final = 5.0
"""Seconds a statement waits for another connection's write lock before failing as busy."""

logger = logging.getLogger("bot.host.store")

_T = TypeVar("_T")


class StoreOpenError(sqlite3.DatabaseError):
    """The database cannot be used; the message names the file, says why and what to do."""


class DatabaseInUseError(StoreOpenError):
    """Another process (a bot or a console) has the database open."""

    def __init__(self, path: Path) -> None:
        super().__init__(
            f"the database {path} is in use by another scrabble-bot or console (it holds {lock_path(path)}): "
            "stop that one first, or use another database file"
        )


class ReadOnlyDatabaseError(StoreOpenError):
    """The database (or its directory) cannot be written."""

    def __init__(self, path: Path) -> None:
        super().__init__(
            f"the database {path} is read-only: make the file and its directory writable by this user, "
            "or use another database file"
        )


class CorruptDatabaseError(StoreOpenError):
    """The file is damaged or not a database."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(
            f"cannot open the database {path}: {reason}. Restore it from a backup, or move it aside to "
            "start with an empty database"
        )


class SchemaTooOldError(StoreOpenError):
    """A database to read only was written by an earlier version, and only its writer upgrades it."""

    def __init__(self, path: Path) -> None:
        super().__init__(
            f"the database {path} was written by an earlier version: open it once to play (which upgrades "
            "it), then it can be read"
        )


class SchemaTooNewError(StoreOpenError):
    """The database was written by a newer version of the program."""

    def __init__(self, path: Path, version: int, newest: int) -> None:
        super().__init__(
            f"the database {path} has schema version {version}, newer than this program's ({newest}): "
            "it was written by a newer version. Upgrade this program, or use another database file"
        )


class StoreBase:
    """An open database: its connection and lock. Open with :meth:`open`; :meth:`close` when done."""

    def __init__(self, db: Backend, lock_fd: int | None = None, shards: Shards | None = None) -> None:
        """Wrap an open connection in autocommit mode, holding the one-writer lock ``lock_fd`` (use
        :meth:`open`); with ``shards``, only the games of their guilds are this store's to load and
        create (:meth:`owns`)."""
        self._db = db
        self._lock = asyncio.Lock()
        self._writes = GroupCommit(db, self._lock)
        self._lock_fd = lock_fd
        self._shards = shards

    @classmethod
    async def open(
        cls,
        path: Path | str,
        migrations_dir: Path | None = None,
        *,
        busy_timeout: float | None = None,
        shards: Shards | None = None,
    ) -> Self:
        """Open (or create) the database at ``path`` for this process alone, in WAL mode, check that it
        can be used, and apply the migrations it lacks (of ``migrations_dir``, by default
        :data:`MIGRATIONS_DIR`). A statement waits up to ``busy_timeout`` seconds (default
        :data:`DEFAULT_BUSY_TIMEOUT`) for another connection's write lock.

        A ``postgresql://`` URL opens that PostgreSQL database instead (see :meth:`open_postgresql`).
        With ``shards`` the store is one process's part of a sharded bot: it loads and creates only the
        games of their guilds (:meth:`owns`).

        Raises:
            DatabaseInUseError: another process has it open.
            ReadOnlyDatabaseError: it cannot be written.
            CorruptDatabaseError: it is damaged or not a database.
            SchemaTooNewError: its schema is newer than the newest migration.
            StoreOpenError: it cannot be opened at all (the message says why).
            sqlite3.Error: a migration fails (it is rolled back).
            ValueError: a migration file is misnamed or numbers are not 1, 2, 3...
        """
        if isinstance(path, str) and is_postgresql_url(path):
            return await cls.open_postgresql(path, migrations_dir, shards=shards)
        path = Path(path)
        migrations = _migrations(MIGRATIONS_DIR if migrations_dir is None else migrations_dir)
        lock_fd = _take_lock(path)
        try:
            try:
                timeout = DEFAULT_BUSY_TIMEOUT if busy_timeout is None else busy_timeout
                db = await aiosqlite.connect(path, isolation_level=None, timeout=timeout)
            except sqlite3.Error as error:
                raise _open_error(path, error) from error
            try:
                store = cls(SqliteBackend(db), lock_fd, shards)
                await store._check(path, migrations[-1][0] if migrations else 0)
                await store._migrate(migrations)
            except BaseException:
                await db.close()
                raise
        except BaseException:
            os.close(lock_fd)
            raise
        return store

    @classmethod
    async def open_to_read(cls, path: Path) -> Self | None:
        """The SQLite database ``path`` opened to read only: without the one-writer lock (beside a
        process that has it open) and without migrating it. ``None`` when there is no such file.

        Raises:
            SchemaTooOldError: it was written by an earlier version (open it once to upgrade it).
            SchemaTooNewError: it was written by a newer version.
            StoreOpenError: it cannot be read (the message says why).
        """
        if not path.is_file():
            return None
        migrations = _migrations(MIGRATIONS_DIR)
        newest = migrations[-1][0] if migrations else 0
        try:
            db = await aiosqlite.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)
        except sqlite3.Error as error:
            raise _open_error(path, error) from error
        store = cls(SqliteBackend(db))
        try:
            version = await store.schema_version()
        except sqlite3.Error as error:
            await db.close()
            raise _open_error(path, error) from error
        if version != newest:
            await db.close()
            if version > newest:
                raise SchemaTooNewError(path, version, newest)
            raise SchemaTooOldError(path)
        return store

    @classmethod
    async def open_postgresql(
        cls, url: str, migrations_dir: Path | None = None, *, shards: Shards | None = None
    ) -> Self:
        """Open the PostgreSQL database at ``url`` (``postgresql://user:password@host:port/name``; it
        must exist) for this process alone (it holds the database's advisory lock while open; with
        ``shards``, shared with the other sharded processes, see :meth:`PostgresBackend.connect`) and
        apply the migrations it lacks (of ``migrations_dir``, by default :data:`PG_MIGRATIONS_DIR`).

        Raises:
            StoreOpenError: the server cannot be reached or refuses the login, another process has
                the database open, or its schema is newer than the newest migration.
            sqlite3.Error: a migration fails (it is rolled back); the store raises PostgreSQL's errors
                as the ``sqlite3`` exceptions of their class (see :mod:`bot.host.store.backends`).
            ValueError: a migration file is misnamed or numbers are not 1, 2, 3...
        """
        migrations = _migrations(PG_MIGRATIONS_DIR if migrations_dir is None else migrations_dir)
        backend = await PostgresBackend.connect(url, shared=shards is not None)
        try:
            store = cls(backend, shards=shards)
            newest = migrations[-1][0] if migrations else 0
            version = await backend.schema_version()
            if version > newest:
                raise StoreOpenError(
                    f"the database {redacted(url)} has schema version {version}, newer than this "
                    f"program's ({newest}): it was written by a newer version. Upgrade this program, or "
                    "use another database"
                )
            await store._migrate(migrations)
            await backend.end_setup()
        except BaseException:
            await backend.close()
            raise
        return store

    def owns(self, guild_id: int) -> bool:
        """Whether the games of ``guild_id`` are this store's (always, unless it was opened with shards)."""
        return self._shards is None or self._shards.owns(guild_id)

    def _check_owned(self, guild_id: int) -> None:
        if self._shards is not None and not self._shards.owns(guild_id):
            raise ForeignShardError(guild_id, self._shards)

    async def in_transaction(self, work: Callable[[Connection], _T]) -> _T:
        """``work(connection)`` in one transaction, committed if it returns (rolled back if it raises),
        for tables that are not the games' (see :mod:`bot.host.leases`); ``work`` must not touch the store."""
        return await self._write(work)

    @property
    def backend(self) -> Backend:
        """The connection, for tools that work on whole tables (``scrabble-bot migrate-db``): nothing
        else may use it while the store is in use."""
        return self._db

    async def close(self) -> None:
        """Close the connection (once the writes queued and any transaction in progress are over) and
        release the lock."""
        await self._writes.drain()
        async with self._lock:
            await self._db.close()
            if self._lock_fd is not None:
                os.close(self._lock_fd)
                self._lock_fd = None

    async def schema_version(self) -> int:
        """The number of the last migration applied."""
        async with self._lock:
            return await self._db.schema_version()

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[None]:
        """``BEGIN IMMEDIATE`` ... ``COMMIT`` under the lock, rolled back if anything in it raises
        (the ``BEGIN`` included, or a cancellation while it runs), for work that must await between
        its statements. The lock is not reentrant: nothing inside may call a public method of the
        store. Each statement is a trip to the connection's thread: prefer :meth:`_write`."""
        async with self._lock:
            try:
                await self._db.begin()
                yield
                await self._db.commit()
            except BaseException:
                # Unconditional: the connection's thread runs it after a BEGIN still queued when a
                # cancellation arrived, and it does nothing outside a transaction.
                await self._db.rollback()
                raise

    async def _write(self, work: Callable[[Connection], _T]) -> _T:
        """``work`` (statements that must not touch the store) in a transaction, committed together
        with the writes queued beside it (see :mod:`bot.host.store.group_commit`); what it returns."""
        return await self._writes.write(work)

    async def _run(self, work: Callable[[Connection], _T]) -> _T:
        """``work(connection)``, called on the connection's thread (one trip, however many statements)."""
        return await self._db.run(work)

    async def _check(self, path: Path, newest: int) -> None:
        """Set the connection up and check the database before anything is written: intact, of a
        schema this program knows, and writable.

        Raises:
            StoreOpenError: as :meth:`open` says.
        """
        try:
            await self._db.execute("PRAGMA journal_mode = WAL")
            await self._db.execute("PRAGMA foreign_keys = ON")
            await self._db.execute("PRAGMA synchronous = NORMAL")
            verdict = [str(row[0]) for row in await self._db.fetchall("PRAGMA quick_check")]
            if verdict != ["ok"]:
                logger.error("%s fails SQLite's check: %s", path, "; ".join(verdict)[:1000])
                raise CorruptDatabaseError(path, "database disk image is malformed")
            version = await self.schema_version()
            if version > newest:
                raise SchemaTooNewError(path, version, newest)
            # A write that is rolled back: a read-only file fails here, not at the first move.
            await self._db.begin()
            try:
                await self._db.execute(f"PRAGMA user_version = {version}")
            finally:
                await self._db.rollback()
        except StoreOpenError:
            raise
        except sqlite3.Error as error:
            raise _open_error(path, error) from error

    async def _migrate(self, migrations: Sequence[tuple[int, Path]]) -> None:
        current = await self.schema_version()
        for number, path in migrations:
            if number <= current:
                continue
            await self._db.apply_migration(number, path.read_text(encoding="utf-8"))


def _migrations(directory: Path) -> list[tuple[int, Path]]:
    """The migration files of ``directory`` by number, which must run 1, 2, 3... without a gap."""
    found = []
    for path in directory.glob("*.sql"):
        match = _MIGRATION_NAME.match(path.name)
        if match is None:
            raise ValueError(f"{path}: a migration is named NNNN_name.sql")
        found.append((int(match.group(1)), path))
    found.sort()
    if [number for number, _ in found] != list(range(1, len(found) + 1)):
        raise ValueError(f"{directory}: migrations must be numbered 1, 2, 3... without a gap")
    return found


def lock_path(path: Path) -> Path:
    """The file whose lock says that a process has the database ``path`` open."""
    return path.with_name(path.name + ".lock")


def _take_lock(path: Path) -> int:
    """Lock ``<path>.lock`` for this process (the OS releases it when the process ends); its fd.

    Raises:
        DatabaseInUseError: another process holds it.
        ReadOnlyDatabaseError: the lock file cannot be created or opened for writing.
        StoreOpenError: another reason (a missing directory...).
    """
    lock = lock_path(path)
    try:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except PermissionError as error:
        raise ReadOnlyDatabaseError(path) from error
    except OSError as error:
        raise StoreOpenError(
            f"cannot open the database {path}: {error.strerror} ({lock}). Check that its directory exists "
            "and is writable"
        ) from error
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as error:
        os.close(fd)
        raise DatabaseInUseError(path) from error
    return fd


def _open_error(path: Path, error: sqlite3.Error) -> StoreOpenError:
    """What opening ``path`` failed of, from SQLite's ``error``, with what to do."""
    name = getattr(error, "sqlite_errorname", "")
    if name.startswith("SQLITE_READONLY") or (
        name.startswith("SQLITE_CANTOPEN") and path.exists() and not os.access(path, os.W_OK)
    ):
        return ReadOnlyDatabaseError(path)
    if name.startswith(("SQLITE_CANTOPEN", "SQLITE_BUSY", "SQLITE_LOCKED", "SQLITE_IOERR")):
        return StoreOpenError(
            f"cannot open the database {path}: {error}. Check that its directory exists and is writable, "
            "and that no other program is writing it"
        )
    return CorruptDatabaseError(path, str(error))
