"""Go's stored form (its codec): a game's options and state as JSON, of version :data:`FORMAT`
(``games.format``). The state is the engine's game (:meth:`go_core.Game.to_dict`) with the plugin's
extra state (:class:`~bot.games.go.table.GoState`); the options are
:class:`~bot.games.go.options.GoOptions`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from bot.games.go.options import GoOptions
from bot.games.go.table import GoState

FORMAT: Final = 1
"""The version of the stored options and state this codec writes (and the oldest it reads)."""


def read_options(data: Mapping[str, Any]) -> GoOptions:
    """The options stored as ``data``.

    Raises:
        KeyError, TypeError, ValueError: they are not a Go game's.
    """
    return GoOptions.from_dict(data)


def read_state(data: Mapping[str, Any]) -> GoState:
    """The game stored as ``data``.

    Raises:
        GoError, KeyError, TypeError, ValueError: it is not a Go game's.
    """
    return GoState.from_dict(data)


def replay(state: Mapping[str, Any]) -> Mapping[str, Any]:
    """``state`` read and written again (a copy of a database checks its games with it).

    Raises:
        GoError, KeyError, TypeError, ValueError: it is not a Go game's.
    """
    return read_state(state).to_dict()
