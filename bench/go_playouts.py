"""Playouts a second of the Go AI's search: the native core, the pure-Python reference, and a baseline
copy of the code (e.g. the code before the tree search) in the same run.

    python bench/go_playouts.py [--sizes 9 19] [--seconds 1.0] [--reps 5] [--baseline DIR]

For each board size, from the empty board: ``playouts`` runs the search with a tree of one node (every
iteration a playout from the root, counted and tallied as the search does); ``tree`` is the whole
search (descent, expansion, playout, RAVE updates) from a new tree. Each figure is the median over
``--reps`` timed runs of about ``--seconds`` each, one core. With ``--baseline DIR`` (a copy of another
version, e.g. ``mkdir DIR && git archive main go_core | tar -x -C DIR``), the baseline's
``go_core.ai.playout`` (random playouts on :class:`go_core.Board`) is timed the same way in a
subprocess that imports ``go_core`` from ``DIR``. One line a size:

    size=<int> native_playouts_per_s=<float> python_playouts_per_s=<float>
    baseline_playouts_per_s=<float> native_tree_per_s=<float> python_tree_per_s=<float>
    native_vs_baseline=<ratio> native_vs_python=<ratio> load=<1-minute load average>

(``n/a`` where the extension is not built or no baseline is given).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from go_core import Game
from go_core.search import native_search, new_search, position_of

BASELINE = """
import random, statistics, sys, time
from go_core import Board, Color
from go_core.ai import playout
size, seconds, reps = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
rng, rates = random.Random(1), []
for _ in range(reps + 1):
    count, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        playout(Board(size), Color.BLACK, rng)
        count += 1
    rates.append(count / (time.perf_counter() - started))
print(statistics.median(rates[1:]))
"""


def rate(run: Callable[[int], None], seconds: float, reps: int) -> float:
    """The median of ``reps`` runs of playouts a second (after one untimed run), each about
    ``seconds`` long: ``run(n)`` runs ``n`` playouts."""
    batch = 1
    while True:
        started = time.perf_counter()
        run(batch)
        if time.perf_counter() - started > seconds / 20:
            break
        batch *= 2
    rates = []
    for _ in range(reps):
        count, started = 0, time.perf_counter()
        while time.perf_counter() - started < seconds:
            run(batch)
            count += batch
        rates.append(count / (time.perf_counter() - started))
    return statistics.median(rates)


def search_rate(size: int, *, native: bool, tree: bool, seconds: float, reps: int) -> float:
    """Playouts a second of a search on the empty ``size`` board (``tree``: the whole search, a new
    tree each run; else playouts from the root only)."""
    position = position_of(Game(size))

    def run(count: int) -> None:
        search = new_search(position, 1, native=native, max_nodes=1_000_000 if tree else 1)
        search.run(count)

    return rate(run, seconds, reps)


def baseline_rate(directory: Path, size: int, seconds: float, reps: int) -> float:
    """The baseline's playouts a second, timed in a subprocess importing ``go_core`` from
    ``directory``."""
    env = {**os.environ, "PYTHONPATH": str(directory.resolve())}
    answer = subprocess.run(
        [sys.executable, "-c", BASELINE, str(size), str(seconds), str(reps)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        cwd=directory,
    )
    return float(answer.stdout)


def main() -> None:
    """Parse the arguments, run the benchmark and print its lines."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[9, 19])
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--baseline", type=Path, help="a copy of another version's go_core to time")
    args = parser.parse_args()
    built = native_search() is not None
    for size in args.sizes:
        timing = {"seconds": args.seconds, "reps": args.reps}
        native = search_rate(size, native=True, tree=False, **timing) if built else None
        python = search_rate(size, native=False, tree=False, **timing)
        native_tree = search_rate(size, native=True, tree=True, **timing) if built else None
        python_tree = search_rate(size, native=False, tree=True, **timing)
        baseline = baseline_rate(args.baseline, size, args.seconds, args.reps) if args.baseline else None

        def shown(value: float | None) -> str:
            return "n/a" if value is None else f"{value:.0f}"

        def ratio(high: float | None, low: float | None) -> str:
            return "n/a" if high is None or low is None else f"{high / low:.1f}"

        print(
            f"size={size} native_playouts_per_s={shown(native)} python_playouts_per_s={shown(python)} "
            f"baseline_playouts_per_s={shown(baseline)} native_tree_per_s={shown(native_tree)} "
            f"python_tree_per_s={shown(python_tree)} native_vs_baseline={ratio(native, baseline)} "
            f"native_vs_python={ratio(native, python)} load={os.getloadavg()[0]:.2f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
