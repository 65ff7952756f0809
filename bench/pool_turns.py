"""What the root-parallelism benchmarks share (``go_parallel.py``, ``scrabble_parallel.py``): turns of one
game through a pool of one AI worker and a pool of two, alternating with the same search in one plain
process and in two, so that all four see the same load.

A game's benchmark gives :func:`alternate` its turns (one :class:`Turn` each: the job, and the plain
processes' tasks) and reads each spread turn's share texts (:class:`Recorder`) into the numbers it reports.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.host.ai import jobs
from bot.host.ai.executor import AiExecutor, WorkerConfig

POOLS = (1, 2)
"""The workers of the two pools (and the plain processes of the machine's measure)."""


class Recorder:
    """Wraps :func:`bot.host.ai.jobs.merge` (installed by :func:`alternate`) to keep the share texts of
    the last merge."""

    def __init__(self) -> None:
        self.shares: list[str] = []
        self._merge = jobs.merge

    def __call__(self, kind: str, data: Any, shares: Sequence[str]) -> str:
        self.shares = list(shares)
        return self._merge(kind, data, shares)


@dataclass(frozen=True)
class Turn:
    """One turn: the job each pool is asked (``kind``, ``data``), and the arguments of the plain
    function for each of the plain processes, by their number (``tasks[count]``)."""

    kind: str
    data: dict[str, Any]
    tasks: dict[int, list[tuple[Any, ...]]]


@dataclass
class Measured:
    """What :func:`alternate` measured, by the number of workers, one entry a timed turn: what the
    benchmark read from the shares, the pool's turn time, its shares, and the plain processes' results
    added up; the one-minute load average before and after."""

    numbers: dict[int, list[dict[str, float]]] = field(default_factory=lambda: {n: [] for n in POOLS})
    seconds: dict[int, list[float]] = field(default_factory=lambda: {n: [] for n in POOLS})
    shares: dict[int, list[int]] = field(default_factory=lambda: {n: [] for n in POOLS})
    machine: dict[int, list[float]] = field(default_factory=lambda: {n: [] for n in POOLS})
    load: tuple[float, float] = (0.0, 0.0)


async def alternate(
    config: WorkerConfig,
    turns: Sequence[Turn],
    seconds: float,
    plain: Callable[..., float],
    read: Callable[[Recorder], dict[str, float]],
    initializer: Callable[[], None] | None = None,
) -> Measured:
    """Play ``turns`` with ``seconds`` of thinking through both pools and ``plain`` in plain processes
    (started with ``initializer``), alternating; the first turn only warms them up. ``read`` turns each
    spread turn's share texts into the numbers kept."""
    recorder = Recorder()
    jobs.merge = recorder
    measured = Measured()
    before = os.getloadavg()[0]
    pools = [AiExecutor(config, workers=count) for count in POOLS]
    for pool in pools:
        await pool.start()
    processes = multiprocessing.get_context("spawn").Pool(2, initializer=initializer)
    try:
        for index, turn in enumerate(turns):
            for count in POOLS:
                results = await asyncio.to_thread(processes.starmap, plain, turn.tasks[count])
                if index:
                    measured.machine[count].append(sum(results))
            for count, pool in zip(POOLS, pools, strict=True):
                started = time.perf_counter()
                await pool.ask(turn.kind, turn.data, seconds + 10.0, think=seconds, quick=False)
                if index:
                    measured.seconds[count].append(time.perf_counter() - started)
                    measured.numbers[count].append(read(recorder))
                    measured.shares[count].append(len(recorder.shares))
    finally:
        processes.terminate()
        for pool in pools:
            await pool.close()
    measured.load = (before, os.getloadavg()[0])
    return measured
