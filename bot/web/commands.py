"""The client commands of the protocol (``docs/protocol.md``, "Client to server"), each carried out by the
game service for the connection's seat.

:func:`run_command` checks a command's fields, calls the service's method with the seat's user id, the
game and the ``turn`` the client saw, and returns the reply's ``result``; a refusal raises the service's
or the engine's error (or :class:`~bot.web.errors.ProtocolError` for a malformed command).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from bot.games.scrabble.commands import ScrabbleCommands, preview
from bot.web.errors import ProtocolError
from bot.web.links import Grant
from bot.web.parts import player, turn_of, whole
from bot.web.tiles import PlacedTile, play_from_tiles
from scrabble_core.board import Board
from scrabble_core.move import Play

__all__ = ["COMMANDS", "run_command"]

MAX_TEXT: Final = 200
MAX_TILES: Final = 25
COMMANDS: Final = frozenset(
    {"play", "exchange", "pass", "challenge", "accept", "no_challenge", "resign", "hint", "preview", "ping"}
)


async def run_command(
    service: ScrabbleCommands, grant: Grant, message: Mapping[str, Any], now: float
) -> dict[str, Any]:
    """Carry out ``message`` (whose ``type`` is in :data:`COMMANDS`) for ``grant``; return the result.

    Raises:
        ProtocolError: a missing or badly typed field, or a token that plays no seat any more;
        ScrabbleError: the service's or engine's refusal (NotSeatedError for a spectator).
    """
    kind = message["type"]
    if kind == "ping":
        return {"now": now}
    table = service.open_table(grant.game_id)
    seat, user_id = player(table, grant)
    channel, game_id = table.row.channel_id, grant.game_id
    turn = turn_of(message)
    if kind == "preview":
        play, score = preview(table.started(), seat, _move(message, table.started().board))
        return {"move": play.record_text(table.started().variant.infinite), "score": score}
    if kind == "play":
        move = _move(message, table.started().board)
        reply = await service.play(channel, user_id, move, game_id=game_id, turn=turn, answered=False)
    elif kind == "exchange":
        tiles = _text(message, "tiles")
        reply = await service.exchange(channel, user_id, tiles, game_id=game_id, turn=turn, answered=False)
    elif kind == "pass":
        reply = await service.pass_turn(channel, user_id, game_id=game_id, turn=turn)
    elif kind == "challenge":
        reply = await service.challenge(channel, user_id, game_id=game_id, turn=turn)
    elif kind == "accept":
        reply = await service.accept(channel, user_id, game_id=game_id, turn=turn)
    elif kind == "no_challenge":
        reply = await service.no_challenge(channel, user_id, game_id=game_id, turn=turn)
    elif kind == "resign":
        reply = await service.resign(channel, user_id, game_id=game_id, turn=turn)
    else:
        reply = await service.hint(channel, user_id, game_id=game_id)
    return {"message": reply.text}


def _move(message: Mapping[str, Any], board: Board) -> str | Play:
    """The move of a ``play`` or ``preview``: its placed ``tiles`` as the engine's play, or its ``move``
    in player notation (Scrabble's commands read it)."""
    if "tiles" in message:
        return play_from_tiles(board, _tiles(message["tiles"]))
    return _text(message, "move")


def _tiles(value: Any) -> list[PlacedTile]:
    if not isinstance(value, list) or len(value) > MAX_TILES:
        raise ProtocolError("bad_message", f"tiles must be a list of at most {MAX_TILES} tiles")
    tiles = []
    for item in value:
        if not isinstance(item, dict):
            raise ProtocolError("bad_message", "each tile is an object with row, col, letter and blank")
        row, col, letter, blank, tile_set = (
            item.get("row"),
            item.get("col"),
            item.get("letter"),
            item.get("blank", False),
            item.get("set"),
        )
        if (
            not whole(row)
            or not whole(col)
            or not isinstance(letter, str)
            or len(letter) != 1
            or not isinstance(blank, bool)
            or not (tile_set is None or (isinstance(tile_set, str) and len(tile_set) == 1))
        ):
            raise ProtocolError(
                "bad_message",
                "each tile has an integer row and col, one letter, a blank flag and maybe its set",
            )
        tiles.append(PlacedTile(row, col, letter.upper(), blank, tile_set))
    return tiles


def _text(message: Mapping[str, Any], field: str) -> str:
    value = message.get(field)
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        raise ProtocolError("bad_message", f"{field} must be a string of at most {MAX_TEXT} characters")
    return value
