"""The web server of the board, in the bot's process and event loop (aiohttp): the page, its files, and
the websocket of the protocol (``docs/protocol.md``).

:class:`WebServer` serves ``/game`` (the page), ``/static/...`` (its files, shipped in the package),
``/healthz`` and ``/ws``, and when the board runs as a Discord Activity, the Activity's page at ``/`` (the
root of its URL mapping; framed by Discord's clients only), the application's client id for its SDK
(``/activity/client``) and its sign-in, ``/activity/session`` (:mod:`bot.web.activity`), behind its perimeter (:mod:`bot.web.perimeter`: the security headers on every
response, the hosts it answers to, the page origins allowed to open the websocket). The websocket
handler enforces the limits (message size and nesting, messages per second, connections per game and
per address, sockets per address waiting to say hello, the hello timeout) and answers every bad message
with an error reply, never a crash. Logs name the game, never a token.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import Counter, deque
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from aiohttp import WSMsgType, web

from bot.config import ActivityConfig, Config
from bot.host.commands import GameCommands
from bot.host.errors import NoGameError, ServiceError
from bot.host.registry import is_refusal
from bot.host.runner import Host
from bot.host.table import AnyTable
from bot.web.activity import ActivitySignIn
from bot.web.errors import ProtocolError, error_body
from bot.web.hub import Connection, Hub
from bot.web.links import Grant, LinkSigner, Role, board_url, program_number, seat_of
from bot.web.parts import web_part
from bot.web.perimeter import SECURITY_HEADERS, HostPolicy, framed_headers, perimeter
from scrabble_core.errors import echo

__all__ = ["DEFAULT_LIMITS", "PROTOCOL_VERSION", "Limits", "ServerLinks", "WebServer", "board_server"]

logger = logging.getLogger("bot.web")

PROTOCOL_VERSION: Final = 1
STATIC_DIR: Final = Path(__file__).parent / "static"
MAX_ID_LENGTH: Final = 64
CLOSE_HELLO: Final = 4000
CLOSE_RATE: Final = 4008
CLOSE_TOO_LARGE: Final = 1009
CLOSE_GOING_AWAY: Final = 1001
CLOSE_GAME_OVER: Final = 1000
HEARTBEAT_SECONDS: Final = 20.0
ACTIVITY_PAGE: Final = "/"
SIGN_IN: Final = "/activity/session"
ACTIVITY_CLIENT: Final = "/activity/client"
MAX_SIGN_IN_BYTES: Final = 1024
MAX_SIGN_IN_ADDRESSES: Final = 10_000
NO_STORE: Final = {"Cache-Control": "no-store"}
ACTIVITY_SDK: Final = STATIC_DIR / "sdk" / "discord-sdk.js"
"""Discord's Embedded App SDK as one module, built from ``bot/web/sdk`` (its lockfile pins the version)."""


@dataclass(frozen=True, slots=True)
class Limits:
    """What one client may do (see the protocol's errors). ``per_address`` counts the connections of an
    address that said hello; ``waiting_per_address`` its sockets still waiting to (past it, the oldest
    one is closed: sockets that never say hello cannot lock a player out); ``nesting`` is how deep a
    message's arrays and objects may nest; ``sign_in_rate`` and ``sign_in_burst`` how many Activity
    sign-ins an address may make (each costs three calls to Discord's API; behind a reverse proxy or
    Discord's, many users share an address)."""

    message_bytes: int = 8 * 1024
    nesting: int = 16
    rate: float = 10.0
    burst: int = 20
    strikes: int = 10
    per_game: int = 1000
    per_address: int = 50
    waiting_per_address: int = 10
    hello_seconds: float = 10.0
    sign_in_rate: float = 2.0
    sign_in_burst: int = 20


DEFAULT_LIMITS: Final = Limits()


class _Bucket:
    """A token bucket: ``rate`` messages a second, ``burst`` at once."""

    def __init__(self, rate: float, burst: int) -> None:
        self._rate, self._burst = rate, burst
        self._tokens = float(burst)
        self._last = time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self._tokens = min(self._burst, self._tokens + (now - self._last) * self._rate)
        self._last = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True


class WebServer:
    """The board's web server for the games of a started host (``service``: one of its games' commands,
    :class:`~bot.host.commands.GameCommands`; the board shows every game whose registration names a web
    part, :mod:`bot.web.parts`). :meth:`start` binds it (by default
    to 127.0.0.1 only), :meth:`close` stops it. It answers to the hosts of :class:`HostPolicy`: the
    bound address, ``public_url``'s host and ``allowed_hosts``, and with ``activity`` (the board as a
    Discord Activity, which needs the bot's ``bot_token``) Discord's proxy of the application."""

    def __init__(
        self,
        service: GameCommands,
        signer: LinkSigner,
        *,
        host: str = "127.0.0.1",
        port: int = 8765,
        limits: Limits = DEFAULT_LIMITS,
        now: Callable[[], float] = time.time,
        public_url: str = "",
        allowed_hosts: Sequence[str] = (),
        activity: ActivityConfig | None = None,
        bot_token: str | None = None,
    ) -> None:
        self.service = service
        self.public_url = public_url
        self.signer = signer
        self.host, self.port = host, port
        self.limits = limits
        self.activity = activity
        self.policy = HostPolicy(host, public_url, allowed_hosts, activity.proxy_host if activity else None)
        if activity is not None and not bot_token:
            raise ValueError("the Activity needs the bot's token (to ask Discord where an instance runs)")
        self.sign_in = (
            ActivitySignIn(activity, service.host, signer, bot_token)
            if activity is not None and bot_token
            else None
        )
        self._sign_ins: dict[str, _Bucket] = {}
        """Each address's allowance of sign-ins."""
        self._now = now
        self.hub = Hub(now)
        self._addresses: Counter[str] = Counter()
        """The connections of each address that said hello."""
        self._waiting: dict[str, deque[web.WebSocketResponse]] = {}
        """The sockets of each address that have not said hello yet, oldest first."""
        self._sockets: dict[web.WebSocketResponse, int | None] = {}
        """Every open socket, with its game once it said hello."""
        self._socket_closed = asyncio.Event()
        self._turned_away: dict[web.WebSocketResponse, asyncio.Future[None]] = {}
        """For each socket waiting to say hello, set when it is turned away (too many wait behind it)."""
        self._runner: web.AppRunner | None = None
        service.host.subscribe(self.hub)

    def link(
        self, game_id: int, seat: int | None = None, *, role: Role = Role.PLAYER, renew: bool = False
    ) -> str:
        """The board's link for ``seat`` of game ``game_id`` (a spectator's without a seat), under the
        public URL (``http://host:port`` if none is set); ``renew`` makes a new one: the seat's older
        links stop working and the connections opened with them are closed (code 4001). For the Discord
        layer's "Open board" button and the players' private links."""
        if seat is None:
            token = self.signer.token(game_id, Role.SPECTATOR)
        elif renew:
            token = self.signer.renew(game_id, role, seat)
            self.hub.close_seat(game_id, seat)
        else:
            token = self.signer.token(game_id, role, seat)
        return board_url(self.public_url or f"http://{self.host}:{self.port}", token)

    def app(self) -> web.Application:
        """The aiohttp application (tests serve it with aiohttp's test server)."""
        framed = {ACTIVITY_PAGE: framed_headers(self.activity.clients)} if self.activity else {}
        app = web.Application(middlewares=[perimeter(self.policy, framed)])
        app.router.add_get("/ws", self._websocket)
        app.router.add_get("/game", _page)
        app.router.add_get("/healthz", _health)
        if self.activity is not None:
            app.router.add_get(ACTIVITY_PAGE, _page)
            app.router.add_get(ACTIVITY_CLIENT, self._activity_client)
            app.router.add_post(SIGN_IN, self._sign_in)
        if STATIC_DIR.is_dir():
            app.router.add_static("/static", STATIC_DIR, follow_symlinks=False)
        return app

    async def start(self) -> None:
        """Serve on ``host:port`` (port 0: any free port, then read :attr:`port`)."""
        if self.activity is not None and not ACTIVITY_SDK.is_file():
            logger.error(
                "the Activity's page needs Discord's SDK, which is not built: run npm ci, then npm run "
                "build, in %s",
                STATIC_DIR.parent / "sdk",
            )
        self._runner = web.AppRunner(self.app(), access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        if self.port == 0:
            self.port = self._runner.addresses[0][1]
        logger.info("board served on http://%s:%d", self.host, self.port)

    async def close(self) -> None:
        """Stop serving and close every websocket (code 1001: clients reconnect later)."""
        await self.drop_connections()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self.sign_in is not None:
            await self.sign_in.close()

    async def _activity_client(self, request: web.Request) -> web.StreamResponse:
        """``GET /activity/client``: the application's client id, which the page's SDK names itself with
        (public: it is in the Activity's address)."""
        assert self.activity is not None  # the route exists with the Activity only
        return web.json_response({"client_id": str(self.activity.client_id)}, headers=NO_STORE)

    async def _sign_in(self, request: web.Request) -> web.StreamResponse:
        """``POST /activity/session``: sign the Discord user of the Activity in (see
        :class:`~bot.web.activity.ActivitySignIn`); a refusal is answered with its error."""
        assert self.sign_in is not None  # the route exists with the Activity only
        address = request.remote or "?"
        if len(self._sign_ins) > MAX_SIGN_IN_ADDRESSES:
            self._sign_ins.clear()
        bucket = self._sign_ins.setdefault(
            address, _Bucket(self.limits.sign_in_rate, self.limits.sign_in_burst)
        )
        try:
            if not bucket.take():
                raise ProtocolError(
                    "rate_limited", "too many sign-ins: wait a minute and open the board again"
                )
            if (request.content_length or 0) > MAX_SIGN_IN_BYTES:
                raise ProtocolError("too_large", "that request is too large")
            try:
                body = json.loads(await request.content.read(MAX_SIGN_IN_BYTES + 1))
            except ValueError:
                raise ProtocolError("bad_message", "send a JSON object") from None
            session = await self.sign_in.session(body)
        except ProtocolError as error:
            status = _SIGN_IN_STATUS.get(error.code, 400)
            return web.json_response(
                {"ok": False, "error": error_body(error)}, status=status, headers=NO_STORE
            )
        return web.json_response(session.to_json(), headers=NO_STORE)

    async def drop_connections(self) -> None:
        """Close every open websocket with code 1001 (going away), as at shutdown."""
        sockets = list(self._sockets)
        await asyncio.gather(
            *(ws.close(code=CLOSE_GOING_AWAY, message=b"server going away") for ws in sockets),
            return_exceptions=True,
        )

    # The websocket ------------------------------------------------------------------------------

    async def connections_closed(self, game_id: int) -> None:
        """Return once no websocket of game ``game_id`` is open (after its end the hub closes them,
        code 1000, :data:`~bot.web.hub.GAME_OVER_GRACE` seconds later)."""
        while game_id in self._sockets.values():
            self._socket_closed.clear()
            await self._socket_closed.wait()

    async def _websocket(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(
            heartbeat=HEARTBEAT_SECONDS, max_msg_size=self.limits.message_bytes * 8, compress=False
        )
        ws.headers.update(SECURITY_HEADERS)  # sent with the handshake, before the perimeter sees it
        await ws.prepare(request)
        address = request.remote or "?"
        self._sockets[ws] = None
        self._wait_for_hello(address, ws)
        try:
            connection = await self._hello(ws, address)
            if connection is not None:
                self._addresses[address] += 1
                self._sockets[ws] = connection.grant.game_id
                try:
                    await self._serve(ws, connection)
                finally:
                    self._addresses[address] -= 1
                    if self._addresses[address] <= 0:
                        del self._addresses[address]
        finally:
            self._stop_waiting(address, ws)
            del self._sockets[ws]
            self._socket_closed.set()
        return ws

    def _wait_for_hello(self, address: str, ws: web.WebSocketResponse) -> None:
        """Count ``ws`` among ``address``'s sockets waiting to say hello; past the limit, turn the
        oldest of them away (the newest may be its player's: it goes on)."""
        waiting = self._waiting.setdefault(address, deque())
        waiting.append(ws)
        self._turned_away[ws] = asyncio.get_running_loop().create_future()
        if len(waiting) > self.limits.waiting_per_address:
            self._turned_away[waiting.popleft()].set_result(None)

    def _stop_waiting(self, address: str, ws: web.WebSocketResponse) -> None:
        waiting = self._waiting.get(address)
        if waiting is not None and ws in waiting:
            waiting.remove(ws)
            if not waiting:
                del self._waiting[address]
        self._turned_away.pop(ws, None)

    async def _receive_hello(self, ws: web.WebSocketResponse) -> Any:
        """The first frame of ``ws``.

        Raises:
            ProtocolError: none came within the hello timeout, or the socket was turned away.
        """
        receive: asyncio.Future[Any] = asyncio.ensure_future(ws.receive())
        turned_away = self._turned_away[ws]
        await asyncio.wait(
            [receive, turned_away], timeout=self.limits.hello_seconds, return_when=asyncio.FIRST_COMPLETED
        )
        if receive.done():
            return receive.result()
        receive.cancel()  # aiohttp's receive stops cleanly: the socket can still be answered
        with contextlib.suppress(asyncio.CancelledError):
            await receive
        if turned_away.done():
            raise ProtocolError("too_many_connections", "too many connections from your address")
        raise ProtocolError("bad_message", f"send hello first, within {self.limits.hello_seconds:g} seconds")

    async def _hello(self, ws: web.WebSocketResponse, address: str) -> Connection | None:
        """Read and check ``hello``; send ``welcome`` and return the joined connection, or send the
        error reply, close and return None."""
        message_id: Any = None
        try:
            frame = await self._receive_hello(ws)
            self._stop_waiting(address, ws)
            message = self._parse(frame)
            message_id = message.get("id")
            if message.get("type") != "hello":
                raise ProtocolError("bad_message", "send hello first")
            if message.get("protocol") != PROTOCOL_VERSION:
                raise ProtocolError("unsupported_protocol", f"this server speaks protocol {PROTOCOL_VERSION}")
            token, last_seq = message.get("token"), message.get("last_seq")
            if not isinstance(token, str):
                raise ProtocolError("unauthorized", "hello needs the token of a link")
            if last_seq is not None and (not isinstance(last_seq, int) or isinstance(last_seq, bool)):
                raise ProtocolError("bad_message", "last_seq must be an integer or null")
            grant = self.signer.verify(token)
            table = await self._table(grant.game_id)
            web_part(table.row.kind)
            seat_of(grant, table.row.seats)
            if self._addresses[address] >= self.limits.per_address:
                raise ProtocolError("too_many_connections", "too many connections from your address")
            if self.hub.connections(grant.game_id) >= self.limits.per_game:
                raise ProtocolError("too_many_connections", "this game has too many viewers")
        except Exception as error:
            if not (isinstance(error, ProtocolError | ServiceError) or is_refusal(error)):
                raise
            if not ws.closed:
                await ws.send_str(_reply(message_id, error=error))
                await ws.close(code=CLOSE_HELLO, message=b"hello refused")
            return None
        if not table.row.status.is_open:
            await ws.send_str(json.dumps(self.hub.ended(grant, table)))
            await ws.close(code=CLOSE_GAME_OVER, message=b"game over")
            return None
        connection = self._connection(ws, grant)
        welcome = self.hub.join(connection, table, last_seq)
        connection.send(json.dumps(welcome))
        logger.info("game %d: a %s connected", grant.game_id, grant.role.value)
        return connection

    async def _table(self, game_id: int) -> AnyTable:
        """Game ``game_id``: an open one as it stands, or one that is over as the store keeps it.

        Raises:
            NoGameError: no such game, or one this host cannot show (another shard's, unreadable).
        """
        host = self.service.host
        try:
            return host.open_table(game_id)
        except NoGameError:
            try:
                row = await host.store.game(game_id)
                plugin = None if row is None or row.status.is_open else host.plugins.get(row.kind)
                if row is not None and plugin is not None:
                    return plugin.restore(row)
            except Exception as error:  # a kept game that cannot be read is shown as gone
                logger.warning("game %d: its record cannot be read (%s)", game_id, error)
            raise

    def _connection(self, ws: web.WebSocketResponse, grant: Grant) -> Connection:
        def abort(code: int) -> None:
            asyncio.get_running_loop().create_task(ws.close(code=code, message=b"too slow"))

        async def close(code: int, reason: str) -> None:
            await ws.close(code=code, message=reason.encode())

        async def send(data: bytes) -> None:
            await ws.send_frame(data, WSMsgType.TEXT)

        return Connection(grant, send, close, abort)

    async def _serve(self, ws: web.WebSocketResponse, connection: Connection) -> None:
        """Answer the connection's commands, one at a time, until it closes."""
        sender = asyncio.get_running_loop().create_task(connection.run_sender())
        bucket = _Bucket(self.limits.rate, self.limits.burst)
        strikes = 0
        try:
            async for frame in ws:
                if frame.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.ERROR):
                    break
                if not bucket.take():
                    strikes += 1
                    connection.send(
                        _reply(
                            self._id_of(frame),
                            error=ProtocolError("rate_limited", "too many messages: slow down"),
                        )
                    )
                    if strikes >= self.limits.strikes:
                        connection.close(CLOSE_RATE, "too many messages")
                    continue
                strikes = 0
                await self._answer(frame, connection)
        finally:
            self.hub.leave(connection)
            if not sender.done():
                connection.close(1000, "bye")
            try:
                await asyncio.wait_for(sender, 1.0)
            except (TimeoutError, ConnectionError, RuntimeError):  # a client gone while it was sent to
                sender.cancel()

    async def _answer(self, frame: Any, connection: Connection) -> None:
        message_id: Any = None
        try:
            message = self._parse(frame)
            message_id = message.get("id")
            kind = message.get("type")
            if kind == "hello":
                raise ProtocolError("bad_message", "hello was already sent")
            result = await self._run(connection.grant, kind, message)
        except Exception as error:
            if isinstance(error, ProtocolError | ServiceError) or is_refusal(error):
                connection.send(_reply(message_id, error=error))
                if isinstance(error, ProtocolError) and error.code == "too_large":
                    connection.close(CLOSE_TOO_LARGE, "message too large")
            else:
                logger.exception("game %d: a command failed", connection.grant.game_id)
                connection.send(_reply(message_id, error=error))
        else:
            connection.send(_reply(message_id, result=result))

    async def _run(self, grant: Grant, kind: object, message: dict[str, Any]) -> dict[str, Any]:
        """The result of the client command ``message`` (of type ``kind``) for ``grant``, run by the
        web part of its game.

        Raises:
            ProtocolError: ``unknown_type``, or the part's; the game's refusal.
        """
        if kind == "ping":
            return {"now": self._now()}
        table = self.service.host.open_table(grant.game_id)
        part = web_part(table.row.kind)
        if kind not in part.commands:
            raise ProtocolError("unknown_type", f"unknown message type {echo(str(kind))}")
        commands = self.service.host.commands[table.row.kind]
        return await part.run(commands, grant, message, self._now())

    def _id_of(self, frame: Any) -> Any:
        """The id of the message in ``frame``, or None if it has none or is not valid."""
        try:
            return self._parse(frame).get("id")
        except ProtocolError:
            return None

    def _parse(self, frame: Any) -> dict[str, Any]:
        """The JSON object of a text frame.

        Raises:
            ProtocolError: ``too_large``, or ``bad_message`` (binary, not JSON, not an object, a bad id).
        """
        if frame.type is not WSMsgType.TEXT:
            if frame.type in (WSMsgType.CLOSE, WSMsgType.CLOSED, WSMsgType.CLOSING, WSMsgType.ERROR):
                raise ProtocolError("bad_message", "the connection closed")
            raise ProtocolError("bad_message", "send JSON text messages")
        if len(frame.data.encode()) > self.limits.message_bytes:
            raise ProtocolError("too_large", f"messages are limited to {self.limits.message_bytes} bytes")
        if not nests_at_most(frame.data, self.limits.nesting):
            raise ProtocolError("bad_message", f"arrays and objects nest at most {self.limits.nesting} deep")
        try:
            message = json.loads(frame.data)
        except ValueError as error:
            raise ProtocolError("bad_message", "that is not JSON") from error
        if not isinstance(message, dict):
            raise ProtocolError("bad_message", "a message is a JSON object with a type")
        message_id = message.get("id")
        if not (
            message_id is None
            or (isinstance(message_id, str) and len(message_id) <= MAX_ID_LENGTH)
            or (isinstance(message_id, int) and not isinstance(message_id, bool) and abs(message_id) < 2**53)
        ):
            raise ProtocolError("bad_message", "id must be a string of at most 64 characters or an integer")
        return message


class ServerLinks:
    """The game service's :class:`~bot.host.protocols.BoardLinks` over a :class:`WebServer`: the
    Open board button, the players' private links, and programs' seat tokens."""

    def __init__(self, server: WebServer) -> None:
        self._server = server

    @property
    def activity(self) -> bool:
        """Whether the board opens inside Discord, as an Activity."""
        return self._server.activity is not None

    def spectator(self, game_id: int) -> str:
        """See :meth:`WebServer.link` (no seat)."""
        return self._server.link(game_id)

    def seat(self, game_id: int, seat: int, *, renew: bool = False) -> str:
        """See :meth:`WebServer.link` (a person's seat)."""
        return self._server.link(game_id, seat, renew=renew)

    def program(self, game_id: int, user_id: int) -> tuple[str, str]:
        """The websocket URL of the protocol under the public URL, and the token of the program seated
        as pseudo user ``user_id``."""
        server = self._server
        base = server.public_url or f"http://{server.host}:{server.port}"
        socket = "ws" + base.rstrip("/").removeprefix("http") + "/ws"
        return socket, server.signer.token(game_id, Role.BOT, program_number(user_id))


@contextlib.asynccontextmanager
async def board_server(config: Config, host: Host) -> AsyncIterator[WebServer | None]:
    """Serve the board for the games of the bot's ``host`` while inside, if the config's ``[web]`` enables it
    (links signed with its secret, or with one kept beside the database), and put its links in the
    service's messages; None when disabled."""
    web = config.web
    if not web.enabled:
        yield None
        return
    signer = LinkSigner(
        web.secret.encode() if web.secret else None,
        config.links_file,
    )
    server = WebServer(
        next(iter(host.commands.values())),
        signer,
        host=web.host,
        port=web.port,
        public_url=web.public_url,
        allowed_hosts=web.allowed_hosts,
        activity=config.activity,
        bot_token=config.token,
    )
    await server.start()
    host.use_links(ServerLinks(server))
    try:
        yield server
    finally:
        host.use_links(None)
        await server.close()


def nests_at_most(text: str, depth: int) -> bool:
    """Whether the arrays and objects of the JSON ``text`` nest at most ``depth`` deep (brackets inside
    strings do not count), checked before it is parsed: a parser would recurse once per level."""
    if text.count("[") + text.count("{") <= depth:
        return True
    level, in_string, escaped = 0, False, False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            level += 1
            if level > depth:
                return False
        elif char in "]}":
            level -= 1
    return True


_SIGN_IN_STATUS: Final = {
    "unauthorized": 401,
    "no_game": 404,
    "too_large": 413,
    "rate_limited": 429,
    "discord_unavailable": 503,
}


def _reply(message_id: Any, *, result: dict[str, Any] | None = None, error: Exception | None = None) -> str:
    if error is not None:
        return json.dumps({"type": "reply", "id": message_id, "ok": False, "error": error_body(error)})
    return json.dumps({"type": "reply", "id": message_id, "ok": True, "result": result})


async def _page(request: web.Request) -> web.StreamResponse:
    page = STATIC_DIR / "index.html"
    if not page.is_file():
        raise web.HTTPNotFound(text="the board page is not installed")
    return web.FileResponse(page, headers={"Cache-Control": "no-store"})


async def _health(request: web.Request) -> web.StreamResponse:
    return web.Response(text="ok")
