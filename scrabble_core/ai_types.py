"""What the AI searches work with: what a seat may see, the move generator they call, their budget.

The AI levels (:mod:`scrabble_core.ai`), the simulation (:mod:`scrabble_core.simulation`), the endgame
solver (:mod:`scrabble_core.endgame`) and the analysis all read a :class:`SeatView` and search with a
:class:`MoveSource`; they import these types from here, and none of them imports another to get them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, Protocol

from scrabble_core.board import Board
from scrabble_core.game import TURN_KINDS, EventKind, Game
from scrabble_core.move import Play
from scrabble_core.variant import Variant, variant_from_dict, variant_to_dict

__all__ = [
    "DEFAULT_BUDGET",
    "Candidate",
    "ExpertBudget",
    "MoveSource",
    "PlainSource",
    "SeatView",
    "seat_view",
]


class Candidate(Protocol):
    """A legal play as the move generator reports it."""

    @property
    def play(self) -> Play: ...

    @property
    def score(self) -> int: ...

    @property
    def leave(self) -> str: ...


class MoveSource(Protocol):
    """The part of :class:`scrabble_core.movegen.MoveGenerator` the AI uses."""

    def generate(self, board: Board, rack: str) -> Sequence[Candidate]: ...

    def best(
        self, board: Board, rack: str, leave_value: Callable[[str], float] | None = None
    ) -> Candidate | None: ...

    def top(
        self, board: Board, rack: str, count: int, leave_value: Callable[[str], float] | None = None
    ) -> Sequence[Candidate]: ...


class PlainSource:
    """``generator`` as a plain :class:`MoveSource`: the searches that take a
    :class:`~scrabble_core.movegen.MoveGenerator`'s native path (the simulation, the endgame) take
    their pure-Python path over it, with the same moves (for the differential tests and benches)."""

    def __init__(self, generator: MoveSource) -> None:
        self.generator = generator

    def generate(self, board: Board, rack: str) -> Sequence[Candidate]:
        return self.generator.generate(board, rack)

    def best(
        self, board: Board, rack: str, leave_value: Callable[[str], float] | None = None
    ) -> Candidate | None:
        return self.generator.best(board, rack, leave_value)

    def top(
        self, board: Board, rack: str, count: int, leave_value: Callable[[str], float] | None = None
    ) -> Sequence[Candidate]:
        return self.generator.top(board, rack, count, leave_value)


@dataclass(frozen=True, slots=True)
class ExpertBudget:
    """How long ``expert`` searches when its turn has no deadline: a fixed amount of work, so its
    choice is reproducible and the same on a loaded machine as on a quiet one.

    Attributes:
        iterations: simulation iterations (one draw of the unseen tiles, every candidate played out
            on it; see :mod:`scrabble_core.simulation`).
        endgame_nodes: positions the endgame solver searches once the bag is empty.
        pre_endgame_nodes: positions the endgame solver searches at each end of a pre-endgame playout
            (bag 1-6 tiles; see :mod:`scrabble_core.pre_endgame`, which plays at most ``iterations``
            random deals when it does not play every deal).
    """

    iterations: int = 6
    endgame_nodes: int = 60
    pre_endgame_nodes: int = 40


DEFAULT_BUDGET: Final = ExpertBudget()
"""The ``expert`` budget without a deadline when none is given: small, for tests and quick self-play."""


@dataclass(frozen=True)
class SeatView:
    """What one seat may know: the board, its own rack, the tiles it cannot see, the bag size, scores and
    the opponent's last play.

    ``unseen`` holds the bag and the other racks together, sorted, so it says nothing about who holds
    what. ``scores`` is indexed by seat; ``board`` is a copy that the AI does not change.
    ``last_play`` is the play (GCG) the opponent made on their last turn when it still stands (two
    players; empty otherwise): :mod:`scrabble_core.inference` reads the tiles they kept from it.
    """

    variant: Variant
    board: Board
    rack: str
    unseen: str
    bag_size: int
    scores: tuple[int, ...]
    seat: int
    last_play: str = ""

    @property
    def players(self) -> int:
        """Number of seats in the game."""
        return len(self.scores)

    def to_dict(self) -> dict[str, Any]:
        """The view as plain, picklable data; :meth:`from_dict` restores it."""
        return {
            "variant": variant_to_dict(self.variant),
            "board": self.board.rows_text(),
            "rack": self.rack,
            "unseen": self.unseen,
            "bag_size": self.bag_size,
            "scores": list(self.scores),
            "seat": self.seat,
            "last_play": self.last_play,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SeatView:
        """The view saved by :meth:`to_dict`.

        Raises:
            VariantError, ScrabbleError, KeyError: the data is not a saved view.
        """
        variant = variant_from_dict(data["variant"], "seat view")
        return cls(
            variant=variant,
            board=Board.from_rows(variant, data["board"]),
            rack=data["rack"],
            unseen=data["unseen"],
            bag_size=data["bag_size"],
            scores=tuple(data["scores"]),
            seat=data["seat"],
            last_play=data.get("last_play", ""),
        )


def seat_view(game: Game, seat: int) -> SeatView:
    """What ``seat`` of ``game`` can see now (the board is copied)."""
    return SeatView(
        variant=game.variant,
        board=game.board.copy(),
        rack=game.players[seat].rack,
        unseen=game.unseen_tiles(seat),
        bag_size=len(game.bag),
        scores=tuple(player.score for player in game.players),
        seat=seat,
        last_play=_last_play(game, seat),
    )


def _last_play(game: Game, seat: int) -> str:
    """The play the opponent of ``seat`` made on their last turn, if it stands (two players), else ``""``."""
    if len(game.players) != 2:
        return ""
    event = next((e for e in reversed(game.history) if e.player != seat and e.kind in TURN_KINDS), None)
    return event.move if event is not None and event.kind is EventKind.PLAY else ""
