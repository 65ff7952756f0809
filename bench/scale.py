"""The store's write path on SQLite and on PostgreSQL, under N games moving at once (issue 14, first part).

    python bench/scale.py [--games 200 1000] [--moves 20] [--pg-synchronous-commit off]

For each N, on each backend in turn (a fresh SQLite file; a fresh database of a throwaway PostgreSQL
server started here, durable: fsync on, as in production), N active games are created, then every game
makes ``--moves`` moves at once, with no thinking time (saturation): each move is what the service writes
for a move, :meth:`Store.save` of the game's new state (the states of a real greedy game, in turn, so
their sizes are real) with its log entry and its announcement, then :meth:`Store.mark_sent` once the
announcement is out. One process, one store (one connection) per backend: the sharded processes and the
AI workers of issue 14 are not built yet.

Prints one line per backend and N:

    backend=<sqlite|postgresql> processes=1 games=<N> moves=<int> moves_per_s=<f> save_p50_ms=<f>
    save_p99_ms=<f> kb_per_move=<f> load=<f>

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
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.store import GameOptions, GameRow, GameStatus, LogEntry, SeatRow, Store
from scrabble_core.ai import Level, choose_move, seat_view
from scrabble_core.game import ChallengeMode, Game
from scrabble_core.lexicon import load_enable
from scrabble_core.movegen import load_move_generator
from scrabble_core.variant import get_variant
from tests.pg_cluster import PgCluster, pg_bin_dir, running_cluster

GUILD = 1
OPTIONS = GameOptions("standard", ChallengeMode.VOID, 0, 0, Level.HARD)


def _states() -> list[dict[str, Any]]:
    """The state after each move of a greedy two-player game played to its end."""
    lexicon = load_enable()
    generator = load_move_generator(lexicon)
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


@contextlib.contextmanager
def _cluster() -> Iterator[PgCluster | None]:
    bin_dir = pg_bin_dir()
    if bin_dir is None or not (bin_dir / "initdb").exists():
        yield None
        return
    with running_cluster(bin_dir, durable=True) as cluster:
        yield cluster


async def main(args: argparse.Namespace) -> None:
    states = _states()
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


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[200, 1000])
    parser.add_argument("--moves", type=int, default=20)
    parser.add_argument("--pg-synchronous-commit", choices=["on", "off"], default="on")
    asyncio.run(main(parser.parse_args()))
