"""``scrabble-bot worker``: a stateless process that answers the AI jobs of :mod:`bot.host.ai.queue`.

    scrabble-bot worker [--config FILE] [--database postgresql://...] [--name NAME]

It loads what each game's AI needs once (:func:`bot.host.ai.jobs.load_workers`: Scrabble's lexicon,
move generator and leave model...), then claims one job at a time (``FOR UPDATE SKIP LOCKED``: any
number of workers share the queue), has the job's game answer it (:func:`bot.host.ai.jobs.answer`) and
writes the answer, if its claim still holds (the bot has not given up on the turn, no
other worker has taken a lapsed lease over). Idle, it deletes the jobs finished over
:data:`KEEP_FINISHED_MINUTES` ago (once a minute) and waits for the bot's ``NOTIFY`` or ``poll``
seconds (leases that lapse wake no one). It can be killed at any time: its job's lease lapses and
another worker claims it. It keeps no state of its own.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import socket
import sys
import time
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import psycopg

from bot.host.ai import jobs
from bot.host.ai.jobs import WorkerConfig
from bot.host.ai.queue import DONE_CHANNEL, MAX_ATTEMPTS, NEW_CHANNEL, ensure_schema
from bot.host.store.backends import is_postgresql_url, redacted

logger = logging.getLogger(__name__)

DEFAULT_POLL: Final = 1.0
KEEP_FINISHED_MINUTES: Final = 10
RECONNECT_DELAY: Final = 5.0
APPLICATION_NAME: Final = "scrabble-ai-worker"
"""How a worker's connection is named in ``pg_stat_activity``."""
ANSWER_MARGIN: Final = 0.3
"""Seconds before the bot's deadline by which a worker stops searching, so that its answer arrives."""

CLAIM_SQL: Final = f"""
UPDATE ai_jobs SET status = 'running', attempts = attempts + 1, worker = %(worker)s, claim = %(claim)s,
    lease_until = now() + make_interval(secs => lease_s)
WHERE key = (
    SELECT key FROM ai_jobs
    WHERE (status = 'queued' OR (status = 'running' AND lease_until < now()))
        AND deadline > now() AND attempts < {MAX_ATTEMPTS}
    ORDER BY created_at
    LIMIT 1
    FOR UPDATE SKIP LOCKED
)
RETURNING key, payload, extract(epoch FROM deadline - now())
"""

PURGE_SQL: Final = f"""
DELETE FROM ai_jobs WHERE coalesce(finished_at, deadline) < now() - interval '{KEEP_FINISHED_MINUTES} minutes'
"""
"""Forget the jobs answered (or given up) long ago: a turn asked again after that is computed again."""

FINISH_SQL: Final = """
UPDATE ai_jobs SET status = %(status)s, answer = %(answer)s, finished_at = now()
WHERE key = %(key)s AND claim = %(claim)s AND status = 'running'
"""


@dataclass(frozen=True, slots=True)
class ClaimedJob:
    """A job a worker holds: its key, the claim's token (its answer counts only while the claim
    holds), its payload (:class:`bot.host.ai.queue.JobRequest`) and the seconds left until the bot's
    deadline when it was claimed."""

    key: str
    claim: str
    payload: dict[str, Any]
    seconds_left: float


def claim_job(connection: psycopg.Connection[Any], worker: str) -> ClaimedJob | None:
    """Claim the oldest open job (queued, or running on a lapsed lease) for ``worker``; None if there
    is none."""
    claim = uuid.uuid4().hex
    row = connection.execute(CLAIM_SQL, {"worker": worker, "claim": claim}).fetchone()
    if row is None:
        return None
    payload = row[1] if isinstance(row[1], dict) else json.loads(row[1])
    return ClaimedJob(str(row[0]), claim, payload, float(row[2]))


def compute(job: ClaimedJob, resources: Mapping[str, Any]) -> str:
    """The answer to ``job`` by its game's worker part (``resources``: what it loaded), searched for its
    thinking time at most and never past the bot's deadline (less :data:`ANSWER_MARGIN`), after its
    test ``delay``.

    Raises:
        KeyError, ValueError, Exception: the payload is not a job's, or of a game not served here.
    """
    started = time.monotonic()
    payload = job.payload
    delay = float(payload.get("delay", 0.0))
    think = min(payload["think"], job.seconds_left - delay - ANSWER_MARGIN)
    if delay:
        time.sleep(delay)
    return jobs.answer(str(payload["kind"]), resources, payload["data"], started + delay + max(think, 0.1))


def finish_job(connection: psycopg.Connection[Any], key: str, claim: str, answer: str | None) -> bool:
    """Record the answer (a move; None: the job failed) if the claim still holds, and wake the
    bot; whether it was recorded (False: the bot gave up, or another worker took over)."""
    status = "done" if answer is not None else "failed"
    with connection.transaction():
        cursor = connection.execute(
            FINISH_SQL, {"status": status, "answer": answer, "key": key, "claim": claim}
        )
        if cursor.rowcount != 1:
            return False
        connection.execute("SELECT pg_notify(%s, %s)", (DONE_CHANNEL, key))
    return True


def run_worker(
    url: str,
    config: WorkerConfig,
    *,
    name: str | None = None,
    poll: float = DEFAULT_POLL,
    reconnect_delay: float = RECONNECT_DELAY,
) -> None:
    """Answer jobs until killed. A connection lost once connected (the database restarted...) is
    opened again every ``reconnect_delay`` seconds until it opens; the job in hand, if any, is left to
    its lapsing lease.

    Raises:
        psycopg.Error: the database cannot be reached at start.
        Exception: a game's AI cannot be loaded (Scrabble's lexicon...).
    """
    worker = name or f"{socket.gethostname()}:{os.getpid()}"
    resources = jobs.load_workers(config)
    connected = False
    while True:
        try:
            with psycopg.connect(url, autocommit=True, application_name=APPLICATION_NAME) as connection:
                ensure_schema(connection)
                connection.execute(f"LISTEN {NEW_CHANNEL}")
                connected = True
                logger.info("AI worker %s ready on %s", worker, redacted(url))
                _serve(connection, worker, resources, poll)
        except psycopg.OperationalError:
            if not connected:
                raise
            logger.exception(
                "AI worker %s lost the database: reconnecting in %.0f s", worker, reconnect_delay
            )
            time.sleep(reconnect_delay)


def _serve(
    connection: psycopg.Connection[Any], worker: str, resources: Mapping[str, Any], poll: float
) -> None:
    """Claim and answer jobs on ``connection`` for ever; purge old jobs when idle.

    Raises:
        psycopg.OperationalError: the connection was lost.
    """
    next_purge = 0.0
    while True:
        job = claim_job(connection, worker)
        if job is None:
            if time.monotonic() >= next_purge:
                connection.execute(PURGE_SQL)
                next_purge = time.monotonic() + 60
            for _ in connection.notifies(timeout=poll, stop_after=1):
                pass
            continue
        try:
            answer: str | None = compute(job, resources)
        except Exception:  # a job that cannot be computed fails; the bot plays its fallback
            logger.exception("AI job %s failed", job.key[:12])
            answer = None
        if not finish_job(connection, job.key, job.claim, answer):
            logger.info("AI job %s: answered too late, discarded", job.key[:12])


def main(argv: Sequence[str]) -> int:
    """``scrabble-bot worker``: run a worker on the config's PostgreSQL database (or ``--database``)
    until interrupted; the exit code (2: a bad config or no PostgreSQL database, 1: it cannot start)."""
    from bot.__main__ import DEFAULT_CONFIG, EXIT_USAGE, setup_logging
    from bot.config import ConfigError, load_config

    parser = argparse.ArgumentParser(
        prog="scrabble-bot worker",
        description="Answer the AI jobs that bots queue on their PostgreSQL database ([ai] queue = "
        '"postgresql"), one at a time, until stopped. Workers keep no state: start as many as the CPUs '
        "allow, on any machine that reaches the database.",
    )
    parser.add_argument("--config", type=Path, default=None, help="the bot's config file")
    parser.add_argument("--database", default=None, help="postgresql://... (default: the config's)")
    parser.add_argument("--name", default=None, help="this worker's name in the queue (default host:pid)")
    parser.add_argument("--poll", type=float, default=DEFAULT_POLL, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    path: Path | None = args.config
    if path is None and DEFAULT_CONFIG.is_file():
        path = DEFAULT_CONFIG
    try:
        config = load_config(path)
    except ConfigError as error:
        print(f"scrabble-bot worker: {error}", file=sys.stderr)
        return EXIT_USAGE
    database = args.database if args.database is not None else config.database
    if not isinstance(database, str) or not is_postgresql_url(database):
        print(
            'scrabble-bot worker: AI workers need a PostgreSQL database (`database = "postgresql://..."` '
            "in the config, or --database); with SQLite the bot runs its AI in its own processes.",
            file=sys.stderr,
        )
        return EXIT_USAGE
    setup_logging(config.log_level_number, sys.stderr)
    try:
        run_worker(database, WorkerConfig(config), name=args.name, poll=args.poll)
    except psycopg.Error as error:
        print(f"scrabble-bot worker: {redacted(database)}: {error}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0
