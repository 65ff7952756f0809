"""Benchmark of a board written as a program against the built-in layout: scoring and move generation.

    python bench/programmed_board.py [--reps N] [--positions N]

plays one seeded greedy game on the built-in standard board and keeps its positions (board and rack
before each move); then, in one run, alternating the boards run by run, times on each of the built-in
``standard`` and ``assets/variants/examples/standard-program.toml``:

- ``score``: :func:`~scrabble_core.validation.check_play` of every play of the game in its position;
- ``generate``: :meth:`MoveGenerator.generate` of every position's rack (the native core where built);
- ``best``: :meth:`MoveGenerator.best` of the same.

Each figure is the median over N runs (default 15) of the whole set; the last column is the ratio of
the programmed board to the built-in (the target is at most 1.5). A third board, the programmed one
forced to score every word by running its square programs (what a board whose squares are not all
multipliers does), is timed the same way for comparison. One line per measure, then the load time of
the programmed variant (parsing, compiling, symbolic recognition of its squares) and the load average:

    score built_in_ms=<f> program_ms=<f> ratio=<f> by_programs_ms=<f> by_programs_ratio=<f>
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scrabble_core.board import Board
from scrabble_core.lexicon import ENABLE_NAME, load_lexicon
from scrabble_core.move import Play
from scrabble_core.movegen import MoveGenerator, load_move_generator
from scrabble_core.validation import check_play
from scrabble_core.variant import example_variants_dir, get_variant, load_variant, scored_by_programs_only

Position = tuple[list[str], str, Play]


def _positions(generator: MoveGenerator, count: int) -> list[Position]:
    """``count`` positions of a seeded greedy game on the standard board (games after games)."""
    variant = get_variant("standard")
    rng = random.Random(15)
    positions: list[Position] = []
    while len(positions) < count:
        board, bag = Board(variant), variant.full_bag()
        rng.shuffle(bag)
        while len(bag) >= variant.rack_size and len(positions) < count:
            rack = "".join(bag[: variant.rack_size])
            best = generator.best(board, rack)
            if best is None:
                break
            positions.append((board.rows_text(), rack, best.play))
            board.place(best.play.placements())
            del bag[: len(best.play.rack_tiles())]
    return positions


def main() -> None:
    """Parse the arguments, run the benchmark and print its lines."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--reps", type=int, default=15, metavar="N")
    parser.add_argument("--positions", type=int, default=20, metavar="N")
    args = parser.parse_args()

    built_in = get_variant("standard")
    started = time.perf_counter()
    programmed = load_variant(example_variants_dir() / "standard-program.toml")
    load_ms = (time.perf_counter() - started) * 1000
    forced = scored_by_programs_only(programmed)
    lexicon = load_lexicon(ENABLE_NAME, built_in.alphabet)
    generator = load_move_generator(lexicon)
    positions = _positions(generator, args.positions)
    boards = {
        name: [(Board.from_rows(variant, rows), rack, play) for rows, rack, play in positions]
        for name, variant in (("built_in", built_in), ("program", programmed), ("by_programs", forced))
    }

    def score(name: str) -> Callable[[], object]:
        return lambda: [check_play(board, play) for board, _, play in boards[name]]

    def generate(name: str) -> Callable[[], object]:
        return lambda: [generator.generate(board, rack) for board, rack, _ in boards[name]]

    def best(name: str) -> Callable[[], object]:
        return lambda: [generator.best(board, rack) for board, rack, _ in boards[name]]

    for measure, make in (("score", score), ("generate", generate), ("best", best)):
        times: dict[str, list[float]] = {name: [] for name in boards}
        for name in boards:
            make(name)()  # warm: caches hold each board's analysis, as in a game's repeated searches
        names = list(boards)
        for rep in range(args.reps):
            for name in names[rep % 3 :] + names[: rep % 3]:  # each board first as often
                run = make(name)
                begun = time.perf_counter()
                run()
                times[name].append((time.perf_counter() - begun) * 1000)
        medians = {name: statistics.median(values) for name, values in times.items()}
        print(
            f"{measure} built_in_ms={medians['built_in']:.2f} program_ms={medians['program']:.2f} "
            f"ratio={medians['program'] / medians['built_in']:.2f} by_programs_ms={medians['by_programs']:.2f} "
            f"by_programs_ratio={medians['by_programs'] / medians['built_in']:.2f}"
        )
    print(
        f"program_load_ms={load_ms:.1f} positions={len(positions)} native={generator.native} "
        f"load_average={os.getloadavg()[0]:.2f}"
    )


if __name__ == "__main__":
    main()
