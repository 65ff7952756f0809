"""The ``expert`` level's simulation: the best candidates played out a few turns ahead on random draws.

Candidates (:func:`candidates`): the plays of highest static equity (score plus leave, what ``hard``
plays) and the best exchanges. Each *iteration* deals the tiles the seat cannot see
(:attr:`SeatView.unseen <scrabble_core.ai_types.SeatView.unseen>`: never the real rack or bag) into a
rack for the opponent and a bag order, then plays every candidate on that same deal, followed by
``plies`` turns of static play (the opponent's reply, our next move, ...; each the ``hard`` choice for
the rack it holds, :meth:`~scrabble_core.movegen.MoveGenerator.best` with the leave model). A
candidate's *result* is the spread over those turns plus, at the horizon, the leave value of the tiles
our last move kept minus that of the tiles the opponent's last move kept (the tiles drawn after them
are the average draw leave values are measured against); with the bag empty the endgame rule instead,
and going out ends the playout with its bonus. The candidate of best mean result is played (the deals
are the same for every candidate, so their differences are paired; among equal means, the higher
static equity).

Pruning: from :data:`PRUNE_AFTER` iterations on, candidates the leader (best sum so far) beats by
:data:`PRUNE_CONFIDENCE` standard errors of the paired differences are dropped, so the time goes to
the close ones; when one is left, the simulation stops. The statistics are running sums (of each
candidate's results, and of the products of the results of each pair), so an iteration costs the same
however many came before.

Time: iterations stop at the deadline (an iteration is not started when the last one's duration would
overrun it) or at ``max_iterations``; below :data:`MIN_ITERATIONS` the static choice stands, so the
expert is never worse than ``hard`` for lack of time. Without a deadline the work is fixed by an
:class:`~scrabble_core.ai_types.ExpertBudget`, so self-play measures strength the same on a loaded
machine.

Draws: the deals come from :class:`~scrabble_core.draws.Draws` seeded from the ``rng`` passed in, one
shuffle of the unseen tiles per iteration. When the opponent's last play says something about the
tiles they kept (:mod:`scrabble_core.inference`), each deal first gives them one of the inferred
leaves, drawn by weight, and shuffles the rest. Shares: a simulation splits into *shares* that draw
unrelated streams from one seed (:func:`simulate_share`, e.g. one per process) and whose statistics
add up (:func:`merge_stats`); :func:`simulation_result` decides on the merged statistics alone. A
candidate is then chosen among those still simulated at the end of some share, by mean.

Native core: where the move generator runs in the native core, a share runs in C (``_simulate.c``)
with the same draws, the same playouts and the same arithmetic in the same order, so both give the
same statistics, bit for bit, from the same seed (``SCRABBLE_PURE_PYTHON=1`` forces Python).

The expert plays by :mod:`scrabble_core.expert`: this simulation in the midgame, the pre-endgame and
the endgame solver later. For the analysis of a position with 1-6 tiles in the bag, this simulation
takes more candidates and plays them out to the end of the game (:data:`PRE_ENDGAME_PLIES`). Games
of more than two players get the static choice.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from scrabble_core.ai_types import DEFAULT_BUDGET, Candidate, MoveSource, SeatView
from scrabble_core.board import Board
from scrabble_core.draws import Draws, share_seed
from scrabble_core.equity import ENDGAME_RACK_FACTOR, exchange_options, move_equity
from scrabble_core.inference import Inference, infer
from scrabble_core.leaves import LeaveModel
from scrabble_core.move import Exchange, Move, Pass, Play, move_from_gcg
from scrabble_core.movegen import MoveGenerator, NativeBoard
from scrabble_core.squares import Square
from scrabble_core.validation import remove_tiles

__all__ = [
    "CANDIDATES",
    "MIN_ITERATIONS",
    "PRUNE_AFTER",
    "PRUNE_CONFIDENCE",
    "SimResult",
    "SimStats",
    "candidates",
    "merge_stats",
    "simulate",
    "simulate_share",
    "simulation_result",
]

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

INFERENCE_STREAM: Final = 1 << 32
"""The share number whose stream seeds a share's inference (no share draws its deals from it)."""

Clock = Callable[[], float]
_T = TypeVar("_T")
Ranked = tuple[tuple[float, Move, int], ...]
"""Candidates as ``(static equity, move, points)``, best first."""


@dataclass(frozen=True, slots=True)
class SimResult:
    """What :func:`simulate` found: the move to make, the static choice, the iterations run and the
    mean result of each candidate simulated (move, mean), best first."""

    move: Move
    static: Move
    iterations: int
    means: tuple[tuple[Move, float], ...]


@dataclass(frozen=True, slots=True)
class SimStats:
    """The statistics of one or more shares of a simulation (:func:`merge_stats` adds them up).

    Attributes:
        moves: the candidates simulated (GCG), best static equity first.
        iterations: iterations run, over every share.
        counts: for each candidate, the iterations it was played out in.
        sums: for each candidate, the sum of its results.
        squares: for each candidate, the sum of the squares of its results.
        active: for each candidate, whether some share still simulated it at its end.
    """

    moves: tuple[str, ...]
    iterations: int
    counts: tuple[int, ...]
    sums: tuple[float, ...]
    squares: tuple[float, ...]
    active: tuple[bool, ...]

    def to_dict(self) -> dict[str, object]:
        """The statistics as plain data (JSON), for :meth:`from_dict` in another process: the sums
        are floats, which JSON carries exactly."""
        return {
            "moves": list(self.moves),
            "iterations": self.iterations,
            "counts": list(self.counts),
            "sums": list(self.sums),
            "squares": list(self.squares),
            "active": list(self.active),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SimStats:
        """The statistics :meth:`to_dict` gave, equal to them.

        Raises:
            KeyError, TypeError, ValueError: ``data`` is not statistics' (a field missing or of the
                wrong type, a negative count, a sum that is not finite, or lists of other lengths than
                the candidates').
        """
        moves = tuple(_exact(move, str, "a candidate") for move in data["moves"])
        iterations = _exact(data["iterations"], int, "the iterations")
        counts = tuple(_exact(count, int, "a count") for count in data["counts"])
        sums = tuple(_exact(total, float, "a sum") for total in data["sums"])
        squares = tuple(_exact(total, float, "a sum of squares") for total in data["squares"])
        active = tuple(_exact(alive, bool, "an active flag") for alive in data["active"])
        if any(len(column) != len(moves) for column in (counts, sums, squares, active)):
            raise ValueError(f"simulation statistics of {len(moves)} candidates need {len(moves)} of each")
        if iterations < 0 or any(count < 0 for count in counts):
            raise ValueError("simulation statistics cannot count below zero")
        if not all(math.isfinite(total) for total in (*sums, *squares)):
            raise ValueError("simulation statistics have finite sums")
        return cls(moves, iterations, counts, sums, squares, active)


def _exact(value: object, kind: type[_T], name: str) -> _T:
    """``value``, checked to be exactly of ``kind`` (as JSON gives it: a bool is no int, an int no
    float).

    Raises:
        TypeError: it is not.
    """
    if type(value) is not kind or not isinstance(value, kind):
        raise TypeError(f"{name} of simulation statistics is {type(value).__name__}, not {kind.__name__}")
    return value


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
    :data:`DEFAULT_BUDGET`. One share, seeded with 64 bits drawn from ``rng``.

    Reads only ``view`` and draws from ``rng``: where the hidden tiles really are cannot change the
    result. Never returns a move worse than the static choice for lack of iterations (see
    :data:`MIN_ITERATIONS`).
    """
    ranked, plies = _plan(view, generator, model)
    if not ranked:
        return SimResult(Pass(), Pass(), 0, ())
    static = ranked[0][1]
    if len(ranked) == 1 or view.players != 2:
        return SimResult(static, static, 0, ())
    if deadline is None and max_iterations is None:
        max_iterations = DEFAULT_BUDGET.iterations
    seed = rng.getrandbits(64)
    stats = _run_share(
        view, generator, model, ranked, plies, share_seed(seed, 0), deadline, clock, max_iterations
    )
    return simulation_result(stats)


def simulate_share(
    view: SeatView,
    generator: MoveSource,
    model: LeaveModel,
    seed: int,
    share: int,
    deadline: float | None = None,
    *,
    clock: Clock = time.monotonic,
    max_iterations: int | None = None,
) -> SimStats:
    """Share ``share`` (0, 1, ...) of the simulation of ``view`` seeded ``seed`` (``0 <= seed < 2**64``),
    run until ``deadline`` or ``max_iterations`` as :func:`simulate` runs its one share: the shares of
    one seed draw unrelated deals, and :func:`merge_stats` adds their statistics up. Share 0 of seed
    ``s`` is what :func:`simulate` runs when ``rng.getrandbits(64)`` gives ``s``. With fewer than two
    candidates or more than two players there is nothing to simulate: no iterations.

    Raises:
        ValueError: neither ``deadline`` nor ``max_iterations`` is given.
    """
    if deadline is None and max_iterations is None:
        raise ValueError("a share needs a deadline or a number of iterations")
    ranked, plies = _plan(view, generator, model)
    if len(ranked) < 2 or view.players != 2:
        return _stats(ranked, 0, [0] * len(ranked), [0.0] * len(ranked), [0.0] * len(ranked), [])
    return _run_share(
        view, generator, model, ranked, plies, share_seed(seed, share), deadline, clock, max_iterations
    )


def merge_stats(parts: Sequence[SimStats]) -> SimStats:
    """The statistics of the shares ``parts`` together.

    Raises:
        ValueError: no shares, or shares that simulated other candidates (another position).
    """
    if not parts:
        raise ValueError("no shares to merge")
    moves = parts[0].moves
    if any(part.moves != moves for part in parts):
        raise ValueError("the shares simulated different candidates")
    return SimStats(
        moves,
        sum(part.iterations for part in parts),
        tuple(map(sum, zip(*(part.counts for part in parts), strict=True))),
        tuple(map(math.fsum, zip(*(part.sums for part in parts), strict=True))),
        tuple(map(math.fsum, zip(*(part.squares for part in parts), strict=True))),
        tuple(map(any, zip(*(part.active for part in parts), strict=True))),
    )


def simulation_result(stats: SimStats, min_iterations: int = MIN_ITERATIONS) -> SimResult:
    """The move ``stats`` choose: the best mean among the candidates still simulated in some share (the
    higher static equity among equals: the earlier candidate); the static choice (the first candidate)
    below ``min_iterations`` iterations. Reads nothing but ``stats``, so shares run elsewhere (other
    processes) are decided where they are merged.

    Raises:
        ValueError: ``stats`` have no candidate.
    """
    if not stats.moves:
        raise ValueError("statistics without candidates")
    moves = [move_from_gcg(move) for move in stats.moves]
    static = moves[0]
    if stats.iterations < min_iterations or not any(stats.counts):
        return SimResult(static, static, stats.iterations, ())
    mean = [
        total / count if count else -math.inf for total, count in zip(stats.sums, stats.counts, strict=True)
    ]
    means = sorted(
        ((move, mean[index]) for index, move in enumerate(moves) if stats.counts[index]),
        key=lambda item: (-item[1], str(item[0])),
    )
    best = max(
        (index for index, alive in enumerate(stats.active) if alive and stats.counts[index]),
        key=lambda index: (mean[index], -index),
    )
    return SimResult(moves[best], static, stats.iterations, tuple(means))


def _plan(view: SeatView, generator: MoveSource, model: LeaveModel) -> tuple[Ranked, int]:
    """The candidates of ``view`` and the turns played after each."""
    pre_endgame = 0 < view.bag_size <= PRE_ENDGAME_BAG
    ranked = candidates(view, generator, model, PRE_ENDGAME_CANDIDATES if pre_endgame else CANDIDATES)
    return tuple(ranked), PRE_ENDGAME_PLIES if pre_endgame else PLIES


def _stats(
    ranked: Ranked,
    iterations: int,
    counts: Sequence[int],
    sums: Sequence[float],
    squares: Sequence[float],
    active: Sequence[int],
) -> SimStats:
    alive = set(active)
    return SimStats(
        tuple(move.gcg() for _, move, _ in ranked),
        iterations,
        tuple(counts),
        tuple(sums),
        tuple(squares),
        tuple(index in alive for index in range(len(ranked))),
    )


def _run_share(
    view: SeatView,
    generator: MoveSource,
    model: LeaveModel,
    ranked: Ranked,
    plies: int,
    seed: int,
    deadline: float | None,
    clock: Clock,
    max_iterations: int | None,
) -> SimStats:
    """One share's iterations (see the module docstring), in the native core where the generator's
    searches run there."""
    inferred = infer(
        view, generator, model, share_seed(seed, INFERENCE_STREAM), deadline=deadline, clock=clock
    )
    native = generator.native_board(view.board) if isinstance(generator, MoveGenerator) else None
    if native is not None and len(view.rack) <= _NATIVE_MAX_RACK:
        return _native_share(
            native, view, model, ranked, plies, seed, deadline, clock, max_iterations, inferred
        )
    playout = _Playout(view, generator, model, plies)
    count = len(ranked)
    counts = [0] * count
    sums = [0.0] * count
    products = [[0.0] * count for _ in range(count)]  # [i][j], i <= j: the sum of the products of results
    active = list(range(count))
    draws = Draws(seed)
    iterations = 0
    last = 0.0
    while max_iterations is None or iterations < max_iterations:
        started = clock()
        if deadline is not None and started + last >= deadline:
            break
        tiles = _deal(view.unseen, draws, inferred)
        results = [playout.run(ranked[index][1], ranked[index][2], tiles) for index in active]
        for position, index in enumerate(active):
            result = results[position]
            counts[index] += 1
            sums[index] += result
            row = products[index]
            for other in range(position, len(active)):
                row[active[other]] += result * results[other]
        iterations += 1
        if iterations >= PRUNE_AFTER:
            active = _survivors(sums, products, active, iterations)
        last = clock() - started
        if len(active) == 1:  # every other candidate is clearly worse
            break
    squares = [products[index][index] for index in range(count)]
    return _stats(ranked, iterations, counts, sums, squares, active)


def _deal(unseen: str, draws: Draws, inferred: Inference | None) -> list[str]:
    """The unseen tiles of one iteration, the opponent's rack first: shuffled; with an inference, a
    leave drawn by weight first, then the other tiles shuffled. ``_simulate.c`` deals the same."""
    tiles = list(unseen)
    if inferred is None:
        draws.shuffle(tiles)
        return tiles
    pick = draws.below(sum(inferred.weights))
    index = 0
    while pick >= inferred.weights[index]:
        pick -= inferred.weights[index]
        index += 1
    leave = inferred.leaves[index]
    for tile in leave:
        tiles.remove(tile)
    draws.shuffle(tiles)
    return [*leave, *tiles]


def _survivors(
    sums: list[float], products: list[list[float]], active: list[int], iterations: int
) -> list[int]:
    """The candidates of ``active`` still worth simulating: the leader (best sum so far, the higher
    static rank among equals) and those it does not beat by :data:`PRUNE_CONFIDENCE` standard errors
    of the paired differences. ``_simulate.c`` decides the same way, with the same operations."""
    leader = max(active, key=lambda index: (sums[index], -index))
    kept = []
    for index in active:
        if index != leader:
            low, high = min(leader, index), max(leader, index)
            total = sums[leader] - sums[index]
            squares = products[leader][leader] - 2 * products[low][high] + products[index][index]
            mean = total / iterations
            spread = max((squares - total * mean) / (iterations - 1), 0.0)
            if mean > PRUNE_CONFIDENCE * math.sqrt(spread / iterations):
                continue
        kept.append(index)
    return kept


_NATIVE_MAX_RACK: Final = 64
_PLAY, _EXCHANGE = 1, 2
_NO_LIMIT: Final = -1


def _native_share(
    native: NativeBoard,
    view: SeatView,
    model: LeaveModel,
    ranked: Ranked,
    plies: int,
    seed: int,
    deadline: float | None,
    clock: Clock,
    max_iterations: int | None,
    inferred: Inference | None,
) -> SimStats:
    """:func:`_run_share` in the native core (``_simulate.c``)."""
    from scrabble_core._movegen import simulate as native_simulate  # the extension, present here

    cols = view.variant.cols
    specs: list[tuple[int, int, bytes]] = []
    for _, move, points in ranked:
        if isinstance(move, Play):
            specs.append(
                (
                    _PLAY,
                    points,
                    bytes(
                        code
                        for (row, col), tile in move.placements()
                        for code in _placed(native, row * cols + col, tile)
                    ),
                )
            )
        elif isinstance(move, Exchange):
            specs.append((_EXCHANGE, 0, native.tiles(move.tiles)))
        else:
            specs.append((0, 0, b""))
    iterations, counts, sums, squares, active = native_simulate(
        native.graph,
        native.geometry,
        native.squares,
        model.native_table,
        native.tiles(view.rack),
        native.tiles(view.unseen),
        _opponent_tiles(view),
        specs,
        plies,
        seed,
        _NO_LIMIT if max_iterations is None else max_iterations,
        deadline,
        clock,
        PRUNE_AFTER,
        PRUNE_CONFIDENCE,
        [] if inferred is None else [native.tiles(leave) for leave in inferred.leaves],
        [] if inferred is None else list(inferred.weights),
    )
    return _stats(ranked, iterations, counts, sums, squares, active)


def _opponent_tiles(view: SeatView) -> int:
    """How many of the unseen tiles the opponent holds (the rest are the bag's)."""
    return min(max(len(view.unseen) - view.bag_size, 0), len(view.unseen))


def _placed(native: NativeBoard, square: int, tile: str) -> tuple[int, int, int]:
    """A new tile of a play for the native core: its square (two bytes) and its code (a blank's letter
    plus 64)."""
    code = native.codes[tile.upper()] + (64 if tile.islower() else 0)
    return square >> 8, square & 0xFF, code


class _Playout:
    """Plays one candidate and the turns after it on a working board, restoring it afterwards."""

    def __init__(self, view: SeatView, generator: MoveSource, model: LeaveModel, plies: int) -> None:
        self.variant = view.variant
        self.rack = view.rack
        self.board: Board = view.board.copy()
        self.generator = generator
        self.model = model
        self.plies = plies
        self.opponent = _opponent_tiles(view)

    def run(self, move: Move, points: int, tiles: Sequence[str]) -> float:
        """The result of ``move`` (scoring ``points``) followed by ``plies`` static turns, the opponent
        holding the first tiles of ``tiles`` (as many as they hold) and the bag drawing the rest from
        the end: the spread of the points, plus at the horizon what each side's last leave is worth to
        it (see :meth:`_horizon`), or the end-of-game bonus when a side goes out."""
        bag = list(tiles[self.opponent :])
        racks = [self.rack, "".join(tiles[: self.opponent])]
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
