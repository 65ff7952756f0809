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
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.pool_turns import POOLS, Recorder, Turn, alternate
from bot.games import register_builtin
from bot.games.go.ai_turns import move_job
from bot.games.go.engines import Level
from bot.games.go.kind import KIND
from bot.host.ai.executor import WorkerConfig
from go_core import Game
from go_core.ai import Budget, search_share

OPENING = ("E5", "C4", "F3", "G6", "C6", "D3")


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


def playouts(recorder: Recorder) -> dict[str, float]:
    """The playouts of the last merge's shares, added up."""
    return {"playouts": sum(json.loads(text)["search"]["playouts"] for text in recorder.shares)}


async def run(size: int, seconds: float, turns: int) -> None:
    game = position(size)
    played = [
        Turn(
            KIND,
            move_job(game, Level.HARD, "builtin", seed=turn),
            {
                count: [(size, seconds, turn * len(POOLS) + index + 1) for index in range(count)]
                for count in POOLS
            },
        )
        for turn in range(turns + 1)
    ]
    measured = await alternate(WorkerConfig(games=("bot.games.go",)), played, seconds, plain_search, playouts)
    per_turn = {count: [numbers["playouts"] for numbers in measured.numbers[count]] for count in POOLS}
    for count in POOLS:
        print(
            f"workers={count} shares_per_turn={statistics.median(measured.shares[count]):g} "
            f"playouts_per_turn={statistics.median(per_turn[count]):.0f} "
            f"turn_seconds={statistics.median(measured.seconds[count]):.3f}"
        )
    ratio = statistics.median(per_turn[2]) / statistics.median(per_turn[1])
    machine_ratio = statistics.median(measured.machine[2]) / statistics.median(measured.machine[1])
    before, after = measured.load
    print(f"ratio={ratio:.2f} machine_ratio={machine_ratio:.2f} load={before:.2f} {after:.2f}")


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
