"""The Go service's refusals, under the service's error base (:class:`~bot.host.errors.ServiceError`)
so that the Discord layer shows them as it shows Scrabble's. The engine's own errors
(:class:`go_core.errors.GoError`) reach the player as :class:`GoMoveError`, with the engine's message."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from bot.host.errors import ServiceError
from go_core.errors import GoError


class GoMoveError(ServiceError):
    """The engine refused an action: an occupied point, self-capture, ko, not your turn, off the board,
    not the phase for it... The message is the engine's."""


class UndoError(ServiceError):
    """An undo that cannot be asked for or answered now."""


@contextmanager
def engine_refusals() -> Iterator[None]:
    """Raise the engine's :class:`GoError` in the block as :class:`GoMoveError` (same message).

    Raises:
        GoMoveError.
    """
    try:
        yield
    except GoError as error:
        raise GoMoveError(str(error)) from error
