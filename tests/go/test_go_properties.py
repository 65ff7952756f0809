"""Properties of go_core over random games: no stone is left without liberties, undo restores the exact
state, and the dict form (and the repr) give back an equal game."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

import go_core
from go_core import Color, Game, Phase
from tests.go.go_games import random_game

SIZES = st.integers(min_value=2, max_value=7)


@settings(max_examples=60, deadline=None)
@given(SIZES, st.lists(st.integers(min_value=0, max_value=10_000), max_size=60))
def test_no_stone_is_left_without_liberties(size: int, picks: list[int]) -> None:
    game = Game(size)
    for pick in picks:
        legal = game.legal_points()
        if not legal or game.phase is not Phase.PLAY:
            break
        game.play(legal[pick % len(legal)])
        board = game.board
        assert all(board.liberties(point) for point in board.stones())


@settings(max_examples=60, deadline=None)
@given(SIZES, st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=60))
def test_undo_restores_the_exact_state(size: int, picks: list[int]) -> None:
    game = random_game(size, picks[:-1])
    before, board, captures = (
        game.to_dict(),
        game.board,
        (game.captures(Color.BLACK), game.captures(Color.WHITE)),
    )
    changed = random_game(size, picks)
    if changed.to_dict()["actions"] == before["actions"]:
        return
    changed.undo()
    assert changed.to_dict() == before
    assert changed.board == board
    assert (changed.captures(Color.BLACK), changed.captures(Color.WHITE)) == captures
    assert changed.to_move is game.to_move
    assert [changed.is_legal(point) for point in board.points()] == [
        game.is_legal(point) for point in board.points()
    ]


@settings(max_examples=40, deadline=None)
@given(SIZES, st.lists(st.integers(min_value=0, max_value=10_000), max_size=60))
def test_the_dict_form_and_the_repr_give_back_the_game(size: int, picks: list[int]) -> None:
    game = random_game(size, picks)
    if game.phase is Phase.SCORING and game.board.stones():
        game.toggle_dead(game.board.stones()[0])
        game.accept(Color.WHITE)
    copy = Game.from_dict(game.to_dict())
    assert copy == game
    assert copy.board == game.board
    assert copy.phase is game.phase
    assert copy.moves == game.moves
    assert eval(repr(game), vars(go_core)) == game
