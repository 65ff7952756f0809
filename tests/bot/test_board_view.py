"""What every front end shows of a board (:mod:`bot.games.scrabble.board_view`): the window of an
infinite board, square looks and labels, the squares' programs in words, and how tiles read."""

from __future__ import annotations

import pytest

from bot.games.scrabble.board_view import (
    SquareLook,
    TileLook,
    Window,
    board_tile,
    multiplier_words,
    program_legend,
    rack_look,
    square_look,
    square_rules,
    view_window,
)
from bot.games.scrabble.text import rack_text, set_tiles_note
from scrabble_core.board import Board
from scrabble_core.tiles import set_tile
from scrabble_core.variant import Premium, example_variants_dir, get_variant, load_variant

INFINITE = load_variant(example_variants_dir() / "infinite.toml")
DIAMOND = load_variant(example_variants_dir() / "diamond.toml")
SETS = load_variant(example_variants_dir() / "letter-sets.toml")


def test_a_finite_board_is_shown_whole() -> None:
    board = Board(get_variant("standard"))
    board.place([((7, 7), "Q")])
    assert view_window(board) == Window(0, 0, 15, 15)


def test_an_empty_infinite_board_shows_eleven_squares_each_way_around_its_centre() -> None:
    window = view_window(Board(INFINITE))
    assert window == Window(-5, -5, 11, 11, signed=True)
    assert (0, 0) in window and (5, 5) in window and (-6, 0) not in window


def test_the_window_grows_by_blocks_as_tiles_near_its_edge() -> None:
    board = Board(INFINITE)
    board.place([((0, col), letter) for col, letter in enumerate("QUIZ")])  # 0,0 to 3,0
    # Columns -2 to 5 with the margin, out to blocks of 4: -4 to 7; rows -4 to 3, widened to 11.
    assert view_window(board) == Window(-5, -4, 11, 12, signed=True)
    board.place([((1, 3), "A"), ((2, 3), "P")])  # rows to 2 + 2, out to 7
    assert view_window(board) == Window(-4, -4, 12, 12, signed=True)
    board.place([((0, 6), "S")])  # 6,0: columns to 6 + 2, out to 11
    window = view_window(board)
    assert window == Window(-4, -4, 12, 16, signed=True)
    assert (window.left, window.right, window.top, window.bottom) == (-4, 11, -4, 7)
    board.place([((-9, 3), "X")])  # 3,-9: rows from -11, out to -12
    assert view_window(board) == Window(-12, -4, 20, 16, signed=True)


def test_a_window_names_its_columns_and_rows() -> None:
    finite, signed = Window(0, 0, 15, 15), Window(-5, -7, 11, 11, signed=True)
    assert (finite.column_label(7), finite.row_label(7)) == ("H", "8")
    assert (signed.column_label(-7), signed.row_label(-5), signed.row_label(3)) == ("-7", "-5", "3")
    assert list(Window(-1, 4, 2, 2, signed=True).squares()) == [(-1, 4), (-1, 5), (0, 4), (0, 5)]


def test_squares_look_as_their_premium_or_as_programs() -> None:
    standard = get_variant("standard")
    assert square_look(standard, (0, 0)) == SquareLook(Premium.TRIPLE_WORD, "TW")
    assert square_look(standard, (0, 1)) == SquareLook(Premium.PLAIN, "")
    assert square_look(standard, (15, 0)) is None
    assert square_look(INFINITE, (-4, -4)) == SquareLook(Premium.TRIPLE_WORD, "TW")
    assert square_look(INFINITE, (-8, 0)) == SquareLook(Premium.DOUBLE_WORD, "DW")
    assert square_look(DIAMOND, (6, 6)) == SquareLook(Premium.PLAIN, "P4", program=4)  # the vowel square
    assert square_look(DIAMOND, (7, 0)) == SquareLook(Premium.TRIPLE_WORD, "TW")
    assert square_look(DIAMOND, (0, 0)) is None  # outside the diamond: a hole
    assert square_look(DIAMOND, (5, 5)) is None  # a hole on the diagonal


def test_the_squares_programs_in_words_or_as_code() -> None:
    rules = {rule.square_id: rule for rule in square_rules(DIAMOND)}
    assert [rules[i].words for i in (0, 1, 2, 3)] == ["plain", "double letter", "triple word", "double word"]
    assert rules[4].words is None
    assert rules[4].code == (
        "0 = if (isVowel(charValue(_pos_))) then { _result_ := _acc_ + 3 * pointValue(_pos_) } "
        "else { _result_ := _acc_ + pointValue(_pos_) }"
    )
    assert program_legend(DIAMOND) == [f"P4 (square 4): {rules[4].code}"]
    assert program_legend(INFINITE) == []
    assert square_rules(get_variant("standard")) == []


@pytest.mark.parametrize(
    ("letter", "word", "words"),
    [
        (3, 1, "triple letter"),
        (1, 2, "double word"),
        (1, 1, "plain"),
        (5, 1, "5× letter"),
        (2, 3, "double letter and triple word"),
        (1, 4, "quadruple word"),
    ],
)
def test_multipliers_in_words(letter: int, word: int, words: str) -> None:
    assert multiplier_words(letter, word) == words


def test_tiles_read_as_letters_blanks_and_sets() -> None:
    assert board_tile(SETS, "Q") == TileLook("Q", 10)
    assert board_tile(SETS, "q") == TileLook("Q", None)
    assert board_tile(SETS, set_tile("3", "Z")) == TileLook("Z", 10, (("S", 1), ("Z", 10)))
    assert rack_look(SETS, "?") == TileLook("", None)
    assert rack_look(SETS, "2") == TileLook("", 1, (("I", 1), ("O", 1), ("U", 1)))
    assert rack_look(SETS, "E") == TileLook("E", 1)
    with pytest.raises(ValueError, match="'4' is not a tile of letter-sets"):
        rack_look(SETS, "4")


def test_a_rack_as_text_says_what_its_set_tiles_are() -> None:
    assert set_tiles_note(SETS, "AEN13?3") == "set tiles: 1 [AE], 3 [SZ]"
    assert set_tiles_note(SETS, "AEN?") == ""
    assert set_tiles_note(get_variant("standard"), "AEN12") == ""
    assert rack_text("AEN13?3", SETS, 7) == (
        "Your rack in <#7>: AEN, a blank, the A/E tile and 2 S/Z tiles (set tiles: 1 [AE], 3 [SZ])"
    )
    assert rack_text("AEN?", SETS, 7) == "Your rack in <#7>: AEN and a blank"


def test_a_window_past_its_largest_is_cut_around_the_last_move() -> None:
    board = Board(INFINITE)
    board.place([((0, col), "A") for col in range(60)])  # columns -4 to 63 with the margin
    assert view_window(board, [(0, 50), (0, 51)]) == Window(-5, 16, 11, 48, signed=True)  # as far as it goes
    assert view_window(board, [(0, 10)]) == Window(-5, -4, 11, 48, signed=True)
    assert view_window(board) == Window(-5, 6, 11, 48, signed=True)  # around the middle
    assert view_window(board, most=80) == Window(-5, -4, 11, 68, signed=True)
