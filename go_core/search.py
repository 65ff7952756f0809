"""The Monte Carlo search's entry: a :class:`SearchTree` over a game's position, native when it can.

The search is written twice: in C (``go_core/_search.c``, an optional extension built at install where
a compiler is available) and in Python (:class:`go_core.tree.PySearch`, the reference and the
fallback). Both make the same choices for the same seed. The native one is used when it is built,
unless ``SCRABBLE_PURE_PYTHON=1`` is set (which one is in use is logged once).
"""

from __future__ import annotations

import functools
import logging
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, TypeAlias

from go_core.board import Board
from go_core.errors import GoError
from go_core.game import Game, Setup
from go_core.patterns import pattern_table
from go_core.playout import zobrist_keys
from go_core.points import Color, Point
from go_core.scoring import ScoringMethod
from go_core.tree import PySearch

if TYPE_CHECKING:
    from go_core._search import Search

logger = logging.getLogger(__name__)

PURE_PYTHON_ENV: Final = "SCRABBLE_PURE_PYTHON"
"""Set to ``1``, the search runs in Python even when the native one is built."""
DEFAULT_MAX_NODES: Final = 1_000_000
"""The most nodes a tree holds (about 56 MB natively): past it, leaves are no longer expanded."""
_CODES: Final = {None: 0, Color.BLACK: 1, Color.WHITE: 2}


SearchTree: TypeAlias = "Search | PySearch"
"""A search tree: ``go_core._search.Search`` or :class:`go_core.tree.PySearch` (see the latter)."""
SearchFactory = Callable[[int, float, bytes, int, int, int, int, Iterable[int], int, bytes, int], SearchTree]


@dataclass(frozen=True, slots=True)
class Position:
    """What the search needs of a game: the board (one byte a point, row 0 first: 0 empty, 1 black,
    2 white), the komi it counts with, the player to move (1 or 2), the point that player may not retake
    at once (-1: none), the last stone played (-1: none), the passes in a row before, and the hashes of
    the game's earlier positions (for positional superko)."""

    size: int
    komi: float
    cells: bytes
    to_move: int
    ko: int
    last: int
    passes: int
    history: tuple[int, ...]


def position_of(game: Game, color: Color | None = None, *, passes: int | None = None) -> Position:
    """``game``'s position with ``color`` (default: the player to move) to play; ``passes`` replaces the
    passes in a row (0 to play a finished position out); the komi is :func:`search_komi`'s."""
    color = game.to_move if color is None else color
    size = game.size
    board = game.board
    last_move = game.last_move
    last = -1 if last_move is None or last_move.point is None else _index(size, last_move.point)
    ko = -1
    if (
        last_move is not None
        and last_move.point is not None
        and last_move.color is color.opponent
        and len(last_move.captured) == 1
        and len(board.group(last_move.point)) == 1
        and len(board.liberties(last_move.point)) == 1
    ):
        ko = _index(size, last_move.captured[0])
    return Position(
        size=size,
        komi=search_komi(game),
        cells=board_cells(board),
        to_move=_CODES[color],
        ko=ko,
        last=last,
        passes=game.passes if passes is None else passes,
        history=_history(game),
    )


def search_komi(game: Game) -> float:
    """The komi the search counts ``game`` with: White's komi plus, under area scoring, a point per
    handicap stone (as :meth:`Game.score` counts)."""
    return game.komi + (game.handicap if game.method is ScoringMethod.AREA else 0)


def new_search(
    position: Position, seed: int, *, max_nodes: int = DEFAULT_MAX_NODES, native: bool | None = None
) -> SearchTree:
    """A search tree with only its root, ``position``; its playouts seeded with ``seed``. ``native``:
    ``None`` for the default (:func:`native_search`), ``True`` for the native one (``GoError`` if it is
    not built), ``False`` for Python's."""
    factory: SearchFactory
    if native is None:
        factory = native_search() or PySearch
    elif native:
        built = _import_native()
        if built is None:
            raise GoError("the native Go search go_core._search is not built")
        factory = built
    else:
        factory = PySearch
    return factory(
        position.size,
        position.komi,
        position.cells,
        position.to_move,
        position.ko,
        position.last,
        position.passes,
        position.history,
        seed,
        pattern_table(),
        max_nodes,
    )


def move_index(size: int, point: Point | None) -> int:
    """The search's number for a move: ``row * size + col``, -1 for a pass."""
    return -1 if point is None else _index(size, point)


def index_point(size: int, index: int) -> Point | None:
    """The move the search numbers ``index`` (see :func:`move_index`)."""
    if index < 0:
        return None
    row, col = divmod(index, size)
    return Point(col, row)


def _index(size: int, point: Point) -> int:
    return point.row * size + point.col


def _history(game: Game) -> tuple[int, ...]:
    """The hashes of the positions of ``game`` that count for superko (since its last setup, if any:
    see :meth:`Game.setup`), the current one last, replayed from its moves and setups."""
    size = game.size
    keys, width, points = zobrist_keys(size), size + 2, (size + 2) ** 2
    stones: dict[Point, Color] = {}
    value = 0

    def put(point: Point, color: Color | None) -> None:
        nonlocal value
        index = (point.row + 1) * width + point.col + 1
        old = stones.pop(point, None)
        if old is not None:
            value ^= keys[(_CODES[old] - 1) * points + index]
        if color is not None:
            stones[point] = color
            value ^= keys[(_CODES[color] - 1) * points + index]

    for point in game.handicap_stones:
        put(point, Color.BLACK)
    setups: dict[int, list[Setup]] = {}
    for at, setup in game.setups:
        setups.setdefault(at, []).append(setup)
    hashes = [value]
    for number in range(len(game.moves) + 1):
        for setup in setups.get(number, []):
            for color, placed in (
                (Color.BLACK, setup.black),
                (Color.WHITE, setup.white),
                (None, setup.empty),
            ):
                for point in placed:
                    put(point, color)
            hashes = [value]
        if number < len(game.moves):
            move = game.moves[number]
            if move.point is not None:
                put(move.point, move.color)
                for taken in move.captured:
                    put(taken, None)
                hashes.append(value)
    return tuple(hashes)


def _import_native() -> SearchFactory | None:
    """The native search's class, or ``None`` if the extension is not built."""
    try:
        from go_core._search import Search
    except ImportError:
        return None
    return Search


@functools.cache
def native_search() -> SearchFactory | None:
    """The native search's class if searches use it by default (it is built and
    ``SCRABBLE_PURE_PYTHON`` is not ``1``), else ``None``. Logs the choice the first time."""
    if os.environ.get(PURE_PYTHON_ENV) == "1":
        logger.info("Go search: pure Python (%s=1)", PURE_PYTHON_ENV)
        return None
    built = _import_native()
    if built is None:
        logger.info("Go search: pure Python (the native core go_core._search is not built)")
    else:
        logger.info("Go search: native core")
    return built


def board_cells(board: Board) -> bytes:
    """``board`` as :class:`Position` lays out its cells."""
    size = board.size
    cells = bytearray(size * size)
    for stone in (Color.BLACK, Color.WHITE):
        for point in board.stones(stone):
            cells[point.row * size + point.col] = _CODES[stone]
    return bytes(cells)
