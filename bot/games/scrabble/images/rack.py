"""The rack image: a player's tiles on a wooden rack, for direct messages and ephemeral replies."""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.games.scrabble.board_view import rack_look
from bot.games.scrabble.images.tiles import tile_image
from bot.render import style
from bot.render.drawing import png_bytes, shrink
from scrabble_core.variant import Variant

_LIP = 34
"""Height of the darker ledge along the bottom of the rack, behind the lower part of the tiles."""


def rack_size(slots: int) -> tuple[int, int]:
    """Width and height in pixels of a rack image with room for ``slots`` tiles."""
    width = slots * style.RACK_TILE + (slots - 1) * style.RACK_GAP + 2 * style.RACK_PADDING
    return width, style.RACK_TILE + 2 * style.RACK_PADDING


def render_rack(tiles: str, variant: Variant) -> bytes:
    """Draw a rack as a PNG and return its bytes.

    ``tiles`` is written as a rack: uppercase letters of ``variant``, ``?`` for a blank, drawn as an
    empty-faced blank tile, and a set tile's number, drawn with each letter of its set and its points
    (:func:`~bot.games.scrabble.board_view.rack_look`). Tiles are shown left to right in the given order
    with their values. The rack has room for ``variant.rack_size`` tiles (more if ``tiles`` is longer),
    so every full rack of a game is the same size.

    Raises:
        ValueError: a character of ``tiles`` is not a tile of ``variant``.
    """
    looks = [rack_look(variant, tile) for tile in tiles]
    canvas = _empty_rack(max(len(tiles), variant.rack_size)).copy()
    for index, look in enumerate(looks):
        sprite = tile_image(look.letter, look.value, style.RACK_TILE, choices=look.choices)
        left = style.RACK_PADDING + index * (style.RACK_TILE + style.RACK_GAP)
        canvas.paste(sprite, (left, style.RACK_PADDING), sprite)
    return png_bytes(canvas)


@lru_cache(maxsize=8)
def _empty_rack(slots: int) -> Image.Image:
    """The wooden rack with room for ``slots`` tiles, transparent around it. Shared: copy before use."""
    scale = style.SUPERSAMPLE
    width, height = rack_size(slots)
    image = Image.new("RGBA", (width * scale, height * scale), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, image.width - 1, image.height - 1), 12 * scale, fill=style.RACK_WOOD)
    lip_top = (height - _LIP) * scale
    draw.rounded_rectangle(
        (0, lip_top, image.width - 1, image.height - 1),
        12 * scale,
        fill=style.RACK_LIP,
        corners=(False, False, True, True),
    )
    return shrink(image, scale)
