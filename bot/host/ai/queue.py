"""AI turns as jobs on a queue kept in PostgreSQL, answered by ``scrabble-bot worker`` processes.

The queue is one table, ``ai_jobs``, created by :func:`ensure_schema` (it belongs to the queue, not
to the store's migrations). A job is one AI turn (:class:`JobRequest`): for Scrabble the seat's view
(:class:`~scrabble_core.ai.SeatView`: the board, its own rack, the unseen tiles pooled, scores: racks
of the other seats are never in it), for Go the game's state; the level, the seed and the thinking
time. Its key is a digest of that payload, so the same turn asked twice (a restarted bot, a retried
turn) is one job with one answer, and two games can only share a job if they ask the very same
question. The turn's number is kept beside it, for the operator.

A job goes ``queued`` -> ``running`` (a worker claimed it with ``FOR UPDATE SKIP LOCKED`` and holds a
lease: the thinking time plus a grace) -> ``done`` (its answer, a move in GCG notation) or
``failed``. A worker killed mid-job leaves it ``running`` with a lease that lapses; another worker then
claims it again (at most :data:`MAX_ATTEMPTS` times). The bot keeps the turn's deadline: when it passes
it marks the job ``abandoned`` (a worker's later answer changes no row: it is discarded) and plays its
local fallback, the static ``hard`` move. Whatever happens, the bot gets one move per turn and applies
it itself, under the game's lock (:mod:`bot.host.runner`).

Why a table and not a task library such as procrastinate: the bot needs the job's answer back within
a deadline, and such libraries keep no results; the table, ``SKIP LOCKED`` and ``LISTEN``/``NOTIFY``
are all this needs, in psycopg 3, the store's driver.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import random
from dataclasses import dataclass
from typing import Any, Final

import psycopg

from bot.games.go.ai_turns import FALLBACK_SECONDS, THINKING_SHARE, ThreadGoAi
from bot.games.go.engines import RESIGN, AIMove, Engine
from bot.games.go.engines import Level as GoLevel
from bot.games.go.protocols import GoAi
from go_core import Game as GoGame
from go_core import GoError, Point, parse_move
from scrabble_core.ai import Level, MoveSource, SeatView, choose_move, seat_view
from scrabble_core.game import Game
from scrabble_core.move import Move, Pass, move_from_gcg

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
FALLBACK_LEVEL: Final = Level.HARD
SCRABBLE: Final = "scrabble"
GO: Final = "go"

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


@dataclass(frozen=True, slots=True)
class JobRequest:
    """One AI turn as a worker gets it, plain data only (JSON): the game's ``kind`` (``scrabble``:
    ``data`` holds the seat's view, the level and the seed; ``go``: the game's state, which hides
    nothing, the level, the engine and the seed), the thinking time and a test hook, ``delay``."""

    kind: str
    data: dict[str, Any]
    think: float
    delay: float = 0.0

    def payload(self) -> dict[str, Any]:
        """The job's payload as stored."""
        return {"kind": self.kind, "data": self.data, "think": self.think, "delay": self.delay}

    def key(self) -> str:
        """The job's identity: a digest of its payload (the same turn is the same job)."""
        text = json.dumps(self.payload(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()


class AiJobQueue:
    """The bot's side of the queue: :meth:`choose` posts a turn and awaits its answer until the
    deadline. Use ``async with AiJobQueue(url, generator) as queue``.

    ``generator`` is this process's move generator, for the fallback move (computed in a thread);
    ``grace`` is how long past a turn's timeout a worker may answer; ``lease_grace`` how long past its
    thinking time a worker holds a job before another may claim it. An answer is awaited by its
    ``NOTIFY``, and looked up every ``poll`` seconds in case a notification was lost.
    """

    def __init__(
        self,
        url: str,
        generator: MoveSource,
        *,
        grace: float = DEFAULT_GRACE,
        lease_grace: float = LEASE_GRACE,
        poll: float = DEFAULT_POLL,
    ) -> None:
        self.url = url
        self.poll = poll
        self.grace = grace
        self.lease_grace = lease_grace
        self._generator = generator
        self._connection: psycopg.AsyncConnection[Any] | None = None
        self._listener: psycopg.AsyncConnection[Any] | None = None
        self._listen_task: asyncio.Task[None] | None = None
        self._waiting: dict[str, asyncio.Event] = {}
        self.fallbacks = 0

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

    async def choose(
        self,
        view: SeatView,
        level: Level,
        seed: int,
        timeout: float,
        move_number: int,
        *,
        think: float | None = None,
        delay: float = 0.0,
    ) -> Move:
        """The move ``level`` makes for ``view`` (turn ``move_number`` of its game), from a worker
        that searches ``think`` seconds (by default ``timeout``; never more), if one answers within
        ``timeout + grace``; else the local fallback (the static ``hard`` move), the job being
        abandoned so that a late answer is discarded. ``delay`` makes the worker sleep first (a hook
        for tests).

        Never raises for a missing, slow or dying worker, nor for a lost database connection: the
        fallback move is played instead.
        """
        search = timeout if think is None else min(think, timeout)
        data = {"view": view.to_dict(), "level": level.value, "seed": seed}
        request = JobRequest(SCRABBLE, data, search, delay)
        lease = delay + (search if level is Level.EXPERT else 0.0) + self.lease_grace
        answer = await self.ask(request, timeout, move_number, lease)
        if answer is not None:
            try:
                return move_from_gcg(answer)
            except ValueError:
                logger.error("AI worker answered %r: fallback move", answer)
        return await self._fallback(view, seed)

    async def ask(self, request: JobRequest, timeout: float, move_number: int, lease: float) -> str | None:
        """The answer of a worker to ``request`` within ``timeout + grace`` seconds, each worker
        holding it ``lease`` seconds at most; None if none came in time (the job is abandoned: a late
        answer is discarded), the job failed or the database cannot be reached."""
        key = request.key()
        event = self._waiting.setdefault(key, asyncio.Event())
        try:
            return await self._submit_and_wait(request, key, move_number, lease, timeout + self.grace, event)
        except psycopg.Error:
            logger.exception("AI queue unreachable: fallback move")
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
        logger.warning("no AI worker answered in time: fallback move")
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

    async def _fallback(self, view: SeatView, seed: int) -> Move:
        """The static ``hard`` move for ``view``, computed in a thread here; a pass if it fails."""
        self.fallbacks += 1
        try:
            return await asyncio.to_thread(
                choose_move, view, self._generator, FALLBACK_LEVEL, random.Random(seed)
            )
        except Exception:  # a broken view must not leave the game without a move
            logger.exception("fallback move failed: passing")
            return Pass()


class QueueAiPlayer:
    """The :class:`bot.host.protocols.AiPlayer` of a bot on PostgreSQL with ``ai.queue =
    "postgresql"``: each turn is a job of ``queue`` with ``timeout`` seconds, the AI seeing only its
    seat's view. ``expert`` searches ``expert_seconds`` of them (by default all)."""

    def __init__(self, queue: AiJobQueue, timeout: float, expert_seconds: float | None = None) -> None:
        self.queue = queue
        self.timeout = timeout
        self.expert_seconds = expert_seconds

    async def choose(self, game: Game, seat: int, level: str, seed: int) -> Move:
        """The move of ``seat`` at ``level``.

        Raises:
            ValueError: an unknown level.
        """
        chosen = Level(level)
        think = self.expert_seconds if chosen is Level.EXPERT else None
        view = seat_view(game, seat)
        return await self.queue.choose(view, chosen, seed, self.timeout, len(game.history), think=think)


class QueueGoAi:
    """The :class:`bot.games.go.protocols.GoAi` of a bot with ``ai.queue = "postgresql"``: each move
    is a job of ``queue`` with the turn timeout ``seconds`` (the AI thinks
    :data:`~bot.games.go.ai_turns.THINKING_SHARE` of it); without an answer in time, the built-in AI
    answers here with :data:`~bot.games.go.ai_turns.FALLBACK_SECONDS`. Dead stones are proposed by
    ``local`` (the bot's own pool: once a game, after two passes)."""

    def __init__(self, queue: AiJobQueue, seconds: float, local: GoAi, engine: Engine = "auto") -> None:
        self.queue = queue
        self.seconds = seconds
        self.engine: Engine = engine
        self._local = local
        self._fallback = ThreadGoAi(FALLBACK_SECONDS, "builtin")

    async def choose(self, game: GoGame, level: GoLevel, seed: int) -> AIMove:
        """See :class:`~bot.games.go.protocols.GoAi`."""
        think = self.seconds * THINKING_SHARE
        data = {"state": game.to_dict(), "level": level.value, "engine": self.engine, "seed": seed}
        answer = await self.queue.ask(
            JobRequest(GO, data, think), self.seconds, len(game.moves), think + self.queue.lease_grace
        )
        if answer is not None:
            try:
                return RESIGN if answer == RESIGN else parse_move(answer, game.size)
            except GoError:
                logger.error("AI worker answered %r for a Go game: the built-in AI plays", answer)
        return await self._fallback.choose(game, level, seed)

    async def dead_stones(self, game: GoGame) -> tuple[frozenset[Point], str]:
        """See :class:`~bot.games.go.protocols.GoAi`."""
        return await self._local.dead_stones(game)
