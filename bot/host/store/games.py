"""The store: games, seats, the append-only event log and per-guild stats, on SQLite (aiosqlite, the
default) or PostgreSQL (a ``postgresql://`` URL; psycopg 3). Every query and transaction body is here,
once, in SQL both engines accept; :mod:`bot.host.store.backends` runs them on either.

The schema is built by the numbered SQL files of ``bot/host/store/migrations`` (``0001_initial.sql``...; the same
numbers in ``bot/host/store/migrations/postgresql`` for PostgreSQL), applied in order at :meth:`Store.open`; SQLite's
``PRAGMA user_version`` (PostgreSQL's ``schema_version`` table) records the last one applied. An SQLite
database runs in WAL mode. Every write method is one transaction: it is committed whole or not at all.

One process writes a database: :meth:`Store.open` takes an exclusive lock (``flock``) on
``<database>.lock``, which the OS releases when the process ends, however it ends (on PostgreSQL, a
session advisory lock, released when the connection ends). It also refuses, with a message that names
the database and says what to do, a database that is damaged, read-only or of a newer schema than this
program's, before anything is written.

The games table holds every game the host plays, each of a :class:`GameKind`: Scrabble's (read as
:class:`GameRow` by the methods Scrabble has always used, which never see another kind) and Go's
(:class:`GoRow`, by the ``go`` methods), with the same seats, event log and outbox. A channel has at most
one open game whatever its kind: :meth:`Store.create_game` and :meth:`Store.create_go_game` refuse another
with :class:`ChannelTakenError`, which names the kind of the game there (the one place that rule lives).

A store has one connection, shared by every caller: an :class:`asyncio.Lock` serialises its use, so a
transaction never starts inside another one, and a read never sees the uncommitted writes of a
transaction in progress. Errors are ``sqlite3``'s exception classes whatever the engine.
"""

from __future__ import annotations

import asyncio
import enum
import fcntl
import json
import logging
import os
import re
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Final, TypeVar

import aiosqlite

from bot.host.rating_model import (
    MODEL_VERSION,
    PlayerRating,
    RatedGame,
    Rating,
    RatingPoint,
    Record,
    SeatResult,
    rate_game,
    rated_game,
    rated_go_game,
)
from bot.host.shards import Shards, shard_of
from bot.host.store.backends import (
    Backend,
    Connection,
    PostgresBackend,
    SqliteBackend,
    is_postgresql_url,
    redacted,
)
from bot.host.store.group_commit import GroupCommit
from scrabble_core.ai import Level
from scrabble_core.game import ChallengeMode

MIGRATIONS_DIR: Final = Path(__file__).parent / "migrations"
PG_MIGRATIONS_DIR: Final = MIGRATIONS_DIR / "postgresql"
"""PostgreSQL's migrations: numbered as SQLite's, each building the same schema in its SQL."""
_MIGRATION_NAME: Final = re.compile(r"^(\d{4})_\w+\.sql$")

DEFAULT_BUSY_TIMEOUT: Final = 5.0
"""Seconds a statement waits for another connection's write lock before failing as busy."""

INT64_MIN: Final = -(1 << 63)
INT64_MAX: Final = (1 << 63) - 1

logger = logging.getLogger("bot.host.store.games")

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


class SchemaTooNewError(StoreOpenError):
    """The database was written by a newer version of the program."""

    def __init__(self, path: Path, version: int, newest: int) -> None:
        super().__init__(
            f"the database {path} has schema version {version}, newer than this program's ({newest}): "
            "it was written by a newer version. Upgrade this program, or use another database file"
        )


class IntegerRangeError(ValueError):
    """A number too large (or small) for an SQLite INTEGER (64 bits); nothing was written."""

    def __init__(self, what: str) -> None:
        super().__init__(f"The {what} must be between {INT64_MIN} and {INT64_MAX}")


class GameKind(enum.StrEnum):
    """Which game a row of the games table holds."""

    SCRABBLE = "scrabble"
    GO = "go"

    @property
    def game_name(self) -> str:
        """The game's name as players read it: ``Scrabble``, ``Go``."""
        return "Scrabble" if self is GameKind.SCRABBLE else "Go"


class ChannelTakenError(sqlite3.IntegrityError):
    """A new game in a channel that has an open game (of any kind): :attr:`kind` is that game's."""

    def __init__(self, channel_id: int, kind: GameKind) -> None:
        self.channel_id = channel_id
        self.kind = kind
        super().__init__(f"channel {channel_id} already has an open {kind} game")


class ForeignShardError(sqlite3.IntegrityError):
    """A new game in a guild of a shard another process owns (see :mod:`bot.host.shards`): nothing is written."""

    def __init__(self, guild_id: int, shards: Shards) -> None:
        self.guild_id = guild_id
        super().__init__(
            f"guild {guild_id} is on shard {shard_of(guild_id, shards.count)}, not this process's {shards}"
        )


class GameStatus(enum.StrEnum):
    """Where a game is in its life: gathering players, being played, or over."""

    LOBBY = "lobby"
    ACTIVE = "active"
    FINISHED = "finished"
    CANCELLED = "cancelled"

    @property
    def is_open(self) -> bool:
        """Whether the game still occupies its channel (lobby or active)."""
        return self in (GameStatus.LOBBY, GameStatus.ACTIVE)


@dataclass(frozen=True, slots=True)
class GameOptions:
    """The settings a game was created with. ``turn_seconds`` 0 means no time limit, ``hints`` 0 no
    hints; ``ai_level`` is the level of the game's AI seats; an unrated game changes no rating."""

    variant: str
    challenge_mode: ChallengeMode
    turn_seconds: int
    hints: int
    ai_level: Level
    rated: bool = True

    def to_dict(self) -> dict[str, Any]:
        """The options as JSON-compatible data."""
        return {
            "variant": self.variant,
            "challenge_mode": str(self.challenge_mode),
            "turn_seconds": self.turn_seconds,
            "hints": self.hints,
            "ai_level": str(self.ai_level),
            "rated": self.rated,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameOptions:
        """The options saved by :meth:`to_dict`."""
        return cls(
            str(data["variant"]),
            ChallengeMode(str(data["challenge_mode"])),
            int(data["turn_seconds"]),
            int(data["hints"]),
            Level(str(data["ai_level"])),
            bool(data.get("rated", True)),  # games saved before ratings existed are rated
        )


@dataclass(frozen=True, slots=True)
class SeatRow:
    """A seat of a game: a human (``user_id``) or an AI (``ai_level``), in turn order."""

    seat: int
    user_id: int | None
    name: str
    ai_level: Level | None = None
    hints_used: int = 0
    timeouts: int = 0

    @property
    def is_ai(self) -> bool:
        """Whether an AI plays this seat."""
        return self.user_id is None


@dataclass(frozen=True, slots=True)
class GameRow:
    """A game as stored. ``state`` is the engine's :meth:`~scrabble_core.game.Game.to_dict` (``None``
    in the lobby); ``deadline`` the UTC epoch second the current human turn runs out."""

    id: int
    guild_id: int
    channel_id: int
    creator_id: int
    status: GameStatus
    options: GameOptions
    seed: int
    state: Mapping[str, Any] | None
    seats: tuple[SeatRow, ...]
    deadline: float | None = None
    reminded: bool = False
    created_at: float = 0.0
    updated_at: float = 0.0


@dataclass(frozen=True, slots=True)
class GoRow:
    """A Go game as stored: a row of the same games table as Scrabble's (kind ``go``). ``options`` is
    the Go service's JSON (:class:`bot.games.go.options.GoOptions`), ``state`` its JSON of the game
    (``None`` in the lobby); seat 0 plays Black, seat 1 White."""

    id: int
    guild_id: int
    channel_id: int
    creator_id: int
    status: GameStatus
    options: Mapping[str, Any]
    seed: int
    state: Mapping[str, Any] | None
    seats: tuple[SeatRow, ...]
    deadline: float | None = None
    reminded: bool = False
    created_at: float = 0.0
    updated_at: float = 0.0


@dataclass(frozen=True, slots=True)
class KindStatsDelta:
    """What one finished game of ``kind`` (not Scrabble) adds to a player's stats in a guild."""

    guild_id: int
    kind: GameKind
    user_id: int
    name: str
    won: bool
    drawn: bool = False


@dataclass(frozen=True, slots=True)
class KindStatsRow:
    """A player's stats of one kind of game in a guild."""

    user_id: int
    name: str
    games: int
    wins: int
    draws: int


@dataclass(frozen=True, slots=True)
class OutboxEntry:
    """An announcement committed with its change and not yet marked sent: ``data`` is what the service
    wrote to rebuild it; ``posted`` whether it was marked posted (its channel message went out, the
    racks it DMs maybe not)."""

    id: int
    game_id: int
    data: Mapping[str, Any]
    posted: bool = False


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One row of the event log: an engine event (``play``, ``pass``...) or a service one
    (``created``, ``joined``, ``timeout``...) with its data."""

    kind: str
    seat: int | None
    data: Mapping[str, Any]
    at: float


@dataclass(frozen=True, slots=True)
class StatsDelta:
    """What one finished game adds to a player's stats in a guild."""

    guild_id: int
    user_id: int
    name: str
    won: bool
    score: int
    best_score: int | None
    best_move: str | None


@dataclass(frozen=True, slots=True)
class StatsRow:
    """A player's stats in a guild."""

    user_id: int
    name: str
    games: int
    wins: int
    total_score: int
    best_score: int | None
    best_move: str | None

    @property
    def average(self) -> float:
        """The average final score (0 without a game)."""
        return self.total_score / self.games if self.games else 0.0


@dataclass(frozen=True, slots=True)
class PuzzleAnswer:
    """A user's answer to a guild's daily puzzle: the play given, the points it earned and whether it
    solved the puzzle (within its tolerance)."""

    guild_id: int
    day: str
    user_id: int
    name: str
    answer: str
    points: int
    solved: bool
    at: float


class Store:
    """An open database. Create with :meth:`open`; :meth:`close` when done."""

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
    ) -> Store:
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
                await store._check_ratings()
            except BaseException:
                await db.close()
                raise
        except BaseException:
            os.close(lock_fd)
            raise
        return store

    @classmethod
    async def open_postgresql(
        cls, url: str, migrations_dir: Path | None = None, *, shards: Shards | None = None
    ) -> Store:
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
            await store._check_ratings()
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

    # Writing ------------------------------------------------------------------------------------

    async def _insert_game(self, row: GameRow | GoRow, log: Sequence[LogEntry]) -> int:
        """Insert a new game of either kind with its seats and log entries, in one transaction; its id.

        Raises:
            ChannelTakenError, IntegerRangeError, ForeignShardError: as :meth:`create_game` (nothing is
                written).
        """
        self._check_owned(row.guild_id)
        _check_integers(row, log, ())
        return await self._write(lambda db: _insert_game(db, row, log))

    async def create_game(self, row: GameRow, log: Sequence[LogEntry]) -> GameRow:
        """Insert a new game (``row.id`` is ignored) with its seats and log entries; return it with
        its id.

        Raises:
            ChannelTakenError: the channel already has an open game, of any kind (nothing is written).
            IntegerRangeError: a number does not fit SQLite (nothing is written).
            ForeignShardError: the guild is another process's (nothing is written).
        """
        game_id = await self._insert_game(row, log)
        return GameRow(
            game_id,
            row.guild_id,
            row.channel_id,
            row.creator_id,
            row.status,
            row.options,
            row.seed,
            row.state,
            row.seats,
            row.deadline,
            row.reminded,
            row.created_at,
            row.updated_at,
        )

    async def save(
        self,
        row: GameRow,
        log: Sequence[LogEntry],
        stats: Iterable[StatsDelta] = (),
        outbox: Mapping[str, Any] | None = None,
    ) -> int | None:
        """Write ``row`` over the stored game of its id (status, state, timer, seats), append ``log``,
        add ``stats``, rate the game if ``row`` finishes it (see :meth:`rebuild_ratings`) and queue the
        announcement ``outbox`` (see :meth:`pending_outbox`), in one transaction. Returns the queued
        announcement's id.

        Raises:
            KeyError: no game has that id (nothing is written).
            IntegerRangeError: a number does not fit SQLite (nothing is written).
            sqlite3.Error: the write failed (nothing is written).
        """
        stats = list(stats)
        _check_integers(row, log, stats)
        return await self._write(lambda db: _save_game(db, row, log, stats, outbox))

    async def mark_posted(self, entry_id: int, at: float) -> None:
        """Mark the queued announcement ``entry_id`` posted at ``at``: its channel message went out.

        Raises:
            sqlite3.Error: the write failed.
        """
        await self._write(
            lambda db: db.execute("UPDATE outbox SET posted_at = ? WHERE id = ?", (at, entry_id))
        )

    async def mark_sent(self, entry_id: int, at: float) -> None:
        """Mark the queued announcement ``entry_id`` delivered at ``at``.

        Raises:
            sqlite3.Error: the write failed.
        """
        await self._write(lambda db: db.execute("UPDATE outbox SET sent_at = ? WHERE id = ?", (at, entry_id)))

    async def quarantine(self, game_id: int, reason: str) -> None:
        """Set game ``game_id`` aside: it is never loaded again and no longer holds its channel; its
        row is otherwise left as it is. ``reason`` (capped) is stored with it.

        Raises:
            sqlite3.Error: the write failed.
        """
        async with self._transaction():
            await self._db.execute("UPDATE games SET quarantined = ? WHERE id = ?", (reason[:500], game_id))

    # Reading ------------------------------------------------------------------------------------

    async def open_games(self) -> list[GameRow]:
        """Every game in the lobby or being played, by id, except quarantined ones and those of other
        processes' shards (:meth:`owns`). A game whose row cannot be read (broken JSON, a missing
        option, missing seats) is quarantined (see :meth:`quarantine`) and logged, and the others are
        returned."""
        async with self._lock:
            games, broken = await self._run(
                lambda db: _read_rows(
                    db,
                    "WHERE status IN ('lobby', 'active') AND quarantined IS NULL AND kind = 'scrabble' ORDER BY id",
                    (),
                    _game_row,
                )
            )
        for game_id, reason in broken:
            logger.error("game %d cannot be read (%s): quarantined", game_id, reason)
            await self.quarantine(game_id, reason)
        return [game for game in games if self.owns(game.guild_id)]

    async def pending_outbox(self, kind: GameKind = GameKind.SCRABBLE) -> list[OutboxEntry]:
        """The announcements of the (owned, see :meth:`owns`) games of ``kind`` not marked sent, oldest
        first."""
        async with self._lock:
            rows = await self._db.fetchall(
                "SELECT outbox.id, game_id, data, posted_at IS NOT NULL, guild_id FROM outbox "
                "JOIN games ON games.id = outbox.game_id "
                "WHERE sent_at IS NULL AND games.kind = ? ORDER BY outbox.id",
                (kind.value,),
            )
        return [
            OutboxEntry(entry_id, game_id, _json_object(data), bool(posted))
            for entry_id, game_id, data, posted, guild_id in rows
            if self.owns(guild_id)
        ]

    async def game(self, game_id: int) -> GameRow | None:
        """The Scrabble game of that id, if any."""
        rows = await self._games("WHERE id = ? AND kind = 'scrabble'", (game_id,))
        return rows[0] if rows else None

    async def last_finished_game(self, channel_id: int) -> GameRow | None:
        """The Scrabble game that ended last in ``channel_id`` (finished, not cancelled), if any."""
        rows = await self._games(
            "WHERE channel_id = ? AND status = 'finished' AND kind = 'scrabble' ORDER BY id DESC LIMIT 1",
            (channel_id,),
        )
        return rows[0] if rows else None

    async def log(self, game_id: int) -> list[LogEntry]:
        """The event log of a game, oldest first."""
        async with self._lock:
            rows = await self._db.fetchall(
                "SELECT kind, seat, data, at FROM events WHERE game_id = ? ORDER BY id", (game_id,)
            )
        return [LogEntry(kind, seat, json.loads(data), at) for kind, seat, data, at in rows]

    async def stats(self, guild_id: int, user_id: int) -> StatsRow | None:
        """A player's stats in a guild, if they finished a game there."""
        rows = await self._stats("WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
        return rows[0] if rows else None

    async def leaderboard(self, guild_id: int, limit: int) -> list[StatsRow]:
        """The guild's best ``limit`` players: most wins, then best average score."""
        return await self._stats(
            "WHERE guild_id = ? AND games > 0 "
            "ORDER BY wins DESC, CAST(total_score AS DOUBLE PRECISION) / games DESC, user_id LIMIT ?",
            (guild_id, limit),
        )

    # Internals ----------------------------------------------------------------------------------

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

    async def _games(self, where: str, params: tuple[object, ...]) -> list[GameRow]:
        """The games ``where`` selects.

        Raises:
            ValueError, KeyError, TypeError: a selected row cannot be read.
        """
        async with self._lock:
            games, broken = await self._run(lambda db: _read_rows(db, where, params, _game_row))
        if broken:
            game_id, reason = broken[0]
            raise ValueError(f"game {game_id} cannot be read: {reason}")
        return games

    async def _stats(self, where: str, params: tuple[object, ...]) -> list[StatsRow]:
        async with self._lock:
            rows = await self._db.fetchall(
                f"SELECT user_id, name, games, wins, total_score, best_score, best_move FROM stats {where}",
                params,
            )
        return [StatsRow(*row) for row in rows]

    # Ratings (derived data: see bot.host.rating_model) and feature toggles --------------------

    async def ratings(self, guild_id: int, kind: GameKind = GameKind.SCRABBLE) -> list[PlayerRating]:
        """Every rated player of the guild (people and AI levels) in games of ``kind``, by key."""
        async with self._lock:
            rows = await self._db.fetchall(
                "SELECT player, name, mu, sigma, games FROM ratings WHERE guild_id = ? AND kind = ? "
                "ORDER BY player",
                (guild_id, kind.value),
            )
        return [
            PlayerRating(player, name, Rating(mu, sigma), games) for player, name, mu, sigma, games in rows
        ]

    async def rating_history(
        self, guild_id: int, player: str, kind: GameKind = GameKind.SCRABBLE
    ) -> list[RatingPoint]:
        """``player``'s rating after each of their rated games of ``kind`` in the guild, in finish order."""
        async with self._lock:
            rows = await self._db.fetchall(
                "SELECT game_id, finished_at, mu, sigma FROM rating_history WHERE guild_id = ? AND kind = ? "
                "AND player = ? ORDER BY finished_at, game_id",
                (guild_id, kind.value, player),
            )
        return [RatingPoint(game_id, at, Rating(mu, sigma)) for game_id, at, mu, sigma in rows]

    async def records(self, guild_id: int, player: str, kind: GameKind = GameKind.SCRABBLE) -> list[Record]:
        """``player``'s won-lost-drawn record against each player they met in rated games of ``kind`` in
        the guild, most games together first (then by key)."""
        async with self._lock:
            rows = await self._db.fetchall(
                "SELECT other.player, MAX(rated.name), SUM(CASE WHEN me.place < other.place THEN 1 ELSE 0 END), "
                "SUM(CASE WHEN me.place > other.place THEN 1 ELSE 0 END), "
                "SUM(CASE WHEN me.place = other.place THEN 1 ELSE 0 END) "
                "FROM rating_history AS me JOIN rating_history AS other "
                "ON other.game_id = me.game_id AND other.player != me.player "
                "JOIN ratings AS rated ON rated.guild_id = other.guild_id AND rated.kind = other.kind "
                "AND rated.player = other.player "
                "WHERE me.guild_id = ? AND me.kind = ? AND me.player = ? "
                "GROUP BY other.player ORDER BY COUNT(*) DESC, other.player",
                (guild_id, kind.value, player),
            )
        return [Record(*row) for row in rows]

    async def rebuild_ratings(self, guild_id: int | None = None) -> int:
        """Recompute the ratings of ``guild_id`` (of every guild if ``None``) from its finished rated
        games in finish order, in one transaction; the numbers are those the games gave as they
        finished. Returns the number of games rated.

        Raises:
            sqlite3.Error: the write failed (nothing changed).
        """
        return await self._write(lambda db: _rebuild_ratings(db, guild_id))

    async def features(self, guild_id: int) -> dict[str, bool]:
        """The features the guild turned on or off (a feature it never set is not in it)."""
        async with self._lock:
            rows = await self._db.fetchall(
                "SELECT feature, enabled FROM guild_features WHERE guild_id = ?", (guild_id,)
            )
        return {feature: bool(enabled) for feature, enabled in rows}

    async def set_feature(self, guild_id: int, feature: str, enabled: bool) -> None:
        """Turn ``feature`` on or off in the guild.

        Raises:
            sqlite3.Error: the write failed.
        """
        async with self._transaction():
            await self._db.execute(
                "INSERT INTO guild_features (guild_id, feature, enabled) VALUES (?, ?, ?) "
                "ON CONFLICT (guild_id, feature) DO UPDATE SET enabled = excluded.enabled",
                (guild_id, feature, int(enabled)),
            )

    async def _check_ratings(self) -> None:
        """Rebuild every rating if they are out of date: computed by another model, or not over the
        finished games the database holds (a database from before ratings, migrated). Nothing to do
        in a database without ratings (migrations of another directory)."""
        async with self._lock:
            if not await self._db.has_table("rating_state"):
                return
            stored = await self._db.fetchone("SELECT model, finished, last_game FROM rating_state")
            marker = await self._run(_finished_marker)
        if stored is not None and tuple(stored) == (MODEL_VERSION, *marker):
            return
        logger.info("the ratings are out of date: rebuilding them from %d finished games", marker[0])
        games = await self.rebuild_ratings()
        logger.info("ratings rebuilt from %d rated games", games)

    # Go games (issue 13): rows of the same games table, kind 'go' ---------------------------------

    async def create_go_game(self, row: GoRow, log: Sequence[LogEntry]) -> GoRow:
        """Insert a new Go game (``row.id`` is ignored) with its seats and log entries; return it with
        its id.

        Raises:
            ChannelTakenError: the channel already has an open game, of any kind (nothing is written).
            IntegerRangeError: a number does not fit SQLite (nothing is written).
            ForeignShardError: the guild is another process's (nothing is written).
        """
        return replace(row, id=await self._insert_game(row, log))

    async def save_go_game(
        self,
        row: GoRow,
        log: Sequence[LogEntry],
        stats: Iterable[KindStatsDelta] = (),
        outbox: Mapping[str, Any] | None = None,
    ) -> int | None:
        """As :meth:`save`, for a Go game: write ``row`` over the stored game, append ``log``, add
        ``stats``, rate the game if ``row`` finishes it (Go's own ratings) and queue ``outbox``, in one
        transaction; the queued announcement's id.

        Raises:
            KeyError: no game has that id (nothing is written).
            IntegerRangeError: a number does not fit SQLite (nothing is written).
            sqlite3.Error: the write failed (nothing is written).
        """
        deltas = list(stats)
        _check_integers(row, log, deltas)
        return await self._write(lambda db: _save_game(db, row, log, deltas, outbox))

    async def open_go_games(self) -> list[GoRow]:
        """Every Go game in the lobby or being played, by id, except quarantined ones and those of other
        processes' shards (:meth:`owns`); one whose row cannot be read is quarantined and logged, and
        the others are returned."""
        async with self._lock:
            games, broken = await self._run(
                lambda db: _read_rows(
                    db,
                    "WHERE status IN ('lobby', 'active') AND quarantined IS NULL AND kind = 'go' ORDER BY id",
                    (),
                    _go_row,
                )
            )
        for game_id, reason in broken:
            logger.error("game %d cannot be read (%s): quarantined", game_id, reason)
            await self.quarantine(game_id, reason)
        return [game for game in games if self.owns(game.guild_id)]

    async def go_game(self, game_id: int) -> GoRow | None:
        """The Go game of that id, if any.

        Raises:
            ValueError: its row cannot be read.
        """
        rows = await self._go_games("WHERE id = ? AND kind = 'go'", (game_id,))
        return rows[0] if rows else None

    async def last_finished_go_game(self, channel_id: int) -> GoRow | None:
        """The Go game that ended last in ``channel_id`` (finished, not cancelled), if any.

        Raises:
            ValueError: its row cannot be read.
        """
        rows = await self._go_games(
            "WHERE channel_id = ? AND status = 'finished' AND kind = 'go' ORDER BY id DESC LIMIT 1",
            (channel_id,),
        )
        return rows[0] if rows else None

    async def kind_stats(self, guild_id: int, kind: GameKind, user_id: int) -> KindStatsRow | None:
        """A player's stats of ``kind`` games in a guild, if they finished one there."""
        rows = await self._kind_stats(
            "WHERE guild_id = ? AND kind = ? AND user_id = ?", (guild_id, kind.value, user_id)
        )
        return rows[0] if rows else None

    async def _kind_stats(self, where: str, params: tuple[object, ...]) -> list[KindStatsRow]:
        async with self._lock:
            rows = await self._db.fetchall(
                f"SELECT user_id, name, games, wins, draws FROM kind_stats {where}", params
            )
        return [KindStatsRow(*row) for row in rows]

    async def _go_games(self, where: str, params: tuple[object, ...]) -> list[GoRow]:
        async with self._lock:
            games, broken = await self._run(lambda db: _read_rows(db, where, params, _go_row))
        if broken:
            game_id, reason = broken[0]
            raise ValueError(f"game {game_id} cannot be read: {reason}")
        return games

    # Analyses and puzzles (issue 12) --------------------------------------------------------------

    async def save_analysis(self, game_id: int, level: str, data: Mapping[str, Any], at: float) -> None:
        """Store the analysis of game ``game_id`` (JSON ``data``), replacing any earlier one."""
        async with self._transaction():
            await self._db.execute(
                "INSERT INTO analyses (game_id, level, data, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (game_id) "
                "DO UPDATE SET level = excluded.level, data = excluded.data, created_at = excluded.created_at",
                (game_id, level, json.dumps(data), at),
            )

    async def analysis(self, game_id: int) -> Mapping[str, Any] | None:
        """The stored analysis of game ``game_id`` (its JSON data), if any."""
        async with self._lock:
            row = await self._db.fetchone("SELECT data FROM analyses WHERE game_id = ?", (game_id,))
        return None if row is None else _json_object(row[0])

    async def finished_games(self, guild_id: int, limit: int) -> list[GameRow]:
        """The guild's last ``limit`` finished Scrabble games, newest first."""
        return await self._games(
            "WHERE guild_id = ? AND status = 'finished' AND state IS NOT NULL AND kind = 'scrabble' "
            "ORDER BY id DESC LIMIT ?",
            (guild_id, limit),
        )

    async def puzzle(self, guild_id: int, day: str) -> Mapping[str, Any] | None:
        """The guild's puzzle of ``day`` (its JSON data), if it was made."""
        async with self._lock:
            row = await self._db.fetchone(
                "SELECT data FROM puzzles WHERE guild_id = ? AND day = ?", (guild_id, day)
            )
        return None if row is None else _json_object(row[0])

    async def add_puzzle(
        self, guild_id: int, day: str, data: Mapping[str, Any], at: float
    ) -> Mapping[str, Any]:
        """Store the guild's puzzle of ``day`` unless one is stored already; returns the stored one."""
        async with self._transaction():
            await self._db.execute(
                "INSERT INTO puzzles (guild_id, day, data, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (guild_id, day, json.dumps(data), at),
            )
            row = await self._db.fetchone(
                "SELECT data FROM puzzles WHERE guild_id = ? AND day = ?", (guild_id, day)
            )
        assert row is not None  # inserted or already there, in this transaction
        return _json_object(row[0])

    async def add_puzzle_answer(self, answer: PuzzleAnswer) -> bool:
        """Record ``answer``; False (and nothing written) when that user already answered that puzzle."""
        async with self._transaction():
            changed = await self._db.execute(
                "INSERT INTO puzzle_answers (guild_id, day, user_id, name, answer, points, solved, at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (
                    answer.guild_id,
                    answer.day,
                    answer.user_id,
                    answer.name,
                    answer.answer,
                    answer.points,
                    int(answer.solved),
                    answer.at,
                ),
            )
            return changed == 1

    async def puzzle_answer(self, guild_id: int, day: str, user_id: int) -> PuzzleAnswer | None:
        """``user_id``'s answer to the guild's puzzle of ``day``, if any."""
        rows = await self._answers("WHERE guild_id = ? AND day = ? AND user_id = ?", (guild_id, day, user_id))
        return rows[0] if rows else None

    async def puzzle_answers(self, guild_id: int, user_id: int | None = None) -> list[PuzzleAnswer]:
        """The guild's puzzle answers (of ``user_id`` only, if given), oldest day first."""
        if user_id is None:
            return await self._answers("WHERE guild_id = ? ORDER BY day, at", (guild_id,))
        return await self._answers("WHERE guild_id = ? AND user_id = ? ORDER BY day", (guild_id, user_id))

    async def _answers(self, where: str, params: tuple[object, ...]) -> list[PuzzleAnswer]:
        async with self._lock:
            rows = await self._db.fetchall(
                f"SELECT guild_id, day, user_id, name, answer, points, solved, at FROM puzzle_answers {where}",
                params,
            )
        return [PuzzleAnswer(g, d, u, n, a, p, bool(s), t) for g, d, u, n, a, p, s, t in rows]


_UPSERT_RATING: Final = (
    "INSERT INTO ratings (guild_id, kind, player, name, mu, sigma, games) VALUES (?, ?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (guild_id, kind, player) DO UPDATE SET name = excluded.name, mu = excluded.mu, "
    "sigma = excluded.sigma, games = excluded.games"
)
_INSERT_HISTORY: Final = (
    "INSERT INTO rating_history (game_id, guild_id, kind, player, name, place, mu, sigma, finished_at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


def _history_rows(game: RatedGame, results: Sequence[SeatResult]) -> list[tuple[object, ...]]:
    """The ``rating_history`` rows of a rated game."""
    return [
        (
            game.game_id,
            game.guild_id,
            game.kind,
            r.seat.player,
            r.seat.name,
            r.seat.place,
            r.rating.mu,
            r.rating.sigma,
            game.finished_at,
        )
        for r in results
    ]


def _rate_finished(db: Connection, row: GameRow | GoRow) -> None:
    """Rate the game ``row`` finishes (inside a transaction): after the guild's last rated game of its
    kind in finish order, or, if it finished before it (a clock set back), by rebuilding the guild's
    ratings. A game rated already is not rated again."""
    game = rated_go_game(row) if isinstance(row, GoRow) else rated_game(row)
    rated = db.execute("SELECT 1 FROM rating_history WHERE game_id = ? LIMIT 1", (row.id,)).fetchall()
    if game is not None and not rated:
        last = db.execute(
            "SELECT finished_at, game_id FROM rating_history WHERE guild_id = ? AND kind = ? "
            "ORDER BY finished_at DESC, game_id DESC LIMIT 1",
            (row.guild_id, str(game.kind)),
        ).fetchall()
        if not last or (game.finished_at, game.game_id) > tuple(last[0]):
            _apply_rated(db, game)
        else:
            _rebuild_ratings(db, row.guild_id)
    _mark_ratings(db)


def _apply_rated(db: Connection, game: RatedGame) -> None:
    """Rate ``game`` after every game rated before it in its guild (inside a transaction)."""
    current: dict[str, tuple[Rating, int]] = {}
    for seat in game.seats:
        stored = db.execute(
            "SELECT mu, sigma, games FROM ratings WHERE guild_id = ? AND kind = ? AND player = ?",
            (game.guild_id, str(game.kind), seat.player),
        ).fetchall()
        if stored:
            mu, sigma, games = stored[0]
            current[seat.player] = (Rating(mu, sigma), games)
    results = rate_game(game, current)
    db.executemany(
        _UPSERT_RATING,
        [
            (game.guild_id, game.kind, r.seat.player, r.seat.name, r.rating.mu, r.rating.sigma, r.games)
            for r in results
        ],
    )
    db.executemany(_INSERT_HISTORY, _history_rows(game, results))


def _rebuild_ratings(db: Connection, guild_id: int | None) -> int:
    """Rate the finished games of ``guild_id`` (every guild: ``None``) again from scratch, in finish
    order (inside a transaction); the number of games rated. The games are replayed in memory and
    written at the end."""
    where, params = ("", ()) if guild_id is None else ("WHERE guild_id = ?", (guild_id,))
    db.execute(f"DELETE FROM ratings {where}", params)
    db.execute(f"DELETE FROM rating_history {where}", params)
    finished = f"WHERE status = 'finished' {'' if guild_id is None else 'AND guild_id = ?'} "
    games, broken = _read_rows(db, finished + "AND kind = 'scrabble'", params, _game_row)
    go_games, go_broken = _read_rows(db, finished + "AND kind = 'go'", params, _go_row)
    for game_id, reason in broken + go_broken:
        logger.error("game %d cannot be read (%s): not rated", game_id, reason)
    candidates = [rated_game(row) for row in games] + [rated_go_game(row) for row in go_games]
    to_rate = sorted((g for g in candidates if g is not None), key=lambda g: (g.finished_at, g.game_id))
    pools: dict[tuple[int, str], dict[str, tuple[Rating, int]]] = {}
    names: dict[tuple[int, str, str], str] = {}
    history: list[tuple[object, ...]] = []
    for game in to_rate:
        results = rate_game(game, pools.setdefault((game.guild_id, game.kind), {}))
        history += _history_rows(game, results)
        names.update(((game.guild_id, game.kind, r.seat.player), r.seat.name) for r in results)
    ratings = [
        (guild, kind, player, names[guild, kind, player], rating.mu, rating.sigma, played)
        for (guild, kind), current in pools.items()
        for player, (rating, played) in current.items()
    ]
    if history:
        db.executemany(_INSERT_HISTORY, history)
    if ratings:
        db.executemany(_UPSERT_RATING, ratings)
    _mark_ratings(db)
    return len(to_rate)


def _mark_ratings(db: Connection) -> None:
    """Record that the ratings are computed by this model over the finished games stored now."""
    finished, last_game = _finished_marker(db)
    db.execute(
        "UPDATE rating_state SET model = ?, finished = ?, last_game = ?", (MODEL_VERSION, finished, last_game)
    )


def _finished_marker(db: Connection) -> tuple[int, int | None]:
    """How many games are finished, and the last of them in finish order."""
    ((count, last_game),) = db.execute(
        "SELECT COUNT(*), (SELECT id FROM games WHERE status = 'finished' "
        "ORDER BY updated_at DESC, id DESC LIMIT 1) FROM games WHERE status = 'finished'"
    ).fetchall()
    return int(count), last_game


_IDS_PER_QUERY: Final = 500
"""The most game ids one query of :func:`_read_rows` names (SQLite allows 999 parameters at least)."""


def _read_rows(
    db: Connection,
    where: str,
    params: tuple[object, ...],
    build: Callable[[Sequence[Any], tuple[SeatRow, ...]], _T],
) -> tuple[list[_T], list[tuple[int, str]]]:
    """The rows of ``games`` that ``where`` selects, made by ``build`` from their columns and seats,
    and the ids of those that cannot be read with the reason."""
    rows = db.execute(
        "SELECT id, guild_id, channel_id, creator_id, status, options, seed, state, deadline, reminded, "
        f"created_at, updated_at FROM games {where}",
        params,
    ).fetchall()
    seats_of: dict[int, list[Any]] = {int(row[0]): [] for row in rows}
    ids = list(seats_of)
    for start in range(0, len(ids), _IDS_PER_QUERY):
        chunk = ids[start : start + _IDS_PER_QUERY]
        for seat in db.execute(
            "SELECT game_id, seat, user_id, name, ai_level, hints_used, timeouts FROM seats "
            f"WHERE game_id IN ({', '.join('?' for _ in chunk)}) ORDER BY game_id, seat",
            chunk,
        ).fetchall():
            seats_of[int(seat[0])].append(tuple(seat)[1:])
    games = []
    broken = []
    for row in rows:
        try:
            seats = tuple(
                SeatRow(number, user, name, None if level is None else Level(level), hints, timeouts)
                for number, user, name, level, hints, timeouts in seats_of[int(row[0])]
            )
            games.append(build(tuple(row), seats))
        except (ValueError, KeyError, TypeError) as error:
            broken.append((int(row[0]), f"{type(error).__name__}: {error}"[:200]))
    return games, broken


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


def _insert_game(db: Connection, row: GameRow | GoRow, log: Sequence[LogEntry]) -> int:
    """Insert the game ``row`` with its seats and log (in a transaction); its new id.

    Raises:
        ChannelTakenError: the channel has an open game, of any kind (the one place this is checked).
    """
    taken = db.execute(
        "SELECT kind FROM games WHERE channel_id = ? AND status IN ('lobby', 'active') AND quarantined IS NULL",
        (row.channel_id,),
    ).fetchone()
    if taken is not None:
        raise ChannelTakenError(row.channel_id, GameKind(taken[0]))
    kind, options = (
        (GameKind.GO, dict(row.options))
        if isinstance(row, GoRow)
        else (GameKind.SCRABBLE, row.options.to_dict())
    )
    cursor = db.execute(
        "INSERT INTO games (kind, guild_id, channel_id, creator_id, status, options, seed, state, "
        "deadline, reminded, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (
            kind.value,
            row.guild_id,
            row.channel_id,
            row.creator_id,
            row.status.value,
            json.dumps(options),
            row.seed,
            _json_or_none(row.state),
            row.deadline,
            int(row.reminded),
            row.created_at,
            row.updated_at,
        ),
    )
    game_id = int(cursor.fetchall()[0][0])
    _write_seats(db, game_id, row.seats)
    _append(db, game_id, log)
    return game_id


def _save_game(
    db: Connection,
    row: GameRow | GoRow,
    log: Sequence[LogEntry],
    stats: Sequence[StatsDelta | KindStatsDelta],
    outbox: Mapping[str, Any] | None,
) -> int | None:
    """Write the body of :meth:`Store.save` and :meth:`Store.save_go_game` (in a transaction): the game
    ``row``, its seats, ``log``, ``stats`` and ``outbox``, then its rating if ``row`` finishes it; the
    queued announcement's id.

    Raises:
        KeyError: no game has that id.
    """
    cursor = db.execute(
        "UPDATE games SET status = ?, state = ?, deadline = ?, reminded = ?, updated_at = ? WHERE id = ?",
        (row.status.value, _json_or_none(row.state), row.deadline, int(row.reminded), row.updated_at, row.id),
    )
    if cursor.rowcount != 1:
        raise KeyError(f"no game {row.id}")
    db.execute("DELETE FROM seats WHERE game_id = ?", (row.id,))
    _write_seats(db, row.id, row.seats)
    _append(db, row.id, log)
    for delta in stats:
        if isinstance(delta, KindStatsDelta):
            _add_kind_stats(db, delta)
        else:
            _add_stats(db, delta)
    if row.status is GameStatus.FINISHED:
        _rate_finished(db, row)
    if outbox is None:
        return None
    cursor = db.execute(
        "INSERT INTO outbox (game_id, data, created_at) VALUES (?, ?, ?) RETURNING id",
        (row.id, json.dumps(outbox), row.updated_at),
    )
    return int(cursor.fetchall()[0][0])


def _write_seats(db: Connection, game_id: int, seats: Sequence[SeatRow]) -> None:
    db.executemany(
        "INSERT INTO seats (game_id, seat, user_id, name, ai_level, hints_used, timeouts) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(game_id, s.seat, s.user_id, s.name, s.ai_level, s.hints_used, s.timeouts) for s in seats],
    )


def _append(db: Connection, game_id: int, log: Sequence[LogEntry]) -> None:
    db.executemany(
        "INSERT INTO events (game_id, at, kind, seat, data) VALUES (?, ?, ?, ?, ?)",
        [(game_id, entry.at, entry.kind, entry.seat, json.dumps(entry.data)) for entry in log],
    )


def _add_stats(db: Connection, delta: StatsDelta) -> None:
    db.execute(
        "INSERT INTO stats (guild_id, user_id, name, games, wins, total_score, best_score, best_move) "
        "VALUES (?, ?, ?, 1, ?, ?, ?, ?) "
        "ON CONFLICT (guild_id, user_id) DO UPDATE SET "
        "name = excluded.name, games = stats.games + 1, wins = stats.wins + excluded.wins, "
        "total_score = stats.total_score + excluded.total_score, "
        "best_move = CASE WHEN stats.best_score IS NULL OR excluded.best_score > stats.best_score "
        "THEN excluded.best_move ELSE stats.best_move END, "
        "best_score = CASE WHEN stats.best_score IS NULL OR excluded.best_score > stats.best_score "
        "THEN excluded.best_score ELSE stats.best_score END",
        (
            delta.guild_id,
            delta.user_id,
            delta.name,
            int(delta.won),
            delta.score,
            delta.best_score,
            delta.best_move,
        ),
    )


def _add_kind_stats(db: Connection, delta: KindStatsDelta) -> None:
    db.execute(
        "INSERT INTO kind_stats (guild_id, kind, user_id, name, games, wins, draws) VALUES (?, ?, ?, ?, 1, ?, ?) "
        "ON CONFLICT (guild_id, kind, user_id) DO UPDATE SET name = excluded.name, games = kind_stats.games + 1, "
        "wins = kind_stats.wins + excluded.wins, draws = kind_stats.draws + excluded.draws",
        (delta.guild_id, delta.kind.value, delta.user_id, delta.name, int(delta.won), int(delta.drawn)),
    )


def _json_or_none(value: Mapping[str, Any] | None) -> str | None:
    return None if value is None else json.dumps(value)


def _json_object(text: str) -> Mapping[str, Any]:
    """The JSON object ``text`` holds; empty if it holds something else or is not JSON."""
    try:
        value = json.loads(text)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _game_row(row: Sequence[Any], seats: tuple[SeatRow, ...]) -> GameRow:
    """A game from its columns and seats.

    Raises:
        ValueError, KeyError, TypeError: broken JSON, a missing option, missing or misnumbered seats.
    """
    if [seat.seat for seat in seats] != list(range(len(seats))) or not seats:
        raise ValueError(f"seats {[seat.seat for seat in seats]} are not numbered 0, 1, 2...")
    state = None if row[7] is None else json.loads(row[7])
    if state is not None and not isinstance(state, dict):
        raise TypeError("the state is not a JSON object")
    return GameRow(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        creator_id=row[3],
        status=GameStatus(row[4]),
        options=GameOptions.from_dict(json.loads(row[5])),
        seed=row[6],
        state=state,
        seats=seats,
        deadline=row[8],
        reminded=bool(row[9]),
        created_at=row[10],
        updated_at=row[11],
    )


def _go_row(row: Sequence[Any], seats: tuple[SeatRow, ...]) -> GoRow:
    """A Go game from its columns and seats.

    Raises:
        ValueError, TypeError: broken JSON, missing or misnumbered seats.
    """
    if [seat.seat for seat in seats] != list(range(len(seats))) or not seats:
        raise ValueError(f"seats {[seat.seat for seat in seats]} are not numbered 0, 1, 2...")
    options = json.loads(row[5])
    state = None if row[7] is None else json.loads(row[7])
    if not isinstance(options, dict) or (state is not None and not isinstance(state, dict)):
        raise TypeError("the options or the state is not a JSON object")
    return GoRow(
        row[0],
        row[1],
        row[2],
        row[3],
        GameStatus(row[4]),
        options,
        row[6],
        state,
        seats,
        row[8],
        bool(row[9]),
        row[10],
        row[11],
    )


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


def _check_integers(
    row: GameRow | GoRow, log: Sequence[LogEntry], stats: Sequence[StatsDelta | KindStatsDelta]
) -> None:
    """Refuse a number that SQLite cannot store (64 bits), before anything is written.

    Raises:
        IntegerRangeError: naming the first one.
    """
    numbers: list[tuple[str, int | None]] = [
        ("game id", row.id),
        ("server id", row.guild_id),
        ("channel id", row.channel_id),
        ("creator id", row.creator_id),
        ("seed", row.seed),
    ]
    for seat in row.seats:
        numbers += [("seat", seat.seat), ("user id", seat.user_id), ("hint count", seat.hints_used)]
        numbers.append(("timeout count", seat.timeouts))
    numbers += [("seat", entry.seat) for entry in log]
    for delta in stats:
        numbers += [("server id", delta.guild_id), ("user id", delta.user_id)]
        if isinstance(delta, StatsDelta):
            numbers += [("score", delta.score), ("score", delta.best_score)]
    for what, value in numbers:
        if value is not None and not INT64_MIN <= value <= INT64_MAX:
            raise IntegerRangeError(what)
