"""The store: every game the host plays, whatever its kind, with its seats, the append-only event log,
the outbox and the players' stats; the ratings; guild settings; analyses and puzzles. On SQLite
(aiosqlite, the default) or PostgreSQL (a ``postgresql://`` URL; psycopg 3): every query and transaction
body is written once, in SQL both engines accept, and :mod:`~bot.host.store.backends` runs them on either.

One class, :class:`Store`, made of a part per job: :mod:`~bot.host.store.opening` (the connection, the
one-writer lock, the checks and the migrations), :mod:`~bot.host.store.games` (games, log, outbox,
stats), :mod:`~bot.host.store.ratings`, :mod:`~bot.host.store.settings` (guild features, people's preferences) and
:mod:`~bot.host.store.puzzles` (analyses and puzzles). The rows it reads and writes are
:mod:`~bot.host.store.rows`. It never reads inside a game's options or state: those are the game's
plugin's JSON (:mod:`bot.host.plugin`).
"""

from bot.host.store.games import Games
from bot.host.store.opening import (
    MIGRATIONS_DIR,
    PG_MIGRATIONS_DIR,
    CorruptDatabaseError,
    DatabaseInUseError,
    ReadOnlyDatabaseError,
    SchemaTooNewError,
    SchemaTooOldError,
    StoreOpenError,
    lock_path,
)
from bot.host.store.puzzles import PuzzlesAndAnalyses
from bot.host.store.ratings import Ratings
from bot.host.store.rows import (
    ChannelTakenError,
    ForeignShardError,
    GameRow,
    GameStatus,
    IntegerRangeError,
    LogEntry,
    OutboxEntry,
    PuzzleAnswer,
    SeatRow,
    StatsDelta,
    StatsRow,
)
from bot.host.store.settings import GuildSettings

__all__ = [
    "MIGRATIONS_DIR",
    "PG_MIGRATIONS_DIR",
    "ChannelTakenError",
    "CorruptDatabaseError",
    "DatabaseInUseError",
    "ForeignShardError",
    "GameRow",
    "GameStatus",
    "IntegerRangeError",
    "LogEntry",
    "OutboxEntry",
    "PuzzleAnswer",
    "ReadOnlyDatabaseError",
    "SchemaTooNewError",
    "SchemaTooOldError",
    "SeatRow",
    "StatsDelta",
    "StatsRow",
    "Store",
    "StoreOpenError",
    "lock_path",
]


class Store(Games, Ratings, GuildSettings, PuzzlesAndAnalyses):
    """An open database. Create with :meth:`open`; :meth:`close` when done."""
