"""Each channel's deliveries, :class:`Deliveries`: the jobs that build and send what the host says in a
channel (a turn's announcement, a lobby, a notice), run one at a time per channel in the order they were
queued, by a task of that channel's own, apart from the game's lock.

A command thus answers as soon as its change is committed, while its announcement is rendered and sent
behind it. Nothing here survives the process: an announcement is durable because it is in the store's
outbox (written in its change's transaction) until its job marks it sent; one that a crash cut short is
delivered again at the next start.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Final, TypeAlias

__all__ = ["CLOSE_GRACE_SECONDS", "Deliveries", "Job"]

logger = logging.getLogger("bot.host")

Job: TypeAlias = Callable[[], Awaitable[None]]
"""A delivery: builds what it sends (rendering included) and sends it; it should not raise (one that
does is logged, and the channel's next job runs)."""

CLOSE_GRACE_SECONDS: Final = 2.0
"""How long the host's close lets the queued deliveries finish (:meth:`Deliveries.close`): a part of
the few seconds a stop may take (:data:`bot.stopping.STOP_SECONDS`)."""


class Deliveries:
    """The queued jobs by channel, each channel's run in order by a task that lives while it has any."""

    def __init__(self) -> None:
        """No job yet."""
        self._queues: dict[int, deque[Job]] = {}
        self._workers: dict[int, asyncio.Task[None]] = {}

    def send(self, channel_id: int, job: Job) -> None:
        """Queue ``job`` after the channel's earlier jobs and return at once (the channel's task runs
        it)."""
        self._queues.setdefault(channel_id, deque()).append(job)
        if channel_id not in self._workers:
            self._workers[channel_id] = asyncio.create_task(self._run(channel_id))

    async def _run(self, channel_id: int) -> None:
        """Run the channel's jobs in order until none is left."""
        queue = self._queues[channel_id]
        try:
            while queue:
                job = queue.popleft()
                try:
                    await job()
                except Exception:
                    logger.exception("a delivery in channel %d failed", channel_id)
        finally:
            del self._workers[channel_id], self._queues[channel_id]

    async def idle(self) -> None:
        """Wait until every queued job has run (those queued meanwhile included). Cancelling the wait
        cancels no job."""
        while workers := list(self._workers.values()):
            await asyncio.wait(workers)

    async def close(self, grace: float) -> None:
        """Let the queued jobs run for up to ``grace`` seconds, then cancel what is left (an unsent
        announcement stays in the outbox, for the next start)."""
        if workers := list(self._workers.values()):
            await asyncio.wait(workers, timeout=grace)
        if workers := list(self._workers.values()):
            logger.warning("%d channels' deliveries cancelled at close", len(workers))
            for worker in workers:
                worker.cancel()
            await asyncio.wait(workers)
