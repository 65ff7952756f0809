"""The SQLite store (aiosqlite): games, seats, the append-only event log and per-guild stats.

The schema is built by the numbered SQL files of ``bot/migrations`` (``0001_initial.sql``...), applied
in order at :meth:`Store.open`; ``PRAGMA user_version`` records the last one applied. The database runs
in WAL mode. Every write method is one transaction: it is committed whole or not at all.

A store has one connection, shared by every caller: an :class:`asyncio.Lock` serialises its use, so a
transaction never starts inside another one, and a read never sees the uncommitted writes of a
transaction in progress.
"""

from __future__ import annotations

import asyncio
import enum
import json
import re
from collections.abc import AsyncIterator, Iterable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import aiosqlite

from scrabble_core.ai import Level
from scrabble_core.game import ChallengeMode

MIGRATIONS_DIR: Final = Path(__file__).parent / "migrations"
_MIGRATION_NAME: Final = re.compile(r"^(\d{4})_\w+\.sql$")


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
    hints; ``ai_level`` is the level of the game's AI seats."""

    variant: str
    challenge_mode: ChallengeMode
    turn_seconds: int
    hints: int
    ai_level: Level

    def to_dict(self) -> dict[str, Any]:
        """The options as JSON-compatible data."""
        return {
            "variant": self.variant,
            "challenge_mode": str(self.challenge_mode),
            "turn_seconds": self.turn_seconds,
            "hints": self.hints,
            "ai_level": str(self.ai_level),
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


class Store:
    """An open database. Create with :meth:`open`; :meth:`close` when done."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        """Wrap an open connection in autocommit mode (use :meth:`open`)."""
        self._db = db
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: Path, migrations_dir: Path = MIGRATIONS_DIR) -> Store:
        """Open (or create) the database at ``path`` in WAL mode and apply the migrations it lacks.

        Raises:
            sqlite3.Error: the file is not a database, or a migration fails (it is rolled back).
            ValueError: a migration file is misnamed or numbers are not 1, 2, 3...
        """
        db = await aiosqlite.connect(path, isolation_level=None)
        try:
            await db.execute("PRAGMA journal_mode = WAL")
            await db.execute("PRAGMA foreign_keys = ON")
            await db.execute("PRAGMA synchronous = NORMAL")
            store = cls(db)
            await store._migrate(migrations_dir)
        except BaseException:
            await db.close()
            raise
        return store

    async def close(self) -> None:
        """Close the connection (once any transaction in progress is over)."""
        async with self._lock:
            await self._db.close()

    async def schema_version(self) -> int:
        """The number of the last migration applied."""
        async with self._lock, self._db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0]) if row else 0

    # Writing ------------------------------------------------------------------------------------

    async def create_game(self, row: GameRow, log: Sequence[LogEntry]) -> GameRow:
        """Insert a new game (``row.id`` is ignored) with its seats and log entries; return it with
        its id.

        Raises:
            sqlite3.IntegrityError: the channel already has an open game.
        """
        async with self._transaction():
            cursor = await self._db.execute(
                "INSERT INTO games (guild_id, channel_id, creator_id, status, options, seed, state, "
                "deadline, reminded, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    row.guild_id,
                    row.channel_id,
                    row.creator_id,
                    row.status.value,
                    json.dumps(row.options.to_dict()),
                    row.seed,
                    _json_or_none(row.state),
                    row.deadline,
                    int(row.reminded),
                    row.created_at,
                    row.updated_at,
                ),
            )
            game_id = cursor.lastrowid
            assert game_id is not None
            await self._write_seats(game_id, row.seats)
            await self._append(game_id, log)
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

    async def save(self, row: GameRow, log: Sequence[LogEntry], stats: Iterable[StatsDelta] = ()) -> None:
        """Write ``row`` over the stored game of its id (status, state, timer, seats), append ``log``
        and add ``stats``, in one transaction.

        Raises:
            KeyError: no game has that id (nothing is written).
            sqlite3.Error: the write failed (nothing is written).
        """
        async with self._transaction():
            cursor = await self._db.execute(
                "UPDATE games SET status = ?, state = ?, deadline = ?, reminded = ?, updated_at = ? "
                "WHERE id = ?",
                (
                    row.status.value,
                    _json_or_none(row.state),
                    row.deadline,
                    int(row.reminded),
                    row.updated_at,
                    row.id,
                ),
            )
            if cursor.rowcount != 1:
                raise KeyError(f"no game {row.id}")
            await self._db.execute("DELETE FROM seats WHERE game_id = ?", (row.id,))
            await self._write_seats(row.id, row.seats)
            await self._append(row.id, log)
            for delta in stats:
                await self._add_stats(delta)

    # Reading ------------------------------------------------------------------------------------

    async def open_games(self) -> list[GameRow]:
        """Every game in the lobby or being played, by id."""
        return await self._games("WHERE status IN ('lobby', 'active') ORDER BY id", ())

    async def game(self, game_id: int) -> GameRow | None:
        """The game of that id, if any."""
        rows = await self._games("WHERE id = ?", (game_id,))
        return rows[0] if rows else None

    async def last_finished_game(self, channel_id: int) -> GameRow | None:
        """The game that ended last in ``channel_id`` (finished, not cancelled), if any."""
        rows = await self._games(
            "WHERE channel_id = ? AND status = 'finished' ORDER BY id DESC LIMIT 1", (channel_id,)
        )
        return rows[0] if rows else None

    async def log(self, game_id: int) -> list[LogEntry]:
        """The event log of a game, oldest first."""
        async with (
            self._lock,
            self._db.execute(
                "SELECT kind, seat, data, at FROM events WHERE game_id = ? ORDER BY id", (game_id,)
            ) as cursor,
        ):
            rows = await cursor.fetchall()
        return [LogEntry(kind, seat, json.loads(data), at) for kind, seat, data, at in rows]

    async def stats(self, guild_id: int, user_id: int) -> StatsRow | None:
        """A player's stats in a guild, if they finished a game there."""
        rows = await self._stats("WHERE guild_id = ? AND user_id = ?", (guild_id, user_id))
        return rows[0] if rows else None

    async def leaderboard(self, guild_id: int, limit: int) -> list[StatsRow]:
        """The guild's best ``limit`` players: most wins, then best average score."""
        return await self._stats(
            "WHERE guild_id = ? AND games > 0 "
            "ORDER BY wins DESC, CAST(total_score AS REAL) / games DESC, user_id LIMIT ?",
            (guild_id, limit),
        )

    # Internals ----------------------------------------------------------------------------------

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[None]:
        """``BEGIN IMMEDIATE`` ... :meth:`_commit` under the lock, rolled back if anything in it raises
        (the ``BEGIN`` included, or a cancellation while it runs). The lock is not reentrant: nothing
        inside may call a public method of the store."""
        async with self._lock:
            try:
                await self._db.execute("BEGIN IMMEDIATE")
                yield
                await self._commit()
            except BaseException:
                # Unconditional: the connection's thread runs it after a BEGIN still queued when a
                # cancellation arrived, and it does nothing outside a transaction.
                await self._db.rollback()
                raise

    async def _commit(self) -> None:
        await self._db.commit()

    async def _migrate(self, migrations_dir: Path) -> None:
        current = await self.schema_version()
        for number, path in _migrations(migrations_dir):
            if number <= current:
                continue
            script = path.read_text(encoding="utf-8")
            try:
                await self._db.executescript(
                    f"BEGIN IMMEDIATE;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;"
                )
            except BaseException:
                if self._db.in_transaction:
                    await self._db.rollback()
                raise

    async def _write_seats(self, game_id: int, seats: Sequence[SeatRow]) -> None:
        await self._db.executemany(
            "INSERT INTO seats (game_id, seat, user_id, name, ai_level, hints_used, timeouts) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(game_id, s.seat, s.user_id, s.name, s.ai_level, s.hints_used, s.timeouts) for s in seats],
        )

    async def _append(self, game_id: int, log: Sequence[LogEntry]) -> None:
        await self._db.executemany(
            "INSERT INTO events (game_id, at, kind, seat, data) VALUES (?, ?, ?, ?, ?)",
            [(game_id, entry.at, entry.kind, entry.seat, json.dumps(entry.data)) for entry in log],
        )

    async def _add_stats(self, delta: StatsDelta) -> None:
        await self._db.execute(
            "INSERT INTO stats (guild_id, user_id, name, games, wins, total_score, best_score, best_move) "
            "VALUES (?, ?, ?, 1, ?, ?, ?, ?) "
            "ON CONFLICT (guild_id, user_id) DO UPDATE SET "
            "name = excluded.name, games = games + 1, wins = wins + excluded.wins, "
            "total_score = total_score + excluded.total_score, "
            "best_move = CASE WHEN best_score IS NULL OR excluded.best_score > best_score "
            "THEN excluded.best_move ELSE best_move END, "
            "best_score = CASE WHEN best_score IS NULL OR excluded.best_score > best_score "
            "THEN excluded.best_score ELSE best_score END",
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

    async def _games(self, where: str, params: tuple[object, ...]) -> list[GameRow]:
        async with self._lock:
            return await self._games_locked(where, params)

    async def _games_locked(self, where: str, params: tuple[object, ...]) -> list[GameRow]:
        """The games ``where`` selects, with their seats (several queries: hold the lock)."""
        async with self._db.execute(
            "SELECT id, guild_id, channel_id, creator_id, status, options, seed, state, deadline, reminded, "
            f"created_at, updated_at FROM games {where}",
            params,
        ) as cursor:
            rows = list(await cursor.fetchall())
        games = []
        for row in rows:
            async with self._db.execute(
                "SELECT seat, user_id, name, ai_level, hints_used, timeouts FROM seats WHERE game_id = ? ORDER BY seat",
                (row[0],),
            ) as cursor:
                seats = tuple(
                    SeatRow(number, user, name, None if level is None else Level(level), hints, timeouts)
                    for number, user, name, level, hints, timeouts in await cursor.fetchall()
                )
            games.append(
                GameRow(
                    id=row[0],
                    guild_id=row[1],
                    channel_id=row[2],
                    creator_id=row[3],
                    status=GameStatus(row[4]),
                    options=GameOptions.from_dict(json.loads(row[5])),
                    seed=row[6],
                    state=None if row[7] is None else json.loads(row[7]),
                    seats=seats,
                    deadline=row[8],
                    reminded=bool(row[9]),
                    created_at=row[10],
                    updated_at=row[11],
                )
            )
        return games

    async def _stats(self, where: str, params: tuple[object, ...]) -> list[StatsRow]:
        async with (
            self._lock,
            self._db.execute(
                f"SELECT user_id, name, games, wins, total_score, best_score, best_move FROM stats {where}",
                params,
            ) as cursor,
        ):
            return [StatsRow(*row) for row in await cursor.fetchall()]


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


def _json_or_none(value: Mapping[str, Any] | None) -> str | None:
    return None if value is None else json.dumps(value)
