"""The board image: premium squares, coordinates, tiles, the last move and an optional header.

The image shows the :class:`~bot.games.scrabble.board_view.Window` of the board that every front end
shows (:func:`~bot.games.scrabble.board_view.view_window`): a finite board whole, an infinite one around
its tiles, growing as the game grows, its coordinates labelled with signed numbers. Squares look as
:func:`~bot.games.scrabble.board_view.square_look` says (a program square in its own colour with its
label); tiles as :func:`~bot.games.scrabble.board_view.board_tile` says (a set tile shows the letter
chosen and its set's letters).

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
from collections.abc import Callable, Collection, Iterator, Sequence
from functools import lru_cache
from itertools import cycle
from typing import Any, Final

from PIL import Image, ImageDraw

from bot.games.scrabble.board_view import (
    SquareLook,
    TileLook,
    Window,
    board_tile,
    full_window,
    square_look,
    view_window,
)
from bot.games.scrabble.images.header import draw_header_strip, header_strip
from bot.games.scrabble.images.tiles import draw_tile, tile_image
from bot.games.scrabble.protocols import BoardHeader, PlayerLine
from bot.render import style
from bot.render.drawing import draw_centred, fixed_palette, font, in_palette, png_bytes, shrink
from bot.render.png_bands import Band, band, banded_png
from scrabble_core.board import Board
from scrabble_core.squares import Square
from scrabble_core.tiles import set_tile
from scrabble_core.variant import Premium, Variant

_LIGHT_PREMIUMS = {Premium.PLAIN, Premium.DOUBLE_LETTER, Premium.DOUBLE_WORD}
_LABEL_SIZE = 18
_COORDINATE_SIZE = 19
_MIN_COORDINATE_SIZE = 9
_SAMPLE_REACH = 8
"""How far around its centre the colours of an infinite board are sampled for its palette: one period
of the patterns boards are made of, most often."""


def board_size(variant: Variant, *, header: bool = False, window: Window | None = None) -> tuple[int, int]:
    """Width and height in pixels of the board image of ``variant`` (of its squares in ``window``; by
    default the whole of a finite board), with or without the header."""
    window = window or full_window(variant)
    width = window.cols * style.CELL + 2 * style.MARGIN
    height = window.rows * style.CELL + 2 * style.MARGIN
    return width, height + (style.HEADER_HEIGHT if header else 0)


def square_box(
    square: Square, *, header: bool = False, window: Window | None = None
) -> tuple[int, int, int, int]:
    """The pixel box ``(left, top, right, bottom)`` of a square's cell in the board image of ``window``
    (by default one whose top left square is ``A1``)."""
    row, col = square
    if window is not None:
        row, col = row - window.top, col - window.left
    left = style.MARGIN + col * style.CELL
    top = style.MARGIN + row * style.CELL + (style.HEADER_HEIGHT if header else 0)
    return left, top, left + style.CELL, top + style.CELL


def render_board(
    board: Board, *, last_move: Collection[Square] = (), header: BoardHeader | None = None
) -> bytes:
    """Draw ``board`` as a PNG and return its bytes.

    The image is :func:`board_size` pixels of the board's window (:func:`view_window`): every square in
    its premium colour and labelled while empty (a program square in its colour, labelled ``P`` and
    its id), holes left out, coordinates on all four edges as players type them (columns ``A``... left
    to right, rows ``1``... top to bottom; an infinite board's signed ``x`` and ``y``). Tiles show their
    letter and value; blanks (lowercase letters on the board) show their letter in uppercase in the
    blank colours and no value; set tiles the letter chosen, its value and their set's letters. Tiles
    on ``last_move`` squares are highlighted (squares there without a tile are ignored). With
    ``header`` a strip above the board lists the players with their scores, marks whose turn it is
    and gives the bag's count.
    """
    window = view_window(board, last_move)
    parts = _indexed_parts(board.variant, window)
    size = board_size(board.variant, header=header is not None, window=window)
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
    board (an infinite one's squares within :data:`_SAMPLE_REACH` of its centre) covered with tiles
    (every letter, a blank on every seventh square, a set tile on every eleventh, every fifth square in
    the last move) under a header strip, above the empty board twice."""
    covered = Board(variant)
    if variant.infinite:
        row, col = variant.start
        reach = _SAMPLE_REACH
        window = Window(row - reach, col - reach, 2 * reach + 1, 2 * reach + 1, signed=True)
        squares = [square for square in window.squares() if square_look(variant, square) is not None]
    else:
        squares = list(variant.squares())
    covered.place(
        (square, _sample_tile(variant, index, letter))
        for index, (square, letter) in enumerate(zip(squares, cycle(variant.alphabet), strict=False))
    )
    players = (PlayerLine("Ada Lovelace", 123, to_move=True), PlayerLine("Grace Hopper", 456, to_move=False))
    tiles = compose_board(covered, last_move=squares[::5], header=BoardHeader(players, bag=78))
    empty = _empty_board(variant, view_window(covered))
    sample = Image.new("RGB", (tiles.width, tiles.height + 2 * empty.height))
    for top in (0, tiles.height, tiles.height + empty.height):
        sample.paste(empty if top else tiles, (0, top))
    return sample


def _sample_tile(variant: Variant, index: int, letter: str) -> str:
    """The tile of the palette sample's square ``index``: ``letter``, a blank on every seventh square,
    a set tile (of each set in turn, as its first letter) on every eleventh."""
    sets = variant.tile_sets
    if sets and index % 11 == 6:
        tile_set = sets[index // 11 % len(sets)]
        return set_tile(tile_set.symbol, tile_set.letters[0][0])
    return letter.lower() if index % 7 == 3 else letter


def compose_board(
    board: Board, *, last_move: Collection[Square] = (), header: BoardHeader | None = None
) -> Image.Image:
    """The RGB image :func:`render_board` encodes, composed from cached parts."""
    window = view_window(board, last_move)
    background = _empty_board(board.variant, window)
    return _compose(board, window, last_move, header, background, tile_image, header_strip)


def full_redraw(
    board: Board, *, last_move: Collection[Square] = (), header: BoardHeader | None = None
) -> Image.Image:
    """The image of :func:`compose_board` with every part drawn afresh, no cache used or filled: the
    reference the cached render is compared with, pixel for pixel."""
    window = view_window(board, last_move)
    background = draw_empty_board(board.variant, window)
    return _compose(board, window, last_move, header, background, draw_tile, draw_header_strip)


_TileDrawer = Callable[..., Image.Image]
"""``(letter, value, size, *, last_move, choices) -> RGBA tile``: :func:`draw_tile` or its cache."""


def _compose(
    board: Board,
    window: Window,
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
        canvas = Image.new("RGB", board_size(variant, header=True, window=window), style.FRAME_DARK)
        canvas.paste(header_strip(canvas.width, tuple(header.players), header.bag), (0, 0))
        canvas.paste(background, (0, style.HEADER_HEIGHT))
        offset = style.HEADER_HEIGHT
    highlighted = set(last_move)
    for square, letter in board.tiles():
        if square not in window:
            continue
        look = board_tile(variant, letter)
        sprite = tile(
            look.letter, look.value, style.CELL, last_move=square in highlighted, choices=look.choices
        )
        left, top, _, _ = square_box(square, window=window)
        canvas.paste(sprite, (left, top + offset), sprite)
    return canvas


class _IndexedParts:
    """The parts of one window of one variant's boards already in the colours of
    :func:`board_palette`: the empty board (with the header's place or without) and each tile on each
    kind of square it can cover, made on first use and then only read (threads may share them); and the
    bands of board images compressed (:meth:`bands`), kept in the variant's :class:`_KeptBands`.

    One object per variant and window (:func:`_indexed_parts`), looked up once per render: a
    variant's hash covers every square of its layout (or its programs)."""

    def __init__(self, variant: Variant, window: Window) -> None:
        """The parts of ``window`` of ``variant``, none made yet but its palette and kinds of square."""
        self.variant = variant
        self.window = window
        self.palette = board_palette(variant)
        self.palette_colours = bytes(self.palette.getpalette() or ())
        self._empty = _empty_board(variant, window)
        self._kept = _kept_bands(variant)
        self._backgrounds: dict[bool, Image.Image] = {}
        self._tiles: dict[tuple[int, TileLook, bool], Image.Image] = {}
        self._kinds: dict[Square, int] = {}
        self._cells: list[Image.Image] = []
        found: dict[bytes, int] = {}
        # Squares whose cells have the same pixels are of one kind.
        for square in _window_squares(variant, window):
            cell = self._empty.crop(square_box(square, window=window))
            kind = found.setdefault(cell.tobytes(), len(self._cells))
            if kind == len(self._cells):
                self._cells.append(cell)
            self._kinds[square] = kind

    @property
    def _bands(self) -> OrderedDict[_BandKey, Band]:
        """The bands kept for the variant (of every window)."""
        return self._kept.bands

    def background(self, *, header: bool) -> Image.Image:
        """The empty board (below the header's place, filled as :func:`_compose` fills it, with
        ``header``). Shared: copy before changing it."""
        image = self._backgrounds.get(header)
        if image is None:
            canvas = self._empty
            if header:
                size = board_size(self.variant, header=True, window=self.window)
                canvas = Image.new("RGB", size, style.FRAME_DARK)
                canvas.paste(self._empty, (0, style.HEADER_HEIGHT))
            image = self._backgrounds.setdefault(header, in_palette(canvas, self.palette))
        return image

    def tile(self, square: Square, look: TileLook, *, last_move: bool) -> Image.Image:
        """The cell of ``square`` covered by the tile (as :func:`_compose` pastes it). Shared: only
        read it."""
        kind = self._kinds[square]
        key = (kind, look, last_move)
        image = self._tiles.get(key)
        if image is None:
            cell = self._cells[kind].copy()
            sprite = tile_image(
                look.letter, look.value, style.CELL, last_move=last_move, choices=look.choices
            )
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
        window = self.window
        for (row, col), letter in board.tiles():
            if (row, col) not in window:
                continue
            look = board_tile(self.variant, letter)
            rows.setdefault(row, []).append((col, look, (row, col) in highlighted))
        keys: list[_BandKey] = (
            [] if header is None else [("header", tuple(header.players), header.bag, window.cols)]
        )
        keys.append(("top", window))
        keys.extend(
            ("row", row, tuple(sorted(rows.get(row, ()), key=_cell_order)), window)
            for row in range(window.top, window.top + window.rows)
        )
        keys.append(("bottom", window))
        return [self._band(key) for key in keys]

    def _band(self, key: _BandKey) -> Band:
        """The band ``key`` names, kept or made."""
        kept = self._kept.get(key)
        if kept is not None:
            return kept
        made = band(self._band_image(key))
        self._kept.put(key, made)
        return made

    def _band_image(self, key: _BandKey) -> Image.Image:
        """The rows of the image that the band ``key`` holds, composed from the parts."""
        empty = self.background(header=False)
        width, height = empty.size
        if key[0] == "header":
            _, players, bag, _ = key
            canvas = self.background(header=True).crop((0, 0, width, style.HEADER_HEIGHT))
            canvas.paste(in_palette(header_strip(width, players, bag), self.palette), (0, 0))
            return canvas
        if key[0] == "top":
            return empty.crop((0, 0, width, style.MARGIN))
        if key[0] == "bottom":
            return empty.crop((0, height - style.MARGIN, width, height))
        _, row, cells, window = key
        _, top, _, bottom = square_box((row, window.left), window=window)
        canvas = empty.crop((0, top, width, bottom))
        for col, look, last in cells:
            left, _, _, _ = square_box((row, col), window=window)
            canvas.paste(self.tile((row, col), look, last_move=last), (left, 0))
        return canvas


_Cell = tuple[int, TileLook, bool]
"""A tile in a row of squares: its column, how it reads and whether it is in the last move."""
_BandKey = tuple[Any, ...]
"""What a band shows: ``("header", players, bag, columns)``, ``("top", window)``, ``("row", row, cells,
window)`` or ``("bottom", window)``."""


def _cell_order(cell: _Cell) -> int:
    return cell[0]


class _KeptBands:
    """The last :data:`BANDS_KEPT` bands made of one variant's boards, the least recently used dropped
    first (of any of its windows: a band's key names its window)."""

    def __init__(self) -> None:
        self.bands: OrderedDict[_BandKey, Band] = OrderedDict()
        self._lock = threading.Lock()
        _ALL_KEPT.add(self)

    def get(self, key: _BandKey) -> Band | None:
        """The band kept under ``key``, now the most recently used, or ``None``."""
        with self._lock:
            kept = self.bands.get(key)
            if kept is not None:
                self.bands.move_to_end(key)
            return kept

    def put(self, key: _BandKey, made: Band) -> None:
        """Keep ``made`` under ``key``, dropping the least recently used band past the limit."""
        with self._lock:
            self.bands[key] = made
            if len(self.bands) > BANDS_KEPT:
                self.bands.popitem(last=False)

    def forget(self) -> None:
        """Forget the bands kept."""
        with self._lock:
            self.bands.clear()


BANDS_KEPT: Final = 4096
"""How many compressed bands each variant's parts keep, the least recently used dropped first: the
rows of some 250 boards (a few MB), so that each of a few hundred games going on at once finds its
unchanged rows kept from its previous board."""

_indexed_parts = lru_cache(maxsize=16)(_IndexedParts)
""":class:`_IndexedParts` made once per variant and window (equal variants share them) and kept."""
_kept_bands = lru_cache(maxsize=16)(lambda variant: _KeptBands())
"""The :class:`_KeptBands` of each variant (equal variants share them)."""


def clear_kept_bands() -> None:
    """Forget every compressed band kept (:meth:`_IndexedParts.bands`): the next boards compress all
    their rows (to measure, or to test a render from cold)."""
    for kept in list(_ALL_KEPT):
        kept.forget()


_ALL_KEPT: weakref.WeakSet[_KeptBands] = weakref.WeakSet()


def _window_squares(variant: Variant, window: Window) -> Iterator[Square]:
    """The real squares of ``variant`` in ``window``, row by row."""
    if not variant.infinite:
        yield from variant.squares()
        return
    for square in window.squares():
        if square_look(variant, square) is not None:
            yield square


def draw_empty_board(variant: Variant, window: Window | None = None) -> Image.Image:
    """Draw the squares of ``variant`` in ``window`` (by default the whole of a finite board) with no
    tile: frame, coordinates and squares. A finite board is drawn whole; an infinite board's window
    is put together from its squares and labels, each drawn alone (:func:`draw_square`,
    :func:`draw_label`), so that drawing a window as the game grows costs little and its memory stays
    that of a square however far the game has grown."""
    window = window or full_window(variant)
    if not window.signed:
        return _draw_whole(variant, window)
    return _assemble(variant, window, draw_square, draw_label)


def _cached_empty_board(variant: Variant, window: Window | None = None) -> Image.Image:
    """:func:`draw_empty_board` from the kept squares and labels."""
    window = window or full_window(variant)
    if not window.signed:
        return _draw_whole(variant, window)
    return _assemble(variant, window, _square_image, _label_image)


_empty_board = lru_cache(maxsize=16)(_cached_empty_board)
""":func:`draw_empty_board` drawn once per variant and window and kept. Shared: copy before changing it."""


def _draw_whole(variant: Variant, window: Window) -> Image.Image:
    """The empty finite board, drawn whole :data:`style.SUPERSAMPLE` times larger, then shrunk."""
    scale = style.SUPERSAMPLE
    width, height = board_size(variant, window=window)
    image = Image.new("RGB", (width * scale, height * scale), style.FRAME)
    draw = ImageDraw.Draw(image)
    for square in variant.squares():
        look = square_look(variant, square)
        assert look is not None
        left, top, right, bottom = (value * scale for value in square_box(square))
        _paint_square(draw, (left, top, right, bottom), look, square == variant.start, scale)
    half_margin = style.MARGIN / 2
    far_x = style.MARGIN + window.cols * style.CELL + half_margin
    far_y = style.MARGIN + window.rows * style.CELL + half_margin
    for col in range(window.cols):
        x = style.MARGIN + col * style.CELL + style.CELL / 2
        for y in (half_margin, far_y):
            _paint_label(draw, (x * scale, y * scale), window.column_label(col), style.CELL, scale)
    for row in range(window.rows):
        y = style.MARGIN + row * style.CELL + style.CELL / 2
        for x in (half_margin, far_x):
            _paint_label(draw, (x * scale, y * scale), window.row_label(row), style.MARGIN, scale)
    return shrink(image, scale)


_Drawer = Callable[..., Image.Image]


def _assemble(variant: Variant, window: Window, square: _Drawer, label: _Drawer) -> Image.Image:
    """The empty board of ``window`` from a ``square(look, start)`` image per square and a
    ``label(text, width, height)`` image per coordinate, on the frame."""
    width, height = board_size(variant, window=window)
    image = Image.new("RGB", (width, height), style.FRAME)
    for spot in _window_squares(variant, window):
        look = square_look(variant, spot)
        assert look is not None
        left, top, _, _ = square_box(spot, window=window)
        image.paste(square(look, spot == variant.start), (left, top))
    for index in range(window.cols):
        text = label(window.column_label(window.left + index), style.CELL, style.MARGIN)
        left = style.MARGIN + index * style.CELL
        for top in (0, height - style.MARGIN):
            image.paste(text, (left, top))
    for index in range(window.rows):
        text = label(window.row_label(window.top + index), style.MARGIN, style.CELL)
        top = style.MARGIN + index * style.CELL
        for left in (0, width - style.MARGIN):
            image.paste(text, (left, top))
    return image


def draw_square(look: SquareLook, start: bool) -> Image.Image:
    """One empty square's cell (the frame around it), as :func:`_draw_whole` draws it: in its colour,
    with the start's star or its label."""
    scale = style.SUPERSAMPLE
    side = style.CELL * scale
    image = Image.new("RGB", (side, side), style.FRAME)
    _paint_square(ImageDraw.Draw(image), (0, 0, side, side), look, start, scale)
    return shrink(image, scale)


def draw_label(text: str, width: int, height: int) -> Image.Image:
    """A coordinate label centred in a ``width`` by ``height`` box of the frame."""
    scale = style.SUPERSAMPLE
    image = Image.new("RGB", (width * scale, height * scale), style.FRAME)
    _paint_label(ImageDraw.Draw(image), (width * scale / 2, height * scale / 2), text, width, scale)
    return shrink(image, scale)


_square_image = lru_cache(maxsize=256)(draw_square)
_label_image = lru_cache(maxsize=1024)(draw_label)


def _paint_square(
    draw: ImageDraw.ImageDraw, cell: tuple[int, int, int, int], look: SquareLook, start: bool, scale: int
) -> None:
    """A square in the cell ``cell`` (pixels, drawn ``scale`` times larger): its rounded face in its
    colour (a program square's own), then the start's star or its label."""
    left, top, right, bottom = cell
    inset = style.SQUARE_INSET * scale
    box = (left + inset, top + inset, right - inset - 1, bottom - inset - 1)
    program = look.program is not None
    fill = style.PROGRAM_SQUARE if program else style.PREMIUM_COLOURS[look.premium]
    draw.rounded_rectangle(box, 3 * scale, fill=fill)
    centre = ((left + right) / 2, (top + bottom) / 2)
    if start:
        _draw_star(draw, centre, style.CELL * scale * 0.36)
    elif look.label:
        light = look.premium in _LIGHT_PREMIUMS and not program
        ink = style.DARK_LABEL if light else style.LIGHT_LABEL
        draw_centred(draw, centre, look.label, _LABEL_SIZE * scale, ink)


def _paint_label(
    draw: ImageDraw.ImageDraw, centre: tuple[float, float], text: str, room: int, scale: int
) -> None:
    """A coordinate label centred on ``centre`` (drawn ``scale`` times larger), as large as fits
    ``room`` pixels across: :data:`_COORDINATE_SIZE`, smaller (down to :data:`_MIN_COORDINATE_SIZE`)
    for a long signed number."""
    size = _COORDINATE_SIZE * scale
    while size > _MIN_COORDINATE_SIZE * scale and font(size).getlength(text) > (room - 2) * scale:
        size -= scale
    draw_centred(draw, centre, text, size, style.COORDINATE_TEXT)


def _draw_star(draw: ImageDraw.ImageDraw, centre: tuple[float, float], radius: float) -> None:
    x, y = centre
    points = []
    for index in range(10):
        angle = math.pi / 2 + index * math.pi / 5
        reach = radius if index % 2 == 0 else radius * 0.42
        points.append((x + reach * math.cos(angle), y - reach * math.sin(angle)))
    draw.polygon(points, fill=style.START_STAR)
