"""``/scrabble analyze``: the post-game analysis of a finished game, computed once and stored.

Each turn is analysed in the AI worker pool (:class:`Pool`, the bot's :class:`~bot.host.ai.executor.AiExecutor`),
never on the event loop, one turn per request with :data:`MOVE_TIMEOUT` seconds, while the asker's
message shows the progress. The result is stored (:meth:`bot.host.store.games.Store.save_analysis`), so asking again is
instant and the GCG record of the game carries it as notes (:meth:`ScrabbleCommands.history
<bot.games.scrabble.commands.ScrabbleCommands.history>`).

The analysis runs at the ``expert`` level (:mod:`scrabble_core.analysis`): :data:`ITERATIONS` simulation
iterations per turn, within :data:`MOVE_BUDGET` seconds; turn ``n`` of game ``g`` draws from the seed
``g * 1000 + n``, so the numbers are the same whenever it is computed.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Final, Protocol

from bot.games.scrabble.kind import KIND
from bot.host.errors import NoGameError, ServiceError
from bot.host.features import Feature, require_on
from bot.host.messages import Attachment, Message, shorten
from bot.host.protocols import Clock
from bot.host.store import GameRow, GameStatus, Store
from scrabble_core.ai import Level, MoveSource, default_leave_model
from scrabble_core.analysis import (
    GameAnalysis,
    MoveAnalysis,
    Position,
    analyse_position,
    game_positions,
    report_text,
    summarise,
    summary_text,
    with_words,
)
from scrabble_core.game import Game
from scrabble_core.lexicon import WordList

LEVEL: Final = Level.EXPERT
ITERATIONS: Final = 8
MOVE_BUDGET: Final = 3.0
"""Seconds of simulation a turn may take (the iterations usually finish well before)."""
MOVE_TIMEOUT: Final = 20.0
"""Seconds a worker may take for one turn before the analysis gives up (generation included)."""
MESSAGE_LIMIT: Final = 1900
"""The longest summary shown in the message; a longer one drops its board snippets (the attached report
has everything)."""

Progress = Callable[[str], Awaitable[None]]
"""Shows the asker how far the analysis is (``"Analysing move 12/26…"``)."""

LossChart = Callable[[Sequence[str], Sequence[tuple[int, int, float]]], bytes]
"""Draws the equity lost per turn: players' names and ``(turn, seat, loss)`` (see
:func:`bot.games.scrabble.images.analysis_chart.render_loss_chart`)."""


class Pool(Protocol):
    """Runs pure functions of ``(generator, *args)`` off the event loop (the AI worker pool:
    :meth:`bot.host.ai.executor.AiExecutor.call`)."""

    async def call(self, kind: str, function: Callable[..., Any], *args: Any, timeout: float) -> Any:
        """``function(generator, *args)``'s result, in a worker of the game ``kind`` (Scrabble's). Raises TimeoutError when no worker is free in time,
        RuntimeError when the worker fails or is too slow."""
        ...


class AnalysisError(ServiceError):
    """The analysis cannot be made (no worker pool, or a turn could not be analysed)."""


def analyse_turn(generator: MoveSource, argument: Mapping[str, Any]) -> dict[str, Any]:
    """Analyse one turn in a worker, with the bundled leave model: ``argument`` holds the position
    (:meth:`Position.to_dict`), the level, the seed, the iterations and the budget in seconds; the answer
    is :meth:`MoveAnalysis.to_dict`."""
    position = Position.from_dict(argument["position"])
    deadline = time.monotonic() + argument["budget"]
    return analyse_position(
        position,
        generator,
        default_leave_model(),
        level=Level(argument["level"]),
        seed=argument["seed"],
        iterations=argument["iterations"],
        deadline=deadline,
    ).to_dict()


class AnalysisService:
    """Analyses finished games of a guild, stores them and writes the reports. It needs a :class:`Pool`
    (:meth:`use_pool`); without one an analysis not stored yet is refused."""

    def __init__(self, store: Store, lexicon: WordList, clock: Clock) -> None:
        self._store = store
        self._lexicon = lexicon
        self._clock = clock
        self._pool: Pool | None = None
        self._chart: LossChart | None = None
        self._locks: dict[int, asyncio.Lock] = {}

    def use_pool(self, pool: Pool, chart: LossChart | None = None) -> None:
        """Analyse in ``pool`` from now on, and draw the equity chart with ``chart``."""
        self._pool, self._chart = pool, chart

    async def analyze(
        self,
        guild_id: int,
        channel_id: int,
        game_id: int | None = None,
        *,
        private: bool = True,
        progress: Progress | None = None,
    ) -> Message:
        """The analysis of game ``game_id`` of the guild, or of the last game finished in the channel:
        the stored one, or computed turn by turn (telling ``progress`` before each turn) and stored.
        The message holds each player's summary, the chart of equity lost per turn and the whole report
        as a text file; ``private`` says whether only the asker sees it.

        Raises:
            FeatureOffError: the guild turned analysis off.
            NoGameError: no such finished game in this guild (or none finished in the channel).
            AnalysisError: no worker pool, or a turn could not be analysed (nothing is stored).
        """
        require_on(await self._store.features(guild_id), Feature.ANALYSIS)
        row = await self._finished_game(guild_id, channel_id, game_id)
        lock = self._locks.setdefault(row.id, asyncio.Lock())
        async with lock:
            stored = await self._store.analysis(row.id)
            if stored is not None:
                analysis = await self._worded(row, GameAnalysis.from_dict(stored))
            else:
                analysis = await self._compute(row, progress)
                await self._store.save_analysis(row.id, analysis.level, analysis.to_dict(), self._clock.now())
        return await self._message(row, analysis, private)

    async def _finished_game(self, guild_id: int, channel_id: int, game_id: int | None) -> GameRow:
        if game_id is None:
            row = await self._store.last_finished_game(channel_id, KIND)
            if row is None or row.state is None:
                raise NoGameError("No game has ended in this channel yet: give a game id, or play one first")
            return row
        row = await self._store.game(game_id)
        if (
            row is None
            or row.kind != KIND
            or row.guild_id != guild_id
            or row.status is not GameStatus.FINISHED
            or row.state is None
        ):
            raise NoGameError(f"No finished game {game_id} in this server")
        return row

    async def _worded(self, row: GameRow, analysis: GameAnalysis) -> GameAnalysis:
        """``analysis``, stored for game ``row``, with its moves in words (an analysis stored without
        them gets them from the game's positions)."""
        if all(move.move_words for move in analysis.moves):
            return analysis
        assert row.state is not None  # checked by _finished_game
        game = Game.from_dict(row.state, lexicon=self._lexicon)
        return with_words(analysis, await asyncio.to_thread(game_positions, game))

    async def _compute(self, row: GameRow, progress: Progress | None) -> GameAnalysis:
        pool = self._pool
        if pool is None:
            raise AnalysisError("Game analysis is not available on this bot")
        assert row.state is not None  # checked by _finished_game
        game = Game.from_dict(row.state, lexicon=self._lexicon)
        found = await asyncio.to_thread(game_positions, game)
        moves: list[MoveAnalysis] = []
        for position in found:
            if progress is not None:
                await progress(f"Analysing move {position.number}/{len(found)}…")
            argument = {
                "position": position.to_dict(),
                "level": LEVEL.value,
                "seed": row.id * 1000 + position.number,
                "iterations": ITERATIONS,
                "budget": MOVE_BUDGET,
            }
            try:
                result = await pool.call(KIND, analyse_turn, argument, timeout=MOVE_TIMEOUT)
            except (TimeoutError, RuntimeError) as error:
                raise AnalysisError(
                    f"Move {position.number} could not be analysed ({type(error).__name__}): try again later"
                ) from error
            moves.append(MoveAnalysis.from_dict(result))
        if progress is not None:
            await progress(f"Analysed {len(found)} moves.")
        return summarise([player.name for player in game.players], moves, LEVEL.value)

    async def _message(self, row: GameRow, analysis: GameAnalysis, private: bool) -> Message:
        names = " vs ".join(player.name for player in analysis.players)
        heading = f"Analysis of game {row.id} ({names}) at the {analysis.level} level:"
        summary = summary_text(analysis)
        if len(summary) > MESSAGE_LIMIT:
            summary = shorten(summary_text(_without_snippets(analysis)), MESSAGE_LIMIT)
        files = [Attachment(f"analysis-{row.id}.txt", report_text(analysis).encode())]
        if self._chart is not None:
            losses = [(move.number, move.seat, move.loss) for move in analysis.moves]
            image = await asyncio.to_thread(self._chart, [p.name for p in analysis.players], losses)
            files.insert(0, Attachment(f"analysis-{row.id}.png", image))
        return Message(f"{heading}\n```\n{summary}\n```", tuple(files), private=private)


def _without_snippets(analysis: GameAnalysis) -> GameAnalysis:
    """``analysis`` without the board snippets (for a message that must stay short)."""
    moves = [MoveAnalysis.from_dict({**move.to_dict(), "snippet": ""}) for move in analysis.moves]
    return summarise([player.name for player in analysis.players], moves, analysis.level)
