"""The store's write path on SQLite and on PostgreSQL, under N games moving at once; AI turns on the
local pool and on the PostgreSQL queue; and (``--gateway``) the whole bot, one process on SQLite against
two sharded processes on PostgreSQL with AI workers, driven through the fake Discord (issue 14).

    python bench/scale.py [--games 200 1000] [--moves 20] [--pg-synchronous-commit off]
                          [--ai-games 40] [--ai-turns 3] [--workers 2] [--ai-level hard] [--ai-think 1]
                          [--gateway]

For each N, on each backend in turn (a fresh SQLite file; a fresh database of a throwaway PostgreSQL
server started here, durable: fsync on, as in production), N active games are created, then every game
makes ``--moves`` moves at once, with no thinking time (saturation): each move is what the service writes
for a move, :meth:`Store.save` of the game's new state (the states of a real greedy game, in turn, so
their sizes are real) with its log entry and its announcement, then :meth:`Store.mark_sent` once the
announcement is out. One process, one store (one connection) per backend: the sharded processes of
issue 14 are measured elsewhere.

Prints one line per backend and N:

    backend=<sqlite|postgresql> processes=1 games=<N> moves=<int> moves_per_s=<f> save_p50_ms=<f>
    save_p99_ms=<f> kb_per_move=<f> load=<f>

Then the AI turns of ``--ai-games`` games at once, ``--ai-turns`` each (positions of the greedy game,
``--ai-level``; ``expert`` thinks ``--ai-think`` seconds), on the local pool of ``--workers`` processes and on the PostgreSQL queue answered by
as many ``scrabble-bot worker`` processes (:mod:`bot.host.ai.queue`), one line each:

    ai=<local|postgresql> processes=1 workers=<W> games=<N> turns=<int> ai_turn_p50_s=<f>
    ai_turn_p99_s=<f> fallbacks=<int> load=<f>

``ai_turn_*``: from asking for the move to having it, waiting for a free worker included.

With ``--gateway``, then, for each N, the real bot driven as Discord drives it (``bench/load.py``'s
players, through the fake REST API and the fake gateway of ``tests/bot``, with two guilds, one on each of
two shards): (a) one ``scrabble-bot`` process on SQLite with its local pool of ``--workers`` AI processes,
(b) two ``scrabble-bot`` processes on the PostgreSQL server (one shard each, ``[ai] queue =
"postgresql"``) and ``--workers`` ``scrabble-bot worker`` processes. N games are created and started
(a quarter against the ``hard`` AI, the others between two humans), then each makes ``--moves`` moves,
all games at once; humans move at once, with no thinking time (saturation): the best play by the
engine's generator, or a pass. One line each:

    backend=<sqlite|postgresql> processes=<1|2> workers=<W> games=<N> moves=<int> moves_per_s=<f>
    ack_p99_ms=<f> ai_turn_p99_s=<f> unacked_3s=<int> unanswered=<int> refused=<int> load=<f>

``moves``: the moves the players saw applied (the AI's, and the humans' the bot applied);
``ack_p99_ms``: an interaction's acknowledgement (Discord's 3 s limit), setup included; ``ai_turn_*``:
from seeing the AI on turn to seeing its move committed (its announcement wakes the player);
``refused``: human moves answered but not applied (0 expected). Everything runs on this machine: the
processes share its cores with this one.

``save_*``: from calling ``save`` to its return, queueing behind the other games' writes included;
``kb_per_move``: the database's growth (file, or ``pg_database_size``) per move. One connection commits
one transaction at a time, so PostgreSQL's rate is bounded by its commit's flush to disk;
``--pg-synchronous-commit off`` (the database's setting) acknowledges a commit before that flush, as SQLite
in WAL mode with ``synchronous = NORMAL`` does (the store's): a crash of the machine may lose the last
commits, never corrupt the database. Without PostgreSQL
(``initdb``/``pg_ctl``, see tests/pg_cluster.py) only SQLite is measured, and a line says so.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "bot"))

from discord_fake import TEST_TOKEN, FakeDiscord, Payloads, integer_option, string_option
from discord_gateway import FakeGateway, guild_payload, stop_bot
from test_shards import guild_on

from bench.load import GATEWAY_SCRIPT, GENEROUS, Driver, Seen, percentile
from bot.games import register_builtin
from bot.games.scrabble.ai_turns import ScrabblePool, ScrabbleQueue
from bot.games.scrabble.options import ScrabbleOptions
from bot.host.ai.executor import AiExecutor, WorkerConfig
from bot.host.ai.queue import AiJobQueue
from bot.host.store import GameRow, GameStatus, LogEntry, SeatRow, Store
from scrabble_core.ai import Level, SeatView, choose_move, seat_view
from scrabble_core.game import ChallengeMode, Game
from scrabble_core.lexicon import Lexicon, load_enable
from scrabble_core.move import Move
from scrabble_core.movegen import MoveGenerator, load_move_generator
from scrabble_core.notation import player_notation
from scrabble_core.variant import get_variant
from tests.pg_cluster import PgCluster, pg_bin_dir, running_cluster

GUILD = 1
OPTIONS = ScrabbleOptions("standard", ChallengeMode.VOID, 0, 0, Level.HARD)


def _states(lexicon: Lexicon, generator: MoveGenerator) -> list[dict[str, Any]]:
    """The state after each move of a greedy two-player game played to its end."""
    game = Game(get_variant("standard"), ["p0", "p1"], rng=random.Random(1), lexicon=lexicon)
    states = []
    while not game.is_over:
        game.push(
            game.current,
            choose_move(seat_view(game, game.current), generator, Level.GREEDY, random.Random(0)),
        )
        states.append(game.to_dict())
    return states


def _draft(number: int) -> GameRow:
    seats = (SeatRow(0, 1000 + number, f"user{number}"), SeatRow(1, None, "AI", Level.HARD))
    return GameRow(
        0,
        "scrabble",
        GUILD,
        100 + number,
        1000 + number,
        GameStatus.ACTIVE,
        OPTIONS.to_dict(),
        number,
        None,
        seats,
    )


async def _moves(
    store: Store, row: GameRow, states: list[dict[str, Any]], moves: int, times: list[float]
) -> None:
    """``moves`` moves of one game, as the service writes them; each save's time (ms) into ``times``."""
    for move in range(moves):
        state = states[(row.id + move) % len(states)]
        saved = replace(row, state=state, updated_at=float(move))
        log = [LogEntry("play", move % 2, {"move": move, "play": "8H WORD", "score": 20}, float(move))]
        start = time.perf_counter()
        entry = await store.save(saved, log, (), {"move": move, "events": log[0].data})
        times.append((time.perf_counter() - start) * 1000)
        assert entry is not None
        await store.mark_sent(entry, float(move))


async def _size(store: Store, database: Path | str) -> int:
    """The database's size in bytes (an SQLite file with its WAL)."""
    if isinstance(database, str):
        row = await store.backend.fetchone("SELECT pg_database_size(current_database())")
        assert row is not None
        return int(row[0])
    wal = database.with_name(database.name + "-wal")
    return database.stat().st_size + (wal.stat().st_size if wal.exists() else 0)


async def run(database: Path | str, games: int, moves: int, states: list[dict[str, Any]]) -> str:
    """One measurement; its line."""
    store = await Store.open(database)
    try:
        rows = [await store.create_game(_draft(number), []) for number in range(games)]
        empty = await _size(store, database)
        times: list[float] = []
        start = time.perf_counter()
        await asyncio.gather(*(_moves(store, row, states, moves, times) for row in rows))
        elapsed = time.perf_counter() - start
        grown = await _size(store, database) - empty
    finally:
        await store.close()
    quantiles = statistics.quantiles(times, n=100)
    backend = "sqlite" if isinstance(database, Path) else "postgresql"
    return (
        f"backend={backend} processes=1 games={games} moves={len(times)} "
        f"moves_per_s={len(times) / elapsed:.0f} save_p50_ms={statistics.median(times):.2f} "
        f"save_p99_ms={quantiles[98]:.2f} kb_per_move={grown / len(times) / 1024:.2f} load={os.getloadavg()[0]:.1f}"
    )


async def _ai_turns(
    choose: Callable[[SeatView, int], Awaitable[Move]], views: list[SeatView], games: int, turns: int
) -> list[float]:
    """``turns`` AI turns of each of ``games`` games at once (a game's turns one after the other); each
    turn's time in seconds."""
    times: list[float] = []

    async def game(number: int) -> None:
        for turn in range(turns):
            start = time.perf_counter()
            await choose(views[(number * turns + turn) % len(views)], number * 1000 + turn)
            times.append(time.perf_counter() - start)

    await asyncio.gather(*(game(number) for number in range(games)))
    return times


def _ai_line(queue: str, workers: int, games: int, times: list[float], fallbacks: int) -> str:
    quantiles = statistics.quantiles(times, n=100)
    return (
        f"ai={queue} processes=1 workers={workers} games={games} turns={len(times)} "
        f"ai_turn_p50_s={statistics.median(times):.3f} ai_turn_p99_s={quantiles[98]:.3f} "
        f"fallbacks={fallbacks} load={os.getloadavg()[0]:.1f}"
    )


async def run_ai_local(args: argparse.Namespace, views: list[SeatView]) -> str:
    """AI turns on the local pool of ``args.workers`` processes; its line."""
    level = Level(args.ai_level)
    async with AiExecutor(WorkerConfig(), workers=args.workers) as executor:
        pool = ScrabblePool(executor)
        times = await _ai_turns(
            lambda view, seed: pool.choose(view, level, seed, args.ai_timeout, think=args.ai_think),
            views,
            args.ai_games,
            args.ai_turns,
        )
        fallbacks = executor.replaced
    return _ai_line("local", args.workers, args.ai_games, times, fallbacks)


def _start_worker(url: str, name: str) -> subprocess.Popen[bytes]:
    """A ``bot.host.ai.worker`` process on ``url``, once it is ready."""
    code = (
        "import logging, sys; from bot.host.ai.worker import run_worker; from bot.host.ai.jobs import WorkerConfig; "
        "from bot.games import register_builtin; register_builtin(); "
        "logging.basicConfig(level=logging.INFO, stream=sys.stdout, force=True); "
        f"run_worker({url!r}, WorkerConfig(), name={name!r})"
    )
    root = Path(__file__).resolve().parent.parent
    env = {**os.environ, "PYTHONPATH": str(root)}
    process = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, env=env, cwd=root)
    assert process.stdout is not None
    for line in process.stdout:
        if b"ready" in line:
            return process
    raise RuntimeError(f"the AI worker {name} exited with code {process.wait()} while loading")


async def run_ai_queue(
    args: argparse.Namespace, views: list[SeatView], url: str, generator: MoveGenerator
) -> str:
    """AI turns on the PostgreSQL queue answered by ``args.workers`` worker processes; its line."""
    level = Level(args.ai_level)
    workers = [await asyncio.to_thread(_start_worker, url, f"bench{n}") for n in range(args.workers)]
    try:
        async with AiJobQueue(url) as jobs:
            queue = ScrabbleQueue(jobs, generator)
            times = await _ai_turns(
                lambda view, seed: queue.choose(
                    view, level, seed, args.ai_timeout, move_number=seed, think=args.ai_think
                ),
                views,
                args.ai_games,
                args.ai_turns,
            )
            fallbacks = queue.fallbacks
    finally:
        for worker in workers:
            worker.kill()
            worker.wait()
    return _ai_line("postgresql", args.workers, args.ai_games, times, fallbacks)


# Through the gateway: the real bot processes, driven as Discord drives them ---------------------------

GATEWAY_SHARDS = 2
FIRST_CHANNEL = 820_000_000_000_000_000
FIRST_HUMAN = 720_000_000_000_000_000


class ScaleDriver(Driver):
    """``bench/load.py``'s players (interactions through the fake gateway, their acknowledgements
    matched to them), reading the games from SQLite or from PostgreSQL, playing N games of a fixed
    number of moves at once."""

    def __init__(
        self, fake: FakeDiscord, gateway: FakeGateway, database: Path | str, generator: MoveGenerator
    ):
        super().__init__(fake, gateway, database if isinstance(database, Path) else Path(), generator)
        self.url = database if isinstance(database, str) else None
        self._pg: psycopg.Connection[Any] | None = None
        self.ai_turns: list[float] = []
        self.moves = 0
        """The moves seen applied: the AI's, and the humans' that the bot applied."""

    def state(self, channel_id: int) -> Seen | None:
        """See :meth:`Driver.state` (on PostgreSQL too)."""
        if self.url is None:
            return super().state(channel_id)
        if self._pg is None:
            self._pg = psycopg.connect(self.url, autocommit=True)
        row = self._pg.execute(
            "SELECT id, state FROM games WHERE channel_id = %s AND status = 'active' ORDER BY id DESC LIMIT 1",
            (channel_id,),
        ).fetchone()
        if row is None or row[1] is None:
            return None
        seats = self._pg.execute("SELECT user_id FROM seats WHERE game_id = %s ORDER BY seat", (row[0],))
        return Seen(row[1], json.loads(row[1]), [user for (user,) in seats])

    async def setup(self, index: int, guild: int, against_ai: bool) -> None:
        """Create and start the game of channel ``index`` in ``guild``: two humans, or one against the
        hard AI."""
        channel_id, humans = FIRST_CHANNEL + index, [FIRST_HUMAN + 2 * index, FIRST_HUMAN + 2 * index + 1]
        payloads = Payloads(self.fake.application_id, guild, channel_id, humans[0])
        self.posted[channel_id] = asyncio.Event()
        setup = [integer_option("ai_opponents", 1), string_option("ai_level", "hard")] if against_ai else []
        await self.interact(payloads.slash("new", setup))
        if not against_ai:
            await self.interact(payloads.slash("join", user_id=humans[1]))
        await self.interact(payloads.slash("start"))

    async def play(self, index: int, guild: int, moves: int) -> None:
        """Make ``moves`` moves in channel ``index``'s game (fewer if it ends): a human's at once (the
        best play, or a pass), an AI's awaited (its time into :attr:`ai_turns`)."""
        channel_id = FIRST_CHANNEL + index
        payloads = Payloads(self.fake.application_id, guild, channel_id)
        event = self.posted[channel_id]
        for _ in range(moves):
            game = self.state(channel_id)
            if game is None or game.over:
                return
            user = game.users[game.current]
            if user is None:
                started = time.perf_counter()
                while (after := self.state(channel_id)) is not None and after.moves == game.moves:
                    event.clear()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(event.wait(), 1.0)
                self.ai_turns.append(time.perf_counter() - started)
                self.moves += 1
            else:
                best = self.generator.best(game.board(), game.rack)
                move = [] if best is None else [string_option("move", player_notation(best.play))]
                await self.interact(payloads.slash("play" if move else "pass", move, user_id=user))
                after = self.state(channel_id)
                if after is not None and after.moves == game.moves:
                    self.measures.refused += 1  # answered without being applied
                else:
                    self.moves += 1


async def _bot_process(
    fake: FakeDiscord, gateway: FakeGateway, config: Path, log: Path
) -> asyncio.subprocess.Process:
    """``scrabble-bot --config config`` through ``tests/bot/discord_gateway.py``, logging to ``log``."""
    with log.open("wb") as out:
        return await asyncio.create_subprocess_exec(
            sys.executable, str(GATEWAY_SCRIPT), fake.api_base, gateway.url, "--config", str(config),
            env=os.environ | {"DISCORD_TOKEN": TEST_TOKEN}, stderr=out,
        )  # fmt: skip


async def run_gateway(
    args: argparse.Namespace, games: int, generator: MoveGenerator, folder: Path, url: str | None
) -> str:
    """``games`` games driven through the fake gateway against one bot process on SQLite with its
    local pool of ``args.workers`` (``url`` None), or two sharded processes on PostgreSQL ``url``
    with ``args.workers`` ``scrabble-bot worker`` processes; its line."""
    fake = FakeDiscord(valid_token=TEST_TOKEN, rate_limits=GENEROUS)
    await fake.start()
    owner = FIRST_HUMAN
    guilds = [guild_on(shard, GATEWAY_SHARDS) for shard in range(GATEWAY_SHARDS)]
    gateway = FakeGateway(fake.bot_user, fake.application_id, [guild_payload(g, owner) for g in guilds])
    await gateway.start()
    fake.gateway_url = gateway.url
    base = 'log_level = "WARNING"\n'
    ai = f'[ai]\nlevel = "hard"\nturn_timeout = {args.ai_timeout}\nworkers = {args.workers}\n'
    processes: list[asyncio.subprocess.Process] = []
    workers: list[subprocess.Popen[bytes]] = []
    try:
        if url is None:
            database: Path | str = folder / f"gateway-{games}.sqlite3"
            config = folder / f"gateway-{games}.toml"
            config.write_text(f"database = {json.dumps(str(database))}\n{base}{ai}")
            processes.append(await _bot_process(fake, gateway, config, folder / f"bot-{games}.log"))
            await asyncio.wait_for(gateway.identified.wait(), 120)
        else:
            database = url
            workers = [await asyncio.to_thread(_start_worker, url, f"gw{n}") for n in range(args.workers)]
            for shard in range(GATEWAY_SHARDS):
                config = folder / f"gateway-{games}-{shard}.toml"
                config.write_text(
                    f"database = {json.dumps(url)}\n{base}shard_count = {GATEWAY_SHARDS}\nshard_ids = [{shard}]\n"
                    f'{ai}queue = "postgresql"\n'
                )
                processes.append(
                    await _bot_process(fake, gateway, config, folder / f"bot-{games}-{shard}.log")
                )
            await gateway.wait_for_shards(range(GATEWAY_SHARDS), 120)
        await asyncio.sleep(1)
        driver = ScaleDriver(fake, gateway, database, generator)
        driver.measuring = True
        places = [(index, guilds[index % GATEWAY_SHARDS], index % 4 == 0) for index in range(games)]
        await asyncio.gather(*(driver.setup(index, guild, ai_seat) for index, guild, ai_seat in places))
        start = time.perf_counter()
        await asyncio.gather(*(driver.play(index, guild, args.moves) for index, guild, _ in places))
        elapsed = time.perf_counter() - start
    finally:
        for process in processes:
            await stop_bot(process)
        for worker in workers:
            worker.kill()
            worker.wait()
        await gateway.close()
        await fake.close()
    measures = driver.measures
    return (
        f"backend={'sqlite' if url is None else 'postgresql'} processes={len(processes)} "
        f"workers={args.workers} games={games} moves={driver.moves} moves_per_s={driver.moves / elapsed:.1f} "
        f"ack_p99_ms={percentile(measures.ack, 0.99):.0f} "
        f"ai_turn_p99_s={percentile(driver.ai_turns, 0.99) / 1000:.2f} unacked_3s={measures.unacked} "
        f"unanswered={measures.unanswered} refused={measures.refused} load={os.getloadavg()[0]:.1f}"
    )


@contextlib.contextmanager
def _cluster() -> Iterator[PgCluster | None]:
    bin_dir = pg_bin_dir()
    if bin_dir is None or not (bin_dir / "initdb").exists():
        yield None
        return
    with running_cluster(bin_dir, durable=True) as cluster:
        yield cluster


async def main(args: argparse.Namespace) -> None:
    register_builtin()  # the built-in games, as the command line registers them
    lexicon = load_enable()
    generator = load_move_generator(lexicon)
    states = _states(lexicon, generator)
    views = [seat_view(game, game.current) for game in map(Game.from_dict, states[:-1])]
    with tempfile.TemporaryDirectory() as directory, _cluster() as cluster:
        if cluster is None:
            print("postgresql: not measured (no initdb/pg_ctl: see tests/pg_cluster.py)")
        for games in args.games:
            print(
                await run(Path(directory) / f"scale-{games}.sqlite3", games, args.moves, states), flush=True
            )
            if cluster is not None:
                url = cluster.new_database()
                with psycopg.connect(cluster.url(), autocommit=True) as admin:
                    name = url.rsplit("/", 1)[1]
                    admin.execute(
                        f"ALTER DATABASE {name} SET synchronous_commit = {args.pg_synchronous_commit}"
                    )
                line = await run(url, games, args.moves, states)
                print(f"{line} synchronous_commit={args.pg_synchronous_commit}", flush=True)
        if args.ai_games:
            print(await run_ai_local(args, views), flush=True)
            if cluster is not None:
                print(await run_ai_queue(args, views, cluster.new_database(), generator), flush=True)
        for games in args.games if args.gateway else []:
            print(await run_gateway(args, games, generator, Path(directory), None), flush=True)
            if cluster is not None:
                url = cluster.new_database()
                print(await run_gateway(args, games, generator, Path(directory), url), flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[200, 1000])
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--pg-synchronous-commit", choices=["on", "off"], default="on")
    parser.add_argument("--ai-games", type=int, default=40, help="games with an AI turn at once (0: none)")
    parser.add_argument("--ai-turns", type=int, default=3, help="AI turns per game")
    parser.add_argument("--workers", type=int, default=2, help="AI worker processes (pool and queue)")
    parser.add_argument("--ai-level", choices=[level.value for level in Level], default="hard")
    parser.add_argument("--ai-timeout", type=float, default=30.0, help="an AI turn's timeout (s)")
    parser.add_argument("--ai-think", type=float, default=1.0, help="the expert's thinking time (s)")
    parser.add_argument(
        "--gateway",
        action="store_true",
        help="instead: N games through the fake gateway, 1 process on SQLite vs 2 on PostgreSQL + workers",
    )
    asyncio.run(main(parser.parse_args()))
