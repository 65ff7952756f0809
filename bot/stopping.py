"""Stopping the bot on SIGINT or SIGTERM within :data:`STOP_SECONDS`, always.

The first signal cancels the bot's main task, which closes what it opened in order (the web server, the
host's timers, AI turns and queued deliveries, the gateway, the AI workers, the drawing process, the
store). A watchdog thread started by the same signal ends the process if that has not finished in time
(a delivery waiting out a rate limit, a thread that does not return, an event loop held up by a long
call): what was committed but not announced stays in the outbox and goes out at the next start, and
the child processes exit when they find their parent gone. A handler at the level of ``signal`` (not
the event loop's) runs even while the loop is held up.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
import threading
import time
from types import FrameType
from typing import Any, Final

__all__ = ["STOP_SECONDS", "stop_on_signals"]

logger = logging.getLogger("bot")

STOP_SECONDS: Final = 4.5
"""The longest a stop takes from the first signal to the end of the process."""

SIGNALS: Final = (signal.SIGINT, signal.SIGTERM)


def stop_on_signals(task: asyncio.Task[Any], seconds: float = STOP_SECONDS) -> None:
    """From now on, SIGINT and SIGTERM cancel ``task`` (a task of the running loop: the bot's main one)
    and end the process ``seconds`` later if it is still running. Must be called in the main thread."""
    loop = task.get_loop()
    watchdog: list[threading.Thread] = []

    def on_signal(number: int, frame: FrameType | None) -> None:
        if not watchdog:
            logger.info("%s: stopping", signal.Signals(number).name)
            watchdog.append(threading.Thread(target=_exit_after, args=(seconds,), daemon=True))
            watchdog[0].start()
        with contextlib.suppress(RuntimeError):  # the loop is closed: the process is ending anyway
            loop.call_soon_threadsafe(task.cancel)

    for number in SIGNALS:
        signal.signal(number, on_signal)


def _exit_after(seconds: float) -> None:
    """End the process after ``seconds`` (unless it ended before), saying so."""
    time.sleep(seconds)
    logger.warning("the bot did not stop within %.1f s of the signal: exiting now", seconds)
    sys.stderr.flush()
    os._exit(0)
