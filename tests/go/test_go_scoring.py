"""Counting finished positions (area and stone scoring, seki, dead stones), the dead-stone phase and the
handicap stones."""

from __future__ import annotations

import pytest

from go_core import (
    Board,
    Color,
    Game,
    Move,
    Phase,
    Point,
    Score,
    ScoringMethod,
    count,
    handicap_points,
    star_points,
)
from go_core.errors import GoError, PhaseError

SEKI = [
    "X.XXXXX",
    "XXXXXXX",
    "XXOOOOX",
    "XXO.XOX",
    "XXOX.OX",
    "XXOOOOX",
    ".XXXXXX",
]
"""The white ring and the two black stones inside share the liberties D4 and E3: neither side can play
there without being captured (seki); the black outer group lives with the eyes B7 and A1."""


def test_area_scoring_counts_stones_and_territory_and_seki_points_are_neutral() -> None:
    score = count(Board.from_rows(SEKI))
    assert (score.black_stones, score.black_territory) == (33, 2)
    assert (score.white_stones, score.white_territory) == (12, 0)
    assert score.neutral == 2
    assert (score.black, score.white) == (35, 19.5)
    assert score.result == "B+15.5"
    assert score.breakdown() == (
        "Black 35 (stones 33 + territory 2), White 19.5 (stones 12 + territory 0 + komi 7.5): Black wins by 15.5"
    )


def test_stone_scoring_counts_stones_only() -> None:
    score = count(Board.from_rows(SEKI), komi=0.5, method=ScoringMethod.STONES)
    assert (score.black, score.white) == (33, 12.5)
    assert score.result == "B+20.5"
    assert score.breakdown() == "Black 33 (stones 33), White 12.5 (stones 12 + komi 0.5): Black wins by 20.5"


FINAL = [
    ".X.XO....",
    "XX.XO....",
    "..XXOO.O.",
    "XXXO.O...",
    "OOOOO.O..",
    "..X..O...",
    "......O.O",
    "....O....",
    "....O....",
]
"""Black lives in the upper left; the black stone C4 in White's area is dead."""


def test_dead_stones_count_for_the_opponent() -> None:
    board = Board.from_rows(FINAL)
    dead = board.group(Point.parse("C4", 9))
    score = count(board, dead, komi=6.5)
    assert (score.black_stones, score.black_territory) == (10, 5)
    assert (score.white_stones, score.white_territory, score.neutral) == (18, 48, 0)
    assert score.result == "W+57.5"
    with_it_alive = count(board, komi=6.5)
    assert (with_it_alive.black_stones, with_it_alive.white_territory, with_it_alive.neutral) == (11, 2, 45)


def test_a_draw_is_0() -> None:
    score = count(Board.from_rows(["XO", "XO"]), komi=0)
    assert score.winner is None
    assert score.result == "0"
    assert score.breakdown().endswith(": Draw")


def test_the_dead_stone_phase_marks_groups_and_needs_both_acceptances() -> None:
    game = Game(9, komi=6.5)
    for point in ["C5", "E5", "D4"]:
        game.play(point)
    game.pass_turn()
    game.pass_turn()
    assert game.phase is Phase.SCORING
    group = game.toggle_dead("e5")
    assert group == {Point.parse("E5", 9)}
    assert game.dead == group
    game.accept(Color.BLACK)
    game.toggle_dead("D4")
    assert game.accepted == frozenset(), "a change withdraws the acceptances"
    game.toggle_dead("D4")
    assert not game.accept(Color.BLACK)
    assert game.accept(Color.WHITE)
    assert (game.phase, game.result) == (Phase.OVER, "B+74.5")
    assert game.winner is Color.BLACK
    with pytest.raises(GoError, match=r"^A1 is empty: mark a group by one of its stones$"):
        _scoring_game().toggle_dead("A1")
    with pytest.raises(PhaseError):
        Game(9).toggle_dead("A1")


def _scoring_game() -> Game:
    game = Game(9)
    game.pass_turn()
    game.pass_turn()
    return game


def test_set_dead_takes_a_proposal_and_refuses_empty_points() -> None:
    game = _scoring_game()
    with pytest.raises(GoError, match=r"^E5 holds no stone to mark dead$"):
        game.set_dead([Point.parse("E5", 9)])


# GNU Go 3.8's answers to `fixed_handicap N` (as `list_stones black` lists them, top row first).
GNUGO_HANDICAPS = {
    (9, 2): "G7 C3",
    (9, 4): "C7 G7 C3 G3",
    (9, 9): "C7 E7 G7 C5 E5 G5 C3 E3 G3",
    (13, 5): "D10 K10 G7 D4 K4",
    (13, 9): "D10 G10 K10 D7 G7 K7 D4 G4 K4",
    (19, 3): "D16 Q16 D4",
    (19, 6): "D16 Q16 D10 Q10 D4 Q4",
    (19, 7): "D16 Q16 D10 K10 Q10 D4 Q4",
    (19, 8): "D16 K16 Q16 D10 Q10 D4 K4 Q4",
    (19, 9): "D16 K16 Q16 D10 K10 Q10 D4 K4 Q4",
}


@pytest.mark.parametrize(("size", "stones"), sorted(GNUGO_HANDICAPS))
def test_handicap_stones_are_where_gnu_go_puts_them(size: int, stones: int) -> None:
    game = Game(size, handicap=stones)
    assert " ".join(map(str, game.board.stones(Color.BLACK))) == GNUGO_HANDICAPS[size, stones]
    assert len(handicap_points(size, stones)) == stones


def test_star_points_are_where_gnu_go_marks_them() -> None:
    assert [str(point) for point in star_points(9)] == ["C3", "C7", "G3", "G7", "E5"]
    assert [str(point) for point in star_points(7)] == ["C3", "C5", "E3", "E5", "D4"]
    assert [str(point) for point in star_points(10)] == ["C3", "C8", "H3", "H8"]
    assert sorted(map(str, star_points(19))) == sorted(GNUGO_HANDICAPS[19, 9].split())
    assert sorted(map(str, star_points(13))) == sorted(GNUGO_HANDICAPS[13, 9].split())
    assert star_points(6) == []


def test_reprs_are_code() -> None:
    score = count(Board.from_rows(SEKI))
    assert eval(repr(score), {"Score": Score, "ScoringMethod": ScoringMethod}) == score
    game = _scoring_game()
    assert repr(game.phase) == "Phase.SCORING"
    assert eval(repr(game.moves[0]), {"Move": Move, "Color": Color, "Point": Point}) == game.moves[0]
    board = Board.from_rows(["X.", ".O"])
    assert eval(repr(board), {"Board": Board}) == board
