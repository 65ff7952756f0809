"""The client commands of the protocol (``docs/protocol.md``, "Client to server"), each carried out by the
game service for the connection's seat.

:func:`run_command` checks a command's fields, calls the service's method with the seat's user id, the
game and the ``turn`` the client saw, and returns the reply's ``result``; a refusal raises the service's
or the engine's error (or :class:`~bot.web.errors.ProtocolError` for a malformed command).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final, TypeGuard

from bot.service.errors import NotSeatedError
from bot.service.game_service import GameService
from bot.web.errors import ProtocolError
from bot.web.links import Grant, seat_of
from bot.web.tiles import PlacedTile, play_from_tiles
from scrabble_core.board import Board
from scrabble_core.move import Play
from scrabble_core.notation import parse_player_play, player_notation
from scrabble_core.validation import check_play

__all__ = ["COMMANDS", "run_command"]

MAX_TEXT: Final = 200
EXCHANGED: Final = "Exchanged: your new rack is on the board."
MAX_TILES: Final = 25
COMMANDS: Final = frozenset(
    {"play", "exchange", "pass", "challenge", "accept", "no_challenge", "resign", "hint", "preview", "ping"}
)


async def run_command(
    service: GameService, grant: Grant, message: Mapping[str, Any], now: float
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
    seat = seat_of(grant, table.row.seats)
    if seat is None:
        raise NotSeatedError
    user_id = table.row.seats[seat].user_id
    if user_id is None:  # an AI's seat: no token is ever issued for one
        raise NotSeatedError
    channel, game_id = table.row.channel_id, grant.game_id
    turn = _turn(message)
    if kind == "preview":
        game = table.started()
        rack = game.players[seat].rack
        play = _play(message, game.board, rack)
        return {"move": play.gcg(), "score": check_play(game.board, play, rack=rack).total}
    if kind == "play":
        move = (
            _text(message, "move")
            if "tiles" not in message
            else _tiles_notation(message, table.started().board)
        )
        reply = await service.play(channel, user_id, move, game_id=game_id, turn=turn)
    elif kind == "exchange":
        tiles = _text(message, "tiles")
        await service.exchange(channel, user_id, tiles, game_id=game_id, turn=turn)
        return {"message": EXCHANGED}  # the new rack comes in the seat's state, not by DM
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


def _play(message: Mapping[str, Any], board: Board, rack: str) -> Play:
    """The play of a ``play`` or ``preview``: its ``move`` in player notation, or its placed ``tiles``."""
    if "tiles" in message:
        return play_from_tiles(board, _tiles(message["tiles"]))
    return parse_player_play(_text(message, "move"), board, rack)


def _tiles_notation(message: Mapping[str, Any], board: Board) -> str:
    """A ``play``'s placed tiles in player notation, for the service."""
    return player_notation(play_from_tiles(board, _tiles(message["tiles"])))


def _tiles(value: Any) -> list[PlacedTile]:
    if not isinstance(value, list) or len(value) > MAX_TILES:
        raise ProtocolError("bad_message", f"tiles must be a list of at most {MAX_TILES} tiles")
    tiles = []
    for item in value:
        if not isinstance(item, dict):
            raise ProtocolError("bad_message", "each tile is an object with row, col, letter and blank")
        row, col, letter, blank = (
            item.get("row"),
            item.get("col"),
            item.get("letter"),
            item.get("blank", False),
        )
        if (
            not _is_int(row)
            or not _is_int(col)
            or not isinstance(letter, str)
            or len(letter) != 1
            or not isinstance(blank, bool)
        ):
            raise ProtocolError(
                "bad_message", "each tile has an integer row and col, one letter and a blank flag"
            )
        tiles.append(PlacedTile(row, col, letter.upper(), blank))
    return tiles


def _text(message: Mapping[str, Any], field: str) -> str:
    value = message.get(field)
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        raise ProtocolError("bad_message", f"{field} must be a string of at most {MAX_TEXT} characters")
    return value


def _turn(message: Mapping[str, Any]) -> int | None:
    value = message.get("turn")
    if value is not None and not _is_int(value):
        raise ProtocolError("bad_message", "turn must be an integer (the state's turn) or null")
    return value


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)
