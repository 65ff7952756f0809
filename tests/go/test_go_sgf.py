"""SGF records of Go games (bot.games.go.sgf, through sgfmill): export, import and the round trip."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games.go.sgf import export_sgf, import_sgf
from go_core import Color, Game, Phase, Point, ScoringMethod
from go_core.errors import BoardSizeError, GoError, OccupiedError
from tests.go.go_games import random_game


def _played() -> Game:
    game = Game(9, komi=0.5, handicap=2)
    for point in ["E5", "D4", "D5", "C5", "E4", "pass", "D6", "C4", "C6"]:
        game.pass_turn() if point == "pass" else game.play(point)
    return game


def test_a_game_is_written_as_sgf() -> None:
    text = export_sgf(_played(), black="Ann", white="Bob")
    assert text.startswith("(;FF[4]AB[cg][gc]AP[scrabble-host Go:1]CA[UTF-8]GM[1]HA[2]KM[0.5]PB[Ann]PW[Bob]")
    assert "RU[Chinese]SZ[9];W[ee];B[df];W[de];B[ce];W[ef];B[tt];W[dd];B[cf];W[cd])" in text.replace("\n", "")


def test_the_round_trip_gives_back_the_same_game() -> None:
    game = _played()
    record = import_sgf(export_sgf(game, black="Ann", white="Bob"))
    assert record.game == game
    assert record.game.board == game.board
    assert (record.black, record.white, record.result) == ("Ann", "Bob", None)


def test_a_resignation_and_the_rules_come_back() -> None:
    game = Game(5, komi=2.5, method=ScoringMethod.STONES)
    game.play("C3")
    game.resign(Color.WHITE)
    record = import_sgf(export_sgf(game))
    assert record.game == game
    assert (record.game.result, record.result, record.game.method) == ("B+R", "B+R", ScoringMethod.STONES)


def test_a_counted_game_comes_back_counted_with_its_dead_stones() -> None:
    game = Game(5)
    for point in ["C3", "A1", "pass", "pass"]:
        game.pass_turn() if point == "pass" else game.play(point)
    game.toggle_dead("A1")
    game.accept(Color.BLACK)
    game.accept(Color.WHITE)
    text = export_sgf(game)
    assert "TB[aa][ab][ac][ad][ae][ba]" in text.replace("\n", "")  # the dead white stone on A1 (ae) too
    record = import_sgf(text)
    assert record.result == game.result == "B+17.5"
    assert record.game == game
    assert record.game.dead == {Point.parse("A1", 5)}


def test_a_game_in_its_dead_stone_phase_comes_back_with_its_marks() -> None:
    game = Game(5)
    for point in ["C3", "A1", "pass", "pass"]:
        game.pass_turn() if point == "pass" else game.play(point)
    game.toggle_dead("A1")
    record = import_sgf(export_sgf(game))
    assert record.game == game
    assert record.game.phase is Phase.SCORING
    assert record.result is None


def test_bad_records_are_refused_with_the_reason() -> None:
    with pytest.raises(GoError, match=r"^not an SGF game record: 'no SGF data found'$"):
        import_sgf("hello")
    with pytest.raises(OccupiedError, match=r"^E5 is already occupied$"):
        import_sgf("(;GM[1]SZ[9];B[ee];W[ee])")
    with pytest.raises(BoardSizeError, match=r"^A board is 2 to 25 points wide, not 26"):
        import_sgf("(;GM[1]SZ[26])")
    with pytest.raises(GoError, match=r"^not an SGF game record: a value is malformed or off the board$"):
        import_sgf("(;GM[1]SZ[9];B[zz])")


def test_a_free_handicap_comes_back() -> None:
    record = import_sgf("(;GM[1]FF[4]SZ[9]HA[3]AB[aa][ee][ii];W[cc])")
    assert [str(point) for point in record.game.handicap_stones] == ["A9", "E5", "J1"]
    assert [str(move) for move in record.game.moves] == ["W C7"]
    assert import_sgf(export_sgf(record.game)).game == record.game


@settings(max_examples=40, deadline=None)
@given(
    st.integers(min_value=2, max_value=9), st.lists(st.integers(min_value=0, max_value=10_000), max_size=50)
)
def test_every_game_comes_back_from_its_record(size: int, picks: list[int]) -> None:
    game = random_game(size, picks)
    record = import_sgf(export_sgf(game))
    assert record.game.moves == game.moves
    assert record.game.board == game.board
