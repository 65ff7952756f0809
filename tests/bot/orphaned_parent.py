"""A parent of the bot's child processes, for ``test_orphaned_children.py``: it starts the drawing process
and two AI workers, gives each something to do, and stops reading their answers (its event loop is
blocked), so that when it is killed the drawing process and one worker have an answer it never read
(their next read of the pipe fails with ``ConnectionResetError``) and the other worker is still busy
(its answer then fails with ``BrokenPipeError``).

``python orphaned_parent.py CACHE_DIR`` prints ``ready PID PID PID`` (its children) and sleeps until
killed.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import sys
import time

from bot.host.ai.executor import AiExecutor, WorkerConfig
from bot.host.drawing import DRAWING

NO_GAME = "none"
"""The kind the calls name: the workers load no game (none is registered here)."""


def drawn_pid(seconds: float) -> bytes:
    """The drawing process's id as an image's bytes, after ``seconds``."""
    time.sleep(seconds)
    return str(os.getpid()).encode()


def worker_pid(resources: object, seconds: float) -> int:
    """The AI worker's process id, after ``seconds`` (no game's resources needed)."""
    time.sleep(seconds)
    return os.getpid()


async def main(cache_dir: str) -> None:
    DRAWING.use_process()
    async with AiExecutor(WorkerConfig(cache_dir=cache_dir), workers=2) as executor:
        await DRAWING.draw(drawn_pid, 0.0)
        _requests = [
            asyncio.create_task(DRAWING.draw(drawn_pid, 0.5)),
            asyncio.create_task(executor.call(NO_GAME, worker_pid, 0.5, timeout=60, quick=True)),
            asyncio.create_task(executor.call(NO_GAME, worker_pid, 3.0, timeout=60)),
        ]
        await asyncio.sleep(0.1)  # every request sent
        time.sleep(1.5)  # the quick answers arrive and are never read: the loop is blocked from here
        children = " ".join(str(child.pid) for child in multiprocessing.active_children())
        print(f"ready {children}", flush=True)
        time.sleep(600)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
