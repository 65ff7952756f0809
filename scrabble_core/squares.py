"""Squares and coordinates as players write them.

A square is ``(row, col)``, both counted from 0 at the top left. Players name it with the column letter
and the row number, 1-based: ``H8`` is row 7, column 7. In a move's coordinate the order gives the
direction: ``8H`` (row first) is a word across, ``H8`` (column first) a word down.

The squares of an infinite board have signed coordinates, named ``x,y`` (``x`` the column, ``y`` the
row: ``-3,5`` is row 5, column -3). A move's coordinate adds the direction: ``-3,5 across``,
``0,0 down``, or in one token as records write it, ``-3,5a`` / ``0,0d``; parentheses and spaces
around the numbers are allowed (``(-3, 5) across``), and ``a``/``across``/``h`` or ``d``/``down``/``v``
in any case.
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
MAX_SIGNED: Final = 10**6
"""The largest size of a signed coordinate (either sign)."""
_SIGNED: Final = re.compile(
    r"^\(?\s*([+-]?[0-9]{1,7})\s*,\s*([+-]?[0-9]{1,7})\s*\)?\s*(across|down|[adhv])?$", re.IGNORECASE
)
_ACROSS_WORDS: Final = frozenset({"across", "a", "h"})
MAX_SIGNED_COORDINATE_LENGTH: Final = 40


def square_name(square: Square) -> str:
    """Return the player's name of ``square``, column letter then row number: ``(7, 7)`` -> ``"H8"``; a
    square no letter and number name (a negative row or column, or past the last letter) as ``x,y``."""
    row, col = square
    if row >= 0 and 0 <= col < len(COLUMN_LETTERS):
        return f"{COLUMN_LETTERS[col]}{row + 1}"
    return signed_square_name(square)


def signed_square_name(square: Square) -> str:
    """The name of ``square`` on an infinite board, ``x,y``: ``(5, -3)`` -> ``"-3,5"``."""
    row, col = square
    return f"{col},{row}"


def signed_coordinate_name(square: Square, across: bool) -> str:
    """The one-token coordinate of a word starting on ``square`` of an infinite board: ``-3,5a`` across,
    ``0,0d`` down."""
    return f"{signed_square_name(square)}{'a' if across else 'd'}"


def parse_signed_coordinate(text: str) -> tuple[int, int, bool]:
    """Parse a coordinate of an infinite board into ``(row, col, across)``: ``-3,5 across``, ``0,0d``,
    ``(2, -1) down`` (see the module docstring).

    Raises:
        InvalidMoveError: ``text`` is not such a coordinate, names no direction, or a number is larger
            than :data:`MAX_SIGNED` in size.
    """
    stripped = text.strip()
    match = _SIGNED.match(stripped) if len(stripped) <= MAX_SIGNED_COORDINATE_LENGTH else None
    if match is None:
        raise InvalidMoveError(
            f"{echo(stripped)} is not a coordinate: write x,y then across or down, e.g. -3,5 across or 0,0 down"
        )
    x, y, direction = int(match.group(1)), int(match.group(2)), match.group(3)
    if direction is None:
        raise InvalidMoveError(
            f"{echo(stripped)} names no direction: add across or down, e.g. {x},{y} across"
        )
    if abs(x) > MAX_SIGNED or abs(y) > MAX_SIGNED:
        raise InvalidMoveError(
            f"{echo(stripped)} is too far out: coordinates go from -{MAX_SIGNED} to {MAX_SIGNED}"
        )
    return y, x, direction.lower() in _ACROSS_WORDS


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
    if "," in stripped:
        return parse_signed_coordinate(stripped)
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
    """Return the coordinate of a word starting on ``square``: ``8H`` across, ``H8`` down; a square no
    letter and number name in its one-token signed form (:func:`signed_coordinate_name`)."""
    row, col = square
    if not (row >= 0 and 0 <= col < len(COLUMN_LETTERS)):
        return signed_coordinate_name(square, across)
    return f"{row + 1}{COLUMN_LETTERS[col]}" if across else f"{COLUMN_LETTERS[col]}{row + 1}"
