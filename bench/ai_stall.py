"""Event-loop stall benchmark: how long a busy asyncio loop stops while AI turns are computed.

    python bench/ai_stall.py [--runs 5] [--turns 20] [--level hard]

A ticker task sleeps 1 ms in a loop and records how late it wakes up; a few "busy" tasks beside it do
~0.1 ms of work every 2 ms (other games' events). While the ticker runs, ``--turns`` AI turns (seat
views taken along a seeded greedy game, so boards from empty to full) are computed:

- ``executor``: through :class:`bot.host.ai.executor.AiExecutor` (one worker process, started beforehand);
- ``inline``: by calling :func:`scrabble_core.ai.choose_move` on the loop itself (the baseline).

The stall of a run is the longest lateness of the ticker. Prints one line with the medians over
``--runs`` runs (and the worst run) in milliseconds:

    level=<level> turns=<int> runs=<int> executor_stall_ms_median=<f> executor_stall_ms_max=<f>
    inline_stall_ms_median=<f> inline_stall_ms_max=<f>
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.games import register_builtin
from bot.games.scrabble.ai_turns import ScrabblePool
from bot.host.ai.executor import AiExecutor, WorkerConfig
from scrabble_core.ai import Level, MoveSource, SeatView, choose_move, seat_view
from scrabble_core.game import Game
from scrabble_core.lexicon import Lexicon, load_enable
from scrabble_core.movegen import load_move_generator
from scrabble_core.variant import get_variant

TICK = 0.001


def _views(lexicon: Lexicon, generator: MoveSource, count: int) -> list[SeatView]:
    """Seat views along seeded greedy games, one per turn, ``count`` of them."""
    views: list[SeatView] = []
    seed = 0
    while len(views) < count:
        game = Game(get_variant("standard"), ["a", "b"], rng=random.Random(seed), lexicon=lexicon)
        while not game.is_over and len(views) < count:
            view = seat_view(game, game.current)
            views.append(view)
            game.push(game.current, choose_move(view, generator, Level.GREEDY, random.Random(0)))
        seed += 1
    return views


async def _measure(turns: Callable[[], Awaitable[None]]) -> float:
    """Run ``turns`` beside the ticker and the busy tasks; the ticker's longest lateness in ms."""
    worst = 0.0
    stop = False

    async def ticker() -> None:
        nonlocal worst
        while not stop:
            before = time.perf_counter()
            await asyncio.sleep(TICK)
            worst = max(worst, time.perf_counter() - before - TICK)

    async def busy() -> None:
        while not stop:
            end = time.perf_counter() + 0.0001
            while time.perf_counter() < end:
                pass
            await asyncio.sleep(0.002)

    tasks = [asyncio.create_task(ticker()), *(asyncio.create_task(busy()) for _ in range(3))]
    await asyncio.sleep(0.05)
    await turns()
    stop = True
    await asyncio.gather(*tasks)
    return worst * 1000


async def _run(args: argparse.Namespace) -> None:
    lexicon = load_enable()
    generator = load_move_generator(lexicon)
    views = _views(lexicon, generator, args.turns)
    level = Level(args.level)
    assert lexicon.trie_path is not None
    config = WorkerConfig(cache_dir=str(lexicon.trie_path.parent))
    executor_stalls: list[float] = []
    inline_stalls: list[float] = []
    async with AiExecutor(config) as executor:
        pool = ScrabblePool(executor, generator)

        async def through_executor() -> None:
            for seed, view in enumerate(views):
                await pool.choose(view, level, seed, timeout=5.0)

        async def inline() -> None:
            for seed, view in enumerate(views):
                choose_move(view, generator, level, random.Random(seed))
                await asyncio.sleep(0)

        for _ in range(args.runs):
            executor_stalls.append(await _measure(through_executor))
            inline_stalls.append(await _measure(inline))
    print(
        f"level={level.value} turns={len(views)} runs={args.runs} "
        f"executor_stall_ms_median={statistics.median(executor_stalls):.2f} "
        f"executor_stall_ms_max={max(executor_stalls):.2f} "
        f"inline_stall_ms_median={statistics.median(inline_stalls):.2f} "
        f"inline_stall_ms_max={max(inline_stalls):.2f}"
    )


def main() -> None:
    """Parse the command line and run the benchmark."""
    register_builtin()  # the built-in games, as the command line registers them
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--level", choices=[level.value for level in Level], default="hard")
    asyncio.run(_run(parser.parse_args()))


if __name__ == "__main__":
    main()
