"""A hostile client against the real web server (aiohttp's test server, real websockets, raw sockets
where a client library would not misbehave): the security headers on every response, errors included;
no versions in ``Server``; the hosts the server answers to; the page origins allowed on the websocket;
sockets that never say hello; deeply nested JSON; the end of ``scrabble-bot web``'s game."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp.test_utils import TestServer
from hypothesis import given, settings
from hypothesis import strategies as st

import bot.web.server as server_module
from bot.web.hub import GAME_OVER_GRACE
from bot.web.links import Role
from bot.web.perimeter import CSP, SERVER_NAME, HostPolicy
from bot.web.server import Limits, nests_at_most
from tests.web.web_harness import ALICE, BOB, CHANNEL, MakeWeb, WsClient

ROOT = Path(__file__).parents[2]

HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Server": SERVER_NAME,
}


def _secured(headers: Any) -> None:
    for name, value in HEADERS.items():
        assert headers.get(name) == value, (name, headers.get(name))


async def _raw_request(server: TestServer, request: str) -> tuple[str, dict[str, str]]:
    """Send ``request`` as it is on a plain socket; the status line and the headers of the answer."""
    reader, writer = await asyncio.open_connection(server.host, server.port)
    writer.write(request.encode())
    await writer.drain()
    head = (await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)).decode()
    writer.close()
    status, *lines = head.strip().split("\r\n")
    return status, {name.lower(): value.strip() for name, _, value in (line.partition(":") for line in lines)}


def _handshake(server: TestServer, host: str, origin: str | None = None) -> str:
    lines = [
        "GET /ws HTTP/1.1",
        f"Host: {host}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version: 13",
    ]
    if origin is not None:
        lines.append(f"Origin: {origin}")
    return "\r\n".join(lines) + "\r\n\r\n"


# Headers --------------------------------------------------------------------------------------------


async def test_every_response_has_the_security_headers_errors_included(
    make_web: MakeWeb, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async def crash(request: aiohttp.web.Request) -> aiohttp.web.StreamResponse:
        raise RuntimeError("a bug")

    monkeypatch.setattr(server_module, "_health", crash)
    web = await make_web((ALICE, BOB))
    url = web.test_server.make_url
    for method, path, status in [
        ("GET", "/game", 200),
        ("GET", "/static/app.js", 200),
        ("GET", "/nope", 404),
        ("GET", "/static/../../etc/passwd", 404),
        ("POST", "/game", 405),
        ("GET", "/ws", 400),  # no upgrade
    ]:
        async with web.session.request(method, url(path)) as response:
            assert response.status == status, (method, path)
            _secured(response.headers)
    with caplog.at_level(logging.ERROR, "bot.web"):
        async with web.session.get(url("/healthz")) as response:
            assert response.status == 500
            assert await response.text() == "the server failed to answer that request"
            _secured(response.headers)
    assert "GET /healthz failed" in caplog.text


async def test_the_server_header_names_no_versions(make_web: MakeWeb) -> None:
    web = await make_web((ALICE, BOB))
    server = web.test_server
    status, headers = await _raw_request(
        server, f"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n"
    )
    assert status == "HTTP/1.1 200 OK"
    assert headers["server"] == "scrabble-host"
    status, headers = await _raw_request(server, _handshake(server, f"127.0.0.1:{server.port}"))
    assert status == "HTTP/1.1 101 Switching Protocols"
    assert headers["server"] == "scrabble-host"
    assert not re.search(r"python|aiohttp", json.dumps(headers), re.IGNORECASE)


# Hosts and origins ----------------------------------------------------------------------------------


async def test_a_request_for_another_host_is_refused(make_web: MakeWeb) -> None:
    web = await make_web((ALICE, BOB))
    server = web.test_server
    for host in ("evil.example", f"evil.example:{server.port}", "127.0.0.1.evil.example", "x:notaport"):
        status, headers = await _raw_request(server, f"GET /game HTTP/1.1\r\nHost: {host}\r\n\r\n")
        assert status == "HTTP/1.1 421 Misdirected Request", host
        assert headers["content-security-policy"] == CSP
        status, _ = await _raw_request(server, _handshake(server, host))
        assert status == "HTTP/1.1 421 Misdirected Request", host
    for host in (f"127.0.0.1:{server.port}", f"localhost:{server.port}", "LOCALHOST", f"[::1]:{server.port}"):
        status, _ = await _raw_request(server, f"GET /game HTTP/1.1\r\nHost: {host}\r\n\r\n")
        assert status == "HTTP/1.1 200 OK", host


async def test_a_page_of_another_origin_cannot_open_the_websocket(make_web: MakeWeb) -> None:
    web = await make_web((ALICE, BOB))
    server = web.test_server
    assert server.port is not None
    host = f"127.0.0.1:{server.port}"
    for foreign in (
        "http://evil.example",
        "null",
        f"http://localhost:{server.port + 1}",
        "file://",
        "http://[::1",
    ):
        status, headers = await _raw_request(server, _handshake(server, host, foreign))
        assert status == "HTTP/1.1 403 Forbidden", foreign
        assert headers["server"] == "scrabble-host"
    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
        await web.session.ws_connect(server.make_url("/ws"), origin="http://evil.example")
    assert refused.value.status == 403
    token = web.signer.token(web.game_id(), Role.PLAYER, 0)
    origins: list[str | None] = [f"http://{host}", None]
    for origin in origins:
        ws = await web.session.ws_connect(server.make_url("/ws"), origin=origin)
        client = WsClient(ws)
        web.clients.append(client)
        await client.send({"type": "hello", "protocol": 1, "token": token})
        assert (await client.recv())["type"] == "welcome", origin  # a program sends no origin


def test_the_allowed_hosts() -> None:
    local = HostPolicy("127.0.0.1")
    assert [local.allows_host(h) for h in ("127.0.0.1", "localhost", "::1", "10.0.0.2", "evil.example")] == [
        True, True, True, False, False,
    ]  # fmt: skip
    behind = HostPolicy("127.0.0.1", "https://scrabble.example.org", ["scrabble.lan"])
    assert behind.allows_host("scrabble.example.org") and behind.allows_host("scrabble.lan")
    assert behind.allows_origin("https://scrabble.example.org", "127.0.0.1:8765")  # a proxy's Host
    assert behind.allows_origin("http://scrabble.lan:8080", "scrabble.lan:8080")
    assert not behind.allows_origin("https://evil.example", "scrabble.example.org")
    assert not behind.allows_origin("http://localhost:3000", "localhost:8765")
    assert behind.allows_origin("http://localhost:8765", "localhost:8765")
    assert behind.allows_origin("http://localhost", "localhost")
    lan = HostPolicy("0.0.0.0")
    assert (
        lan.allows_host("192.168.1.20") and lan.allows_host("fe80::1") and not lan.allows_host("evil.example")
    )
    assert not local.allows_host("192.168.1.20")
    assert HostPolicy("127.0.0.1", extra=["*"]).allows_origin("http://anything.example", "x")


# Sockets that never say hello -----------------------------------------------------------------------


async def test_sockets_that_never_say_hello_cannot_lock_a_player_out(make_web: MakeWeb) -> None:
    web = await make_web((ALICE, BOB))
    silent = [WsClient(await web.raw()) for _ in range(55)]
    web.clients.extend(silent)
    started = time.monotonic()
    _, welcome = await web.connect(web.signer.token(web.game_id(), Role.PLAYER, 0))
    assert welcome["type"] == "welcome", welcome
    assert time.monotonic() - started < 2.0
    evicted = silent[0]
    reply = await evicted.recv()
    assert reply["error"] == {
        "code": "too_many_connections",
        "message": "too many connections from your address",
    }
    assert await evicted.closed() == 4000
    assert not silent[-1].ws.closed  # the newest still have their chance to say hello


async def test_connections_that_said_hello_are_limited_per_address(make_web: MakeWeb) -> None:
    web = await make_web((ALICE, BOB), limits=Limits(rate=1000.0, burst=1000, per_address=2))
    silent = [WsClient(await web.raw()) for _ in range(5)]
    web.clients.extend(silent)
    await web.seat(0)
    await web.seat(1)
    client, refused = await web.connect(web.signer.token(web.game_id(), Role.SPECTATOR))
    assert refused["error"]["code"] == "too_many_connections"
    assert await client.closed() == 4000


# Nested JSON ----------------------------------------------------------------------------------------

DEEP = "[" * 4000 + "]" * 4000


async def test_deeply_nested_json_is_a_bad_message_after_hello(
    make_web: MakeWeb, caplog: pytest.LogCaptureFixture
) -> None:
    web = await make_web((ALICE, BOB))
    alice = await web.seat(0)
    with caplog.at_level(logging.WARNING):
        for deep in (
            DEEP,
            '{"a":' * 1000 + "1" + "}" * 1000,
            '{"type": "ping", "x": ' + "[" * 17 + "]" * 17 + "}",
        ):
            await alice.ws.send_str(deep)
            reply = await alice.recv()
            assert reply["error"] == {
                "code": "bad_message",
                "message": "arrays and objects nest at most 16 deep",
            }
        fine = {"type": "ping", "id": 7, "x": "[" * 100, "y": [[[["{"]]]]}
        assert (await alice.call("ping", x=fine["x"], y=fine["y"]))["ok"]
    assert "RecursionError" not in caplog.text
    assert "Traceback" not in caplog.text


async def test_deeply_nested_json_as_the_hello_is_answered_and_closed(make_web: MakeWeb) -> None:
    web = await make_web((ALICE, BOB))
    client = WsClient(await web.raw())
    web.clients.append(client)
    await client.ws.send_str(DEEP)
    reply = await client.recv()
    assert reply == {
        "type": "reply",
        "id": None,
        "ok": False,
        "error": {"code": "bad_message", "message": "arrays and objects nest at most 16 deep"},
    }
    assert await client.closed() == 4000


def _json_values() -> st.SearchStrategy[Any]:
    scalars = st.none() | st.booleans() | st.integers() | st.text(alphabet='[]{}"\\ab', max_size=6)
    return st.recursive(
        scalars,
        lambda inner: (
            st.lists(inner, max_size=3)
            | st.dictionaries(st.text(alphabet='[{"\\', max_size=3), inner, max_size=3)
        ),
        max_leaves=30,
    )


def _depth(value: Any) -> int:
    if isinstance(value, list):
        return 1 + max((_depth(item) for item in value), default=0)
    if isinstance(value, dict):
        return 1 + max((_depth(item) for item in value.values()), default=0)
    return 0


@settings(max_examples=300, deadline=None)
@given(_json_values(), st.integers(min_value=0, max_value=8))
def test_the_nesting_is_measured_as_the_parser_would_recurse(value: Any, limit: int) -> None:
    text = json.dumps(value)
    assert nests_at_most(text, limit) == (_depth(value) <= limit)


# The exchange's reply -------------------------------------------------------------------------------


async def test_the_exchange_reply_promises_no_dm(make_web: MakeWeb) -> None:
    web = await make_web((ALICE, BOB))
    alice = await web.seat(0)
    game = web.harness.svc.game(CHANNEL)
    reply = await alice.call("exchange", turn=len(game.history), tiles=game.players[0].rack[:2])
    assert reply["ok"], reply
    assert reply["result"] == {"message": "You exchanged AB."}
    assert "DM" not in json.dumps(alice.log)


# The end of scrabble-bot web ------------------------------------------------------------------------


async def test_scrabble_bot_web_closes_its_pages_with_1000_then_exits(tmp_path: Path) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "web", "--port", "0", "--db", str(tmp_path / "web.sqlite3"),
        "--players", "Ann", "--ai", "1", "--level", "easy", "--seed", "1",
        stdout=asyncio.subprocess.PIPE, cwd=ROOT,
    )  # fmt: skip
    assert process.stdout is not None
    try:
        lines = [(await asyncio.wait_for(process.stdout.readline(), 120)).decode() for _ in range(2)]
        link = re.fullmatch(r"  Ann: (http://127\.0\.0\.1:\d+)/game#t=(\S+)\n", lines[1])
        assert link is not None, lines
        base, token = link.groups()
        hello = {"type": "hello", "protocol": 1, "token": token}
        async with aiohttp.ClientSession() as session:
            ann = WsClient(await session.ws_connect(f"{base.replace('http', 'ws')}/ws"))
            await ann.send(hello)
            welcome = await ann.recv()
            assert welcome["type"] == "welcome"
            reply = await ann.call("resign", turn=welcome["state"]["turn"])
            assert reply["ok"], reply
            await ann.until("game_over")
            late = WsClient(await session.ws_connect(f"{base.replace('http', 'ws')}/ws"))
            started = time.monotonic()
            await late.send(hello)
            ended = await late.recv()
            assert ended["type"] == "welcome" and ended["final"]["winners"] == [1], ended
            assert time.monotonic() - started < 3.0
            assert await late.closed() == 1000
            assert await ann.closed() == 1000
        assert await asyncio.wait_for(process.wait(), GAME_OVER_GRACE + 10) == 0
        rest = (await process.stdout.read()).decode()
        # The winner first, then the standings, the one who resigned marked so.
        assert re.search(r"\nGame over: AI wins\. 1\. AI \d+ · 2\. Ann 0 \(resigned\)\n$", rest), rest
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
