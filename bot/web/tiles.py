"""Plays given as placed tiles (the page's drag and drop): turned into the engine's :class:`Play` by the
engine's own :func:`~scrabble_core.validation.play_from_tiles`, so every refusal is the engine's error and
reaches the player with the engine's code and message.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scrabble_core import validation
from scrabble_core.board import Board
from scrabble_core.move import Play

__all__ = ["PlacedTile", "play_from_tiles"]


@dataclass(frozen=True, slots=True)
class PlacedTile:
    """A tile put on ``(row, col)`` showing ``letter`` (uppercase); ``blank`` when it is a blank."""

    row: int
    col: int
    letter: str
    blank: bool


def play_from_tiles(board: Board, tiles: Sequence[PlacedTile]) -> Play:
    """The play that puts ``tiles`` on ``board`` (a blank's letter in lowercase, as the engine writes it).

    Raises:
        The engine's errors (:func:`scrabble_core.validation.play_from_tiles`): NoTilesError,
        OffBoardError, SquareOccupiedError, NotInLineError, GapError, InvalidMoveError (two tiles on one
        square).
    """
    placements = [
        ((tile.row, tile.col), tile.letter.lower() if tile.blank else tile.letter) for tile in tiles
    ]
    return validation.play_from_tiles(board, placements)
