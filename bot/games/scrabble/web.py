"""Scrabble's part of the web board (:class:`bot.web.parts.WebPart`): its state, history and final
(:mod:`bot.web.state`) and its commands (:mod:`bot.web.commands`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from bot.games.scrabble.commands import ScrabbleCommands
from bot.games.scrabble.table import ScrabbleTable
from bot.games.scrabble.text import standing_lines, winner_line
from bot.host.table import AnyTable
from bot.web.commands import COMMANDS, run_command
from bot.web.links import Grant
from bot.web.state import final_info, game_state, history_entries

__all__ = ["PART"]


class ScrabbleWeb:
    """See :class:`bot.web.parts.WebPart`."""

    commands: Final = COMMANDS - {"ping"}

    def state(self, table: AnyTable, seat: int | None, now: float) -> dict[str, Any]:
        assert isinstance(table, ScrabbleTable)
        return game_state(table, seat, now)

    def history_length(self, table: AnyTable) -> int:
        assert isinstance(table, ScrabbleTable)
        return len(table.game.history) if table.game is not None else 0

    def history(self, table: AnyTable, start: int) -> list[dict[str, Any]]:
        assert isinstance(table, ScrabbleTable)
        game = table.game
        return [] if game is None else history_entries(game.history[start:], game.board, table.row.seats)

    def final(self, table: AnyTable) -> dict[str, Any]:
        assert isinstance(table, ScrabbleTable)
        return final_info(table)

    def summary(self, table: AnyTable) -> str:
        assert isinstance(table, ScrabbleTable)
        if table.game is None:
            return "The game was cancelled."
        game, seats = table.game, table.row.seats
        return f"{winner_line(game, seats)} {' · '.join(standing_lines(game, seats))}"

    async def run(
        self, commands: ScrabbleCommands, grant: Grant, message: Mapping[str, Any], now: float
    ) -> dict[str, Any]:
        return await run_command(commands, grant, message, now)


PART: Final = ScrabbleWeb()
