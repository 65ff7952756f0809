"""The rules of Go in go_core: captures, suicide, ko and superko, turns, passing and the errors' messages."""

from __future__ import annotations

import pytest

from go_core import Board, Color, Game, Phase, Point
from go_core.errors import (
    BoardSizeError,
    GameOverError,
    GoError,
    HandicapError,
    InvalidPointError,
    KoError,
    KomiError,
    NothingToUndoError,
    NotYourTurnError,
    OccupiedError,
    OffBoardError,
    PhaseError,
    SuicideError,
)

P = Point.parse


def test_points_are_written_as_go_players_write_them() -> None:
    assert P("D4", 19) == Point(3, 3)
    assert P(" j10 ", 19) == Point(8, 9)
    assert str(Point(8, 9)) == "J10"
    assert str(Point(24, 24)) == "Z25"
    assert P("Z25", 25) == Point(24, 24)


def test_bad_points_are_refused_with_the_reason() -> None:
    with pytest.raises(InvalidPointError, match=r"^'I5' is not a point: Go coordinates skip I \(… H, J …\)$"):
        P("I5", 19)
    with pytest.raises(OffBoardError, match=r"^T19 is off the board: this board is 9×9$"):
        P("t19", 9)
    with pytest.raises(OffBoardError, match=r"^A0 is off the board"):
        P("A0", 9)
    with pytest.raises(InvalidPointError, match=r"^'hello' is not a point: type a column letter"):
        P("hello", 9)
    with pytest.raises(InvalidPointError, match=r"^'x{40}…' is not a point"):
        P("x" * 100, 9)
    with pytest.raises(InvalidPointError) as info:  # cut once escaped: six characters each
        P("\u202e" * 600_002, 9)
    assert str(info.value) == (
        "'" + "\\u202e" * 6 + "…' is not a point: type a column letter and a row number, e.g. D4"
    )


def test_board_sizes_go_from_2_to_25_and_26_says_why() -> None:
    assert Game(2).size == 2
    assert Game(25).size == 25
    with pytest.raises(BoardSizeError) as refused:
        Game(26)
    assert str(refused.value) == (
        "A board is 2 to 25 points wide, not 26: Go coordinates name columns A to Z skipping I, "
        "which gives 25 columns"
    )
    with pytest.raises(BoardSizeError):
        Game(1)


def test_komi_and_handicap_are_checked() -> None:
    with pytest.raises(KomiError, match=r"is not a komi"):
        Game(9, komi=float("nan"))
    with pytest.raises(KomiError, match=r"^A komi is at most 1000 points either way, not 5000$"):
        Game(9, komi=5000)
    with pytest.raises(HandicapError, match=r"^A handicap on 10×10 is 2 to 4 stones, not 5$"):
        Game(10, handicap=5)
    with pytest.raises(
        HandicapError, match=r"^A 6×6 board takes no handicap stones: they go on boards from 7×7$"
    ):
        Game(6, handicap=2)
    with pytest.raises(HandicapError, match=r"^A handicap on 19×19 is 2 to 9 stones, not 1$"):
        Game(19, handicap=1)


def test_a_single_stone_is_captured() -> None:
    board = Board.from_rows([".....", "..X..", ".XOX.", ".....", "....."])
    assert board.play(Color.BLACK, P("C2", 5)) == [P("C3", 5)]
    assert board.rows() == [".....", "..X..", ".X.X.", "..X..", "....."]


def test_a_group_is_captured() -> None:
    board = Board.from_rows([".....", ".XX..", "XOO..", ".XX..", "....."])
    assert sorted(board.play(Color.BLACK, P("D3", 5))) == [P("B3", 5), P("C3", 5)]
    assert board.count(Color.WHITE) == 0


def test_several_groups_are_captured_at_once() -> None:
    board = Board.from_rows(["XO.OX", ".X.X.", ".....", ".....", "....."])
    captured = board.play(Color.BLACK, P("C5", 5))
    assert sorted(captured) == [P("B5", 5), P("D5", 5)]
    assert board.rows()[0] == "X.X.X"


def test_stones_on_the_edge_and_in_the_corner_are_captured() -> None:
    corner = Board.from_rows(["O....", "X....", ".....", ".....", "....."])
    assert corner.play(Color.BLACK, P("B5", 5)) == [P("A5", 5)]
    edge = Board.from_rows([".....", ".....", "X....", "O....", "X...."])
    assert edge.play(Color.BLACK, P("B2", 5)) == [P("A2", 5)]


def test_occupied_points_are_refused_and_nothing_changes() -> None:
    game = Game(9)
    game.play("E5")
    before = game.to_dict()
    with pytest.raises(OccupiedError, match=r"^E5 is already occupied$"):
        game.play("e5")
    assert game.to_dict() == before


def test_suicide_is_refused() -> None:
    board = Board.from_rows([".X...", "X....", ".....", ".....", "....."])
    assert not board.allows(Color.WHITE, P("A5", 5))
    assert not board.allows(Color.WHITE, P("B5", 5)), "occupied"
    assert board.allows(Color.BLACK, P("A5", 5))
    with pytest.raises(SuicideError, match=r"^A5 is self-capture: the stone would have no liberties$"):
        board.play(Color.WHITE, P("A5", 5))
    group_suicide = Board.from_rows(["O.OX.", "XXXX.", ".....", ".....", "....."])
    with pytest.raises(SuicideError):
        group_suicide.play(Color.WHITE, P("B5", 5))
    assert group_suicide.rows()[0] == "O.OX."


def test_a_capture_that_would_otherwise_be_suicide_is_allowed() -> None:
    board = Board.from_rows([".XO..", "XO...", ".....", ".....", "....."])
    assert board.allows(Color.WHITE, P("A5", 5))
    assert board.play(Color.WHITE, P("A5", 5)) == [P("B5", 5)]
    assert board.rows()[:2] == ["O.O..", "XO..."]


def _ko_game() -> Game:
    """A 5×5 game where Black has just taken a ko at C3 (capturing D3)."""
    game = Game(5)
    for point in ["C4", "D4", "B3", "E3", "C2", "D2", "pass", "C3"]:
        if point == "pass":
            game.pass_turn()
        else:
            game.play(point)
    game.play("D3")  # Black takes C3
    return game


def test_retaking_a_ko_at_once_is_refused_and_allowed_later() -> None:
    game = _ko_game()
    assert game.last_move is not None and game.last_move.captured == (P("C3", 5),)
    with pytest.raises(KoError) as refused:
        game.play("C3")
    assert (
        str(refused.value)
        == "C3 is not allowed by the ko: retaking at once repeats the position, play elsewhere first"
    )
    assert refused.value.simple
    game.play("A1")  # a ko threat elsewhere
    game.play("A5")
    assert game.play("C3").captured == (P("D3", 5),)


# A random 4×4 game that reached a position where D3 repeats a position older than the last move.
SUPERKO_GAME = (
    "B A2,W B2,B D4,W D1,B D3,W C3,B D2,W B3,B C4,W A3,B B4,W A1,B C1,W A4,B B1,W C2,B A2,W B3,B C3,W A4,"
    "B A1,W B2,B D1,W C2,B A3,W B2,B A4,W C2,B B3,W C2,B B2,W C2,B D3,W C4,B B1,W A3,B C1,W C3,B D2,W D4,"
    "B A1,W B3,B A2,W D1,B B4,W A4,B D3,W B4,B D2,W D1"
)


def test_positional_superko_refuses_any_repeated_position() -> None:
    game = Game(4)
    for action in SUPERKO_GAME.split(","):
        color, point = action.split()
        game.play(point, Color(color))
    assert game.board.rows() == ["OOOO", "OOO.", "X.O.", "XXXO"]
    with pytest.raises(KoError) as refused:
        game.play("D3")
    assert str(refused.value) == "D3 is not allowed by the superko: the move would repeat an earlier position"
    assert not refused.value.simple
    assert not game.is_legal(P("D3", 4))


def test_turns_are_enforced_except_for_gtp() -> None:
    game = Game(9)
    with pytest.raises(NotYourTurnError, match=r"^It is Black's turn$"):
        game.play("E5", Color.WHITE)
    move = game.play("E5", Color.WHITE, any_turn=True)
    assert move.color is Color.WHITE
    assert game.to_move is Color.BLACK


def test_handicap_games_start_with_white() -> None:
    game = Game(19, handicap=4)
    assert game.to_move is Color.WHITE
    assert game.board.count(Color.BLACK) == 4


def test_two_passes_start_the_dead_stone_phase() -> None:
    game = Game(9)
    game.pass_turn()
    assert game.phase is Phase.PLAY
    game.pass_turn()
    assert (game.phase, game.passes) == (Phase.SCORING, 2)
    with pytest.raises(
        PhaseError, match=r"^Both players passed: accept the dead stones, mark groups, or resume play$"
    ):
        game.play("E5")
    game.resume()
    assert game.phase is Phase.PLAY
    assert game.to_move is Color.BLACK
    game.play("E5")
    with pytest.raises(PhaseError, match=r"^Dead stones are marked after both players pass$"):
        game.accept(Color.BLACK)


def test_resigning_ends_the_game() -> None:
    game = Game(9)
    game.play("E5")
    assert game.resign(Color.WHITE) == "B+R"
    assert game.phase is Phase.OVER
    assert game.winner is Color.BLACK
    with pytest.raises(GameOverError, match=r"^The game is over$"):
        game.play("D4")
    with pytest.raises(GameOverError):
        game.undo()


def test_undo_takes_back_moves_captures_and_passes() -> None:
    game = _ko_game()
    before = game.to_dict()
    board = game.board
    game.play("A1")
    assert game.undo() == game.moves[-1].__class__(Color.WHITE, P("A1", 5))
    assert game.to_dict() == before
    assert game.board == board
    taken = game.undo()
    assert taken is not None and taken.captured == (P("C3", 5),)
    assert game[P("C3", 5)] is Color.WHITE
    assert game.captures(Color.BLACK) == 0
    assert game.to_move is Color.BLACK
    with pytest.raises(NothingToUndoError, match=r"^There is no move to undo$"):
        Game(9).undo()


def test_undo_leaves_the_dead_stone_phase_and_a_resumption() -> None:
    game = Game(9)
    game.play("E5")
    game.pass_turn()
    game.pass_turn()
    game.toggle_dead("E5")
    game.resume()
    assert game.undo() is None
    assert game.phase is Phase.SCORING
    assert game.dead == frozenset()
    game.undo()
    assert (game.phase, game.passes) == (Phase.PLAY, 1)
    assert game.to_move is Color.BLACK


def test_a_stored_game_that_breaks_the_rules_is_refused() -> None:
    data = Game(9).to_dict()
    with pytest.raises(OccupiedError, match=r"^E5 is already occupied$"):
        Game.from_dict({**data, "actions": ["B E5", "W E5"]})
    with pytest.raises(GoError, match=r"^not a stored Go game: 'actions' is missing$"):
        Game.from_dict({key: value for key, value in data.items() if key != "actions"})
    with pytest.raises(GoError, match=r"^unknown Go game format '7'$"):
        Game.from_dict({**data, "format": 7})


def test_a_loss_on_time_ends_the_game_and_is_stored() -> None:
    game = Game(9)
    game.play("E5")
    assert game.lose_on_time(Color.WHITE) == "B+T"
    assert game.phase is Phase.OVER
    data = game.to_dict()
    assert (data["resigned"], data["timed_out"]) == (None, "W")
    assert Game.from_dict(data).result == "B+T"
    with pytest.raises(GameOverError):
        game.resign(Color.BLACK)


def test_a_free_handicap_is_placed_by_the_players_and_stored() -> None:
    stones = [P("C3", 7), P("E5", 7), P("D4", 7)]
    game = Game(7, free_handicap=stones)
    assert (game.handicap, game.handicap_stones, game.to_move) == (3, tuple(stones), Color.WHITE)
    data = game.to_dict()
    assert data["free_handicap"] == ["C3", "E5", "D4"]
    assert Game.from_dict(data) == game
    assert Game(19, handicap=4).to_dict()["free_handicap"] == []
    with pytest.raises(HandicapError, match=r"^A handicap stone is placed twice on the same point$"):
        Game(7, free_handicap=[P("C3", 7), P("C3", 7)])
    with pytest.raises(HandicapError, match=r"^A free handicap is 2 to 48 stones, not 1$"):
        Game(7, free_handicap=[P("C3", 7)])
    with pytest.raises(HandicapError, match=r"^A handicap stone is off the 7×7 board$"):
        Game(7, free_handicap=[P("C3", 7), Point(7, 0)])
    with pytest.raises(
        HandicapError, match=r"^Give a handicap as a number of stones or as points, not both$"
    ):
        Game(9, handicap=2, free_handicap=[P("C3", 9), P("D4", 9)])


def test_colours_are_read_as_gtp_writes_them() -> None:
    assert [Color.parse(word) for word in ("b", "BLACK", " w ", "White")] == [
        Color.BLACK,
        Color.BLACK,
        Color.WHITE,
        Color.WHITE,
    ]
    with pytest.raises(GoError, match=r"^'green' is not a colour: use black or white$"):
        Color.parse("green")
