"""The :class:`~bot.service.protocols.Advisor` of the bot: hints from the move generator."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from bot.service.protocols import Suggestion
from scrabble_core.game import Game
from scrabble_core.hints import hints
from scrabble_core.movegen import MoveGenerator
from scrabble_core.notation import player_notation


class GeneratorAdvisor:
    """Suggests the highest-scoring plays (:func:`scrabble_core.hints.hints`), computed in a worker
    thread so the event loop does not stall."""

    def __init__(self, generator: MoveGenerator) -> None:
        """Advise with ``generator`` (built once for the bot's lexicon)."""
        self._generator = generator

    async def top_moves(self, game: Game, seat: int, limit: int) -> Sequence[Suggestion]:
        """At most ``limit`` plays of ``seat``'s rack, best first, written as a player types them."""
        found = await asyncio.to_thread(hints, game.board, game.players[seat].rack, self._generator, limit)
        return [Suggestion(player_notation(hint.play), hint.score, hint.leave) for hint in found.moves]
