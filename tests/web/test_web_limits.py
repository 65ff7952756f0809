"""The limits of the web server: message size, message rate, connections per game and per address,
the hello timeout, slow readers; and the HTTP side (CSP, health, the page)."""

from __future__ import annotations

import asyncio
import json

from bot.web.hub import SEND_QUEUE, Connection
from bot.web.links import Grant, Role
from bot.web.perimeter import CSP
from bot.web.server import Limits
from tests.web.web_harness import ALICE, BOB, MakeWeb, WsClient


async def test_a_message_too_large_is_answered_then_the_connection_closed(make_web: MakeWeb) -> None:
    web = await make_web((ALICE, BOB))
    alice = await web.seat(0)
    await alice.send({"type": "play", "id": 1, "move": "8H " + "A" * 9000})
    reply = await alice.recv()
    assert reply["error"] == {"code": "too_large", "message": "messages are limited to 8192 bytes"}
    assert reply["id"] is None
    assert await alice.closed() == 1009


async def test_too_many_messages_are_dropped_then_the_connection_closed(make_web: MakeWeb) -> None:
    web = await make_web((ALICE, BOB), limits=Limits(rate=1.0, burst=3, strikes=4))
    alice = await web.seat(0)
    for number in range(7):
        await alice.send({"type": "ping", "id": number})
    replies = [await alice.recv() for _ in range(7)]
    assert [r["ok"] for r in replies] == [True, True, True, False, False, False, False]
    assert [r["id"] for r in replies] == list(range(7))
    assert replies[-1]["error"] == {"code": "rate_limited", "message": "too many messages: slow down"}
    assert await alice.closed() == 4008


async def test_a_connection_without_hello_is_closed(make_web: MakeWeb) -> None:
    web = await make_web((ALICE, BOB), limits=Limits(hello_seconds=0.2))
    client = WsClient(await web.raw())
    web.clients.append(client)
    reply = await client.recv()
    assert reply["error"] == {"code": "bad_message", "message": "send hello first, within 0.2 seconds"}
    assert await client.closed() == 4000


async def test_connections_per_game_are_limited(make_web: MakeWeb) -> None:
    web = await make_web((ALICE, BOB), limits=Limits(per_game=2))
    await web.spectator()
    await web.seat(0)
    client, refused = await web.connect(web.signer.token(web.game_id(), Role.SPECTATOR))
    assert refused["error"] == {"code": "too_many_connections", "message": "this game has too many viewers"}
    assert await client.closed() == 4000


async def test_connections_per_address_are_limited(make_web: MakeWeb) -> None:
    web = await make_web((ALICE, BOB), limits=Limits(per_address=2))
    first = await web.spectator()
    await web.seat(0)
    client, refused = await web.connect(web.signer.token(web.game_id(), Role.SPECTATOR))
    assert refused["error"] == {
        "code": "too_many_connections",
        "message": "too many connections from your address",
    }
    assert await client.closed() == 4000
    await first.ws.close()
    await asyncio.sleep(0.1)
    client, welcome = await web.connect(web.signer.token(web.game_id(), Role.SPECTATOR))
    assert welcome["type"] == "welcome", welcome


async def test_a_client_that_reads_too_slowly_is_aborted_without_blocking() -> None:
    never = asyncio.Event()
    aborted: list[int] = []

    async def send(data: bytes) -> None:
        await never.wait()  # the client's socket is full

    async def close(code: int, reason: str) -> None:
        raise AssertionError("not closed politely")

    connection = Connection(Grant(1, Role.SPECTATOR, None), send, close, aborted.append)
    sender = asyncio.create_task(connection.run_sender())
    for number in range(SEND_QUEUE + 1):
        connection.send(json.dumps({"n": number}))
        await asyncio.sleep(0)
    assert aborted == []
    connection.send("one too many")
    assert aborted == [4009]
    connection.send("ignored")
    assert aborted == [4009]
    sender.cancel()


async def test_http_responses_carry_a_strict_csp(make_web: MakeWeb) -> None:
    web = await make_web(())
    async with web.session.get(web.test_server.make_url("/healthz")) as response:
        assert response.status == 200 and await response.text() == "ok"
        assert response.headers["Content-Security-Policy"] == CSP
    async with web.session.get(web.test_server.make_url("/game")) as response:
        assert response.status == 200
        assert response.headers["Content-Security-Policy"] == CSP
        assert "<script" in await response.text()
    assert "'unsafe-inline'" not in CSP and "script-src 'self';" in CSP


async def test_closing_the_server_closes_every_websocket(make_web: MakeWeb) -> None:
    web = await make_web((ALICE, BOB))
    alice, watcher = await web.seat(0), await web.spectator()
    closing = asyncio.create_task(web.server.close())
    assert await alice.closed() == 1001
    assert await watcher.closed() == 1001
    await asyncio.wait_for(closing, 5)
