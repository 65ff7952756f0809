"""The host's background tasks, :class:`Tasks`: each channel's turn timer and AI turn, and the work
tasks a timer hands its action to. It starts, cancels and waits for them; what they do is the
runner's (:mod:`bot.host.runner`)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

from bot.host.protocols import Clock


class Tasks:
    """The running turn timers and AI turns by channel, and the timers' work tasks. A task never
    cancels itself: stopping the task that is running is left to its end."""

    def __init__(self) -> None:
        """No task yet."""
        self._timers: dict[int, asyncio.Task[None]] = {}
        self._ai_turns: dict[int, asyncio.Task[None]] = {}
        self._work: set[asyncio.Task[None]] = set()

    def arm_timer(
        self,
        channel_id: int,
        clock: Clock,
        at: float,
        action: Callable[[], Coroutine[Any, Any, None]],
    ) -> None:
        """Arm the channel's turn timer (after :meth:`cancel_timer`): at ``at`` by ``clock``, run
        ``action()`` as a work task. If that time has come the work task starts here, so that
        :meth:`idle` waits for it from this moment on."""
        if at <= clock.now():
            self.spawn(action())
            return

        async def timer() -> None:
            await clock.sleep(at - clock.now())
            self.spawn(action())

        self._timers[channel_id] = asyncio.create_task(timer())

    def cancel_timer(self, channel_id: int) -> None:
        """Cancel the channel's turn timer, if any."""
        timer = self._timers.pop(channel_id, None)
        if timer is not None and timer is not asyncio.current_task():
            timer.cancel()

    def may_start_ai_turn(self, channel_id: int) -> bool:
        """Whether a new AI turn may start in the channel: none runs, or it is the running one asking."""
        running = self._ai_turns.get(channel_id)
        return running is None or running is asyncio.current_task()

    def ai_turn(self, channel_id: int) -> asyncio.Task[None] | None:
        """The channel's running AI turn, if any."""
        return self._ai_turns.get(channel_id)

    def start_ai_turn(self, channel_id: int, turn: Coroutine[Any, Any, None]) -> None:
        """Run ``turn`` as the channel's AI turn."""
        self._ai_turns[channel_id] = asyncio.create_task(turn)

    def ai_turn_done(self, channel_id: int) -> None:
        """Called by an AI turn as it ends: forget it, unless another has replaced it."""
        if self._ai_turns.get(channel_id) is asyncio.current_task():
            del self._ai_turns[channel_id]

    def stop(self, channel_id: int) -> None:
        """Stop the timer and AI turn of a game that closed."""
        self.cancel_timer(channel_id)
        ai_turn = self._ai_turns.pop(channel_id, None)
        if ai_turn is not None and ai_turn is not asyncio.current_task():
            ai_turn.cancel()

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` (a timer's action) as a task apart from the timer."""
        task = asyncio.create_task(work)
        self._work.add(task)
        task.add_done_callback(self._work.discard)

    async def close(self) -> None:
        """Cancel every task and wait for them to end."""
        tasks = [*self._timers.values(), *self._ai_turns.values(), *self._work]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._timers.clear()
        self._ai_turns.clear()
        self._work.clear()

    async def work_done(self) -> None:
        """Wait until no work task (a timer's action) is running, those started meanwhile included."""
        while work := list(self._work):
            await asyncio.wait(work)  # cancelling the wait cancels no work

    async def idle(self) -> None:
        """Wait until no AI turn or work task is running (timers waiting for their time are not waited
        for)."""
        while busy := [*self._ai_turns.values(), *self._work]:
            await asyncio.gather(*busy, return_exceptions=True)


def outcome_seen(future: asyncio.Future[Any]) -> None:
    """A done callback marking the outcome of a future nobody may await any more as seen (asyncio would
    log its error as never retrieved); whoever awaits it still gets the error."""
    if not future.cancelled():
        future.exception()
