"""Benchmark of the image rendering: the cached board render beside the full redraw, PNG encoding, a rack.

Run from the repository root: ``python bench/render.py [--runs N]``. Each board is rendered N times both
ways in the same run: ``full`` draws every part afresh (:func:`bot.games.scrabble.images.board.full_redraw`, the
reference) and ``cached`` is :func:`bot.render.render_board`, which composes cached parts (its caches are
warmed by one render first; the header strip is drawn afresh each time, and its band compressed, but
the board's rows are found kept: the same position shown again, as by the Board button). Both
include the PNG encoding in the variant's fixed palette (:func:`bot.games.scrabble.images.board.board_palette`, chosen
once per variant: its cost is printed apart as ``board_palette_ms``). Times are medians of the process's CPU time (the machine may be busy with
other work; CPU time is what a render takes from the bot). One line per board:
``<name> full_ms=<median> cached_ms=<median> ratio=<full/cached> png_kb=<float> size=<width>x<height>``.
Then games' boards in turn, as their announcements draw them (:func:`game_boards`: the first 20 turns
of new games, each board after a move, with its last play and a new header): ``game_boards=<n>
kept_bands_ms=<median>`` with the bands of the game's board before kept (only the rows the move
changed, and the header, compressed) and ``no_kept_bands_ms=<median>`` for other games' boards with
none kept (every band compressed, as when the bands were forgotten).
Then the encoding of the midgame board alone: ``octree_palette_ms=<median> fixed_palette_ms=<median>``
(choosing a 256-colour palette for the image, as every render did before, against mapping it to the
fixed palette; the same at every level), one line per zlib level ``png_level=<n> png_ms=<median>
png_kb=<float>`` (fixed palette and compression together), ``board_palette_ms=`` (choosing the fixed
palette of a variant, once per process), ``rack median_ms=`` and ``chart median_ms=<median>
lanczos_ms=<median>`` (the end-of-game score chart of a 25-turn two-player game, scaled down with a box
filter as it is, and with Lanczos as it was before 26 Nov 2026, in the same run).
The target is a cached median of at most 10 ms for ``board_standard_midgame``.

``--go`` measures the Go board images instead (:func:`go_boards`), in the same CPU time: a 19×19 board in
the middle of a game and a full one, ``<name> median_ms=<median> png_kb=<float> size=<width>x<height>``;
the targets are at most 50 ms and 300 KB.
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from itertools import count, cycle
from pathlib import Path
from unittest.mock import patch

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.games.scrabble.images import BoardHeader, PlayerLine, render_board, render_rack
from bot.games.scrabble.images.board import board_palette, board_png, clear_kept_bands, full_redraw
from bot.render.drawing import png_bytes, shrink
from scrabble_core.board import Board
from scrabble_core.game import Game
from scrabble_core.lexicon import load_enable
from scrabble_core.movegen import MoveGenerator, load_move_generator
from scrabble_core.squares import Square
from scrabble_core.variant import Variant, get_variant

MIDGAME_ROWS = """
............... ............... ............... ............... ...............
........FIXeD.. ........E...O.. ...QUARTZ...J.. ...I.R......O.. .....g.........
.....O......... .....NEWT...... ........O...... ...BOUNTY...... ...............
"""
"""A standard game after six turns (the board of the golden image ``board_midgame.png``)."""


def full_board(variant: Variant) -> Board:
    """Every square covered, cycling through the alphabet, with a blank on every seventh square."""
    board = Board(variant)
    letters = cycle(variant.alphabet)
    board.place(
        (square, letter.lower() if index % 7 == 3 else letter)
        for index, (square, letter) in enumerate(zip(variant.squares(), letters, strict=False))
    )
    return board


def median_ms(action: Callable[[], object], runs: int) -> float:
    """The median CPU time of ``runs`` calls of ``action``, in milliseconds."""
    times = []
    for _ in range(runs):
        start = time.process_time()
        action()
        times.append((time.process_time() - start) * 1000)
    return statistics.median(times)


_SCORES = count()
"""Alice's score in the next header drawn."""


def compare_board(name: str, board: Board, last_move: list[Square], runs: int) -> None:
    """Print the full redraw's and the cached render's medians for ``board``, a new header each time
    (never one of an earlier board: a header's band would be kept)."""

    def header() -> BoardHeader:
        score = next(_SCORES)
        return BoardHeader((PlayerLine("Alice", score, False), PlayerLine("Bob", 298, True)), bag=52)

    png = render_board(board, last_move=last_move, header=header())
    full = median_ms(
        lambda: board_png(full_redraw(board, last_move=last_move, header=header()), board.variant), runs
    )
    cached = median_ms(lambda: render_board(board, last_move=last_move, header=header()), runs)
    width, height = Image.open(io.BytesIO(png)).size
    print(
        f"{name} full_ms={full:.1f} cached_ms={cached:.1f} ratio={full / cached:.1f} "
        f"png_kb={len(png) / 1024:.1f} size={width}x{height}"
    )


def game_boards(
    turns: int, seed: int, generator: MoveGenerator
) -> list[tuple[Board, list[Square], BoardHeader]]:
    """The boards of the first ``turns`` turns of a two-player game of best moves (``generator``), its
    bag shuffled by ``seed`` and its players named after it, each board with its last play and a
    header of the scores: what a game's announcements draw, one after the other."""
    game = Game(get_variant("standard"), [f"Alice {seed}", f"Bob {seed}"], rng=random.Random(seed))
    boards: list[tuple[Board, list[Square], BoardHeader]] = []
    while len(boards) < turns and not game.is_over:
        seat = game.current
        best = generator.best(game.board, game.players[seat].rack)
        if best is None:
            game.pass_turn(seat)
            continue
        game.play(seat, best.play)
        scores = [PlayerLine(p.name, p.score, index == game.current) for index, p in enumerate(game.players)]
        played = [square for square, _ in best.play.placements()]
        boards.append((game.board.copy(), played, BoardHeader(tuple(scores), bag=len(game.bag))))
    return boards


def compare_game(turns: int, games: int) -> None:
    """Print the median render of the boards of ``games`` games in turn, each game's boards after the
    bands kept from its board before (as its announcements draw them), and of as many other games'
    boards with no band kept (every band compressed). Every game is new: its names, scores and rows
    are found in no cache."""
    generator = load_move_generator(load_enable())
    render_board(Board(get_variant("standard")))  # the variant's parts made
    kept, fresh = [], []
    for seed in range(games):
        for board, last_move, header in game_boards(turns, 2 * seed, generator):
            start = time.process_time()
            render_board(board, last_move=last_move, header=header)
            kept.append((time.process_time() - start) * 1000)
        for board, last_move, header in game_boards(turns, 2 * seed + 1, generator):
            clear_kept_bands()
            start = time.process_time()
            render_board(board, last_move=last_move, header=header)
            fresh.append((time.process_time() - start) * 1000)
    print(
        f"game_boards={len(kept)} kept_bands_ms={statistics.median(kept):.1f} "
        f"no_kept_bands_ms={statistics.median(fresh):.1f}"
    )


def compare_encoding(board: Board, last_move: list[Square], runs: int) -> None:
    """Print the palette conversions' and each zlib level's cost for the image of ``board``, and the
    cost of choosing the variant's fixed palette."""
    header = BoardHeader((PlayerLine("Alice", 312, False), PlayerLine("Bob", 298, True)), bag=52)
    image = full_redraw(board, last_move=last_move, header=header)
    palette = board_palette(board.variant)
    octree = median_ms(lambda: image.quantize(256, method=Image.Quantize.FASTOCTREE), runs)
    fixed = median_ms(lambda: image.quantize(palette=palette, dither=Image.Dither.NONE), runs)
    print(f"octree_palette_ms={octree:.1f} fixed_palette_ms={fixed:.1f}")
    for level in (1, 3, 6, 9):
        total = median_ms(partial(png_bytes, image, palette=palette, compress_level=level), runs)
        size = len(png_bytes(image, palette=palette, compress_level=level))
        print(f"png_level={level} png_ms={total:.1f} png_kb={size / 1024:.1f}")

    def choose() -> None:
        board_palette.cache_clear()
        board_palette(board.variant)

    print(f"board_palette_ms={median_ms(choose, max(runs // 10, 1)):.1f}")


def go_boards(runs: int) -> None:
    """The Go board images: 19×19 after 200 seeded random moves (captures included), and covered with
    stones but for one liberty per group, the last move marked."""
    import random

    from bot.games.go.board_image import render_go_board
    from go_core import Game

    game, rng = Game(19), random.Random(1)
    for _ in range(200):
        game.play(rng.choice(game.legal_points()))
    full = Game(19)
    for point in full.board.points():
        if (point.col + point.row) % 3 and full.is_legal(point):
            full.play(point)
    for name, position in (("go_19x19_midgame", game), ("go_19x19_full", full)):
        png = render_go_board(position, black="Alice", white="GNU Go (level 5)")
        median = median_ms(partial(render_go_board, position, black="Alice", white="GNU Go (level 5)"), runs)
        width, height = Image.open(io.BytesIO(png)).size
        print(f"{name} median_ms={median:.1f} png_kb={len(png) / 1024:.1f} size={width}x{height}")


def main() -> None:
    """Parse the command line and run the measurements (the Go ones with ``--go``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=30, help="renders per image (default 30)")
    parser.add_argument("--go", action="store_true", help="measure the Go board images instead")
    args = parser.parse_args()
    runs = args.runs
    if args.go:
        go_boards(runs)
        return
    standard, super_variant = get_variant("standard"), get_variant("super")
    midgame = Board.from_rows(standard, MIDGAME_ROWS.split())
    bounty = [(13, col) for col in range(3, 9)]
    row_eight = [(7, col) for col in range(3, 10)]
    compare_board("board_standard_midgame", midgame, bounty, runs)
    compare_board("board_standard_full", full_board(standard), row_eight, runs)
    compare_board("board_super_full", full_board(super_variant), row_eight, max(runs // 3, 1))
    compare_game(20, max(runs // 2, 3))
    compare_encoding(midgame, bounty, runs)
    rack = median_ms(lambda: render_rack("AEQRS?Z", standard), runs)
    print(f"rack median_ms={rack:.1f}")
    compare_chart(runs)


def compare_chart(runs: int) -> None:
    """The score chart as drawn (box filter) against the same drawing scaled down with Lanczos."""
    from bot.render import chart

    totals = [[11 * turn for turn in range(1, 14)], [13 * turn for turn in range(1, 13)]]
    box = median_ms(partial(chart.render_score_chart, ["Alice", "Bob"], totals), runs)
    with patch.object(chart, "box_shrink", shrink):
        lanczos = median_ms(partial(chart.render_score_chart, ["Alice", "Bob"], totals), runs)
    print(f"chart median_ms={box:.1f} lanczos_ms={lanczos:.1f}")


if __name__ == "__main__":
    main()
