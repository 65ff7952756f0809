"""Endgame benchmark: the solver against plain minimax on positions of seeded self-play, ENABLE.

    python bench/endgame.py --positions 8 --seed 1 [--mover 2 --other 1] [--full-seconds 2]

Position ``i`` is the board of a ``hard`` vs ``hard`` game seeded ``f"{seed}-{i}"`` when its bag first
empties, with racks cut down to ``--mover`` and ``--other`` tiles (drawn, seeded, from the real racks) so
that plain minimax (:func:`scrabble_core.endgame.minimax_value`: every line, no pruning) finishes. For
each it prints the exact value, the solver's value, move, depth and both times, then one line:

    positions=<int> matched=<int> solver_median_ms=<float> solver_max_ms=<float> minimax_median_ms=<float>

and exits with status 1 if any value differs. With ``--full-seconds``, it also solves each position with
the full racks within that many seconds and prints
``full_exact=<int>/<positions> full_median_depth=<float> full_median_ms=<float>
full_median_nodes_per_s=<float>``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scrabble_core.ai import Level, MoveSource, choose_move, seat_view
from scrabble_core.endgame import minimax_value, solve_endgame
from scrabble_core.game import Game
from scrabble_core.lexicon import Lexicon, load_enable
from scrabble_core.move import Exchange, Play
from scrabble_core.movegen import load_move_generator
from scrabble_core.variant import get_variant


def end_position(lexicon: Lexicon, generator: MoveSource, seed: str) -> Game:
    """The game of ``hard`` against ``hard`` seeded ``seed`` when its bag first empties."""
    game = Game(get_variant("standard"), ["a", "b"], rng=random.Random(seed), lexicon=lexicon)
    while game.bag and not game.is_over:
        move = choose_move(seat_view(game, game.current), generator, Level.HARD, random.Random(0))
        if isinstance(move, Play):
            game.play(game.current, move)
        elif isinstance(move, Exchange):
            game.exchange(game.current, move.tiles)
        else:
            game.pass_turn(game.current)
    return game


def main() -> None:
    """Parse the command line, solve the positions, print the lines described above."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, required=True)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--mover", type=int, default=2, help="tiles kept on the mover's rack (default 2)")
    parser.add_argument("--other", type=int, default=1, help="tiles kept on the other rack (default 1)")
    parser.add_argument("--full-seconds", type=float, help="also solve the full racks within this time")
    args = parser.parse_args()
    lexicon = load_enable()
    generator = load_move_generator(lexicon)
    solver_ms: list[float] = []
    minimax_ms: list[float] = []
    full: list[tuple[bool, int, float, int]] = []
    matched = 0
    for index in range(args.positions):
        seed = f"{args.seed}-{index}"
        game = end_position(lexicon, generator, seed)
        if game.is_over:
            print(f"{seed}: the game ended before the bag emptied, skipped")
            continue
        mover, other = game.players[game.current].rack, game.players[1 - game.current].rack
        draw = random.Random(seed)
        small = "".join(draw.sample(mover, min(args.mover, len(mover))))
        small_other = "".join(draw.sample(other, min(args.other, len(other))))
        started = time.perf_counter()
        exact = minimax_value(game.board, small, small_other, generator)
        minimax_ms.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        result = solve_endgame(game.board, small, small_other, generator)
        solver_ms.append((time.perf_counter() - started) * 1000)
        matched += result.exact and result.value == exact
        print(
            f"{seed}: {small} vs {small_other} exact={exact} solver={result.value} move={result.move} "
            f"depth={result.depth} nodes={result.nodes} solver_ms={solver_ms[-1]:.1f} "
            f"minimax_ms={minimax_ms[-1]:.1f}",
            flush=True,
        )
        if args.full_seconds is not None:
            started = time.perf_counter()
            deadline = time.monotonic() + args.full_seconds
            whole = solve_endgame(game.board, mover, other, generator, deadline=deadline)
            full.append((whole.exact, whole.depth, (time.perf_counter() - started) * 1000, whole.nodes))
            print(
                f"  full {mover} vs {other}: move={whole.move} value={whole.value} depth={whole.depth} "
                f"exact={whole.exact} nodes={whole.nodes} ms={full[-1][2]:.0f}"
            )
    print(
        f"positions={len(solver_ms)} matched={matched} "
        f"solver_median_ms={statistics.median(solver_ms):.1f} solver_max_ms={max(solver_ms):.1f} "
        f"minimax_median_ms={statistics.median(minimax_ms):.1f}"
    )
    if full:
        print(
            f"full_exact={sum(e for e, _, _, _ in full)}/{len(full)} "
            f"full_median_depth={statistics.median(d for _, d, _, _ in full):.1f} "
            f"full_median_ms={statistics.median(ms for _, _, ms, _ in full):.0f} "
            f"full_median_nodes_per_s={statistics.median(n / ms * 1000 for _, _, ms, n in full):.0f}"
        )
    if matched != len(solver_ms):
        sys.exit(1)


if __name__ == "__main__":
    main()
