"""Strength benchmark: two AI levels play each other on the standard board with ENABLE.

    python bench/selfplay.py --a hard --b greedy --games 500 --seed 1 [--jobs 2] [--leaves FILE]
    python bench/selfplay.py --a expert --b hard --games 200 --seed 1 --jobs 2 --time-per-turn 1
    python bench/selfplay.py --a expert --b hard --games 200 --seed 1 --sim-iterations 100 --endgame-nodes 2000
    python bench/selfplay.py --a hard --b hard --games 2000 --seed 1 --a-leaves NEW.json --b-leaves OLD.json
    python bench/selfplay.py --a expert --b expert --games 400 --seed 1 --jobs 2 --time-per-turn 1 --b-code DIR

Games come in pairs on the same bag order with the seats swapped (game ``i`` is seeded
``f"{seed}-{i // 2}"`` and ``a`` sits first when ``i`` is even), which cancels much of the luck of the
draw. Levels: ``easy``, ``medium``, ``hard``, ``greedy``, ``expert``; ``--time-per-turn`` gives every AI
turn a deadline that many seconds after it starts (``expert`` searches until it; without it ``expert``
runs a fixed budget: ``--sim-iterations`` simulation iterations, ``--endgame-nodes`` endgame positions,
the same work whatever the load on the machine; ``--pre-endgame-nodes`` endgame positions at the end of
each pre-endgame playout); ``--leaves`` plays both seats with another leave model file than the bundled
one, ``--a-leaves`` and ``--b-leaves`` one seat each. ``--b-code DIR`` plays ``b`` with the code in
``DIR`` (another version, e.g. ``git archive main | tar -x -C DIR`` with its extension built in place),
through ``bench/baseline_ai.py`` (one server process beside each worker; that code's bundled leaves
unless ``--b-leaves``; its own budget: ``--b-sim-iterations``, ``--b-endgame-nodes``, default the same
as ``a``'s). Prints a progress line every 10 games (whole pairs: the games so far, their win rate and
its Wilson interval, so a run stopped early still reports), one
line of details (points per turn, turns per game, exchanges and passes), then ends with one line:

    a=<level> b=<level> games=<int> a_win_rate=<float> ci95=<low>..<high> wilson95=<low>..<high>
    a_avg=<float> b_avg=<float>
    mean_spread=<float> sec_per_turn_a=<float> longest_turn_a=<float> games_per_s=<float> games_per_cpu_s=<float> load1=<float>

``a_win_rate`` counts a tie as half a win; ``ci95`` is the normal 95% interval of that mean, ``wilson95``
the Wilson score interval of the rate;
``a_avg``/``b_avg`` are average final scores, ``mean_spread`` the mean of ``a``'s score minus ``b``'s; ``sec_per_turn_a`` is the AI time per turn of ``a``, ``longest_turn_a`` its longest turn in seconds.
``games_per_s`` counts wall time once the workers have loaded the lexicon; ``games_per_cpu_s`` is games
per second of the workers' CPU time (one core's throughput, less distorted by other load on the
machine; with ``--b-code`` it leaves out the servers' CPU); ``load1`` is the one-minute load average at
the end.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scrabble_core.ai import DEFAULT_BUDGET, ExpertBudget, Level, MoveSource, SeatView, choose_move
from scrabble_core.leaves import LeaveModel, load_leave_model
from scrabble_core.lexicon import Lexicon, load_enable
from scrabble_core.move import Move, move_from_gcg
from scrabble_core.movegen import load_move_generator
from scrabble_core.selfplay import Mover, play_game
from scrabble_core.variant import get_variant


@dataclass(frozen=True, slots=True)
class Result:
    """One game from ``a``'s side: win (1, 0.5, 0), final scores, turns, points, AI seconds (in all and
    the longest turn), moves."""

    win: float
    a_score: int
    b_score: int
    a_turns: int
    b_turns: int
    a_points: int
    b_points: int
    a_seconds: float
    a_longest: float
    cpu_seconds: float
    exchanges: int
    passes: int


@dataclass(frozen=True, slots=True)
class Setup:
    """What every worker loads: the leave models of each seat (``None``: the bundled one) and the
    directory of ``b``'s code (``None``: this tree)."""

    a_leaves: str | None
    b_leaves: str | None
    b_code: str | None


@dataclass(slots=True)
class _Loaded:
    lexicon: Lexicon
    generator: MoveSource
    a_leaves: LeaveModel
    b_leaves: LeaveModel
    server: subprocess.Popen[str] | None


_LOADED: list[_Loaded] = []


def _init(setup: Setup) -> None:
    lexicon = load_enable()
    server = None
    if setup.b_code is not None:
        command = [sys.executable, str(Path(__file__).resolve().parent / "baseline_ai.py"), setup.b_code]
        server = subprocess.Popen(
            command + ([setup.b_leaves] if setup.b_leaves else []),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert server.stdout is not None
        if server.stdout.readline().strip() != "ready":
            raise RuntimeError(f"bench/baseline_ai.py did not start with {setup.b_code}")
    _LOADED.append(
        _Loaded(
            lexicon,
            load_move_generator(lexicon),
            load_leave_model(Path(setup.a_leaves) if setup.a_leaves else None),
            load_leave_model(Path(setup.b_leaves) if setup.b_leaves else None),
            server,
        )
    )


def _served(
    server: subprocess.Popen[str], level: Level, budget: ExpertBudget, time_per_turn: float | None
) -> Mover:
    """A mover that asks ``server`` (bench/baseline_ai.py) for its moves."""

    def move(view: SeatView, rng: random.Random, deadline: float | None) -> Move:
        assert server.stdin is not None and server.stdout is not None
        request = {
            "view": view.to_dict(),
            "level": level.value,
            "seed": rng.getrandbits(64),
            "seconds": time_per_turn,
            "iterations": budget.iterations,
            "endgame_nodes": budget.endgame_nodes,
        }
        server.stdin.write(json.dumps(request) + "\n")
        server.stdin.flush()
        return move_from_gcg(server.stdout.readline().strip())

    return move


def _with_leaves(generator: MoveSource, level: Level, model: LeaveModel, budget: ExpertBudget) -> Mover:
    """A mover playing ``level`` with the leave model ``model``."""

    def move(view: SeatView, rng: random.Random, deadline: float | None) -> Move:
        return choose_move(view, generator, level, rng, deadline, leaves=model, budget=budget)

    return move


def play(task: tuple[str, str, str, int, float | None, ExpertBudget, ExpertBudget]) -> Result:
    """Play game ``index`` of the run seeded ``seed`` between levels ``a`` and ``b``, each AI turn given
    ``time_per_turn`` seconds when not ``None``, else ``expert`` searching ``budget`` (``b_budget`` for
    ``b``; after :func:`_init`)."""
    a, b, seed, index, time_per_turn, budget, b_budget = task
    cpu_started = time.process_time()
    loaded = _LOADED[0]
    a_seat = index % 2
    levels = [Level(a), Level(b)] if a_seat == 0 else [Level(b), Level(a)]
    a_mover = _with_leaves(loaded.generator, Level(a), loaded.a_leaves, budget)
    b_mover = (
        _served(loaded.server, Level(b), b_budget, time_per_turn)
        if loaded.server is not None
        else _with_leaves(loaded.generator, Level(b), loaded.b_leaves, b_budget)
    )
    record = play_game(
        get_variant("standard"),
        loaded.lexicon,
        loaded.generator,
        levels,
        f"{seed}-{index // 2}",
        time_per_turn=time_per_turn,
        budget=budget,
        movers=[a_mover, b_mover] if a_seat == 0 else [b_mover, a_mover],
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
        a_longest=max((t.seconds for t in a_turns), default=0.0),
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
    parser.add_argument("--leaves", help="leave model file of both seats (default: the bundled one)")
    parser.add_argument("--a-leaves", help="leave model file of a")
    parser.add_argument("--b-leaves", help="leave model file of b")
    parser.add_argument("--b-code", help="play b with the code in this directory (bench/baseline_ai.py)")
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
    parser.add_argument(
        "--pre-endgame-nodes",
        type=int,
        default=DEFAULT_BUDGET.pre_endgame_nodes,
        help=f"expert's endgame positions per pre-endgame playout (default {DEFAULT_BUDGET.pre_endgame_nodes})",
    )
    parser.add_argument("--b-sim-iterations", type=int, help="b's simulation iterations (default: a's)")
    parser.add_argument("--b-endgame-nodes", type=int, help="b's endgame positions (default: a's)")
    args = parser.parse_args()
    budget = ExpertBudget(args.sim_iterations, args.endgame_nodes, args.pre_endgame_nodes)
    b_budget = ExpertBudget(
        args.b_sim_iterations if args.b_sim_iterations is not None else args.sim_iterations,
        args.b_endgame_nodes if args.b_endgame_nodes is not None else args.endgame_nodes,
        args.pre_endgame_nodes,
    )
    setup = Setup(args.a_leaves or args.leaves, args.b_leaves or args.leaves, args.b_code)
    tasks = [
        (args.a, args.b, str(args.seed), i, args.time_per_turn, budget, b_budget) for i in range(args.games)
    ]
    results: list[Result] = []
    if args.jobs <= 1:
        _init(setup)
        started = time.perf_counter()
        for task in tasks:
            results.append(play(task))
            _progress(results, started)
    else:
        with multiprocessing.get_context("spawn").Pool(args.jobs, _init, (setup,)) as pool:
            pool.map(_ready, range(args.jobs), chunksize=1)  # the workers have loaded the lexicon
            started = time.perf_counter()
            for result in pool.imap(play, tasks):
                results.append(result)
                _progress(results, started)
    elapsed = time.perf_counter() - started
    _summary(args.a, args.b, results, elapsed)


PROGRESS_EVERY = 10


def _progress(results: list[Result], started: float) -> None:
    if len(results) % PROGRESS_EVERY == 0:
        rate = statistics.fmean(r.win for r in results)
        print(
            f"{len(results)} games a_win_rate={rate:.3f} wilson95={_wilson(rate, len(results))} "
            f"{time.perf_counter() - started:.0f} s load1={os.getloadavg()[0]:.2f}",
            flush=True,
        )


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
        f"longest_turn_a={max(r.a_longest for r in results):.2f} "
        f"games_per_s={games / elapsed:.3f} "
        f"games_per_cpu_s={games / sum(r.cpu_seconds for r in results):.3f} "
        f"load1={os.getloadavg()[0]:.2f}"
    )


if __name__ == "__main__":
    main()
