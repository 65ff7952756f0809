"""The ``expert`` level: simulation of the best candidates, and the endgame solver once the bag is empty.

Simulation (:func:`simulate`): the candidates are the plays of highest static equity (score plus leave,
what ``hard`` plays) and the best exchanges. Each iteration draws a rack for the opponent and a bag
order from the tiles the seat cannot see (:attr:`SeatView.unseen <scrabble_core.ai.SeatView.unseen>`,
shuffled with the ``rng`` passed in: never the real rack or bag), then plays every candidate on that
same draw, followed by ``plies`` turns of static play (the opponent's reply, our next move, ...). A
candidate's result is the spread over those turns plus the leaves at the horizon (ours counted, the
opponent's subtracted; with the bag empty the endgame rule instead); the candidate of best mean result
wins if it beats the static choice clearly (:data:`CONFIDENCE`). From :data:`PRUNE_AFTER` iterations on,
candidates clearly worse than the leader are dropped, so the time goes to the close ones; when only the
static choice is left, the simulation stops early. Iterations stop at the deadline (an iteration is not started when the last one's duration would
overrun it) or at ``max_iterations``; below :data:`MIN_ITERATIONS` the static choice stands, so the
expert is never worse than ``hard`` for lack of time.

With the bag 1-6 tiles (the pre-endgame) more candidates are simulated and the playouts go on to the end
of the game (:data:`PRE_ENDGAME_PLIES`): which tiles are left for whom decides most there.

With the bag empty and two players, the opponent's rack is exactly the unseen tiles, and
:func:`scrabble_core.endgame.solve_endgame` searches to the end (the seat's view does not hold the
count of scoreless turns so far: the solver assumes none). Games of more than two players get the
static choice.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from scrabble_core.ai import (
    ENDGAME_RACK_FACTOR,
    Candidate,
    MoveSource,
    SeatView,
    exchange_options,
    move_equity,
)
from scrabble_core.board import Board
from scrabble_core.endgame import solve_endgame
from scrabble_core.leaves import LeaveModel
from scrabble_core.move import Exchange, Move, Pass
from scrabble_core.squares import Square
from scrabble_core.validation import remove_tiles

CANDIDATES: Final = 10
"""Plays simulated in the midgame (plus :data:`EXCHANGES` exchanges)."""
PRE_ENDGAME_CANDIDATES: Final = 16
"""Plays simulated in the pre-endgame (bag 1-6 tiles)."""
EXCHANGES: Final = 2
PLIES: Final = 2
"""Turns played after a candidate in the midgame: the opponent's reply and our next move."""
PRE_ENDGAME_PLIES: Final = 6
"""Turns played after a candidate in the pre-endgame (the game usually ends within them)."""
PRE_ENDGAME_BAG: Final = 6
MIN_ITERATIONS: Final = 4
"""Fewer iterations than this decide nothing: the static choice is returned."""
CONFIDENCE: Final = 1.5
"""A simulated candidate replaces the static choice only when it beats it by this many standard errors
(the draws are the same for every candidate, so the differences are paired)."""
PRUNE_AFTER: Final = 6
"""Iterations after which candidates clearly worse than the leader stop being simulated."""
PRUNE_CONFIDENCE: Final = 2.5
DEFAULT_ITERATIONS: Final = 6
"""Iterations run when no deadline is given (a deterministic budget, for self-play and tests)."""
DEFAULT_ENDGAME_NODES: Final = 60
"""Endgame positions searched when no deadline is given."""

Clock = Callable[[], float]


@dataclass(frozen=True, slots=True)
class SimResult:
    """What :func:`simulate` found: the move to make, the static choice, the iterations run and the
    mean result of each candidate simulated (move, mean), best first."""

    move: Move
    static: Move
    iterations: int
    means: tuple[tuple[Move, float], ...]


def expert_move(
    view: SeatView,
    generator: MoveSource,
    model: LeaveModel,
    rng: random.Random,
    deadline: float | None = None,
    *,
    clock: Clock = time.monotonic,
) -> Move:
    """The ``expert`` level's move for ``view``: the endgame solver when the bag is empty (two
    players), else :func:`simulate`. Without a deadline the budget is :data:`DEFAULT_ITERATIONS`
    iterations or :data:`DEFAULT_ENDGAME_NODES` positions, so the choice is reproducible."""
    if view.bag_size == 0 and view.players == 2:
        result = solve_endgame(
            view.board,
            view.rack,
            view.unseen,
            generator,
            deadline=deadline,
            clock=clock,
            max_nodes=DEFAULT_ENDGAME_NODES if deadline is None else None,
        )
        return result.move
    max_iterations = DEFAULT_ITERATIONS if deadline is None else None
    return simulate(view, generator, model, rng, deadline, clock=clock, max_iterations=max_iterations).move


def candidates(
    view: SeatView, generator: MoveSource, model: LeaveModel, count: int
) -> list[tuple[float, Move, int]]:
    """The ``count`` plays of highest static equity and the :data:`EXCHANGES` best exchanges, as
    ``(equity, move, points)`` ranked by equity (ties by notation); the first is the static (``hard``)
    choice. Empty when the seat can neither play nor exchange."""
    plays: Sequence[Candidate] = generator.top(view.board, view.rack, count, model.evaluate)
    ranked: list[tuple[float, Move, int]] = [(move_equity(view, c, model), c.play, c.score) for c in plays]
    ranked.extend((equity, exchange, 0) for equity, exchange in exchange_options(view, model)[:EXCHANGES])
    ranked.sort(key=lambda option: (-option[0], str(option[1])))
    return ranked


def simulate(
    view: SeatView,
    generator: MoveSource,
    model: LeaveModel,
    rng: random.Random,
    deadline: float | None = None,
    *,
    clock: Clock = time.monotonic,
    max_iterations: int | None = None,
) -> SimResult:
    """Simulate the best candidates of ``view`` (see the module docstring) until ``deadline`` (a
    ``clock()`` value) or ``max_iterations``; with neither, :data:`DEFAULT_ITERATIONS`.

    Reads only ``view`` and draws from ``rng``: where the hidden tiles really are cannot change the
    result. Never returns a move worse than the static choice for lack of iterations (see
    :data:`MIN_ITERATIONS`).
    """
    pre_endgame = 0 < view.bag_size <= PRE_ENDGAME_BAG
    ranked = candidates(view, generator, model, PRE_ENDGAME_CANDIDATES if pre_endgame else CANDIDATES)
    if not ranked:
        return SimResult(Pass(), Pass(), 0, ())
    static = ranked[0][1]
    if len(ranked) == 1 or view.players != 2:
        return SimResult(static, static, 0, ())
    if deadline is None and max_iterations is None:
        max_iterations = DEFAULT_ITERATIONS
    playout = _Playout(view, generator, model, PRE_ENDGAME_PLIES if pre_endgame else PLIES)
    results: list[list[float]] = [[] for _ in ranked]
    active = list(range(len(ranked)))
    last = 0.0
    while max_iterations is None or len(results[0]) < max_iterations:
        started = clock()
        if deadline is not None and started + last >= deadline:
            break
        tiles = list(view.unseen)
        rng.shuffle(tiles)
        for index in active:
            _, move, points = ranked[index]
            results[index].append(playout.run(move, points, tiles))
        if len(results[0]) >= PRUNE_AFTER:
            active = _survivors(results, active)
        last = clock() - started
        if len(active) == 1:  # every other candidate is clearly worse than the static choice
            break
    iterations = len(results[0])
    if iterations < MIN_ITERATIONS:
        return SimResult(static, static, iterations, ())
    means = sorted(
        ((move, statistics.fmean(outcomes)) for (_, move, _), outcomes in zip(ranked, results, strict=True)),
        key=lambda item: (-item[1], str(item[0])),
    )
    best = max(active, key=lambda index: (statistics.fmean(results[index]), -index))
    if best and _clearly_better(results[best], results[0]):
        return SimResult(ranked[best][1], static, iterations, tuple(means))
    return SimResult(static, static, iterations, tuple(means))


def _survivors(results: list[list[float]], active: list[int]) -> list[int]:
    """The candidates of ``active`` still worth simulating: the static choice (index 0) and those not
    clearly worse (by :data:`PRUNE_CONFIDENCE` standard errors) than the best mean so far."""
    leader = max(active, key=lambda index: statistics.fmean(results[index]))
    return [
        index
        for index in active
        if index in (0, leader) or not _clearly_better(results[leader], results[index], PRUNE_CONFIDENCE)
    ]


def _clearly_better(
    outcomes: Sequence[float], other: Sequence[float], confidence: float = CONFIDENCE
) -> bool:
    """Whether ``outcomes`` beat ``other`` (results on the same draws, in order) by more than
    ``confidence`` standard errors of the mean difference."""
    differences = [a - b for a, b in zip(outcomes, other, strict=True)]
    mean = statistics.fmean(differences)
    error = statistics.stdev(differences) / math.sqrt(len(differences))
    return mean > confidence * error


class _LeaveValues(dict[str, float]):
    """The leave model's values by leave as written (any tile order), looked up without a Python call
    on a hit: the playouts ask for the same leaves thousands of times."""

    def __init__(self, model: LeaveModel) -> None:
        super().__init__()
        self.model = model

    def __missing__(self, leave: str) -> float:
        value = self[leave] = self.model.evaluate(leave)
        return value


class _Playout:
    """Plays one candidate and the turns after it on a working board, restoring it afterwards."""

    def __init__(self, view: SeatView, generator: MoveSource, model: LeaveModel, plies: int) -> None:
        self.variant = view.variant
        self.rack = view.rack
        self.board: Board = view.board.copy()
        self.generator = generator
        self.leave_values = _LeaveValues(model)
        self.plies = plies

    def run(self, move: Move, points: int, tiles: Sequence[str]) -> float:
        """The result of ``move`` (scoring ``points``) followed by ``plies`` static turns, the opponent
        holding the first rack's worth of ``tiles`` and the bag drawing the rest from the end."""
        size = self.variant.rack_size
        bag = list(tiles[size:])
        racks = [self.rack, "".join(tiles[:size])]
        placed: list[Square] = []
        try:
            racks[0] = self._apply(move, racks[0], bag, placed)
            spread = float(points)
            for ply in range(self.plies + 1):
                turn = ply % 2
                sign = 1 if turn == 0 else -1
                if ply:
                    reply, points = self._static(racks[turn], racks[1 - turn], bag)
                    racks[turn] = self._apply(reply, racks[turn], bag, placed)
                    spread += sign * points
                if not racks[turn] and not bag:  # went out: the game ends
                    return spread + sign * ENDGAME_RACK_FACTOR * self.variant.rack_value(racks[1 - turn])
            return spread + self._leave(racks[0], bag) - self._leave(racks[1], bag)
        finally:
            self.board.remove(placed)

    def _leave(self, rack: str, bag: list[str]) -> float:
        """What ``rack`` is worth at the horizon: its leave value, or with the bag empty the endgame
        rule's cost of the tiles kept."""
        if bag:
            return self.leave_values[rack]
        return -ENDGAME_RACK_FACTOR * self.variant.rack_value(rack)

    def _static(self, rack: str, other: str, bag: list[str]) -> tuple[Move, int]:
        """The static play of the player holding ``rack`` against ``other`` and its points (a pass
        without a play)."""
        if bag:
            best = self.generator.best(self.board, rack, self.leave_values.__getitem__)
        else:
            out = ENDGAME_RACK_FACTOR * self.variant.rack_value(other)
            value = self.variant.rack_value

            def endgame_leave(leave: str) -> float:
                return out if not leave else -ENDGAME_RACK_FACTOR * value(leave)

            best = self.generator.best(self.board, rack, endgame_leave)
        return (best.play, best.score) if best is not None else (Pass(), 0)

    def _apply(self, move: Move, rack: str, bag: list[str], placed: list[Square]) -> str:
        """Make ``move`` with ``rack`` on the working board; the rack after it, drawn from the end of
        ``bag`` (exchanged tiles go to its other end)."""
        if isinstance(move, Pass):
            return rack
        if isinstance(move, Exchange):
            drawn = [bag.pop() for _ in range(min(len(move.tiles), len(bag)))]
            bag[:0] = move.tiles
            return remove_tiles(rack, move.tiles) + "".join(drawn)
        placements = move.placements()
        self.board.place(placements)
        placed.extend(square for square, _ in placements)
        drawn = [bag.pop() for _ in range(min(len(placements), len(bag)))]
        return remove_tiles(rack, move.rack_tiles()) + "".join(drawn)
