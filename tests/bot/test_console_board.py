"""The board, rack and header drawn as terminal text, in colour and in plain ASCII."""

from __future__ import annotations

import re

import pytest

from bot.console.terminal_board import Style, draw_board, draw_header, draw_rack, draw_scores, legend
from bot.games.scrabble.images import BoardHeader, PlayerLine
from scrabble_core.board import Board
from scrabble_core.tiles import set_tile
from scrabble_core.variant import get_variant, variant_from_dict

_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def quiz_board(variant_name: str) -> Board:
    """QUIZ across from the start square, the I a blank."""
    variant = get_variant(variant_name)
    row, col = variant.start
    board = Board(variant)
    board.place([((row, col + i), tile) for i, tile in enumerate("QUiZ")])
    return board


def test_plain_board_has_coordinates_premiums_values_and_the_last_move() -> None:
    text = draw_board(quiz_board("standard"), {(7, 7), (7, 8), (7, 9)}, Style.PLAIN)
    lines = text.splitlines()
    assert text.isascii()
    assert len(lines) == 15 + 2
    assert lines[0].split() == list("ABCDEFGHIJKLMNO") == lines[-1].split()
    assert " ".join(lines[1].split()) == "1 TW . . DL . . . TW . . . DL . . TW 1"
    assert ">Q10>U1 >i   Z10" in lines[8]  # the blank: lowercase, no value; Z not in the last move
    assert len({line.rindex(" ") for line in lines[1:-1]}) == 1  # the columns line up


def test_plain_board_before_the_first_move_shows_the_start() -> None:
    lines = draw_board(Board(get_variant("standard")), (), Style.PLAIN).splitlines()
    assert lines[8].split()[8] == "*"


@pytest.mark.parametrize(("variant", "size"), [("standard", 15), ("super", 21)])
def test_rich_board_is_coloured_and_aligned(variant: str, size: int) -> None:
    board = quiz_board(variant)
    text = draw_board(board, {board.variant.start}, Style.RICH)
    lines = _ANSI.sub("", text).splitlines()
    assert len(lines) == size + 2
    assert {line.rindex(" ") for line in lines[1:-1]} == {len(str(size)) + 1 + 4 * size}
    assert "Q₁₀" in text and " i " in text
    assert text.count("\x1b[") >= size * size


def test_rack_header_and_scores() -> None:
    variant = get_variant("standard")
    assert draw_rack("AQ?", variant, Style.PLAIN) == "A1 Q10 ?"
    assert _ANSI.sub("", draw_rack("AQ?", variant, Style.RICH)) == " A₁ Q₁₀  ? "
    assert draw_rack("", variant, Style.PLAIN) == "(empty)"
    header = BoardHeader([PlayerLine("Ann", 34, False), PlayerLine("AI", 20, True)], 79)
    assert draw_header(header, Style.PLAIN) == "Ann 34   > AI 20   | bag: 79"
    assert draw_scores(["Ann", "AI"], [[34, 60], [20]]) == "Ann: 34 60\nAI:  20"


_CELL_COLOURS = re.compile(r"\x1b\[1;38;5;(\d+);48;5;(\d+)m([^\x1b]*)")


def cube(colour: int) -> tuple[int, int, int]:
    """The red, green and blue steps (0 to 5) of an xterm colour of the 6x6x6 cube."""
    red, rest = divmod(colour - 16, 36)
    green, blue = divmod(rest, 6)
    return red, green, blue


def test_rich_last_move_stands_out_from_the_tiles() -> None:
    board = quiz_board("standard")  # Q U i Z from H8
    text = draw_board(board, {(7, 7), (7, 8)}, Style.RICH)
    faces = {cell.strip(): int(face) for _, face, cell in _CELL_COLOURS.findall(text) if cell.strip()}
    last, tile, blank = cube(faces["Q₁₀"]), cube(faces["Z₁₀"]), cube(faces["i"])
    for other in (tile, blank):
        assert sum((a - b) ** 2 for a, b in zip(last, other, strict=True)) >= 4, (last, other)
    assert "the last move is on bright yellow" in legend(board.variant, Style.RICH)


@pytest.mark.parametrize("drawing", list(Style))
def test_two_digit_values_never_run_into_the_next_tile(drawing: Style) -> None:
    variant = get_variant("standard")
    board = Board(variant)
    board.place([((7, 5 + i), tile) for i, tile in enumerate("QZQaZ")])
    for last_move in [(), {(7, 6), (7, 7)}]:
        row = _ANSI.sub("", draw_board(board, last_move, drawing)).splitlines()[8]
        assert not re.search(r"[0-9₀-₉][A-Za-z]", row), row
        assert len(re.findall(r"[QZ][0-9₀-₉]{2}", row)) == 4


def test_the_legend_explains_every_premium_of_the_board() -> None:
    standard, super_board = get_variant("standard"), get_variant("super")
    assert legend(standard, Style.PLAIN) == (
        "TW triple word, DW double word, TL triple letter, DL double letter, * start; a lowercase tile is "
        "a blank (0 points); > marks the tiles of the last move."
    )
    assert legend(super_board, Style.RICH).startswith(
        "QW quadruple word, TW triple word, DW double word, QL quadruple letter, TL triple letter, "
        "DL double letter, * start; "
    )
    shown = set(_ANSI.sub("", draw_board(Board(super_board), (), Style.RICH)).split())
    assert {"QW", "QL", "TW", "DW", "TL", "DL", "*"} <= shown
    holes = variant_from_dict(
        {
            "name": "holes",
            "board": {"start": "B2", "layout": "## -- --\n-- 2W --\n-- -- 3L"},
            "tiles": {"blanks": 0, "A": [20, 1]},
        },
        "test",
    )
    assert legend(holes, Style.PLAIN) == (
        "DW double word, TL triple letter, * start, # no square; a lowercase tile is a blank (0 points); "
        "> marks the tiles of the last move."
    )


def test_an_infinite_board_is_drawn_as_its_window_with_signed_coordinates() -> None:
    variant = get_variant("infinite")
    board = Board(variant)
    board.place([((0, col), tile) for col, tile in zip(range(-2, 2), "QUiZ", strict=True)])  # -2,0 across
    text = draw_board(board, {(0, -2), (0, -1)}, Style.PLAIN)
    lines = text.splitlines()
    assert len(lines) == 11 + 2
    assert lines[0].split() == [str(x) for x in range(-5, 6)] == lines[-1].split()  # x from -5 to 5
    assert lines[1].split() == ["-5", *["."] * 11, "-5"]
    assert lines[2].split() == ["-4", ".", "TW", ".", ".", ".", "TL", ".", ".", ".", "TW", ".", "-4"]
    assert lines[6] == " 0  .   TL  .  >Q10>U1  i   Z10 .   .   TL  .   0"
    assert len({line.rindex(" ") for line in lines[1:-1]}) == 1
    rich = _ANSI.sub("", draw_board(board, (), Style.RICH)).splitlines()
    assert rich[0].split() == lines[0].split()
    assert "Q₁₀" in rich[6]


def test_long_signed_column_labels_are_written_downwards() -> None:
    board = Board(get_variant("infinite"))
    board.place([((0, col), "A") for col in range(996, 1000)])  # far from 0,0: cut to 48 columns
    lines = draw_board(board, [(0, 996)], Style.PLAIN).splitlines()
    header = lines[:4]
    assert header == lines[-4:]
    labels = ["".join(line[4 + 4 * index : 5 + 4 * index] for line in header).strip() for index in range(48)]
    assert labels == [str(x) for x in range(956, 1004)]
    assert lines[4].split()[0] == "-5"
    assert ">A1  A1  A1  A1  DW" in lines[9]


def test_program_squares_set_tiles_and_their_legend() -> None:
    diamond, sets = get_variant("diamond"), get_variant("letter-sets")
    lines = draw_board(Board(diamond), (), Style.PLAIN).splitlines()
    assert lines[7].split()[1:-1] == [
        "#",
        ".",
        "DL",
        ".",
        ".",
        ".",
        "P4",
        ".",
        "P4",
        ".",
        ".",
        ".",
        "DL",
        ".",
        "#",
    ]
    assert "; P4 (square 4): 0 = if (isVowel(charValue(_pos_))) then" in legend(diamond, Style.PLAIN)
    board = Board(sets)
    board.place([((7, 7), set_tile("3", "Z")), ((7, 8), "A")])
    row = draw_board(board, (), Style.PLAIN).splitlines()[8]
    assert "+Z10 A1 " in row
    assert "a set tile shows the letter played as, after a +" in legend(sets, Style.PLAIN)
    rich = draw_board(board, {(7, 8)}, Style.RICH)
    assert any(cell.strip() == "Z₁₀" for _, _, cell in _CELL_COLOURS.findall(rich))
    assert draw_rack("A13?", sets, Style.PLAIN) == "A1 1[AE]1 3[SZ]1/10 ?"
    assert _ANSI.sub("", draw_rack("3", sets, Style.RICH)) == " 3[SZ]₁/₁₀ "
