"""The board image: premium squares, coordinates, tiles, the last move and an optional header.

An image is composed from parts: the empty board of the variant (squares, labels, the start star,
coordinates, frame), one sprite per tile and the header strip. :func:`compose_board` takes the parts from
caches (the empty board per variant, the sprites per letter, value, size and state, the header's parts:
see :mod:`bot.games.scrabble.images.header`) and :func:`full_redraw` draws every part afresh; both compose them the same way, so
their pixels are identical (the tests and ``bench/render.py`` compare them). The PNG of either takes
the 256 colours of :func:`board_palette`, chosen once per variant for every board it can show, so a
render only looks colours up. :func:`render_board` goes further: it composes parts already in those
colours (the empty board, and each tile on each kind of square it can cover), so it only maps the
header strip; a pixel maps to the palette on its own, so its pixels are :func:`compose_board`'s. And it
compresses each band of the image apart (the header, the margins, each row of squares:
:mod:`bot.render.png_bands`), keeping the last :data:`BANDS_KEPT` bands made: a move changes a few rows
of its game's board, so the next board compresses those and its header, and finds the rest kept. The
cached parts are only read once made, so renders may run in several threads at once.
"""

from __future__ import annotations

import math
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Collection, Sequence
from functools import lru_cache
from itertools import cycle
from typing import Any, Final

from PIL import Image, ImageDraw

from bot.games.scrabble.images.header import draw_header_strip, header_strip
from bot.games.scrabble.images.tiles import draw_tile, tile_image
from bot.games.scrabble.protocols import BoardHeader, PlayerLine
from bot.render import style
from bot.render.drawing import draw_centred, fixed_palette, in_palette, png_bytes, shrink
from bot.render.png_bands import Band, band, banded_png
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
    parts = _indexed_parts(board.variant)
    size = board_size(board.variant, header=header is not None)
    return banded_png(size, parts.palette_colours, parts.bands(board, last_move, header))


def board_png(image: Image.Image, variant: Variant) -> bytes:
    """The PNG bytes of ``image``, a board of ``variant`` from :func:`compose_board` or
    :func:`full_redraw`, in the colours of :func:`board_palette`."""
    return png_bytes(image, palette=board_palette(variant))


@lru_cache(maxsize=16)
def board_palette(variant: Variant) -> Image.Image:
    """The 256 colours of every board image of ``variant``, with the header strip or without (one
    palette for both, so the board below the strip is the same), chosen once from
    :func:`_palette_sample`: the premium squares, labels, coordinates and frame, tiles of every kind on
    every square, the header's pills and texts. Shared and only read (see
    :func:`~bot.render.drawing.fixed_palette`)."""
    return fixed_palette(_palette_sample(variant))


def _palette_sample(variant: Variant) -> Image.Image:
    """Every colour a board of ``variant`` can show, in about the proportions boards show them: the
    board covered with tiles (every letter, a blank on every seventh square, every fifth square in
    the last move) under a header strip, above the empty board twice."""
    covered = Board(variant)
    squares = list(variant.squares())
    letters = cycle(variant.alphabet)
    covered.place(
        (square, letter.lower() if index % 7 == 3 else letter)
        for index, (square, letter) in enumerate(zip(squares, letters, strict=False))
    )
    players = (PlayerLine("Ada Lovelace", 123, to_move=True), PlayerLine("Grace Hopper", 456, to_move=False))
    tiles = compose_board(covered, last_move=squares[::5], header=BoardHeader(players, bag=78))
    empty = _empty_board(variant)
    sample = Image.new("RGB", (tiles.width, tiles.height + 2 * empty.height))
    for top in (0, tiles.height, tiles.height + empty.height):
        sample.paste(empty if top else tiles, (0, top))
    return sample


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


class _IndexedParts:
    """The parts of one variant's boards already in the colours of :func:`board_palette`: the empty
    board (with the header's place or without) and each tile on each kind of square it can cover,
    made on first use and then only read (threads may share them); and the last
    :data:`BANDS_KEPT` bands of board images compressed (:meth:`bands`).

    One object per variant (:func:`_indexed_parts`), looked up once per render: a variant's hash
    covers every square of its layout."""

    def __init__(self, variant: Variant) -> None:
        """The parts of ``variant``, none made yet but its palette and kinds of square."""
        self.variant = variant
        self.palette = board_palette(variant)
        self.palette_colours = bytes(self.palette.getpalette() or ())
        self._empty = _empty_board(variant)
        self._bands: OrderedDict[_BandKey, Band] = OrderedDict()
        self._bands_lock = threading.Lock()
        _ALL_PARTS.add(self)
        self._backgrounds: dict[bool, Image.Image] = {}
        self._tiles: dict[tuple[int, str, int | None, bool], Image.Image] = {}
        self._kinds: dict[Square, int] = {}
        self._cells: list[Image.Image] = []
        found: dict[bytes, int] = {}
        for square in variant.squares():  # squares whose cells have the same pixels are of one kind
            cell = self._empty.crop(square_box(square))
            kind = found.setdefault(cell.tobytes(), len(self._cells))
            if kind == len(self._cells):
                self._cells.append(cell)
            self._kinds[square] = kind

    def background(self, *, header: bool) -> Image.Image:
        """The empty board (below the header's place, filled as :func:`_compose` fills it, with
        ``header``). Shared: copy before changing it."""
        image = self._backgrounds.get(header)
        if image is None:
            canvas = self._empty
            if header:
                canvas = Image.new("RGB", board_size(self.variant, header=True), style.FRAME_DARK)
                canvas.paste(self._empty, (0, style.HEADER_HEIGHT))
            image = self._backgrounds.setdefault(header, in_palette(canvas, self.palette))
        return image

    def tile(self, square: Square, letter: str, value: int | None, *, last_move: bool) -> Image.Image:
        """The cell of ``square`` covered by the tile (as :func:`_compose` pastes it). Shared: only
        read it."""
        kind = self._kinds[square]
        key = (kind, letter, value, last_move)
        image = self._tiles.get(key)
        if image is None:
            cell = self._cells[kind].copy()
            sprite = tile_image(letter, value, style.CELL, last_move=last_move)
            cell.paste(sprite, (0, 0), sprite)
            image = self._tiles.setdefault(key, in_palette(cell, self.palette))
        return image

    def bands(self, board: Board, last_move: Collection[Square], header: BoardHeader | None) -> list[Band]:
        """The bands of the image of ``board`` (see :func:`render_board`), top to bottom: the header
        strip (with ``header``), the top margin, each row of squares with its tiles, the bottom
        margin. A band kept from an earlier image is reused; the others are composed from the parts
        (as :func:`_compose` composes the image) and compressed."""
        highlighted = set(last_move)
        rows: dict[int, list[_Cell]] = {}
        for (row, col), letter in board.tiles():
            value = None if letter.islower() else self.variant.value(letter)
            rows.setdefault(row, []).append((col, letter.upper(), value, (row, col) in highlighted))
        keys: list[_BandKey] = [] if header is None else [("header", tuple(header.players), header.bag)]
        keys.append(("top",))
        keys.extend(("row", row, tuple(sorted(rows.get(row, ())))) for row in range(self.variant.rows))
        keys.append(("bottom",))
        return [self._band(key) for key in keys]

    def forget_bands(self) -> None:
        """Forget the bands kept."""
        with self._bands_lock:
            self._bands.clear()

    def _band(self, key: _BandKey) -> Band:
        """The band ``key`` names, kept or made."""
        with self._bands_lock:
            kept = self._bands.get(key)
            if kept is not None:
                self._bands.move_to_end(key)
                return kept
        made = band(self._band_image(key))
        with self._bands_lock:
            self._bands[key] = made
            if len(self._bands) > BANDS_KEPT:
                self._bands.popitem(last=False)
        return made

    def _band_image(self, key: _BandKey) -> Image.Image:
        """The rows of the image that the band ``key`` holds, composed from the parts."""
        empty = self.background(header=False)
        width, height = empty.size
        if key[0] == "header":
            _, players, bag = key
            canvas = self.background(header=True).crop((0, 0, width, style.HEADER_HEIGHT))
            canvas.paste(in_palette(header_strip(width, players, bag), self.palette), (0, 0))
            return canvas
        if key[0] == "top":
            return empty.crop((0, 0, width, style.MARGIN))
        if key[0] == "bottom":
            return empty.crop((0, height - style.MARGIN, width, height))
        _, row, cells = key
        _, top, _, bottom = square_box((row, 0))
        canvas = empty.crop((0, top, width, bottom))
        for col, letter, value, last in cells:
            left, _, _, _ = square_box((row, col))
            canvas.paste(self.tile((row, col), letter, value, last_move=last), (left, 0))
        return canvas


_Cell = tuple[int, str, "int | None", bool]
"""A tile in a row of squares: its column, letter (uppercase), value (``None``: a blank) and whether
it is in the last move."""
_BandKey = tuple[Any, ...]
"""What a band shows: ``("header", players, bag)``, ``("top",)``, ``("row", row, cells)`` or
``("bottom",)``."""

BANDS_KEPT: Final = 4096
"""How many compressed bands each variant's parts keep, the least recently used dropped first: the
rows of some 250 boards (a few MB), so that each of a few hundred games going on at once finds its
unchanged rows kept from its previous board."""

_indexed_parts = lru_cache(maxsize=16)(_IndexedParts)
""":class:`_IndexedParts` made once per variant (equal variants share them) and kept."""


def clear_kept_bands() -> None:
    """Forget every compressed band kept (:meth:`_IndexedParts.bands`): the next boards compress all
    their rows (to measure, or to test a render from cold)."""
    for parts in list(_ALL_PARTS):
        parts.forget_bands()


_ALL_PARTS: weakref.WeakSet[_IndexedParts] = weakref.WeakSet()


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
