"""Go's part of the web board (:class:`bot.web.parts.WebPart`), in the grid form every grid game's
page draws (``docs/protocol.md``, "Grid games"): the board as rows of cells (top row first) with what
each cell letter shows, the last stone, the coordinates, lines of information, the actions of the
connection's seat and what a click on a point does.

Cells: ``X``/``O`` a black/white stone, ``x``/``o`` one marked dead, ``b``/``w`` Black's/White's
territory (the dead-stone phase and the end), ``+`` a star point, ``.`` an empty point. A click plays
a stone while stones are played, and marks or unmarks a group in the dead-stone phase.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from bot.games.go import text
from bot.games.go.commands import GoCommands
from bot.games.go.sgf import export_sgf
from bot.games.go.table import GoTable, colour_of, seat_of_colour
from bot.host.store import GameStatus
from bot.host.table import AnyTable
from bot.web.errors import ProtocolError
from bot.web.links import Grant
from bot.web.parts import player, turn_of, whole
from go_core import COLUMNS, Color, Game, Phase, Point
from go_core.handicap import star_points
from go_core.scoring import territory_owner

__all__ = ["PART"]

LEGEND: Final = {
    "X": "black",
    "O": "white",
    "x": "black dead",
    "o": "white dead",
    "b": "territory-black",
    "w": "territory-white",
    "+": "star",
    ".": "empty",
}
_STONES: Final = {Color.BLACK: "X", Color.WHITE: "O"}
_TERRITORY: Final = {Color.BLACK: "b", Color.WHITE: "w"}
_ACTIONS: Final = {
    "pass": "Pass",
    "undo": "Undo",
    "resign": "Resign",
    "accept": "Accept the count",
    "resume": "Resume play",
    "undo_accept": "Let them take it back",
    "undo_refuse": "Refuse",
}


class GoWeb:
    """See :class:`bot.web.parts.WebPart`."""

    commands: Final = frozenset({"play", "dead", *_ACTIONS})

    def state(self, table: AnyTable, seat: int | None, now: float) -> dict[str, Any]:
        assert isinstance(table, GoTable)
        row, options = table.row, table.options
        game = table.game.game if table.game is not None else None
        extra = table.extra
        over = not row.status.is_open or (game is not None and game.phase is Phase.OVER)
        players = [
            {
                "seat": seat_row.seat,
                "name": seat_row.name,
                "kind": "ai" if seat_row.is_ai else "human",
                "colour": colour_of(seat_row.seat).title,
                "score": 0 if game is None else game.captures(colour_of(seat_row.seat)),
            }
            for seat_row in row.seats
        ]
        current = None
        if game is not None and not over and game.phase is Phase.PLAY:
            current = seat_of_colour(game.to_move)
        state: dict[str, Any] = {
            "game_id": row.id,
            "status": row.status.value,
            "players": players,
            "current": current,
            "turn": extra.version,
            "over": over,
            "deadline": row.deadline,
            "now": now,
            "title": f"Go {options.size}×{options.size}",
            "grid": _grid(game, options.size),
            "info": _info(table, game),
            "history": self.history(table, 0),
            "phase": "lobby" if game is None else "over" if over else game.phase.value,
            "actions": [],
            "click": None,
            "winners": [] if game is None or game.winner is None else [seat_of_colour(game.winner)],
        }
        if seat is not None and game is not None and not over:
            state["actions"], state["click"] = _choices(table, game, seat)
        return state

    def history_length(self, table: AnyTable) -> int:
        assert isinstance(table, GoTable)
        return 0 if table.game is None else len(table.game.game.moves)

    def history(self, table: AnyTable, start: int) -> list[dict[str, Any]]:
        assert isinstance(table, GoTable)
        if table.game is None:
            return []
        return [
            {
                "player": seat_of_colour(move.color),
                "move": str(move).partition(" ")[2],
                "captured": len(move.captured),
            }
            for move in table.game.game.moves[start:]
        ]

    def final(self, table: AnyTable) -> dict[str, Any]:
        assert isinstance(table, GoTable)
        cancelled = table.row.status is GameStatus.CANCELLED
        game = None if table.game is None else table.game.game
        if game is None or cancelled or game.result is None:
            return {
                "cancelled": cancelled,
                "result": "",
                "text": "The game ended without a result.",
                "sgf": "",
            }
        black, white = (seat.name for seat in table.row.seats)
        return {
            "cancelled": False,
            "result": game.result,
            "text": text.result_text(game, table.row.seats),
            "sgf": export_sgf(game, black=black, white=white),
        }

    def summary(self, table: AnyTable) -> str:
        text_ = self.final(table)["text"]
        assert isinstance(text_, str)
        return text_.partition("\n")[0]

    async def run(
        self, commands: GoCommands, grant: Grant, message: Mapping[str, Any], now: float
    ) -> dict[str, Any]:
        table = commands.host.open_table(grant.game_id, commands.plugin.kind)
        assert isinstance(table, GoTable)
        _, user_id = player(table, grant)
        channel, game_id, kind = table.row.channel_id, grant.game_id, message["type"]
        turn = turn_of(message)
        if kind == "play":
            reply = await commands.play(channel, user_id, _point(message, table), game_id=game_id, turn=turn)
        elif kind == "dead":
            reply = await commands.toggle_dead(channel, user_id, _point(message, table), game_id=game_id)
        elif kind == "pass":
            reply = await commands.pass_turn(channel, user_id, game_id=game_id, turn=turn)
        elif kind == "resign":
            reply = await commands.resign(channel, user_id, game_id=game_id)
        elif kind == "undo":
            reply = await commands.request_undo(channel, user_id, game_id=game_id)
        elif kind in {"undo_accept", "undo_refuse"}:
            accept = kind == "undo_accept"
            reply = await commands.answer_undo(channel, user_id, accept, game_id=game_id, turn=turn)
        elif kind == "accept":
            reply = await commands.accept_score(channel, user_id, game_id=game_id, turn=turn)
        else:
            reply = await commands.resume(channel, user_id, game_id=game_id, turn=turn)
        return {"message": reply.text}


def _grid(game: Game | None, size: int) -> dict[str, Any]:
    """The board in the grid form (see the module)."""
    stars = set(star_points(size))
    scoring = game is not None and game.phase is not Phase.PLAY and not (game.result or "").endswith("+R")
    dead = game.dead if game is not None and scoring else frozenset()
    owners = territory_owner(game.board, dead) if game is not None and scoring else {}
    cells = []
    for row in reversed(range(size)):
        line = ""
        for col in range(size):
            point = Point(col, row)
            stone = None if game is None else game[point]
            if stone is not None:
                line += _STONES[stone].lower() if point in dead else _STONES[stone]
            elif point in owners:
                line += _TERRITORY[owners[point]]
            else:
                line += "+" if point in stars else "."
        cells.append(line)
    last = None if game is None or game.last_move is None else game.last_move.point
    return {
        "rows": size,
        "cols": size,
        "points": True,
        "cells": cells,
        "legend": LEGEND,
        "last": [] if last is None else [[size - 1 - last.row, last.col]],
        "col_labels": list(COLUMNS[:size]),
        "row_labels": [str(number) for number in range(size, 0, -1)],
    }


def _info(table: GoTable, game: Game | None) -> list[str]:
    """The lines under the board: the settings, the captures, the dead-stone phase's count, the
    question to take a move back."""
    lines = [text.settings_text(table.options)]
    if game is None:
        return lines
    lines.append(f"Captures: Black {game.captures(Color.BLACK)}, White {game.captures(Color.WHITE)}")
    if game.last_move is not None:
        lines.append(f"Last move: {game.last_move.color.title} {game.last_move.point or 'passed'}")
    if game.phase is Phase.SCORING:
        lines.append("Both players passed: click a group to mark it dead or alive, then accept the count.")
        lines.append(f"Count as marked: {game.score().breakdown()}")
        if game.accepted:
            lines.append("Accepted by: " + ", ".join(sorted(color.title for color in game.accepted)))
    elif game.phase is Phase.OVER:
        lines.append(text.result_text(game, table.row.seats).replace("\n", " "))
    undo = table.extra.undo
    if undo is not None:
        lines.append(f"{table.row.seats[undo].name} asks to take back their last move.")
    return lines


def _choices(table: GoTable, game: Game, seat: int) -> tuple[list[dict[str, str]], str | None]:
    """What ``seat`` may do now: its actions (type and label) and what a click on a point does."""
    undo = table.extra.undo
    if undo is not None:
        types = ["undo_accept", "undo_refuse", "resign"] if undo != seat else ["resign"]
        click = None
    elif game.phase is Phase.SCORING:
        types, click = ["accept", "resume", "undo", "resign"], "dead"
    else:
        to_move = seat_of_colour(game.to_move) == seat
        types = ["pass", "undo", "resign"] if to_move else ["undo", "resign"]
        click = "play" if to_move else None
    return [{"type": kind, "label": _ACTIONS[kind]} for kind in types], click


def _point(message: Mapping[str, Any], table: GoTable) -> str:
    """The point of a ``play`` or ``dead``: its grid ``row`` (0: the top) and ``col``.

    Raises:
        ProtocolError: they are not whole numbers on the board.
    """
    size = table.options.size
    row, col = message.get("row"), message.get("col")
    if not (whole(row) and whole(col) and 0 <= row < size and 0 <= col < size):
        raise ProtocolError("bad_message", f"row and col must be whole numbers from 0 to {size - 1}")
    return str(Point(col, size - 1 - row))


PART: Final = GoWeb()
