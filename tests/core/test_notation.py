"""Tests of scrabble_core.notation: what players type, turned into exact plays."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from scrabble_core.board import Board
from scrabble_core.errors import (
    EmptySquareError,
    InvalidMoveError,
    NoTilesError,
    OffBoardError,
    SquareOccupiedError,
    TileNotOnRackError,
)
from scrabble_core.game import Game
from scrabble_core.move import Play
from scrabble_core.movegen import MoveGenerator
from scrabble_core.notation import parse_player_play, parse_tiles, player_notation
from scrabble_core.variant import Variant, get_variant


def empty() -> Board:
    return Board(get_variant("standard"))


def with_cat() -> Board:
    board = empty()
    board.place(Play.from_gcg("8G CAT").placements())
    return board


def parsed(text: str, board: Board, rack: str) -> str:
    return parse_player_play(text, board, rack).gcg()


def test_case_insensitive() -> None:
    assert parsed("8h quiz", empty(), "QUIZAEI") == "8H QUIZ"
    assert parsed("h8 QuIz", empty(), "QUIZAEI") == "H8 QUIZ"
    assert parse_player_play("  8H   QUIZ  ", empty(), "QUIZAEI") == Play(7, 7, True, "QUIZ")


def test_whole_word_typed_with_the_board_tiles() -> None:
    assert parsed("8g cats", with_cat(), "SAEIRTN") == "8G ...S"
    assert parsed("8f scat", with_cat(), "SAEIRTN") == "8F S..."
    # The same with "." for the tiles on the board, and mixed.
    assert parsed("8g ...s", with_cat(), "SAEIRTN") == "8G ...S"
    assert parsed("8g c.ts", with_cat(), "SAEIRTN") == "8G ...S"


def test_auto_extension_when_the_tiles_touch_the_word() -> None:
    # Only the new tile typed: the word is extended over CAT, before and after.
    assert parsed("8j s", with_cat(), "SAEIRTN") == "8G ...S"
    assert parsed("8f s", with_cat(), "SAEIRTN") == "8F S..."
    assert parsed("8j ss", with_cat(), "SSAEIRT") == "8G ...SS"


def test_one_tile_plays_are_canonical() -> None:
    # Typed down, an S after CAT only forms a word across.
    assert parsed("j8 s", with_cat(), "SAEIRTN") == "8G ...S"
    # Typed across, an A under the C forms CA down.
    assert parsed("9g a", with_cat(), "SAEIRTN") == "G8 .A"


def test_marked_blank() -> None:
    assert parsed("8h ?eat", empty(), "AT?") == "8H eAT"
    assert parsed("8h e?at", empty(), "E?T") == "8H EaT"
    assert parsed("8h ?e?a?t", empty(), "???") == "8H eat"


def test_unmarked_missing_letter_uses_a_blank() -> None:
    assert parsed("8h eat", empty(), "AT?") == "8H eAT"
    # Which Z is real does not change the score: the first ones are taken as the blanks.
    assert parsed("8h zzz", empty(), "Z??") == "8H zzZ"


def test_real_tile_preferred_to_a_blank() -> None:
    assert parsed("8h eat", empty(), "EAT?") == "8H EAT"
    assert parsed("8h eat", empty(), "?EAT") == "8H EAT"


def test_ambiguous_blank_that_changes_the_score() -> None:
    # EERIE on D8-H8 with two E's and a blank: the blank on D8 (2L) scores less than elsewhere.
    with pytest.raises(InvalidMoveError) as info:
        parse_player_play("8d eerie", empty(), "EEIR?ST")
    assert str(info.value) == (
        "your blank could stand for more than one of these letters and the score depends on which: "
        "mark the blank with ?E in the word"
    )
    # Marked, it is clear.
    assert parsed("8d ?eerie", empty(), "EEIR?ST") == "8D eERIE"
    assert parsed("8d e?erie", empty(), "EEIR?ST") == "8D EeRIE"
    assert parsed("8d eeri?e", empty(), "EEIR?ST") == "8D EERIe"


def test_ambiguous_blank_with_the_same_score_is_accepted() -> None:
    # On G8-K8 every E is on a square without a letter premium: the first E is taken as the blank.
    assert parsed("8g eerie", empty(), "EEIR?ST") == "8G eERIE"


def test_impossible_play_names_the_missing_tiles() -> None:
    with pytest.raises(TileNotOnRackError) as info:
        parse_player_play("8h quiz", empty(), "AEIOST?")
    # The blank covers the Q; U and Z are still missing.
    assert str(info.value) == "you don't have U and Z on your rack"
    with pytest.raises(TileNotOnRackError) as info:
        parse_player_play("8h quiz", empty(), "AEOST")
    assert str(info.value) == "you don't have Q, U, I and Z on your rack"
    with pytest.raises(TileNotOnRackError) as info:
        parse_player_play("8h ?q?i", empty(), "QI?")
    assert str(info.value) == "you don't have a blank on your rack"


def test_letters_that_clash_with_the_board() -> None:
    with pytest.raises(SquareOccupiedError) as info:
        parse_player_play("8g dog", with_cat(), "DOGAEIS")
    assert str(info.value) == "G8 is already taken by C"
    # A blank cannot be marked over a tile already on the board.
    with pytest.raises(SquareOccupiedError) as info:
        parse_player_play("8g ?cats", with_cat(), "S?")
    assert str(info.value) == "G8 is already taken by C"


def test_dot_on_an_empty_square() -> None:
    with pytest.raises(EmptySquareError) as info:
        parse_player_play("8h q.iz", empty(), "QIZ")
    assert str(info.value) == "I8 is empty: there is no tile there to play through"


def test_off_the_board() -> None:
    with pytest.raises(OffBoardError) as info:
        parse_player_play("8l squat", with_cat(), "SQUATEE")
    assert str(info.value) == "P8 is off the board"


def test_over_a_hole(tiny_variant: Variant) -> None:
    with pytest.raises(OffBoardError) as info:
        parse_player_play("e1 bat", Board(tiny_variant), "BAT")
    assert str(info.value) == "E1 is not a square of this board"


def test_blank_of_another_alphabet(tiny_variant: Variant) -> None:
    assert parse_player_play("3c b?äl", Board(tiny_variant), "BL?") == Play(2, 2, True, "BäL")
    assert parse_player_play("3c bäl", Board(tiny_variant), "BL?") == Play(2, 2, True, "BäL")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("8h", "write a play as a coordinate and a word: 8H QUIZ goes across from H8, H8 QUIZ goes down"),
        ("8h qu iz", "write a play as a coordinate and a word: 8H QUIZ goes across from H8, H8 QUIZ goes down"),
        ("88 quiz", "'88' is not a coordinate: write the row then the column for a word across (8H), or the "
         "column then the row for a word down (H8)"),
        ("0h quiz", "'0h' is not a coordinate on any board"),
        ("8h qu1z", "'1' cannot be part of a word: use letters, ? before a blank's letter"),
        ("8h quiz!", "'!' cannot be part of a word: use letters, ? before a blank's letter"),
        ("8h quiz?", "? marks a blank and must come before its letter, e.g. ?E"),
        ("8h ?.uiz", "? marks a blank and must come before its letter, e.g. ?E"),
        ("8h äb", "ä (Latin small letter A with diaeresis) is not a letter of this game"),
        ("8h ſit", "ſ (Latin small letter long S) is not a letter of this game"),
        ("8h qız", "ı (Latin small letter dotless I) is not a letter of this game"),
        ("8h ?ı", "ı (Latin small letter dotless I) is not a letter of this game"),
        ("8h ZА", "А (Cyrillic capital letter A) is not the Latin letter A"),
        ("8h zа", "а (Cyrillic small letter A) is not the Latin letter A"),
        ("8h qu٨z", "٨ (Arabic-indic digit eight) is not one of the digits 0-9"),
        ("٨H quiz", "٨ (Arabic-indic digit eight) is not one of the digits 0-9"),
        ("K𝟏𝟏 quiz", "𝟏 (Mathematical bold digit one) is not one of the digits 0-9"),
        ("ſ8 quiz", "ſ (Latin small letter long S) is not a column letter A to Y"),
        ("8А quiz", "А (Cyrillic capital letter A) is not the Latin letter A"),
        ("8h " + "a" * 200, "that is far too long to be a play"),
    ],
)  # fmt: skip
def test_not_a_play(text: str, message: str) -> None:
    with pytest.raises(InvalidMoveError) as info:
        parse_player_play(text, empty(), "QUIZAB?")
    assert str(info.value) == message


def test_only_board_tiles_typed_is_no_play(make_game: Callable[..., Game]) -> None:
    board = with_cat()
    assert parse_player_play("8g cat", board, "SAEIRTN") == Play(7, 6, True, "...")
    game = make_game(["SAEIRTN", "AEIOUST"], board=board.rows_text(), draws="EEEEEEEE")
    with pytest.raises(NoTilesError) as info:
        game.play(0, "8g cat")
    assert str(info.value) == "the move places no tiles"


@pytest.mark.parametrize(
    ("text", "tiles"), [("aei", "AEI"), ("A, E, ?", "AE?"), (" q z ", "QZ"), ("ää", "ÄÄ")]
)
def test_parse_tiles(text: str, tiles: str) -> None:
    assert parse_tiles(text, "AÄEIQZ") == tiles


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "name the tiles to exchange, e.g. AEI (? for a blank)"),
        (" , ", "name the tiles to exchange, e.g. AEI (? for a blank)"),
        ("a" * 201, "name the tiles to exchange, e.g. AEI (? for a blank)"),
        ("ae1", "'1' is not a tile: use letters, and ? for a blank"),
        ("a.e", "'.' is not a tile: use letters, and ? for a blank"),
        ("aä", "ä (Latin small letter A with diaeresis) is not a letter of this game"),
        ("ſ", "ſ (Latin small letter long S) is not a letter of this game"),
        ("ı", "ı (Latin small letter dotless I) is not a letter of this game"),
        ("Е", "Е (Cyrillic capital letter ie) is not a letter of this game"),
        ("А", "А (Cyrillic capital letter A) is not the Latin letter A"),
        ("٣", "٣ (Arabic-indic digit three) is not one of the digits 0-9"),
    ],
)
def test_bad_tiles(text: str, message: str) -> None:
    with pytest.raises(InvalidMoveError) as info:
        parse_tiles(text, "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    assert str(info.value) == message


def test_player_notation_marks_blanks_and_board_tiles() -> None:
    assert player_notation(Play.from_gcg("H8 qu.Z")) == "H8 ?Q?U.Z"
    assert player_notation(Play.from_gcg("8D WINDY")) == "8D WINDY"


def test_player_notation_reads_back_to_every_generated_play(enable_generator: MoveGenerator) -> None:
    board = with_cat()
    board.place(Play.from_gcg("G6 OX.N").placements())
    rack = "?AEINST"
    moves = enable_generator.generate(board, rack)
    assert len(moves) > 5_000
    assert any("." in move.play.letters and move.play.letters != move.play.letters.upper() for move in moves)
    for move in moves:
        assert parse_player_play(player_notation(move.play), board, rack) == move.play
