"""Strength benchmark: two AI levels play each other on the standard board with ENABLE.

    python bench/selfplay.py --a hard --b greedy --games 500 --seed 1 [--jobs 2] [--leaves FILE]
    python bench/selfplay.py --a expert --b hard --games 200 --seed 1 --jobs 2 --time-per-turn 1
    python bench/selfplay.py --a expert --b hard --games 200 --seed 1 --sim-iterations 100 --endgame-nodes 2000

Games come in pairs on the same bag order with the seats swapped (game ``i`` is seeded
``f"{seed}-{i // 2}"`` and ``a`` sits first when ``i`` is even), which cancels much of the luck of the
draw. Levels: ``easy``, ``medium``, ``hard``, ``greedy``, ``expert``; ``--time-per-turn`` gives every AI
turn a deadline that many seconds after it starts (``expert`` searches until it; without it ``expert``
runs a fixed budget: ``--sim-iterations`` simulation iterations, ``--endgame-nodes`` endgame positions,
the same work whatever the load on the machine); ``--leaves`` plays both seats with another leave
model file than the bundled one. Prints a progress line every 50 games, one
line of details (points per turn, turns per game, exchanges and passes), then ends with one line:

    a=<level> b=<level> games=<int> a_win_rate=<float> ci95=<low>..<high> wilson95=<low>..<high>
    a_avg=<float> b_avg=<float>
    mean_spread=<float> sec_per_turn_a=<float> games_per_s=<float> games_per_cpu_s=<float> load1=<float>

``a_win_rate`` counts a tie as half a win; ``ci95`` is the normal 95% interval of that mean, ``wilson95``
the Wilson score interval of the rate;
``a_avg``/``b_avg`` are average final scores, ``mean_spread`` the mean of ``a``'s score minus ``b``'s; ``sec_per_turn_a`` is the AI time per turn of ``a``.
``games_per_s`` counts wall time once the workers have loaded the lexicon; ``games_per_cpu_s`` is games
per second of the workers' CPU time (one core's throughput, less distorted by other load on the
machine); ``load1`` is the one-minute load average at the end.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scrabble_core.ai import DEFAULT_BUDGET, ExpertBudget, Level, MoveSource
from scrabble_core.leaves import LeaveModel, load_leave_model
from scrabble_core.lexicon import Lexicon, load_enable
from scrabble_core.movegen import load_move_generator
from scrabble_core.selfplay import play_game
from scrabble_core.variant import get_variant


@dataclass(frozen=True, slots=True)
class Result:
    """One game from ``a``'s side: win (1, 0.5, 0), final scores, turns, points, AI seconds, moves."""

    win: float
    a_score: int
    b_score: int
    a_turns: int
    b_turns: int
    a_points: int
    b_points: int
    a_seconds: float
    cpu_seconds: float
    exchanges: int
    passes: int


_LOADED: list[tuple[Lexicon, MoveSource, LeaveModel]] = []


def _init(leaves: str | None) -> None:
    lexicon = load_enable()
    model = load_leave_model(Path(leaves) if leaves else None)
    _LOADED.append((lexicon, load_move_generator(lexicon), model))


def play(task: tuple[str, str, str, int, float | None, ExpertBudget]) -> Result:
    """Play game ``index`` of the run seeded ``seed`` between levels ``a`` and ``b``, each AI turn given
    ``time_per_turn`` seconds when not ``None``, else ``expert`` searching ``budget`` (after
    :func:`_init`)."""
    a, b, seed, index, time_per_turn, budget = task
    cpu_started = time.process_time()
    lexicon, generator, leaves = _LOADED[0]
    a_seat = index % 2
    levels = [Level(a), Level(b)] if a_seat == 0 else [Level(b), Level(a)]
    record = play_game(
        get_variant("standard"),
        lexicon,
        generator,
        levels,
        f"{seed}-{index // 2}",
        leaves=leaves,
        time_per_turn=time_per_turn,
        budget=budget,
    )
    b_seat = 1 - a_seat
    a_turns = [t for t in record.turns if t.seat == a_seat]
    b_turns = [t for t in record.turns if t.seat == b_seat]
    a_score, b_score = record.scores[a_seat], record.scores[b_seat]
    return Result(
        win=1.0 if a_score > b_score else 0.5 if a_score == b_score else 0.0,
        a_score=a_score,
        b_score=b_score,
        a_turns=len(a_turns),
        b_turns=len(b_turns),
        a_points=sum(t.score for t in a_turns),
        b_points=sum(t.score for t in b_turns),
        a_seconds=sum(t.seconds for t in a_turns),
        cpu_seconds=time.process_time() - cpu_started,
        exchanges=sum(t.move.startswith("-") and t.move != "-" for t in record.turns),
        passes=sum(t.move == "-" for t in record.turns),
    )


def _ready(_: int) -> None:
    """Nothing: a task that returns once a worker has run :func:`_init`."""


def main() -> None:
    """Parse the command line, play the games, print the summary line."""
    levels = [level.value for level in Level]
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", choices=levels, required=True)
    parser.add_argument("--b", choices=levels, required=True)
    parser.add_argument("--games", type=int, required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--leaves", help="leave model file (default: the bundled one)")
    parser.add_argument("--time-per-turn", type=float, help="seconds per AI turn (default: no deadline)")
    parser.add_argument(
        "--sim-iterations",
        type=int,
        default=DEFAULT_BUDGET.iterations,
        help=f"expert's simulation iterations per turn without --time-per-turn (default {DEFAULT_BUDGET.iterations})",
    )
    parser.add_argument(
        "--endgame-nodes",
        type=int,
        default=DEFAULT_BUDGET.endgame_nodes,
        help=f"expert's endgame positions per turn without --time-per-turn (default {DEFAULT_BUDGET.endgame_nodes})",
    )
    args = parser.parse_args()
    budget = ExpertBudget(args.sim_iterations, args.endgame_nodes)
    tasks = [(args.a, args.b, str(args.seed), i, args.time_per_turn, budget) for i in range(args.games)]
    results: list[Result] = []
    if args.jobs <= 1:
        _init(args.leaves)
        started = time.perf_counter()
        for task in tasks:
            results.append(play(task))
            _progress(results, started)
    else:
        with multiprocessing.get_context("spawn").Pool(args.jobs, _init, (args.leaves,)) as pool:
            pool.map(_ready, range(args.jobs), chunksize=1)  # the workers have loaded the lexicon
            started = time.perf_counter()
            for result in pool.imap(play, tasks):
                results.append(result)
                _progress(results, started)
    elapsed = time.perf_counter() - started
    _summary(args.a, args.b, results, elapsed)


def _progress(results: list[Result], started: float) -> None:
    if len(results) % 50 == 0:
        rate = statistics.fmean(r.win for r in results)
        print(f"{len(results)} games a_win_rate={rate:.3f} {time.perf_counter() - started:.0f} s", flush=True)


def _wilson(rate: float, games: int) -> str:
    """The Wilson score 95% interval of a win rate over ``games`` games, as ``low..high``."""
    z = 1.96
    centre = (rate + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return f"{centre - half:.3f}..{centre + half:.3f}"


def _summary(a: str, b: str, results: list[Result], elapsed: float) -> None:
    wins = [r.win for r in results]
    games = len(results)
    rate = statistics.fmean(wins)
    half = 1.96 * statistics.stdev(wins) / games**0.5 if games > 1 else 0.5
    a_turns = sum(r.a_turns for r in results)
    b_turns = sum(r.b_turns for r in results)
    print(
        f"a_pts_per_turn={sum(r.a_points for r in results) / a_turns:.2f} "
        f"b_pts_per_turn={sum(r.b_points for r in results) / b_turns:.2f} "
        f"turns_per_game={(a_turns + b_turns) / games:.1f} "
        f"exchanges_per_game={sum(r.exchanges for r in results) / games:.2f} "
        f"passes_per_game={sum(r.passes for r in results) / games:.2f}"
    )
    print(
        f"a={a} b={b} games={games} a_win_rate={rate:.3f} "
        f"ci95={max(rate - half, 0.0):.3f}..{min(rate + half, 1.0):.3f} "
        f"wilson95={_wilson(rate, games)} "
        f"a_avg={statistics.fmean(r.a_score for r in results):.1f} "
        f"b_avg={statistics.fmean(r.b_score for r in results):.1f} "
        f"mean_spread={statistics.fmean(r.a_score - r.b_score for r in results):.1f} "
        f"sec_per_turn_a={sum(r.a_seconds for r in results) / a_turns:.4f} "
        f"games_per_s={games / elapsed:.3f} "
        f"games_per_cpu_s={games / sum(r.cpu_seconds for r in results):.3f} "
        f"load1={os.getloadavg()[0]:.2f}"
    )


if __name__ == "__main__":
    main()
