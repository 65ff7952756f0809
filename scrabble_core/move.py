"""Moves and their GCG notation.

A :class:`Play` is written as in GCG records: a coordinate (``8H`` across, ``H8`` down) and the whole main
word, uppercase for real tiles, lowercase for blanks, ``.`` for a tile already on the board:
``Play.from_gcg("8D WINDY")``, ``Play.from_gcg("E3 JAVE..N")``; a set tile is its set's number and its
letter in brackets (``8H Q[1U]IZ``, see :mod:`scrabble_core.tiles`). An :class:`Exchange` is ``-ABC``, a
:class:`Pass` ``-``. The notation does not depend on the position, so a move can be parsed, compared and
printed without a board; whether it is legal is the business of :mod:`scrabble_core.validation`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from scrabble_core.errors import InvalidMoveError, echo
from scrabble_core.squares import (
    MAX_BOARD_SIZE,
    Square,
    coordinate_name,
    parse_coordinate,
    signed_coordinate_name,
)
from scrabble_core.tiles import SET_BLOCK, SET_SYMBOLS, is_set_tile, rack_tile, set_tile, word_text
from scrabble_core.variant import BLANK

PLAYED_THROUGH: Final = "."


@dataclass(frozen=True, slots=True)
class Play:
    """Tiles put on the board in one line.

    ``letters`` spans the main word from its first square, one character a square: uppercase letters are
    real tiles, lowercase letters blanks, set tiles their character (:func:`scrabble_core.tiles.set_tile`),
    and ``.`` squares where a tile already stands.
    """

    row: int
    col: int
    across: bool
    letters: str

    @classmethod
    def from_gcg(cls, text: str) -> Play:
        """Parse ``"<coordinate> <word>"`` in GCG notation, e.g. ``"8H QUIZ"`` or ``"H8 qu.Z"``.

        Raises:
            InvalidMoveError: the coordinate or the word is not valid notation, or the word is longer
                than any board.
        """
        parts = text.split()
        if len(parts) != 2:
            raise InvalidMoveError(
                f"{echo(text.strip())} is not a play: write a coordinate and a word, e.g. 8H QUIZ"
            )
        row, col, across = parse_coordinate(parts[0])
        word = _set_tiles(parts[1])
        if len(word) > MAX_BOARD_SIZE:
            raise InvalidMoveError(f"a word of {len(word)} letters does not fit on any board")
        if not all(ch == PLAYED_THROUGH or ch.isalpha() or is_set_tile(ch) for ch in word):
            raise InvalidMoveError(
                f"{echo(parts[1])} is not a word: use letters, lowercase for blanks, '.' for tiles on the board"
            )
        return cls(row, col, across, word)

    @property
    def start(self) -> Square:
        """The square of the word's first letter."""
        return self.row, self.col

    @property
    def coordinate(self) -> str:
        """The GCG coordinate: ``8H`` across, ``H8`` down."""
        return coordinate_name(self.start, self.across)

    def gcg(self) -> str:
        """The move in GCG notation, e.g. ``"8H QUIZ"`` (``"8H Q[1U]IZ"`` with a set tile)."""
        return f"{self.coordinate} {word_text(self.letters)}"

    def record_text(self, infinite: bool) -> str:
        """The move as the game's history and records write it: :meth:`gcg` on a finite board; on an
        infinite one always with the signed one-token coordinate (``0,0d QUIZ``, never ``A1 QUIZ``)."""
        if not infinite:
            return self.gcg()
        return f"{signed_coordinate_name(self.start, self.across)} {word_text(self.letters)}"

    def squares(self) -> list[Square]:
        """The squares the written word covers, in order (off-board squares included as they are)."""
        d_row, d_col = (0, 1) if self.across else (1, 0)
        return [(self.row + d_row * i, self.col + d_col * i) for i in range(len(self.letters))]

    def placements(self) -> list[tuple[Square, str]]:
        """The new tiles: ``(square, tile)`` for every letter that is not ``.``."""
        return [
            (square, letter)
            for square, letter in zip(self.squares(), self.letters, strict=True)
            if letter != PLAYED_THROUGH
        ]

    def rack_tiles(self) -> str:
        """The tiles the play takes from the rack, written as a rack (``?`` for each blank, a set tile's
        number for it)."""
        return "".join(rack_tile(letter) for letter in self.letters if letter != PLAYED_THROUGH)

    def __str__(self) -> str:
        return self.gcg()

    def __repr__(self) -> str:
        return f"Play.from_gcg({self.gcg()!r})"


@dataclass(frozen=True, slots=True)
class Exchange:
    """Tiles put back in the bag for as many new ones; ``tiles`` is written as a rack (``?`` a blank)."""

    tiles: str

    def gcg(self) -> str:
        """The move in GCG notation, e.g. ``"-AEI"`` (a set tile's number in brackets, ``"-A[1]"``)."""
        return "-" + "".join(f"[{tile}]" if tile in SET_SYMBOLS else tile for tile in self.tiles)

    def rack_tiles(self) -> str:
        """The tiles the exchange takes from the rack."""
        return self.tiles

    def __str__(self) -> str:
        return self.gcg()

    def __repr__(self) -> str:
        return f"Exchange({self.tiles!r})"


@dataclass(frozen=True, slots=True)
class Pass:
    """A turn given up without playing or exchanging."""

    def gcg(self) -> str:
        """The move in GCG notation: ``"-"``."""
        return "-"

    def rack_tiles(self) -> str:
        """The tiles a pass takes from the rack: none."""
        return ""

    def __str__(self) -> str:
        return self.gcg()

    def __repr__(self) -> str:
        return "Pass()"


Move = Play | Exchange | Pass


def move_from_gcg(text: str) -> Move:
    """Parse any move in GCG notation: a play (``8H QUIZ``), an exchange (``-AEI``) or a pass (``-``).

    Raises:
        InvalidMoveError: the text is no move in GCG notation.
    """
    stripped = text.strip()
    if stripped == "-":
        return Pass()
    if stripped.startswith("-") and " " not in stripped:
        tiles = bare = stripped[1:]
        for symbol in SET_SYMBOLS:  # a set tile is its number in brackets: [1]
            tiles = tiles.replace(f"[{symbol}]", symbol)
            bare = bare.replace(f"[{symbol}]", "")
        if tiles and all(ch == BLANK or ch.isalpha() for ch in bare):
            return Exchange(tiles.upper())
        raise InvalidMoveError(f"{echo(stripped)} is not an exchange: write the tiles, e.g. -AEI")
    return Play.from_gcg(stripped)


def _set_tiles(word: str) -> str:
    """``word`` as written in text with each set tile (``[1E]``: its number, then its letter, in
    brackets) turned into its character; anything else is left as it is (and refused as no letter)."""
    if "[" not in word:
        return word
    letters: list[str] = []
    i = 0
    while i < len(word):
        group = word[i : i + 4]
        symbol, letter = group[1:2], group[2:3]
        if (
            len(group) == 4
            and group[0] == "["
            and group[3] == "]"
            and symbol in SET_SYMBOLS
            and letter.isalpha()
            and letter.isupper()
            and ord(letter) < SET_BLOCK
        ):
            letters.append(set_tile(symbol, letter))
            i += 4
        else:
            letters.append(word[i])
            i += 1
    return "".join(letters)
