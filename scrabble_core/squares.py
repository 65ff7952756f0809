"""Squares and coordinates as players write them.

A square is ``(row, col)``, both counted from 0 at the top left. Players name it with the column letter
and the row number, 1-based: ``H8`` is row 7, column 7. In a move's coordinate the order gives the
direction: ``8H`` (row first) is a word across, ``H8`` (column first) a word down.
"""

from __future__ import annotations

import re
from typing import Final

from scrabble_core.errors import InvalidMoveError, echo
from scrabble_core.letters import foreign_character

Square = tuple[int, int]

MAX_BOARD_SIZE: Final = 25
COLUMN_LETTERS: Final = "ABCDEFGHIJKLMNOPQRSTUVWXY"
MAX_COORDINATE_LENGTH: Final = 3

_ROW_FIRST = re.compile(r"^([0-9]{1,2})([A-Za-z])$")
_COLUMN_FIRST = re.compile(r"^([A-Za-z])([0-9]{1,2})$")


def square_name(square: Square) -> str:
    """Return the player's name of ``square``, column letter then row number: ``(7, 7)`` -> ``"H8"``."""
    row, col = square
    return f"{COLUMN_LETTERS[col]}{row + 1}"


def parse_square(text: str) -> Square:
    """Parse a square name such as ``H8`` (either order, any case) into ``(row, col)``.

    Raises:
        InvalidMoveError: ``text`` is not a square name.
    """
    row, col, _ = parse_coordinate(text)
    return row, col


def parse_coordinate(text: str) -> tuple[int, int, bool]:
    """Parse a move coordinate into ``(row, col, across)``: ``8H`` is across, ``H8`` is down.

    Whether the square lies on a given board is not checked here.

    Raises:
        InvalidMoveError: ``text`` is neither ``<row><column>`` nor ``<column><row>``; a digit of another
            script or a letter that only looks like A-Z is named.
    """
    stripped = text.strip()
    for ch in stripped[:MAX_COORDINATE_LENGTH]:
        if not ch.isascii() and ch.isalnum():
            raise foreign_character(ch, COLUMN_LETTERS, "a column letter A to Y")
    if match := _ROW_FIRST.match(stripped):
        number, letter, across = match.group(1), match.group(2), True
    elif match := _COLUMN_FIRST.match(stripped):
        letter, number, across = match.group(1), match.group(2), False
    else:
        raise InvalidMoveError(
            f"{echo(stripped)} is not a coordinate: write the row then the column for a word across "
            "(8H), or the column then the row for a word down (H8)"
        )
    col = COLUMN_LETTERS.find(letter.upper())
    row = int(number) - 1
    if col < 0 or not 0 <= row < MAX_BOARD_SIZE:
        raise InvalidMoveError(f"{echo(stripped)} is not a coordinate on any board")
    return row, col, across


def coordinate_name(square: Square, across: bool) -> str:
    """Return the coordinate of a word starting on ``square``: ``8H`` across, ``H8`` down."""
    row, col = square
    return f"{row + 1}{COLUMN_LETTERS[col]}" if across else f"{COLUMN_LETTERS[col]}{row + 1}"
