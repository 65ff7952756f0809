"""Colours, points and their coordinates as Go players write them.

Columns are letters from ``A`` on the left, skipping ``I`` (GTP's and most Go software's convention, so
``H`` is followed by ``J``); rows are numbers from ``1`` at the bottom. The 25 letters ``A``–``Z`` without
``I`` name 25 columns, so boards go up to 25×25 (:data:`MAX_SIZE`).
"""

from __future__ import annotations

import enum
import re
from typing import Final, NamedTuple

from go_core.errors import BoardSizeError, GoError, InvalidPointError, OffBoardError, echo

COLUMNS: Final = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
"""The column letters, left to right: ``I`` is skipped."""
MIN_SIZE: Final = 2
MAX_SIZE: Final = len(COLUMNS)
"""25: one column per letter of :data:`COLUMNS`."""
PASS: Final = "pass"

_POINT = re.compile(r"([A-Za-z])(\d{1,3})")


class Color(enum.Enum):
    """A player's colour. Black moves first (White first in a handicap game)."""

    BLACK = "B"
    WHITE = "W"

    @property
    def opponent(self) -> Color:
        """The other colour."""
        return Color.WHITE if self is Color.BLACK else Color.BLACK

    @property
    def title(self) -> str:
        """``Black`` or ``White``."""
        return self.name.capitalize()

    def __repr__(self) -> str:
        return f"Color.{self.name}"

    @classmethod
    def parse(cls, text: str) -> Color:
        """``b``, ``black``, ``w`` or ``white`` in any case (GTP's colours).

        Raises:
            GoError: anything else.
        """
        word = text.strip().lower()
        if word in {"b", "black"}:
            return cls.BLACK
        if word in {"w", "white"}:
            return cls.WHITE
        raise GoError(f"{echo(text)} is not a colour: use black or white")


class Point(NamedTuple):
    """A point of the board: ``col`` 0 is column ``A``, ``row`` 0 is row ``1`` (the bottom)."""

    col: int
    row: int

    def __str__(self) -> str:
        return f"{COLUMNS[self.col]}{self.row + 1}"

    @classmethod
    def parse(cls, text: str, size: int) -> Point:
        """The point ``text`` names on a ``size``×``size`` board: a column letter (any case, no ``I``)
        then a row number, e.g. ``D4``.

        Raises:
            InvalidPointError: ``text`` is not a coordinate (or uses ``I``).
            OffBoardError: the coordinate is outside this board.
        """
        stripped = text.strip()
        match = _POINT.fullmatch(stripped)
        if match is None:
            raise InvalidPointError(
                f"{echo(text)} is not a point: type a column letter and a row number, e.g. D4"
            )
        letter, number = match.group(1).upper(), int(match.group(2))
        if letter == "I":
            raise InvalidPointError(f"{echo(stripped)} is not a point: Go coordinates skip I (… H, J …)")
        col, row = COLUMNS.index(letter), number - 1
        if not (col < size and 0 <= row < size):
            raise OffBoardError(f"{letter}{number}", size)
        return cls(col, row)


def parse_move(text: str, size: int) -> Point | None:
    """A point (see :meth:`Point.parse`), or ``None`` for ``pass`` (any case).

    Raises:
        InvalidPointError: neither.
    """
    if text.strip().lower() == PASS:
        return None
    return Point.parse(text, size)


def format_move(point: Point | None) -> str:
    """``D4``, or ``pass`` for ``None``."""
    return PASS if point is None else str(point)


def check_size(size: int) -> int:
    """``size`` if a board can have it.

    Raises:
        BoardSizeError: below :data:`MIN_SIZE` or above :data:`MAX_SIZE` (26, the widest a board with
            A–Z columns would be, is refused because Go coordinates skip ``I``).
    """
    if isinstance(size, bool) or not isinstance(size, int) or not MIN_SIZE <= size <= MAX_SIZE:
        shown = echo(str(size))
        raise BoardSizeError(
            f"A board is {MIN_SIZE} to {MAX_SIZE} points wide, not {shown.strip(chr(39))}: Go coordinates "
            f"name columns A to Z skipping I, which gives {MAX_SIZE} columns"
        )
    return size
