"""The bot's budget of REST requests to Discord (:class:`RestBudget`): every request the notifier sends
(posts, edits, typing, DMs; interaction answers are not counted by Discord) first waits until it fits
both the bot's limit in all and the limit of its bucket (a channel's posts, its edits...), so that
Discord never has to answer 429.

Each limit is a sliding window: at most ``n`` requests in any ``seconds``, which is never more than
Discord's windows allow however they are aligned. A request is counted when it is let go, a little
before Discord receives it; :data:`MARGIN` seconds more between the first and the last request of a
window keep that from making a difference.
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Awaitable, Callable, Hashable
from typing import Final

from bot.config import DiscordLimits

__all__ = ["GLOBAL_SECONDS", "MARGIN", "RestBudget"]

GLOBAL_SECONDS: Final = 1.0
"""The window of the limit in all (Discord's: requests per second)."""
MARGIN: Final = 0.05
"""Seconds added to every window, for the time a request takes to reach Discord."""
PRUNE_EVERY: Final = 1000
"""Forget the buckets with no request in their window every this many requests."""


class RestBudget:
    """Lets requests go as fast as ``limits`` allow (see the module's docstring), waiting with ``sleep``
    by the time of ``clock`` (monotonic seconds)."""

    def __init__(
        self,
        limits: DiscordLimits,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self._limits = limits
        self._clock = clock
        self._sleep = sleep
        self._all: deque[float] = deque(maxlen=limits.requests_per_second)
        self._buckets: dict[Hashable, deque[float]] = {}
        self._spent = 0
        self.waited = 0.0
        """Seconds spent waiting in all (for the tests and benchmarks that count them)."""

    async def spend(self, bucket: Hashable) -> None:
        """Wait until one more request of ``bucket`` fits both limits, then count it."""
        limits = self._limits
        queue = self._buckets.get(bucket)
        if queue is None:
            queue = self._buckets[bucket] = deque(maxlen=limits.channel_requests)
        while True:
            now = self._clock()
            wait = max(
                _wait(self._all, GLOBAL_SECONDS, now),
                _wait(queue, limits.channel_seconds, now),
            )
            if wait <= 0:
                break
            self.waited += wait
            await self._sleep(wait)
            self._buckets.setdefault(bucket, queue)  # kept if pruned meanwhile
        self._all.append(now)
        queue.append(now)
        self._spent += 1
        if self._spent % PRUNE_EVERY == 0:
            self._prune(now)

    def _prune(self, now: float) -> None:
        """Forget the buckets whose last request is out of its window."""
        window = self._limits.channel_seconds + MARGIN
        for key in [key for key, queue in self._buckets.items() if not queue or queue[-1] + window <= now]:
            del self._buckets[key]


def _wait(window: deque[float], seconds: float, now: float) -> float:
    """Seconds before one more request fits in ``window`` (full: its oldest must be ``seconds`` old)."""
    if window.maxlen is None or len(window) < window.maxlen:
        return 0.0
    return window[0] + seconds + MARGIN - now
