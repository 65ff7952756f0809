"""The web tests' harness: the web server over the service tests' harness (a real game service over a
real SQLite file) on aiohttp's test server, and websocket clients that speak the protocol.

Imported by the tests in this directory: pytest puts the directory on ``sys.path`` and ``conftest.py``
(which holds the fixtures that build these) adds ``tests/bot`` for ``service_fakes``; mypy finds both
through ``mypy_path``.
"""

from __future__ import annotations

import json
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from aiohttp.test_utils import TestServer
from service_fakes import ALICE, BOB, CHANNEL, Harness

from bot.web.hub import GAME_OVER_GRACE
from bot.web.links import LinkSigner, Role
from bot.web.server import Limits, WebServer


@dataclass
class WsClient:
    """A websocket client of the protocol that records every message it receives (``log``)."""

    ws: aiohttp.ClientWebSocketResponse
    log: list[dict[str, Any]] = field(default_factory=list)
    pending: deque[dict[str, Any]] = field(default_factory=deque)
    next_id: int = 0

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send_str(json.dumps(message))

    async def recv(self, timeout: float = 5.0) -> dict[str, Any]:
        """The next message (those buffered while waiting for a reply first)."""
        if self.pending:
            return self.pending.popleft()
        return await self._read(timeout)

    async def _read(self, timeout: float) -> dict[str, Any]:
        frame = await self.ws.receive(timeout=timeout)
        if frame.type is not aiohttp.WSMsgType.TEXT:
            raise ConnectionError(f"websocket {frame.type.name}: {self.ws.close_code}")
        message: dict[str, Any] = json.loads(frame.data)
        self.log.append(message)
        return message

    async def until(self, kind: str, timeout: float = 5.0) -> dict[str, Any]:
        """Skip messages up to the next one of type ``kind``."""
        while True:
            message = await self.recv(timeout)
            if message["type"] == kind:
                return message

    async def call(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Send a command with a new id and return its reply (other messages stay buffered)."""
        self.next_id += 1
        await self.send({"type": kind, "id": self.next_id, **fields})
        while True:
            message = await self._read(5.0)
            if message["type"] == "reply" and message["id"] == self.next_id:
                return message
            self.pending.append(message)

    async def closed(self) -> int | None:
        """Wait for the server to close (it waits GAME_OVER_GRACE after a game's end); its close code."""
        while True:
            frame = await self.ws.receive(timeout=GAME_OVER_GRACE + 5.0)
            if frame.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING):
                return self.ws.close_code
            if frame.type is aiohttp.WSMsgType.TEXT:
                self.log.append(json.loads(frame.data))


@dataclass
class Web:
    """The service, its web server on a test server, and a way to open clients."""

    harness: Harness
    server: WebServer
    test_server: TestServer
    session: aiohttp.ClientSession
    clients: list[WsClient] = field(default_factory=list)

    @property
    def signer(self) -> LinkSigner:
        return self.server.signer

    def game_id(self) -> int:
        return self.harness.svc.host.tables[CHANNEL].row.id

    async def raw(self) -> aiohttp.ClientWebSocketResponse:
        return await self.session.ws_connect(self.test_server.make_url("/ws"))

    async def connect(self, token: str, last_seq: int | None = None) -> tuple[WsClient, dict[str, Any]]:
        """A client that sent ``hello`` with ``token``, and the server's first answer."""
        client = WsClient(await self.raw())
        self.clients.append(client)
        await client.send({"type": "hello", "protocol": 1, "token": token, "last_seq": last_seq})
        return client, await client.recv()

    async def seat(self, seat: int, role: Role = Role.PLAYER) -> WsClient:
        client, welcome = await self.connect(self.signer.token(self.game_id(), role, seat))
        assert welcome["type"] == "welcome", welcome
        return client

    async def spectator(self) -> WsClient:
        client, welcome = await self.connect(self.signer.token(self.game_id(), Role.SPECTATOR))
        assert welcome["type"] == "welcome", welcome
        return client


MakeWeb = Callable[..., Awaitable[Web]]
FAST = Limits(rate=1000.0, burst=1000)
"""The protocol's limits, but for a message rate fast tests can use."""

__all__ = ["ALICE", "BOB", "CHANNEL", "FAST", "MakeWeb", "Web", "WsClient"]
