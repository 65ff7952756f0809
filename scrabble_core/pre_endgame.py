"""The pre-endgame (1 to 6 tiles in the bag, two players): the candidate plays on every possible draw,
played to the end of the game with the endgame solver.

Candidates: the :data:`CANDIDATES` plays of highest static equity and the pass (an exchange needs more
tiles in the bag). A *deal* is what the seat cannot see laid out: the opponent's rack and the order of
the bag. Each candidate is played out on each deal: the candidate, its draw, then static turns (the
``hard`` choice, as in the simulation) until the bag is empty; the game then is an endgame with both
racks known, valued by :func:`scrabble_core.endgame.solve_endgame` for the side to move (within a
node budget: exact when it fits). A candidate's result on a deal is the spread from here to the end of
the game; its value is the mean over the deals, weighted by how likely each deal is. The candidate of
best value is played (among equal ones, the higher static equity).

Deals: when the distinct deals are few (at most :data:`MAX_DEALS`: a bag of 1 or 2 tiles), every one
of them, weighted by the number of ways the unseen tiles give it (:func:`deals`); otherwise deals drawn
at random (:class:`~scrabble_core.draws.Draws`, weight 1), as many as the budget allows.

Time: with a deadline, every deal is played in passes, every (candidate, deal) pair with the same node
budget per endgame: one position (the static endgame rule) in the first pass, :data:`PASS_GROWTH` times
more at each next pass while time remains; the last complete pass decides (the first always completes).
Random deals are played one after the other until the deadline, :data:`SAMPLED_NODES` positions per
endgame. Without a deadline, :attr:`ExpertBudget.pre_endgame_nodes
<scrabble_core.ai_types.ExpertBudget.pre_endgame_nodes>` positions per endgame, every deal or at most
:attr:`~scrabble_core.ai_types.ExpertBudget.iterations` random ones.

Shares: :func:`pre_endgame_share` plays every ``shares``-th deal (or, with random deals, draws its own);
the shares' statistics add up (:func:`scrabble_core.simulation.merge_stats`).
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from itertools import permutations
from typing import Final

from scrabble_core.ai_types import DEFAULT_BUDGET, ExpertBudget, MoveSource, SeatView
from scrabble_core.board import Board
from scrabble_core.draws import Draws, share_seed
from scrabble_core.endgame import solve_endgame
from scrabble_core.equity import ENDGAME_RACK_FACTOR, move_equity
from scrabble_core.leaves import LeaveModel
from scrabble_core.move import Move, Pass, Play
from scrabble_core.simulation import SimResult, SimStats, simulation_result
from scrabble_core.validation import remove_tiles

__all__ = ["CANDIDATES", "MAX_DEALS", "Deal", "count_deals", "deals", "pre_endgame", "pre_endgame_share"]

CANDIDATES: Final = 16
"""Plays considered (and the pass)."""
MAX_DEALS: Final = 80
"""Every deal is played when there are at most this many; otherwise random ones."""
PASS_GROWTH: Final = 8
"""With a deadline, each pass over every deal searches the endgames this many times more positions
than the last (the first: one, the static endgame rule)."""
SAMPLED_NODES: Final = 8
"""Endgame positions per leaf with random deals and a deadline."""
MIN_DEALS: Final = 4
"""Fewer random deals than this decide nothing: the static choice is returned."""

Clock = Callable[[], float]
Ranked = tuple[tuple[float, Move, int], ...]


@dataclass(frozen=True, slots=True)
class Deal:
    """The unseen tiles laid out: the opponent's rack, the bag (drawn from its end), and how many of the
    equally likely arrangements of the tiles give this deal."""

    opponent: str
    bag: str
    weight: int


def deals(unseen: str, bag_size: int) -> list[Deal]:
    """Every distinct deal of ``unseen`` with ``bag_size`` tiles in the bag, with its weight: the
    opponent holds the rest. A deal's weight is the product over the tiles of ``n! / r!`` (``n``
    copies unseen, ``r`` on the opponent's rack): the number of ways of putting the physical tiles in
    the bag's order and on the rack."""
    counts = Counter(unseen)
    found = []
    for order in dict.fromkeys(permutations(sorted(unseen), bag_size)):
        rack = counts - Counter(order)
        weight = math.prod(math.factorial(counts[tile]) // math.factorial(rack[tile]) for tile in counts)
        found.append(Deal("".join(sorted(rack.elements())), "".join(order), weight))
    return found


def count_deals(unseen: str, bag_size: int) -> int:
    """How many distinct deals :func:`deals` would list, without listing them: the distinct orders of
    ``bag_size`` tiles drawn from ``unseen`` (``bag_size!`` times the coefficient of ``x**bag_size`` in
    the product over the kinds of tile of ``sum(x**j / j!)``, ``j`` up to the copies unseen)."""
    product = [Fraction(1)]
    for copies in Counter(unseen).values():
        terms = [Fraction(1, math.factorial(j)) for j in range(min(copies, bag_size) + 1)]
        product = [
            sum(
                (product[i] * terms[k - i] for i in range(len(product)) if 0 <= k - i < len(terms)),
                Fraction(0),
            )
            for k in range(min(len(product) + len(terms) - 1, bag_size + 1))
        ]
    return int(product[bag_size] * math.factorial(bag_size)) if bag_size < len(product) else 0


def pre_endgame(
    view: SeatView,
    generator: MoveSource,
    model: LeaveModel,
    rng: random.Random,
    deadline: float | None = None,
    *,
    clock: Clock = time.monotonic,
    budget: ExpertBudget = DEFAULT_BUDGET,
) -> SimResult:
    """The pre-endgame's move for ``view`` (see the module docstring); one share, seeded with 64 bits
    drawn from ``rng``. ``means`` are the candidates' values, best first."""
    ranked = candidates(view, generator, model)
    if not ranked:
        return SimResult(Pass(), Pass(), 0, ())
    static = ranked[0][1]
    if len(ranked) == 1 or view.players != 2:
        return SimResult(static, static, 0, ())
    stats = _run_share(view, generator, model, ranked, rng.getrandbits(64), 0, 1, deadline, clock, budget)
    return simulation_result(stats, 1)


def pre_endgame_share(
    view: SeatView,
    generator: MoveSource,
    model: LeaveModel,
    seed: int,
    share: int,
    shares: int,
    deadline: float | None = None,
    *,
    clock: Clock = time.monotonic,
    budget: ExpertBudget = DEFAULT_BUDGET,
) -> SimStats:
    """Share ``share`` of ``shares`` of the pre-endgame of ``view`` seeded ``seed``: every ``shares``-th
    deal from the ``share``-th when every deal is played, else its own random deals. The statistics of
    the shares add up (:func:`~scrabble_core.simulation.merge_stats`);
    :func:`~scrabble_core.simulation.simulation_result` decides (with ``min_iterations`` 1)."""
    ranked = candidates(view, generator, model)
    return _run_share(view, generator, model, ranked, seed, share, shares, deadline, clock, budget)


def candidates(view: SeatView, generator: MoveSource, model: LeaveModel) -> Ranked:
    """The :data:`CANDIDATES` plays of highest static equity and the pass, as ``(equity, move, points)``
    ranked by equity (ties by notation); the first is the static choice."""
    plays = generator.top(view.board, view.rack, CANDIDATES, model)
    ranked: list[tuple[float, Move, int]] = [(move_equity(view, c, model), c.play, c.score) for c in plays]
    ranked.append((model.evaluate(view.rack), Pass(), 0))
    ranked.sort(key=lambda option: (-option[0], str(option[1])))
    return tuple(ranked)


def _run_share(
    view: SeatView,
    generator: MoveSource,
    model: LeaveModel,
    ranked: Ranked,
    seed: int,
    share: int,
    shares: int,
    deadline: float | None,
    clock: Clock,
    budget: ExpertBudget,
) -> SimStats:
    """Play the candidates out on this share's deals (see the module docstring)."""
    moves = tuple(move.gcg() for _, move, _ in ranked)
    empty = SimStats(
        moves, 0, (0,) * len(ranked), (0.0,) * len(ranked), (0.0,) * len(ranked), (True,) * len(ranked)
    )
    if len(ranked) < 2 or view.players != 2:
        return empty
    playout = _Playout(view, generator, model)
    if count_deals(view.unseen, view.bag_size) <= MAX_DEALS:
        dealt = deals(view.unseen, view.bag_size)[share::shares]
        if deadline is None:
            return _pass(playout, ranked, dealt, budget.pre_endgame_nodes, None, clock) or empty
        stats: SimStats | None = None
        nodes = 1
        while True:
            done = _pass(playout, ranked, dealt, nodes, None if stats is None else deadline, clock)
            if done is None:
                return stats or empty
            stats = done
            if clock() >= deadline:
                return stats
            nodes *= PASS_GROWTH
    draws = Draws(share_seed(seed, share))
    limit = budget.iterations if deadline is None else None
    nodes = budget.pre_endgame_nodes if deadline is None else SAMPLED_NODES
    totals = [0.0] * len(ranked)
    squares = [0.0] * len(ranked)
    played = 0
    last = 0.0
    while limit is None or played < limit:
        started = clock()
        if deadline is not None and started + last >= deadline:
            break
        tiles = list(view.unseen)
        draws.shuffle(tiles)
        opponent = "".join(tiles[view.bag_size :])
        deal = Deal(opponent, "".join(tiles[: view.bag_size]), 1)
        for index, (_, move, points) in enumerate(ranked):
            result = playout.run(move, points, deal, nodes)
            totals[index] += result
            squares[index] += result * result
        played += 1
        last = clock() - started
    if played < MIN_DEALS:
        return SimStats(
            moves, played, (0,) * len(ranked), (0.0,) * len(ranked), (0.0,) * len(ranked), empty.active
        )
    return SimStats(moves, played, (played,) * len(ranked), tuple(totals), tuple(squares), empty.active)


def _pass(
    playout: _Playout, ranked: Ranked, dealt: list[Deal], nodes: int, deadline: float | None, clock: Clock
) -> SimStats | None:
    """Every candidate on every deal of ``dealt`` with ``nodes`` per endgame; ``None`` when the deadline
    passes first."""
    totals = [0.0] * len(ranked)
    squares = [0.0] * len(ranked)
    for deal in dealt:
        for index, (_, move, points) in enumerate(ranked):
            result = playout.run(move, points, deal, nodes, deadline, clock)
            if deadline is not None and clock() >= deadline:
                return None
            totals[index] += deal.weight * result
            squares[index] += deal.weight * result * result
    weight = sum(deal.weight for deal in dealt)
    moves = tuple(move.gcg() for _, move, _ in ranked)
    return SimStats(
        moves, len(dealt), (weight,) * len(ranked), tuple(totals), tuple(squares), (True,) * len(ranked)
    )


class _Playout:
    """Plays a candidate out on a deal to the end of the game (see the module docstring)."""

    def __init__(self, view: SeatView, generator: MoveSource, model: LeaveModel) -> None:
        self.variant = view.variant
        self.rack = view.rack
        self.board: Board = view.board
        self.generator = generator
        self.model = model
        self.limit = view.variant.scoreless_turn_limit(2)

    def run(
        self,
        move: Move,
        points: int,
        deal: Deal,
        nodes: int,
        deadline: float | None = None,
        clock: Clock = time.monotonic,
    ) -> float:
        """The spread from here to the end of the game after ``move`` (scoring ``points``) on ``deal``,
        the endgame searched ``nodes`` positions at most (and not past ``deadline``)."""
        board = self.board.copy()
        bag = list(deal.bag)
        racks = [self.rack, deal.opponent]
        spread = 0
        scoreless = 0
        turn = 0
        while True:
            sign = 1 if turn == 0 else -1
            if isinstance(move, Play):
                board.place(move.placements())
                racks[turn] = remove_tiles(racks[turn], move.rack_tiles())
                drawn = [bag.pop() for _ in range(min(len(move.rack_tiles()), len(bag)))]
                racks[turn] += "".join(drawn)
                spread += sign * points
                scoreless = 0
            else:
                scoreless += 1
            if not racks[turn] and not bag:  # went out
                return spread + sign * ENDGAME_RACK_FACTOR * self.variant.rack_value(racks[1 - turn])
            if scoreless >= self.limit:  # both lose what they hold
                return (
                    spread
                    - sign * self.variant.rack_value(racks[turn])
                    + sign * self.variant.rack_value(racks[1 - turn])
                )
            turn = 1 - turn
            if not bag:
                break
            best = self.generator.best(board, racks[turn], self.model)
            move, points = (best.play, best.score) if best is not None else (Pass(), 0)
        sign = 1 if turn == 0 else -1
        value = solve_endgame(
            board,
            racks[turn],
            racks[1 - turn],
            self.generator,
            scoreless=scoreless,
            deadline=deadline,
            clock=clock,
            max_nodes=nodes,
        )
        return float(spread + sign * value.value)
