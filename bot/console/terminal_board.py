"""The game drawn as terminal text: the board, a rack, the score header and the scores turn by turn.

Drawn from the engine's :class:`~scrabble_core.board.Board` (not from the PNG), in one of two styles:

- :attr:`Style.RICH`: ANSI 256-colour backgrounds in the palette of the PNG board (:mod:`bot.render.style`)
  and tile values as Unicode subscripts (``Q₁₀``); the last move on a yellow face.
- :attr:`Style.PLAIN`: ASCII only, for terminals without colour, ``NO_COLOR`` or ``--ascii``; each cell
  is ``Q10``, and a ``>`` before a tile marks the last move.

In both, premium squares are labelled ``TW DW TL DL`` (``QW QL`` on Super boards), the start square
``*``, holes ``#``, and a blank is its letter in lowercase, worth nothing.
"""

from __future__ import annotations

import enum
from collections.abc import Collection, Sequence
from typing import Final

from bot.render import BoardHeader, style
from scrabble_core.board import Board
from scrabble_core.squares import COLUMN_LETTERS, Square
from scrabble_core.variant import BLANK, Premium, Variant


class Style(enum.Enum):
    """How the drawings look: ANSI colours and Unicode, or plain ASCII."""

    RICH = "rich"
    PLAIN = "plain"


LEGEND: Final = {
    Style.RICH: "TW/DW triple/double word, TL/DL triple/double letter, * start; a lowercase tile is a "
    "blank (0 points); the last move is on yellow.",
    Style.PLAIN: "TW/DW triple/double word, TL/DL triple/double letter, * start, # no square; a lowercase "
    "tile is a blank (0 points); > marks the tiles of the last move.",
}

_SUBSCRIPTS: Final = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")
_LIGHT_PREMIUMS: Final = frozenset({Premium.PLAIN, Premium.DOUBLE_LETTER, Premium.DOUBLE_WORD})
_RESET: Final = "\x1b[0m"
_LAST_MARK: Final = ">"


def draw_board(board: Board, last_move: Collection[Square], drawing: Style) -> str:
    """The board with column letters above and below, row numbers on both sides and ``last_move``
    highlighted."""
    variant = board.variant
    width = len(str(variant.rows))
    rich = drawing is Style.RICH
    letters = "".join(f" {letter} " if rich else f" {letter}  " for letter in COLUMN_LETTERS[: variant.cols])
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
        _paint(" ? ", style.BLANK_TEXT, style.BLANK_FACE)
        if tile == BLANK
        else _paint(f"{tile}{_subscript(variant.value(tile))}".center(3), style.TILE_TEXT, style.TILE_FACE)
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
    """One square: 3 characters in colour (RICH), or a mark and 3 characters (PLAIN)."""
    variant = board.variant
    tile = board[square]
    premium = variant.layout[square[0]][square[1]]
    if drawing is Style.PLAIN:
        if tile is not None:
            value = "" if tile.islower() else str(variant.value(tile))
            return f"{_LAST_MARK if last else ' '}{tile + value:<3}"
        return f" {_label(variant, square, premium) or '.':<3}"
    if tile is not None:
        if tile.islower():
            return _paint(f"{tile:^3}", style.BLANK_TEXT, style.LAST_MOVE_FACE if last else style.BLANK_FACE)
        text = f"{tile}{_subscript(variant.value(tile))}"
        return _paint(f"{text:^3}", style.TILE_TEXT, style.LAST_MOVE_FACE if last else style.TILE_FACE)
    if premium is None:
        return _paint("   ", style.FRAME, style.FRAME)
    ink = style.DARK_LABEL if premium in _LIGHT_PREMIUMS else style.LIGHT_LABEL
    return _paint(f"{_label(variant, square, premium):^3}", ink, style.PREMIUM_COLOURS[premium])


def _label(variant: Variant, square: Square, premium: Premium | None) -> str:
    """What an empty square shows: its premium, ``*`` for the start, ``#`` for a hole, else nothing."""
    if premium is None:
        return "#"
    if square == variant.start:
        return "*"
    return style.PREMIUM_LABELS.get(premium, "")


def _subscript(value: int) -> str:
    return str(value).translate(_SUBSCRIPTS)


def _paint(text: str, ink: style.RGB, face: style.RGB) -> str:
    """``text`` in the xterm-256 colours nearest to ``ink`` on ``face``, bold."""
    return f"\x1b[1;38;5;{_xterm(ink)};48;5;{_xterm(face)}m{text}{_RESET}"


def _xterm(colour: style.RGB) -> int:
    """The nearest colour of the xterm 6x6x6 cube."""
    red, green, blue = (round(channel / 255 * 5) for channel in colour)
    return 16 + 36 * red + 6 * green + blue
