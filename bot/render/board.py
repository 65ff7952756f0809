"""The board image: premium squares, coordinates, tiles, the last move and an optional header.

An image is composed from parts: the empty board of the variant (squares, labels, the start star,
coordinates, frame), one sprite per tile and the header strip. :func:`render_board` takes the parts from
caches (the empty board per variant, the sprites per letter, value, size and state, the header's parts:
see :mod:`bot.render.header`) and :func:`full_redraw` draws every part afresh; both compose them the same way, so
their pixels are identical (the tests and ``bench/render.py`` compare them). The cached parts are only
read once made, so renders may run in several threads at once.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.messages import BoardHeader, PlayerLine
from bot.render import style
from bot.render.drawing import draw_centred, png_bytes, shrink
from bot.render.header import draw_header_strip, header_strip
from bot.render.tiles import draw_tile, tile_image
from scrabble_core.board import Board
from scrabble_core.squares import COLUMN_LETTERS, Square
from scrabble_core.variant import Premium, Variant

_LIGHT_PREMIUMS = {Premium.PLAIN, Premium.DOUBLE_LETTER, Premium.DOUBLE_WORD}
_LABEL_SIZE = 18
_COORDINATE_SIZE = 19


def board_size(variant: Variant, *, header: bool = False) -> tuple[int, int]:
    """Width and height in pixels of the board image of ``variant``, with or without the header."""
    width = variant.cols * style.CELL + 2 * style.MARGIN
    height = variant.rows * style.CELL + 2 * style.MARGIN
    return width, height + (style.HEADER_HEIGHT if header else 0)


def square_box(square: Square, *, header: bool = False) -> tuple[int, int, int, int]:
    """The pixel box ``(left, top, right, bottom)`` of a square's cell in the board image."""
    row, col = square
    left = style.MARGIN + col * style.CELL
    top = style.MARGIN + row * style.CELL + (style.HEADER_HEIGHT if header else 0)
    return left, top, left + style.CELL, top + style.CELL


def render_board(
    board: Board, *, last_move: Collection[Square] = (), header: BoardHeader | None = None
) -> bytes:
    """Draw ``board`` as a PNG and return its bytes.

    The image is :func:`board_size` pixels: every square in its premium colour and labelled while empty,
    holes left out, coordinates on all four edges as players type them (columns ``A``... left to right,
    rows ``1``... top to bottom). Tiles show their letter and value; blanks (lowercase letters on the
    board) show their letter in uppercase in the blank colours and no value. Tiles on ``last_move``
    squares are highlighted (squares there without a tile are ignored). With ``header`` a strip above
    the board lists the players with their scores, marks whose turn it is and gives the bag's count.
    """
    return png_bytes(compose_board(board, last_move=last_move, header=header))


def compose_board(
    board: Board, *, last_move: Collection[Square] = (), header: BoardHeader | None = None
) -> Image.Image:
    """The RGB image :func:`render_board` encodes, composed from cached parts."""
    return _compose(board, last_move, header, _empty_board(board.variant), tile_image, header_strip)


def full_redraw(
    board: Board, *, last_move: Collection[Square] = (), header: BoardHeader | None = None
) -> Image.Image:
    """The image of :func:`compose_board` with every part drawn afresh, no cache used or filled: the
    reference the cached render is compared with, pixel for pixel."""
    return _compose(board, last_move, header, draw_empty_board(board.variant), draw_tile, draw_header_strip)


_TileDrawer = Callable[..., Image.Image]
"""``(letter, value, size, *, last_move) -> RGBA tile``: :func:`draw_tile` or its cache."""


def _compose(
    board: Board,
    last_move: Collection[Square],
    header: BoardHeader | None,
    background: Image.Image,
    tile: _TileDrawer,
    header_strip: Callable[[int, Sequence[PlayerLine], int], Image.Image],
) -> Image.Image:
    """Paste the tiles (and the header strip) onto a copy of the empty ``background``."""
    variant = board.variant
    if header is None:
        canvas = background.copy()
        offset = 0
    else:
        canvas = Image.new("RGB", board_size(variant, header=True), style.FRAME_DARK)
        canvas.paste(header_strip(canvas.width, tuple(header.players), header.bag), (0, 0))
        canvas.paste(background, (0, style.HEADER_HEIGHT))
        offset = style.HEADER_HEIGHT
    highlighted = set(last_move)
    for square, letter in board.tiles():
        value = None if letter.islower() else variant.value(letter)
        sprite = tile(letter.upper(), value, style.CELL, last_move=square in highlighted)
        left, top, _, _ = square_box(square)
        canvas.paste(sprite, (left, top + offset), sprite)
    return canvas


def draw_empty_board(variant: Variant) -> Image.Image:
    """Draw the board of ``variant`` with no tile: frame, coordinates and squares."""
    scale = style.SUPERSAMPLE
    width, height = board_size(variant)
    image = Image.new("RGB", (width * scale, height * scale), style.FRAME)
    draw = ImageDraw.Draw(image)
    cell = style.CELL * scale
    inset = style.SQUARE_INSET * scale
    for row, line in enumerate(variant.layout):
        for col, premium in enumerate(line):
            if premium is None:
                continue
            left, top, right, bottom = (value * scale for value in square_box((row, col)))
            box = (left + inset, top + inset, right - inset - 1, bottom - inset - 1)
            draw.rounded_rectangle(box, 3 * scale, fill=style.PREMIUM_COLOURS[premium])
            centre = ((left + right) / 2, (top + bottom) / 2)
            if (row, col) == variant.start:
                _draw_star(draw, centre, cell * 0.36)
            elif premium in style.PREMIUM_LABELS:
                ink = style.DARK_LABEL if premium in _LIGHT_PREMIUMS else style.LIGHT_LABEL
                draw_centred(draw, centre, style.PREMIUM_LABELS[premium], _LABEL_SIZE * scale, ink)
    _draw_coordinates(draw, variant, scale)
    return shrink(image, scale)


_empty_board = lru_cache(maxsize=16)(draw_empty_board)
""":func:`draw_empty_board` drawn once per variant and kept. Shared: copy before changing it."""


def _draw_star(draw: ImageDraw.ImageDraw, centre: tuple[float, float], radius: float) -> None:
    x, y = centre
    points = []
    for index in range(10):
        angle = math.pi / 2 + index * math.pi / 5
        reach = radius if index % 2 == 0 else radius * 0.42
        points.append((x + reach * math.cos(angle), y - reach * math.sin(angle)))
    draw.polygon(points, fill=style.START_STAR)


def _draw_coordinates(draw: ImageDraw.ImageDraw, variant: Variant, scale: int) -> None:
    """Column letters above and below the board, row numbers left and right of it."""
    size = _COORDINATE_SIZE * scale
    half_margin = style.MARGIN * scale / 2
    cell = style.CELL * scale
    far_x = (style.MARGIN + variant.cols * style.CELL) * scale + half_margin
    far_y = (style.MARGIN + variant.rows * style.CELL) * scale + half_margin
    for col in range(variant.cols):
        x = style.MARGIN * scale + col * cell + cell / 2
        for y in (half_margin, far_y):
            draw_centred(draw, (x, y), COLUMN_LETTERS[col], size, style.COORDINATE_TEXT)
    for row in range(variant.rows):
        y = style.MARGIN * scale + row * cell + cell / 2
        for x in (half_margin, far_x):
            draw_centred(draw, (x, y), str(row + 1), size, style.COORDINATE_TEXT)
