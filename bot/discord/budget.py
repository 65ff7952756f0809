"""The bot's budget of REST requests to Discord (:class:`RestBudget`): every request the notifier sends
(posts, edits, typing, DMs; interaction answers are not counted by Discord) first waits until it fits
both the bot's limit in all and the limit of its bucket (a channel's posts, its edits...), so that
Discord never has to answer 429.

Each limit is a sliding window: at most ``n`` requests in any ``seconds``. A request takes its place
when it is let go and keeps it while it is under way; it is counted from the moment its answer comes
back. Discord counts it somewhere in between (when it receives it, however long the upload took), so
any ``seconds`` of Discord's hold at most ``n`` requests, however Discord's windows are aligned and
however slowly the requests travel.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from typing import Final

from bot.config import DiscordLimits

__all__ = ["GLOBAL_SECONDS", "RestBudget"]

GLOBAL_SECONDS: Final = 1.0
"""The window of the limit in all (Discord's: requests per second)."""
PRUNE_EVERY: Final = 1000
"""Forget the buckets with nothing in their window every this many requests."""


@dataclass
class _Window:
    """One limit: at most ``size`` requests under way or answered within the last ``seconds``."""

    size: int
    seconds: float
    answered: deque[float] = field(default_factory=deque)
    """When each request still in the window was answered, oldest first."""
    under_way: int = 0
    answer: asyncio.Event = field(default_factory=asyncio.Event)
    """Set when a request under way is answered (then replaced by a new one)."""

    def wait(self, now: float) -> float | None:
        """Seconds before one more request fits (0: it fits now), or ``None`` if every place is held
        by a request under way (one must be answered first)."""
        self._forget(now)
        if len(self.answered) + self.under_way < self.size:
            return 0.0
        if not self.answered:
            return None
        return self.answered[0] + self.seconds - now

    def done(self, now: float) -> None:
        """A request under way was answered at ``now``."""
        self.under_way -= 1
        self.answered.append(now)
        self.answer.set()
        self.answer = asyncio.Event()

    def empty(self, now: float) -> bool:
        """Nothing under way and nothing answered within the window."""
        self._forget(now)
        return self.under_way == 0 and not self.answered

    def _forget(self, now: float) -> None:
        """Drop the answers older than the window."""
        answered = self.answered
        while answered and answered[0] <= now - self.seconds:
            answered.popleft()


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
        self._all = _Window(limits.requests_per_second, GLOBAL_SECONDS)
        self._buckets: dict[Hashable, _Window] = {}
        self._let_go = 0

    @contextlib.asynccontextmanager
    async def request(self, bucket: Hashable) -> AsyncIterator[None]:
        """Wait until one more request of ``bucket`` fits both limits, then hold its place while the
        body sends it; it counts from when the body ends (answered, failed or cancelled alike: Discord
        may have received it)."""
        window = await self._place(bucket)
        try:
            yield
        finally:
            now = self._clock()
            self._all.done(now)
            window.done(now)

    async def ready(self, bucket: Hashable) -> None:
        """Wait until one more request of ``bucket`` fits both limits, without taking its place (a
        sender waits here before it takes what it sends, so that what arrives meanwhile joins it)."""
        await self._fit(bucket)

    async def _place(self, bucket: Hashable) -> _Window:
        """Wait until a request of ``bucket`` fits, and take its place in both windows (``bucket``'s
        returned)."""
        window, now = await self._fit(bucket)
        self._all.under_way += 1
        window.under_way += 1
        self._let_go += 1
        if self._let_go % PRUNE_EVERY == 0:
            self._prune(now)
        return window

    async def _fit(self, bucket: Hashable) -> tuple[_Window, float]:
        """Wait until a request of ``bucket`` fits both limits; ``bucket``'s window and the time then."""
        while True:
            window = self._buckets.get(bucket)
            if window is None:
                limits = self._limits
                window = self._buckets[bucket] = _Window(limits.channel_requests, limits.channel_seconds)
            now = self._clock()
            in_all, in_bucket = self._all.wait(now), window.wait(now)
            if in_all == 0.0 and in_bucket == 0.0:
                break
            # Every request is in both windows: an answer in the bucket is one in all too.
            if in_bucket is None:
                await window.answer.wait()
            elif in_all is None:
                await self._all.answer.wait()
            else:
                await self._sleep(max(in_all, in_bucket))
        return window, now

    def _prune(self, now: float) -> None:
        """Forget the buckets with nothing under way or in their window."""
        for key in [key for key, window in self._buckets.items() if window.empty(now)]:
            del self._buckets[key]
