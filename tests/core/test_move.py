"""Tests of scrabble_core.move: moves in GCG notation."""

from __future__ import annotations

import pytest

from scrabble_core.errors import InvalidMoveError
from scrabble_core.move import Exchange, Pass, Play, move_from_gcg


def test_play_across() -> None:
    play = Play.from_gcg("8H QUIZ")
    assert play == Play(7, 7, True, "QUIZ")
    assert play.start == (7, 7)
    assert play.coordinate == "8H"
    assert play.squares() == [(7, 7), (7, 8), (7, 9), (7, 10)]
    assert play.placements() == [((7, 7), "Q"), ((7, 8), "U"), ((7, 9), "I"), ((7, 10), "Z")]
    assert play.rack_tiles() == "QUIZ"
    assert play.gcg() == str(play) == "8H QUIZ"
    assert repr(play) == "Play.from_gcg('8H QUIZ')"


def test_play_down_with_blanks_and_board_tiles() -> None:
    play = Play.from_gcg("E3 JAVE..N")
    assert (play.row, play.col, play.across) == (2, 4, False)
    assert play.squares()[-1] == (8, 4)
    assert play.placements() == [((2, 4), "J"), ((3, 4), "A"), ((4, 4), "V"), ((5, 4), "E"), ((8, 4), "N")]
    play = Play.from_gcg("K5 RE.IgION")
    assert play.rack_tiles() == "REI?ION"
    assert ((8, 10), "g") in play.placements()
    assert play.gcg() == "K5 RE.IgION"


def test_play_keeps_letters_as_written() -> None:
    assert Play.from_gcg("8h quiz").letters == "quiz"
    assert Play.from_gcg("  h8   QUIZ ").coordinate == "H8"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("8H", "'8H' is not a play: write a coordinate and a word, e.g. 8H QUIZ"),
        ("8H QU IZ", "'8H QU IZ' is not a play: write a coordinate and a word, e.g. 8H QUIZ"),
        ("", "'' is not a play: write a coordinate and a word, e.g. 8H QUIZ"),
        ("8H QU1Z", "'QU1Z' is not a word: use letters, lowercase for blanks, '.' for tiles on the board"),
        ("8H QU?Z", "'QU?Z' is not a word: use letters, lowercase for blanks, '.' for tiles on the board"),
    ],
)
def test_bad_play_notation(text: str, message: str) -> None:
    with pytest.raises(InvalidMoveError) as info:
        Play.from_gcg(text)
    assert str(info.value) == message


def test_bad_coordinate_in_a_play() -> None:
    with pytest.raises(InvalidMoveError) as info:
        Play.from_gcg("HH QUIZ")
    assert str(info.value).startswith("'HH' is not a coordinate: ")


def test_exchange_and_pass() -> None:
    assert Exchange("AE?").gcg() == str(Exchange("AE?")) == "-AE?"
    assert repr(Exchange("AE?")) == "Exchange('AE?')"
    assert Pass().gcg() == str(Pass()) == "-"
    assert repr(Pass()) == "Pass()"


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("-", Pass()),
        (" - ", Pass()),
        ("-AEI", Exchange("AEI")),
        ("-ae?", Exchange("AE?")),
        ("8H QUIZ", Play(7, 7, True, "QUIZ")),
        ("H8 qu.Z", Play(7, 7, False, "qu.Z")),
    ],
)
def test_move_from_gcg(text: str, move: object) -> None:
    assert move_from_gcg(text) == move


@pytest.mark.parametrize("text", ["-A1", "--", "-A-"])
def test_bad_exchange(text: str) -> None:
    with pytest.raises(InvalidMoveError) as info:
        move_from_gcg(text)
    assert str(info.value) == f"{text!r} is not an exchange: write the tiles, e.g. -AEI"
