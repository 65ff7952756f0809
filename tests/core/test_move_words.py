"""Moves in words (scrabble_core.move_words): the whole word read off the board, where it goes and which
way, blanks and letter-set tiles said in words; exchanges, passes and racks."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scrabble_core.board import Board
from scrabble_core.errors import InvalidMoveError
from scrabble_core.move import Exchange, Pass, Play
from scrabble_core.move_words import (
    PlayInWords,
    move_in_words,
    play_in_words,
    rack_in_words,
    scored_in_words,
    tiles_in_words,
)
from scrabble_core.movegen import MoveGenerator
from scrabble_core.tiles import set_tile
from scrabble_core.variant import Variant, example_variants_dir, get_variant, load_variant

STANDARD = get_variant("standard")
SETS = load_variant(example_variants_dir() / "letter-sets.toml")
INFINITE = load_variant(example_variants_dir() / "infinite.toml")
NOTATION = re.compile(r"[A-Za-z]\.|\.[A-Za-z]|\?[A-Za-z]")
"""Engine notation in a text: a letter beside a dot (a tile played through), ``?`` before a letter."""


def board_with(variant: Variant | None, tiles: dict[tuple[int, int], str]) -> Board:
    board = Board(variant or STANDARD)
    board.place(tiles.items())
    return board


def test_the_whole_word_with_the_tiles_it_goes_through() -> None:
    board = board_with(None, {(5, 8): "D", (5, 10): "n"})
    words = play_in_words(Play.from_gcg("6F QAi.E.T"), board)
    assert words == PlayInWords("QAiDEnT", "6F (across)", "with a blank for the I")
    assert str(words) == "QAiDEnT at 6F (across), with a blank for the I"
    assert scored_in_words(str(words), 40) == "QAiDEnT at 6F (across) for 40, with a blank for the I"
    assert scored_in_words("ZA at 5E (across)", 22) == "ZA at 5E (across) for 22"
    assert words.placed == "QAiDEnT at 6F (across)"


def test_a_word_down_and_a_word_without_blanks() -> None:
    board = board_with(None, {(5, 6): "A"})
    assert str(play_in_words(Play.from_gcg("G6 .NE"), Board(STANDARD))) == "NE at G6 (down)"
    assert str(play_in_words(Play.from_gcg("G6 .NE"), board)) == "ANE at G6 (down)"


def test_two_blanks_are_both_named_in_order() -> None:
    words = play_in_words(Play.from_gcg("8H cAtS"), Board(STANDARD))
    assert str(words) == "cAtS at 8H (across), with blanks for the C and the T"
    three = play_in_words(Play.from_gcg("8H aBcDe"), Board(STANDARD))
    assert three.tiles == "with blanks for the A, the C and the E"


def test_letter_set_tiles_are_said_as_their_letters() -> None:
    board = board_with(SETS, {(7, 8): set_tile("2", "O")})
    words = play_in_words(Play.from_gcg("8H Q.[2I]Z"), board)
    assert words.word == "QOIZ"
    assert words.tiles == "with the I/O/U tile for the I"
    both = play_in_words(Play.from_gcg("8H [1A]x[1E]"), Board(SETS))
    assert str(both) == "AxE at 8H (across), with a blank for the X and A/E tiles for the A and the E"


def test_an_infinite_board_names_its_signed_square() -> None:
    words = play_in_words(Play(-3, 5, True, "QUIZ"), Board(INFINITE))
    assert str(words) == "QUIZ at 5,-3 (across)"
    assert play_in_words(Play(2, -1, False, "AX"), Board(INFINITE)).position == "-1,2 (down)"


def test_a_play_through_a_square_the_board_does_not_hold_leaves_it_out() -> None:
    assert play_in_words(Play.from_gcg("8H A.B"), Board(STANDARD)).word == "AB"


def test_exchanges_passes_and_racks() -> None:
    board = Board(STANDARD)
    assert move_in_words(Exchange("DEO?"), board) == "exchange DEO and a blank"
    assert move_in_words("-DEO", board) == "exchange DEO"
    assert move_in_words(Pass(), board) == "pass"
    assert move_in_words("-", board) == "pass"
    assert move_in_words("8H QUIZ", board) == "QUIZ at 8H (across)"
    assert tiles_in_words("??") == "2 blanks"
    assert tiles_in_words("") == "nothing"
    assert tiles_in_words("EBA?EA?", grouped=True) == "AA B EE and 2 blanks"
    assert tiles_in_words("??", grouped=True) == "2 blanks"
    assert tiles_in_words("AE1123?", SETS) == "AE, a blank, 2 A/E tiles, the I/O/U tile and the S/Z tile"
    assert rack_in_words("") == "empty"
    assert rack_in_words("AEIRST?") == "AEIRST and a blank"
    with pytest.raises(InvalidMoveError):
        move_in_words("8H", board)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rack=st.text(alphabet="ABCDEEEILNORSTU??", min_size=1, max_size=7))
def test_every_generated_play_reads_as_its_whole_word_without_notation(
    rack: str, enable_generator: MoveGenerator, own_midgame_rows: list[str]
) -> None:
    """For every play found for a rack on a midgame board: the word is the letters on its squares once it
    is played (blanks lowercase), never a dot or a ``?``-letter; its blanks are each named."""
    board = Board.from_rows(STANDARD, own_midgame_rows)
    for found in enable_generator.generate(board, rack)[:50]:
        play = found.play
        said = str(play_in_words(play, board))
        after = board.copy()
        after.place(play.placements())
        assert said.startswith(f"{''.join(after[square] or '' for square in play.squares())} at ")
        assert NOTATION.search(said) is None, said
        blanks = [letter for letter in play.letters if letter.islower()]
        assert said.count("the ") == len(blanks)
