"""The engine actions the service takes for a seat on its own: an AI's chosen move and what a timeout
does; and the seeds of a game's randomness and of each of its AI turns."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from bot.config import TimeoutAction, TurnConfig
from scrabble_core.game import Event, Game
from scrabble_core.move import Move

SEED_BITS: Final = 62
"""A game's seed, and the AI's seed for each of its turns, is a number of this many bits."""

Action = Callable[[Game], list[Event]]
"""An engine action on a game (a copy of the game's state): returns the events it caused."""


def turn_seed(seed: int, turn: int) -> int:
    """The AI's seed for one turn of a game: the same on a re-run after a restart."""
    return (seed * 1_000_003 + turn) % (1 << SEED_BITS)


def move_action(seat: int, move: Move) -> Action:
    """Play the ``move`` an AI chose for ``seat``: a play, an exchange or a pass."""

    return lambda game: game.push(seat, move)


def timeout_action(game: Game, seat: int, turn: TurnConfig, count: int) -> Action:
    """What ``seat`` does when its turn's time runs out for the ``count``-th time in a row: forfeit
    (resign) when the configuration says so or at its limit of timeouts, else accept a play that went
    out, else pass."""
    if turn.on_expiry is TimeoutAction.FORFEIT or 0 < turn.max_timeouts <= count:
        return lambda g: g.resign(seat)
    if game.awaiting_final_challenge:
        return lambda g: g.accept(seat)
    return lambda g: g.pass_turn(seat)
