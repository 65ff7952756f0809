"""What a connection may see of a game, as protocol data (``docs/protocol.md``, "State").

Pure functions over a :class:`~bot.host.table.ScrabbleTable`: the public state, plus the seat's own rack,
unseen tiles and hints for a seat connection. Racks never appear anywhere else: history entries drop the
engine's ``rack`` and an exchange shows only how many tiles were exchanged.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any, Final

from bot.games.scrabble import text
from bot.games.scrabble.announcements import last_play_squares
from bot.games.scrabble.board_view import Window, square_look, square_rules, view_window
from bot.games.scrabble.table import ScrabbleTable
from bot.host.store import GameStatus, SeatRow
from scrabble_core.board import Board
from scrabble_core.game import ChallengeMode, Event, EventKind
from scrabble_core.gcg import export_gcg
from scrabble_core.move import Play
from scrabble_core.move_words import play_in_words
from scrabble_core.tiles import is_set_tile, letter_of, rack_tile
from scrabble_core.variant import BLANK, Variant, get_variant

__all__ = ["final_info", "game_state", "history_entry"]

HOLE = "##"


def history_entry(event: Event, board: Board, seats: Sequence[SeatRow]) -> dict[str, Any]:
    """One history entry, without the rack; an exchange as ``-`` and the number of tiles. ``words`` is
    a play in words (``QAiD at 6F (across), with a blank for the I``), ``text`` the entry as the channel
    says it; ``board`` holds the tiles a play went through."""
    move = f"-{len(event.move) - 1}" if event.kind is EventKind.EXCHANGE else event.move
    words = str(play_in_words(Play.from_gcg(event.move), board)) if event.kind is EventKind.PLAY else ""
    return {
        "kind": event.kind.value,
        "player": event.player,
        "move": move,
        "score": event.score,
        "total": event.total,
        "detail": event.detail,
        "words": words,
        "text": text.event_line(event, seats, board),
    }


def history_entries(events: Sequence[Event], board: Board, seats: Sequence[SeatRow]) -> list[dict[str, Any]]:
    """:func:`history_entry` of each event."""
    return [history_entry(event, board, seats) for event in events]


_PROGRAM_NAMES: Final = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
"""The second character of a program square's ``P`` code in ``premiums``, by its order among them."""


def board_window(board: Board) -> Window:
    """The squares the page is sent: a finite board whole; of an infinite one, the squares around its
    tiles and start that any play could reach (a rack's length more on each side, grown by blocks:
    :func:`~bot.games.scrabble.board_view.view_window`, never cut)."""
    margin = board.variant.rack_size
    return view_window(board, margin=margin, least=2 * margin + 1, most=sys.maxsize)


def variant_info(variant: Variant, window: Window) -> dict[str, Any]:
    """The board's squares in ``window``, its program squares and set tiles, and the tile values."""
    values = {kind.letter: kind.value for kind in variant.tiles}
    values[BLANK] = 0
    programs = [rule for rule in square_rules(variant) if rule.look.program is not None]
    codes = {rule.square_id: f"P{_PROGRAM_NAMES[index]}" for index, rule in enumerate(programs)}
    premiums = []
    for row in range(window.top, window.top + window.rows):
        line = []
        for col in range(window.left, window.left + window.cols):
            look = square_look(variant, (row, col))
            if look is None:
                line.append(HOLE)
            elif look.program is not None:
                line.append(codes[look.program])
            else:
                line.append(look.premium.value)
        premiums.append("".join(line))
    return {
        "name": variant.name,
        "infinite": variant.infinite,
        "origin": [window.top, window.left],
        "rows": window.rows,
        "cols": window.cols,
        "start": list(variant.start),
        "rack_size": variant.rack_size,
        "premiums": premiums,
        "programs": {
            codes[rule.square_id]: {"label": rule.look.label, "rule": rule.words or rule.code}
            for rule in programs
        },
        "values": values,
        "tile_sets": [
            {"symbol": tile_set.symbol, "count": tile_set.count, "letters": dict(tile_set.letters)}
            for tile_set in variant.tile_sets
        ],
    }


def board_info(board: Board, window: Window) -> dict[str, Any]:
    """The tiles of ``board`` in ``window`` as the protocol's rows (a set tile as its letter) and the
    squares holding set tiles with their set."""
    rows, sets = [], []
    for row in range(window.top, window.top + window.rows):
        line = []
        for col in range(window.left, window.left + window.cols):
            tile = board[(row, col)]
            if tile is None:
                line.append("." if square_look(board.variant, (row, col)) is not None else "#")
            elif is_set_tile(tile):
                line.append(letter_of(tile))
                sets.append([row, col, rack_tile(tile)])
            else:
                line.append(tile)
        rows.append("".join(line))
    return {"board": rows, "set_tiles": sets}


def game_state(table: ScrabbleTable, seat: int | None, now: float) -> dict[str, Any]:
    """The state a connection sees: the public state, plus ``seat``'s rack, unseen tiles and hints left
    when ``seat`` is not None. ``now`` is the server's clock."""
    row, game = table.row, table.game
    options = table.options
    variant = game.variant if game is not None else get_variant(options.variant)
    board = game.board if game is not None else Board(variant)
    window = board_window(board)
    players = []
    for seat_row in row.seats:
        player = game.players[seat_row.seat] if game is not None else None
        players.append(
            {
                "seat": seat_row.seat,
                "name": seat_row.name,
                "kind": "ai" if seat_row.is_ai else "human",
                "score": player.score if player else 0,
                "resigned": player.resigned if player else False,
                "rack_count": len(player.rack) if player else 0,
                "hints_used": seat_row.hints_used,
            }
        )
    state: dict[str, Any] = {
        "game_id": row.id,
        "status": row.status.value,
        "variant": variant_info(variant, window),
        "options": {
            "challenge_mode": options.challenge_mode,
            "turn_seconds": options.turn_seconds,
            "hints": options.hints,
            "ai_level": options.ai_level,
        },
        "players": players,
        "deadline": row.deadline,
        "now": now,
    }
    if game is None:
        state |= board_info(board, window)
        state |= {
            "last_move": [],
            "current": None,
            "turn": 0,
            "bag": variant.tile_count,
            "scoreless_turns": 0,
            "challenge": None,
            "history": [],
            "over": not row.status.is_open,
            "winners": [],
        }
    else:
        challenge = None
        if (
            game.challenge_mode is not ChallengeMode.VOID
            and game.challengeable is not None
            and not game.is_over
        ):
            challenge = {
                "seat": game.challengeable,
                "words": game.challengeable_words(),
                "final": game.awaiting_final_challenge,
                "window": table.challenge_window(game) is not None and row.deadline is not None,
            }
        over = game.is_over or not row.status.is_open
        state |= board_info(board, window)
        state |= {
            "last_move": [list(square) for square in last_play_squares(game)],
            "current": None if over else game.current,
            "turn": len(game.history),
            "bag": len(game.bag),
            "scoreless_turns": game.scoreless_turns,
            "challenge": challenge,
            "history": history_entries(game.history, game.board, row.seats),
            "over": over,
            "winners": game.winners(),
        }
    if seat is not None:
        rack = game.players[seat].rack if game is not None else ""
        state["rack"] = rack
        state["unseen"] = game.unseen_tiles(seat) if game is not None else "".join(variant.full_bag())
        state["hints_left"] = max(0, options.hints - row.seats[seat].hints_used)
    return state


def final_info(table: ScrabbleTable) -> dict[str, Any]:
    """The ``final`` of a ``game_over`` event: scores, winners, whether it was cancelled, the GCG, the
    standings (first to last, a seat that left marked ``resigned`` or ``forfeited``) and the end of the
    game's rack bonuses in words (as the channel says them)."""
    game = table.game
    seats = table.row.seats
    cancelled = table.row.status is GameStatus.CANCELLED
    if game is None:
        return {
            "scores": [0] * len(seats),
            "winners": [],
            "cancelled": cancelled,
            "gcg": "",
            "standings": [],
            "ending": [],
        }
    ends = [event for event in game.history if event.kind is EventKind.END_RACK]
    return {
        "scores": [player.score for player in game.players],
        "winners": game.winners(),
        "cancelled": cancelled,
        "gcg": "" if cancelled else export_gcg(game),
        "standings": [
            {
                "seat": seat,
                "name": game.players[seat].name,
                "score": game.players[seat].score,
                "left": text.left_the_game(seats[seat], game) or None,
            }
            for seat in game.standings()
        ],
        "ending": text.end_lines(ends, seats, game.variant),
    }
