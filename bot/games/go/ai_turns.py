"""Go's AI turns in the host (:class:`~bot.games.go.protocols.GoAi`), off the event loop: in the AI
worker pool (:class:`PoolGoAi`: a job of :mod:`bot.host.ai.jobs`, answered by :mod:`bot.games.go.worker`,
with the turn timeout), as a job of the PostgreSQL queue (:class:`QueueGoAi`), or in a thread of this
process (:class:`ThreadGoAi`: the fallback, and for tests and the console). All run
:func:`bot.games.go.engines.make_ai`: GNU Go when it is installed, the built-in AI otherwise.

In the pool a move is searched in shares, one on each idle worker (:mod:`bot.host.ai.jobs`): the built-in
AI's root-parallel search (:func:`share_text`, each share its own seed and a part of the level's playouts,
added up by :func:`merged_move_text`); GNU Go does not split, so its move is share 0's alone."""

from __future__ import annotations

import asyncio
import json
import logging
import random
import time
from collections.abc import Sequence
from typing import Any, Final

from bot.games.go.engines import RESIGN, AIMove, Engine, GnuGoAI, Level, find_gnugo, make_ai, playing
from bot.games.go.kind import KIND
from bot.games.go.protocols import GoAi
from bot.host.ai import jobs
from bot.host.ai.executor import AiExecutor, WorkerLostError
from bot.host.ai.jobs import JobRequest
from bot.host.ai.queue import AiJobQueue
from go_core import Game, GoError, Point, format_move, parse_move
from go_core.ai import (
    LEVEL_PLAYOUTS,
    STATUS_BUDGET,
    Budget,
    SearchShare,
    decide,
    merge_shares,
    opponent_passed,
    search_share,
    share_statuses,
    status_share,
)
from go_core.prng import seed_from

logger = logging.getLogger("bot.games.go")

FALLBACK_SECONDS: Final = 0.2
"""The built-in AI's thinking time when the pool fails to answer."""
THINKING_SHARE: Final = 0.8
"""The share of the turn timeout the AI in the pool thinks for: GNU Go's own fallback (a tenth of its
time) must still answer within the timeout."""
BUILTIN: Final = "the built-in AI"


def move_job(game: Game, level: Level, engine: Engine, seed: int) -> dict[str, Any]:
    """The data of the job that asks for ``level``'s move in ``game`` (see :mod:`bot.games.go.worker`)."""
    return {"state": game.to_dict(), "level": level.value, "engine": engine, "seed": seed}


def choose_move_text(state: dict[str, Any], level: str, engine: Engine, seed: int, seconds: float) -> str:
    """The AI's move in the stored game ``state``: a point (``D4``), ``pass`` or ``resign``."""
    game = Game.from_dict(state)
    ai = make_ai(Level(level), engine=engine, seed=seed, seconds=seconds)
    try:
        move = ai.choose(game)
    finally:
        ai.close()
    return RESIGN if move == RESIGN else format_move(move)


def share_rng(seed: int, index: int) -> random.Random:
    """The randomness of share ``index`` of the move seeded ``seed``: its search's seed is the first
    :func:`go_core.prng.seed_from` it gives, its count's (after the opponent's pass) the second."""
    return random.Random(f"{seed}:{index}")


def share_text(
    state: dict[str, Any], level: str, engine: Engine, seed: int, seconds: float, index: int, count: int
) -> str:
    """Share ``index`` of ``count`` of the AI's move in the stored game ``state``, as JSON for
    :func:`merged_move_text`: the built-in AI's root statistics (``search``: a
    :class:`go_core.ai.SearchShare` seeded by :func:`share_rng`) after ``seconds`` or ``1 / count`` of
    the level's playouts, whichever comes first, and after the opponent's pass the playouts that count
    the board (``status``: :func:`go_core.ai.status_share`, in the time left, as
    :meth:`go_core.ai.Thinker.choose` counts it); at the ``hard`` level (its budget is the time: the
    others' are playouts, which an early end would cut) a share other than share 0 ends early when
    :func:`bot.host.ai.jobs.interrupted` says so; with GNU Go (``engine`` ``gnugo``, or ``auto`` when it
    is installed), the whole move (``move``) from share 0 and nothing from the others.

    Raises:
        GoError, KeyError, ValueError: ``state`` or ``level`` is not a game's; FileNotFoundError: GNU Go
            is asked for and not installed.
    """
    if engine == "gnugo" or (engine == "auto" and find_gnugo() is not None):
        move = choose_move_text(state, level, engine, seed, seconds) if index == 0 else None
        return json.dumps({"move": move})
    game = playing(Game.from_dict(state))
    rng = share_rng(seed, index)
    started = time.monotonic()
    strength = Level(level)
    playouts = -(-LEVEL_PLAYOUTS[strength.value] // count)
    stop = jobs.interrupted if index and strength is Level.HARD else None
    parts = {"search": search_share(game, seed_from(rng), Budget(seconds, playouts, stop=stop)).to_dict()}
    if opponent_passed(game, game.to_move):
        left = max(seconds - (time.monotonic() - started), 0.0)
        budget = Budget(min(left, STATUS_BUDGET.seconds), -(-STATUS_BUDGET.playouts // count), stop=stop)
        parts["status"] = status_share(game, seed_from(rng), budget).to_dict()
    return json.dumps(parts)


def merged_move_text(state: dict[str, Any], texts: Sequence[str]) -> str:
    """The AI's move in the stored game ``state`` from the :func:`share_text` of some of its shares: GNU
    Go's move, or what :func:`go_core.ai.decide` makes of the built-in AI's searches added up (and of
    their counts' playouts added up, after the opponent's pass).

    Raises:
        ValueError: no share holds a move or a search (GNU Go's share 0 was lost), or the texts are not
            shares'; GoError, KeyError: ``state`` is not a game's.
    """
    parts = [json.loads(text) for text in texts]
    moves = [str(part["move"]) for part in parts if part.get("move") is not None]
    if moves:
        return moves[0]
    searches = [SearchShare.from_dict(part["search"]) for part in parts if "search" in part]
    if not searches:
        raise ValueError("no share of the move searched it")
    game = playing(Game.from_dict(state))
    counts = [SearchShare.from_dict(part["status"]) for part in parts if "status" in part]
    dead = share_statuses(game, merge_shares(counts)).dead if counts else None
    decision = decide(game, merge_shares(searches), dead=dead)
    return RESIGN if decision == RESIGN else format_move(decision)


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


def _in_worker_dead(_resources: object, *args: Any) -> tuple[list[str], str]:
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
        data = move_job(game, level, self.engine, seed)
        try:
            text = await self._executor.ask(
                KIND, data, self.seconds, think=self.seconds * THINKING_SHARE, quick=False
            )
        except (TimeoutError, WorkerLostError, RuntimeError) as error:
            logger.warning("the Go AI in the pool failed (%s): the built-in AI plays this move", error)
            return await self._fallback.choose(game, level, seed)
        return _move(text, game)

    async def dead_stones(self, game: Game) -> tuple[frozenset[Point], str]:
        """See :class:`~bot.games.go.protocols.GoAi`."""
        args = (game.to_dict(), self.engine, self.seconds * THINKING_SHARE)
        try:
            answer = await self._executor.call(KIND, _in_worker_dead, *args, timeout=self.seconds)
        except (TimeoutError, WorkerLostError, RuntimeError) as error:
            logger.warning("the Go AI in the pool failed (%s): the engine proposes the dead stones", error)
            return await self._fallback.dead_stones(game)
        return _points(answer, game)


class QueueGoAi:
    """The :class:`~bot.games.go.protocols.GoAi` of a bot with ``ai.queue = "postgresql"``: each move
    is a job of ``queue`` with the turn timeout ``seconds`` (the AI thinks :data:`THINKING_SHARE` of
    it); without an answer in time, the built-in AI answers here with :data:`FALLBACK_SECONDS`. Dead
    stones are proposed by ``local`` (the bot's own pool: once a game, after two passes)."""

    def __init__(self, queue: AiJobQueue, seconds: float, local: GoAi, engine: Engine = "auto") -> None:
        self.queue = queue
        self.seconds = seconds
        self.engine: Engine = engine
        self._local = local
        self._fallback = ThreadGoAi(FALLBACK_SECONDS, "builtin")

    async def choose(self, game: Game, level: Level, seed: int) -> AIMove:
        """See :class:`~bot.games.go.protocols.GoAi`."""
        think = self.seconds * THINKING_SHARE
        request = JobRequest(KIND, move_job(game, level, self.engine, seed), think)
        answer = await self.queue.ask(request, self.seconds, len(game.moves), think + self.queue.lease_grace)
        if answer is not None:
            try:
                return RESIGN if answer == RESIGN else parse_move(answer, game.size)
            except GoError:
                logger.error("AI worker answered %r for a Go game: the built-in AI plays", answer)
        return await self._fallback.choose(game, level, seed)

    async def dead_stones(self, game: Game) -> tuple[frozenset[Point], str]:
        """See :class:`~bot.games.go.protocols.GoAi`."""
        return await self._local.dead_stones(game)
