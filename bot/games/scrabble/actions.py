"""Scrabble's actions as the host applies them (:class:`Turn`): a player's command, an AI's chosen move,
and what a timeout does."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.config import TimeoutAction, TurnConfig
from scrabble_core.game import Event, Game
from scrabble_core.move import Move

EngineAction = Callable[[Game, int], list[Event]]
"""An engine action by a seat on a game (a copy of the game's state): returns the events it caused."""


@dataclass(frozen=True, slots=True)
class Turn:
    """An action of a seat: the engine ``act`` it makes, and the ``lines`` that open its announcement."""

    act: EngineAction
    lines: tuple[str, ...] = ()


def move_turn(move: Move) -> Turn:
    """Play the ``move`` an AI chose: a play, an exchange or a pass."""
    return Turn(lambda game, seat: game.push(seat, move))


def pass_turn() -> Turn:
    """Pass."""
    return Turn(lambda game, seat: game.pass_turn(seat))


def timeout_turn(game: Game, seat: int, turn: TurnConfig, count: int) -> Turn:
    """What ``seat`` does when its turn's time runs out for the ``count``-th time in a row: forfeit
    (resign) when the configuration says so or at its limit of timeouts, else accept a play that went
    out, else pass."""
    if turn.on_expiry is TimeoutAction.FORFEIT or 0 < turn.max_timeouts <= count:
        return Turn(lambda g, s: g.resign(s))
    if game.awaiting_final_challenge:
        return Turn(lambda g, s: g.accept(s))
    return pass_turn()
