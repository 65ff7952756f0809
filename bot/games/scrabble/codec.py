"""Scrabble's stored form (its codec): a game's options and state as JSON, of version :data:`FORMAT`
(``games.format``). The state is the engine's own (:meth:`scrabble_core.game.Game.to_dict`, itself
versioned by its ``schema``); the options are :class:`~bot.games.scrabble.options.ScrabbleOptions`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from bot.games.scrabble.options import ScrabbleOptions
from scrabble_core.game import Game
from scrabble_core.lexicon import WordList

FORMAT: Final = 1
"""The version of the stored options and state this codec writes (and the oldest it reads)."""


def read_options(data: Mapping[str, Any]) -> ScrabbleOptions:
    """The options stored as ``data``.

    Raises:
        KeyError, TypeError, ValueError: it is not a Scrabble game's.
    """
    return ScrabbleOptions.from_dict(data)


def read_state(data: Mapping[str, Any], lexicon: WordList | None = None) -> Game:
    """The game stored as ``data`` (judging its words with ``lexicon``).

    Raises:
        ScrabbleError: it is not a Scrabble game's.
    """
    return Game.from_dict(data, lexicon=lexicon)


def replay(state: Mapping[str, Any]) -> Mapping[str, Any]:
    """``state`` read and written again (a copy of a database checks its games with it).

    Raises:
        ScrabbleError: it is not a Scrabble game's.
    """
    return read_state(state).to_dict()
