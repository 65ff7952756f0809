"""The Go AI of the service (:class:`~bot.games.go.protocols.GoAi`), off the event loop: in the AI
worker pool (:class:`PoolGoAi`, through :meth:`bot.host.ai.executor.AiExecutor.call`, with the turn timeout),
or in a thread of this process (:class:`ThreadGoAi`: the fallback, and for tests and the console). Both
run :func:`bot.games.go.engines.make_ai`: GNU Go when it is installed, the built-in AI otherwise."""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Final

from bot.games.go.engines import RESIGN, AIMove, Engine, GnuGoAI, Level, make_ai
from bot.host.ai.executor import AiExecutor, WorkerLostError
from go_core import Game, Point, format_move, parse_move

logger = logging.getLogger("bot.games.go")

FALLBACK_SECONDS: Final = 0.2
"""The built-in AI's thinking time when the pool fails to answer."""
THINKING_SHARE: Final = 0.8
"""The share of the turn timeout the AI in the pool thinks for: GNU Go's own fallback (a tenth of its
time) must still answer within the timeout."""
BUILTIN: Final = "the built-in AI"


def choose_move_text(state: dict[str, Any], level: str, engine: Engine, seed: int, seconds: float) -> str:
    """The AI's move in the stored game ``state``: a point (``D4``), ``pass`` or ``resign``."""
    game = Game.from_dict(state)
    ai = make_ai(Level(level), engine=engine, seed=seed, seconds=seconds)
    try:
        move = ai.choose(game)
    finally:
        ai.close()
    return RESIGN if move == RESIGN else format_move(move)


def dead_stone_texts(state: dict[str, Any], engine: Engine, seconds: float) -> tuple[list[str], str]:
    """The stones the AI takes to be dead in the stored game ``state``, as points (sorted), and who
    proposes them: ``GNU Go`` or ``the built-in AI``."""
    game = Game.from_dict(state)
    ai = make_ai(Level.MEDIUM, engine=engine, seconds=seconds)
    proposer = "GNU Go" if isinstance(ai, GnuGoAI) else BUILTIN
    try:
        return sorted(str(point) for point in ai.dead_stones(game)), proposer
    finally:
        ai.close()


def _in_worker_choose(_generator: object, *args: Any) -> str:
    """:func:`choose_move_text` as an :meth:`AiExecutor.call` function (the worker's generator unused)."""
    return choose_move_text(*args)


def _in_worker_dead(_generator: object, *args: Any) -> tuple[list[str], str]:
    """:func:`dead_stone_texts` as an :meth:`AiExecutor.call` function."""
    return dead_stone_texts(*args)


def _move(text: str, game: Game) -> AIMove:
    return RESIGN if text == RESIGN else parse_move(text, game.size)


def _points(answer: tuple[list[str], str], game: Game) -> tuple[frozenset[Point], str]:
    texts, proposer = answer
    return frozenset(game.parse_point(text) for text in texts), proposer


class ThreadGoAi:
    """The AI in a thread of this process, with ``seconds`` a move (the built-in AI returns its best
    move at its deadline; GNU Go is killed past it and the built-in AI plays)."""

    def __init__(self, seconds: float, engine: Engine = "auto") -> None:
        self.seconds = seconds
        self.engine: Engine = engine

    async def choose(self, game: Game, level: Level, seed: int) -> AIMove:
        """See :class:`~bot.games.go.protocols.GoAi`; a failure passes."""
        args = (game.to_dict(), level.value, self.engine, seed, self.seconds)
        try:
            return _move(await asyncio.to_thread(choose_move_text, *args), game)
        except Exception:
            logger.exception("the Go AI failed: it passes")
            return None

    async def dead_stones(self, game: Game) -> tuple[frozenset[Point], str]:
        """See :class:`~bot.games.go.protocols.GoAi`; a failure proposes none."""
        try:
            answer = await asyncio.to_thread(dead_stone_texts, game.to_dict(), self.engine, self.seconds)
        except Exception:
            logger.exception("the Go AI could not propose dead stones")
            return frozenset(), BUILTIN
        return _points(answer, game)


class PoolGoAi:
    """The AI in the AI worker pool, with the turn timeout ``seconds``; when the pool does not answer in
    time (or fails), the built-in AI answers in a thread with :data:`FALLBACK_SECONDS`."""

    def __init__(self, executor: AiExecutor, seconds: float, engine: Engine = "auto") -> None:
        self._executor = executor
        self.seconds = seconds
        self.engine: Engine = engine
        self._fallback = ThreadGoAi(FALLBACK_SECONDS, "builtin")

    async def choose(self, game: Game, level: Level, seed: int) -> AIMove:
        """See :class:`~bot.games.go.protocols.GoAi`."""
        args = (game.to_dict(), level.value, self.engine, seed, self.seconds * THINKING_SHARE)
        try:
            text = await self._executor.call(_in_worker_choose, *args, timeout=self.seconds)
        except (TimeoutError, WorkerLostError, RuntimeError) as error:
            logger.warning("the Go AI in the pool failed (%s): the built-in AI plays this move", error)
            return await self._fallback.choose(game, level, seed)
        return _move(text, game)

    async def dead_stones(self, game: Game) -> tuple[frozenset[Point], str]:
        """See :class:`~bot.games.go.protocols.GoAi`."""
        args = (game.to_dict(), self.engine, self.seconds * THINKING_SHARE)
        try:
            answer = await self._executor.call(_in_worker_dead, *args, timeout=self.seconds)
        except (TimeoutError, WorkerLostError, RuntimeError) as error:
            logger.warning("the Go AI in the pool failed (%s): the engine proposes the dead stones", error)
            return await self._fallback.dead_stones(game)
        return _points(answer, game)
