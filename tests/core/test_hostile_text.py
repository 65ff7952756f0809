"""Hostile text: whatever a player types, the parsers raise a ScrabbleError with a short message, and a
character that is not what the game needs is named."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrabble_core.board import Board
from scrabble_core.errors import InvalidMoveError, ScrabbleError, echo
from scrabble_core.game import Game
from scrabble_core.gcg import parse_gcg
from scrabble_core.move import Play, move_from_gcg
from scrabble_core.notation import parse_player_play, parse_tiles
from scrabble_core.squares import parse_coordinate
from scrabble_core.variant import get_variant

MAX_MESSAGE = 300
"""The longest message any parser may answer with, whatever the input's length."""

LONG = "8H" + "Q" * 100_000
OVERRIDES = "\u202e" * 600_002
"""Right-to-left overrides: each is escaped as six characters in a message."""


def _board() -> Board:
    return Board(get_variant("standard"))


PARSERS: dict[str, Callable[[str], object]] = {
    "coordinate": parse_coordinate,
    "player play": lambda text: parse_player_play(text, _board(), "AEIQUZ?"),
    "tiles": lambda text: parse_tiles(text, get_variant("standard").alphabet),
    "gcg play": Play.from_gcg,
    "gcg move": move_from_gcg,
    "gcg record": lambda text: parse_gcg(f"#player1 a A\n#player2 b B\n{text}"),
}


@pytest.mark.parametrize("parser", PARSERS.values(), ids=PARSERS.keys())
@pytest.mark.parametrize(
    "text", [LONG, "8H " + "Q" * 100_000, "\x00" * 500, "Ж" * 6000, "-" + "\x00" * 500, OVERRIDES]
)
def test_long_and_binary_input_gets_a_short_message(parser: Callable[[str], object], text: str) -> None:
    with pytest.raises(ScrabbleError) as info:
        parser(text)
    assert len(str(info.value)) <= MAX_MESSAGE


def test_a_long_coordinate_is_cut_in_the_message() -> None:
    with pytest.raises(InvalidMoveError) as info:
        parse_coordinate(LONG)
    assert str(info.value) == (
        f"'8H{'Q' * 38}…' is not a coordinate: write the row then the column for a word across (8H), or "
        "the column then the row for a word down (H8)"
    )
    with pytest.raises(InvalidMoveError) as info:
        Play.from_gcg(f"8H {'Q' * 20}!")
    assert str(info.value) == (
        f"'{'Q' * 20}!' is not a word: use letters, lowercase for blanks, '.' for tiles on the board"
    )
    with pytest.raises(InvalidMoveError) as info:
        Play.from_gcg(f"8H {'Q' * 26}")
    assert str(info.value) == "a word of 26 letters does not fit on any board"
    with pytest.raises(InvalidMoveError) as info:
        move_from_gcg(f"-{'Q' * 50}!")
    assert str(info.value) == f"'-{'Q' * 39}…' is not an exchange: write the tiles, e.g. -AEI"


def test_input_is_cut_after_it_is_escaped() -> None:
    shown = "'" + "\\u202e" * 6 + "…'"
    with pytest.raises(InvalidMoveError) as info:
        parse_coordinate(OVERRIDES)
    assert str(info.value) == (
        f"{shown} is not a coordinate: write the row then the column for a word across (8H), or the "
        "column then the row for a word down (H8)"
    )
    with pytest.raises(InvalidMoveError) as info:
        move_from_gcg(OVERRIDES)
    assert str(info.value) == f"{shown} is not a play: write a coordinate and a word, e.g. 8H QUIZ"
    assert echo("ab\x00" * 20) == "'" + "ab\\x00" * 6 + "ab…'"
    assert echo("it's") == '"it\'s"'
    assert echo("") == "''"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("٨H", "٨ (Arabic-indic digit eight) is not one of the digits 0-9"),
        ("K𝟏𝟏", "𝟏 (Mathematical bold digit one) is not one of the digits 0-9"),
        ("H٨", "٨ (Arabic-indic digit eight) is not one of the digits 0-9"),
        ("8ſ", "ſ (Latin small letter long S) is not a column letter A to Y"),
        ("ı8", "ı (Latin small letter dotless I) is not a column letter A to Y"),
        ("8Н", "Н (Cyrillic capital letter en) is not a column letter A to Y"),
        ("А8", "А (Cyrillic capital letter A) is not the Latin letter A"),
    ],
)
def test_coordinates_are_ascii(text: str, message: str) -> None:
    with pytest.raises(InvalidMoveError) as info:
        parse_coordinate(text)
    assert str(info.value) == message


def test_a_game_refuses_letters_that_only_fold_to_its_own(make_game: Callable[..., Game]) -> None:
    game = make_game(["SIT", "AEI"], draws="EEEEEEE")
    before = game.to_dict()
    with pytest.raises(InvalidMoveError) as info:
        game.play(0, "8h ſit")
    assert str(info.value) == "ſ (Latin small letter long S) is not a letter of this game"
    with pytest.raises(InvalidMoveError) as info:
        game.exchange(0, "ſ")
    assert str(info.value) == "ſ (Latin small letter long S) is not a letter of this game"
    assert game.to_dict() == before


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=60) | st.text(alphabet="0123456789ABCHOQZaehioqz?.- ٨𝟏ſıАİ\x00\n", max_size=40))
def test_parsers_raise_only_short_scrabble_errors(text: str) -> None:
    for parser in PARSERS.values():
        try:
            parser(text)
        except ScrabbleError as error:
            assert 0 < len(str(error)) <= MAX_MESSAGE
