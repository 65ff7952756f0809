"""An open Scrabble game in memory, :class:`ScrabbleTable`: the host's table with the rules of its
turns' deadlines and of the AI's challenge window."""

from __future__ import annotations

from typing import ClassVar

from bot.games.scrabble.errors import NOT_STARTED
from bot.games.scrabble.options import ScrabbleOptions
from bot.host.table import Table
from scrabble_core.game import ChallengeMode, Game


class ScrabbleTable(Table[ScrabbleOptions, Game]):
    """An open Scrabble game: its engine state is never mutated (actions work on a copy)."""

    __slots__ = ()

    NOT_STARTED: ClassVar[str] = NOT_STARTED

    def challenge_window(self, game: Game) -> int | None:
        """The human seat whose play an AI on turn in ``game`` waits a challenge window after, if it
        does: in games with challenges and more than one human, after a human's play that can still be
        challenged."""
        played = game.challengeable
        seats = self.row.seats
        if (
            game.challenge_mode is ChallengeMode.VOID
            or played is None
            or seats[played].is_ai
            or not seats[game.current].is_ai
            or sum(not seat.is_ai for seat in seats) < 2
        ):
            return None
        return played

    def turn_key(self) -> tuple[int, int]:
        """What identifies the current turn: the history's length and the seat to play."""
        game = self.started()
        return len(game.history), game.current

    def deadline_after(
        self, game: Game, actor: int | None, now: float, window: int = 0
    ) -> tuple[float | None, bool]:
        """The turn deadline and whether its reminder went out, once ``actor`` has acted and the engine
        state is ``game``: kept while the same turn goes on (someone else challenged), a new one for a
        new human turn, none without a limit. For an AI on turn, the end of its challenge window
        (:meth:`challenge_window`, ``window`` seconds), or none."""
        if game.is_over:
            return None, False
        if self.row.seats[game.current].is_ai:
            opens = window > 0 and actor is not None and self.challenge_window(game) == actor
            return (now + window if opens else None), False
        limit = self.options.turn_seconds
        if not limit:
            return None, False
        before = self.started()
        if self.row.deadline is not None and before.current == game.current and actor != before.current:
            return self.row.deadline, self.row.reminded
        return now + limit, False
