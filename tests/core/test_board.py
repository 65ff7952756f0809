"""Tests of scrabble_core.board: text rows, the ASCII drawing, holes."""

from __future__ import annotations

import pytest

from scrabble_core.board import Board
from scrabble_core.errors import ScrabbleError
from scrabble_core.variant import Variant, get_variant

TINY_ROWS = ["....#....", ".........", "..TÄLEr..", "....N....", "....#...."]

TINY_ASCII = """\
    A B C D E F G H I
  1 = . . ' # ' . . =
  2 . - . . " . . - .
  3 ' . T Ä L E r . '
  4 . - . . N . . - .
  5 = . . ' # ' . . ="""

STANDARD_ASCII = """\
    A B C D E F G H I J K L M N O
  1 = . . ' . . . = . . . ' . . =
  2 . - . . . " . . . " . . . - .
  3 . . - . . . ' . ' . . . - . .
  4 ' . . - . . . ' . . . - . . '
  5 . . . . - . . . . . - . . . .
  6 . " . . . " . . . " . . . " .
  7 . . ' . . . ' . ' . . . ' . .
  8 = . . ' . . . Q u I Z ' . . =
  9 . . ' . . . ' . ' . . . ' . .
 10 . " . . . " . . . " . . . " .
 11 . . . . - . . . . . - . . . .
 12 ' . . - . . . ' . . . - . . '
 13 . . - . . . ' . ' . . . - . .
 14 . - . . . " . . . " . . . - .
 15 = . . ' . . . = . . . ' . . ="""


def test_ascii_of_a_small_position_with_holes(tiny_variant: Variant) -> None:
    board = Board.from_rows(tiny_variant, TINY_ROWS)
    assert board.ascii() == TINY_ASCII
    assert str(board) == TINY_ASCII
    assert repr(board) == "<Board tiny 6 tiles>"


def test_ascii_of_the_standard_board() -> None:
    variant = get_variant("standard")
    board = Board(variant)
    empty = STANDARD_ASCII.replace("Q u I Z", "* . . .")
    assert board.ascii() == empty
    board.place([((7, 7), "Q"), ((7, 8), "u"), ((7, 9), "I"), ((7, 10), "Z")])
    assert board.ascii() == STANDARD_ASCII


def test_ascii_shows_quadruple_squares() -> None:
    lines = Board(get_variant("super")).ascii().splitlines()
    assert lines[0] == "    A B C D E F G H I J K L M N O P Q R S T U"
    assert lines[1] == "  1 ~ . . ' . . . = . . ' . . = . . . ' . . ~"
    assert lines[3] == "  3 . . - . . ^ . . . - . - . . . ^ . . - . ."
    assert lines[11] == " 11 ' . . = . . ' . . . * . . . ' . . = . . '"


def test_rows_round_trip(tiny_variant: Variant) -> None:
    board = Board.from_rows(tiny_variant, TINY_ROWS)
    assert board.rows_text() == TINY_ROWS
    assert Board.from_rows(tiny_variant, board.rows_text()) == board
    # Holes may also be written "."; blank lines and surrounding spaces are ignored.
    loose = ["", "  ....." + "....  ", *TINY_ROWS[1:4], ".........", ""]
    assert Board.from_rows(tiny_variant, loose).rows_text() == [
        "....#....",
        *TINY_ROWS[1:4],
        "....#....",
    ]


def test_rows_round_trip_standard() -> None:
    variant = get_variant("standard")
    rows = ["." * 15] * 15
    rows[7] = ".....CaT......."
    rows[8] = ".......O......."
    board = Board.from_rows(variant, rows)
    assert board.rows_text() == rows
    assert board[(7, 6)] == "a"
    assert board[(7, 7)] == "T"
    assert board[(0, 0)] is None
    assert list(board.tiles()) == [((7, 5), "C"), ((7, 6), "a"), ((7, 7), "T"), ((8, 7), "O")]


def test_holes(tiny_variant: Variant) -> None:
    board = Board(tiny_variant)
    assert board.is_empty()
    assert board.rows_text()[0] == "....#...."
    assert not board.occupied((0, 4))
    assert not board.occupied((-1, 0))
    assert not board.occupied((0, 9))
    assert not board.occupied((5, 0))


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        (TINY_ROWS[:4], "the board has 5 rows, the text has 4"),
        ([*TINY_ROWS[:2], "..TÄLEr.", *TINY_ROWS[3:]], "row 3 has 8 squares, the board has 9"),
        (["....A....", *TINY_ROWS[1:]], "E1 is not a square of this board"),
        (["#........", *TINY_ROWS[1:]], "A1 is a square of this board, not a hole"),
        (["1...#....", *TINY_ROWS[1:]], "'1' at A1 is not a letter of this game"),
        (["Z...#....", *TINY_ROWS[1:]], "'Z' at A1 is not a letter of this game"),
    ],
)
def test_bad_rows(tiny_variant: Variant, rows: list[str], message: str) -> None:
    with pytest.raises(ScrabbleError) as info:
        Board.from_rows(tiny_variant, rows)
    assert str(info.value) == message


def test_place_remove_copy_and_equality() -> None:
    variant = get_variant("standard")
    board = Board(variant)
    board.place([((7, 7), "A"), ((7, 8), "t")])
    copy = board.copy()
    assert copy == board
    copy.remove([(7, 8)])
    assert copy != board
    assert board[(7, 8)] == "t"
    assert copy[(7, 8)] is None
    assert not copy.is_empty()
    copy.remove([(7, 7)])
    assert copy.is_empty()
    assert copy == Board(variant)
    assert Board(variant) != Board(get_variant("super"))
    assert board != "board"
    with pytest.raises(TypeError):
        hash(board)
