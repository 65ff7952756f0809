"""Scrabble's AI turns in the host's AI workers: the seat's view goes out as a job
(:mod:`bot.games.scrabble.worker` answers it), the move comes back in GCG notation. When no answer comes
in time, a quick fallback is played here instead: the greedy move in the bot's own worker pool
(:class:`ScrabblePool`), the static ``hard`` move with the PostgreSQL queue (:class:`ScrabbleQueue`).

The AI sees only its seat's view of the game (:func:`~scrabble_core.ai.seat_view`)."""

from __future__ import annotations

import asyncio
import logging
import random
import threading
from typing import Final

from bot.games.scrabble.kind import KIND
from bot.games.scrabble.worker import load_move_source, view_job
from bot.host.ai.executor import AiExecutor, WorkerLostError
from bot.host.ai.jobs import JobRequest
from bot.host.ai.queue import AiJobQueue
from scrabble_core.ai import Level, MoveSource, SeatView, choose_move, seat_view
from scrabble_core.game import Game
from scrabble_core.move import Move, Pass, move_from_gcg

logger = logging.getLogger("bot.games.scrabble")

QUEUE_FALLBACK: Final = Level.HARD
"""The level of the queue's fallback move (the pool's is greedy, within its grace)."""


class ScrabblePool:
    """Scrabble's moves in the bot's AI worker pool ``executor``; ``generator`` (this process's, by
    default loaded when first needed, as the workers load theirs) finds the greedy fallback when a
    worker misses the turn's timeout (within the pool's grace; else a pass)."""

    def __init__(self, executor: AiExecutor, generator: MoveSource | None = None) -> None:
        self.executor = executor
        self._generator = generator
        self._loading = threading.Lock()

    async def choose(
        self,
        view: SeatView,
        level: Level,
        seed: int,
        timeout: float,
        *,
        think: float | None = None,
        debug_delay: float = 0.0,
    ) -> Move:
        """The move ``level`` makes for ``view``, computed in a worker that searches ``think`` seconds
        (by default ``timeout``; never more).

        Never raises for a slow or broken worker: past ``timeout + grace`` (waiting for a free worker
        included) the worker is replaced and the greedy fallback move is returned instead.
        ``debug_delay`` makes the worker sleep first: a hook for tests of that path.
        """
        try:
            text = await self.executor.ask(
                KIND,
                view_job(view, level, seed),
                timeout,
                think=think,
                quick=level is not Level.EXPERT,
                delay=debug_delay,
            )
        except TimeoutError:
            logger.warning("no free AI worker within %.1f s: fallback move", timeout)
            return await self._fallback(view)
        except WorkerLostError as error:
            logger.warning("AI worker failed (%s): replacing it, fallback move", error)
            return await self._fallback(view)
        except RuntimeError as error:
            logger.error("AI worker error: %s; fallback move", error)
            return await self._fallback(view)
        return move_from_gcg(text)

    async def _fallback(self, view: SeatView) -> Move:
        """The greedy move for ``view``, computed in a thread here; a pass if that takes over the
        pool's grace or fails."""
        try:
            return await asyncio.wait_for(asyncio.to_thread(self._greedy, view), self.executor.grace)
        except TimeoutError:
            logger.warning("fallback move too slow: passing")
        except Exception:  # a broken view must not leave the game without a move
            logger.exception("fallback move failed: passing")
        return Pass()

    def _greedy(self, view: SeatView) -> Move:
        """The greedy move; the lock makes the first calls load the generator only once."""
        with self._loading:
            if self._generator is None:
                self._generator = load_move_source(self.executor.config)
            generator = self._generator
        return choose_move(view, generator, Level.GREEDY, random.Random(0))


class SeatAi:
    """An :class:`~bot.games.scrabble.protocols.AiPlayer` that asks for each turn's move with ``timeout``
    seconds, the AI seeing only its seat's view of the game. ``expert`` searches ``expert_seconds`` of
    them (by default all), the other levels play as soon as they have their move. Where the move is
    computed is its subclass's :meth:`_move`."""

    def __init__(self, timeout: float, expert_seconds: float | None = None) -> None:
        self.timeout = timeout
        self.expert_seconds = expert_seconds

    async def choose(self, game: Game, seat: int, level: str, seed: int) -> Move:
        """The move of ``seat`` at ``level`` (``easy``, ``medium``, ``hard``, ``greedy`` or ``expert``).

        Raises:
            ValueError: an unknown level.
        """
        chosen = Level(level)
        think = self.expert_seconds if chosen is Level.EXPERT else None
        return await self._move(seat_view(game, seat), chosen, seed, len(game.history), think)

    async def _move(
        self, view: SeatView, level: Level, seed: int, move_number: int, think: float | None
    ) -> Move:
        raise NotImplementedError


class ExecutorAiPlayer(SeatAi):
    """The AI of the bot's own worker pool: each turn goes to ``pool``."""

    def __init__(self, pool: ScrabblePool, timeout: float, expert_seconds: float | None = None) -> None:
        super().__init__(timeout, expert_seconds)
        self.pool = pool

    async def _move(
        self, view: SeatView, level: Level, seed: int, move_number: int, think: float | None
    ) -> Move:
        return await self.pool.choose(view, level, seed, self.timeout, think=think)


class ScrabbleQueue:
    """Scrabble's moves as jobs of the PostgreSQL ``queue``; ``generator`` (this process's) finds the
    static ``hard`` fallback when no worker answers in time. :attr:`fallbacks` counts them."""

    def __init__(self, queue: AiJobQueue, generator: MoveSource) -> None:
        self.queue = queue
        self._generator = generator
        self.fallbacks = 0

    async def choose(
        self,
        view: SeatView,
        level: Level,
        seed: int,
        timeout: float,
        move_number: int,
        *,
        think: float | None = None,
        delay: float = 0.0,
    ) -> Move:
        """The move ``level`` makes for ``view`` (turn ``move_number`` of its game), from a worker
        that searches ``think`` seconds (by default ``timeout``; never more), if one answers within
        ``timeout + grace``; else the fallback (the static ``hard`` move), the job being abandoned so
        that a late answer is discarded. ``delay`` makes the worker sleep first (a hook for tests).

        Never raises for a missing, slow or dying worker, nor for a lost database connection.
        """
        search = timeout if think is None else min(think, timeout)
        request = JobRequest(KIND, view_job(view, level, seed), search, delay)
        lease = delay + (search if level is Level.EXPERT else 0.0) + self.queue.lease_grace
        answer = await self.queue.ask(request, timeout, move_number, lease)
        if answer is not None:
            try:
                return move_from_gcg(answer)
            except ValueError:
                logger.error("AI worker answered %r: fallback move", answer)
        return await self._fallback(view, seed)

    async def _fallback(self, view: SeatView, seed: int) -> Move:
        """The static ``hard`` move for ``view``, computed in a thread here; a pass if it fails."""
        self.fallbacks += 1
        try:
            return await asyncio.to_thread(
                choose_move, view, self._generator, QUEUE_FALLBACK, random.Random(seed)
            )
        except Exception:  # a broken view must not leave the game without a move
            logger.exception("fallback move failed: passing")
            return Pass()


class QueueAiPlayer(SeatAi):
    """The AI of a bot on PostgreSQL with ``ai.queue = "postgresql"``: each turn is a job of ``queue``."""

    def __init__(self, queue: ScrabbleQueue, timeout: float, expert_seconds: float | None = None) -> None:
        super().__init__(timeout, expert_seconds)
        self.queue = queue

    async def _move(
        self, view: SeatView, level: Level, seed: int, move_number: int, think: float | None
    ) -> Move:
        return await self.queue.choose(view, level, seed, self.timeout, move_number, think=think)
