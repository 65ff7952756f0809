"""Tests of the board, rack and score chart images.

Golden images: fixed positions are rendered and compared with the PNGs in ``tests/bot/golden/``. A
pixel differs when one of its channels is off by more than the rounding of the PNG palettes (a board
takes its variant's fixed palette, a rack or chart one of its own); any differing pixel fails, so a changed letter, digit or bag count fails (the
bag count 52 to 53 changes 72 pixels; see the tests of :func:`golden_problem`). When the design changes
on purpose (or a Pillow upgrade moves the glyphs' edges), regenerate them, look at them, and commit them
with the change::

    REGENERATE_GOLDEN=1 pytest tests/bot/test_render.py

A regenerating run rewrites the files and fails, naming them, so it can never pass by accident.

Structural checks measure the images directly: sizes per board, the colours of premium squares, tiles,
blanks, holes and the last move.
"""

from __future__ import annotations

import io
import os
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from bot.games.scrabble.board_view import Window, view_window
from bot.games.scrabble.images import BoardHeader, PlayerLine, render_board, render_rack, render_score_chart
from bot.games.scrabble.images.board import board_size, square_box
from bot.games.scrabble.images.rack import rack_size
from bot.render import style
from bot.render.drawing import font
from scrabble_core.board import Board
from scrabble_core.squares import Square, parse_square
from scrabble_core.tiles import set_tile
from scrabble_core.variant import (
    Premium,
    Variant,
    example_variants_dir,
    get_variant,
    load_variant,
    variant_from_dict,
)

GOLDEN = Path(__file__).parent / "golden"
REGENERATE = bool(os.environ.get("REGENERATE_GOLDEN"))
GOLDEN_CHANNEL_TOLERANCE = 48
"""A golden pixel differs when one of its channels is off by more than this (palette rounding: at most
PALETTE_TOLERANCE); no pixel may differ."""
COLOUR_TOLERANCE = 8
"""Largest channel difference allowed between a drawn flat colour and the style's (PNG palettes round)."""
PALETTE_TOLERANCE = 40
"""Two renders of the same pixels may differ by up to this much: a rack or chart gets a palette of its own
(boards of one variant share theirs, see test_render_palette)."""

# A standard game after six turns: blanks in ARgON and FIXeD; BOUNTY (through the Y) played last.
MIDGAME_ROWS = """
...............
...............
...............
...............
...............
........FIXeD..
........E...O..
...QUARTZ...J..
...I.R......O..
.....g.........
.....O.........
.....NEWT......
........O......
...BOUNTY......
...............
"""
MIDGAME_LAST_MOVE = [(13, col) for col in range(3, 8)]
MIDGAME_HEADER = BoardHeader(
    players=(
        PlayerLine("Ada", 187, to_move=False),
        PlayerLine("Grace Brewster Murray Hopper", 203, to_move=True),
        PlayerLine("Linus", 96, to_move=False),
    ),
    bag=52,
)

# A Super Scrabble game around K11: blanks in BRaVO and OPTiMAL, OPTiMAL played last.
SUPER_ROWS = """
.....................
.....................
.....................
.....................
.....................
.....................
.....................
.....................
....MOTH.............
.......A.............
.......JUKEBOX.......
...........R.........
...........a.........
...........V.........
...........OPTiMAL...
.....................
.....................
.....................
.....................
.....................
.....................
"""
SUPER_LAST_MOVE = [(14, col) for col in range(12, 18)]

# A custom 9x9 board with holes (##) in the corners and around the centre.
HOLES_VARIANT_DATA: dict[str, object] = {
    "name": "holes",
    "board": {
        "start": "E5",
        "layout": """
            ## ## 3W -- 2L -- 3W ## ##
            ## 2W -- -- -- -- -- 2W ##
            3W -- 3L -- -- -- 3L -- 3W
            -- -- -- ## -- ## -- -- --
            2L -- -- -- 2W -- -- -- 2L
            -- -- -- ## -- ## -- -- --
            3W -- 3L -- -- -- 3L -- 3W
            ## 2W -- -- -- -- -- 2W ##
            ## ## 3W -- 2L -- 3W ## ##
        """,
    },
    "tiles": {
        "blanks": 2,
        "A": [6, 1],
        "C": [2, 3],
        "E": [6, 1],
        "H": [2, 4],
        "N": [4, 1],
        "S": [4, 1],
        "T": [4, 1],
        "W": [2, 4],
    },
}
HOLES_ROWS = """
##.....##
#.......#
...sWAN..
...#H#...
...CAT...
...#T#...
.........
#.......#
##.....##
"""
HOLES_LAST_MOVE = [(4, 3), (4, 5)]

# The infinite example around its centre 0,0: AQUA down through the Q of QUIZ, ZAP down from its Z, and
# PEr (a blank r) across from the P, played last.
INFINITE_TILES = """
-3,-1 A
-3,0 Q
-2,0 U
-1,0 I
0,0 Z
-3,1 U
0,1 A
-3,2 A
0,2 P
1,2 E
2,2 r
"""
INFINITE_LAST_MOVE = [(2, 1), (2, 2)]

# A 9x9 diamond written as a program: holes outside it, vowel squares (a program, P4) around the centre,
# triple words at its top and bottom, quintuple letters (a multiplier the classic board has not: P5)
# at its left and right; with set tiles [AE] and [SZ].
PROGRAMS_VARIANT_DATA: dict[str, object] = {
    "name": "programs",
    "board": {
        "program": """
            declare dx := _x_ - 4;
            declare dy := _y_ - 4;
            if (dx < 0) then { dx := -dx };
            if (dy < 0) then { dy := -dy };
            _result_ := 0;
            if (dx + dy > 5) then { _result_ := 9 }
            else if (dx = 1 /\\ dy = 1) then { _result_ := 4 }
            else if (dx = 0 /\\ dy = 4) then { _result_ := 3 }
            else if (dy = 0 /\\ dx = 4) then { _result_ := 5 }
        """,
        "start": [4, 4],
        "size": [9, 9],
    },
    "squares": {
        "0": {"0": "_result_ := pointValue(_pos_) + _acc_"},
        "3": {"0": "_result_ := pointValue(_pos_) + _acc_", "1": "_result_ := _acc_ * 3"},
        "4": {
            "0": "if (isVowel(charValue(_pos_))) then { _result_ := _acc_ + 3 * pointValue(_pos_) } "
            "else { _result_ := _acc_ + pointValue(_pos_) }"
        },
        "5": {"0": "_result_ := pointValue(_pos_) * 5 + _acc_"},
    },
    "tiles": {"blanks": 2, "A": [4, 1], "C": [2, 3], "E": [4, 1], "S": [2, 1], "T": [3, 1], "Z": [1, 10]},
    "tile_sets": [{"count": 2, "letters": {"A": 1, "E": 1}}, {"count": 1, "letters": {"S": 1, "Z": 10}}],
}
# cAT across through the centre (a blank c, set tile 1 as A), and SET down to its T (set tile 2 as S),
# played last.
PROGRAMS_TILES = [
    ((4, 3), "c"),
    ((4, 4), set_tile("1", "A")),
    ((4, 5), "T"),
    ((2, 5), set_tile("2", "S")),
    ((3, 5), "E"),
]
PROGRAMS_LAST_MOVE = [(2, 5), (3, 5)]


@pytest.fixture(scope="module")
def standard() -> Variant:
    return get_variant("standard")


@pytest.fixture(scope="module")
def super_variant() -> Variant:
    return get_variant("super")


@pytest.fixture(scope="module")
def holes() -> Variant:
    return variant_from_dict(HOLES_VARIANT_DATA, "test holes variant")


@pytest.fixture(scope="module")
def infinite() -> Variant:
    return load_variant(example_variants_dir() / "infinite.toml")


@pytest.fixture(scope="module")
def programs() -> Variant:
    return variant_from_dict(PROGRAMS_VARIANT_DATA, "test programs variant")


@pytest.fixture(scope="module")
def letter_sets() -> Variant:
    return load_variant(example_variants_dir() / "letter-sets.toml")


def infinite_board(variant: Variant, tiles: str = INFINITE_TILES) -> Board:
    return Board.from_rows(variant, tiles.splitlines())


def programs_board(variant: Variant, tiles: Sequence[tuple[Square, str]] = PROGRAMS_TILES) -> Board:
    board = Board(variant)
    board.place(tiles)
    return board


def board_from(variant: Variant, rows: str) -> Board:
    return Board.from_rows(variant, rows.split())


def decode(png: bytes) -> Image.Image:
    """The PNG as an RGBA image, after checking it is one."""
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    return Image.open(io.BytesIO(png)).convert("RGBA")


def channel_difference(first: Image.Image, second: Image.Image) -> Image.Image:
    """A greyscale image of the largest channel difference at each pixel."""
    channels = ImageChops.difference(first, second).split()
    worst = channels[0]
    for channel in channels[1:]:
        worst = ImageChops.lighter(worst, channel)
    return worst


def golden_problem(png: bytes, name: str) -> str | None:
    """How ``png`` differs from ``golden/<name>``, or ``None`` when it matches."""
    path = GOLDEN / name
    if not path.is_file():
        return f"no golden image {path}: run REGENERATE_GOLDEN=1 pytest {__file__}"
    actual, expected = decode(png), decode(path.read_bytes())
    if actual.size != expected.size:
        return f"{name}: the image is {actual.size}, the golden image {expected.size}"
    difference = channel_difference(actual, expected)
    differing = sum(difference.histogram()[GOLDEN_CHANNEL_TOLERANCE + 1 :])
    if differing:
        return f"{name}: {differing} pixels differ from the golden image, in {difference.getbbox()}"
    return None


def assert_matches_golden(png: bytes, name: str, tmp_path: Path) -> None:
    """Compare ``png`` with ``golden/<name>``; when regenerating, rewrite it and fail, naming it."""
    if REGENERATE:
        (GOLDEN / name).write_bytes(png)
        pytest.fail(f"rewrote {GOLDEN / name}: look at it, then rerun without REGENERATE_GOLDEN")
    problem = golden_problem(png, name)
    if problem is not None:
        (tmp_path / name).write_bytes(png)
        pytest.fail(
            f"{problem}; the new image is {tmp_path / name}. If the change is meant, regenerate the "
            "golden images with REGENERATE_GOLDEN=1."
        )


def close(colour: tuple[int, ...], expected: tuple[int, int, int]) -> bool:
    return all(abs(a - b) <= COLOUR_TOLERANCE for a, b in zip(colour[:3], expected, strict=True))


def inner(
    square: Square, *, header: bool = False, margin: int = 8, window: Window | None = None
) -> tuple[int, int, int, int]:
    """The box of a square's cell without its edges (rounded corners, the grid, tile shadows)."""
    left, top, right, bottom = square_box(square, header=header, window=window)
    return left + margin, top + margin, right - margin, bottom - margin


def colours(image: Image.Image) -> Counter[tuple[int, ...]]:
    """How many pixels of each colour ``image`` (RGBA) has."""
    found = image.getcolors(image.width * image.height)
    assert found is not None
    return Counter({colour: count for count, colour in found if isinstance(colour, tuple)})


def pixel(image: Image.Image, xy: tuple[int, int]) -> tuple[int, ...]:
    """The RGBA colour of one pixel."""
    colour = image.getpixel(xy)
    assert isinstance(colour, tuple)
    return colour


def dominant(image: Image.Image, box: tuple[int, int, int, int]) -> tuple[int, ...]:
    """The most frequent colour in ``box``."""
    return colours(image.crop(box)).most_common(1)[0][0]


def changed_box(first: Image.Image, second: Image.Image) -> tuple[int, int, int, int] | None:
    """The box around the pixels that differ by more than the palette's rounding, or ``None``."""
    return (
        channel_difference(first, second)
        .point(lambda value: 255 if value > PALETTE_TOLERANCE else 0)
        .getbbox()
    )


def centre(square: Square) -> tuple[int, int]:
    left, top, right, bottom = square_box(square)
    return (left + right) // 2, (top + bottom) // 2


# Golden images.


def test_golden_midgame_board(standard: Variant, tmp_path: Path) -> None:
    board = board_from(standard, MIDGAME_ROWS)
    png = render_board(board, last_move=MIDGAME_LAST_MOVE, header=MIDGAME_HEADER)
    assert_matches_golden(png, "board_midgame.png", tmp_path)


def midgame_png(rows: str = MIDGAME_ROWS, header: BoardHeader = MIDGAME_HEADER) -> bytes:
    return render_board(board_from(get_variant("standard"), rows), last_move=MIDGAME_LAST_MOVE, header=header)


@pytest.mark.parametrize(
    ("rows", "header"),
    [
        pytest.param(MIDGAME_ROWS.replace("BOUNTY", "BOUNTO"), MIDGAME_HEADER, id="one letter"),
        pytest.param(
            MIDGAME_ROWS,
            BoardHeader((PlayerLine("Ada", 181, to_move=False), *MIDGAME_HEADER.players[1:]), 52),
            id="one digit of a score",
        ),
        pytest.param(MIDGAME_ROWS, BoardHeader(MIDGAME_HEADER.players, 53), id="the bag count"),
    ],
)
def test_golden_check_fails_on_a_small_change(rows: str, header: BoardHeader) -> None:
    assert golden_problem(midgame_png(), "board_midgame.png") is None
    problem = golden_problem(midgame_png(rows, header), "board_midgame.png")
    assert problem is not None and "pixels differ from the golden image" in problem


def test_regenerating_rewrites_the_golden_image_and_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = sys.modules[__name__]
    monkeypatch.setattr(module, "GOLDEN", tmp_path / "golden")
    monkeypatch.setattr(module, "REGENERATE", True)
    (tmp_path / "golden").mkdir()
    with pytest.raises(pytest.fail.Exception, match=r"rewrote .*chart\.png: look at it, then rerun without"):
        assert_matches_golden(b"\x89PNG new", "chart.png", tmp_path)
    assert (tmp_path / "golden" / "chart.png").read_bytes() == b"\x89PNG new"


def test_golden_board_with_holes(holes: Variant, tmp_path: Path) -> None:
    png = render_board(board_from(holes, HOLES_ROWS), last_move=HOLES_LAST_MOVE)
    assert_matches_golden(png, "board_holes.png", tmp_path)


def test_golden_rack(standard: Variant, tmp_path: Path) -> None:
    assert_matches_golden(render_rack("AQZ?ERS", standard), "rack.png", tmp_path)


def test_golden_score_chart(tmp_path: Path) -> None:
    png = render_score_chart(
        ["Ada", "Grace", "Linus"],
        [[24, 41, 98, 130, 187, 240], [12, 80, 102, 150, 203, 266], [8, 30, 52, 96, 120]],
    )
    assert_matches_golden(png, "chart.png", tmp_path)


def test_golden_infinite_board(infinite: Variant, tmp_path: Path) -> None:
    png = render_board(infinite_board(infinite), last_move=INFINITE_LAST_MOVE, header=MIDGAME_HEADER)
    assert_matches_golden(png, "board_infinite.png", tmp_path)


def test_golden_board_of_programs_and_set_tiles(programs: Variant, tmp_path: Path) -> None:
    png = render_board(programs_board(programs), last_move=PROGRAMS_LAST_MOVE)
    assert_matches_golden(png, "board_programs.png", tmp_path)


def test_golden_rack_with_set_tiles(letter_sets: Variant, tmp_path: Path) -> None:
    assert_matches_golden(render_rack("A13?E2Z", letter_sets), "rack_sets.png", tmp_path)


def test_golden_checks_fail_on_a_small_change_of_a_programmable_board(
    infinite: Variant, programs: Variant, letter_sets: Variant
) -> None:
    """A letter of the infinite board, the letter chosen for a set tile on the board, and a set on
    a rack: each changes pixels of its golden image."""
    tiles = INFINITE_TILES.replace("-1,0 I", "-1,0 O")
    changed = render_board(
        infinite_board(infinite, tiles), last_move=INFINITE_LAST_MOVE, header=MIDGAME_HEADER
    )
    problem = golden_problem(changed, "board_infinite.png")
    assert problem is not None and "pixels differ from the golden image" in problem
    tiles_e = [(square, set_tile("1", "E") if square == (4, 4) else tile) for square, tile in PROGRAMS_TILES]
    changed = render_board(programs_board(programs, tiles_e), last_move=PROGRAMS_LAST_MOVE)
    problem = golden_problem(changed, "board_programs.png")
    assert problem is not None and "pixels differ from the golden image" in problem
    problem = golden_problem(render_rack("A12?E2Z", letter_sets), "rack_sets.png")
    assert problem is not None and "pixels differ from the golden image" in problem


def test_golden_images_are_small() -> None:
    for path in GOLDEN.glob("*.png"):
        assert path.stat().st_size < 100 * 1024, path.name


# Board: sizes.


@pytest.mark.parametrize(("name", "rows", "cols"), [("standard", 15, 15), ("super", 21, 21)])
def test_board_image_size_follows_the_board_size(name: str, rows: int, cols: int) -> None:
    variant = get_variant(name)
    image = decode(render_board(Board(variant)))
    assert image.size == board_size(variant)
    assert image.size == (cols * style.CELL + 2 * style.MARGIN, rows * style.CELL + 2 * style.MARGIN)


def test_standard_board_is_readable_width(standard: Variant) -> None:
    width, height = decode(render_board(Board(standard))).size
    assert 900 <= width <= 1000
    assert width == height


def test_custom_board_size(holes: Variant) -> None:
    image = decode(render_board(Board(holes)))
    assert image.size == (9 * style.CELL + 2 * style.MARGIN,) * 2


def test_header_adds_a_strip_above_an_unchanged_board(standard: Variant) -> None:
    board = board_from(standard, MIDGAME_ROWS)
    plain = decode(render_board(board, last_move=MIDGAME_LAST_MOVE))
    with_header = decode(render_board(board, last_move=MIDGAME_LAST_MOVE, header=MIDGAME_HEADER))
    assert with_header.size == board_size(standard, header=True)
    assert with_header.height == plain.height + style.HEADER_HEIGHT
    below = with_header.crop((0, style.HEADER_HEIGHT, with_header.width, with_header.height))
    assert changed_box(below, plain) is None


def test_header_marks_the_player_to_move(standard: Variant) -> None:
    image = decode(render_board(Board(standard), header=MIDGAME_HEADER))
    strip = image.crop((0, 0, image.width, style.HEADER_HEIGHT))
    found = colours(strip)
    assert any(close(colour, style.TO_MOVE_PILL) and count > 500 for colour, count in found.items())
    assert any(close(colour, style.HEADER_PILL) and count > 500 for colour, count in found.items())


def test_header_with_many_players_and_long_names_still_renders(standard: Variant) -> None:
    header = BoardHeader(
        players=[PlayerLine("W" * 60, 1000 + index, to_move=index == 3) for index in range(6)], bag=0
    )
    assert decode(render_board(Board(standard), header=header)).size == board_size(standard, header=True)


# Board: colours of squares.


@pytest.mark.parametrize(
    ("name", "square", "premium"),
    [
        ("standard", "A1", Premium.TRIPLE_WORD),
        ("standard", "B2", Premium.DOUBLE_WORD),
        ("standard", "F2", Premium.TRIPLE_LETTER),
        ("standard", "D1", Premium.DOUBLE_LETTER),
        ("standard", "B1", Premium.PLAIN),
        ("super", "A1", Premium.QUADRUPLE_WORD),
        ("super", "F3", Premium.QUADRUPLE_LETTER),
        ("super", "H1", Premium.TRIPLE_WORD),
    ],
)
def test_premium_square_colour_at_its_centre(name: str, square: str, premium: Premium) -> None:
    variant = get_variant(name)
    location = parse_square(square)
    assert variant.premium(location) is premium
    image = decode(render_board(Board(variant)))
    assert close(dominant(image, inner(location)), style.PREMIUM_COLOURS[premium])


def test_premium_colours_are_all_different() -> None:
    assert len(set(style.PREMIUM_COLOURS.values())) == len(Premium)


def test_start_square_shows_a_star(standard: Variant) -> None:
    image = decode(render_board(Board(standard)))
    assert close(pixel(image, centre(standard.start)), style.START_STAR)
    assert close(dominant(image, inner(standard.start, margin=3)), style.PREMIUM_COLOURS[Premium.DOUBLE_WORD])


def test_premium_label_is_drawn_only_on_empty_squares(standard: Variant) -> None:
    empty = decode(render_board(Board(standard)))
    a1 = inner((0, 0), margin=14)
    assert any(close(colour, style.LIGHT_LABEL) for colour in colours(empty.crop(a1)))
    covered = decode(render_board(board_from(standard, "A" + "." * 14 + "\n" + ("." * 15 + "\n") * 14)))
    assert not any(close(colour, style.LIGHT_LABEL) for colour in colours(covered.crop(a1)))


def test_holes_are_drawn_as_absent(holes: Variant) -> None:
    image = decode(render_board(board_from(holes, HOLES_ROWS)))
    for square in [(0, 0), (0, 8), (3, 3), (5, 5), (8, 8)]:
        assert holes.layout[square[0]][square[1]] is None
        cell = image.crop(inner(square, margin=3))
        assert all(close(colour, style.FRAME) for colour in colours(cell)), square
    assert not close(dominant(image, inner((4, 4))), style.FRAME)


def test_super_board_columns_go_beyond_o(super_variant: Variant) -> None:
    image = decode(render_board(Board(super_variant)))
    top_band = image.crop((0, 0, image.width, style.MARGIN))
    right_of_o = top_band.crop(
        (style.MARGIN + 15 * style.CELL, 0, top_band.width - style.MARGIN, style.MARGIN)
    )
    assert any(close(colour, style.COORDINATE_TEXT) for colour in colours(right_of_o))


# Board: tiles, blanks and the last move.


def test_blank_tile_differs_from_real_tile(standard: Variant) -> None:
    rows = ["." * 15] * 7 + [".....Aa........"] + ["." * 15] * 7
    image = decode(render_board(Board.from_rows(standard, rows)))
    real, blank = image.crop(square_box((7, 5))), image.crop(square_box((7, 6)))
    assert changed_box(real, blank) is not None
    assert close(dominant(image, inner((7, 5))), style.TILE_FACE)
    assert close(dominant(image, inner((7, 6))), style.BLANK_FACE)


def test_blank_shows_no_value(standard: Variant) -> None:
    """A real tile's value sits in its bottom-right corner; a blank's corner is bare face."""
    rows = ["." * 15] * 7 + [".....Aa........"] + ["." * 15] * 7
    image = decode(render_board(Board.from_rows(standard, rows)))

    def corner_ink(square: Square) -> int:
        _, _, right, bottom = square_box(square)
        corner = image.crop((right - 22, bottom - 22, right - 8, bottom - 8))
        return sum(count for colour, count in colours(corner).items() if max(colour[:3]) < 140)

    assert corner_ink((7, 5)) > 10
    assert corner_ink((7, 6)) == 0


def test_tiles_cover_their_squares(standard: Variant) -> None:
    image = decode(render_board(board_from(standard, MIDGAME_ROWS)))
    assert close(dominant(image, inner(parse_square("D8"))), style.TILE_FACE)  # Q on a double letter
    assert close(dominant(image, inner(parse_square("L6"))), style.BLANK_FACE)  # the blank e of FIXeD


def test_last_move_squares_differ_from_the_others(standard: Variant) -> None:
    board = board_from(standard, MIDGAME_ROWS)
    before = decode(render_board(board))
    after = decode(render_board(board, last_move=MIDGAME_LAST_MOVE))
    for square in MIDGAME_LAST_MOVE:
        box = square_box(square)
        assert changed_box(before.crop(box), after.crop(box)) is not None, square
        assert close(dominant(after, inner(square)), style.LAST_MOVE_FACE)
    changed = changed_box(before, after)
    assert changed is not None
    move_area = square_box(MIDGAME_LAST_MOVE[0])[:2] + square_box(MIDGAME_LAST_MOVE[-1])[2:]
    assert changed[0] >= move_area[0] and changed[1] >= move_area[1]
    assert changed[2] <= move_area[2] and changed[3] <= move_area[3]


def test_last_move_blank_stays_a_blank(super_variant: Variant) -> None:
    board = board_from(super_variant, SUPER_ROWS)
    image = decode(render_board(board, last_move=SUPER_LAST_MOVE))
    blank, real = image.crop(square_box((14, 14))), image.crop(square_box((14, 13)))
    assert changed_box(blank, real) is not None
    assert any(close(colour, style.BLANK_TEXT) for colour in colours(blank))


def test_last_move_squares_without_tiles_are_ignored(standard: Variant) -> None:
    board = board_from(standard, MIDGAME_ROWS)
    assert render_board(board, last_move=[(0, 0), (14, 14)]) == render_board(board)


def test_super_board_renders_tiles(super_variant: Variant) -> None:
    board = board_from(super_variant, SUPER_ROWS)
    image = decode(render_board(board, last_move=SUPER_LAST_MOVE))
    assert image.size == board_size(super_variant)
    assert close(dominant(image, inner(parse_square("H11"))), style.TILE_FACE)  # the J
    assert close(dominant(image, inner(parse_square("L13"))), style.BLANK_FACE)  # the blank a
    assert close(dominant(image, inner(parse_square("M15"))), style.LAST_MOVE_FACE)


# Board: infinite boards, program squares and set tiles.


def test_an_infinite_board_shows_the_window_around_its_tiles(infinite: Variant) -> None:
    board = infinite_board(infinite)
    window = view_window(board)
    assert window == Window(-4, -8, 12, 16, signed=True)
    image = decode(render_board(board, last_move=INFINITE_LAST_MOVE))
    width, height = 16 * style.CELL + 2 * style.MARGIN, 12 * style.CELL + 2 * style.MARGIN
    assert image.size == board_size(infinite, window=window) == (width, height)
    assert close(dominant(image, inner((0, -3), window=window)), style.TILE_FACE)  # the Q at -3,0
    assert close(dominant(image, inner((2, 2), window=window)), style.LAST_MOVE_FACE)  # the blank r
    assert close(dominant(image, inner((-4, -4), window=window)), style.PREMIUM_COLOURS[Premium.TRIPLE_WORD])
    assert close(dominant(image, inner((4, -8), window=window)), style.PREMIUM_COLOURS[Premium.TRIPLE_LETTER])


def test_an_infinite_boards_image_grows_with_the_game(infinite: Variant) -> None:
    board = infinite_board(infinite)
    before = decode(render_board(board))
    board.place([((2, col), letter) for col, letter in zip(range(3, 7), "RIES", strict=True)])
    after = decode(render_board(board))
    assert view_window(board) == Window(-4, -8, 12, 20, signed=True)
    assert after.size == (before.width + 4 * style.CELL, before.height)
    # The squares that were shown are where they were (the ten columns left of the new tiles are
    # unchanged), the new ones to their right.
    left = after.crop((0, 0, style.MARGIN + 10 * style.CELL, after.height))
    assert changed_box(left, before.crop((0, 0, style.MARGIN + 10 * style.CELL, before.height))) is None


def test_program_squares_have_their_own_colour(programs: Variant) -> None:
    image = decode(render_board(Board(programs)))
    for square in [(3, 3), (5, 5), (4, 0), (4, 8)]:  # P4 around the centre, P5 at the sides
        assert close(dominant(image, inner(square)), style.PROGRAM_SQUARE), square
    assert close(dominant(image, inner((0, 4))), style.PREMIUM_COLOURS[Premium.TRIPLE_WORD])
    assert all(close(colour, style.FRAME) for colour in colours(image.crop(inner((0, 0), margin=3))))


def test_set_tiles_on_the_board_and_on_a_rack(programs: Variant, letter_sets: Variant) -> None:
    image = decode(render_board(programs_board(programs)))
    assert close(dominant(image, inner((4, 4))), style.SET_FACE)  # set tile 1 as A
    assert close(dominant(image, inner((4, 3))), style.BLANK_FACE)
    assert close(dominant(image, inner((4, 5))), style.TILE_FACE)
    assert any(close(colour, style.SET_TEXT) for colour in colours(image.crop(square_box((2, 5)))))
    rack = decode(render_rack("1A", letter_sets))
    pad = style.RACK_PADDING + 10
    first = rack.crop((pad, pad, pad + style.RACK_TILE - 24, pad + style.RACK_TILE - 24))
    assert close(dominant(first, (0, 0, first.width, first.height)), style.SET_FACE)
    assert any(close(colour, style.SET_TEXT) for colour in colours(first))


# Rack.


def test_rack_size(standard: Variant) -> None:
    full = decode(render_rack("AEIRST?", standard))
    assert full.size == rack_size(7)
    assert decode(render_rack("QI", standard)).size == full.size
    assert decode(render_rack("", standard)).size == full.size
    assert decode(render_rack("ABCDEFGH", standard)).size == rack_size(8)


def test_rack_blank_is_an_empty_blank_tile(standard: Variant) -> None:
    image = decode(render_rack("A?", standard))
    step = style.RACK_TILE + style.RACK_GAP
    pad = style.RACK_PADDING + 10
    real = image.crop((pad, pad, pad + style.RACK_TILE - 24, pad + style.RACK_TILE - 24))
    blank = image.crop((pad + step, pad, pad + step + style.RACK_TILE - 24, pad + style.RACK_TILE - 24))
    assert all(close(colour, style.BLANK_FACE) for colour in colours(blank))
    assert close(dominant(real, (0, 0, real.width, real.height)), style.TILE_FACE)
    assert any(max(colour[:3]) < 100 for colour in colours(real))


def test_rack_is_transparent_around_the_wood(standard: Variant) -> None:
    image = decode(render_rack("AEIRST?", standard))
    assert pixel(image, (0, 0))[3] == 0
    assert pixel(image, (image.width // 2, 4))[3] > 250


@pytest.mark.parametrize("tiles", ["AB1", "a", "É", "*"])
def test_rack_rejects_unknown_tiles(standard: Variant, tiles: str) -> None:
    with pytest.raises(ValueError, match="not a tile"):
        render_rack(tiles, standard)


# Score chart.


def test_chart_size_and_player_colours() -> None:
    image = decode(render_score_chart(["Ada", "Grace"], [[10, 50, 90], [20, 40]]))
    assert image.size == style.CHART_SIZE
    found = colours(image)
    for colour in style.PLAYER_COLOURS[:2]:
        assert sum(count for drawn, count in found.items() if close(drawn, colour)) > 300
    assert not any(close(drawn, style.PLAYER_COLOURS[2]) for drawn in found)


@pytest.mark.parametrize(
    "totals",
    [[[], []], [[0], [0]], [[-5, -12], [3]], [list(range(0, 3000, 100)), list(range(0, 2900, 100))]],
)
def test_chart_handles_edge_cases(totals: list[list[int]]) -> None:
    assert decode(render_score_chart(["A", "B"], totals)).size == style.CHART_SIZE


def test_chart_with_many_players_and_long_names() -> None:
    names = [f"Player with a very long name {index}" for index in range(9)]
    image = decode(render_score_chart(names, [[index * 10, index * 25] for index in range(9)]))
    assert image.size == style.CHART_SIZE


def test_chart_needs_one_list_per_player() -> None:
    with pytest.raises(ValueError, match="2 players but 1"):
        render_score_chart(["A", "B"], [[1, 2]])


# Fonts.


def test_font_is_the_shipped_file_with_its_licence() -> None:
    path = Path(str(font(20).path))
    assert path.parent.name == "fonts"
    assert path.parent.parent.name == "assets"
    assert path.is_file()
    assert (path.parent / "DejaVuSans-Bold.LICENSE.txt").is_file()
