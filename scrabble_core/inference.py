"""Inference: what the opponent's last play says about the tiles they kept.

A player who made the play ``P`` held ``P``'s tiles and a leave ``L`` of the tiles the seat cannot see;
they then drew as many tiles as they played. A static player plays the move of best equity (score plus
leave value) for their rack, so a leave for which ``P`` is that move (or nearly) is more likely than one
for which a much better move was there. :func:`infer` draws :data:`SAMPLES` leaves from the unseen
tiles (every leave as likely as the tiles allow: the prior), and weighs each by how close ``P`` comes to
the best equity of ``P``'s tiles plus that leave on the board before ``P``: :data:`TOP_WEIGHT` times
``exp(-shortfall / TEMPERATURE)``, rounded, at least 1 (a leave is never ruled out: a human may miss
their best move). Each leave is the first tiles of a partial shuffle of the unseen ones
(:class:`~scrabble_core.draws.Draws`), its weight computed in the native core where it is in use. The simulation then gives the opponent, in each deal, one of these leaves drawn by
weight, and the rest of their rack at random (:mod:`scrabble_core.simulation`): draws from the
posterior.

Only a play the opponent made on their last turn (:attr:`SeatView.last_play
<scrabble_core.ai_types.SeatView.last_play>`), with tiles left in the bag (they drew a full rack after
it) and tiles kept, says something; otherwise there is no inference and the deals are uniform.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from scrabble_core.ai_types import MoveSource, SeatView
from scrabble_core.board import Board
from scrabble_core.draws import Draws
from scrabble_core.errors import ScrabbleError
from scrabble_core.leaves import LeaveModel
from scrabble_core.move import Play
from scrabble_core.movegen import MoveGenerator
from scrabble_core.validation import check_play

__all__ = ["SAMPLES", "TEMPERATURE", "TOP_WEIGHT", "Inference", "infer", "leave_weight"]

SAMPLES: Final = 1000
"""Leaves drawn from the prior and weighed (enough that the few a static player's play leaves likely are
drawn several times: a smaller sample gives the simulation the same few racks over and over)."""
TEMPERATURE: Final = 4.0
"""Points of equity by which a leave's weight falls by a factor e."""
TOP_WEIGHT: Final = 64
"""The weight of a leave for which the play made was the best."""


@dataclass(frozen=True, slots=True)
class Inference:
    """Leaves the opponent may have kept with their last play, and their weights (whole numbers, so
    both paths of the simulation draw them the same way).

    Attributes:
        leaves: the leaves drawn (tiles sorted), as many as the play left on the rack.
        weights: each leave's weight.
    """

    leaves: tuple[str, ...]
    weights: tuple[int, ...]


def infer(
    view: SeatView,
    generator: MoveSource,
    model: LeaveModel,
    seed: int,
    samples: int = SAMPLES,
    *,
    deadline: float | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> Inference | None:
    """The leaves the opponent of ``view`` may have kept with their last play, weighed (see the module
    docstring): ``samples`` of them, drawn from a stream seeded ``seed``; ``None`` when there is nothing
    to infer. The weights are computed in the native core where the generator's searches run there (the
    same numbers).

    With a ``deadline`` (a ``clock()`` value), weighing in Python stops halfway there, so the
    simulation keeps half the turn: the samples before the first leave left unweighed stand (a prefix
    of the samples is a smaller sample of the same prior), and ``None`` when none does. The native
    weighing, the fast path, always runs whole."""
    last = _last_play(view)
    if last is None:
        return None
    before, play, points, kept = last
    draws = Draws(seed)
    tiles = list(view.unseen)
    leaves = []
    for _ in range(samples):
        for i in range(kept):  # the first `kept` places of a shuffle: a leave as likely as the tiles allow
            j = i + draws.below(len(tiles) - i)
            tiles[i], tiles[j] = tiles[j], tiles[i]
        leaves.append("".join(sorted(tiles[:kept])))
    distinct = list(dict.fromkeys(leaves))  # a leave's weight is the leave's alone: each weighed once
    native = generator.native_board(before) if isinstance(generator, MoveGenerator) else None
    if native is not None:
        from scrabble_core._movegen import infer_weights  # the extension, present here

        weights = infer_weights(
            native.graph,
            native.geometry,
            native.squares,
            model.native_table,
            native.tiles(play.rack_tiles()),
            points,
            [native.tiles(leave) for leave in distinct],
            TOP_WEIGHT,
            TEMPERATURE,
        )
    else:
        stop = None if deadline is None else (clock() + deadline) / 2
        weights = []
        for leave in distinct:
            if stop is not None and clock() >= stop:
                break
            weights.append(_weight(before, play, points, leave, generator, model))
    weight = dict(zip(distinct, weights, strict=False))  # fewer weights when the weighing stopped
    weighed = next((i for i, leave in enumerate(leaves) if leave not in weight), len(leaves))
    if weighed == 0:
        return None
    return Inference(tuple(leaves[:weighed]), tuple(weight[leave] for leave in leaves[:weighed]))


def leave_weight(view: SeatView, leave: str, generator: MoveSource, model: LeaveModel) -> int | None:
    """The weight :func:`infer` gives ``leave`` as what the opponent kept with their last play;
    ``None`` when there is nothing to infer."""
    last = _last_play(view)
    if last is None:
        return None
    before, play, points, _ = last
    return _weight(before, play, points, leave, generator, model)


def _last_play(view: SeatView) -> tuple[Board, Play, int, int] | None:
    """The opponent's last play, the board it was made on, its points and how many tiles it kept; ``None``
    when there is nothing to infer from (see the module docstring)."""
    if not view.last_play or view.players != 2 or view.bag_size == 0:
        return None
    play = Play.from_gcg(view.last_play)
    kept = view.variant.rack_size - len(play.rack_tiles())
    if kept <= 0 or kept > len(view.unseen):
        return None
    before = view.board.copy()
    placements = play.placements()
    if any(before[square] is None for square, _ in placements):
        return None  # not the board that play was made on
    before.remove(square for square, _ in placements)
    try:
        points = check_play(before, play).total
    except ScrabbleError:
        return None
    return before, play, points, kept


def _weight(
    before: Board, play: Play, points: int, leave: str, generator: MoveSource, model: LeaveModel
) -> int:
    """``TOP_WEIGHT * exp(-shortfall / TEMPERATURE)``, at least 1: the shortfall is how much less equity
    ``play`` had than the best play of its tiles and ``leave`` on ``before``."""
    best = generator.best(before, play.rack_tiles() + leave, model)
    made = points + model.evaluate(leave)
    shortfall = max(best.score + model.evaluate(best.leave) - made, 0.0) if best is not None else 0.0
    return max(round(TOP_WEIGHT * math.exp(-shortfall / TEMPERATURE)), 1)
