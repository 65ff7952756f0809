"""Latency of the live board: N spectator websockets on one game while moves are made.

``python bench/web.py --spectators 100 500 --moves 40`` runs, for each N (and first for 1 spectator, the
baseline), the bot's game service and web server in this process and N spectator connections in a child
process. Moves are replayed through the service (as from Discord) every ``--interval`` seconds: a game
played beforehand by the engine's best-move generator with the same seed, so the replay costs no move
search. Each spectator measures, for every ``move`` event, the time from the server making the event
(its ``state.now``) to receiving it. The server's event loop is watched by a task that sleeps 5 ms and
records how late it wakes up (``loop_max_late_ms``: it counts the time the process waits for one of the
machine's shared cores too), and every callback the loop runs is timed (``loop_max_block_ms``: the CPU
time of the longest one, the longest the loop was blocked). Prints one line per N: ``spectators= events=
ws_p50_ms= ws_p99_ms= loop_max_block_ms= loop_max_late_ms= server_cpu_ms_per_move= rss_mb=`` (the server
process's CPU time per move, and its resident memory at the end).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from unittest import mock

import aiohttp

from bot.config import Config
from bot.games import register_builtin
from bot.games.scrabble.commands import NewGame, ScrabbleCommands, User
from bot.host.messages import Message
from bot.host.setup import build_host
from bot.host.store import Store
from bot.web.links import LinkSigner, Role
from bot.web.server import Limits, WebServer
from scrabble_core.game import Game
from scrabble_core.lexicon import Lexicon, load_enable
from scrabble_core.move import Move, Pass
from scrabble_core.movegen import MoveGenerator, load_move_generator
from scrabble_core.notation import player_notation

ANN, BOB = User(1, "Ann"), User(2, "Bob")
SEED = 11
WATCH_STEP = 0.005
NOW = re.compile(r'"now": ([0-9.]+)')


class Silent:
    """A notifier that delivers nothing (the board is what is measured)."""

    async def post(self, channel_id: int, message: Message) -> None:
        """Drop a public message."""

    async def direct(self, user_id: int, message: Message) -> bool:
        """Drop a DM."""
        return True

    async def typing(self, channel_id: int) -> None:
        """Show nothing."""


class NoAi:
    """No seat is an AI in this benchmark."""

    async def choose(self, game: Game, seat: int, level: str, seed: int) -> Move:
        """Never called."""
        return Pass()


class NoImages:
    """No images: they are measured by ``bench/render.py``."""

    def board(self, *args: object) -> bytes:
        return b""

    def rack(self, *args: object) -> bytes:
        return b""

    def chart(self, *args: object) -> bytes:
        return b""


def planned_moves(game: Game, generator: MoveGenerator, count: int) -> list[tuple[str, str]]:
    """The first ``count`` moves of ``game`` (a copy of the service's game, so the same draws), each the
    best-scoring play or a pass, with the name of the player who makes it."""
    moves: list[tuple[str, str]] = []
    while len(moves) < count and not game.is_over:
        player = game.players[game.current]
        best = generator.best(game.board, player.rack)
        move = "-" if best is None else player_notation(best.play)
        game.pass_turn(game.current) if best is None else game.play(game.current, move)
        moves.append((player.name, move))
    return moves


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def watch_loop(stop: asyncio.Event, worst: list[float]) -> None:
    """Until ``stop``, record in ``worst[0]`` the longest lateness of a 5 ms sleep (wall clock)."""
    while not stop.is_set():
        started = time.perf_counter()
        await asyncio.sleep(WATCH_STEP)
        worst[0] = max(worst[0], time.perf_counter() - started - WATCH_STEP)


@contextlib.contextmanager
def longest_callback(worst: list[float]) -> Iterator[None]:
    """While inside, record in ``worst[1]`` the CPU time of the longest single callback (task step) the
    event loop runs: how long the loop is blocked, whatever else the machine's shared cores do. It wraps
    asyncio's private ``Handle._run``: a measuring device for this script only."""
    original = asyncio.events.Handle._run

    def run(handle: asyncio.Handle) -> None:
        started = time.thread_time()
        original(handle)
        worst[1] = max(worst[1], time.thread_time() - started)

    with mock.patch.object(asyncio.events.Handle, "_run", run):
        yield


async def run(
    lexicon: Lexicon, generator: MoveGenerator, spectators: int, count: int, interval: float, directory: Path
) -> str:
    """One run with ``spectators``; its line."""
    store = await Store.open(directory / f"web-{spectators}.sqlite3")
    options = {"scrabble": {"lexicon": lexicon, "ai": NoAi(), "renderer": NoImages()}}
    host = await build_host(Config(), store, Silent(), options=options)
    service: ScrabbleCommands = host.commands["scrabble"]
    await host.start()
    server = WebServer(service, LinkSigner(), port=0, limits=Limits(per_address=100_000, per_game=100_000))
    await server.start()
    await service.new_game(0, 1, ANN, NewGame(seed=SEED, hints=0))
    await service.join(1, BOB)
    await service.start_game(1, ANN.id)
    moves = planned_moves(service.game(1), generator, count)
    users = {ANN.name: ANN, BOB.name: BOB}
    token = server.signer.token(1, Role.SPECTATOR)  # the first game of a fresh database
    child = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--client", str(spectators), "--url", f"ws://127.0.0.1:{server.port}/ws",
        "--token", token, "--expect", str(len(moves)), stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert child.stdout is not None
    assert (await child.stdout.readline()).strip() == b"ready"
    stop, worst = asyncio.Event(), [0.0, 0.0]
    watcher = asyncio.create_task(watch_loop(stop, worst))
    cpu = time.process_time()
    with longest_callback(worst):
        for name, move in moves:
            user = users[name]
            if move == "-":
                await service.pass_turn(1, user.id)
            else:
                await service.play(1, user.id, move)
            await asyncio.sleep(interval)
        latencies = json.loads(await child.stdout.read())
    cpu_ms = (time.process_time() - cpu) * 1000 / len(moves)
    await child.wait()
    stop.set()
    await watcher
    memory = rss_mb()
    await server.close()
    await host.close()
    await store.close()
    p99 = statistics.quantiles(latencies, n=100)[98] if len(latencies) > 1 else latencies[0]
    return (
        f"spectators={spectators} events={len(latencies)} ws_p50_ms={statistics.median(latencies):.1f} "
        f"ws_p99_ms={p99:.1f} loop_max_block_ms={worst[1] * 1000:.1f} loop_max_late_ms={worst[0] * 1000:.1f} "
        f"server_cpu_ms_per_move={cpu_ms:.1f} rss_mb={memory:.0f}"
    )


async def clients(count: int, url: str, token: str, expect: int) -> None:
    """The child: ``count`` spectators; print ``ready`` once all are welcomed, then every latency (ms)."""
    latencies: list[float] = []
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        sockets = [await session.ws_connect(url, max_msg_size=0) for _ in range(count)]
        for ws in sockets:
            await ws.send_str(json.dumps({"type": "hello", "protocol": 1, "token": token}))
            assert json.loads((await ws.receive()).data)["type"] == "welcome"
        print("ready", flush=True)

        async def listen(ws: aiohttp.ClientWebSocketResponse) -> None:
            for _ in range(expect):
                frame = await ws.receive()
                arrived = time.time()
                made = NOW.search(frame.data)  # cheaper than parsing it all: one client stands for many
                assert made is not None, frame
                latencies.append((arrived - float(made.group(1))) * 1000)

        await asyncio.gather(*(listen(ws) for ws in sockets))
        for ws in sockets:
            await ws.close()
    print(json.dumps(latencies), flush=True)


async def main(args: argparse.Namespace) -> None:
    """Every run, baseline first."""
    register_builtin()  # the built-in games, as the command line registers them
    lexicon = load_enable()
    generator = load_move_generator(lexicon)
    with tempfile.TemporaryDirectory() as directory:
        for count in [1, *args.spectators]:
            print(
                await run(lexicon, generator, count, args.moves, args.interval, Path(directory)), flush=True
            )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spectators", type=int, nargs="+", default=[100, 500])
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--interval", type=float, default=0.25, help="seconds between moves")
    parser.add_argument("--client", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--url", help=argparse.SUPPRESS)
    parser.add_argument("--token", help=argparse.SUPPRESS)
    parser.add_argument("--expect", type=int, help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    if arguments.client:
        asyncio.run(clients(arguments.client, arguments.url, arguments.token, arguments.expect))
    else:
        asyncio.run(main(arguments))
