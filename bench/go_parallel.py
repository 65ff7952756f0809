"""Root parallelism of the built-in Go AI through the bot's AI worker pool: playouts a turn with one
worker process and with two, one turn at a time (so every worker is idle when a turn arrives and the
turn is searched in as many shares).

    python bench/go_parallel.py [--size 9] [--seconds 1.0] [--turns 7]

Both pools (:class:`bot.host.ai.executor.AiExecutor`, real worker processes) are started first, then
their turns alternate, so that both see the same load. A turn is Go's job at the ``hard`` level (its
playouts bounded by the time only) with ``--seconds`` of thinking, on a position a few moves into a
game, each turn another seed; its playouts are those of the shares the executor merged. The machine's
own ratio is measured in the same run, alternating with the pools' turns: the same search
(:func:`go_core.ai.search_share`) in one plain process, then in two at once, without the executor (on a
shared, loaded machine it is well below 2, and the pool's ratio is to be read against it). One line a
pool, then the ratios:

    workers=<int> shares_per_turn=<int> playouts_per_turn=<median> turn_seconds=<median>
    ratio=<two workers' median playouts / one's> machine_ratio=<the same, plain processes>
    load=<1-minute load average before> <after>
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.games import register_builtin
from bot.games.go.ai_turns import move_job
from bot.games.go.engines import Level
from bot.games.go.kind import KIND
from bot.host.ai import jobs
from bot.host.ai.executor import AiExecutor, WorkerConfig
from go_core import Game
from go_core.ai import Budget, search_share

OPENING = ("E5", "C4", "F3", "G6", "C6", "D3")
POOLS = (1, 2)


def position(size: int) -> Game:
    """The position searched: :data:`OPENING` on a 9×9 board, or its points moved to the middle of a
    bigger one."""
    game = Game(size)
    shift = (size - 9) // 2
    for text in OPENING:
        column = "ABCDEFGHJKLMNOPQRST"["ABCDEFGHJ".index(text[0]) + shift]
        game.play(f"{column}{int(text[1:]) + shift}")
    return game


def plain_search(size: int, seconds: float, seed: int) -> int:
    """The playouts of one search of :func:`position` for ``seconds``, in this process."""
    return search_share(position(size), seed, Budget(seconds=seconds, playouts=10**9)).playouts


class Recorder:
    """Wraps :func:`bot.host.ai.jobs.merge` to keep the share texts of the last merge."""

    def __init__(self) -> None:
        self.shares: list[str] = []
        self._merge = jobs.merge

    def __call__(self, kind: str, data: Any, shares: Sequence[str]) -> str:
        self.shares = list(shares)
        return self._merge(kind, data, shares)

    def playouts(self) -> int:
        """The playouts of the last merge's shares, added up."""
        return sum(json.loads(text)["search"]["playouts"] for text in self.shares)


async def run(size: int, seconds: float, turns: int) -> None:
    recorder = Recorder()
    jobs.merge = recorder
    config = WorkerConfig(games=("bot.games.go",))
    game = position(size)
    load_before = os.getloadavg()[0]
    pools = [AiExecutor(config, workers=count) for count in POOLS]
    for pool in pools:
        await pool.start()
    plain = multiprocessing.get_context("spawn").Pool(2)
    playouts: dict[int, list[int]] = {count: [] for count in POOLS}
    machine: dict[int, list[int]] = {count: [] for count in POOLS}
    shares: dict[int, list[int]] = {count: [] for count in POOLS}
    times: dict[int, list[float]] = {count: [] for count in POOLS}
    try:
        for turn in range(turns + 1):  # the first turn of each pool warms it up
            for count in POOLS:
                seeds = [turn * len(POOLS) + index + 1 for index in range(count)]
                searched = await asyncio.to_thread(
                    plain.starmap, plain_search, [(size, seconds, s) for s in seeds]
                )
                if turn:
                    machine[count].append(sum(searched))
            for count, pool in zip(POOLS, pools, strict=True):
                data = move_job(game, Level.HARD, "builtin", seed=turn)
                started = time.perf_counter()
                await pool.ask(KIND, data, seconds + 10.0, think=seconds, quick=False)
                if turn:
                    times[count].append(time.perf_counter() - started)
                    playouts[count].append(recorder.playouts())
                    shares[count].append(len(recorder.shares))
    finally:
        plain.terminate()
        for pool in pools:
            await pool.close()
    load_after = os.getloadavg()[0]
    for count in POOLS:
        print(
            f"workers={count} shares_per_turn={statistics.median(shares[count]):g} "
            f"playouts_per_turn={statistics.median(playouts[count]):.0f} "
            f"turn_seconds={statistics.median(times[count]):.3f}"
        )
    ratio = statistics.median(playouts[2]) / statistics.median(playouts[1])
    machine_ratio = statistics.median(machine[2]) / statistics.median(machine[1])
    print(f"ratio={ratio:.2f} machine_ratio={machine_ratio:.2f} load={load_before:.2f} {load_after:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--seconds", type=float, default=1.0, help="thinking time a turn")
    parser.add_argument("--turns", type=int, default=7, help="timed turns a pool")
    args = parser.parse_args()
    register_builtin()
    asyncio.run(run(args.size, args.seconds, args.turns))


if __name__ == "__main__":
    main()
