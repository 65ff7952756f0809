"""The :class:`~bot.service.protocols.Advisor` of the bot: hints from the move generator."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from bot.service.protocols import Suggestion
from scrabble_core.game import Game
from scrabble_core.hints import hints
from scrabble_core.move import PLAYED_THROUGH, Play
from scrabble_core.movegen import MoveGenerator


class GeneratorAdvisor:
    """Suggests the highest-scoring plays (:func:`scrabble_core.hints.hints`), computed in a worker
    thread so the event loop does not stall."""

    def __init__(self, generator: MoveGenerator) -> None:
        """Advise with ``generator`` (built once for the bot's lexicon)."""
        self._generator = generator

    async def top_moves(self, game: Game, seat: int, limit: int) -> Sequence[Suggestion]:
        """At most ``limit`` plays of ``seat``'s rack, best first, written as a player types them."""
        found = await asyncio.to_thread(hints, game.board, game.players[seat].rack, self._generator, limit)
        return [Suggestion(typed_play(hint.play), hint.score, hint.leave) for hint in found.moves]


def typed_play(play: Play) -> str:
    """A play as a player types it for :meth:`~bot.service.game_service.GameService.play`: ``?E`` for a
    blank E, ``.`` for a tile already on the board (``H8 QU?IZ``)."""
    word = "".join(
        letter if letter == PLAYED_THROUGH or letter.isupper() else f"?{letter.upper()}"
        for letter in play.letters
    )
    return f"{play.coordinate} {word}"
