"""Observers of the open games: front ends that show games live (the web board) subscribe to the host
and hear of every committed change.

The runner calls :meth:`Listeners.changed` after every write of a game, once the change is committed and
before it is announced; a listener only reads the table it is given and must not block (it queues its
own work). A listener that raises is logged and does not disturb the host or the other listeners.
"""

from __future__ import annotations

import logging
from typing import Protocol

from bot.host.table import AnyTable

__all__ = ["GameListener", "Listeners"]

logger = logging.getLogger("bot.host")


class GameListener(Protocol):
    """Hears of every committed change of a game."""

    def game_changed(self, table: AnyTable) -> None:
        """``table`` is the game as just saved (its row's status says whether it is still open)."""
        ...


class Listeners:
    """The listeners subscribed to a host."""

    def __init__(self) -> None:
        self._listeners: list[GameListener] = []

    def add(self, listener: GameListener) -> None:
        """Subscribe ``listener`` (once)."""
        if listener not in self._listeners:
            self._listeners.append(listener)

    def remove(self, listener: GameListener) -> None:
        """Unsubscribe ``listener`` (nothing if it is not subscribed)."""
        if listener in self._listeners:
            self._listeners.remove(listener)

    def changed(self, table: AnyTable) -> None:
        """Tell every listener that ``table`` was saved. Never raises."""
        for listener in list(self._listeners):
            try:
                listener.game_changed(table)
            except Exception:
                logger.exception("game %d: a listener failed", table.row.id)
