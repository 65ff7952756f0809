"""A Go board as terminal text, in the console's two styles (:class:`bot.console.terminal_board.Style`):

- ``PLAIN``: ASCII. ``X`` black, ``O`` white, ``.`` empty, ``+`` a star point; the last stone played is
  in parentheses, ``(X)``; in the dead-stone phase dead stones are lowercase (``x``, ``o``) and
  territory is ``,`` for Black and ``'`` for White.
- ``RICH``: ANSI 256 colours on a wood background, stones as ``●``, the last stone on orange, dead
  stones as ``×``, territory as a small square in its owner's colour.
"""

from __future__ import annotations

from typing import Final

from bot.console.terminal_board import Style
from go_core import COLUMNS, Color, Game, Phase, Point, star_points
from go_core.scoring import territory_owner

_RESET: Final = "\x1b[0m"
_WOOD: Final = 179
_LAST: Final = 208
_INK: Final = {Color.BLACK: 16, Color.WHITE: 231}
_GRID: Final = 94
_PLAIN_STONES: Final = {Color.BLACK: "X", Color.WHITE: "O"}
_PLAIN_TERRITORY: Final = {Color.BLACK: ",", Color.WHITE: "'"}


def draw_go_board(game: Game, drawing: Style) -> str:
    """``game``'s board with column letters above and below and row numbers on both sides; the last
    stone marked; in the dead-stone phase the dead stones and the territory shown (see the module)."""
    size, board = game.size, game.board
    scoring = game.phase is not Phase.PLAY and not (game.result or "").endswith("+R")
    dead = game.dead if scoring else frozenset()
    owners = territory_owner(board, dead) if scoring else {}
    last = game.last_move.point if game.last_move is not None else None
    stars = set(star_points(size))
    width = len(str(size))
    header = " " * (width + 1) + " ".join(COLUMNS[:size])
    lines = [header]
    for row in reversed(range(size)):
        cells = []
        for col in range(size):
            point = Point(col, row)
            cells.append(_cell(board[point], owners.get(point), point in dead, point in stars, drawing))
        if drawing is Style.RICH:
            body = _rich_row(cells, [Point(col, row) == last for col in range(size)])
        else:
            body = _plain_row(cells, [Point(col, row) == last for col in range(size)])
        lines.append(f"{row + 1:>{width}}{body}{row + 1}")
    lines.append(header)
    return "\n".join(lines)


def _cell(stone: Color | None, owner: Color | None, dead: bool, star: bool, drawing: Style) -> str:
    if drawing is Style.PLAIN:
        if stone is not None:
            return _PLAIN_STONES[stone].lower() if dead else _PLAIN_STONES[stone]
        if owner is not None:
            return _PLAIN_TERRITORY[owner]
        return "+" if star else "."
    if stone is not None:
        return f"\x1b[38;5;{_INK[stone]}m{'×' if dead else '●'}"
    if owner is not None:
        return f"\x1b[38;5;{_INK[owner]}m▪"
    return f"\x1b[38;5;{_GRID}m{'+' if star else '·'}"


def _plain_row(cells: list[str], last: list[bool]) -> str:
    """`` X . (O) .``: a space before each cell, parentheses around the last stone."""
    text = ""
    for index, cell in enumerate(cells):
        opening = "(" if last[index] else ")" if index and last[index - 1] else " "
        text += opening + cell
    return text + (")" if last and last[-1] else " ")


def _rich_row(cells: list[str], last: list[bool]) -> str:
    text = ""
    for cell, marked in zip(cells, last, strict=True):
        text += f"\x1b[48;5;{_WOOD}m " + (f"\x1b[48;5;{_LAST}m{cell}" if marked else cell)
    return text + f"\x1b[48;5;{_WOOD}m {_RESET} "
