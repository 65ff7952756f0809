"""The drawer of the games' images: one at a time, answers first.

Each image takes milliseconds of Pillow, partly holding the interpreter's lock. Drawn by the default
pool of threads, a burst of them took turns at that lock with the event loop, slowing every other
part of the process and holding their images in memory meanwhile; one thread draws them in turn. An
image someone waits for as the answer to their command (``urgent``: the board, their rack) is drawn
before the announcements waiting, which go out in the background.

The bot (:func:`bot.__main__.run`) goes further: after :meth:`Drawing.use_process` the images are drawn
by a process of its own, which takes none of the interpreter's lock from the event loop and the store's
thread and uses a core of its own. The event loop itself hands the images over a pipe, up to
:data:`IN_FLIGHT` at a time, and reads the drawn ones back in a callback: no thread of this process
takes part (a pool of processes, whose threads each had to win the lock back from the busy event loop
to pass an image on, left images waiting seconds at a hundred moves a second). The process keeps the
images it was given in its own queue, draws the most urgent first, skips those withdrawn meanwhile (a
superseded announcement's board) and sends the drawn ones back from a thread, so that it never waits
for the event loop; it runs at a lower CPU priority (:data:`NICENESS`), so that on a busy machine the
event loop's answers go first.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import logging
import multiprocessing
import os
import pickle
import queue
import signal
import threading
from collections.abc import Callable
from functools import partial
from multiprocessing.connection import Connection
from typing import Any, Final

logger = logging.getLogger("bot.host")

_URGENT, _IN_TURN = 0, 1

IN_FLIGHT: Final = 64
"""How many images the drawing process is given at most: it draws the most urgent it has, and always has
the next ones at hand, though the event loop (which gives them) may be busy for a while."""

NICENESS: Final = 10
"""How much lower the drawing process's CPU priority is than the bot's: on a busy machine the event
loop, which answers commands, goes first, and an announcement waiting for its board longer is
superseded by the game's next one more often (so fewer boards are drawn)."""

_Work = tuple[int, int, Callable[[], bytes], asyncio.AbstractEventLoop, "asyncio.Future[bytes]"]
_Waiting = tuple[int, int, Callable[[], bytes], "asyncio.Future[bytes]"]


class DrawingProcessDiedError(RuntimeError):
    """The drawing process died while it had this image to draw (the next images start another)."""


class Drawing:
    """Draws the images it is given, the urgent ones first, the others in the order given: in a
    thread of its own (started on first use), or in a process after :meth:`use_process`."""

    def __init__(self) -> None:
        self._queue: queue.PriorityQueue[_Work] = queue.PriorityQueue()
        self._order = itertools.count()
        self._thread: threading.Thread | None = None
        self._starting = threading.Lock()
        self._in_process = False
        self._waiting: list[_Waiting] = []
        self._process: _Process | None = None

    def use_process(self) -> None:
        """Draw from now on in a process of its own, started (``spawn``) for the next image and again
        after one that died (the images it had fail with :class:`DrawingProcessDiedError`). Every
        ``render`` given to :meth:`draw` must then be picklable with its arguments, as
        :class:`bot.games.scrabble.images.renderer.PngRenderer`'s are, and be drawn from one event loop at a time."""
        self._in_process = True

    def close(self) -> None:
        """Stop the drawing process, if one runs (call it from its event loop); the images it had
        fail with :class:`DrawingProcessDiedError`. The next image starts another."""
        if self._process is not None:
            self._stop(self._process, "the drawing process was stopped")

    async def draw(self, render: Callable[..., bytes], *args: Any, urgent: bool = False) -> bytes:
        """``render(*args)``, drawn in turn.

        Raises:
            Whatever ``render`` raises; DrawingProcessDiedError if the drawing process died drawing it;
            pickle's errors if ``render`` or its arguments cannot be sent to the process.
        """
        loop = asyncio.get_running_loop()
        future: asyncio.Future[bytes] = loop.create_future()
        rank = _URGENT if urgent else _IN_TURN
        work = partial(render, *args)
        if self._in_process:
            waiting: _Waiting = (rank, next(self._order), work, future)
            heapq.heappush(self._waiting, waiting)
            self._send(loop)
            return await future
        self._queue.put((rank, next(self._order), work, loop, future))
        with self._starting:
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="drawing", daemon=True)
                self._thread.start()
        return await future

    def _run(self) -> None:
        """The drawing thread."""
        while True:
            _, _, work, loop, future = self._queue.get()
            try:
                outcome: tuple[Callable[..., None], Any] = (_answer, work())
            except Exception as error:
                outcome = (_fail, error)
            with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits any more
                loop.call_soon_threadsafe(outcome[0], future, outcome[1])

    def _send(self, loop: asyncio.AbstractEventLoop) -> None:
        """Send the drawing process (started if none runs for ``loop``) the next images waiting, up to
        :data:`IN_FLIGHT` in its hands."""
        process = self._process
        if process is not None and process.loop is not loop:  # a new loop (tests): a new process
            self._stop(process, "the drawing process was stopped")
            process = None
        while self._waiting and (process is None or len(process.sent) < IN_FLIGHT):
            if process is None:
                process = self._process = _Process(loop, self._on_readable)
            rank, order, work, future = heapq.heappop(self._waiting)
            if future.done():  # its caller was cancelled
                continue
            try:
                process.connection.send(("draw", rank, order, pickle.dumps(work)))
            except OSError:  # the process died: this image is for the next one
                again: _Waiting = (_URGENT, -next(self._order), work, future)
                heapq.heappush(self._waiting, again)
                self._died(process)
                process = None
            except Exception as error:  # it cannot be pickled
                future.set_exception(error)
            else:
                process.sent[order] = future
                future.add_done_callback(partial(self._withdraw, process, order))

    def _withdraw(self, process: _Process, order: int, future: asyncio.Future[bytes]) -> None:
        """Tell the drawing process not to draw image ``order`` if its caller stopped waiting for it
        (a superseded announcement's board), and send it the next image instead."""
        if not future.cancelled() or process.sent.pop(order, None) is None:
            return
        try:
            process.connection.send(("cancel", order))
        except OSError:
            self._died(process)
            return
        if self._waiting:
            self._send(process.loop)

    def _on_readable(self, process: _Process) -> None:
        """Give each image the process has drawn to its caller, then send it more."""
        try:
            while True:
                order, kind, value = process.connection.recv()
                future = process.sent.pop(order, None)
                if future is not None:  # else withdrawn while it was drawn
                    (_answer if kind == "image" else _fail)(future, value)
                if not process.connection.poll():
                    break
        except (EOFError, OSError):
            self._died(process)
        if self._waiting:
            self._send(process.loop)

    def _died(self, process: _Process) -> None:
        """``process`` died: stop it; the next image starts another."""
        logger.error("the drawing process died: it is started again for the next image")
        self._stop(process, "the drawing process died")

    def _stop(self, process: _Process, reason: str) -> None:
        """Stop ``process``: the images it had fail with ``reason``."""
        process.stop()
        sent = list(process.sent.values())
        process.sent.clear()
        for future in sent:
            if not future.done():
                future.set_exception(DrawingProcessDiedError(reason))
        if self._process is process:
            self._process = None


class _Process:
    """A drawing process and the event loop's end of its pipe, read by ``on_readable``."""

    def __init__(self, loop: asyncio.AbstractEventLoop, on_readable: Callable[[_Process], None]) -> None:
        context = multiprocessing.get_context("spawn")
        self.connection, child = context.Pipe()
        self.process = context.Process(target=_serve, args=(child,), daemon=True, name="scrabble-drawing")
        self.process.start()
        child.close()
        self.loop = loop
        self.sent: dict[int, asyncio.Future[bytes]] = {}
        """The images sent and not yet drawn, by their order of arrival."""
        loop.add_reader(self.connection.fileno(), on_readable, self)

    def stop(self) -> None:
        """Stop reading, close the pipe and kill the process."""
        if not self.loop.is_closed():
            self.loop.remove_reader(self.connection.fileno())
        self.connection.close()
        self.process.kill()
        self.process.join(1)


def _serve(connection: Connection) -> None:
    """The drawing process: take every request waiting in the pipe (an image to draw, or one no longer
    wanted), then draw the most urgent image it has, the earliest sent first, answering ``(order,
    "image", bytes)`` or ``(order, "error", exception)``; until the pipe closes or breaks (the bot stopped
    or died: the process then exits quietly). The answers are sent
    by a thread of their own, so that the next image is drawn while the event loop is too busy to read
    them. Ctrl-C is the bot's to handle, not this process's."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.nice(NICENESS)
    answers: queue.SimpleQueue[bytes] = queue.SimpleQueue()
    threading.Thread(target=_send_answers, args=(connection, answers), daemon=True).start()
    ranks: list[tuple[int, int]] = []
    works: dict[int, bytes] = {}
    while True:
        try:
            while not works or connection.poll():
                request = connection.recv()
                if request[0] == "cancel":
                    works.pop(request[1], None)
                else:
                    _, rank, order, works[order] = request
                    heapq.heappush(ranks, (rank, order))
        except (EOFError, OSError):  # the bot closed its end, or died (reset: it left answers unread)
            return
        order = heapq.heappop(ranks)[1]
        if (pickled := works.pop(order, None)) is None:  # withdrawn
            continue
        try:
            answer: tuple[int, str, Any] = (order, "image", pickle.loads(pickled)())
        except Exception as error:
            answer = (order, "error", error)
        try:
            answers.put(pickle.dumps(answer))
        except Exception as error:  # an exception that cannot be pickled
            unpicklable = RuntimeError(f"{type(answer[2]).__name__}: {answer[2]}; {error}")
            answers.put(pickle.dumps((order, "error", unpicklable)))


def _send_answers(connection: Connection, answers: queue.SimpleQueue[bytes]) -> None:
    """The drawing process's sender: sends each answer given, in order, until the pipe closes."""
    while True:
        try:
            connection.send_bytes(answers.get())
        except OSError:
            return


def _answer(future: asyncio.Future[bytes], image: bytes) -> None:
    if not future.done():
        future.set_result(image)


def _fail(future: asyncio.Future[bytes], error: Exception) -> None:
    if not future.done():
        future.set_exception(error)


DRAWING = Drawing()
"""The process's drawer of images."""
