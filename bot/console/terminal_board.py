"""The game drawn as terminal text: the board, a rack, the score header and the scores turn by turn.

Drawn from the engine's :class:`~scrabble_core.board.Board` (not from the PNG), in one of two styles:

- :attr:`Style.RICH`: ANSI 256-colour backgrounds in the palette of the PNG board (:mod:`bot.render.style`)
  and tile values as Unicode subscripts (``Q₁₀``); the last move on a bright yellow face, far from the
  tiles' beige in the xterm palette.
- :attr:`Style.PLAIN`: ASCII only, for terminals without colour, ``NO_COLOR`` or ``--ascii``; each cell
  is ``Q10``, and a ``>`` before a tile marks the last move.

In both, a cell is four characters: a space (or the mark) and three for the tile and its value, so a
two-digit value is always followed by a space or a mark, never by the next tile. Premium squares are
labelled ``TW DW TL DL`` (``QW QL`` on Super boards), program squares ``P`` and their square id, the
start square ``*``, holes ``#``, and a blank is its letter in lowercase, worth nothing; a set tile shows
the letter chosen and its points, in its own colours (or after a ``+`` in ASCII); :func:`legend`
explains the labels a board has. An infinite board is drawn as the window the images show
(:func:`~bot.games.scrabble.board_view.view_window`), its columns and rows labelled with their signed
``x`` and ``y``.
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Sequence
from typing import Final

from bot.games.scrabble.board_view import (
    PREMIUM_LABELS,
    SquareLook,
    TileLook,
    Window,
    board_tile,
    program_legend,
    rack_look,
    square_look,
    view_window,
)
from bot.games.scrabble.images import BoardHeader
from bot.render import style
from scrabble_core.board import Board
from scrabble_core.squares import Square
from scrabble_core.variant import Premium, Variant


class Style(enum.Enum):
    """How the drawings look: ANSI colours and Unicode, or plain ASCII."""

    RICH = "rich"
    PLAIN = "plain"


_PREMIUM_NAMES: Final = {
    Premium.QUADRUPLE_WORD: "quadruple word",
    Premium.TRIPLE_WORD: "triple word",
    Premium.DOUBLE_WORD: "double word",
    Premium.QUADRUPLE_LETTER: "quadruple letter",
    Premium.TRIPLE_LETTER: "triple letter",
    Premium.DOUBLE_LETTER: "double letter",
}
_LAST_MOVE_LEGEND: Final = {
    Style.RICH: "the last move is on bright yellow",
    Style.PLAIN: "> marks the tiles of the last move",
}
_SUBSCRIPTS: Final = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
_LIGHT_PREMIUMS: Final = frozenset({Premium.PLAIN, Premium.DOUBLE_LETTER, Premium.DOUBLE_WORD})
_RESET: Final = "\x1b[0m"
_LAST_MARK: Final = ">"
_SET_MARK: Final = "+"
_LAST_MOVE_FACE: Final = 226
"""The xterm colour of the last move's tiles: pure yellow (the PNG's pale yellow rounds to the tiles'
beige, 222 against 223)."""


def legend(variant: Variant, drawing: Style, window: Window | None = None) -> str:
    """What the labels of ``variant``'s board mean (of its squares in ``window``; by default the whole
    of a finite board, the first window of an infinite one): each premium it has, its program squares,
    the start, holes if it has any, blanks, set tiles and the last move."""
    window = window or view_window(Board(variant))
    looks = {square_look(variant, square) for square in window.squares()}
    premiums = {look.premium for look in looks if look is not None and look.program is None}
    labels = [
        f"{PREMIUM_LABELS[premium]} {name}" for premium, name in _PREMIUM_NAMES.items() if premium in premiums
    ]
    labels.append("* start")
    if None in looks:
        labels.append("# no square" if drawing is Style.PLAIN else "a blank dark cell is no square")
    programs = "".join(f"; {line}" for line in program_legend(variant))
    sets = ""
    if variant.tile_sets:
        shown = "after a +" if drawing is Style.PLAIN else "on green"
        sets = f"; a set tile shows the letter played as, {shown}"
    return (
        f"{', '.join(labels)}{programs}; a lowercase tile is a blank (0 points){sets}; "
        f"{_LAST_MOVE_LEGEND[drawing]}."
    )


def draw_board(board: Board, last_move: Collection[Square], drawing: Style) -> str:
    """The board (an infinite one's window around its tiles) with the column labels above and below,
    the row labels on both sides and ``last_move`` highlighted."""
    window = view_window(board, last_move)
    width = max(len(window.row_label(row)) for row in range(window.top, window.top + window.rows))
    columns = _column_lines(window, " " * (width + 1))
    lines = list(columns)
    for row in range(window.top, window.top + window.rows):
        cells = "".join(
            _cell(board, (row, col), (row, col) in last_move, drawing)
            for col in range(window.left, window.left + window.cols)
        )
        label = window.row_label(row)
        lines.append(f"{label:>{width}} {cells} {label}")
    lines.extend(columns)
    return "\n".join(lines)


def _column_lines(window: Window, indent: str) -> list[str]:
    """The column labels, each above its cell: one line when they have at most three characters, else
    one line per character (a long signed ``x`` written downwards)."""
    labels = [window.column_label(col) for col in range(window.left, window.left + window.cols)]
    height = max(len(label) for label in labels)
    if height <= 3:
        return [indent + "".join(f" {label:<3}" for label in labels).rstrip()]
    return [
        indent + "".join(f" {label.rjust(height)[line]:<3}" for label in labels).rstrip()
        for line in range(height)
    ]


def draw_rack(rack: str, variant: Variant, drawing: Style) -> str:
    """A rack as tiles with their values (``?`` a blank, a set tile as its number, its letters and
    their points: ``1[AE]1``, ``3[SZ]1/10``); ``(empty)`` for no tile."""
    if not rack:
        return "(empty)"
    return " ".join(_rack_tile(tile, rack_look(variant, tile), drawing) for tile in rack)


def _rack_tile(tile: str, look: TileLook, drawing: Style) -> str:
    """One tile of a rack (see :func:`draw_rack`)."""
    if look.choices:
        points = sorted({points for _, points in look.choices})
        values = "/".join(str(value) if drawing is Style.PLAIN else _subscript(value) for value in points)
        text = f"{tile}[{''.join(letter for letter, _ in look.choices)}]{values}"
        if drawing is Style.PLAIN:
            return text
        return _paint(f" {text} ", _xterm(style.SET_TEXT), _xterm(style.SET_FACE))
    if look.value is None:
        return (
            tile
            if drawing is Style.PLAIN
            else _paint(" ? ", _xterm(style.BLANK_TEXT), _xterm(style.BLANK_FACE))
        )
    if drawing is Style.PLAIN:
        return f"{tile}{look.value}"
    return _paint(
        f"{tile}{_subscript(look.value)}".center(3), _xterm(style.TILE_TEXT), _xterm(style.TILE_FACE)
    )


def draw_header(header: BoardHeader, drawing: Style) -> str:
    """The players and scores in turn order, the one to move marked, and the bag's count."""
    mark = "▶ " if drawing is Style.RICH else "> "
    players = "   ".join(
        f"{mark if player.to_move else ''}{player.name} {player.score}" for player in header.players
    )
    return f"{players}   | bag: {header.bag}"


def draw_scores(players: Sequence[str], totals: Sequence[Sequence[int]]) -> str:
    """Each player's total after each of their turns, one line per player."""
    width = max(len(name) for name in players) + 1
    return "\n".join(
        f"{name + ':':<{width}} {' '.join(str(total) for total in line) or '0'}"
        for name, line in zip(players, totals, strict=True)
    )


def _cell(board: Board, square: Square, last: bool, drawing: Style) -> str:
    """One square: a space (or the last move's mark, or a set tile's) and 3 characters, in colour
    (RICH) or not."""
    variant = board.variant
    tile = board[square]
    look = square_look(variant, square)
    if tile is not None:
        shown = board_tile(variant, tile)
        blank = shown.value is None
        if drawing is Style.PLAIN:
            mark = _LAST_MARK if last else _SET_MARK if shown.choices else " "
            return f"{mark}{tile.lower() if blank else shown.letter + str(shown.value):<3}"
        text = shown.letter.lower() if blank else f"{shown.letter}{_subscript(shown.value or 0)}"
        if shown.choices:
            ink, face = style.SET_TEXT, style.SET_FACE
        elif blank:
            ink, face = style.BLANK_TEXT, style.BLANK_FACE
        else:
            ink, face = style.TILE_TEXT, style.TILE_FACE
        return _paint(f" {text:<3}", _xterm(ink), _LAST_MOVE_FACE if last else _xterm(face))
    if drawing is Style.PLAIN:
        return f" {_label(variant, square, look) or '.':<3}"
    if look is None:
        return _paint("    ", _xterm(style.FRAME), _xterm(style.FRAME))
    program = look.program is not None
    ink = style.DARK_LABEL if look.premium in _LIGHT_PREMIUMS and not program else style.LIGHT_LABEL
    face = style.PROGRAM_SQUARE if program else style.PREMIUM_COLOURS[look.premium]
    return _paint(f" {_label(variant, square, look):<3}", _xterm(ink), _xterm(face))


def _label(variant: Variant, square: Square, look: SquareLook | None) -> str:
    """What an empty square shows: its label (a premium's, a program square's), ``*`` for the start,
    ``#`` for a hole, else nothing."""
    if look is None:
        return "#"
    if square == variant.start:
        return "*"
    return look.label


def _subscript(value: int) -> str:
    return str(value).translate(_SUBSCRIPTS)


def _paint(text: str, ink: int, face: int) -> str:
    """``text`` in the xterm-256 colour ``ink`` on ``face``, bold."""
    return f"\x1b[1;38;5;{ink};48;5;{face}m{text}{_RESET}"


def _xterm(colour: style.RGB) -> int:
    """The nearest colour of the xterm 6x6x6 cube."""
    red, green, blue = (round(channel / 255 * 5) for channel in colour)
    return 16 + 36 * red + 6 * green + blue
