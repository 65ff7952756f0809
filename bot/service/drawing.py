"""The thread that draws the service's images: one at a time, answers first.

Each image takes milliseconds of Pillow, partly holding the interpreter's lock. Drawn by the default
pool of threads, a burst of them took turns at that lock with the event loop, slowing every other
part of the process and holding their images in memory meanwhile; one thread draws them in turn. An
image someone waits for as the answer to their command (``urgent``: the board, their rack) is drawn
before the announcements waiting, which go out in the background.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import queue
import threading
from collections.abc import Callable
from functools import partial
from typing import Any

_URGENT, _IN_TURN = 0, 1

_Work = tuple[int, int, Callable[[], bytes], asyncio.AbstractEventLoop, "asyncio.Future[bytes]"]


class Drawing:
    """A thread, started on first use, that draws the images it is given, the urgent ones first, the
    others in the order given."""

    def __init__(self) -> None:
        self._queue: queue.PriorityQueue[_Work] = queue.PriorityQueue()
        self._order = itertools.count()
        self._thread: threading.Thread | None = None
        self._starting = threading.Lock()

    async def draw(self, render: Callable[..., bytes], *args: Any, urgent: bool = False) -> bytes:
        """``render(*args)``, drawn in the thread.

        Raises:
            Whatever ``render`` raises.
        """
        loop = asyncio.get_running_loop()
        future: asyncio.Future[bytes] = loop.create_future()
        rank = _URGENT if urgent else _IN_TURN
        self._queue.put((rank, next(self._order), partial(render, *args), loop, future))
        with self._starting:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="drawing", daemon=True)
                self._thread.start()
        return await future

    def _run(self) -> None:
        while True:
            _, _, work, loop, future = self._queue.get()
            try:
                outcome: tuple[Callable[..., None], Any] = (_answer, work())
            except Exception as error:
                outcome = (_fail, error)
            with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits any more
                loop.call_soon_threadsafe(outcome[0], future, outcome[1])


def _answer(future: asyncio.Future[bytes], image: bytes) -> None:
    if not future.done():
        future.set_result(image)


def _fail(future: asyncio.Future[bytes], error: Exception) -> None:
    if not future.done():
        future.set_exception(error)


DRAWING = Drawing()
"""The process's drawing thread."""
