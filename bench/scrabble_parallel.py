"""Root parallelism of Scrabble's ``expert`` through the bot's AI worker pool: simulation iterations a
turn with one worker process and with two, one turn at a time (so every worker is idle when a turn
arrives and the turn is searched in as many shares).

    python bench/scrabble_parallel.py [--seconds 1.0] [--turns 7]

Both pools (:class:`bot.host.ai.executor.AiExecutor`, real worker processes over ENABLE) are started
first, then their turns alternate on the same positions, so that both see the same load. Turn ``n`` is
the ``expert`` job for the midgame view of move ``4 + n`` of a game of ``hard`` players (seeded
``--seed``), with ``--seconds`` of thinking; its iterations are those of the shares the executor merged.
The machine's own ratio is measured in the same run, alternating with the pools' turns: the same share
(:func:`scrabble_core.expert.expert_share`) in one plain process, then in two at once, without the
executor (on a shared, loaded machine it is below 2, and the pool's ratio is to be read against it).
One line a pool, then the ratios:

    workers=<int> shares_per_turn=<median> iterations_per_turn=<median> playouts_per_turn=<median>
        turn_seconds=<median>
        converged_turns=<turns where a share stopped early, one candidate left>
    ratio=<two workers' median iterations / one's> timed_ratio=<the median of the ratio of the playouts
        of a turn over the turns where no share of either pool converged: they measure the speed alone>
        timed_turns=<how many> machine_ratio=<two plain processes' median iterations / one's>
    load=<1-minute load average before> <after>
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.games import register_builtin
from bot.games.scrabble.kind import KIND
from bot.games.scrabble.worker import view_job
from bot.host.ai import jobs
from bot.host.ai.executor import AiExecutor, WorkerConfig
from scrabble_core.ai import Level, MoveSource, SeatView, choose_move, default_leave_model, seat_view
from scrabble_core.expert import SIMULATION, expert_share, phase
from scrabble_core.game import Game
from scrabble_core.lexicon import load_enable
from scrabble_core.movegen import load_move_generator
from scrabble_core.variant import get_variant

POOLS = (1, 2)
FIRST_MOVE = 4

_GENERATOR: list[MoveSource] = []
"""A plain process's move generator, loaded once (:func:`_load`)."""


def views(generator: MoveSource, seed: int, count: int) -> list[SeatView]:
    """The midgame views of moves ``FIRST_MOVE`` on of a game of ``hard`` players seeded ``seed``
    (fewer if the game reaches the pre-endgame first)."""
    game = Game(get_variant("standard"), ["a", "b"], rng=random.Random(seed), lexicon=load_enable())
    found: list[SeatView] = []
    while not game.is_over and len(found) < count:
        view = seat_view(game, game.current)
        if phase(view) != SIMULATION:
            break
        if len(game.history) >= FIRST_MOVE:
            found.append(view)
        game.push(game.current, choose_move(view, generator, Level.HARD, random.Random(0)))
    return found


def _load() -> None:
    _GENERATOR[:] = [load_move_generator(load_enable())]


def plain_share(view: dict[str, Any], seconds: float, seed: int) -> int:
    """The iterations of one share of the expert's turn on ``view`` for ``seconds``, in this process."""
    share = expert_share(
        SeatView.from_dict(view),
        _GENERATOR[0],
        default_leave_model(),
        seed,
        0,
        1,
        time.monotonic() + seconds,
    )
    assert share.stats is not None
    return share.stats.iterations


class Recorder:
    """Wraps :func:`bot.host.ai.jobs.merge` to keep the share texts of the last merge."""

    def __init__(self) -> None:
        self.shares: list[str] = []
        self._merge = jobs.merge

    def __call__(self, kind: str, data: Any, shares: Sequence[str]) -> str:
        self.shares = list(shares)
        return self._merge(kind, data, shares)

    def iterations(self) -> int:
        """The simulation iterations of the last merge's shares, added up."""
        return sum(stats["iterations"] for stats in self._stats())

    def playouts(self) -> int:
        """The playouts (a candidate played out on a deal) of the last merge's shares, added up: the
        work, an iteration costing less as candidates are pruned."""
        return sum(sum(stats["counts"]) for stats in self._stats())

    def converged(self) -> bool:
        """Whether a share of the last merge stopped early, one candidate left (its turn's iterations
        then measure the position more than the speed)."""
        return any(sum(stats["active"]) == 1 for stats in self._stats())

    def _stats(self) -> list[dict[str, Any]]:
        return [json.loads(text)["expert"]["stats"] for text in self.shares]


async def run(seconds: float, turns: int, seed: int) -> None:
    recorder = Recorder()
    jobs.merge = recorder
    lexicon = load_enable()
    assert lexicon.trie_path is not None
    config = WorkerConfig(cache_dir=str(lexicon.trie_path.parent))
    positions = views(load_move_generator(lexicon), seed, turns + 1)
    load_before = os.getloadavg()[0]
    pools = [AiExecutor(config, workers=count) for count in POOLS]
    for pool in pools:
        await pool.start()
    plain = multiprocessing.get_context("spawn").Pool(2, initializer=_load)
    iterations: dict[int, list[int]] = {count: [] for count in POOLS}
    playouts: dict[int, list[int]] = {count: [] for count in POOLS}
    machine: dict[int, list[int]] = {count: [] for count in POOLS}
    shares: dict[int, list[int]] = {count: [] for count in POOLS}
    times: dict[int, list[float]] = {count: [] for count in POOLS}
    converged: dict[int, list[bool]] = {count: [] for count in POOLS}
    try:
        for turn, view in enumerate(positions):  # the first turn of each pool warms it up
            for count in POOLS:
                tasks = [(view.to_dict(), seconds, turn * len(POOLS) + index + 1) for index in range(count)]
                searched = await asyncio.to_thread(plain.starmap, plain_share, tasks)
                if turn:
                    machine[count].append(sum(searched))
            for count, pool in zip(POOLS, pools, strict=True):
                started = time.perf_counter()
                await pool.ask(
                    KIND, view_job(view, Level.EXPERT, turn), seconds + 10.0, think=seconds, quick=False
                )
                if turn:
                    times[count].append(time.perf_counter() - started)
                    iterations[count].append(recorder.iterations())
                    playouts[count].append(recorder.playouts())
                    shares[count].append(len(recorder.shares))
                    converged[count].append(recorder.converged())
    finally:
        plain.terminate()
        for pool in pools:
            await pool.close()
    load_after = os.getloadavg()[0]
    for count in POOLS:
        print(
            f"workers={count} shares_per_turn={statistics.median(shares[count]):g} "
            f"iterations_per_turn={statistics.median(iterations[count]):.0f} "
            f"playouts_per_turn={statistics.median(playouts[count]):.0f} "
            f"turn_seconds={statistics.median(times[count]):.3f} converged_turns={sum(converged[count])}"
        )
    ratio = statistics.median(iterations[2]) / statistics.median(iterations[1])
    machine_ratio = statistics.median(machine[2]) / statistics.median(machine[1])
    timed = [
        two / one
        for one, two, stopped_one, stopped_two in zip(
            playouts[1], playouts[2], converged[1], converged[2], strict=True
        )
        if not stopped_one and not stopped_two
    ]
    timed_ratio = f"{statistics.median(timed):.2f}" if timed else "none"
    print(
        f"ratio={ratio:.2f} timed_ratio={timed_ratio} timed_turns={len(timed)} "
        f"machine_ratio={machine_ratio:.2f} load={load_before:.2f} {load_after:.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=1.0, help="thinking time a turn")
    parser.add_argument("--turns", type=int, default=7, help="timed turns a pool")
    parser.add_argument("--seed", type=int, default=1, help="the seed of the game the positions come from")
    args = parser.parse_args()
    register_builtin()
    asyncio.run(run(args.seconds, args.turns, args.seed))


if __name__ == "__main__":
    main()
