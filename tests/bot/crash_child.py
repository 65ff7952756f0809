"""A game service in a process of its own, for the crash tests of ``test_faults.py``: it opens the
database given as its argument, plays Alice's move in the started game of ``service_fakes.CHANNEL``
(with ``--start``: Alice starts the game in its lobby), and hangs in the announcement (its notifier says
``announcing`` and never returns), so the parent can kill it after the commit and before anything was
announced.

``python crash_child.py [--start] DATABASE``; ``python crash_child.py --hold DATABASE`` only opens the
store, says ``open`` and waits to be killed (for the one-writer lock tests).
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from service_fakes import (
    ALICE,
    CHANNEL,
    AnyWord,
    Harness,
    RecordingNotifier,
    find_play,
    make_config,
    typed,
)

from bot.games import register_builtin
from bot.host.messages import Message
from bot.host.store import Store


class HangingNotifier(RecordingNotifier):
    """A notifier whose first post once ``armed`` never returns: a process stuck (or killed) while
    announcing."""

    armed = False

    async def post(self, channel_id: int, message: Message) -> None:
        if not self.armed:
            return await super().post(channel_id, message)
        print("announcing", flush=True)
        await asyncio.Event().wait()


def hanging_harness(path: Path) -> tuple[Harness, HangingNotifier]:
    notifier = HangingNotifier()
    return Harness(path, make_config(), AnyWord(), notifier=notifier), notifier


async def start_and_hang(path: Path) -> None:
    harness, notifier = hanging_harness(path)
    await harness.open()
    notifier.armed = True
    await harness.svc.start_game(CHANNEL, ALICE.id)
    await harness.svc.idle()  # the announcement goes out behind the answer


async def play_and_hang(path: Path) -> None:
    harness, notifier = hanging_harness(path)
    await harness.open()
    play = find_play(harness.svc.game(CHANNEL), 0)
    assert play is not None
    notifier.armed = True
    await harness.svc.play(CHANNEL, ALICE.id, typed(play))
    await harness.svc.idle()  # the announcement goes out behind the answer


async def hold(path: Path) -> None:
    await Store.open(path)
    print("open", flush=True)
    await asyncio.Event().wait()


if __name__ == "__main__":
    register_builtin()  # the built-in games, as the command line registers them
    if sys.argv[1] == "--hold":
        asyncio.run(hold(Path(sys.argv[2])))
    elif sys.argv[1] == "--start":
        asyncio.run(start_and_hang(Path(sys.argv[2])))
    else:
        asyncio.run(play_and_hang(Path(sys.argv[1])))
