"""The two database engines under :class:`bot.host.store.games.Store`: SQLite (aiosqlite) and PostgreSQL (psycopg 3).

The store holds every query and every transaction body once, written in the SQL both engines accept
(``?`` placeholders, ``ON CONFLICT``, ``RETURNING``); a backend runs them. Each backend has one
connection and one thread that owns it (aiosqlite's, or a one-thread executor for psycopg), so a
transaction body runs as one call on that thread: one trip whatever the number of statements.

What differs is here and in the migrations (``bot/host/store/migrations`` for SQLite, ``bot/host/store/migrations/postgresql``
for PostgreSQL, numbered alike): how a transaction begins, where the schema version is kept, how a table
is looked up, the placeholders, and the errors: a PostgreSQL error is raised as the ``sqlite3`` exception
of the same DB-API class (``IntegrityError``, ``OperationalError``...), so that the store's callers
handle one set of errors whatever the engine. Text that is not UTF-8 (a damaged SQLite file, or an
``SQL_ASCII`` PostgreSQL database written by another program) raises :class:`UndecodableTextError` on
either engine, so that the store can set aside the row that holds it (:mod:`bot.host.store.reading`).
"""

from __future__ import annotations

import abc
import asyncio
import contextlib
import sqlite3
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Protocol, TypeVar, cast
from urllib.parse import urlsplit, urlunsplit

import aiosqlite

if TYPE_CHECKING:
    import psycopg

_T = TypeVar("_T")

POSTGRESQL_SCHEMES: Final = ("postgresql", "postgres")

PG_LOCK_KEY: Final = 0x5C4AB813
"""The session advisory lock a process holds on a PostgreSQL database it has open (one writer)."""
PG_SETUP_KEY: Final = PG_LOCK_KEY + 1
"""The advisory lock sharded processes take in turn while they check and migrate the schema."""


def is_postgresql_url(database: str | Path) -> bool:
    """Whether ``database`` names a PostgreSQL database (``postgresql://...``) rather than a file."""
    return isinstance(database, str) and urlsplit(database).scheme in POSTGRESQL_SCHEMES


def redacted(url: str) -> str:
    """``url`` without its password, fit for a message or a log."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username or ''}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


def display_name(database: Path | str) -> str:
    """How to name ``database`` (a file, or a URL without its password) in a message or a log."""
    return redacted(database) if isinstance(database, str) else str(database)


class UndecodableTextError(sqlite3.DataError):
    """A row read holds text that is not UTF-8: the rest of the database may be sound."""


def _utf8_text(data: bytes) -> str:
    """SQLite's text as Python's, for the connection's ``text_factory``.

    Raises:
        UndecodableTextError: the bytes are not UTF-8 (sqlite3's own error would be an
            ``OperationalError``, which a busy or failing database also raises).
    """
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise UndecodableTextError(
            f"text that is not UTF-8 ({error.reason} at byte {error.start}): {data[:24]!r}"
        ) from None


class Cursor(Protocol):
    """What a statement returns: its rows, and how many rows it changed."""

    @property
    def rowcount(self) -> int: ...

    @property
    def description(self) -> Any: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...


class Connection(Protocol):
    """The synchronous connection a transaction body gets (``sqlite3.Connection`` is one)."""

    @property
    def in_transaction(self) -> bool: ...

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> Cursor: ...

    def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> Any: ...


class Backend(abc.ABC):
    """One connection to a database, used by one store (which serialises its use)."""

    begin_sql: str = "BEGIN"

    @abc.abstractmethod
    async def run(self, work: Callable[[Connection], _T]) -> _T:
        """``work(connection)`` on the connection's thread: one trip, however many statements."""

    @abc.abstractmethod
    async def close(self) -> None:
        """Close the connection."""

    @abc.abstractmethod
    async def schema_version(self) -> int:
        """The number of the last migration applied."""

    @abc.abstractmethod
    async def apply_migration(self, number: int, script: str) -> None:
        """Run the migration ``script`` and record ``number`` as applied, in one transaction (rolled
        back if it fails)."""

    @abc.abstractmethod
    async def has_table(self, name: str) -> bool:
        """Whether the schema has a table ``name``."""

    @abc.abstractmethod
    async def tables(self) -> list[str]:
        """The names of the schema's tables (the store's, not the engine's bookkeeping)."""

    @abc.abstractmethod
    async def restart_ids(self) -> None:
        """After rows were inserted with their ids: make the next generated id follow the largest one."""

    @abc.abstractmethod
    def _commit(self, connection: Connection) -> None: ...

    @abc.abstractmethod
    def _rollback(self, connection: Connection) -> None: ...

    async def begin(self) -> None:
        """Begin a transaction that writes."""
        await self.execute(self.begin_sql)

    async def commit(self) -> None:
        """Commit the transaction in progress."""
        await self.run(self._commit)

    async def rollback(self) -> None:
        """Roll back the transaction in progress, if any (nothing happens outside one)."""
        await self.run(self._rollback)

    async def execute(self, sql: str, parameters: Sequence[Any] = ()) -> int:
        """Run one statement; the number of rows it changed."""
        return await self.run(lambda db: db.execute(sql, parameters).rowcount)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement once per row of parameters."""
        rows = list(rows)
        if rows:
            await self.run(lambda db: db.executemany(sql, rows))

    async def fetchall(self, sql: str, parameters: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """The rows a query returns."""
        return await self.run(lambda db: [tuple(row) for row in db.execute(sql, parameters).fetchall()])

    async def fetchone(self, sql: str, parameters: Sequence[Any] = ()) -> tuple[Any, ...] | None:
        """The first row a query returns, if any."""
        rows = await self.fetchall(sql, parameters)
        return rows[0] if rows else None


class SqliteBackend(Backend):
    """An aiosqlite connection in autocommit mode (``isolation_level=None``); the schema version is
    ``PRAGMA user_version``."""

    begin_sql = "BEGIN IMMEDIATE"

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db
        db.text_factory = _utf8_text

    async def run(self, work: Callable[[Connection], _T]) -> _T:
        # aiosqlite has no public way to run a callable on its thread: this uses the method its own
        # ``execute`` and ``commit`` use.
        db = self.db
        return cast(_T, await db._execute(lambda: work(db._conn)))  # type: ignore[no-untyped-call]

    async def close(self) -> None:
        await self.db.close()

    async def schema_version(self) -> int:
        row = await self.fetchone("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def apply_migration(self, number: int, script: str) -> None:
        try:
            await self.db.executescript(
                f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;"
            )
        except BaseException:
            if self.db.in_transaction:
                await self.db.rollback()
            raise

    async def has_table(self, name: str) -> bool:
        return (
            await self.fetchone("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,))
            is not None
        )

    async def tables(self) -> list[str]:
        rows = await self.fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite!_%' ESCAPE '!' "
            "ORDER BY name"
        )
        return [str(name) for (name,) in rows]

    async def restart_ids(self) -> None:
        return None  # SQLite gives a new row the largest id plus one

    def _commit(self, connection: Connection) -> None:
        cast(sqlite3.Connection, connection).commit()

    def _rollback(self, connection: Connection) -> None:
        cast(sqlite3.Connection, connection).rollback()


class _PgCursor:
    """A psycopg cursor seen as a :class:`Cursor`, its errors raised as ``sqlite3`` ones."""

    def __init__(self, cursor: psycopg.Cursor[Any]) -> None:
        self._cursor = cursor

    @property
    def rowcount(self) -> int:
        return self._cursor.rowcount

    @property
    def description(self) -> Any:
        return self._cursor.description

    def fetchone(self) -> Any:
        with _as_sqlite_errors():
            return self._cursor.fetchone()

    def fetchall(self) -> list[Any]:
        with _as_sqlite_errors():
            return self._cursor.fetchall()


class _PgConnection:
    """A psycopg connection seen as a :class:`Connection`: ``?`` placeholders, ``sqlite3`` errors."""

    def __init__(self, connection: psycopg.Connection[Any]) -> None:
        self.connection = connection

    @property
    def in_transaction(self) -> bool:
        from psycopg import pq

        return self.connection.info.transaction_status is not pq.TransactionStatus.IDLE

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> Cursor:
        with _as_sqlite_errors():
            return _PgCursor(self.connection.execute(_placeholders(sql), parameters or None))

    def executemany(self, sql: str, parameters: Iterable[Sequence[Any]], /) -> Any:
        with _as_sqlite_errors(), self.connection.cursor() as cursor:
            cursor.executemany(_placeholders(sql), parameters)


def identifier(name: str) -> str:
    """``name`` as an SQL identifier both databases read as that name whatever it holds (a reserved
    word, a quote, a space): in double quotes, each of its own doubled.

    Raises:
        ValueError: the name holds a NUL, a ``?`` or a ``%`` (no identifier of the store's schemas does;
            the last two would read as the store's placeholders).
    """
    if any(char in name for char in "\0?%"):
        raise ValueError(f"not an identifier of the store: {name!r}")
    return '"' + name.replace('"', '""') + '"'


def _placeholders(sql: str) -> str:
    """The store's ``?`` placeholders as psycopg's ``%s`` (the store's SQL holds no other ``?`` or ``%``)."""
    return sql.replace("?", "%s")


class _as_sqlite_errors:  # noqa: N801 (used as a context manager, like contextlib's)
    """Raise a psycopg error as the ``sqlite3`` exception of its DB-API class, with its message."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: object) -> None:
        import psycopg

        if error is None or not isinstance(error, psycopg.Error):
            return
        if isinstance(
            error, psycopg.errors.CharacterNotInRepertoire | psycopg.errors.UntranslatableCharacter
        ):
            raise UndecodableTextError(str(error).strip()) from error
        for pg_class, sqlite_class in (
            (psycopg.IntegrityError, sqlite3.IntegrityError),
            (psycopg.OperationalError, sqlite3.OperationalError),
            (psycopg.ProgrammingError, sqlite3.ProgrammingError),
            (psycopg.DataError, sqlite3.DataError),
            (psycopg.InternalError, sqlite3.InternalError),
            (psycopg.NotSupportedError, sqlite3.NotSupportedError),
        ):
            if isinstance(error, pg_class):
                raise sqlite_class(str(error).strip()) from error
        raise sqlite3.DatabaseError(str(error).strip()) from error


class PostgresBackend(Backend):
    """A psycopg 3 connection in autocommit mode (transactions are explicit ``BEGIN``... ``COMMIT``),
    owned by a one-thread executor. The schema version is the one row of ``schema_version``. The
    process holds the advisory lock :data:`PG_LOCK_KEY` while the database is open."""

    def __init__(self, connection: psycopg.Connection[Any]) -> None:
        self._shared = False
        self._connection = _PgConnection(connection)
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="store-postgresql")

    @classmethod
    async def connect(cls, url: str, *, shared: bool = False) -> PostgresBackend:
        """Connect to ``url`` and take the one-writer lock; ``shared``: take it shared with the other
        processes of a sharded bot (each owns its shards by leases, see :mod:`bot.host.leases`), which keeps
        out an unsharded process and the console; such a process then holds :data:`PG_SETUP_KEY` (it
        waits for it) until :meth:`end_setup`, so that processes starting together migrate in turn.

        Raises:
            StoreOpenError (from bot.host.store.games): the server cannot be reached, refuses the login, or
                another process has the database open (a sharded one: an unsharded process has it).
        """
        import psycopg

        from bot.host.store import StoreOpenError

        try:
            # UTF-8 whatever the database's encoding: an SQL_ASCII one would otherwise read text as bytes.
            connection = await asyncio.to_thread(
                lambda: psycopg.connect(url, autocommit=True, client_encoding="utf-8")
            )
        except psycopg.Error as error:
            raise StoreOpenError(
                f"cannot connect to the database {redacted(url)}: {str(error).strip()}. Check that the "
                "server runs, that the URL (host, port, user, database name) is right and that this user "
                "may log in"
            ) from error
        backend = cls(connection)
        backend._shared = shared
        try:
            take = "pg_try_advisory_lock_shared" if shared else "pg_try_advisory_lock"
            locked = await backend.fetchone(f"SELECT {take}(?)", (PG_LOCK_KEY,))
            if locked is None or not locked[0]:
                other = (
                    "an unsharded scrabble-bot or a console" if shared else "another scrabble-bot or console"
                )
                raise StoreOpenError(
                    f"the database {redacted(url)} is in use by {other} (it holds the database's advisory "
                    "lock): stop that one first, or use another database"
                )
            if shared:
                await backend.execute("SELECT pg_advisory_lock(?)", (PG_SETUP_KEY,))
            await backend.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            await backend.execute(
                "INSERT INTO schema_version (version) SELECT 0 WHERE NOT EXISTS (SELECT 1 FROM schema_version)"
            )
        except BaseException:
            await backend.close()
            raise
        return backend

    async def end_setup(self) -> None:
        """Let the next sharded process check and migrate the schema (see :meth:`connect`)."""
        if self._shared:
            await self.execute("SELECT pg_advisory_unlock(?)", (PG_SETUP_KEY,))

    async def run(self, work: Callable[[Connection], _T]) -> _T:
        connection = self._connection
        return await asyncio.get_running_loop().run_in_executor(self._thread, work, connection)

    async def close(self) -> None:
        """Release the database's advisory locks, then close the connection: another process may open
        the database as soon as this returns (a bare close leaves them held until the server has ended
        the session, a moment later: a process started right after this one stopped was refused)."""
        import psycopg

        def release_and_close(_: Connection) -> None:
            connection = self._connection.connection
            try:
                with contextlib.suppress(psycopg.Error):  # lost: the server releases them at its end
                    connection.execute("SELECT pg_advisory_unlock_all()")
            finally:
                connection.close()

        await self.run(release_and_close)
        self._thread.shutdown()

    async def schema_version(self) -> int:
        row = await self.fetchone("SELECT version FROM schema_version")
        return int(row[0]) if row else 0

    async def apply_migration(self, number: int, script: str) -> None:
        def migrate(db: Connection) -> None:
            db.execute("BEGIN")
            try:
                # Without parameters, psycopg sends the script as one simple query: several statements.
                with _as_sqlite_errors():
                    cast(_PgConnection, db).connection.execute(cast(Any, script))
                db.execute("UPDATE schema_version SET version = ?", (number,))
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise

        await self.run(migrate)

    async def has_table(self, name: str) -> bool:
        return await self.fetchone("SELECT to_regclass(?) IS NOT NULL", (name,)) == (True,)

    async def tables(self) -> list[str]:
        rows = await self.fetchall(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() "
            "AND table_type = 'BASE TABLE' AND table_name != 'schema_version' ORDER BY table_name"
        )
        return [str(name) for (name,) in rows]

    async def restart_ids(self) -> None:
        from psycopg import sql

        identities = await self.fetchall(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND is_identity = 'YES'"
        )

        def restart(db: Connection) -> None:
            connection = cast(_PgConnection, db).connection
            for table, column in identities:
                # pg_get_serial_sequence reads its table as SQL text (a quoted identifier), its column as is.
                query = sql.SQL(
                    "SELECT setval(pg_get_serial_sequence({table_text}, {column_text}), "
                    "COALESCE((SELECT MAX({column}) FROM {table}), 0) + 1, false)"
                ).format(
                    table_text=sql.Literal(sql.Identifier(table).as_string(connection)),
                    column_text=sql.Literal(column),
                    column=sql.Identifier(column),
                    table=sql.Identifier(table),
                )
                with _as_sqlite_errors():  # no parameters: a name holding % or ? is sent as it is
                    connection.execute(query)

        await self.run(restart)

    def _commit(self, connection: Connection) -> None:
        connection.execute("COMMIT")

    def _rollback(self, connection: Connection) -> None:
        connection.execute("ROLLBACK")
