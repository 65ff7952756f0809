"""Benchmark of the image rendering: a full standard board, a full Super board and a rack.

Run from the repository root: ``python bench/render.py [--runs N]``. Each image is rendered N times
(the first render of a board or rack also draws and caches its empty background); the script prints
one line per image: ``<name> median_ms=<float> png_kb=<float> size=<width>x<height>``. The targets for
the full standard board are a median of at most 50 ms and a PNG of at most 300 KB.

``--go`` measures the Go board images instead (:func:`go_boards`): a 19×19 board in the middle of a
game and a full one, same targets (≤ 50 ms, ≤ 300 KB).
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from collections.abc import Callable
from itertools import cycle
from pathlib import Path

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.render import BoardHeader, PlayerLine, render_board, render_rack
from scrabble_core.board import Board
from scrabble_core.variant import Variant, get_variant


def full_board(variant: Variant) -> Board:
    """Every square covered, cycling through the alphabet, with a blank on every seventh square."""
    board = Board(variant)
    letters = cycle(variant.alphabet)
    board.place(
        (square, letter.lower() if index % 7 == 3 else letter)
        for index, (square, letter) in enumerate(zip(variant.squares(), letters, strict=False))
    )
    return board


def measure(name: str, render: Callable[[], bytes], runs: int) -> None:
    """Render ``runs`` times and print the median time, the PNG's size and the image's size."""
    times = []
    png = b""
    for _ in range(runs):
        start = time.perf_counter()
        png = render()
        times.append((time.perf_counter() - start) * 1000)
    width, height = Image.open(io.BytesIO(png)).size
    print(
        f"{name} median_ms={statistics.median(times):.1f} png_kb={len(png) / 1024:.1f} size={width}x{height}"
    )


def go_boards(runs: int) -> None:
    """The Go board images: 19×19 after 200 seeded random moves (captures included), and covered with
    stones but for one liberty per group, the last move marked."""
    import random

    from bot.render.go_board import render_go_board
    from go_core import Game

    game, rng = Game(19), random.Random(1)
    for _ in range(200):
        game.play(rng.choice(game.legal_points()))
    measure("go_19x19_midgame", lambda: render_go_board(game, black="Alice", white="GNU Go (level 5)"), runs)
    full = Game(19)
    for point in full.board.points():
        if (point.col + point.row) % 3 and full.is_legal(point):
            full.play(point)
    measure("go_19x19_full", lambda: render_go_board(full, black="Alice", white="Bob"), runs)


def main() -> None:
    """Parse the command line and run the three measurements (or the Go ones with ``--go``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30, help="renders per image (default 30)")
    parser.add_argument("--go", action="store_true", help="measure the Go board images instead")
    args = parser.parse_args()
    runs = args.runs
    if args.go:
        go_boards(runs)
        return
    header = BoardHeader(
        players=(PlayerLine("Alice", 312, to_move=False), PlayerLine("Bob", 298, to_move=True)), bag=0
    )
    standard = full_board(get_variant("standard"))
    last_move = [(7, col) for col in range(3, 10)]
    measure("board_standard_full", lambda: render_board(standard, last_move=last_move, header=header), runs)
    super_board = full_board(get_variant("super"))
    measure("board_super_full", lambda: render_board(super_board, last_move=last_move, header=header), runs)
    measure("rack", lambda: render_rack("AEQRS?Z", get_variant("standard")), runs)


if __name__ == "__main__":
    main()
