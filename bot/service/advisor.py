"""The :class:`~bot.service.protocols.Advisor` of the bot: hints from the move generator."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

from bot.ai_executor import AiExecutor
from bot.service.protocols import Suggestion
from scrabble_core.ai import SeatView, seat_view
from scrabble_core.board import Board
from scrabble_core.game import Game
from scrabble_core.hints import hints
from scrabble_core.movegen import MoveGenerator
from scrabble_core.notation import player_notation

logger = logging.getLogger(__name__)

RawSuggestion = tuple[str, int, str]
"""A suggestion as plain data: the play as a player types it, its score, the tiles kept."""


def suggestions(board: Board, rack: str, generator: MoveGenerator, limit: int) -> list[RawSuggestion]:
    """At most ``limit`` plays of ``rack`` on ``board``, best first (:func:`scrabble_core.hints.hints`)."""
    found = hints(board, rack, generator, limit)
    return [(player_notation(hint.play), hint.score, hint.leave) for hint in found.moves]


def view_suggestions(generator: MoveGenerator, view: dict[str, Any], limit: int) -> list[RawSuggestion]:
    """:func:`suggestions` for the seat of ``view`` (a :meth:`SeatView.to_dict`): what an AI worker
    computes (:meth:`bot.ai_executor.AiExecutor.call`)."""
    seat = SeatView.from_dict(view)
    return suggestions(seat.board, seat.rack, generator, limit)


class GeneratorAdvisor:
    """Suggests the highest-scoring plays, computed in the AI worker processes when ``executor`` is
    given (within ``timeout`` seconds), so that move generation never holds this process's GIL; in a
    worker thread of this process with ``generator`` otherwise, or when the workers fail."""

    def __init__(
        self, generator: MoveGenerator, executor: AiExecutor | None = None, timeout: float = 10.0
    ) -> None:
        """Advise with ``generator`` (built once for the bot's lexicon) or ``executor``'s workers (which
        load the same lexicon)."""
        self._generator = generator
        self._executor = executor
        self._timeout = timeout

    async def top_moves(self, game: Game, seat: int, limit: int) -> Sequence[Suggestion]:
        """At most ``limit`` plays of ``seat``'s rack, best first, written as a player types them."""
        if self._executor is not None:
            view = seat_view(game, seat).to_dict()
            try:
                found = await self._executor.call(view_suggestions, view, limit, timeout=self._timeout)
                return [Suggestion(*suggestion) for suggestion in found]
            except (TimeoutError, RuntimeError) as error:
                reason = str(error) or type(error).__name__
                logger.warning("hint not computed by the AI workers (%s): computing it here", reason)
        rack = game.players[seat].rack
        found = await asyncio.to_thread(suggestions, game.board, rack, self._generator, limit)
        return [Suggestion(*suggestion) for suggestion in found]
