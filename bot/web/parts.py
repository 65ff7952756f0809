"""What a game adds to the web board (``docs/protocol.md``): its :class:`WebPart`, named by its
registration (:attr:`bot.host.registry.GameModule.web`, a module with ``PART``), found by kind
(:func:`web_part`).

The server, the hub and the page's envelope are the same for every game: ``hello``/``welcome`` (with
the game's ``kind``), numbered events, replies. A part gives what differs: the state a connection may
see, the entries of its history, the ``final`` of its end, and its commands.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any, Protocol, TypeGuard

from bot.host.errors import NoGameError, NotSeatedError
from bot.host.registry import game
from bot.host.table import AnyTable
from bot.web.errors import ProtocolError
from bot.web.links import Grant, seat_of

__all__ = ["WebPart", "player", "turn_of", "web_part", "whole"]


class WebPart(Protocol):
    """A game's part of the web board."""

    commands: frozenset[str]
    """The ``type`` of each client command it answers (``ping`` is the server's)."""

    def state(self, table: AnyTable, seat: int | None, now: float) -> dict[str, Any]:
        """What a connection sees of the game: the public state, and ``seat``'s private view when it
        is not None (never another seat's). ``now`` is the server's clock."""
        ...

    def history_length(self, table: AnyTable) -> int:
        """How many entries the game's history has (an event carries the new ones)."""
        ...

    def history(self, table: AnyTable, start: int) -> list[dict[str, Any]]:
        """The history's entries from ``start`` on, as every connection may see them."""
        ...

    def final(self, table: AnyTable) -> dict[str, Any]:
        """The ``final`` of the ``game_over`` event of the game, closed."""
        ...

    def summary(self, table: AnyTable) -> str:
        """How the closed game ended, in a line for the terminal that served it."""
        ...

    async def run(
        self, commands: Any, grant: Grant, message: Mapping[str, Any], now: float
    ) -> dict[str, Any]:
        """Carry out the client command ``message`` (its ``type`` in :attr:`commands`) for ``grant``
        through the game's ``commands`` (its :class:`~bot.host.commands.GameCommands`); the reply's
        result.

        Raises:
            ProtocolError: a missing or badly typed field, or a token that plays no seat any more;
            ServiceError: the game's refusal (NotSeatedError for a spectator).
        """
        ...


def player(table: AnyTable, grant: Grant) -> tuple[int, int]:
    """The seat ``grant`` plays in ``table``'s game and its user id.

    Raises:
        ProtocolError: its token plays no seat any more; NotSeatedError: a spectator, or an AI's seat.
    """
    seat = seat_of(grant, table.row.seats)
    if seat is None:
        raise NotSeatedError
    user_id = table.row.seats[seat].user_id
    if user_id is None:  # an AI's seat: no token is ever issued for one
        raise NotSeatedError
    return seat, user_id


def web_part(kind: str) -> WebPart:
    """The web part of the registered game ``kind``.

    Raises:
        NoGameError: the game has none (its games are not on the board).
    """
    module = game(kind).web
    if module is None:
        raise NoGameError("This game cannot be played on the board")
    part: WebPart = importlib.import_module(module).PART
    return part


def turn_of(message: Mapping[str, Any]) -> int | None:
    """The ``turn`` of a command: the state's turn the client saw, or None.

    Raises:
        ProtocolError: it is neither.
    """
    value = message.get("turn")
    if value is not None and not whole(value):
        raise ProtocolError("bad_message", "turn must be an integer (the state's turn) or null")
    return value


def whole(value: object) -> TypeGuard[int]:
    """Whether ``value`` is a whole number of JSON (not a boolean)."""
    return isinstance(value, int) and not isinstance(value, bool)
