"""The board: stones on points, groups and their liberties, captures.

A :class:`Board` knows only the stones; whose turn it is, the ko and the history belong to
:class:`go_core.game.Game`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from typing import Final

from go_core.errors import GoError, OccupiedError, SuicideError
from go_core.points import Color, Point, check_size

_SYMBOLS: Final = {"X": Color.BLACK, "B": Color.BLACK, "#": Color.BLACK, "O": Color.WHITE, "W": Color.WHITE}
_EMPTY_SYMBOLS: Final = frozenset(".+-")
_KEY_BYTES: Final = {None: b".", Color.BLACK: b"X", Color.WHITE: b"O"}


@lru_cache(maxsize=32)
def neighbour_table(size: int) -> tuple[tuple[int, ...], ...]:
    """For each point index (``row * size + col``), the indices of its two to four neighbours."""
    table = []
    for index in range(size * size):
        row, col = divmod(index, size)
        around = []
        if col > 0:
            around.append(index - 1)
        if col < size - 1:
            around.append(index + 1)
        if row > 0:
            around.append(index - size)
        if row < size - 1:
            around.append(index + size)
        table.append(tuple(around))
    return tuple(table)


class Board:
    """A square Go board of 2 to 25 lines, empty or with stones. Mutable: :meth:`play` changes it."""

    __slots__ = ("_cells", "_neighbours", "size")

    def __init__(self, size: int = 19) -> None:
        """An empty ``size``×``size`` board.

        Raises:
            BoardSizeError: ``size`` is not 2 to 25.
        """
        self.size = check_size(size)
        self._cells: list[Color | None] = [None] * (size * size)
        self._neighbours = neighbour_table(size)

    @classmethod
    def from_rows(cls, rows: Sequence[str]) -> Board:
        """The board drawn by ``rows``, the top row first: ``X`` (or ``B``, ``#``) a black stone, ``O``
        (or ``W``) a white one, ``.`` (or ``+``, ``-``) an empty point; spaces are ignored. Groups without
        liberties are allowed (a position to test, not one reached by play).

        Raises:
            GoError: the rows are not a square of 2 to 25 lines, or hold another character.
        """
        lines = [row.replace(" ", "") for row in rows]
        board = cls(len(lines))
        for number, line in enumerate(lines):
            if len(line) != board.size:
                raise GoError(f"row {number + 1} has {len(line)} points, not {board.size}")
            row = board.size - 1 - number
            for col, symbol in enumerate(line.upper()):
                if symbol in _SYMBOLS:
                    board._cells[row * board.size + col] = _SYMBOLS[symbol]
                elif symbol not in _EMPTY_SYMBOLS:
                    raise GoError(f"{symbol!r} is not a stone nor an empty point (X, O or .)")
        return board

    def rows(self) -> list[str]:
        """The board as :meth:`from_rows` reads it: ``X``, ``O`` and ``.``, top row first."""
        symbols = {None: ".", Color.BLACK: "X", Color.WHITE: "O"}
        size = self.size
        return [
            "".join(symbols[self._cells[row * size + col]] for col in range(size))
            for row in reversed(range(size))
        ]

    def copy(self) -> Board:
        """An independent board with the same stones."""
        board = Board.__new__(Board)
        board.size = self.size
        board._cells = self._cells.copy()
        board._neighbours = self._neighbours
        return board

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self.size == other.size and self._cells == other._cells

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"Board.from_rows({self.rows()!r})"

    def __str__(self) -> str:
        return "\n".join(self.rows())

    def __getitem__(self, point: Point) -> Color | None:
        return self._cells[self._index(point)]

    def points(self) -> Iterator[Point]:
        """Every point, top row first and left to right in a row (GNU Go's order)."""
        for row in reversed(range(self.size)):
            for col in range(self.size):
                yield Point(col, row)

    def stones(self, color: Color | None = None) -> list[Point]:
        """The points holding a stone (of ``color`` if given), in :meth:`points` order."""
        return [
            point
            for point in self.points()
            if (stone := self._cells[point.row * self.size + point.col]) is not None
            and (color is None or stone is color)
        ]

    def count(self, color: Color) -> int:
        """How many stones of ``color`` are on the board."""
        return self._cells.count(color)

    def key(self) -> bytes:
        """The position as bytes: equal for equal boards, for the superko rule."""
        return b"".join(_KEY_BYTES[cell] for cell in self._cells)

    def group(self, point: Point) -> frozenset[Point]:
        """The stones connected to the stone on ``point`` (empty if the point is empty)."""
        index = self._index(point)
        if self._cells[index] is None:
            return frozenset()
        stones, _ = self._group(index)
        return frozenset(self._point(i) for i in stones)

    def liberties(self, point: Point) -> frozenset[Point]:
        """The empty points next to the group on ``point`` (empty if the point is empty)."""
        index = self._index(point)
        if self._cells[index] is None:
            return frozenset()
        _, liberties = self._group(index)
        return frozenset(self._point(i) for i in liberties)

    def neighbours(self, point: Point) -> list[Point]:
        """The two to four points next to ``point``."""
        return [self._point(i) for i in self._neighbours[self._index(point)]]

    def place(self, color: Color | None, points: Iterable[Point]) -> None:
        """Put ``color`` (``None``: nothing) on ``points`` as they are: no capture, no check (setting up a
        position, removing dead stones)."""
        for point in points:
            self._cells[self._index(point)] = color

    def captures_of(self, color: Color, point: Point) -> list[Point]:
        """The stones a ``color`` stone on the empty ``point`` would capture, without playing it."""
        index = self._index(point)
        captured: set[int] = set()
        for near in self._neighbours[index]:
            if self._cells[near] is color.opponent and near not in captured:
                stones, liberties = self._group(near)
                if liberties == {index}:
                    captured.update(stones)
        return [self._point(i) for i in sorted(captured)]

    def allows(self, color: Color, point: Point) -> bool:
        """Whether :meth:`play` would put a ``color`` stone on ``point`` (empty, and not self-capture);
        nothing changes."""
        index = self._index(point)
        if self._cells[index] is not None:
            return False
        return self._has_liberty_after(color, index) or bool(self.captures_of(color, point))

    def play(self, color: Color, point: Point) -> list[Point]:
        """Put a ``color`` stone on ``point``, take the opponent's groups it leaves without liberties
        and return the captured points. Nothing changes when it raises.

        Raises:
            OccupiedError: ``point`` holds a stone.
            SuicideError: the stone captures nothing and its group would have no liberties.
        """
        index = self._index(point)
        if self._cells[index] is not None:
            raise OccupiedError(str(point))
        captured = self.captures_of(color, point)
        if not captured and not self._has_liberty_after(color, index):
            raise SuicideError(str(point))
        self._cells[index] = color
        self.place(None, captured)
        return captured

    def _has_liberty_after(self, color: Color, index: int) -> bool:
        """Whether a ``color`` stone on the empty ``index`` has a liberty when it captures nothing."""
        cells = self._cells
        for near in self._neighbours[index]:
            cell = cells[near]
            if cell is None:
                return True
            if cell is color and len(self._group(near)[1] - {index}) > 0:
                return True
        return False

    def _group(self, index: int) -> tuple[set[int], set[int]]:
        """The stones of the group on ``index`` and its liberties, as indices."""
        cells, neighbours = self._cells, self._neighbours
        color = cells[index]
        stones = {index}
        liberties: set[int] = set()
        todo = [index]
        while todo:
            for near in neighbours[todo.pop()]:
                cell = cells[near]
                if cell is None:
                    liberties.add(near)
                elif cell is color and near not in stones:
                    stones.add(near)
                    todo.append(near)
        return stones, liberties

    def _index(self, point: Point) -> int:
        col, row = point
        if not (0 <= col < self.size and 0 <= row < self.size):
            raise GoError(f"({col}, {row}) is off this {self.size}×{self.size} board")
        return row * self.size + col

    def _point(self, index: int) -> Point:
        row, col = divmod(index, self.size)
        return Point(col, row)
