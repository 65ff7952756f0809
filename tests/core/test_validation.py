"""Tests of scrabble_core.validation: one typed error, with its exact message, per rule a play breaks."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from scrabble_core.board import Board
from scrabble_core.errors import (
    EmptySquareError,
    FirstMoveTooShortError,
    GapError,
    IllegalMoveError,
    InvalidMoveError,
    NotConnectedError,
    NoTilesError,
    NotInLineError,
    OffBoardError,
    ScrabbleError,
    SquareOccupiedError,
    StartSquareError,
    TileNotOnRackError,
    UnknownWordsError,
)
from scrabble_core.game import Game
from scrabble_core.lexicon import ENGLISH_ALPHABET, Lexicon
from scrabble_core.move import Play
from scrabble_core.validation import (
    canonical_play,
    check_play,
    check_rack,
    missing_tiles,
    play_from_tiles,
    unknown_words,
)
from scrabble_core.variant import Variant, get_variant

WORDS = ["QUIZ", "ZA", "AX", "QAT", "CAT", "CATS", "AT", "TA", "BAT", "ZAX", "QI"]


@pytest.fixture
def lexicon() -> Lexicon:
    return Lexicon.from_words(WORDS, ENGLISH_ALPHABET)


def after(*plays: str, variant: Variant | None = None) -> Board:
    """The board after ``plays`` (GCG notation), each checked and placed in turn."""
    board = Board(variant or get_variant("standard"))
    for text in plays:
        play = Play.from_gcg(text)
        check_play(board, play)
        board.place(play.placements())
    return board


def error_of(board: Board, play: str, **kwargs: object) -> ScrabbleError:
    with pytest.raises(ScrabbleError) as info:
        check_play(board, Play.from_gcg(play), **kwargs)  # type: ignore[arg-type]
    return info.value


def test_square_occupied() -> None:
    board = after("8H QUIZ")
    error = error_of(board, "H7 AX")
    assert type(error) is SquareOccupiedError
    assert str(error) == "H8 is already taken by Q"
    assert (error.square, error.letter) == ("H8", "Q")
    assert isinstance(error, IllegalMoveError)


def test_square_occupied_by_a_blank_names_its_letter() -> None:
    board = after("8H QuIZ")
    error = error_of(board, "I7 AX")
    assert type(error) is SquareOccupiedError
    assert str(error) == "I8 is already taken by U"


def test_square_occupied_in_a_game(make_game: Callable[..., Game]) -> None:
    game = make_game(["AX", "QUIZ"], draws="EEEE", current=1)
    game.play(1, "8H QUIZ")
    with pytest.raises(SquareOccupiedError) as info:
        game.play(0, Play.from_gcg("H7 AX"))
    assert str(info.value) == "H8 is already taken by Q"
    # Typed by a player, a letter that differs from the tile on its square is the same error.
    with pytest.raises(SquareOccupiedError) as info:
        game.play(0, "h7 ax")
    assert str(info.value) == "H8 is already taken by Q"


def test_empty_square() -> None:
    board = after("8H QUIZ")
    error = error_of(board, "9H A.")
    assert type(error) is EmptySquareError
    assert str(error) == "I9 is empty: there is no tile there to play through"
    assert error.square == "I9"


def test_no_tiles() -> None:
    board = after("8H QUIZ")
    error = error_of(board, "8H ....")
    assert type(error) is NoTilesError
    assert str(error) == "the move places no tiles"


def test_tile_not_on_rack_names_the_missing_tiles() -> None:
    board = Board(get_variant("standard"))
    error = error_of(board, "8H QUIZ", rack="AEIUSTR")
    assert type(error) is TileNotOnRackError
    assert str(error) == "you don't have Q and Z on your rack"
    assert error.missing == "QZ"
    error = error_of(board, "8H QuIZ", rack="QIZAEST")
    assert str(error) == "you don't have a blank on your rack"
    assert check_play(board, Play.from_gcg("8H QUIZ"), rack="QUIZ?").total == 44
    assert missing_tiles("AAB?", "AAAB??Q") == "A?Q"
    check_rack("AB?", "?A")
    with pytest.raises(TileNotOnRackError) as info:
        check_rack("AB", "AAB?")
    assert str(info.value) == "you don't have A and a blank on your rack"


def test_off_the_board_edge() -> None:
    board = after("8H QUIZ")
    error = error_of(board, "8L SQUAT")
    assert type(error) is OffBoardError
    assert str(error) == "P8 is off the board"
    assert (error.square, error.hole) == ("P8", False)
    error = error_of(board, "K12 ZAXES")
    assert str(error) == "K16 is off the board"


def test_off_the_board_on_a_hole(tiny_variant: Variant) -> None:
    board = Board(tiny_variant)
    # The start is E3; the column E has holes on E1 and E5.
    error = error_of(board, "E1 BAT")
    assert type(error) is OffBoardError
    assert str(error) == "E1 is not a square of this board"
    assert error.hole
    board = after("3C BAT", variant=tiny_variant)
    error = error_of(board, "E3 .AB")
    assert str(error) == "E5 is not a square of this board"


def test_start_square() -> None:
    error = error_of(Board(get_variant("standard")), "8A QUIZ")
    assert type(error) is StartSquareError
    assert str(error) == "the first word must cover the start square H8"
    assert error.square == "H8"
    error = error_of(Board(get_variant("super")), "11A QUIZ")
    assert str(error) == "the first word must cover the start square K11"


def test_first_move_too_short() -> None:
    error = error_of(Board(get_variant("standard")), "8H Q")
    assert type(error) is FirstMoveTooShortError
    assert str(error) == "the first word must be at least 2 letters long"


def test_not_connected() -> None:
    board = after("8H QUIZ")
    error = error_of(board, "2B CAT")
    assert type(error) is NotConnectedError
    assert str(error) == "the word must touch a tile already on the board"
    # Diagonal contact is no contact.
    error = error_of(board, "7L AT")
    assert type(error) is NotConnectedError


def test_letter_outside_the_alphabet() -> None:
    error = error_of(Board(get_variant("standard")), "8H ÄB")
    assert type(error) is InvalidMoveError
    assert str(error) == "'Ä' is not a letter of this game"


def test_unknown_words_lists_main_and_cross_words(lexicon: Lexicon) -> None:
    board = after("8H ZA")
    # QZX on G9-I9 under ZA: the main word QZX, and down ZZ (H8-H9) and AX (I8-I9); AX is a word.
    error = error_of(board, "9G QZX", lexicon=lexicon)
    assert type(error) is UnknownWordsError
    assert str(error) == "QZX and ZZ are not in the dictionary"
    assert error.words == ("QZX", "ZZ")
    assert unknown_words(board, Play.from_gcg("9G QZX").placements(), True, lexicon) == ["QZX", "ZZ"]


def test_unknown_words_single_and_many(lexicon: Lexicon) -> None:
    board = after("8H ZA")
    error = error_of(board, "8J Q", lexicon=lexicon)
    assert str(error) == "ZAQ is not in the dictionary"
    # Three unknown words, main word first, each once; blanks are looked up as their letter.
    error = error_of(board, "9H qq", lexicon=lexicon)
    assert str(error) == "QQ, ZQ and AQ are not in the dictionary"
    assert check_play(board, Play.from_gcg("8J x"), lexicon=lexicon).total == 11


def test_a_valid_play_returns_its_score(lexicon: Lexicon) -> None:
    board = after("8H ZA")
    breakdown = check_play(board, Play.from_gcg("9I X"), rack="XYZ", lexicon=lexicon)
    assert breakdown.describe() == "AX 17"  # X on I9 (2L)
    # Nothing is changed by checking.
    assert board == after("8H ZA")


def test_checks_run_in_order() -> None:
    board = after("8H QUIZ")
    # Off the board is reported before the occupied square, the occupied square before the rack.
    assert type(error_of(board, "8K ZZZZZZ", rack="")) is OffBoardError
    assert type(error_of(board, "8G XX", rack="")) is SquareOccupiedError
    assert type(error_of(board, "2B CAT", rack="")) is TileNotOnRackError


# --- play_from_tiles: tiles put on squares one by one (a graphical front end) --------------------


def test_play_from_tiles_builds_the_canonical_play() -> None:
    board = after("8H QUIZ")
    play = play_from_tiles(board, [((8, 10), "A"), ((9, 10), "X")])
    assert play == Play(7, 10, False, ".AX")
    play = play_from_tiles(board, [((6, 6), "A"), ((6, 8), "T"), ((6, 7), "A")])
    assert play == Play(6, 6, True, "AAT")
    # A gap filled by a tile of the board is written "."; the order of the tiles does not matter.
    play = play_from_tiles(board, [((7, 12), "S"), ((7, 6), "B"), ((7, 11), "E")])
    assert play == Play(7, 6, True, "B....ES")


def test_play_from_tiles_errors() -> None:
    board = after("8H QUIZ")
    with pytest.raises(NotInLineError) as info:
        play_from_tiles(board, [((8, 7), "A"), ((9, 8), "X")])
    assert str(info.value) == "the tiles must all be in one row or one column"
    with pytest.raises(GapError) as gap:
        play_from_tiles(board, [((8, 7), "A"), ((8, 9), "X")])
    assert str(gap.value) == "the word has a gap at I9"
    assert gap.value.square == "I9"
    with pytest.raises(GapError) as gap:
        play_from_tiles(board, [((2, 7), "A"), ((6, 7), "X")])
    assert str(gap.value) == "the word has a gap at H4"
    with pytest.raises(NoTilesError):
        play_from_tiles(board, [])
    with pytest.raises(SquareOccupiedError) as occupied:
        play_from_tiles(board, [((7, 7), "A")])
    assert str(occupied.value) == "H8 is already taken by Q"
    with pytest.raises(OffBoardError) as off:
        play_from_tiles(board, [((7, 15), "A")])
    assert str(off.value) == "P8 is off the board"
    with pytest.raises(InvalidMoveError) as twice:
        play_from_tiles(board, [((8, 7), "A"), ((8, 7), "B")])
    assert str(twice.value) == "two tiles on H9"


def test_play_from_tiles_on_a_hole(tiny_variant: Variant) -> None:
    with pytest.raises(OffBoardError) as info:
        play_from_tiles(Board(tiny_variant), [((0, 4), "A"), ((1, 4), "T")])
    assert str(info.value) == "E1 is not a square of this board"


# --- canonical_play ---------------------------------------------------------------------------------


def test_canonical_play_extends_to_the_whole_word() -> None:
    board = after("8G CAT")
    assert canonical_play(board, Play.from_gcg("8J S")).gcg() == "8G ...S"
    assert canonical_play(board, Play.from_gcg("8F S")).gcg() == "8F S..."
    assert canonical_play(board, Play.from_gcg("8E AS")).gcg() == "8E AS..."
    assert canonical_play(board, Play.from_gcg("8H ..S")).gcg() == "8G ...S"
    assert canonical_play(board, Play.from_gcg("8J SO")).gcg() == "8G ...SO"
    assert canonical_play(board, Play.from_gcg("8G ...S")).gcg() == "8G ...S"


def test_canonical_play_of_one_tile_takes_the_direction_of_its_word() -> None:
    board = after("8G CAT")
    # Written down, a tile that only makes a word across becomes an across play, and back.
    assert canonical_play(board, Play.from_gcg("J8 S")).gcg() == "8G ...S"
    assert canonical_play(board, Play.from_gcg("9G A")).gcg() == "G8 .A"
    assert canonical_play(board, Play.from_gcg("G7 A")).gcg() == "G7 A."
    # A tile making words both ways is written across.
    board = after("8G CAT", "G9 AB")
    assert canonical_play(board, Play.from_gcg("H9 T")).gcg() == "9G .T"
    assert canonical_play(board, Play.from_gcg("9H T")).gcg() == "9G .T"


def test_canonical_play_of_no_tile_is_unchanged() -> None:
    board = after("8G CAT")
    assert canonical_play(board, Play.from_gcg("8G ...")) == Play.from_gcg("8G ...")


def test_error_hierarchy() -> None:
    illegal = [
        SquareOccupiedError, EmptySquareError, NotInLineError, GapError, NoTilesError, TileNotOnRackError,
        OffBoardError, StartSquareError, FirstMoveTooShortError, NotConnectedError, UnknownWordsError,
    ]  # fmt: skip
    for error in illegal:
        assert issubclass(error, IllegalMoveError)
        assert issubclass(error, ScrabbleError)
    assert issubclass(InvalidMoveError, ScrabbleError)
    assert not issubclass(InvalidMoveError, IllegalMoveError)
    assert issubclass(ScrabbleError, ValueError)
