"""AI turns off the event loop: a small pool of worker processes with a turn timeout.

Each worker is a process of its own that loads what each game's AI needs once (its initialiser,
:func:`_worker_main`: :func:`bot.host.ai.jobs.load_workers`) and then answers one request at a time over a
pipe. A request carries only plain data: a job of :mod:`bot.host.ai.jobs` (a game's kind, its data, the
time budget), answered as text by the game's worker part; or a call of a function of a game's worker part
(:meth:`AiExecutor.call`).

A long job of a game that offers shares (see :mod:`bot.host.ai.jobs`) is spread over every worker that
is idle when it arrives (:meth:`AiExecutor.ask`): one share a worker, each searching the job's whole
thinking time, merged when they have answered. A job that arrives meanwhile takes the next worker that
finishes: the shares other than the first are asked to end early for it (each worker has a flag in shared
memory that :func:`bot.host.ai.jobs.interrupted` reads, cleared as each request starts; not a semaphore,
which a killed bot would leave to the resource tracker), and what they found is merged as any share's. A share that is lost (its worker died or missed its limit) is left out of the
merge.

Why not :class:`concurrent.futures.ProcessPoolExecutor`: it cannot stop one stuck worker. Terminating
and recreating the whole executor would also kill the turns of other games running beside it. Here each
worker is a :class:`multiprocessing.Process` with its own pipe, so a worker that misses
``timeout + grace`` is killed alone and replaced in the background, while the caller is told at once
(:class:`WorkerLostError`) and plays its game's quick fallback.

Processes are started with the ``spawn`` method (no fork of a process running an event loop and
threads). Replies are awaited with :meth:`asyncio.AbstractEventLoop.add_reader` on the pipe, so this
module needs an event loop with reader callbacks (the default loops on Unix).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.reduction import ForkingPickler
from typing import Any, Final, TypeVar

from bot.host.ai import jobs
from bot.host.ai.jobs import WorkerConfig

__all__ = ["AiExecutor", "WorkerConfig", "WorkerLostError"]

logger = logging.getLogger(__name__)

DEFAULT_GRACE: Final = 1.0
DEFAULT_RESPAWN_DELAY: Final = 1.0
RESPAWN_DELAY_CAP: Final = 300.0
QUEUED_QUICK: Final = 3
"""How many quick requests (moves of levels below expert, hints) a worker may be sent before it has
answered the first: it takes the next from its pipe at once, instead of waiting for this process's event
loop to read its answer, which under load costs many times the few milliseconds of the request."""
_READY: Final = "ready"
_CALL: Final = "call"
_SHARE: Final = "share"

_R = TypeVar("_R")


class WorkerLostError(RuntimeError):
    """A worker missed its time limit or died while computing a request; it is being replaced."""


@dataclass(eq=False)
class _Job:
    """A request waiting for a worker (``sent``, resolved with the worker it went to), then for its
    answer."""

    request: tuple[Any, ...]
    quick: bool
    sent: asyncio.Future[_Worker]
    answer: asyncio.Future[tuple[str, Any]]
    yields: bool = False
    """Whether it ends early when another job waits (a share other than the first)."""


@dataclass(eq=False)
class _Worker:
    process: multiprocessing.process.BaseProcess
    conn: Connection
    interrupt: Any
    """Its flag in shared memory (a ``RawValue``), set to end a yielding job early (see
    :attr:`_Job.yields`)."""
    jobs: deque[_Job] = field(default_factory=deque)
    """The requests sent, oldest first: a worker answers them in that order."""

    def takes(self, job: _Job) -> bool:
        """Whether ``job`` may be sent now: to a worker with nothing to do, or, if it is quick, behind
        fewer than :data:`QUEUED_QUICK` quick ones (never behind a long one)."""
        if not self.jobs:
            return True
        return job.quick and len(self.jobs) < QUEUED_QUICK and all(sent.quick for sent in self.jobs)


def _worker_main(config: WorkerConfig, conn: Connection, interrupt: Any) -> None:
    """A worker process: load once (:func:`bot.host.ai.jobs.load_workers`), say ready, then answer each
    request (see :func:`_answer`) until ``None`` arrives or the pipe closes or breaks (the bot stopped or
    died: the worker then exits quietly). ``interrupt`` (a flag in shared memory) is what
    :func:`bot.host.ai.jobs.interrupted` reads, cleared as each request starts."""
    resources = jobs.load_workers(config)
    jobs.set_interrupt(lambda: bool(interrupt.value))
    with contextlib.suppress(EOFError, OSError):
        conn.send((_READY, ""))
        while (request := conn.recv()) is not None:
            interrupt.value = 0
            conn.send_bytes(_answer(request, resources))


def _answer(request: tuple[Any, ...], resources: dict[str, Any]) -> memoryview:
    """The pickled answer of a worker to ``request``: ``(kind, data, budget, delay)`` (a game's AI job)
    is answered ``("answer", text)``, ``("share", kind, data, budget, delay, index, count)`` (a share of
    one) ``("answer", share_text)``, ``("call", kind, function, args)`` ``("result", function(resources,
    *args))`` (with the game's worker resources). Any failure, an answer that cannot be pickled included,
    is answered ``("error", text)``, for the caller to decide (an AI turn falls back)."""
    try:
        if request[0] == _CALL:
            _, kind, function, args = request
            return ForkingPickler.dumps(("result", function(resources.get(kind), *args)))
        if request[0] == _SHARE:
            _, kind, data, budget, delay, index, count = request
        else:
            kind, data, budget, delay = request
        started = time.monotonic()
        if delay:
            time.sleep(delay)
        if request[0] == _SHARE:
            text = jobs.share(kind, resources, data, started + budget, index, count)
        else:
            text = jobs.answer(kind, resources, data, started + budget)
        return ForkingPickler.dumps(("answer", text))
    except Exception as error:
        return ForkingPickler.dumps(("error", f"{type(error).__name__}: {error}"))


class AiExecutor:
    """A pool of AI worker processes. Use ``async with AiExecutor(config) as executor`` or call
    :meth:`start` and :meth:`close`.

    ``workers`` turns run at once (more wait for a free worker, within their timeout); ``grace`` is how
    long past the turn's timeout a worker may answer before it is replaced. A replacement that fails to
    start is tried again after ``respawn_delay`` seconds, then twice as long each time (up to five
    minutes), until one starts: the pool heals instead of running short of workers.
    """

    def __init__(
        self,
        config: WorkerConfig,
        workers: int = 1,
        grace: float = DEFAULT_GRACE,
        respawn_delay: float = DEFAULT_RESPAWN_DELAY,
    ) -> None:
        if workers < 1:
            raise ValueError(f"workers must be at least 1, not {workers}")
        self.config = config
        self.grace = grace
        self.respawn_delay = respawn_delay
        self._size = workers
        self._context = multiprocessing.get_context("spawn")
        self._workers: list[_Worker] = []  # every worker ready for requests, busy or not
        self._waiting: deque[_Job] = deque()
        self._all: set[_Worker] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self.replaced = 0
        self.shares_merged = 0
        """How many shares of spread jobs came back and were merged."""

    async def __aenter__(self) -> AiExecutor:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def start(self) -> None:
        """Start the workers and wait until each has loaded.

        Raises:
            RuntimeError: a worker died while loading (bad lexicon path, missing asset, ...).
        """
        workers = await asyncio.gather(*(self._spawn() for _ in range(self._size)))
        for worker in workers:
            self._enlist(worker)

    async def close(self) -> None:
        """Stop every worker (those busy are killed) and wait for the background replacements."""
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for worker in list(self._all):
            with contextlib.suppress(OSError):
                worker.conn.send(None)
            await self._stop(worker)

    async def ask(
        self,
        kind: str,
        data: dict[str, Any],
        timeout: float,
        *,
        think: float | None = None,
        quick: bool = True,
        delay: float = 0.0,
    ) -> str:
        """The answer of a worker to the job of the game ``kind`` with ``data`` (see
        :mod:`bot.host.ai.jobs`), searched ``think`` seconds (by default ``timeout``; never more);
        ``quick`` if it takes milliseconds (see :data:`QUEUED_QUICK`). ``delay`` makes the worker sleep
        first (within the budget): a hook for tests of the slow paths. A cancelled call replaces its
        worker if the job is long, so that a late answer is never read as another's.

        A long job of a game whose worker offers shares is searched in shares, one on each idle worker
        (one share when none is idle: it waits for a worker as any job), and answered by their merge
        (see :mod:`bot.host.ai.jobs`); the shares that fail are left out.

        Raises:
            TimeoutError: no worker was free within ``timeout`` seconds (nothing was computed).
            WorkerLostError: the worker missed ``timeout + grace`` or died (it is being replaced); of
                a spread job, every share's worker.
            RuntimeError: the job failed in the worker (the message names its exception), or its
                shares could not be merged.
        """
        search = timeout if think is None else min(think, timeout)
        if not quick and jobs.spreads(kind):
            return await self._spread(kind, data, search, timeout, delay)
        answered, text = await self._ask((kind, data, search, delay), timeout, quick=quick)
        if answered != "answer":
            raise RuntimeError(f"the AI worker failed: {text}")
        return str(text)

    async def _spread(
        self, kind: str, data: dict[str, Any], search: float, timeout: float, delay: float
    ) -> str:
        """:meth:`ask`'s answer from shares of the job: one on each idle worker, at least one; those not
        sent at once (a worker that vanished on the way) are dropped, but for the first."""
        loop = asyncio.get_running_loop()
        limit = loop.time() + timeout + self.grace
        count = max(1, sum(not worker.jobs for worker in self._workers))
        shares = [
            self._submit((_SHARE, kind, data, search, delay, index, count), False, yields=index > 0)
            for index in range(count)
        ]
        for job in shares[1:]:
            if not job.sent.done():
                job.sent.cancel()  # never sent: the dispatcher skips it
        sent = [job for job in shares if not job.sent.cancelled()]
        answers = await asyncio.gather(
            *(self._wait(job, timeout, limit) for job in sent), return_exceptions=True
        )
        texts: list[str] = []
        failures: list[BaseException] = []
        for answer in answers:
            if isinstance(answer, BaseException):
                failures.append(answer)
            elif answer[0] != "answer":
                failures.append(RuntimeError(f"the AI worker failed: {answer[1]}"))
            else:
                texts.append(str(answer[1]))
        if not texts:
            raise failures[0]
        for failure in failures:
            logger.warning("a share of a %s AI job was lost (%s): the others answer", kind, failure)
        self.shares_merged += len(texts)
        try:
            return await asyncio.to_thread(jobs.merge, kind, data, texts)
        except Exception as error:
            raise RuntimeError(
                f"the AI's shares could not be merged: {type(error).__name__}: {error}"
            ) from error

    async def call(
        self, kind: str, function: Callable[..., _R], *args: Any, timeout: float, quick: bool = False
    ) -> _R:
        """``function(resources, *args)`` computed in a worker, ``resources`` being what the worker
        loaded for the game ``kind`` (Scrabble's: its move generator): CPU-bound work (hints...) that
        must not hold this process's GIL. ``function`` must be a module-level function and ``args`` and
        its result plain picklable data; ``quick`` if it takes milliseconds (see :data:`QUEUED_QUICK`).

        Raises:
            TimeoutError: no worker was free within ``timeout`` seconds (nothing was computed).
            WorkerLostError: the worker missed ``timeout + grace`` or died (it is being replaced).
            RuntimeError: ``function`` raised in the worker (the message names its exception).
        """
        answered, result = await self._ask((_CALL, kind, function, args), timeout, quick=quick)
        if answered != "result":
            raise RuntimeError(f"the AI worker failed: {result}")
        return result  # type: ignore[no-any-return]

    async def _ask(self, request: tuple[Any, ...], timeout: float, *, quick: bool) -> tuple[str, Any]:
        """Send ``request`` to the first worker that takes it (see :meth:`_Worker.takes`) and return its
        answer ``(kind, data)``. A cancelled call replaces its worker, which stops its work at once.

        Raises:
            TimeoutError: no worker was free within ``timeout`` (nothing was sent).
            WorkerLostError: the worker missed ``timeout + grace`` (counted from the call) or died.
        """
        limit = asyncio.get_running_loop().time() + timeout + self.grace
        return await self._wait(self._submit(request, quick), timeout, limit)

    def _submit(self, request: tuple[Any, ...], quick: bool, *, yields: bool = False) -> _Job:
        """``request`` as a job waiting for a worker, sent at once if one takes it."""
        loop = asyncio.get_running_loop()
        job = _Job(request, quick, loop.create_future(), loop.create_future(), yields)
        self._waiting.append(job)
        self._dispatch()
        return job

    async def _wait(self, job: _Job, timeout: float, limit: float) -> tuple[str, Any]:
        """The answer of ``job`` (see :meth:`_ask`): sent within ``timeout`` seconds, answered by
        ``limit`` (of the event loop's clock)."""
        try:
            async with asyncio.timeout(timeout):
                worker = await asyncio.shield(job.sent)
        except BaseException as error:
            if not job.sent.done():
                job.sent.cancel()  # never sent: the dispatcher skips it
                raise
            worker = job.sent.result()
            if not isinstance(error, TimeoutError):
                self._forsake(job, worker)
                raise
            # sent as the time ran out: it waits for its answer as any other
        try:
            async with asyncio.timeout_at(limit):
                return await asyncio.shield(job.answer)
        except (TimeoutError, asyncio.CancelledError) as error:
            if job.answer.done():
                if isinstance(error, TimeoutError):
                    return job.answer.result()  # answered as the time ran out
                raise
            if isinstance(error, TimeoutError):
                job.answer.cancel()
                if worker.jobs and worker.jobs[0] is job:  # it is computing this one: stuck
                    self._replace(worker)
                raise WorkerLostError("TimeoutError") from error  # else the first one's limit tells
            self._forsake(job, worker)
            raise

    def _forsake(self, job: _Job, worker: _Worker) -> None:
        """The caller of ``job``, sent to ``worker``, stopped waiting: a quick one's answer is read and
        dropped in turn; a long one's worker is replaced, which stops its work at once."""
        job.answer.cancel()
        if not job.quick and job in worker.jobs:
            self._replace(worker)

    def _enlist(self, worker: _Worker) -> None:
        """Add the ready ``worker`` to the pool; its answers are read as soon as they come."""
        asyncio.get_running_loop().add_reader(worker.conn.fileno(), self._on_readable, worker)
        self._workers.append(worker)
        self._dispatch()

    def _dispatch(self) -> None:
        """Send waiting requests, oldest first, each to the worker with the fewest requests that takes
        it; when one waits, ask the workers of yielding jobs to end them. Called whenever a request or a
        worker arrives, so that a worker that answers takes its next request in the same pass of the
        event loop."""
        while self._waiting:
            job = self._waiting[0]
            if job.sent.done():  # its caller stopped waiting
                self._waiting.popleft()
                continue
            takers = [worker for worker in self._workers if worker.takes(job)]
            if not takers:
                for worker in self._workers:
                    if worker.jobs and worker.jobs[0].yields:
                        worker.interrupt.value = 1
                return
            worker = min(takers, key=lambda taker: len(taker.jobs))
            self._waiting.popleft()
            try:
                worker.conn.send(job.request)
            except (OSError, ValueError):  # the worker is gone: the request waits for another
                self._waiting.appendleft(job)
                self._replace(worker)
                continue
            worker.jobs.append(job)
            job.sent.set_result(worker)

    def _on_readable(self, worker: _Worker) -> None:
        """Read ``worker``'s answers that have come, give each to its request and send it more; a
        worker whose pipe closed (it died) is replaced and its requests told so."""
        try:
            while True:
                answer = worker.conn.recv()
                if not worker.jobs:  # a worker speaks only when asked: this one cannot be trusted
                    logger.error("AI worker sent an answer nobody asked for: replacing it")
                    self._replace(worker)
                    return
                job = worker.jobs.popleft()
                if not job.answer.done():
                    job.answer.set_result(answer)
                if not worker.jobs or not worker.conn.poll():
                    break
        except (EOFError, OSError) as error:
            self._replace(worker, WorkerLostError(type(error).__name__))
            return
        self._dispatch()

    async def _spawn(self) -> _Worker:
        """Start one worker process and wait for its ready message."""
        parent, child = self._context.Pipe()
        interrupt = self._context.RawValue("b", 0)
        process = self._context.Process(
            target=_worker_main, args=(self.config, child, interrupt), daemon=True, name="scrabble-ai"
        )
        process.start()
        child.close()
        worker = _Worker(process, parent, interrupt)
        self._all.add(worker)
        try:
            kind, _ = await self._receive(worker)
        except EOFError:
            await self._stop(worker)
            raise RuntimeError(f"AI worker exited with code {process.exitcode} while loading") from None
        if kind != _READY:
            await self._stop(worker)
            raise RuntimeError("AI worker sent no ready message")
        return worker

    async def _receive(self, worker: _Worker) -> Any:
        """The next message from ``worker``, awaited without blocking the loop.

        Raises:
            EOFError: the worker's end of the pipe closed (it died).
        """
        loop = asyncio.get_running_loop()
        readable: asyncio.Future[None] = loop.create_future()
        fd = worker.conn.fileno()

        def wake() -> None:
            if not readable.done():
                readable.set_result(None)

        loop.add_reader(fd, wake)
        try:
            await readable
        finally:
            loop.remove_reader(fd)
        return worker.conn.recv()

    def _replace(self, worker: _Worker, error: WorkerLostError | None = None) -> None:
        """Kill ``worker`` and start a new one in the background, added to the pool when ready; the
        requests it was sent and has not answered get ``error`` (by default: it was replaced)."""
        self.replaced += 1
        self._retire(worker)
        lost = error or WorkerLostError("its worker was replaced")
        for job in worker.jobs:
            if not job.answer.done():
                job.answer.set_exception(lost)
        worker.jobs.clear()
        task = asyncio.get_running_loop().create_task(self._respawn(worker))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _respawn(self, worker: _Worker) -> None:
        """Stop ``worker`` and start its replacement, retrying with backoff until one starts."""
        await self._stop(worker)
        delay = self.respawn_delay
        while True:
            try:
                self._enlist(await self._spawn())
            except (RuntimeError, OSError):
                logger.exception("cannot replace an AI worker: trying again in %.1f s", delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, RESPAWN_DELAY_CAP)
            else:
                return

    def _retire(self, worker: _Worker) -> None:
        """Take ``worker`` out of the pool: no more requests, no more answers read."""
        with contextlib.suppress(ValueError):
            self._workers.remove(worker)
        if not worker.conn.closed:
            asyncio.get_running_loop().remove_reader(worker.conn.fileno())

    async def _stop(self, worker: _Worker) -> None:
        """Kill the worker's process if it still runs, reap it and close its pipe."""
        self._retire(worker)
        self._all.discard(worker)
        if worker.process.is_alive():
            worker.process.kill()
        await asyncio.to_thread(worker.process.join, 5)
        worker.conn.close()
