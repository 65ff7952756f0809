"""Plays given as placed tiles (the page's drag and drop): turned into the engine's :class:`Play`.

The tiles must stand in one line on free squares of the board; the word runs through the tiles already on
the board between and around them (:func:`~scrabble_core.validation.canonical_play`). Every refusal is
the engine's own error, so it reaches the player with the engine's code and message.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scrabble_core.board import Board
from scrabble_core.errors import GapError, InvalidMoveError, NoTilesError, NotInLineError, SquareOccupiedError
from scrabble_core.move import PLAYED_THROUGH, Play
from scrabble_core.squares import square_name
from scrabble_core.validation import canonical_play, check_on_board

__all__ = ["PlacedTile", "play_from_tiles"]


@dataclass(frozen=True, slots=True)
class PlacedTile:
    """A tile put on ``(row, col)`` showing ``letter`` (uppercase); ``blank`` when it is a blank."""

    row: int
    col: int
    letter: str
    blank: bool


def play_from_tiles(board: Board, tiles: Sequence[PlacedTile]) -> Play:
    """The play that puts ``tiles`` on ``board``.

    Raises:
        NoTilesError: no tile; InvalidMoveError: a letter not of this game, or two tiles on one square;
        OffBoardError; SquareOccupiedError; NotInLineError; GapError.
    """
    if not tiles:
        raise NoTilesError
    variant = board.variant
    placed: dict[tuple[int, int], str] = {}
    for tile in tiles:
        square = (tile.row, tile.col)
        check_on_board(variant, square)
        if not variant.is_letter(tile.letter):
            raise InvalidMoveError(f"{tile.letter!r} is not a letter of this game")
        existing = board[square]
        if existing is not None:
            raise SquareOccupiedError(square_name(square), existing.upper())
        if square in placed:
            raise InvalidMoveError(f"two tiles are on {square_name(square)}")
        placed[square] = tile.letter.lower() if tile.blank else tile.letter
    rows = {row for row, _ in placed}
    cols = {col for _, col in placed}
    if len(rows) > 1 and len(cols) > 1:
        raise NotInLineError
    across = len(rows) == 1
    line = sorted(placed)
    first, last = line[0], line[-1]
    length = (last[1] - first[1] if across else last[0] - first[0]) + 1
    letters = []
    for index in range(length):
        square = (first[0], first[1] + index) if across else (first[0] + index, first[1])
        if square in placed:
            letters.append(placed[square])
        elif board[square] is not None:
            letters.append(PLAYED_THROUGH)
        else:
            raise GapError(square_name(square))
    return canonical_play(board, Play(first[0], first[1], across, "".join(letters)))
