"""The :class:`~bot.games.scrabble.protocols.Advisor` of the bot: hints from the move generator, led by the
expert's choice when hints are expert-evaluated."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Sequence
from typing import Any

from bot.games.scrabble.kind import KIND
from bot.games.scrabble.protocols import Suggestion
from bot.host.ai.executor import AiExecutor
from scrabble_core.ai import DEFAULT_BUDGET, Level, SeatView, choose_move, default_leave_model, seat_view
from scrabble_core.board import Board
from scrabble_core.game import Game
from scrabble_core.hints import hints
from scrabble_core.move import Exchange, Move, Pass
from scrabble_core.movegen import MoveGenerator
from scrabble_core.scoring import score_placements
from scrabble_core.validation import remove_tiles

logger = logging.getLogger(__name__)

RawSuggestion = tuple[str, int, str]
"""A suggestion as plain data: the move in engine notation (``8H QU.Z``, ``-AB``, ``-``), its score, the
tiles kept."""


def suggestions(board: Board, rack: str, generator: MoveGenerator, limit: int) -> list[RawSuggestion]:
    """At most ``limit`` plays of ``rack`` on ``board``, best first (:func:`scrabble_core.hints.hints`)."""
    found = hints(board, rack, generator, limit)
    return [(hint.play.record_text(board.variant.infinite), hint.score, hint.leave) for hint in found.moves]


def view_suggestions(generator: MoveGenerator, view: dict[str, Any], limit: int) -> list[RawSuggestion]:
    """:func:`suggestions` for the seat of ``view`` (a :meth:`SeatView.to_dict`): what an AI worker
    computes (:meth:`bot.host.ai.executor.AiExecutor.call`)."""
    seat = SeatView.from_dict(view)
    return suggestions(seat.board, seat.rack, generator, limit)


def expert_suggestions(
    generator: MoveGenerator, view: dict[str, Any], limit: int, seconds: float | None, seed: int
) -> list[RawSuggestion]:
    """The ``expert`` level's move for the seat of ``view`` first (searching ``seconds``, or the fixed
    :data:`~scrabble_core.ai.DEFAULT_BUDGET` when ``None``; its random draws seeded by ``seed``), then
    the highest-scoring plays other than it: ``limit`` suggestions at most. An exchange or a pass is
    suggested for 0 points."""
    seat = SeatView.from_dict(view)
    deadline = None if seconds is None else time.monotonic() + seconds
    move = choose_move(
        seat,
        generator,
        Level.EXPERT,
        random.Random(seed),
        deadline,
        leaves=default_leave_model(),
        budget=DEFAULT_BUDGET,
    )
    first = _suggestion(seat, move)
    rest = suggestions(seat.board, seat.rack, generator, limit)
    return [first, *(suggestion for suggestion in rest if suggestion[0] != first[0])][:limit]


def _suggestion(seat: SeatView, move: Move) -> RawSuggestion:
    """``move`` of the seat as a suggestion."""
    if isinstance(move, Pass | Exchange):
        return (move.gcg(), 0, _kept(seat.rack, move.rack_tiles()))
    score = score_placements(seat.board, move.placements(), move.across).total
    return (move.record_text(seat.board.variant.infinite), score, _kept(seat.rack, move.rack_tiles()))


def _kept(rack: str, tiles: str) -> str:
    """The tiles of ``rack`` left after ``tiles``, as hints write a leave: letters sorted, blanks last."""
    return "".join(sorted(remove_tiles(rack, tiles), key=lambda tile: (tile == "?", tile)))


class GeneratorAdvisor:
    """Suggests the highest-scoring plays, computed in the AI worker processes when ``executor`` is
    given (within ``timeout`` seconds), so that move generation never holds this process's GIL; in a
    worker thread of this process with ``generator`` otherwise, or when the workers fail. With
    ``expert_seconds`` (and ``executor``), the expert's choice, searched that long in a worker, leads."""

    def __init__(
        self,
        generator: MoveGenerator,
        executor: AiExecutor | None = None,
        timeout: float = 10.0,
        expert_seconds: float | None = None,
    ) -> None:
        """Advise with ``generator`` (built once for the bot's lexicon) or ``executor``'s workers (which
        load the same lexicon)."""
        self._generator = generator
        self._executor = executor
        self._timeout = timeout
        self._expert_seconds = expert_seconds

    async def top_moves(self, game: Game, seat: int, limit: int) -> Sequence[Suggestion]:
        """At most ``limit`` plays of ``seat``'s rack, best first, in engine notation."""
        if self._executor is not None:
            view = seat_view(game, seat).to_dict()
            try:
                if self._expert_seconds is None:
                    found = await self._executor.call(
                        KIND, view_suggestions, view, limit, timeout=self._timeout, quick=True
                    )
                else:
                    found = await self._executor.call(
                        KIND,
                        expert_suggestions,
                        view,
                        limit,
                        self._expert_seconds,
                        len(game.history),
                        timeout=self._timeout,
                    )
                return [Suggestion(*suggestion) for suggestion in found]
            except (TimeoutError, RuntimeError) as error:
                reason = str(error) or type(error).__name__
                logger.warning("hint not computed by the AI workers (%s): computing it here", reason)
        rack = game.players[seat].rack
        found = await asyncio.to_thread(suggestions, game.board, rack, self._generator, limit)
        return [Suggestion(*suggestion) for suggestion in found]
