"""Group commit: the write transactions queued while the database is busy are committed together.

A store has one connection, used by one thread; a trip there costs far more than the statements of a
move (waking the thread, winning the GIL back, waking the event loop: milliseconds under load, against
a tenth of one for the statements). One transaction per trip held every other game's write behind it;
here, each trip takes every write queued meanwhile (up to :data:`MOST_PER_TRIP`) and runs them in one
transaction, each inside a savepoint of its own, then commits, all on the connection's thread:

- a write that raises is rolled back alone (to its savepoint), and its caller gets its exception,
  exactly as if it had been a transaction of its own; the others are committed;
- a failed commit (or a failure that loses the transaction) writes nothing, and every write of the trip
  gets that error;
- a caller is answered only after the commit of its write, as before;
- a caller cancelled before its trip starts writes nothing; once the trip started, as with any
  transaction, its write may be committed although the caller is gone.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Callable
from typing import Any, Final, TypeVar, cast

from bot.host.store.backends import Backend, Connection

_T = TypeVar("_T")

MOST_PER_TRIP: Final = 64
"""The most writes committed together: a longer queue takes several trips, so that no transaction
holds the database long."""

SAVEPOINT: Final = "batched"

Work = Callable[[Connection], Any]


class GroupCommit:
    """The write path of one backend's connection. Trips hold ``lock`` (the store's), so they take
    turns with the store's reads and longer transactions."""

    def __init__(self, backend: Backend, lock: asyncio.Lock) -> None:
        self._backend = backend
        self._lock = lock
        self._queue: deque[tuple[Work, asyncio.Future[Any]]] = deque()
        self._writer: asyncio.Task[None] | None = None

    async def write(self, work: Callable[[Connection], _T]) -> _T:
        """Run ``work(connection)`` (its statements; it must not touch the store) in a transaction,
        committed with the writes queued beside it; what it returns, once committed.

        Raises:
            Whatever ``work`` raises (its statements are rolled back, the other writes go on), or the
            error of the trip's ``BEGIN`` or ``COMMIT`` (nothing of the trip is written).
        """
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queue.append((work, future))
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_queued())
        return cast(_T, await future)

    async def drain(self) -> None:
        """Wait until every write queued so far is committed (or has failed)."""
        if self._writer is not None:
            await asyncio.wait([self._writer])

    async def _write_queued(self) -> None:
        batch: list[tuple[Work, asyncio.Future[Any]]] = []
        try:
            while self._queue:
                batch = self._next_batch()
                if batch:
                    await self._commit(batch)
        finally:  # cancelled (the loop is closing): nobody is left waiting forever
            for _, future in [*batch, *self._queue]:
                future.cancel()
            self._queue.clear()

    def _next_batch(self) -> list[tuple[Work, asyncio.Future[Any]]]:
        """The next writes to commit, oldest first; those whose callers were cancelled are dropped."""
        batch: list[tuple[Work, asyncio.Future[Any]]] = []
        while self._queue and len(batch) < MOST_PER_TRIP:
            work, future = self._queue.popleft()
            if not future.cancelled():
                batch.append((work, future))
        return batch

    async def _commit(self, batch: list[tuple[Work, asyncio.Future[Any]]]) -> None:
        """Commit ``batch`` in one trip and answer each of its callers."""
        backend, works = self._backend, [work for work, _ in batch]
        try:
            async with self._lock:
                outcomes = await backend.run(lambda db: _commit_together(backend, db, works))
        except Exception as failure:
            outcomes = [(None, failure)] * len(batch)
        for (_, future), (result, error) in zip(batch, outcomes, strict=True):
            if future.done():
                continue
            if error is None:
                future.set_result(result)
            else:
                future.set_exception(error)


def _commit_together(
    backend: Backend, db: Connection, works: list[Work]
) -> list[tuple[Any, Exception | None]]:
    """On the connection's thread: ``BEGIN``, each of ``works`` in a savepoint (rolled back to it if it
    raises), ``COMMIT``; each one's result or exception, in order.

    Raises:
        The error of ``BEGIN`` or ``COMMIT``, or of a write that lost the whole transaction (it is rolled
        back: nothing is written).
    """
    db.execute(backend.begin_sql)
    outcomes: list[tuple[Any, Exception | None]] = []
    try:
        for work in works:
            db.execute(f"SAVEPOINT {SAVEPOINT}")
            try:
                result = work(db)
            except Exception as error:
                try:
                    db.execute(f"ROLLBACK TO {SAVEPOINT}")
                    db.execute(f"RELEASE {SAVEPOINT}")
                except Exception:
                    raise error from None  # the transaction is lost with it
                outcomes.append((None, error))
            else:
                db.execute(f"RELEASE {SAVEPOINT}")
                outcomes.append((result, None))
        backend._commit(db)
    except BaseException:
        with contextlib.suppress(Exception):  # the error being raised is the one that matters
            backend._rollback(db)
        raise
    return outcomes
