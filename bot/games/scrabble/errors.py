"""Scrabble's refusals besides the engine's own (:class:`~scrabble_core.errors.ScrabbleError`, which reach
the player unchanged): under the host's :class:`~bot.host.errors.ServiceError`."""

from __future__ import annotations

from bot.host.errors import GameExistsError, ServiceError

NO_GAME = "There is no game in this channel: start one with /scrabble new"
NOT_STARTED = "The game has not started yet: its creator starts it with /scrabble start"


def game_exists() -> GameExistsError:
    """The refusal of a new game in a channel that has a Scrabble game."""
    return GameExistsError("This channel already has a game: finish or cancel it first (/scrabble cancel)")


class HintError(ServiceError):
    """A hint that cannot be given: hints disabled in the game, or all used."""


class RulesTopicError(ServiceError):
    """``/scrabble rules`` asked for a topic that does not exist."""


class WordError(ServiceError):
    """A word to check that is not a word of this game's alphabet."""
