"""``/scrabble rules`` for boards written as programs (:mod:`bot.games.scrabble.rules`): an infinite
board and its notation, the squares' programs in words or as code, and set tiles."""

from __future__ import annotations

import pytest

from bot.games.scrabble.rules import move_example, rules_text
from scrabble_core.variant import VARIANTS, get_variant


def test_an_infinite_board_is_described_with_its_squares_in_words() -> None:
    infinite = get_variant("infinite")
    assert rules_text(infinite, None, "board") == (
        "**Board**: infinite (Infinite board (premiums every 8 squares, English)): words go as far as you "
        "like in every direction. A square is named x,y: x counts columns to the right, y rows down, and "
        "the start square is 0,0. Its squares:\n"
        "- Square 0: plain\n"
        "- DL (square 1): double letter\n"
        "- TL (square 2): triple letter\n"
        "- DW (square 3): double word\n"
        "- TW (square 4): triple word"
    )
    assert rules_text(infinite, None, "notation").startswith(
        "**Notation**: the square of the first letter as x,y, then `across` or `down` (`a` or `d`): "
        "`-3,5 across QUIZ` starts at -3,5 and goes right, `0,0 down QUIZ` goes down."
    )


def test_a_square_no_words_say_is_shown_as_its_code() -> None:
    board = rules_text(get_variant("diamond"), None, "board")
    assert board.endswith(
        "- DW (square 3): double word\n"
        "- P4 (square 4): scored by its program\n"
        "```\n"
        "0 = if (isVowel(charValue(_pos_))) then { _result_ := _acc_ + 3 * pointValue(_pos_) } "
        "else { _result_ := _acc_ + pointValue(_pos_) }\n"
        "```"
    )
    assert rules_text(get_variant("standard"), None, "board") == (
        "**Board**: 15×15 squares (Standard Scrabble (15x15, English))."
    )


def test_set_tiles_in_the_tiles_and_the_notation() -> None:
    sets = get_variant("letter-sets")
    assert (
        "A set tile stands for one letter of its set, chosen when it is played, and scores that letter's "
        "points: 4 × set tile 1 [AE] (A 1, E 1); 3 × set tile 2 [IOU] (I 1, O 1, U 1); 2 × set tile 3 [SZ] "
        "(S 1, Z 10). Each player"
    ) in rules_text(sets, None, "tiles")
    assert rules_text(sets, None, "notation").endswith(
        "`?E` is a blank used as E. `[1E]` is set tile 1 used as E."
    )
    assert "set tile" not in rules_text(get_variant("standard"))


@pytest.mark.parametrize("name", VARIANTS.names())
def test_the_play_forms_example_fits_its_placeholder(name: str) -> None:
    example = move_example(get_variant(name))
    assert len(example) <= 100  # Discord's limit for a text input's placeholder
    assert example.startswith("-3,5 across QUIZ" if name == "infinite" else "8H QUIZ (across)")
