"""3×3 shape patterns of good moves: hane, cuts and moves at the edge (the patterns of MoGo's playouts,
Gelly et al., 2006), as a lookup table over the eight points around a move.

A pattern is drawn as three rows, the north row first, the move in the middle (``.``): ``X`` and ``O``
are stones of the two colours, either way round (a pattern is good for both players); ``.`` is an empty
point, ``#`` off the board, ``x`` anything but an ``X`` stone, ``o`` anything but an ``O`` stone, ``?``
anything. Each pattern also matches turned and mirrored.

The table (:func:`pattern_table`) has one byte per way the eight neighbours can be filled: the
neighbours in the order north-west, north, north-east, west, east, south-west, south, south-east, each
two bits (0 empty, 1 black, 2 white, 3 off the board) from the lowest bits up; 1 for a good move. The
playouts and the tree's priors read it (in Python and in C) through the same index.
"""

from __future__ import annotations

import itertools
from functools import cache
from typing import Final

EMPTY: Final = 0
BLACK: Final = 1
WHITE: Final = 2
EDGE: Final = 3

PATTERNS: Final = (
    # hane: enclosing hane; non-cutting hane; magari; diagonal attachment
    ("XOX", "...", "???"),
    ("XO.", "...", "?.?"),
    ("XO?", "X..", "x.?"),
    (".O.", "X..", "..."),
    # cuts: unprotected cut; peeped cut; pushing between (de); the knight's-move cut
    ("XO?", "O.o", "?o?"),
    ("XO?", "O.X", "???"),
    ("?X?", "O.O", "ooo"),
    ("OX?", "o.O", "???"),
    # at the edge: chase; blocking a cut; blocking a connection; sagari; cut
    ("X.?", "O.?", "###"),
    ("OX?", "X.O", "###"),
    ("?X?", "x.O", "###"),
    ("?XO", "x.x", "###"),
    ("?OX", "X.O", "###"),
)

NEIGHBOUR_CELLS: Final = ((0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2))
"""The eight neighbours' (row, column) in a pattern's drawing, in the table's order."""
TABLE_SIZE: Final = 4**8


def _symmetries() -> list[tuple[tuple[int, int], ...]]:
    """For each of the eight turns and mirrors of a 3×3 square, where each neighbour cell goes."""
    maps = []
    for turns in range(4):
        for mirror in (False, True):
            cells = []
            for row, col in NEIGHBOUR_CELLS:
                r, c = (row, 2 - col) if mirror else (row, col)
                for _ in range(turns):
                    r, c = c, 2 - r
                cells.append((r, c))
            maps.append(tuple(cells))
    return maps


def _choices(symbol: str, x: int, o: int) -> tuple[int, ...]:
    """The states a pattern's ``symbol`` matches when ``X`` is colour ``x`` and ``O`` colour ``o``."""
    every = (EMPTY, BLACK, WHITE, EDGE)
    return {
        "X": (x,),
        "O": (o,),
        ".": (EMPTY,),
        "#": (EDGE,),
        "x": tuple(state for state in every if state != x),
        "o": tuple(state for state in every if state != o),
        "?": every,
    }[symbol]


@cache
def pattern_table() -> bytes:
    """The lookup table of good moves (see the module's docstring): :data:`TABLE_SIZE` bytes."""
    table = bytearray(TABLE_SIZE)
    for rows in PATTERNS:
        for cells in _symmetries():
            for x, o in ((BLACK, WHITE), (WHITE, BLACK)):
                options = [_choices(rows[r][c], x, o) for r, c in cells]
                for states in itertools.product(*options):
                    table[sum(state << (2 * i) for i, state in enumerate(states))] = 1
    return bytes(table)
