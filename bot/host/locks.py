"""Each channel's lock, :class:`ChannelLocks`: every change of a channel's game holds it. A lock lives
only while someone holds it or waits for it, so the channels of games that ended leave nothing behind."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager


class ChannelLocks:
    """One :class:`asyncio.Lock` per channel in use."""

    def __init__(self) -> None:
        """No lock yet."""
        self._locks: dict[int, tuple[asyncio.Lock, int]] = {}

    @asynccontextmanager
    async def hold(self, channel_id: int) -> AsyncIterator[None]:
        """Hold the channel's lock for the ``async with`` block (waiting for it first); the lock is
        dropped when its last holder or waiter is done."""
        lock, users = self._locks.get(channel_id, (asyncio.Lock(), 0))
        self._locks[channel_id] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            _, users = self._locks[channel_id]
            if users == 1:
                del self._locks[channel_id]
            else:
                self._locks[channel_id] = (lock, users - 1)

    def __len__(self) -> int:
        """How many channels' locks are in use (held or waited for)."""
        return len(self._locks)
