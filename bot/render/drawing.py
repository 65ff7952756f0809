"""Drawing helpers shared by the images: the font, text placement and PNG output.

Every image uses one font, DejaVu Sans Bold, shipped in ``assets/fonts/`` with its licence, so the
images look the same on every machine whatever fonts the system has.
"""

from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from bot.render.style import RGB
from scrabble_core.variant import assets_dir

FONT_FILE = "DejaVuSans-Bold.ttf"
ELLIPSIS = "…"
PNG_COMPRESS_LEVEL = 1
"""zlib level of the images' PNGs. The pixels are the same at every level; for a midgame board
(``bench/render.py``) level 1 compresses in under half of level 6's time (about 4 ms against 9 ms of
CPU on a busy machine) for a file a quarter larger (62 KB against 49 KB)."""


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    """The images' font at ``size`` pixels, loaded once per size."""
    return ImageFont.truetype(str(assets_dir() / "fonts" / FONT_FILE), size)


def draw_centred(
    draw: ImageDraw.ImageDraw,
    centre: tuple[float, float],
    text: str,
    size: int,
    fill: RGB,
) -> None:
    """Draw ``text`` so that its ink (not its line box) is centred on ``centre``."""
    face = font(size)
    left, top, right, bottom = face.getbbox(text)
    x = centre[0] - (left + right) / 2
    y = centre[1] - (top + bottom) / 2
    draw.text((x, y), text, font=face, fill=fill)


def fit_text(text: str, size: int, width: float) -> str:
    """``text``, cut and ended with an ellipsis if it is wider than ``width`` at ``size``."""
    face = font(size)
    if face.getlength(text) <= width:
        return text
    while text and face.getlength(text + ELLIPSIS) > width:
        text = text[:-1]
    return text.rstrip() + ELLIPSIS


def shrink(image: Image.Image, factor: int) -> Image.Image:
    """Scale a supersampled drawing down by ``factor``: smooth edges for shapes drawn without them."""
    width, height = image.size
    return image.resize((width // factor, height // factor), Image.Resampling.LANCZOS)


def box_shrink(image: Image.Image, factor: int) -> Image.Image:
    """Scale a supersampled drawing down by ``factor``, each pixel the mean of its ``factor`` ×
    ``factor`` block: edges a little softer than :func:`shrink`'s, in a quarter of its time (a score
    chart: about 22 ms against 99, ``bench/render.py``). For the large images drawn afresh every time: the charts."""
    return image.reduce(factor)


def png_bytes(
    image: Image.Image, *, palette: Image.Image | None = None, compress_level: int = PNG_COMPRESS_LEVEL
) -> bytes:
    """Encode ``image`` as a 256-colour palette PNG, compressed at ``compress_level``.

    With ``palette`` (made by :func:`fixed_palette`; ``image`` must then be RGB) each pixel takes the
    nearest of its colours: a lookup, five times cheaper than choosing a palette. Without it the image
    (RGB or RGBA) gets a fast octree palette of its own. The images are flat colours plus anti-aliased
    edges, so either loses nothing visible and makes the file about three times smaller than RGB, and
    quicker to write.
    """
    if palette is None:
        indexed = image.quantize(256, method=Image.Quantize.FASTOCTREE)
    else:
        indexed = in_palette(image, palette)
    return indexed_png(indexed, compress_level=compress_level)


def in_palette(image: Image.Image, palette: Image.Image) -> Image.Image:
    """The RGB ``image`` in the colours of ``palette`` (from :func:`fixed_palette`), each pixel the
    nearest of them: a lookup of that pixel alone, so a part of an image maps as it does within the
    whole."""
    return image.quantize(palette=palette, dither=Image.Dither.NONE)


def indexed_png(image: Image.Image, *, compress_level: int = PNG_COMPRESS_LEVEL) -> bytes:
    """Encode the palette ``image`` (mode ``P``) as a PNG, compressed at ``compress_level``."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=compress_level)
    return buffer.getvalue()


def fixed_palette(sample: Image.Image) -> Image.Image:
    """A palette image (mode ``P``) of 256 colours for images drawn like ``sample`` (RGB): the
    :data:`EXACT_COLOURS` most frequent colours of ``sample`` as they are (the flat colours get an
    entry each) and a fast octree palette of the rest (the anti-aliased edges between them).

    Pillow maps a pixel to a palette through a lookup table of 64×64×64 colour cells that it fills
    on first use and keeps with the palette. It is filled here, for every cell, before the palette is
    returned, so :func:`png_bytes` only reads it afterwards and threads may share the palette.
    """
    counted = sample.getcolors(sample.width * sample.height) or []
    frequent = sorted(counted, key=lambda found: found[0], reverse=True)[:EXACT_COLOURS]
    exact = [channel for _, colour in frequent if isinstance(colour, tuple) for channel in colour]
    rest = sample.quantize(256 - EXACT_COLOURS, method=Image.Quantize.FASTOCTREE).getpalette() or []
    palette = Image.new("P", (1, 1))
    palette.putpalette((exact + rest)[: 256 * 3])
    palette.load()
    _every_colour_cell().quantize(palette=palette, dither=Image.Dither.NONE)
    return palette


EXACT_COLOURS = 32
"""How many of a palette's colours are a sample's most frequent ones, unchanged (see
:func:`fixed_palette`)."""


def _every_colour_cell() -> Image.Image:
    """An RGB image with one pixel in each cell of Pillow's palette lookup (each channel in steps of 4)."""
    steps = bytes(range(0, 256, 4))
    side = len(steps)
    red = bytes(value for value in steps for _ in range(side * side))
    green = bytes(value for value in steps for _ in range(side)) * side
    blue = steps * side * side
    size = (side * side, side)
    return Image.merge("RGB", [Image.frombytes("L", size, channel) for channel in (red, green, blue)])
