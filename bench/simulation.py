"""Simulation speed: the expert's simulation in the native core and in Python, and an older version of the
code, on the same positions in one run.

    python bench/simulation.py --positions 8 --seed 1 --iterations 200 [--baseline DIR] [--pure]

Position ``i`` is the view of the seat on turn after ``4 + 2 * (i % 8)`` moves of a ``hard`` vs
``hard`` game seeded ``f"{seed}-{i}"`` (ENABLE, the standard board; the bag never nearly empty, so
the midgame's candidates and two plies). Each code runs in a process of its own and simulates every
position for ``--iterations`` iterations (candidates pruned by statistics as the code does), timed in
CPU seconds of that process, after one untimed run on the first position. The codes:

- ``native``: this tree, the simulation in C (the default where the extension is built);
- ``python``: this tree, the simulation's pure-Python path with the native move generator behind it;
- ``pure`` (with ``--pure``): this tree with ``SCRABBLE_PURE_PYTHON=1``, everything in Python;
- ``baseline`` (with ``--baseline DIR``): the code in ``DIR`` (e.g. ``git archive main | tar -x -C DIR``
  with its extension built in place: ``python setup.py build_ext --inplace`` there), its simulation as
  it is.

Every code values leaves with the same model (``--leaves``, by default this tree's bundled one). An
iteration is one deal played out for every candidate still simulated; a playout is one candidate played
out on one deal (the unit of work: pruning makes later iterations cheaper). Prints one line per code:

    code=<name> iterations=<int> playouts=<int> cpu_s=<float> iterations_per_s=<float> playouts_per_s=<float>

then, with a baseline, the ratios of each code's rates to the baseline's, and ``load1`` (the one-minute
load average at the end).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:  # imported in the measuring process, from the code measured
    from scrabble_core.ai import MoveSource

ROOT = Path(__file__).resolve().parent.parent


def positions(count: int, seed: int) -> list[dict[str, object]]:
    """The seat views of the positions (see the module docstring), as data."""
    from scrabble_core.ai import Level, choose_move, seat_view
    from scrabble_core.game import Game
    from scrabble_core.lexicon import load_enable
    from scrabble_core.movegen import load_move_generator
    from scrabble_core.variant import get_variant

    lexicon = load_enable()
    generator = load_move_generator(lexicon)
    views = []
    for index in range(count):
        game = Game(
            get_variant("standard"), ["a", "b"], rng=random.Random(f"{seed}-{index}"), lexicon=lexicon
        )
        for _ in range(4 + 2 * (index % 8)):
            move = choose_move(seat_view(game, game.current), generator, Level.HARD, random.Random(0))
            game.push(game.current, move)
        views.append(seat_view(game, game.current).to_dict())
    return views


def measure(views: list[dict[str, object]], iterations: int, leaves: str, python: bool) -> dict[str, float]:
    """Simulate every view with the ``scrabble_core`` this process imports: iterations, playouts and CPU
    seconds. ``python``: through a plain move source (this tree's pure-Python path)."""
    from scrabble_core import simulation
    from scrabble_core.ai import SeatView
    from scrabble_core.leaves import load_leave_model
    from scrabble_core.lexicon import load_enable
    from scrabble_core.movegen import load_move_generator

    lexicon = load_enable()
    native = load_move_generator(lexicon)
    generator: MoveSource = native
    if python:  # this tree only: an older tree is measured on its native path
        from scrabble_core.ai_types import PlainSource

        generator = PlainSource(native)
    model = load_leave_model(Path(leaves))
    seat_views = [SeatView.from_dict(view) for view in views]
    playouts = [0]
    share = getattr(simulation, "simulate_share", None)
    if share is None:  # an older simulation: count its playouts where they run
        run = simulation._Playout.run

        def counted(self: simulation._Playout, *args: Any) -> float:
            playouts[0] += 1
            return run(self, *args)

        cast(Any, simulation._Playout).run = counted

    def simulate(view: SeatView, seed: int) -> int:
        if share is not None:
            stats = share(view, generator, model, seed, 0, max_iterations=iterations)
            playouts[0] += sum(stats.counts)
            return int(stats.iterations)
        return int(
            simulation.simulate(
                view, generator, model, random.Random(seed), max_iterations=iterations
            ).iterations
        )

    simulate(seat_views[0], 0)
    playouts[0] = 0
    total = 0
    started = time.process_time()
    for index, view in enumerate(seat_views):
        total += simulate(view, index + 1)
    seconds = time.process_time() - started
    return {"iterations": total, "playouts": playouts[0], "cpu_s": seconds}


def run_code(name: str, code: Path, args: argparse.Namespace, views_file: Path) -> dict[str, float]:
    """Measure one code in a process of its own (see :func:`worker`)."""
    environment = {**os.environ, "SCRABBLE_PURE_PYTHON": "1" if name == "pure" else "0"}
    command = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--worker",
        str(code),
        "--views",
        str(views_file),
        "--iterations",
        str(args.iterations),
        "--leaves",
        args.leaves,
    ]
    if name == "python":
        command.append("--python-path")
    output = subprocess.run(command, check=True, capture_output=True, text=True, env=environment).stdout
    return dict(json.loads(output.strip().splitlines()[-1]))


def worker(args: argparse.Namespace) -> None:
    """In the measuring process: import the code of ``--worker DIR`` and print its measurement as JSON."""
    sys.path.insert(0, args.worker)
    views = json.loads(Path(args.views).read_text(encoding="utf-8"))
    print(json.dumps(measure(views, args.iterations, args.leaves, args.python_path)))


def main() -> None:
    """Parse the command line, measure each code, print the lines described above."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--baseline", type=Path, help="also measure the code in this directory")
    parser.add_argument("--pure", action="store_true", help="also measure everything in pure Python")
    parser.add_argument("--leaves", default=str(ROOT / "assets" / "leaves" / "english.json"))
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--views", help=argparse.SUPPRESS)
    parser.add_argument("--python-path", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker is not None:
        worker(args)
        return
    sys.path.insert(0, str(ROOT))
    views_file = ROOT / "bench" / f".simulation-views-{os.getpid()}.json"
    views_file.write_text(json.dumps(positions(args.positions, args.seed)), encoding="utf-8")
    codes: list[tuple[str, Path]] = [("native", ROOT), ("python", ROOT)]
    if args.pure:
        codes.append(("pure", ROOT))
    if args.baseline is not None:
        codes.append(("baseline", args.baseline.resolve()))
    results: dict[str, dict[str, float]] = {}
    try:
        for name, code in codes:
            result = results[name] = run_code(name, code, args, views_file)
            print(
                f"code={name} iterations={result['iterations']:.0f} playouts={result['playouts']:.0f} "
                f"cpu_s={result['cpu_s']:.2f} iterations_per_s={result['iterations'] / result['cpu_s']:.1f} "
                f"playouts_per_s={result['playouts'] / result['cpu_s']:.1f}",
                flush=True,
            )
    finally:
        views_file.unlink()
    if "baseline" in results:
        base = results["baseline"]
        for name, result in results.items():
            if name != "baseline":
                ratio_i = (result["iterations"] / result["cpu_s"]) / (base["iterations"] / base["cpu_s"])
                ratio_p = (result["playouts"] / result["cpu_s"]) / (base["playouts"] / base["cpu_s"])
                print(f"ratio code={name} iterations_per_s={ratio_i:.2f} playouts_per_s={ratio_p:.2f}")
    print(f"load1={os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
