"""Benchmark of what the front ends build from a board written as a program, against the standard board.

    python bench/board_views.py [--moves M] [--reps R]

plays M moves (default 16) of a seeded game between two ``hard`` AIs on each of the standard board and
the examples ``infinite`` and ``diamond``, then times R times (default 100) the web board's state of
that board (:func:`bot.web.state.variant_info` and :func:`~bot.web.state.board_info` over
:func:`~bot.web.state.board_window`: built once per seat for every event) and R // 10 times its image
(:func:`bot.games.scrabble.images.board.compose_board` from its cached parts, and
:func:`~bot.games.scrabble.images.board.full_redraw`, every part drawn afresh; the PNG encoding left
out). It prints per board the window's size and the medians, then each board's ratios to the standard
board and the load average:

    standard window=15x15 state_ms=<f> image_ms=<f> redraw_ms=<f> state_ratio=1.00 image_ratio=1.00 ...
    ...
    load_average=<f>
"""

from __future__ import annotations

import argparse
import functools
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.games.scrabble.images.board import compose_board, full_redraw
from bot.web.state import board_info, board_window, variant_info
from scrabble_core.ai import Level, choose_move, seat_view
from scrabble_core.board import Board
from scrabble_core.game import Game
from scrabble_core.lexicon import Lexicon, load_enable
from scrabble_core.move import Play
from scrabble_core.movegen import MoveGenerator, load_move_generator
from scrabble_core.variant import get_variant

BOARDS = ("standard", "infinite", "diamond")


def played(name: str, moves: int, generator: MoveGenerator, lexicon: Lexicon) -> Game:
    """A game on ``name`` after ``moves`` seeded moves of two ``hard`` AIs (a pass when no play)."""
    game = Game(get_variant(name), ["a", "b"], rng=random.Random(26), lexicon=lexicon)
    rng = random.Random(1)
    for _ in range(moves):
        if game.is_over:
            break
        move = choose_move(seat_view(game, game.current), generator, Level.HARD, rng)
        if isinstance(move, Play):
            game.play(game.current, move)
        else:
            game.pass_turn(game.current)
    return game


def web_state(board: Board) -> None:
    """The board's part of the web state (what :func:`bot.web.state.game_state` builds of it)."""
    shown = board_window(board)
    variant_info(board.variant, shown)
    board_info(board, shown)


def median_ms(action: Callable[[], object], reps: int) -> float:
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=16)
    parser.add_argument("--reps", type=int, default=100)
    args = parser.parse_args()
    lexicon = load_enable()
    generator = load_move_generator(lexicon)
    results = {}
    for name in BOARDS:
        game = played(name, args.moves, generator, lexicon)
        board = game.board
        window = board_window(board)
        results[name] = (
            window,
            median_ms(functools.partial(web_state, board), args.reps),
            median_ms(functools.partial(compose_board, board), max(1, args.reps // 10)),
            median_ms(functools.partial(full_redraw, board), max(1, args.reps // 10)),
        )
    _, base_state, base_image, base_redraw = results["standard"]
    for name, (window, state_ms, image_ms, redraw_ms) in results.items():
        print(
            f"{name} window={window.rows}x{window.cols} state_ms={state_ms:.2f} image_ms={image_ms:.1f} "
            f"redraw_ms={redraw_ms:.1f} state_ratio={state_ms / base_state:.2f} "
            f"image_ratio={image_ms / base_image:.2f} redraw_ratio={redraw_ms / base_redraw:.2f}"
        )
    print(f"load_average={os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
