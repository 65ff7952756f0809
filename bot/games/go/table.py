"""An open Go game in memory, :class:`GoTable`: its stored row, options and engine state, with what the
service keeps beside the engine (stored in the same JSON): a version that every change increases, the
seat asking to take a move back, and the dead stones proposed when both passed."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from bot.games.go.options import GoOptions
from bot.host.errors import GameNotStartedError, NotSeatedError, StaleTurnError
from bot.host.store.games import GoRow, SeatRow
from go_core import Color, Game, Point

STATE_FORMAT: Final = 1
BLACK_SEAT: Final = 0
WHITE_SEAT: Final = 1
GO_NOT_STARTED: Final = "The Go game has not started yet: it starts when an opponent joins with /go join"


@dataclass(frozen=True, slots=True)
class Extra:
    """What the service keeps beside the engine's state: ``version`` (every committed change adds
    one; buttons carry it), ``undo`` (the seat asking to take its move back, if any), ``proposal`` (the
    dead stones proposed after the passes, which an AI seat accepts) and who proposed them."""

    version: int = 0
    undo: int | None = None
    proposal: frozenset[Point] = field(default_factory=frozenset)
    proposer: str = ""


@dataclass(frozen=True, slots=True)
class GoTable:
    """An open (or just closed) Go game: never mutated, changes make a new one."""

    row: GoRow
    options: GoOptions
    game: Game | None
    extra: Extra = Extra()

    @classmethod
    def load(cls, row: GoRow) -> GoTable:
        """The table of a stored game.

        Raises:
            GoError, KeyError, TypeError, ValueError: its options or state cannot be read, or its
                seats are not two once started.
        """
        options = GoOptions.from_dict(row.options)
        if row.state is None:
            return cls(row, options, None)
        game = Game.from_dict(row.state["game"])
        if len(row.seats) != 2:
            raise ValueError(f"{len(row.seats)} seats in a started Go game")
        extra = row.state["extra"]
        undo = extra["undo"]
        proposal = frozenset(game.parse_point(text) for text in extra["proposal"])
        return cls(row, options, game, Extra(int(extra["version"]), undo, proposal, str(extra["proposer"])))

    def state(self, game: Game, extra: Extra) -> dict[str, Any]:
        """The stored JSON of ``game`` with ``extra``."""
        return {
            "format": STATE_FORMAT,
            "game": game.to_dict(),
            "extra": {
                "version": extra.version,
                "undo": extra.undo,
                "proposal": sorted(str(point) for point in extra.proposal),
                "proposer": extra.proposer,
            },
        }

    def started(self) -> Game:
        """A copy of the engine state of a started game (changing it changes nothing).

        Raises:
            GameNotStartedError: the game is still waiting for its opponent.
        """
        if self.game is None:
            raise GameNotStartedError(GO_NOT_STARTED)
        return self.game.copy()

    def seat_of(self, user_id: int) -> int:
        """The seat of ``user_id`` (0 Black, 1 White once started).

        Raises:
            NotSeatedError.
        """
        for seat in self.row.seats:
            if seat.user_id == user_id:
                return seat.seat
        raise NotSeatedError

    def check_turn(self, turn: int | None) -> None:
        """Refuse a button made for an earlier version of the game.

        Raises:
            StaleTurnError.
        """
        if turn is not None and turn != self.extra.version:
            raise StaleTurnError

    def seat_to_move(self) -> SeatRow:
        """The seat of the player to move (started games)."""
        assert self.game is not None
        return self.row.seats[seat_of_colour(self.game.to_move)]


def colour_of(seat: int) -> Color:
    """The colour seat ``seat`` plays."""
    return Color.BLACK if seat == BLACK_SEAT else Color.WHITE


def seat_of_colour(color: Color) -> int:
    """The seat that plays ``color``."""
    return BLACK_SEAT if color is Color.BLACK else WHITE_SEAT
