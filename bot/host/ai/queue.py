"""AI turns as jobs on a queue kept in PostgreSQL, answered by ``scrabble-bot worker`` processes.

The queue is one table, ``ai_jobs``, created by :func:`ensure_schema` (it belongs to the queue, not
to the store's migrations). A job is one AI turn (:class:`~bot.host.ai.jobs.JobRequest`: a game's kind
and the plain data its worker answers from, for a game with private state only the seat's view; the
thinking time). Its key is a digest of that payload, so the same turn asked twice (a restarted bot, a
retried turn) is one job with one answer, and two games can only share a job if they ask the very same
question. The turn's number is kept beside it, for the operator.

A job goes ``queued`` -> ``running`` (a worker claimed it with ``FOR UPDATE SKIP LOCKED`` and holds a
lease: the thinking time plus a grace) -> ``done`` (its answer, a move in the game's notation) or
``failed``. A worker killed mid-job leaves it ``running`` with a lease that lapses; another worker then
claims it again (at most :data:`MAX_ATTEMPTS` times). The bot keeps the turn's deadline: when it passes
it marks the job ``abandoned`` (a worker's later answer changes no row: it is discarded) and the game's
plugin plays its local fallback. Whatever happens, the bot gets one move per turn and applies it itself,
under the game's lock (:mod:`bot.host.runner`).

Why a table and not a task library such as procrastinate: the bot needs the job's answer back within
a deadline, and such libraries keep no results; the table, ``SKIP LOCKED`` and ``LISTEN``/``NOTIFY``
are all this needs, in psycopg 3, the store's driver.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any, Final

import psycopg

from bot.host.ai.jobs import JobRequest

logger = logging.getLogger(__name__)

DONE_CHANNEL: Final = "ai_job_done"
"""The ``NOTIFY`` channel on which a worker announces an answer (the payload is the job's key)."""
NEW_CHANNEL: Final = "ai_job_new"
"""The ``NOTIFY`` channel on which the bot announces a new job (wakes idle workers)."""
MAX_ATTEMPTS: Final = 3
"""How many workers may claim a job in turn (a worker killed mid-job costs one attempt)."""
LEASE_GRACE: Final = 2.0
"""Seconds past a job's thinking time (an expert's; the other levels answer at once) before its worker
counts as dead and another may claim it."""
DEFAULT_POLL: Final = 1.0
"""Seconds between two looks at a job awaited (its answer normally arrives by ``NOTIFY`` first)."""
DEFAULT_GRACE: Final = 1.0
"""How long past the turn's timeout the bot waits for a worker's answer (as the local pool does)."""

SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS ai_jobs (
    key TEXT PRIMARY KEY,
    move_number INTEGER NOT NULL,
    payload JSONB NOT NULL,
    status TEXT NOT NULL DEFAULT 'queued'
        CHECK (status IN ('queued', 'running', 'done', 'failed', 'abandoned')),
    attempts INTEGER NOT NULL DEFAULT 0,
    worker TEXT,
    claim TEXT,
    lease_until TIMESTAMPTZ,
    lease_s DOUBLE PRECISION NOT NULL,
    deadline TIMESTAMPTZ NOT NULL,
    answer TEXT,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    finished_at TIMESTAMPTZ
);
CREATE INDEX IF NOT EXISTS ai_jobs_open ON ai_jobs (created_at) WHERE status IN ('queued', 'running');
"""


SCHEMA_LOCK: Final = "SELECT pg_advisory_xact_lock(hashtext('ai_jobs schema'))"
"""Serialises :data:`SCHEMA` between processes starting together."""


def ensure_schema(connection: psycopg.Connection[Any]) -> None:
    """Create the queue's table if it is missing (idempotent)."""
    with connection.transaction():
        connection.execute(SCHEMA_LOCK)
        connection.execute(SCHEMA)


class AiJobQueue:
    """The bot's side of the queue: :meth:`ask` posts a turn and awaits its answer until the deadline.
    Use ``async with AiJobQueue(url) as queue``.

    ``grace`` is how long past a turn's timeout a worker may answer; ``lease_grace`` how long past its
    thinking time a worker holds a job before another may claim it. An answer is awaited by its
    ``NOTIFY``, and looked up every ``poll`` seconds in case a notification was lost.
    """

    def __init__(
        self,
        url: str,
        *,
        grace: float = DEFAULT_GRACE,
        lease_grace: float = LEASE_GRACE,
        poll: float = DEFAULT_POLL,
    ) -> None:
        self.url = url
        self.poll = poll
        self.grace = grace
        self.lease_grace = lease_grace
        self._connection: psycopg.AsyncConnection[Any] | None = None
        self._listener: psycopg.AsyncConnection[Any] | None = None
        self._listen_task: asyncio.Task[None] | None = None
        self._waiting: dict[str, asyncio.Event] = {}

    async def __aenter__(self) -> AiJobQueue:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def start(self) -> None:
        """Connect, create the queue's table if needed and listen for answers.

        Raises:
            psycopg.Error: the database cannot be reached.
        """
        setup = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
        async with setup, setup.transaction():
            await setup.execute(SCHEMA_LOCK)
            await setup.execute(SCHEMA)
        try:
            self._connection = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
            self._listener = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
            await self._listener.execute(f"LISTEN {DONE_CHANNEL}")
        except psycopg.Error:
            await self.close()
            raise
        self._listen_task = asyncio.get_running_loop().create_task(self._listen(self._listener))

    async def close(self) -> None:
        """Stop listening and disconnect."""
        if self._listen_task is not None:
            self._listen_task.cancel()
            await asyncio.gather(self._listen_task, return_exceptions=True)
        for connection in (self._listener, self._connection):
            if connection is not None:
                await connection.close()

    async def _listen(self, listener: psycopg.AsyncConnection[Any]) -> None:
        async for notice in listener.notifies():
            if (event := self._waiting.get(notice.payload)) is not None:
                event.set()

    async def ask(self, request: JobRequest, timeout: float, move_number: int, lease: float) -> str | None:
        """The answer of a worker to ``request`` within ``timeout + grace`` seconds, each worker
        holding it ``lease`` seconds at most; None if none came in time (the job is abandoned: a late
        answer is discarded), the job failed or the database cannot be reached (the caller plays its
        game's fallback)."""
        key = request.key()
        event = self._waiting.setdefault(key, asyncio.Event())
        try:
            return await self._submit_and_wait(request, key, move_number, lease, timeout + self.grace, event)
        except psycopg.Error:
            logger.exception("AI queue unreachable: the game's fallback plays")
            return None
        finally:
            self._waiting.pop(key, None)

    async def _submit_and_wait(
        self,
        request: JobRequest,
        key: str,
        move_number: int,
        lease: float,
        wait: float,
        event: asyncio.Event,
    ) -> str | None:
        """Post the job and wait up to ``wait`` seconds for its answer; at the deadline abandon it.
        The answer, or None if the job failed or was abandoned.

        A job of the same key already posted is awaited instead (queued again if it had failed or
        been abandoned). Workers leave the job alone after ``wait`` seconds and each holds it ``lease``
        seconds at most before another may claim it.

        Raises:
            psycopg.Error: the database cannot be reached.
        """
        assert self._connection is not None, "start the queue first"
        deadline = asyncio.get_running_loop().time() + wait
        await self._connection.execute(
            "INSERT INTO ai_jobs (key, move_number, payload, lease_s, deadline) "
            "VALUES (%s, %s, %s, %s, now() + make_interval(secs => %s)) "
            "ON CONFLICT (key) DO UPDATE SET status = 'queued', attempts = 0, claim = NULL, "
            "deadline = excluded.deadline, lease_s = excluded.lease_s "
            "WHERE ai_jobs.status IN ('failed', 'abandoned')",
            (key, move_number, json.dumps(request.payload()), lease, wait),
        )
        await self._connection.execute(f"NOTIFY {NEW_CHANNEL}")
        while True:
            event.clear()
            row = await (
                await self._connection.execute("SELECT status, answer FROM ai_jobs WHERE key = %s", (key,))
            ).fetchone()
            if row is None or row[0] in ("failed", "abandoned"):
                return None
            if row[0] == "done":
                return str(row[1])
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                return await self._abandon(key)
            with contextlib.suppress(TimeoutError):  # a lost notification costs one poll interval
                await asyncio.wait_for(event.wait(), min(left, self.poll))

    async def _abandon(self, key: str) -> str | None:
        """Mark the job abandoned at its deadline (a later answer changes nothing); its answer if it
        came in just before."""
        logger.warning("no AI worker answered in time: the game's fallback plays")
        assert self._connection is not None
        await self._connection.execute(
            "UPDATE ai_jobs SET status = 'abandoned', finished_at = now() "
            "WHERE key = %s AND status IN ('queued', 'running')",
            (key,),
        )
        row = await (
            await self._connection.execute("SELECT status, answer FROM ai_jobs WHERE key = %s", (key,))
        ).fetchone()
        return str(row[1]) if row is not None and row[0] == "done" else None
