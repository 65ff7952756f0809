"""An open Go game in memory, :class:`GoTable`: the host's table whose state is the engine's game with what
the plugin keeps beside it (:class:`Extra`, stored in the same JSON): a version that every change
increases, the seat asking to take a move back, and the dead stones proposed when both passed."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar, Final

from bot.games.go.options import GoOptions
from bot.host.store import SeatRow
from bot.host.table import Table
from go_core import Color, Game, Point

STATE_FORMAT: Final = 1
BLACK_SEAT: Final = 0
WHITE_SEAT: Final = 1
GO_NOT_STARTED: Final = "The Go game has not started yet: it starts when an opponent joins with /go join"
NO_GO_GAME: Final = "There is no Go game in this channel: start one with /go new"


@dataclass(frozen=True, slots=True)
class Extra:
    """What the plugin keeps beside the engine's state: ``version`` (every committed change adds
    one; buttons carry it), ``undo`` (the seat asking to take its move back, if any), ``proposal`` (the
    dead stones proposed after the passes, which an AI seat accepts) and who proposed them."""

    version: int = 0
    undo: int | None = None
    proposal: frozenset[Point] = field(default_factory=frozenset)
    proposer: str = ""


@dataclass(frozen=True, slots=True)
class GoState:
    """A started Go game: the engine's ``game`` (never mutated: changes work on a copy) and ``extra``."""

    game: Game
    extra: Extra

    def to_dict(self) -> dict[str, Any]:
        """The stored JSON of the game with its extra state."""
        extra = self.extra
        return {
            "format": STATE_FORMAT,
            "game": self.game.to_dict(),
            "extra": {
                "version": extra.version,
                "undo": extra.undo,
                "proposal": sorted(str(point) for point in extra.proposal),
                "proposer": extra.proposer,
            },
        }

    @classmethod
    def from_dict(cls, data: Any) -> GoState:
        """The state :meth:`to_dict` stored.

        Raises:
            GoError, KeyError, TypeError, ValueError: it is not one.
        """
        game = Game.from_dict(data["game"])
        extra = data["extra"]
        proposal = frozenset(game.parse_point(text) for text in extra["proposal"])
        return cls(game, Extra(int(extra["version"]), extra["undo"], proposal, str(extra["proposer"])))


class GoTable(Table[GoOptions, GoState]):
    """An open (or just closed) Go game."""

    __slots__ = ()

    NOT_STARTED: ClassVar[str] = GO_NOT_STARTED

    @property
    def extra(self) -> Extra:
        """The started game's extra state (a lobby's: the first)."""
        return Extra() if self.game is None else self.game.extra

    def board(self) -> Game:
        """A copy of the engine's game of a started game (changing it changes nothing).

        Raises:
            GameNotStartedError: the game is still waiting for its opponent.
        """
        return self.started().game.copy()

    def seat_to_move(self) -> SeatRow:
        """The seat of the player to move (started games)."""
        return self.row.seats[seat_of_colour(self.started().game.to_move)]


def colour_of(seat: int) -> Color:
    """The colour seat ``seat`` plays."""
    return Color.BLACK if seat == BLACK_SEAT else Color.WHITE


def seat_of_colour(color: Color) -> int:
    """The seat that plays ``color``."""
    return BLACK_SEAT if color is Color.BLACK else WHITE_SEAT
