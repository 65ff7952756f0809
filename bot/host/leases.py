"""Shard leases: how a sharded bot process holds its shards in the database (table ``shard_leases``,
migration 0006, the same on SQLite and PostgreSQL).

A process claims a lease row per shard (its holder name, the shard count, an expiry) before it connects
to Discord, and renews them every third of :attr:`ShardLeases.seconds` while it runs. A claim fails while
another holder's lease has not lapsed, naming that holder; a lease whose process died lapses at its
expiry and the next claim takes it over (a restarted or standby process then loads the shard's games).
Claims are conditional upserts, so two processes claiming at once cannot both win. Time is each
process's clock (``time.time``): the processes' clocks must agree to well within a lease's length.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Final

from bot.config import Config
from bot.host.shards import Shards
from bot.host.store import Store
from bot.host.store.backends import Connection

logger = logging.getLogger("bot.host.leases")

RENEWALS_PER_LEASE: Final = 3
"""How many times a lease is renewed within its length (a renewal may fail twice before it lapses)."""


class ShardHeldError(RuntimeError):
    """A shard is held by another process whose lease has not lapsed; the message names the holder."""

    def __init__(self, lease: Lease, now: float) -> None:
        self.lease = lease
        super().__init__(
            f"shard {lease.shard} (of {lease.shard_count}) is held by {lease.holder}, whose lease lapses in "
            f"{max(0.0, lease.expires_at - now):.0f} s unless renewed: stop that process, give this one "
            "other shard_ids, or set shard_standby to wait for it"
        )


class LeaseLostError(RuntimeError):
    """This process no longer holds one of its shards (its lease lapsed and another process took it)."""


@dataclass(frozen=True, slots=True)
class Lease:
    """One shard's lease row."""

    shard: int
    shard_count: int
    holder: str
    expires_at: float


def holder_name() -> str:
    """A name for this process as a lease holder: its host, pid and a random tag (a restarted process
    with the same pid is another holder)."""
    return f"{socket.gethostname()} pid {os.getpid()} ({secrets.token_hex(3)})"


class ShardLeases:
    """The leases of ``shards`` in ``store``, held as ``holder`` for ``seconds`` at a time, with the
    time from ``clock`` (Unix seconds)."""

    def __init__(
        self,
        store: Store,
        shards: Shards,
        seconds: float,
        holder: str | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.store = store
        self.shards = shards
        self.seconds = seconds
        self.holder = holder_name() if holder is None else holder
        self._clock = clock
        self.lost: Exception | None = None
        """Why :meth:`keep` gave the leases up, once it did."""

    async def claim(self) -> None:
        """Take (or extend) the lease of every shard at once, or none.

        Raises:
            ShardHeldError: another holder's lease on one of them has not lapsed, or a live lease was
                taken with another shard count (nothing is claimed).
        """
        now = self._clock()
        await self.store.in_transaction(lambda db: self._claim(db, now))
        logger.info("holding %s as %s", self.shards, self.holder)

    def _claim(self, db: Connection, now: float) -> None:
        for shard in self.shards.ids:
            claimed = db.execute(
                "INSERT INTO shard_leases (shard, shard_count, holder, expires_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (shard) DO UPDATE SET shard_count = excluded.shard_count, "
                "holder = excluded.holder, expires_at = excluded.expires_at "
                "WHERE shard_leases.holder = excluded.holder OR shard_leases.expires_at <= ?",
                (shard, self.shards.count, self.holder, now + self.seconds, now),
            ).rowcount
            if claimed != 1:
                raise ShardHeldError(_lease(db, "WHERE shard = ?", (shard,)), now)
        live_of_other_count = "WHERE holder <> ? AND expires_at > ? AND shard_count <> ? ORDER BY shard"
        if others := _leases(db, live_of_other_count, (self.holder, now, self.shards.count)):
            raise ShardHeldError(others[0], now)

    async def wait_and_claim(self) -> None:
        """:meth:`claim` as soon as every shard is free: retry every third of a lease's length while
        another holder has one (a standby process)."""
        while True:
            try:
                return await self.claim()
            except ShardHeldError as error:
                logger.info("standing by: %s", error)
            await asyncio.sleep(self.seconds / RENEWALS_PER_LEASE)

    async def renew(self) -> None:
        """Extend every lease this process holds by :attr:`seconds` from now.

        Raises:
            LeaseLostError: another process took one of them (nothing is renewed).
        """
        expires = self._clock() + self.seconds
        await self.store.in_transaction(lambda db: self._renew(db, expires))

    def _renew(self, db: Connection, expires: float) -> None:
        marks = ", ".join("?" * len(self.shards.ids))
        renewed = db.execute(
            f"UPDATE shard_leases SET expires_at = ? WHERE holder = ? AND shard IN ({marks})",
            (expires, self.holder, *self.shards.ids),
        ).rowcount
        if renewed != len(self.shards.ids):
            raise LeaseLostError(f"{self.holder} lost one of its {self.shards} to another process")

    async def release(self) -> None:
        """Give up every lease this process holds (a clean stop: another process may take them at once)."""
        await self.store.in_transaction(
            lambda db: db.execute("DELETE FROM shard_leases WHERE holder = ?", (self.holder,))
        )

    async def leases(self) -> list[Lease]:
        """Every lease row, by shard (to monitor who holds what)."""
        return await self.store.in_transaction(lambda db: _leases(db, "ORDER BY shard", ()))

    async def keep(self, on_lost: Callable[[Exception], Awaitable[None]]) -> None:
        """Renew the leases every third of their length until cancelled. If they are lost, or cannot be
        renewed before they lapse (the database is unreachable), await ``on_lost`` with the error and
        return: the process must stop serving those shards."""
        renewed = self._clock()
        while True:
            await asyncio.sleep(self.seconds / RENEWALS_PER_LEASE)
            try:
                await self.renew()
                renewed = self._clock()
            except LeaseLostError as error:
                logger.critical("%s", error)
                self.lost = error
                return await on_lost(error)
            except Exception as error:  # the database: retried until the lease would lapse
                if self._clock() - renewed >= self.seconds:
                    logger.critical("could not renew the shard leases for %.0f s: %s", self.seconds, error)
                    self.lost = error
                    return await on_lost(error)
                logger.warning("could not renew the shard leases (%s): retrying", error)


@asynccontextmanager
async def held_shards(store: Store, config: Config) -> AsyncIterator[ShardLeases | None]:
    """Hold the leases of ``config.shards`` in ``store`` for the ``async with`` block (``None`` without
    shards): claimed at once, or, with ``config.shard_standby``, as soon as their holder's leases lapse;
    released at the end (if the database lets it; they lapse otherwise). Renewing them is :func:`kept`'s.

    Raises:
        ShardHeldError: another process holds one of the shards (and the process is no standby).
    """
    if config.shards is None:
        yield None
        return
    leases = ShardLeases(store, config.shards, config.shard_lease_seconds)
    await (leases.wait_and_claim() if config.shard_standby else leases.claim())
    try:
        yield leases
    finally:
        try:
            await leases.release()
        except Exception as error:  # the database is gone: the leases lapse by themselves
            logger.warning(
                "could not release the shard leases (%s): they lapse in %.0f s", error, leases.seconds
            )


@asynccontextmanager
async def kept(leases: ShardLeases | None, stop: Callable[[], Awaitable[None]]) -> AsyncIterator[None]:
    """Renew ``leases`` (if any) for the ``async with`` block; if they are lost, await ``stop`` (the
    process must stop serving their shards)."""
    if leases is None:
        yield
        return

    async def lost(_: Exception) -> None:
        await stop()

    keeper = asyncio.create_task(leases.keep(lost))
    try:
        yield
    finally:
        keeper.cancel()
        await asyncio.gather(keeper, return_exceptions=True)


def _leases(db: Connection, where: str, params: tuple[object, ...]) -> list[Lease]:
    rows = db.execute(f"SELECT shard, shard_count, holder, expires_at FROM shard_leases {where}", params)
    return [Lease(int(s), int(c), str(h), float(e)) for s, c, h, e in rows.fetchall()]


def _lease(db: Connection, where: str, params: tuple[object, ...]) -> Lease:
    return _leases(db, where, params)[0]
