"""The ``expert`` level: simulation of the best candidates, and the endgame solver once the bag is empty.

Simulation (:func:`simulate`): the candidates are the plays of highest static equity (score plus leave,
what ``hard`` plays) and the best exchanges. Each iteration draws a rack for the opponent and a bag
order from the tiles the seat cannot see (:attr:`SeatView.unseen <scrabble_core.ai.SeatView.unseen>`,
shuffled with the ``rng`` passed in: never the real rack or bag), then plays every candidate on that
same draw, followed by ``plies`` turns of static play (the opponent's reply, our next move, ...; each
the ``hard`` choice for the rack it holds). A candidate's result is the spread over those turns plus,
at the horizon, the leave value of the tiles our last move kept minus that of the tiles the opponent's
last move kept (the tiles drawn after them are the average draw leave values are measured against);
with the bag empty the endgame rule instead, and going out ends the playout with its bonus. The
candidate of best mean result is played (the draws are the same for every candidate, so their
differences are paired; among equal means, the higher static equity). From :data:`PRUNE_AFTER`
iterations on, candidates the leader beats by :data:`PRUNE_CONFIDENCE` standard errors are dropped, so
the time goes to the close ones; when one is left, the simulation stops early. Iterations stop at the
deadline (an iteration is not started when the last one's duration would overrun it) or at
``max_iterations``; below :data:`MIN_ITERATIONS` the static choice stands, so the expert is never
worse than ``hard`` for lack of time. Without a deadline the work is fixed by an
:class:`~scrabble_core.ai.ExpertBudget`, so self-play measures strength the same on a loaded machine.

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
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from scrabble_core.ai_types import DEFAULT_BUDGET, Candidate, ExpertBudget, MoveSource, SeatView
from scrabble_core.board import Board
from scrabble_core.endgame import solve_endgame
from scrabble_core.equity import ENDGAME_RACK_FACTOR, exchange_options, move_equity
from scrabble_core.leaves import LeaveModel
from scrabble_core.move import Exchange, Move, Pass
from scrabble_core.squares import Square
from scrabble_core.validation import remove_tiles

CANDIDATES: Final = 12
"""Plays simulated in the midgame (plus :data:`EXCHANGES` exchanges)."""
PRE_ENDGAME_CANDIDATES: Final = 16
"""Plays simulated in the pre-endgame (bag 1-6 tiles)."""
EXCHANGES: Final = 2
PLIES: Final = 2
"""Turns played after a candidate in the midgame: the opponent's reply and our next move."""
PRE_ENDGAME_PLIES: Final = 8
"""Turns played after a candidate in the pre-endgame (the game nearly always ends within them)."""
PRE_ENDGAME_BAG: Final = 6
MIN_ITERATIONS: Final = 4
"""Fewer iterations than this decide nothing: the static choice is returned."""
PRUNE_AFTER: Final = 8
"""Iterations after which candidates clearly worse than the leader stop being simulated."""
PRUNE_CONFIDENCE: Final = 2.5
"""A candidate is dropped when the leader beats it by this many standard errors (the draws are the
same for every candidate, so the differences are paired)."""

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
    budget: ExpertBudget = DEFAULT_BUDGET,
) -> Move:
    """The ``expert`` level's move for ``view``: the endgame solver when the bag is empty (two
    players), else :func:`simulate`. Without a deadline the search stops at ``budget`` (iterations or
    endgame positions), so the choice is reproducible."""
    if view.bag_size == 0 and view.players == 2:
        result = solve_endgame(
            view.board,
            view.rack,
            view.unseen,
            generator,
            deadline=deadline,
            clock=clock,
            max_nodes=budget.endgame_nodes if deadline is None else None,
        )
        return result.move
    max_iterations = budget.iterations if deadline is None else None
    return simulate(view, generator, model, rng, deadline, clock=clock, max_iterations=max_iterations).move


def candidates(
    view: SeatView, generator: MoveSource, model: LeaveModel, count: int
) -> list[tuple[float, Move, int]]:
    """The ``count`` plays of highest static equity and the :data:`EXCHANGES` best exchanges, as
    ``(equity, move, points)`` ranked by equity (ties by notation); the first is the static (``hard``)
    choice. Empty when the seat can neither play nor exchange."""
    plays: Sequence[Candidate] = generator.top(view.board, view.rack, count, model)
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
    ``clock()`` value) or ``max_iterations``; with neither, :attr:`ExpertBudget.iterations` of
    :data:`DEFAULT_BUDGET`.

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
        max_iterations = DEFAULT_BUDGET.iterations
    playout = _Playout(view, generator, model, PRE_ENDGAME_PLIES if pre_endgame else PLIES)
    results: list[list[float]] = [[] for _ in ranked]
    active = list(range(len(ranked)))
    iterations = 0
    last = 0.0
    while max_iterations is None or iterations < max_iterations:
        started = clock()
        if deadline is not None and started + last >= deadline:
            break
        tiles = list(view.unseen)
        rng.shuffle(tiles)
        for index in active:
            _, move, points = ranked[index]
            results[index].append(playout.run(move, points, tiles))
        iterations += 1
        if iterations >= PRUNE_AFTER:
            active = _survivors(results, active, iterations)
        last = clock() - started
        if len(active) == 1:  # every other candidate is clearly worse
            break
    if iterations < MIN_ITERATIONS:
        return SimResult(static, static, iterations, ())
    means = sorted(
        (
            (move, math.fsum(outcomes) / len(outcomes))
            for (_, move, _), outcomes in zip(ranked, results, strict=True)
        ),
        key=lambda item: (-item[1], str(item[0])),
    )
    best = max(active, key=lambda index: (math.fsum(results[index]), -index))
    return SimResult(ranked[best][1], static, iterations, tuple(means))


def _survivors(results: list[list[float]], active: list[int], iterations: int) -> list[int]:
    """The candidates of ``active`` still worth simulating: the leader (best mean so far, the higher
    static rank among equals) and those it does not beat by :data:`PRUNE_CONFIDENCE` standard errors
    of the paired differences."""
    leader = max(active, key=lambda index: (math.fsum(results[index]), -index))
    best = results[leader]
    kept = []
    for index in active:
        if index != leader:
            differences = [a - b for a, b in zip(best, results[index], strict=True)]
            mean = math.fsum(differences) / iterations
            spread = math.fsum((d - mean) ** 2 for d in differences) / (iterations - 1)
            if mean > PRUNE_CONFIDENCE * math.sqrt(spread / iterations):
                continue
        kept.append(index)
    return kept


class _Playout:
    """Plays one candidate and the turns after it on a working board, restoring it afterwards."""

    def __init__(self, view: SeatView, generator: MoveSource, model: LeaveModel, plies: int) -> None:
        self.variant = view.variant
        self.rack = view.rack
        self.board: Board = view.board.copy()
        self.generator = generator
        self.model = model
        self.plies = plies

    def run(self, move: Move, points: int, tiles: Sequence[str]) -> float:
        """The result of ``move`` (scoring ``points``) followed by ``plies`` static turns, the opponent
        holding the first rack's worth of ``tiles`` and the bag drawing the rest from the end: the
        spread of the points, plus at the horizon what each side's last leave is worth to it (see
        :meth:`_horizon`), or the end-of-game bonus when a side goes out."""
        size = self.variant.rack_size
        bag = list(tiles[size:])
        racks = [self.rack, "".join(tiles[:size])]
        kept = ["", ""]
        placed: list[Square] = []
        try:
            spread = float(points)
            for ply in range(self.plies + 1):
                turn = ply % 2
                sign = 1 if turn == 0 else -1
                if ply:
                    move, points = self._static(racks[turn], racks[1 - turn], bag)
                    spread += sign * points
                kept[turn], racks[turn] = self._apply(move, racks[turn], bag, placed)
                if not racks[turn] and not bag:  # went out: the game ends
                    return spread + sign * ENDGAME_RACK_FACTOR * self.variant.rack_value(racks[1 - turn])
            return spread + self._horizon(kept[0], racks[0], bag) - self._horizon(kept[1], racks[1], bag)
        finally:
            self.board.remove(placed)

    def _horizon(self, kept: str, rack: str, bag: list[str]) -> float:
        """What a side's position is worth at the horizon: the leave value of the tiles its last move
        kept (what it draws is the average draw the leave values are measured against), or with the
        bag empty the endgame rule's cost of its rack."""
        if bag:
            return self.model.evaluate(kept)
        return -ENDGAME_RACK_FACTOR * self.variant.rack_value(rack)

    def _static(self, rack: str, other: str, bag: list[str]) -> tuple[Move, int]:
        """The static play of the player holding ``rack`` against ``other`` and its points (a pass
        without a play)."""
        if bag:
            best = self.generator.best(self.board, rack, self.model)
        else:
            out = ENDGAME_RACK_FACTOR * self.variant.rack_value(other)
            value = self.variant.rack_value

            def endgame_leave(leave: str) -> float:
                return out if not leave else -ENDGAME_RACK_FACTOR * value(leave)

            best = self.generator.best(self.board, rack, endgame_leave)
        return (best.play, best.score) if best is not None else (Pass(), 0)

    def _apply(self, move: Move, rack: str, bag: list[str], placed: list[Square]) -> tuple[str, str]:
        """Make ``move`` with ``rack`` on the working board: the tiles it keeps, and the rack after it
        drawn from the end of ``bag`` (exchanged tiles go to its other end)."""
        if isinstance(move, Pass):
            return rack, rack
        if isinstance(move, Exchange):
            kept = remove_tiles(rack, move.tiles)
            drawn = [bag.pop() for _ in range(min(len(move.tiles), len(bag)))]
            bag[:0] = move.tiles
            return kept, kept + "".join(drawn)
        placements = move.placements()
        self.board.place(placements)
        placed.extend(square for square, _ in placements)
        kept = remove_tiles(rack, move.rack_tiles())
        drawn = [bag.pop() for _ in range(min(len(placements), len(bag)))]
        return kept, kept + "".join(drawn)
