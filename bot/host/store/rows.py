"""What the store reads and writes, as plain rows: a game of any kind (:class:`GameRow`) with its seats,
the event log, the outbox, the players' stats and the puzzles' answers. A game's options and state are
its plugin's JSON (versioned by :attr:`GameRow.format`); the store never reads inside them."""

from __future__ import annotations

import enum
import json
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from bot.host.rating_model import RatedSeat
from bot.host.shards import Shards, shard_of

INT64_MIN: Final = -(1 << 63)
INT64_MAX: Final = (1 << 63) - 1


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
class SeatRow:
    """A seat of a game: a human (``user_id``) or an AI (``ai_level``, the game's name of a level), in
    turn order; the hints it used and its timeouts in a row."""

    seat: int
    user_id: int | None
    name: str
    ai_level: str | None = None
    hints_used: int = 0
    timeouts: int = 0

    @property
    def is_ai(self) -> bool:
        """Whether an AI plays this seat."""
        return self.user_id is None


@dataclass(frozen=True, slots=True)
class GameRow:
    """A game as stored, whatever its kind. ``kind`` names its plugin (:mod:`bot.host.registry`);
    ``options`` and ``state`` are that plugin's JSON (``state`` is ``None`` in the lobby), written by
    its codec of version ``format``; ``deadline`` is the UTC epoch second the current turn runs out;
    ``result`` is, once finished, who the game rates and in which places (empty: nobody)."""

    id: int
    kind: str
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
    format: int = 1
    result: tuple[RatedSeat, ...] | None = None


@dataclass(frozen=True, slots=True)
class OutboxEntry:
    """An announcement committed with its change and not yet marked sent: ``data`` is what the game's
    plugin wrote to rebuild it; ``posted`` whether it was marked posted (its channel message went out,
    the private messages it sends maybe not)."""

    id: int
    game_id: int
    data: Mapping[str, Any]
    posted: bool = False


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One row of the event log: a game's event (``play``, ``pass``...) or the host's (``created``,
    ``joined``, ``timeout``...) with its data."""

    kind: str
    seat: int | None
    data: Mapping[str, Any]
    at: float


@dataclass(frozen=True, slots=True)
class StatsDelta:
    """What one finished game of ``kind`` adds to a player's stats in a guild: a game, won or drawn (or
    lost), its final ``score`` and best move with its score (games without scores leave them out)."""

    guild_id: int
    kind: str
    user_id: int
    name: str
    won: bool
    drawn: bool = False
    score: int = 0
    best_score: int | None = None
    best_move: str | None = None


@dataclass(frozen=True, slots=True)
class StatsRow:
    """A player's stats of one kind of game in a guild."""

    user_id: int
    name: str
    games: int
    wins: int
    draws: int
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


class IntegerRangeError(ValueError):
    """A number too large (or small) for an SQLite INTEGER (64 bits); nothing was written."""

    def __init__(self, what: str) -> None:
        super().__init__(f"The {what} must be between {INT64_MIN} and {INT64_MAX}")


class ChannelTakenError(sqlite3.IntegrityError):
    """A new game in a channel that has an open game (of any kind): :attr:`kind` is that game's."""

    def __init__(self, channel_id: int, kind: str) -> None:
        self.channel_id = channel_id
        self.kind = kind
        super().__init__(f"channel {channel_id} already has an open {kind} game")


class ForeignShardError(sqlite3.IntegrityError):
    """A new game in a guild of a shard another process owns (see :mod:`bot.host.shards`): nothing is
    written."""

    def __init__(self, guild_id: int, shards: Shards) -> None:
        self.guild_id = guild_id
        super().__init__(
            f"guild {guild_id} is on shard {shard_of(guild_id, shards.count)}, not this process's {shards}"
        )


def json_object(text: str) -> Mapping[str, Any]:
    """The JSON object ``text`` holds; empty if it holds something else or is not JSON."""
    try:
        value = json.loads(text)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}
