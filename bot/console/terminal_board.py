"""The game drawn as terminal text: the board, a rack, the score header and the scores turn by turn.

Drawn from the engine's :class:`~scrabble_core.board.Board` (not from the PNG), in one of two styles:

- :attr:`Style.RICH`: ANSI 256-colour backgrounds in the palette of the PNG board (:mod:`bot.render.style`)
  and tile values as Unicode subscripts (``Q₁₀``); the last move on a bright yellow face, far from the
  tiles' beige in the xterm palette.
- :attr:`Style.PLAIN`: ASCII only, for terminals without colour, ``NO_COLOR`` or ``--ascii``; each cell
  is ``Q10``, and a ``>`` before a tile marks the last move.

In both, a cell is four characters: a space (or the mark) and three for the tile and its value, so a
two-digit value is always followed by a space or a mark, never by the next tile. Premium squares are
labelled ``TW DW TL DL`` (``QW QL`` on Super boards), the start square ``*``, holes ``#``, and a blank is
its letter in lowercase, worth nothing; :func:`legend` explains the labels a board has.
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Sequence
from typing import Final

from bot.games.scrabble.images import BoardHeader
from bot.render import style
from scrabble_core.board import Board
from scrabble_core.squares import COLUMN_LETTERS, Square
from scrabble_core.variant import BLANK, Premium, Variant


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
_LAST_MOVE_FACE: Final = 226
"""The xterm colour of the last move's tiles: pure yellow (the PNG's pale yellow rounds to the tiles'
beige, 222 against 223)."""


def legend(variant: Variant, drawing: Style) -> str:
    """What the labels of ``variant``'s board mean: each premium it has, the start, holes if it has
    any, blanks and the last move."""
    premiums = {premium for row in variant.layout for premium in row}
    labels = [
        f"{style.PREMIUM_LABELS[premium]} {name}"
        for premium, name in _PREMIUM_NAMES.items()
        if premium in premiums
    ]
    labels.append("* start")
    if None in premiums:
        labels.append("# no square" if drawing is Style.PLAIN else "a blank dark cell is no square")
    return f"{', '.join(labels)}; a lowercase tile is a blank (0 points); {_LAST_MOVE_LEGEND[drawing]}."


def draw_board(board: Board, last_move: Collection[Square], drawing: Style) -> str:
    """The board with column letters above and below, row numbers on both sides and ``last_move``
    highlighted."""
    variant = board.variant
    width = len(str(variant.rows))
    letters = "".join(f" {letter}  " for letter in COLUMN_LETTERS[: variant.cols])
    columns = " " * (width + 1) + letters.rstrip()
    lines = [columns]
    for row in range(variant.rows):
        cells = "".join(
            _cell(board, (row, col), (row, col) in last_move, drawing) for col in range(variant.cols)
        )
        lines.append(f"{row + 1:>{width}} {cells} {row + 1}")
    lines.append(columns)
    return "\n".join(lines)


def draw_rack(rack: str, variant: Variant, drawing: Style) -> str:
    """A rack as tiles with their values (``?`` a blank); ``(empty)`` for no tile."""
    if not rack:
        return "(empty)"
    if drawing is Style.PLAIN:
        return " ".join(tile if tile == BLANK else f"{tile}{variant.value(tile)}" for tile in rack)
    return " ".join(
        _paint(" ? ", _xterm(style.BLANK_TEXT), _xterm(style.BLANK_FACE))
        if tile == BLANK
        else _paint(
            f"{tile}{_subscript(variant.value(tile))}".center(3),
            _xterm(style.TILE_TEXT),
            _xterm(style.TILE_FACE),
        )
        for tile in rack
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
    """One square: a space (or the last move's mark) and 3 characters, in colour (RICH) or not."""
    variant = board.variant
    tile = board[square]
    premium = variant.layout[square[0]][square[1]]
    if drawing is Style.PLAIN:
        if tile is not None:
            value = "" if tile.islower() else str(variant.value(tile))
            return f"{_LAST_MARK if last else ' '}{tile + value:<3}"
        return f" {_label(variant, square, premium) or '.':<3}"
    if tile is not None:
        blank = tile.islower()
        text = tile if blank else f"{tile}{_subscript(variant.value(tile))}"
        ink = style.BLANK_TEXT if blank else style.TILE_TEXT
        face = _xterm(style.BLANK_FACE if blank else style.TILE_FACE)
        return _paint(f" {text:<3}", _xterm(ink), _LAST_MOVE_FACE if last else face)
    if premium is None:
        return _paint("    ", _xterm(style.FRAME), _xterm(style.FRAME))
    ink = style.DARK_LABEL if premium in _LIGHT_PREMIUMS else style.LIGHT_LABEL
    label = _label(variant, square, premium)
    return _paint(f" {label:<3}", _xterm(ink), _xterm(style.PREMIUM_COLOURS[premium]))


def _label(variant: Variant, square: Square, premium: Premium | None) -> str:
    """What an empty square shows: its premium, ``*`` for the start, ``#`` for a hole, else nothing."""
    if premium is None:
        return "#"
    if square == variant.start:
        return "*"
    return style.PREMIUM_LABELS.get(premium, "")


def _subscript(value: int) -> str:
    return str(value).translate(_SUBSCRIPTS)


def _paint(text: str, ink: int, face: int) -> str:
    """``text`` in the xterm-256 colour ``ink`` on ``face``, bold."""
    return f"\x1b[1;38;5;{ink};48;5;{face}m{text}{_RESET}"


def _xterm(colour: style.RGB) -> int:
    """The nearest colour of the xterm 6x6x6 cube."""
    red, green, blue = (round(channel / 255 * 5) for channel in colour)
    return 16 + 36 * red + 6 * green + blue
