"""The ``expert`` level: which search plays a turn, and a turn split into shares for several processes.

Phases (two players): the bag empty, :func:`~scrabble_core.endgame.solve_endgame` (both racks are known);
1 to 6 tiles in the bag, :mod:`scrabble_core.pre_endgame` (every draw, the endgame solver at the end of
each playout); otherwise :mod:`scrabble_core.simulation`. More than two players: the static choice.

Time: :func:`expert_move` searches until the ``deadline`` it is given (the bot's per-turn budget,
``ai.expert_seconds``), or without one a fixed :class:`~scrabble_core.ai_types.ExpertBudget`.

Several processes: a turn splits into *shares* that search independently and whose results merge.
The host draws one seed for the turn, runs :func:`expert_share` for shares ``0`` to ``n - 1`` (one per
process, each with the same view, leave model (:func:`scrabble_core.equity.leave_model_for` the
variant), seed, ``n`` and deadline: :func:`time.monotonic` is the machine's clock, the same in every
process), and gives the :class:`ExpertShare` results to :func:`expert_merge`, which needs no move
generator. The simulation's and the pre-endgame's shares
search other deals and add up; the endgame is searched by share 0 alone (the others return at once).
One share (``n = 1``) is :func:`expert_move`'s own search: ``expert_merge([expert_share(view, ..., seed,
0, 1, deadline)])`` plays what ``expert_move`` plays when ``rng.getrandbits(64)`` gives ``seed``.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from scrabble_core.ai_types import DEFAULT_BUDGET, ExpertBudget, MoveSource, SeatView
from scrabble_core.endgame import solve_endgame
from scrabble_core.leaves import LeaveModel
from scrabble_core.move import Move, Pass, move_from_gcg
from scrabble_core.pre_endgame import pre_endgame_share
from scrabble_core.simulation import (
    MIN_ITERATIONS,
    PRE_ENDGAME_BAG,
    SimStats,
    merge_stats,
    simulate_share,
    simulation_result,
)

__all__ = [
    "ENDGAME",
    "PRE_ENDGAME",
    "SIMULATION",
    "ExpertShare",
    "expert_merge",
    "expert_move",
    "expert_share",
    "phase",
]

Clock = Callable[[], float]

SIMULATION: Final = "simulation"
PRE_ENDGAME: Final = "pre-endgame"
ENDGAME: Final = "endgame"


@dataclass(frozen=True, slots=True)
class ExpertShare:
    """What one share of an expert turn found (picklable: plain data).

    Attributes:
        phase: :data:`SIMULATION`, :data:`PRE_ENDGAME` or :data:`ENDGAME`.
        stats: the simulation's or the pre-endgame's statistics (``None`` for the endgame).
        move: the endgame's move in GCG (share 0; ``None`` for the other shares and phases).
    """

    phase: str
    stats: SimStats | None
    move: str | None


def phase(view: SeatView) -> str:
    """Which search plays ``view``'s turn (two players)."""
    if view.bag_size == 0:
        return ENDGAME
    return PRE_ENDGAME if view.bag_size <= PRE_ENDGAME_BAG else SIMULATION


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
    """The ``expert`` level's move for ``view`` (see the module docstring): one share, seeded with 64
    bits drawn from ``rng``. Without a deadline the search stops at ``budget``, so the choice is
    reproducible."""
    share = expert_share(
        view, generator, model, rng.getrandbits(64), 0, 1, deadline, clock=clock, budget=budget
    )
    return expert_merge([share])


def expert_share(
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
) -> ExpertShare:
    """Share ``share`` of ``shares`` of the expert's turn on ``view``, seeded ``seed`` (``0 <= seed <
    2**64``, the same for every share), searched until ``deadline`` or, without one, ``budget`` (see
    the module docstring).

    Raises:
        ValueError: ``share`` is not in ``range(shares)``.
    """
    if not 0 <= share < shares:
        raise ValueError(f"share {share} is not one of {shares}")
    current = phase(view) if view.players == 2 else SIMULATION  # the simulation's static choice
    if current == ENDGAME:
        if share:
            return ExpertShare(ENDGAME, None, None)
        result = solve_endgame(
            view.board,
            view.rack,
            view.unseen,
            generator,
            deadline=deadline,
            clock=clock,
            max_nodes=budget.endgame_nodes if deadline is None else None,
        )
        return ExpertShare(ENDGAME, None, result.move.gcg())
    if current == PRE_ENDGAME:
        stats = pre_endgame_share(
            view, generator, model, seed, share, shares, deadline, clock=clock, budget=budget
        )
        return ExpertShare(PRE_ENDGAME, stats, None)
    max_iterations = budget.iterations if deadline is None else None
    stats = simulate_share(
        view, generator, model, seed, share, deadline, clock=clock, max_iterations=max_iterations
    )
    return ExpertShare(SIMULATION, stats, None)


def expert_merge(parts: Sequence[ExpertShare]) -> Move:
    """The move the shares of one turn choose together (see the module docstring).

    Raises:
        ValueError: no shares, shares of different phases or candidates, or an endgame without share 0.
    """
    if not parts:
        raise ValueError("no shares to merge")
    phases = {part.phase for part in parts}
    if len(phases) != 1:
        raise ValueError(f"shares of different phases: {', '.join(sorted(phases))}")
    if parts[0].phase == ENDGAME:
        moves = [part.move for part in parts if part.move is not None]
        if not moves:
            raise ValueError("the endgame's shares lack share 0")
        return move_from_gcg(moves[0])
    stats = merge_stats([part.stats for part in parts if part.stats is not None])
    if not stats.moves:  # neither a play nor an exchange
        return Pass()
    return simulation_result(stats, 1 if parts[0].phase == PRE_ENDGAME else MIN_ITERATIONS).move
