"""The live side of the board: the open connections of each game, and the events they are sent.

:class:`Hub` is a :class:`~bot.host.listeners.GameListener`: after every committed change of a game
that has connections it numbers one event (``move`` when the history grew, ``game_over`` when the game
closed, ``state`` otherwise), keeps it in a bounded buffer for reconnects, and queues it to each
connection with the state that connection may see (computed once per seat, once for every spectator).
Queuing never waits: a connection whose queue is full is closed (:class:`Connection`).
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any, Final

from bot.host.table import AnyTable
from bot.web.links import Grant, Role, seat_of
from bot.web.parts import web_part

__all__ = ["Connection", "Hub"]

logger = logging.getLogger("bot.web")

BUFFERED_EVENTS: Final = 200
SEND_QUEUE: Final = 256
CLOSE_TOO_SLOW: Final = 4009
CLOSE_GAME_OVER: Final = 1000
CLOSE_RENEWED: Final = 4001
GAME_OVER_GRACE: Final = 5.0
"""Seconds between ``game_over`` and closing the game's connections (the reply to the command that
ended the game goes out first)."""


class Connection:
    """One websocket's outgoing side: messages wait in a bounded queue drained by :meth:`run_sender`.

    ``send(data)`` (a UTF-8 text frame) and ``close(code, reason)`` are the websocket's coroutines; ``abort(code)`` closes it at
    once, dropping what waits (for a client that reads too slowly)."""

    def __init__(
        self,
        grant: Grant,
        send: Callable[[bytes], Awaitable[None]],
        close: Callable[[int, str], Awaitable[Any]],
        abort: Callable[[int], None],
    ) -> None:
        self.grant = grant
        self._send = send
        self._close = close
        self._abort = abort
        self._pending: deque[bytes] = deque()
        self._wakeup = asyncio.Event()
        self._close_with: tuple[int, str] | None = None

    def seat_in(self, table: AnyTable) -> int | None:
        """The seat of ``table``'s game whose private state this connection sees (None: a spectator).

        Raises:
            ProtocolError: its token plays no seat of the game any more.
        """
        return seat_of(self.grant, table.row.seats)

    def send(self, text: str | bytes) -> None:
        """Queue ``text`` (a JSON text, or one encoded in UTF-8 to share between connections); a client
        with ``SEND_QUEUE`` messages waiting already is aborted."""
        if self._close_with is not None:
            return
        if len(self._pending) >= SEND_QUEUE:
            logger.info("game %d: closing a connection that reads too slowly", self.grant.game_id)
            self._pending.clear()
            self._close_with = (CLOSE_TOO_SLOW, "too slow")
            self._abort(CLOSE_TOO_SLOW)
            return
        self._pending.append(text.encode() if isinstance(text, str) else text)
        self._wakeup.set()

    def close(self, code: int, reason: str) -> None:
        """Close once everything queued so far is sent."""
        if self._close_with is None:
            self._close_with = (code, reason)
            self._wakeup.set()

    async def run_sender(self) -> None:
        """Send the queued messages in order, until the connection is closed."""
        while True:
            while self._pending:
                await self._send(self._pending.popleft())
            if self._close_with is not None:
                await self._close(*self._close_with)
                return
            self._wakeup.clear()
            await self._wakeup.wait()


class _Channel:
    """The connections of one game, its event counter and its recent events."""

    def __init__(self, history_length: int) -> None:
        self.seq = 0
        self.history_length = history_length
        self.buffer: deque[dict[str, Any]] = deque(maxlen=BUFFERED_EVENTS)
        self.connections: set[Connection] = set()


class Hub:
    """The connections of every game, fed by the game service's changes."""

    def __init__(self, now: Callable[[], float]) -> None:
        self._now = now
        self._channels: dict[int, _Channel] = {}

    def connections(self, game_id: int) -> int:
        """How many connections game ``game_id`` has."""
        channel = self._channels.get(game_id)
        return len(channel.connections) if channel else 0

    def join(self, connection: Connection, table: AnyTable, last_seq: int | None) -> dict[str, Any]:
        """Add ``connection`` to its game (as ``table`` stands now) and return its ``welcome``.

        Raises:
            NoGameError: the game is not one the board shows.
        """
        game_id = table.row.id
        part = web_part(table.row.kind)
        channel = self._channels.get(game_id)
        if channel is None:
            channel = self._channels[game_id] = _Channel(part.history_length(table))
        channel.connections.add(connection)
        missed = None
        if last_seq is not None and 0 <= last_seq <= channel.seq:
            events = [event for event in channel.buffer if event["seq"] > last_seq]
            if len(events) == channel.seq - last_seq:
                missed = events
        return _welcome(connection.grant, table, channel.seq, missed, self._now())

    def ended(self, grant: Grant, table: AnyTable) -> dict[str, Any]:
        """The ``welcome`` of a connection with ``grant`` to ``table``'s game, which is over: its final
        state and ``final``, no events (the connection joins nothing; the server closes it)."""
        welcome = _welcome(grant, table, 0, None, self._now())
        welcome["final"] = web_part(table.row.kind).final(table)
        return welcome

    def connected(self, grant: Grant) -> bool:
        """Whether a connection that said hello with ``grant`` (its game, role and number) is open."""
        channel = self._channels.get(grant.game_id)
        return channel is not None and any(c.grant == grant for c in channel.connections)

    def leave(self, connection: Connection) -> None:
        """Forget ``connection`` (its game's events and counter stay, for a reconnect)."""
        channel = self._channels.get(connection.grant.game_id)
        if channel is not None:
            channel.connections.discard(connection)

    def close_seat(self, game_id: int, seat: int) -> None:
        """Close the connections of a person playing ``seat`` of game ``game_id`` (its link was renewed:
        they came with a token that no longer works)."""
        channel = self._channels.get(game_id)
        for connection in list(channel.connections) if channel else []:
            if connection.grant.role is Role.PLAYER and connection.grant.number == seat:
                connection.close(CLOSE_RENEWED, "link renewed")

    def game_changed(self, table: AnyTable) -> None:
        """Send every connection of the game the event of this change (see the module's text)."""
        channel = self._channels.get(table.row.id)
        if channel is None:
            return
        part = web_part(table.row.kind)
        new = part.history(table, channel.history_length)
        channel.history_length = part.history_length(table)
        over = not table.row.status.is_open
        channel.seq += 1
        event: dict[str, Any] = {
            "type": "game_over" if over else "move" if new else "state",
            "seq": channel.seq,
        }
        if event["type"] != "state":
            event["events"] = new
        if over:
            event["final"] = part.final(table)
        channel.buffer.append(event)
        now = self._now()
        texts: dict[int | None, bytes] = {}
        for connection in channel.connections:
            seat = connection.seat_in(table)
            if seat not in texts:
                texts[seat] = json.dumps(event | {"state": part.state(table, seat, now)}).encode()
            connection.send(texts[seat])
        if over:
            del self._channels[table.row.id]
            connections = list(channel.connections)
            asyncio.get_running_loop().call_later(GAME_OVER_GRACE, _close_all, connections)


def _welcome(
    grant: Grant, table: AnyTable, seq: int, missed: list[dict[str, Any]] | None, now: float
) -> dict[str, Any]:
    """The ``welcome`` of a connection with ``grant`` to ``table``'s game at event ``seq``.

    Raises:
        ProtocolError: its token plays no seat of the game any more.
    """
    seat = seat_of(grant, table.row.seats)
    seat_row = table.row.seats[seat] if seat is not None else None
    return {
        "type": "welcome",
        "protocol": 1,
        "game_id": table.row.id,
        "kind": table.row.kind,
        "you": {"role": grant.role.value, "seat": seat, "name": seat_row.name if seat_row else None},
        "seq": seq,
        "state": web_part(table.row.kind).state(table, seat, now),
        "missed": missed,
    }


def _close_all(connections: list[Connection]) -> None:
    for connection in connections:
        connection.close(CLOSE_GAME_OVER, "game over")
