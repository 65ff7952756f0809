"""Games for the Go tests, built from random choices (hypothesis draws the choices)."""

from __future__ import annotations

from go_core import Game, Phase, Point


def random_game(size: int, picks: list[int]) -> Game:
    """A game on a ``size`` board where each pick chooses among the legal moves (pass included)."""
    game = Game(size)
    for pick in picks:
        if game.phase is not Phase.PLAY:
            break
        choices: list[Point | None] = [None, *game.legal_points()]
        choice = choices[pick % len(choices)] if pick % 7 else None
        if choice is None:
            game.pass_turn()
        else:
            game.play(choice)
    return game
