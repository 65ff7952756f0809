"""The store's write path on SQLite and on PostgreSQL, under N games moving at once (issue 14, first part).

    python bench/scale.py [--games 200 1000] [--moves 20] [--pg-synchronous-commit off]
                          [--ai-games 40] [--ai-turns 3] [--workers 2] [--ai-level hard] [--ai-think 1]

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
as many ``scrabble-bot worker`` processes (:mod:`bot.ai_queue`), one line each:

    ai=<local|postgresql> processes=1 workers=<W> games=<N> turns=<int> ai_turn_p50_s=<f>
    ai_turn_p99_s=<f> fallbacks=<int> load=<f>

``ai_turn_*``: from asking for the move to having it, waiting for a free worker included.

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

from bot.ai_executor import AiExecutor, WorkerConfig
from bot.ai_queue import AiJobQueue
from bot.store import GameOptions, GameRow, GameStatus, LogEntry, SeatRow, Store
from scrabble_core.ai import Level, SeatView, choose_move, seat_view
from scrabble_core.game import ChallengeMode, Game
from scrabble_core.lexicon import Lexicon, load_enable
from scrabble_core.move import Move
from scrabble_core.movegen import MoveGenerator, load_move_generator
from scrabble_core.variant import get_variant
from tests.pg_cluster import PgCluster, pg_bin_dir, running_cluster

GUILD = 1
OPTIONS = GameOptions("standard", ChallengeMode.VOID, 0, 0, Level.HARD)


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
    return GameRow(0, GUILD, 100 + number, 1000 + number, GameStatus.ACTIVE, OPTIONS, number, None, seats)


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
        times = await _ai_turns(
            lambda view, seed: executor.choose(view, level, seed, args.ai_timeout, think=args.ai_think),
            views,
            args.ai_games,
            args.ai_turns,
        )
        fallbacks = executor.replaced
    return _ai_line("local", args.workers, args.ai_games, times, fallbacks)


def _start_worker(url: str, name: str) -> subprocess.Popen[bytes]:
    """A ``bot.ai_worker`` process on ``url``, once it is ready."""
    code = (
        "import logging, sys; from bot.ai_worker import run_worker; from bot.ai_executor import WorkerConfig; "
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
        async with AiJobQueue(url, generator) as queue:
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


@contextlib.contextmanager
def _cluster() -> Iterator[PgCluster | None]:
    bin_dir = pg_bin_dir()
    if bin_dir is None or not (bin_dir / "initdb").exists():
        yield None
        return
    with running_cluster(bin_dir, durable=True) as cluster:
        yield cluster


async def main(args: argparse.Namespace) -> None:
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
    asyncio.run(main(parser.parse_args()))
