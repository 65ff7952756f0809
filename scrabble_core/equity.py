"""The static value of a move: its score plus what the tiles it keeps are worth (the ``hard`` level's
rule, and where every search of the AI starts).

A move's *equity* is its score plus the value of the tiles it keeps (:mod:`scrabble_core.leaves`). When
the bag is empty the leave model no longer applies: a play that goes out earns what the rules give for
it (twice the opponent's rack with two players; the sum of the other racks with more), and a play that
keeps tiles loses twice their value (the swing if an opponent goes out first). Exchanges are valued by
the leave they keep.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, lru_cache
from itertools import combinations

from scrabble_core.ai_types import Candidate, SeatView
from scrabble_core.leaves import LeaveModel, load_leave_model
from scrabble_core.move import Exchange
from scrabble_core.validation import remove_tiles
from scrabble_core.variant import Variant

__all__ = [
    "ENDGAME_RACK_FACTOR",
    "best_exchange_value",
    "default_leave_model",
    "endgame_leave_value",
    "exchange_options",
    "leave_model_for",
    "move_equity",
]

ENDGAME_RACK_FACTOR = 2
"""Bag empty: tiles kept cost this many times their value (and going out earns as much, with two players)."""


@cache
def default_leave_model() -> LeaveModel:
    """The bundled English leave model, loaded once per process.

    Raises:
        LeaveModelError: the bundled asset is missing or invalid.
    """
    return load_leave_model()


def leave_model_for(variant: Variant, leaves: LeaveModel | None = None) -> LeaveModel:
    """The leave model the AI values leaves with on ``variant``: ``leaves`` (by default
    :func:`default_leave_model`), its set tiles valued as their best letters where the variant has
    letter-set tiles (:meth:`LeaveModel.with_sets`)."""
    model = leaves if leaves is not None else default_leave_model()
    if not variant.tile_sets:
        return model
    return model.with_sets({tile_set.symbol: "".join(tile_set.points) for tile_set in variant.tile_sets})


def exchange_options(view: SeatView, model: LeaveModel, weight: float = 1.0) -> list[tuple[float, Exchange]]:
    """Every exchange the seat may make, valued ``weight`` times the leave it keeps, best first.

    Empty when the bag holds fewer than ``variant.exchange_min_bag`` tiles (or none). At most as many
    tiles as the bag holds are put back. Ties are broken by the exchange's notation.
    """
    rack = view.rack
    ranked = [
        (weight * model.evaluate(keep), Exchange(remove_tiles(rack, keep))) for keep in _exchange_keeps(view)
    ]
    ranked.sort(key=lambda option: (-option[0], option[1].tiles))
    return ranked


def best_exchange_value(view: SeatView, model: LeaveModel) -> float | None:
    """The value of the first of :func:`exchange_options` (``None`` when there is none), without
    listing them."""
    keeps = _exchange_keeps(view)
    return max(model.values(list(keeps))) if keeps else None


def _exchange_keeps(view: SeatView) -> tuple[str, ...]:
    """The distinct racks an allowed exchange may keep (tiles sorted)."""
    if view.bag_size < max(view.variant.exchange_min_bag, 1):
        return ()
    return _sub_racks("".join(sorted(view.rack)), max(len(view.rack) - view.bag_size, 0))


@lru_cache(maxsize=4096)
def _sub_racks(tiles: str, smallest: int) -> tuple[str, ...]:
    """The distinct sub-racks of ``tiles`` (sorted) of ``smallest`` tiles up to one fewer than all."""
    return tuple(
        dict.fromkeys(
            "".join(kept) for size in range(smallest, len(tiles)) for kept in combinations(tiles, size)
        )
    )


def endgame_leave_value(view: SeatView) -> Callable[[str], float]:
    """What a play's leave adds to its score under the endgame rule of :func:`move_equity` (bag
    empty), as a leave valuation for :meth:`MoveSource.best <scrabble_core.ai_types.MoveSource.best>`."""
    out = (ENDGAME_RACK_FACTOR if view.players == 2 else 1) * view.variant.rack_value(view.unseen)
    value = view.variant.rack_value

    def leave_value(leave: str) -> float:
        return out if not leave else -ENDGAME_RACK_FACTOR * value(leave)

    return leave_value


def move_equity(view: SeatView, candidate: Candidate, model: LeaveModel, leave_weight: float = 1.0) -> float:
    """Score plus ``leave_weight`` times the leave value; with an empty bag the endgame rule instead
    (going out: + the end-of-game bonus for the unseen tiles; tiles kept: - twice their value)."""
    if view.bag_size == 0:
        if not candidate.leave:
            out_factor = ENDGAME_RACK_FACTOR if view.players == 2 else 1
            return candidate.score + out_factor * view.variant.rack_value(view.unseen)
        return candidate.score - ENDGAME_RACK_FACTOR * view.variant.rack_value(candidate.leave)
    return candidate.score + leave_weight * model.evaluate(candidate.leave)
