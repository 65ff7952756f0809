"""Stones set up by hand in a game (go_core's Setup, as SGF records have them): placed and taken off
without captures, who moves next, undo, superko, storage."""

from __future__ import annotations

import pytest

from go_core import Color, Game, Point, Setup
from go_core.errors import GoError, OffBoardError, PhaseError


def at(text: str, size: int = 9) -> Point:
    return Point.parse(text, size)


def test_stones_are_set_up_without_captures_and_the_player_to_move_is_named() -> None:
    game = Game(9)
    game.play("E5")
    setup = game.setup(black=[at("D4")], white=[at("E4"), at("D5"), at("C4"), at("D3")], to_move=Color.WHITE)
    assert str(setup) == "setup B:D4 W:E4,D5,C4,D3 PL:W"
    assert game[at("D4")] is Color.BLACK  # surrounded, not captured: a setup captures nothing
    assert game.to_move is Color.WHITE
    game.setup(empty=[at("E5")])
    assert game[at("E5")] is None
    assert game.to_move is Color.WHITE  # no PL: unchanged
    assert game.setups == ((1, setup), (1, Setup(empty=(at("E5"),))))


def test_undo_takes_a_setup_back() -> None:
    game = Game(9)
    game.play("E5")
    before = game.board
    game.setup(black=[at("C3")], empty=[at("E5")], to_move=Color.BLACK)
    assert game.undo() is None
    assert game.board == before
    assert game.to_move is Color.WHITE
    assert game.setups == ()
    assert str(game.undo()) == "B E5"


def test_a_setup_ends_a_run_of_passes_and_starts_the_history_for_superko_afresh() -> None:
    game = Game(5)
    game.play("C3")
    game.pass_turn()
    game.setup(empty=[at("C3", 5)])
    game.pass_turn()
    assert game.passes == 1
    game.play("C3", Color.BLACK, any_turn=True)  # the position of the first move no longer counts
    assert game[at("C3", 5)] is Color.BLACK
    game.undo()
    game.undo()
    game.undo()  # the setup: the history before it counts again
    assert game.to_dict()["actions"] == ["B C3", "W pass"]
    again = Game(5)
    again.play("C3")
    again.pass_turn()
    assert game == again


def test_bad_setups_are_refused_and_nothing_changes() -> None:
    game = Game(9)
    before = game.to_dict()
    with pytest.raises(OffBoardError, match=r"^K10 is off the board: this board is 9×9$"):
        game.setup(black=[Point(9, 9)])
    with pytest.raises(GoError, match=r"^A setup names a point twice$"):
        game.setup(black=[at("C3")], empty=[at("C3")])
    with pytest.raises(GoError, match=r"^A setup puts or takes off stones, or says who moves next$"):
        game.setup()
    assert game.to_dict() == before
    game.pass_turn()
    game.pass_turn()
    with pytest.raises(PhaseError):
        game.setup(black=[at("C3")])


def test_a_game_with_setups_is_stored_and_read_back() -> None:
    game = Game(9, handicap=2)
    game.setup(white=[at("E5"), at("D5")], to_move=Color.BLACK)
    game.play("E6")
    game.pass_turn()
    game.pass_turn()
    game.resume()
    game.setup(black=[at("A1")], empty=[at("E6")])
    game.play("J9")
    data = game.to_dict()
    assert data["actions"] == [
        "setup W:E5,D5 PL:B", "B E6", "W pass", "B pass", "resume", "setup B:A1 E:E6", "W J9",
    ]  # fmt: skip
    again = Game.from_dict(data)
    assert again == game
    assert again.board == game.board
    assert Setup.parse("setup E:A1", 9) == Setup(empty=(at("A1"),))
    with pytest.raises(GoError, match=r"^'X:A1' is not part of a setup$"):
        Setup.parse("setup X:A1", 9)
