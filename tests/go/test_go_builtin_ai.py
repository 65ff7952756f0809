"""The built-in Go AI (go_core.ai): tactics, passing and resigning, seeded moves, tree reuse, the time
budget, root-parallel shares, and the dead stones and seki at the end (with GTP's answers)."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from bot.games.go.engines import BuiltinAI, GnuGoAI, Level
from bot.games.go.gtp import GtpEngine
from go_core import Board, Color, Game, Phase, Point
from go_core.ai import (
    FIRST_STEP,
    LEVEL_PLAYOUTS,
    RESIGN,
    Budget,
    SearchShare,
    Thinker,
    choose_move,
    decide,
    merge_shares,
    propose_dead,
    search_share,
)

QUICK = Budget(seconds=30, playouts=300)
FULL = Budget(seconds=120, playouts=3000)
CUT = [
    ".......",
    "XXXX...",
    "...XOOO",
    "XXXO.X.",
    "...XOOO",
    "XXXX...",
    ".......",
]
"""White's D4 cuts Black's wall and has one liberty, E4: Black takes it there, White saves it there (and
puts Black's F4 in atari)."""
SEKI = [
    ".XO.XO.",
    "XXO.XOO",
    ".XOOXO.",
    "XXOOXOO",
    "XXOOXOO",
    ".XOOXO.",
    "XXOOXOO",
]
"""The white group of columns C-D and the black column E share their only liberties D6 and D7: whoever
fills one is captured (seki). The outer groups live with three eyes each. GNU Go lists the two groups as
seki and counts W+5.5 with komi 0.5."""
SPLIT = ["..XOO.OO."] * 9
"""Black's area is 27 points, White's 54 (its empty columns are one point wide: no room to invade)."""


def _setup(rows: list[str], *, komi: float = 0.5, to_move: Color = Color.BLACK) -> Game:
    board = Board.from_rows(rows)
    game = Game(board.size, komi=komi)
    for color in (Color.BLACK, Color.WHITE):
        for point in board.stones(color):
            game.play(point, color, any_turn=True)
    if game.to_move is not to_move:
        game.pass_turn()
    return game


def _play(game: Game, moves: list[str]) -> Game:
    for move in moves:
        game.pass_turn() if move == "pass" else game.play(move)
    return game


@pytest.mark.parametrize("native", [None, False], ids=["default", "python"])
@pytest.mark.parametrize("color", [Color.BLACK, Color.WHITE])
def test_both_sides_play_the_cutting_stones_last_liberty(color: Color, native: bool | None) -> None:
    game = _setup(CUT, to_move=color)
    move = Thinker(native=native).choose(game, random.Random(3), QUICK)
    assert move == Point.parse("E4", 7)


def test_it_does_not_fill_its_own_eye_and_passes_when_only_eyes_are_left() -> None:
    game = Game(3)
    for point in ["B3", "A2", "B2", "C2", "A1", "C1"]:
        game.play(point, Color.BLACK, any_turn=True)
    game.pass_turn(Color.WHITE, any_turn=True)
    assert game.to_move is Color.BLACK
    assert choose_move(game, random.Random(1), QUICK) is None


def test_the_same_seed_gives_the_same_game() -> None:
    def play(seed: int) -> list[str]:
        game, rng, thinker = Game(5), random.Random(seed), Thinker()
        while game.phase is Phase.PLAY and len(game.moves) < 12:
            point = thinker.choose(game, rng, Budget(seconds=30, playouts=40))
            assert point != RESIGN
            game.pass_turn() if point is None else game.play(point)
        return [str(move) for move in game.moves]

    first = play(7)
    assert first == play(7)
    assert len(first) == 12
    assert first != play(8)


def test_after_the_opponents_pass_it_passes_a_won_game_and_resigns_a_lost_one() -> None:
    won = _setup(SPLIT, komi=-40.5)
    won.pass_turn(Color.WHITE, any_turn=True)
    assert won.score().winner is Color.BLACK
    assert choose_move(won, random.Random(1), FULL) is None
    lost = _setup(SPLIT, komi=0.5)
    lost.pass_turn(Color.WHITE, any_turn=True)
    assert lost.to_move is Color.BLACK and lost.phase is Phase.PLAY
    assert choose_move(lost, random.Random(1), FULL) == RESIGN
    hopeful = choose_move(lost, random.Random(1), Budget(seconds=30, playouts=200))
    assert isinstance(hopeful, Point), "too few playouts to resign on, and passing loses"


def test_a_won_game_is_neither_passed_early_nor_resigned() -> None:
    game = _setup(SPLIT, komi=-40.5)
    move = choose_move(game, random.Random(2), FULL)
    assert move not in (None, RESIGN)


def test_the_tree_is_kept_from_move_to_move() -> None:
    game, thinker, rng = Game(9), Thinker(), random.Random(4)
    first = thinker.choose(game, rng, Budget(seconds=30, playouts=600))
    assert isinstance(first, Point)
    game.play(first)
    reply = thinker.choose(game, rng, Budget(seconds=30, playouts=600))
    assert isinstance(reply, Point)
    share = thinker.last_share
    assert share is not None and share.playouts <= 600
    assert sum(visits for _, visits, _ in share.moves) > share.playouts, "the kept node's visits count"
    game.undo()
    game.play("J9")
    thinker.choose(game, rng, Budget(seconds=30, playouts=600))
    assert thinker.last_share is not None
    moves = thinker.last_share.moves
    assert sum(visits for _, visits, _ in moves) == thinker.last_share.playouts, "another line: a new tree"


def test_the_search_stops_at_its_deadline_and_when_the_move_is_settled() -> None:
    ticks = itertools.count(0, 10)
    late = Budget(seconds=1, playouts=100_000, clock=lambda: float(next(ticks)))
    thinker = Thinker()
    assert isinstance(thinker.choose(Game(9), random.Random(1), late), Point)
    assert thinker.last_share is not None and thinker.last_share.playouts == FIRST_STEP
    thinker = Thinker()
    assert thinker.choose(_setup(CUT), random.Random(1), Budget(seconds=60, playouts=4096)) == Point(4, 3)
    assert thinker.last_share is not None
    playouts = thinker.last_share.playouts
    assert playouts < 4096 and playouts % 256 == 0


def test_search_shares_add_up_and_decide_as_one_search() -> None:
    game = _setup(CUT)
    budget = Budget(seconds=60, playouts=200)
    first, second = search_share(game, 1, budget), search_share(game, 2, budget)
    assert first == search_share(game, 1, budget)
    assert first != second
    merged = merge_shares([first, second])
    assert merged.playouts == 400
    visits = {move: v for move, v, _ in first.moves}
    for move, v, _ in second.moves:
        visits[move] += v
    assert {move: v for move, v, _ in merged.moves} == visits
    assert merged.black_owned == tuple(
        a + b for a, b in zip(first.black_owned, second.black_owned, strict=True)
    )
    assert decide(game, merged) == Point.parse("E4", 7)
    with pytest.raises(ValueError, match="no search shares to merge"):
        merge_shares([])
    other = SearchShare(size=9, playouts=0, moves=(), black_owned=(), white_owned=())
    with pytest.raises(ValueError, match="different board sizes"):
        merge_shares([first, other])


def test_the_levels_are_playout_budgets() -> None:
    assert LEVEL_PLAYOUTS["easy"] < LEVEL_PLAYOUTS["medium"] < LEVEL_PLAYOUTS["hard"]
    ai = BuiltinAI(Level.EASY, seed=1, seconds=30)
    assert isinstance(ai.choose(Game(9)), Point)
    assert ai.name == "built-in AI (easy)"


def test_dead_stones_are_proposed_inside_the_opponents_area() -> None:
    rows = [
        "...XO....",
        "...XO....",
        "...XO.O..",
        "...XO....",
        "...XO..X.",
        "...XO....",
        "...XO.O..",
        "...XO....",
        "...XO....",
    ]
    game = _play(_setup(rows), ["pass", "pass"])
    assert propose_dead(game) == {Point.parse("H5", 9)}


@pytest.mark.parametrize("native", [None, False], ids=["default", "python"])
def test_a_seki_is_alive(native: bool | None) -> None:
    game = _play(_setup(SEKI), ["pass", "pass"])
    statuses = Thinker(native=native).statuses(game, random.Random(1))
    assert statuses.dead == frozenset()
    board = game.board
    white, black = board.group(Point.parse("C1", 7)), board.group(Point.parse("E1", 7))
    assert len(white) == 12 and len(black) == 7
    assert statuses.seki == white | black


def test_gnu_go_agrees_on_the_seki(gnugo: Path) -> None:
    game = _play(_setup(SEKI), ["pass", "pass"])
    ai = GnuGoAI(gnugo, Level.EASY, seconds=30)
    try:
        assert ai.seki_stones(game) == Thinker().statuses(game, random.Random(2)).seki
        assert ai.dead_stones(game) == frozenset()
    finally:
        ai.close()


def test_gtp_lists_the_seki_and_counts_it() -> None:
    engine = GtpEngine(BuiltinAI(Level.EASY, seed=1, seconds=30))
    board = Board.from_rows(SEKI)
    lines = ["boardsize 7", "komi 0.5"] + [
        f"play {color.value} {point}" for color in (Color.BLACK, Color.WHITE) for point in board.stones(color)
    ]
    for line in lines:
        assert engine.handle(line) == "= \n\n"
    assert engine.handle("final_status_list dead") == "= \n\n"
    seki = engine.handle("final_status_list seki")
    assert seki is not None
    assert sorted(seki[2:].split()) == sorted(
        str(point) for point in board.group(Point.parse("C1", 7)) | board.group(Point.parse("E1", 7))
    )
    assert len(seki.strip().splitlines()) == 2, "one line a group"
    alive = engine.handle("final_status_list alive")
    assert alive is not None and "A1" in alive and "C1" not in alive
    assert engine.handle("final_score") == "= W+5.5\n\n"


def test_a_search_told_to_stop_ends_after_its_first_step() -> None:
    game = Game(9)
    asked: list[int] = []

    def stop() -> bool:
        asked.append(1)
        return True

    share = search_share(game, 3, Budget(seconds=60.0, playouts=10_000, stop=stop))
    assert share.playouts == FIRST_STEP and asked == [1]
    assert search_share(game, 3, Budget(seconds=60.0, playouts=300, stop=lambda: False)).playouts == 300
