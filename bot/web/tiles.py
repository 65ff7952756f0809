"""Plays given as placed tiles (the page's drag and drop): turned into the engine's :class:`Play` by the
engine's own :func:`~scrabble_core.validation.play_from_tiles`, so every refusal is the engine's error and
reaches the player with the engine's code and message.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scrabble_core import validation
from scrabble_core.board import Board
from scrabble_core.errors import InvalidMoveError, echo
from scrabble_core.move import Play
from scrabble_core.tiles import set_tile
from scrabble_core.variant import Variant

__all__ = ["PlacedTile", "play_from_tiles"]


@dataclass(frozen=True, slots=True)
class PlacedTile:
    """A tile put on ``(row, col)`` showing ``letter`` (uppercase); ``blank`` when it is a blank;
    ``tile_set`` the symbol of its set (``"1"``) when it is a set tile played as ``letter``."""

    row: int
    col: int
    letter: str
    blank: bool
    tile_set: str | None = None


def play_from_tiles(board: Board, tiles: Sequence[PlacedTile]) -> Play:
    """The play that puts ``tiles`` on ``board`` (a blank's letter in lowercase, a set tile as the
    engine writes it, :func:`~scrabble_core.tiles.set_tile`).

    Raises:
        InvalidMoveError: a set tile the variant does not have, or played as a letter not in its set.
        The engine's errors (:func:`scrabble_core.validation.play_from_tiles`): NoTilesError,
        OffBoardError, SquareOccupiedError, NotInLineError, GapError, InvalidMoveError (two tiles on one
        square).
    """
    placements = [((tile.row, tile.col), _tile(board.variant, tile)) for tile in tiles]
    return validation.play_from_tiles(board, placements)


def _tile(variant: Variant, tile: PlacedTile) -> str:
    """How the engine writes ``tile`` placed on the board."""
    if tile.tile_set is None:
        return tile.letter.lower() if tile.blank else tile.letter
    found = variant.tile_set(tile.tile_set)
    if found is None:
        raise InvalidMoveError(f"this game has no set tile {echo(tile.tile_set)}")
    if tile.letter not in found.points:
        raise InvalidMoveError(
            f"set tile {found.symbol} {found.text} cannot be played as {echo(tile.letter)}"
        )
    return set_tile(found.symbol, tile.letter)
