"""The built-in Go AI (go_core.ai): legal, sensible, seeded moves and dead-stone proposals."""

from __future__ import annotations

import random

from go_core import Board, Color, Game, Phase, Point
from go_core.ai import Budget, choose_move, propose_dead

QUICK = Budget(seconds=30, playouts=300)


def _play(game: Game, moves: list[str]) -> Game:
    for move in moves:
        game.pass_turn() if move == "pass" else game.play(move)
    return game


def test_it_captures_a_stone_in_atari() -> None:
    game = _play(Game(9), ["E5", "E6", "D6", "A1", "F6", "A2"])
    assert game.board.liberties(Point.parse("E6", 9)) == {Point.parse("E7", 9)}
    assert choose_move(game, random.Random(3), QUICK) == Point.parse("E7", 9)


def test_it_escapes_from_atari() -> None:
    game = _play(Game(9), ["E5", "D5", "pass", "F5", "pass", "E6"])
    assert game.to_move is Color.BLACK
    assert choose_move(game, random.Random(5), QUICK) == Point.parse("E4", 9)


def test_it_does_not_fill_its_own_eye_and_passes_when_only_eyes_are_left() -> None:
    game = Game(3)
    for point in ["B3", "A2", "B2", "C2", "A1", "C1"]:
        game.play(point, Color.BLACK, any_turn=True)
    game.pass_turn(Color.WHITE, any_turn=True)
    assert game.to_move is Color.BLACK
    assert choose_move(game, random.Random(1), QUICK) is None


def test_the_same_seed_gives_the_same_game() -> None:
    def play(seed: int) -> list[str]:
        game, rng = Game(5), random.Random(seed)
        while game.phase is Phase.PLAY and len(game.moves) < 12:
            point = choose_move(game, rng, Budget(seconds=30, playouts=10))
            game.pass_turn() if point is None else game.play(point)
        return [str(move) for move in game.moves]

    first = play(7)
    assert first == play(7)
    assert len(first) == 12


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
    game = Game(9)
    board = Board.from_rows(rows)
    for color in (Color.BLACK, Color.WHITE):
        for point in board.stones(color):
            game.play(point, color, any_turn=True)
    game.pass_turn()
    game.pass_turn()
    assert propose_dead(game) == {Point.parse("H5", 9)}
