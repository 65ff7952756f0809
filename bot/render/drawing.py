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
(``bench/render.py``) level 1 compresses in a fifth of level 6's time (about 2 ms against 10 ms of CPU)
for a file a third larger (59 KB against 46 KB)."""


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


def png_bytes(image: Image.Image, *, compress_level: int = PNG_COMPRESS_LEVEL) -> bytes:
    """Encode ``image`` (RGB or RGBA) as a 256-colour palette PNG, compressed at ``compress_level``.

    The images are flat colours plus anti-aliased edges, so a fast octree palette loses nothing visible
    and makes the file about three times smaller than RGB, and quicker to write.
    """
    buffer = io.BytesIO()
    image.quantize(256, method=Image.Quantize.FASTOCTREE).save(
        buffer, format="PNG", compress_level=compress_level
    )
    return buffer.getvalue()
