"""The one place that opens what a host runs on: the store, the AI worker processes and, if configured,
the PostgreSQL queue of AI jobs (:func:`host_parts`); :meth:`HostParts.host` then builds the host with
every registered game (:func:`bot.host.setup.build_host`). The bot, the console and the web board's
command all use it; each brings its own notifier and the settings of its games (its images).
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Collection, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.config import Config
from bot.host import registry
from bot.host.ai.executor import AiExecutor
from bot.host.ai.jobs import WorkerConfig
from bot.host.protocols import Notifier
from bot.host.runner import Host
from bot.host.setup import build_host
from bot.host.store import Store, StoreOpenError
from bot.host.store.backends import display_name

if TYPE_CHECKING:
    from bot.host.ai.queue import AiJobQueue


class AssemblyError(RuntimeError):
    """The database, the AI workers or a game could not be opened; the message says which and why."""


@dataclass(frozen=True, slots=True)
class HostParts:
    """Everything a host runs on, open and ready: :meth:`host` builds it."""

    config: Config
    store: Store
    pool: AiExecutor
    queue: AiJobQueue | None = None
    """The PostgreSQL queue of ``ai.queue``, if configured (the games' AI moves go there)."""
    kinds: Collection[str] | None = None
    """The games this process plays (``None``: every registered game)."""

    async def host(self, notifier: Notifier, options: Mapping[str, Mapping[str, Any]] | None = None) -> Host:
        """The host over these parts with every registered game, sending through ``notifier``; each
        game gets its settings of ``options`` (by kind). Call its ``start`` before use.

        Raises:
            AssemblyError: a game cannot build its parts (the message names the game and why).
        """
        try:
            return await build_host(
                self.config,
                self.store,
                notifier,
                pool=self.pool,
                queue=self.queue,
                options=options,
                kinds=self.kinds,
            )
        except Exception as error:  # a lexicon, a variant file: whatever a game needs
            raise AssemblyError(f"cannot start the games: {error}") from error


@asynccontextmanager
async def _queue(url: str) -> AsyncIterator[AiJobQueue]:
    """The AI job queue on ``url``, open for the ``async with`` block.

    Raises:
        AssemblyError: the queue cannot be opened.
    """
    import psycopg

    from bot.host.ai.queue import AiJobQueue

    queue = AiJobQueue(url)
    try:
        await queue.start()
    except psycopg.Error as error:
        raise AssemblyError(f"cannot open the AI queue on {display_name(url)}: {error}") from error
    try:
        yield queue
    finally:
        await queue.close()


@asynccontextmanager
async def host_parts(
    config: Config, database: Path | str | None = None, *, kinds: Collection[str] | None = None
) -> AsyncIterator[HostParts]:
    """Open the store (``database``, by default the config's), then the AI workers and the queue if
    configured, for the ``async with`` block; close them (the workers first) when it ends. The process
    plays the games of ``kinds`` (``None``: every registered game): its workers load theirs alone (a Go
    console loads no dictionary).

    Raises:
        AssemblyError: the database cannot be opened or the AI workers cannot start.
    """
    path = config.database if database is None else database
    try:
        store = await Store.open(path, shards=config.shards)
    except StoreOpenError as error:  # in use, read-only, damaged, too new: it says which file and what to do
        raise AssemblyError(str(error)) from error
    except (sqlite3.Error, OSError, ValueError) as error:
        raise AssemblyError(f"cannot open the database {display_name(path)}: {error}") from error
    games = tuple(registry.packages(kinds))
    pool = AiExecutor(WorkerConfig(config, games=games), workers=config.ai_worker_count())
    try:
        try:
            await pool.start()
        except (RuntimeError, OSError, ValueError) as error:
            raise AssemblyError(f"cannot start the AI workers: {error}") from error
        if config.ai_queue == "postgresql":
            async with _queue(str(path)) as queue:
                yield HostParts(config, store, pool, queue, kinds)
        else:
            yield HostParts(config, store, pool, None, kinds)
    finally:
        await pool.close()
        await store.close()
