"""The third game on the web board: its state in the grid form every grid game's page draws
(``docs/protocol.md``, "Grid games"), a click on a column drops a disc there."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from bot.host.store import GameStatus
from bot.host.table import AnyTable
from bot.web.errors import ProtocolError
from bot.web.links import Grant
from bot.web.parts import player, turn_of, whole

from .commands import FourCommands
from .plugin import FourTable
from .rules import COLUMNS, DISCS, ROWS, Board

COLOURS: Final = ("Red", "Yellow")


class FourWeb:
    """See :class:`bot.web.parts.WebPart`."""

    commands: Final = frozenset({"drop", "resign"})

    def state(self, table: AnyTable, seat: int | None, now: float) -> dict[str, Any]:
        assert isinstance(table, FourTable)
        board = table.game if table.game is not None else Board()
        over = board.over or not table.row.status.is_open
        winner = board.winner
        playing = seat is not None and not over and table.game is not None
        return {
            "game_id": table.row.id,
            "status": table.row.status.value,
            "players": [
                {
                    "seat": row.seat,
                    "name": row.name,
                    "kind": "ai" if row.is_ai else "human",
                    "colour": COLOURS[row.seat],
                    "score": 0,
                }
                for row in table.row.seats
            ],
            "current": None if over or table.game is None else board.turn,
            "turn": board.moves + (1 if board.resigned is not None else 0),
            "over": over,
            "deadline": table.row.deadline,
            "now": now,
            "title": "Connect Four",
            "phase": "over" if over else "play",
            "grid": {
                "rows": ROWS,
                "cols": COLUMNS,
                "cells": board.rows(),
                "legend": {DISCS[0]: "red", DISCS[1]: "yellow", ".": "empty"},
                "last": [],
                "col_labels": [str(number) for number in range(1, COLUMNS + 1)],
            },
            "history": [],
            "info": ["Four in a row wins: click a column to drop a disc."]
            + ([self._result(table)] if over else []),
            "actions": [{"type": "resign", "label": "Resign"}] if playing else [],
            "click": "drop" if playing and board.turn == seat else None,
            "winners": [] if winner is None or winner < 0 else [winner],
        }

    def history_length(self, table: AnyTable) -> int:
        return 0

    def history(self, table: AnyTable, start: int) -> list[dict[str, Any]]:
        return []

    def final(self, table: AnyTable) -> dict[str, Any]:
        assert isinstance(table, FourTable)
        return {
            "cancelled": table.row.status is GameStatus.CANCELLED,
            "result": "",
            "text": self._result(table),
        }

    def summary(self, table: AnyTable) -> str:
        assert isinstance(table, FourTable)
        return self._result(table)

    @staticmethod
    def _result(table: FourTable) -> str:
        board = table.game
        if board is None or board.winner is None:
            return "The game ended without a result."
        if board.winner < 0:
            return "Game over: a draw."
        return f"Game over: {table.row.seats[board.winner].name} wins."

    async def run(
        self, commands: FourCommands, grant: Grant, message: Mapping[str, Any], now: float
    ) -> dict[str, Any]:
        table = commands.host.open_table(grant.game_id)
        _, user_id = player(table, grant)
        channel = table.row.channel_id
        if message["type"] == "resign":
            reply = await commands.resign(channel, user_id, game_id=grant.game_id)
        else:
            column = message.get("col")
            if not whole(column):
                raise ProtocolError("bad_message", "col must be a whole number")
            reply = await commands.drop(
                channel, user_id, column + 1, game_id=grant.game_id, turn=turn_of(message)
            )
        return {"message": reply.text}


PART: Final = FourWeb()
