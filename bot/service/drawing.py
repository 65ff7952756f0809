"""The drawer of the service's images: one at a time, answers first.

Each image takes milliseconds of Pillow, partly holding the interpreter's lock. Drawn by the default
pool of threads, a burst of them took turns at that lock with the event loop, slowing every other
part of the process and holding their images in memory meanwhile; one thread draws them in turn. An
image someone waits for as the answer to their command (``urgent``: the board, their rack) is drawn
before the announcements waiting, which go out in the background.

The bot (:func:`bot.__main__.run`) goes further: :meth:`Drawing.use_process` has that thread hand each
image to a process of its own, so drawing takes none of the lock from the event loop and the store's
thread, and uses a core of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import multiprocessing
import queue
import threading
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from typing import Any

logger = logging.getLogger("bot.service")

_URGENT, _IN_TURN = 0, 1

_Work = tuple[int, int, Callable[[], bytes], asyncio.AbstractEventLoop, "asyncio.Future[bytes]"]


class Drawing:
    """A thread, started on first use, that draws the images it is given, the urgent ones first, the
    others in the order given: itself, or in a process after :meth:`use_process`."""

    def __init__(self) -> None:
        self._queue: queue.PriorityQueue[_Work] = queue.PriorityQueue()
        self._order = itertools.count()
        self._thread: threading.Thread | None = None
        self._starting = threading.Lock()
        self._process: ProcessPoolExecutor | None = None

    def use_process(self) -> None:
        """Draw from now on in a process of its own, started (``spawn``) on the next image and again
        after one that died (the image it was drawing fails). Every ``render`` given to :meth:`draw`
        must then be picklable with its arguments, as :class:`bot.render.png.PngRenderer`'s are."""
        if self._process is None:
            self._process = _drawing_process()

    def close(self) -> None:
        """Stop the drawing process, if any, waiting for the image it draws (blocking): the images
        after that are drawn in the thread."""
        process, self._process = self._process, None
        if process is not None:
            process.shutdown()

    async def draw(self, render: Callable[..., bytes], *args: Any, urgent: bool = False) -> bytes:
        """``render(*args)``, drawn in turn.

        Raises:
            Whatever ``render`` raises; BrokenProcessPool if the drawing process died drawing it.
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
                outcome: tuple[Callable[..., None], Any] = (_answer, self._drawn(work))
            except Exception as error:
                outcome = (_fail, error)
            with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits any more
                loop.call_soon_threadsafe(outcome[0], future, outcome[1])

    def _drawn(self, work: Callable[[], bytes]) -> bytes:
        """``work()``, drawn here or in the drawing process (started again if it had died)."""
        process = self._process
        if process is None:
            return work()
        try:
            return process.submit(work).result()
        except BrokenProcessPool:
            logger.error("the drawing process died: it is started again")
            self._process = _drawing_process()
            process.shutdown(wait=False)
            raise


def _drawing_process() -> ProcessPoolExecutor:
    return ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))


def _answer(future: asyncio.Future[bytes], image: bytes) -> None:
    if not future.done():
        future.set_result(image)


def _fail(future: asyncio.Future[bytes], error: Exception) -> None:
    if not future.done():
        future.set_exception(error)


DRAWING = Drawing()
"""The process's drawer of images."""
