"""A fake of Discord's gateway (its websocket) on loopback, and a launcher that runs the real bot
against it and :class:`discord_fake.FakeDiscord`.

With both fakes the real ``scrabble-bot`` process can be driven from the outside, as Discord drives it:
it logs in over REST, connects to the gateway, identifies, and receives ``INTERACTION_CREATE`` events,
which it answers over REST (interaction callbacks, followups, channel messages, DMs). Used by
``tests/bot/test_gateway_fake.py`` and ``bench/load.py``.

The gateway speaks the subset of Discord's protocol discord.py needs (JSON text frames, no compression,
no resume): ``HELLO`` on connect, ``IDENTIFY`` answered by ``READY`` (the bot user, the application, the
guilds as unavailable) then one ``GUILD_CREATE`` per guild, each ``HEARTBEAT`` answered by
``HEARTBEAT_ACK``, and the events :meth:`FakeGateway.dispatch` sends, numbered in order.

Sharding as Discord does it: an ``IDENTIFY`` with ``shard: [id, count]`` opens that shard's session (its
own session id), whose ``READY`` and ``GUILD_CREATE`` hold only the guilds of that shard
(``(guild_id >> 22) % count``), and an event of a guild goes to its shard's session only (DMs: shard 0).
A second ``IDENTIFY`` of a shard replaces its session, as a reconnecting process's does.

How the bot is pointed at the fakes: discord.py builds every REST URL from ``discord.http.Route.BASE``
and connects a client to ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` (a sharded one too when
its shard count is given); it only asks ``GET /gateway/bot`` when sharded without a count (the REST fake
answers it too). :func:`main` (run this file as a
script: ``python tests/bot/discord_gateway.py API_BASE GATEWAY_URL [scrabble-bot arguments]``) sets
those two class attributes, then calls the bot's own entry point, :func:`bot.__main__.main`, with the
remaining arguments. Nothing in the bot's code knows about the fakes: no setting or environment
variable of the production program can point it elsewhere than Discord.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import signal
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

JSON = dict[str, Any]

DISPATCH, HEARTBEAT, IDENTIFY, HELLO, HEARTBEAT_ACK = 0, 1, 2, 10, 11
HEARTBEAT_INTERVAL_MS = 41_250
ACK_DELAY = 0.05
"""Seconds before a heartbeat is acknowledged."""


def guild_payload(guild_id: int, owner_id: int, name: str = "scrabble club") -> JSON:
    """A guild as ``GUILD_CREATE`` sends it to a bot without privileged intents (no member list)."""
    return {
        "id": str(guild_id),
        "name": name,
        "icon": None,
        "owner_id": str(owner_id),
        "unavailable": False,
        "member_count": 2,
        "large": False,
        "features": [],
        "preferred_locale": "en-US",
        "roles": [
            {
                "id": str(guild_id),
                "name": "@everyone",
                "permissions": "2248473465835073",
                "position": 0,
                "color": 0,
                "hoist": False,
                "managed": False,
                "mentionable": False,
                "flags": 0,
            }
        ],
        "channels": [],
        "threads": [],
        "members": [],
        "emojis": [],
        "stickers": [],
        "voice_states": [],
        "presences": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
        "premium_tier": 0,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "mfa_level": 0,
        "nsfw_level": 0,
        "system_channel_flags": 0,
        "joined_at": "2024-01-01T00:00:00.000000+00:00",
    }


@dataclass
class FakeGateway:
    """Discord's gateway, faked on ``127.0.0.1`` with a random port (see the module docstring).

    ``bot_user`` and ``application_id`` go into ``READY``; ``guilds`` are announced after it.
    :attr:`identified` is set once a client has identified and been sent its guilds; :attr:`identify`
    holds what it sent.
    """

    bot_user: JSON
    application_id: int
    guilds: Sequence[JSON] = ()
    identify: JSON | None = None
    heartbeats: int = 0
    port: int = 0
    identified: asyncio.Event = field(default_factory=asyncio.Event)
    identifies: list[JSON] = field(default_factory=list)
    """Every ``IDENTIFY`` received, in order."""
    _sockets: list[tuple[web.WebSocketResponse, itertools.count[int]]] = field(default_factory=list)
    _shards: dict[web.WebSocketResponse, tuple[int, int]] = field(default_factory=dict)
    _sessions: itertools.count[int] = field(default_factory=itertools.count)
    _runner: web.AppRunner | None = None

    @property
    def url(self) -> str:
        """The websocket URL, for ``DiscordWebSocket.DEFAULT_GATEWAY`` or ``GET /gateway/bot``."""
        return f"ws://127.0.0.1:{self.port}/"

    async def start(self) -> None:
        """Serve on a random loopback port."""
        app = web.Application()
        app.add_routes([web.get("/", self._connect)])
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]

    async def close(self) -> None:
        """Close every connection and stop serving."""
        for socket, _ in list(self._sockets):
            await socket.close()
        if self._runner is not None:
            await self._runner.cleanup()

    async def dispatch(self, event: str, data: JSON) -> None:
        """Send the event ``event`` (``INTERACTION_CREATE``...) with ``data`` to every identified client.

        Raises:
            RuntimeError: no client has identified.
        """
        if not self._sockets:
            raise RuntimeError("no client is connected to the fake gateway")
        guild_id = int(data.get("guild_id") or 0)
        targets = [(socket, sequence) for socket, sequence in self._sockets if self._serves(socket, guild_id)]
        if not targets:
            raise RuntimeError(f"no client is connected to the shard of guild {guild_id}")
        for socket, sequence in targets:
            await self._send(socket, {"op": DISPATCH, "t": event, "s": next(sequence), "d": data})

    @property
    def shards(self) -> dict[int, int]:
        """The shards with a session (id: count)."""
        return dict(self._shards.values())

    async def wait_for_shards(self, ids: Sequence[int], timeout: float = 60.0) -> None:
        """Wait until every shard of ``ids`` has a session.

        Raises:
            TimeoutError: one has none after ``timeout`` seconds.
        """
        async with asyncio.timeout(timeout):
            while not set(ids) <= self.shards.keys():
                await asyncio.sleep(0.05)

    def _serves(self, socket: web.WebSocketResponse, guild_id: int) -> bool:
        """Whether the session on ``socket`` gets the events of ``guild_id`` (every one if unsharded)."""
        if socket not in self._shards:
            return True
        shard, count = self._shards[socket]
        return (guild_id >> 22) % count == shard

    async def _send(self, socket: web.WebSocketResponse, payload: JSON) -> None:
        await socket.send_str(json.dumps(payload))

    async def _send_later(self, socket: web.WebSocketResponse, payload: JSON) -> None:
        await asyncio.sleep(ACK_DELAY)
        if not socket.closed:
            await self._send(socket, payload)

    async def _connect(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse(max_msg_size=0)
        await socket.prepare(request)
        await self._send(socket, {"op": HELLO, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}})
        sequence = itertools.count(1)
        acks: set[asyncio.Task[None]] = set()
        try:
            async for frame in socket:
                if frame.type is not WSMsgType.TEXT:
                    continue
                message = json.loads(frame.data)
                if message.get("op") == HEARTBEAT:
                    self.heartbeats += 1
                    # As late as over a network: discord.py notes when it sent a heartbeat only once
                    # the send is over, and would count an earlier ACK against the previous one.
                    ack = asyncio.create_task(self._send_later(socket, {"op": HEARTBEAT_ACK}))
                    acks.add(ack)
                    ack.add_done_callback(acks.discard)
                elif message.get("op") == IDENTIFY:
                    self.identify = message["d"]
                    self.identifies.append(message["d"])
                    shard = message["d"].get("shard")
                    if shard is not None:
                        await self._replace_session(socket, (shard[0], shard[1]))
                    await self._ready(socket, sequence)
                    self._sockets.append((socket, sequence))
                    self.identified.set()
        finally:
            self._sockets = [entry for entry in self._sockets if entry[0] is not socket]
            self._shards.pop(socket, None)
        return socket

    async def _replace_session(self, socket: web.WebSocketResponse, shard: tuple[int, int]) -> None:
        """Make ``socket`` the session of ``shard``, closing the shard's previous one."""
        for other, held in list(self._shards.items()):
            if held[0] == shard[0]:
                del self._shards[other]
                self._sockets = [entry for entry in self._sockets if entry[0] is not other]
                await other.close()
        self._shards[socket] = shard

    async def _ready(self, socket: web.WebSocketResponse, sequence: itertools.count[int]) -> None:
        guilds = [guild for guild in self.guilds if self._serves(socket, int(guild["id"]))]
        ready = {
            "v": 10,
            "user": self.bot_user,
            "guilds": [{"id": guild["id"], "unavailable": True} for guild in guilds],
            "session_id": f"fake-session-{next(self._sessions)}",
            "resume_gateway_url": self.url,
            "application": {"id": str(self.application_id), "flags": 0},
        }
        if socket in self._shards:
            ready["shard"] = list(self._shards[socket])
        await self._send(socket, {"op": DISPATCH, "t": "READY", "s": next(sequence), "d": ready})
        for guild in guilds:
            await self._send(socket, {"op": DISPATCH, "t": "GUILD_CREATE", "s": next(sequence), "d": guild})


async def stop_bot(process: asyncio.subprocess.Process, grace: float = 30.0) -> None:
    """Stop a ``scrabble-bot`` process started on the fakes as Ctrl-C does, killing it if it has not
    exited after ``grace`` seconds."""
    if process.returncode is None:
        process.send_signal(signal.SIGINT)
        try:
            await asyncio.wait_for(process.wait(), grace)
        except TimeoutError:
            process.kill()
            await process.wait()


def sample_threads(path: str, interval: float = 0.005) -> None:
    """Until the process exits, note every ``interval`` seconds where each thread is (its innermost
    frames); at exit write the most frequent places of each thread to ``path``: a sampling profile of
    wall time (a benchmark's measuring device, see ``bench/load.py --profile``)."""
    import atexit
    import collections
    import threading
    import time

    counts: collections.Counter[tuple[str, str]] = collections.Counter()

    def place(frame: Any) -> str:
        parts: list[str] = []
        while frame is not None and len(parts) < 6:
            code = frame.f_code
            parts.append(f"{code.co_filename.rsplit('/', 2)[-1]}:{frame.f_lineno}:{code.co_name}")
            frame = frame.f_back
        return " < ".join(parts)

    def sample() -> None:
        me = threading.get_ident()
        while True:
            time.sleep(interval)
            names = {thread.ident: thread.name for thread in threading.enumerate()}
            for ident, frame in sys._current_frames().items():
                if ident != me:
                    counts[(names.get(ident, str(ident)).split(" ")[0], place(frame))] += 1

    def write() -> None:
        totals: collections.Counter[str] = collections.Counter()
        for (thread, _), count in counts.items():
            totals[thread] += count
        with open(path, "w") as out:
            for thread, total in totals.most_common():
                out.write(f"== {thread}: {total} samples\n")
                mine = [(where, count) for (name, where), count in counts.items() if name == thread]
                for where, count in sorted(mine, key=lambda item: -item[1])[:25]:
                    out.write(f"{count * 100 / total:5.1f}% {where}\n")

    atexit.register(write)
    threading.Thread(target=sample, daemon=True, name="sampler").start()


def reuse_images() -> None:
    """Make the bot's renderer draw each kind of image (board, rack, chart) once and send that one
    ever after: a benchmark's what-if (``bench/load.py --reuse-images``), the cost of drawing taken
    out and the size of the images kept."""
    from bot.games.scrabble.images.renderer import PngRenderer

    for name in ("board", "rack", "chart"):
        draw = getattr(PngRenderer, name)
        drawn: list[bytes] = []

        def once(self: PngRenderer, *args: Any, _draw: Any = draw, _drawn: list[bytes] = drawn) -> bytes:
            if not _drawn:
                _drawn.append(_draw(self, *args))
            return _drawn[0]

        setattr(PngRenderer, name, once)


def main(argv: Sequence[str]) -> int:
    """``API_BASE GATEWAY_URL [ARGS...]``: run ``scrabble-bot ARGS`` against the fakes at those URLs
    (with ``$SCRABBLE_SAMPLE_TO`` set, under :func:`sample_threads` writing there; with
    ``$SCRABBLE_REUSE_IMAGES`` set, after :func:`reuse_images`)."""
    import discord.gateway
    import discord.http
    import yarl

    from bot.__main__ import main as scrabble_bot

    api_base, gateway_url, *rest = argv
    if os.environ.get("SCRABBLE_SAMPLE_TO"):
        sample_threads(os.environ["SCRABBLE_SAMPLE_TO"])
    if os.environ.get("SCRABBLE_REUSE_IMAGES"):
        reuse_images()
    discord.http.Route.BASE = api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    return scrabble_bot(rest)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
