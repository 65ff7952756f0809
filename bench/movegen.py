"""Benchmark of the move generator: full generation, best-move-only search and hints, warm.

    python bench/movegen.py --board FILE --rack RACK [--reps N] [--lexicon PATH] [--variant NAME]
                            [--hints N] [--cold] [--verbose]

loads the lexicon and the move generator once (through the usual cache directory), runs each search
once untimed, then prints the medians over N timed runs (default 21) of the native core and of the
pure-Python search, and how many times faster the native one is, on one line:

    moves=<int> native_full_median_ms=<float> python_full_median_ms=<float> full_ratio=<float>
    native_best_median_ms=<float> python_best_median_ms=<float> best_ratio=<float>

(``native_*=n/a`` when the extension is not built). ``full`` is :meth:`MoveGenerator.generate` (every
move, as objects, sorted); ``best`` is :meth:`MoveGenerator.best` (highest score, no list). ``--hints N`` adds a line with the median of
:func:`scrabble_core.hints.hints` for the top N moves:

    hints_median_ms=<float> top=<int>

Warm means the generator's caches hold the board's analysis, as when several searches run on one
position; ``--cold`` clears them before every timed run, so each run also analyses the board and
computes its cross-word masks. ``--verbose`` prints the load times of the lexicon and of the generator
on stderr.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scrabble_core.board import Board
from scrabble_core.hints import hints
from scrabble_core.lexicon import load_lexicon
from scrabble_core.movegen import MoveGenerator, load_move_generator
from scrabble_core.variant import get_variant, load_variant


def _median_ms(run: Callable[[], object], reps: int, before: Callable[[], None]) -> float:
    """Median wall time of ``run`` over ``reps`` runs after one untimed run; ``before`` runs untimed
    before each."""
    before()
    run()
    times = []
    for _ in range(reps):
        before()
        started = time.perf_counter()
        run()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def main() -> None:
    """Parse the arguments, run the benchmark and print its lines."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--board", required=True, type=Path, metavar="FILE")
    parser.add_argument("--rack", required=True)
    parser.add_argument("--reps", type=int, default=21, metavar="N")
    parser.add_argument("--lexicon", metavar="PATH", help="a word list (default: ENABLE)")
    parser.add_argument("--variant", default="standard", metavar="NAME|FILE")
    parser.add_argument("--hints", type=int, metavar="N", help="also time hints for the top N moves")
    parser.add_argument("--cold", action="store_true", help="clear the generator's caches before each run")
    parser.add_argument("--verbose", action="store_true", help="also print the load times on stderr")
    args = parser.parse_args()

    variant = (
        load_variant(Path(args.variant)) if args.variant.endswith(".toml") else get_variant(args.variant)
    )
    board = Board.from_rows(variant, args.board.read_text(encoding="utf-8").splitlines())
    started = time.perf_counter()
    lexicon = load_lexicon(args.lexicon, variant.alphabet)
    loaded = time.perf_counter()
    generator: MoveGenerator = load_move_generator(lexicon)
    ready = time.perf_counter()
    if args.verbose:
        print(
            f"lexicon_load_ms={(loaded - started) * 1000:.1f} generator_load_ms={(ready - loaded) * 1000:.1f}",
            file=sys.stderr,
        )

    python = MoveGenerator(lexicon, generator.dawg, native=False)
    cores = {"native": generator if generator.native else None, "python": python}
    moves = len(python.generate(board, args.rack))
    figures: dict[str, float] = {}
    for name, core in cores.items():
        if core is None:
            continue
        before = core.clear_cache if args.cold else lambda: None
        figures[f"{name}_full"] = _median_ms(partial(core.generate, board, args.rack), args.reps, before)
        figures[f"{name}_best"] = _median_ms(partial(core.best, board, args.rack), args.reps, before)
    fields = [f"moves={moves}"]
    for search in ("full", "best"):
        native, pure = figures.get(f"native_{search}"), figures[f"python_{search}"]
        fields += [
            f"native_{search}_median_ms={native:.2f}" if native else f"native_{search}_median_ms=n/a",
            f"python_{search}_median_ms={pure:.2f}",
            f"{search}_ratio={pure / native:.1f}" if native else f"{search}_ratio=n/a",
        ]
    print(" ".join(fields))
    if args.hints is not None:
        top = args.hints
        hinted = _median_ms(lambda: hints(board, args.rack, generator, top), args.reps, before)
        print(f"hints_median_ms={hinted:.2f} top={top}")


if __name__ == "__main__":
    main()
