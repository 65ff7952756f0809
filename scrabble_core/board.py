"""The board: which tile stands on each square of a variant's layout.

A tile on the board is one character: its letter in uppercase for a real tile, in lowercase for a blank
(the GCG convention). Empty squares and holes hold ``None``. The board of an infinite variant is an
:class:`InfiniteBoard` (``Board(variant)`` makes one): its squares have signed coordinates and it keeps
only the tiles placed, so its memory grows with them, not with the board.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import chain

from scrabble_core.errors import ScrabbleError
from scrabble_core.squares import COLUMN_LETTERS, Square, square_name
from scrabble_core.variant import Premium, Variant

EMPTY_CHAR = "."
HOLE_CHAR = "#"
_EMPTY_SQUARES: dict[int, tuple[Variant, str]] = {}
_EMPTY_SQUARES_KEPT = 32
"""Per variant (by id, with the variant to check it): what :meth:`Board.squares_text` shows of empty squares."""

_PREMIUM_CHARS = {
    Premium.PLAIN: ".",
    Premium.DOUBLE_LETTER: "'",
    Premium.TRIPLE_LETTER: '"',
    Premium.QUADRUPLE_LETTER: "^",
    Premium.DOUBLE_WORD: "-",
    Premium.TRIPLE_WORD: "=",
    Premium.QUADRUPLE_WORD: "~",
}


class Board:
    """A mutable grid of tiles on a variant's layout."""

    __slots__ = ("_cells", "variant")

    def __new__(cls, variant: Variant | None = None) -> Board:
        """A :class:`Board`, or an :class:`InfiniteBoard` for an infinite variant (no variant: an empty
        shell that unpickling fills)."""
        infinite = variant is not None and variant.infinite
        return object.__new__(InfiniteBoard if infinite and cls is Board else cls)

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self._cells: list[list[str | None]] = [[None] * variant.cols for _ in range(variant.rows)]

    @classmethod
    def from_rows(cls, variant: Variant, rows: Iterable[str]) -> Board:
        """Build a board from text rows: ``.`` empty, an uppercase letter a tile, a lowercase one a blank.

        A hole of the layout may be written ``#`` or ``.``; ``#`` is for holes only.

        Raises:
            ScrabbleError: the rows do not fit the layout (a tile on a hole, ``#`` on a square) or hold
                letters outside the variant's alphabet.
        """
        board = cls(variant)
        if isinstance(board, InfiniteBoard):
            return board.read_tiles(rows)
        lines = [line.strip() for line in rows if line.strip()]
        if len(lines) != variant.rows:
            raise ScrabbleError(f"the board has {variant.rows} rows, the text has {len(lines)}")
        for row, line in enumerate(lines):
            if len(line) != variant.cols:
                raise ScrabbleError(f"row {row + 1} has {len(line)} squares, the board has {variant.cols}")
            for col, char in enumerate(line):
                square = (row, col)
                if char == EMPTY_CHAR:
                    continue
                if char == HOLE_CHAR:
                    if variant.on_board(square):
                        raise ScrabbleError(f"{square_name(square)} is a square of this board, not a hole")
                    continue
                if not variant.on_board(square):
                    raise ScrabbleError(f"{square_name(square)} is not a square of this board")
                if not variant.allows(char):
                    raise ScrabbleError(f"{char!r} at {square_name(square)} is not a letter of this game")
                board._cells[row][col] = char
        return board

    def __getitem__(self, square: Square) -> str | None:
        """The tile on ``square`` (``None`` when empty). The square must be inside the board."""
        return self._cells[square[0]][square[1]]

    def occupied(self, square: Square) -> bool:
        """Whether ``square`` is on the board and holds a tile."""
        row, col = square
        return (
            0 <= row < self.variant.rows
            and 0 <= col < self.variant.cols
            and (self._cells[row][col] is not None)
        )

    def place(self, placements: Iterable[tuple[Square, str]]) -> None:
        """Put tiles on squares (no rule is checked: validation happens before)."""
        for (row, col), tile in placements:
            self._cells[row][col] = tile

    def remove(self, squares: Iterable[Square]) -> None:
        """Take the tiles off ``squares`` (a withdrawn play)."""
        for row, col in squares:
            self._cells[row][col] = None

    def tiles(self) -> Iterator[tuple[Square, str]]:
        """Every tile on the board with its square, row by row."""
        for row, line in enumerate(self._cells):
            for col, tile in enumerate(line):
                if tile is not None:
                    yield (row, col), tile

    def is_empty(self) -> bool:
        """Whether no tile has been played yet."""
        return all(tile is None for line in self._cells for tile in line)

    def copy(self) -> Board:
        """An independent copy of this board."""
        other = object.__new__(Board)
        other.variant = self.variant
        other._cells = [list(line) for line in self._cells]
        return other

    def rows_text(self) -> list[str]:
        """The board as text rows, the inverse of :meth:`from_rows` (holes as ``#``)."""
        text, cols = self.squares_text(), self.variant.cols
        return [text[start : start + cols] for start in range(0, len(text), cols)]

    def squares_text(self) -> str:
        """:meth:`rows_text` joined into one string, made four times faster (the native move generator
        reads it for every search, and every saved game its rows)."""
        variant = self.variant
        cached = _EMPTY_SQUARES.get(id(variant))
        if cached is None or cached[0] is not variant:
            if len(_EMPTY_SQUARES) >= _EMPTY_SQUARES_KEPT:  # variants rebuilt from saved games come and go
                _EMPTY_SQUARES.clear()
            empty = "".join(
                EMPTY_CHAR if premium is not None else HOLE_CHAR for row in variant.layout for premium in row
            )
            cached = _EMPTY_SQUARES[id(variant)] = (variant, empty)
        return "".join(
            [tile or empty for tile, empty in zip(chain.from_iterable(self._cells), cached[1], strict=True)]
        )

    def ascii(self) -> str:
        """The board drawn as text with coordinates and premium squares, for logs, tests and consoles.

        Premium squares that are empty show ``=`` (3W), ``-`` (2W), ``"`` (3L), ``'`` (2L), ``~`` (4W),
        ``^`` (4L); the start square ``*``; holes ``#``; blanks in lowercase.
        """
        variant = self.variant
        header = "    " + " ".join(COLUMN_LETTERS[: variant.cols])
        lines = [header]
        for row in range(variant.rows):
            chars = []
            for col in range(variant.cols):
                tile = self._cells[row][col]
                premium = variant.layout[row][col]
                if tile is not None:
                    chars.append(tile)
                elif premium is None:
                    chars.append(HOLE_CHAR)
                elif (row, col) == variant.start:
                    chars.append("*")
                else:
                    chars.append(_PREMIUM_CHARS[premium])
            lines.append(f"{row + 1:>3} " + " ".join(chars))
        return "\n".join(lines)

    def __eq__(self, other: object) -> bool:
        if type(other) is not Board:
            return NotImplemented
        return self.variant == other.variant and self._cells == other._cells

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<Board {self.variant.name} {sum(1 for _ in self.tiles())} tiles>"

    def __str__(self) -> str:
        return self.ascii()


class InfiniteBoard(Board):
    """The board of an infinite variant: the tiles placed, by signed square ``(row, col)``.

    Every square the board program does not make a hole is on the board; :meth:`rows_text` writes one
    line per tile, ``x,y TILE`` (``x`` the column, ``y`` the row), which :meth:`Board.from_rows` reads back.
    A tile is kept under its square packed into one number (:func:`_pack`): half the memory of a pair.
    """

    __slots__ = ("_tiles",)

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self._tiles: dict[int, str] = {}

    def read_tiles(self, rows: Iterable[str]) -> InfiniteBoard:
        """Put the tiles of ``rows`` (as :meth:`rows_text` writes them) on this board; return it.

        Raises:
            ScrabbleError: a line is not ``x,y TILE``, names a hole or a square twice, or holds a letter
                outside the variant's alphabet.
        """
        for line in rows:
            if not line.strip():
                continue
            coordinate, _, tile = line.strip().partition(" ")
            x, _, y = coordinate.partition(",")
            try:
                square = (int(y), int(x))
            except ValueError:
                raise ScrabbleError(
                    f"{line.strip()[:40]!r} is not a tile of an infinite board (x,y TILE)"
                ) from None
            name = self.variant.square_name(square)
            if len(tile) != 1 or not self.variant.allows(tile):
                raise ScrabbleError(f"{tile[:10]!r} at {name} is not a letter of this game")
            if not self.variant.on_board(square):
                raise ScrabbleError(f"{name} is not a square of this board")
            if _pack(square) in self._tiles:
                raise ScrabbleError(f"{name} holds two tiles")
            self._tiles[_pack(square)] = tile
        return self

    def __getitem__(self, square: Square) -> str | None:
        """The tile on ``square`` (``None`` when empty)."""
        return self._tiles.get(_pack(square))

    def occupied(self, square: Square) -> bool:
        """Whether ``square`` holds a tile."""
        return _pack(square) in self._tiles

    def place(self, placements: Iterable[tuple[Square, str]]) -> None:
        """Put tiles on squares (no rule is checked: validation happens before)."""
        self._tiles.update((_pack(square), tile) for square, tile in placements)

    def remove(self, squares: Iterable[Square]) -> None:
        """Take the tiles off ``squares`` (a withdrawn play)."""
        for square in squares:
            del self._tiles[_pack(square)]

    def tiles(self) -> Iterator[tuple[Square, str]]:
        """Every tile on the board with its square, row by row."""
        return ((_unpack(key), tile) for key, tile in sorted(self._tiles.items()))

    def is_empty(self) -> bool:
        """Whether no tile has been played yet."""
        return not self._tiles

    def tiles_from(self, corner: Square) -> Iterator[tuple[Square, str]]:
        """Every tile with its square counted from ``corner``, which is above and left of every tile
        (in no particular order): the tiles of a window of the board whose top left square is ``corner``."""
        base = _pack(corner)
        for key, tile in self._tiles.items():
            yield divmod(key - base, _PACK_SPAN), tile

    def tiles_in(self, corner: Square, cols: int) -> Iterator[tuple[int, str]]:
        """Every tile with its index in a window of the board ``cols`` squares wide whose top left square
        is ``corner`` (above and left of every tile), counted row by row (in no particular order)."""
        base = _pack(corner)
        for key, tile in self._tiles.items():
            row, col = divmod(key - base, _PACK_SPAN)
            yield row * cols + col, tile

    def copy(self) -> InfiniteBoard:
        """An independent copy of this board."""
        other = object.__new__(InfiniteBoard)
        other.variant = self.variant
        other._tiles = dict(self._tiles)
        return other

    def bounds(self, margin: int = 0) -> tuple[Square, Square]:
        """The corners ``(top, left), (bottom, right)`` of the smallest rectangle holding every tile and
        the start square, widened by ``margin`` on each side."""
        row, col = self.variant.start
        top = bottom = row
        left = right = col
        if self._tiles:
            # Packed row by row: the first and last keys hold the top and bottom rows.
            keys = self._tiles.keys()
            top = min(top, _unpack(min(keys))[0])
            bottom = max(bottom, _unpack(max(keys))[0])
            cols = [key % _PACK_SPAN for key in keys]
            left = min(left, min(cols) - _PACK_OFFSET)
            right = max(right, max(cols) - _PACK_OFFSET)
        return (top - margin, left - margin), (bottom + margin, right + margin)

    def rows_text(self) -> list[str]:
        """One line per tile, ``x,y TILE``, row by row (the inverse of :meth:`Board.from_rows`)."""
        return [f"{col},{row} {tile}" for (row, col), tile in self.tiles()]

    def ascii(self, margin: int = 2) -> str:
        """The squares around the tiles (``margin`` more on each side) drawn as text, rows and columns
        labelled with their coordinates: ``#`` a hole, ``*`` the start, ``.`` an empty square (premiums
        as :meth:`Board.ascii` draws them)."""
        (top, left), (bottom, right) = self.bounds(margin)
        width = max(len(str(col)) for col in range(left, right + 1))
        label = max(len(str(row)) for row in range(top, bottom + 1))
        lines = [" " * (label + 1) + " ".join(f"{col:>{width}}" for col in range(left, right + 1))]
        for row in range(top, bottom + 1):
            chars = []
            for col in range(left, right + 1):
                square = (row, col)
                tile = self._tiles.get(_pack(square))
                if tile is not None:
                    char = tile
                elif not self.variant.on_board(square):
                    char = HOLE_CHAR
                elif square == self.variant.start:
                    char = "*"
                else:
                    char = _PREMIUM_CHARS[self.variant.premium(square)]
                chars.append(f"{char:>{width}}")
            lines.append(f"{row:>{label}} " + " ".join(chars))
        return "\n".join(lines)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, InfiniteBoard):
            return NotImplemented
        return self.variant == other.variant and self._tiles == other._tiles

    __hash__ = None

    def __repr__(self) -> str:
        return f"<InfiniteBoard {self.variant.name} {len(self._tiles)} tiles>"


_PACK_OFFSET = 1 << 30
_PACK_SPAN = 1 << 31


def _pack(square: Square) -> int:
    """``square`` as one number, in the order of squares (row by row): for coordinates of either sign
    below 2**30 in size."""
    row, col = square
    return (row + _PACK_OFFSET) * _PACK_SPAN + col + _PACK_OFFSET


def _unpack(key: int) -> Square:
    """The square :func:`_pack` made ``key`` of."""
    row, col = divmod(key, _PACK_SPAN)
    return row - _PACK_OFFSET, col - _PACK_OFFSET
