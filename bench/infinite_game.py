"""Benchmark of an infinite-board game against a standard one: the AI's move time and the game's memory.

    python bench/infinite_game.py [--games N] [--moves M]

plays N seeded games (default 3) between two ``hard`` AIs on each of the built-in standard board and
``assets/variants/examples/infinite.toml``, alternating the boards game by game, and prints per board
the median time of a move (the AI's choice, :func:`scrabble_core.ai.choose_move`, over every move of
every game) and the median memory a game holds after M moves (default 40): :func:`held_bytes`, its
board, racks, bag, history, and on the infinite board the square ids its program computed. A game of
100 tiles ends before 40 moves, so the memory is measured in a second set of games with every tile
count doubled (200 tiles), each on a fresh copy of its variant. Then the ratios infinite / standard
(targets: at most 2 each) and the load average:

    standard move_median_ms=<f> memory_kib=<f> moves=<n>
    infinite move_median_ms=<f> memory_kib=<f> moves=<n>
    ratios move=<f> memory=<f> load_average=<f>
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path
from types import BuiltinFunctionType, FunctionType, ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scrabble_core.ai import Level, choose_move, seat_view
from scrabble_core.game import Game
from scrabble_core.lexicon import ENABLE_NAME, load_lexicon
from scrabble_core.movegen import MoveGenerator, load_move_generator
from scrabble_core.variant import (
    Variant,
    example_variants_dir,
    get_variant,
    load_variant,
    variant_from_dict,
    variant_to_dict,
)


def doubled(variant: Variant) -> Variant:
    """``variant`` with twice as many of each tile."""
    return replace(
        variant,
        tiles=tuple(replace(kind, count=2 * kind.count) for kind in variant.tiles),
        blanks=2 * variant.blanks,
    )


def play(
    variant: Variant, generator: MoveGenerator, seed: int, moves: int | None
) -> tuple[list[float], Game]:
    """Play a game of two hard AIs to its end (or its ``moves``-th move); the time of each move."""
    game = Game(variant, ["a", "b"], rng=random.Random(f"{seed}:bag"), lexicon=generator.lexicon)
    rngs = [random.Random(f"{seed}:0"), random.Random(f"{seed}:1")]
    times: list[float] = []
    while not game.is_over and (moves is None or len(times) < moves):
        seat = game.current
        started = time.perf_counter()
        move = choose_move(seat_view(game, seat), generator, Level.HARD, rngs[seat])
        times.append(time.perf_counter() - started)
        game.push(seat, move)
    return times, game


def held_bytes(game: Game) -> int:
    """The bytes of every object ``game`` holds that no other game shares: its board, racks, bag,
    history and random generator, and on a board written as a program the square ids its program
    computed for it. The variant and the lexicon are shared by every game and not counted."""
    shared = {id(game.variant), id(game.lexicon)}
    programs = game.variant.programs
    roots: list[object] = [game]
    if programs is not None:
        roots.append(programs._blocks)
    total = 0
    seen = set(shared)
    while roots:
        item = roots.pop()
        if id(item) in seen or isinstance(item, type | ModuleType | FunctionType | BuiltinFunctionType):
            continue
        seen.add(id(item))
        total += sys.getsizeof(item)
        roots.extend(gc.get_referents(item))
    return total


def main() -> None:
    """Parse the arguments, run the benchmark and print its lines."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=3, metavar="N")
    parser.add_argument("--moves", type=int, default=40, metavar="M")
    args = parser.parse_args()
    boards = {
        "standard": get_variant("standard"),
        "infinite": load_variant(example_variants_dir() / "infinite.toml"),
    }
    lexicon = load_lexicon(ENABLE_NAME, boards["standard"].alphabet)
    generator = load_move_generator(lexicon)
    times: dict[str, list[float]] = {name: [] for name in boards}
    held: dict[str, list[float]] = {name: [] for name in boards}
    reached: dict[str, list[int]] = {name: [] for name in boards}
    for seed in range(args.games):
        for name, variant in boards.items():
            times[name] += play(variant, generator, seed, None)[0]
    for seed in range(args.games):
        for name, variant in boards.items():
            fresh = doubled(variant_from_dict(variant_to_dict(variant), name))  # its program's cache empty
            moves, game = play(fresh, generator, seed, args.moves)
            held[name].append(held_bytes(game) / 1024)
            reached[name].append(len(moves))
    medians = {name: statistics.median(values) * 1000 for name, values in times.items()}
    kept = {name: statistics.median(values) for name, values in held.items()}
    for name in boards:
        print(
            f"{name} move_median_ms={medians[name]:.2f} memory_kib={kept[name]:.1f} moves={min(reached[name])}"
        )
    print(
        f"ratios move={medians['infinite'] / medians['standard']:.2f} "
        f"memory={kept['infinite'] / kept['standard']:.2f} load_average={os.getloadavg()[0]:.2f}"
    )


if __name__ == "__main__":
    main()
