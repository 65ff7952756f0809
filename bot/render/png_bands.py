"""PNGs assembled from bands of rows compressed apart, so that an image sharing most of its rows with
earlier ones compresses only the rows that changed.

A PNG's pixels are one zlib stream, which may be cut across several ``IDAT`` chunks. Each band here
is a run of whole rows (each behind PNG's filter byte 0, none) deflated by a compressor of its own and
ended by a sync flush: its bytes depend on its rows alone and end on a byte boundary, so bands
compressed at different times join, in any order, into one valid stream. A band is kept as its whole
``IDAT`` chunk (CRC included) with the Adler-32 checksum of its rows; the stream's checksum is
combined from the bands' without reading their rows again (:func:`adler32_combine`). Joining the bands
of an image is then a matter of microseconds; only the bands not kept are compressed.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from PIL import Image

from bot.render.drawing import PNG_COMPRESS_LEVEL

_SIGNATURE: Final = b"\x89PNG\r\n\x1a\n"
_ZLIB_HEADER: Final = b"\x78\x01"
"""Deflate with a 32 KB window, the fastest level's flags, no dictionary (a multiple of 31)."""
_ADLER_BASE: Final = 65521


@dataclass(frozen=True, slots=True)
class Band:
    """Rows of a palette image compressed on their own: the ``IDAT`` chunk that carries them, and the
    Adler-32 checksum and length of their filtered rows."""

    chunk: bytes
    adler: int
    length: int


def band(image: Image.Image, *, compress_level: int = PNG_COMPRESS_LEVEL) -> Band:
    """The rows of ``image`` (mode ``P``, 8 bits a pixel) as a :class:`Band`."""
    if image.mode != "P":
        raise ValueError(f"a band is made of a palette image, not of mode {image.mode}")
    pixels, width = image.tobytes(), image.width
    rows = b"".join(b"\x00" + pixels[start : start + width] for start in range(0, len(pixels), width))
    compressor = zlib.compressobj(compress_level, zlib.DEFLATED, -zlib.MAX_WBITS)
    data = compressor.compress(rows) + compressor.flush(zlib.Z_SYNC_FLUSH)
    return Band(_chunk(b"IDAT", data), zlib.adler32(rows), len(rows))


def banded_png(size: tuple[int, int], palette: bytes, bands: Sequence[Band]) -> bytes:
    """The PNG of a palette image of ``size`` pixels whose rows are those of ``bands``, top to bottom,
    with the colours ``palette`` (RGB triples, at most 256).

    Raises:
        ValueError: the palette is not whole RGB triples, or has more than 256 colours.
    """
    if not palette or len(palette) % 3 or len(palette) > 3 * 256:
        raise ValueError(f"a PNG palette has 1 to 256 RGB colours, not {len(palette)} bytes")
    width, height = size
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)
    adler = 1  # the checksum of no bytes
    for part in bands:
        adler = adler32_combine(adler, part.adler, part.length)
    end = zlib.compressobj(level=0, wbits=-zlib.MAX_WBITS).flush() + struct.pack(">I", adler)
    return b"".join(
        [
            _SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", palette),
            _chunk(b"IDAT", _ZLIB_HEADER),
            *(part.chunk for part in bands),
            _chunk(b"IDAT", end),
            _chunk(b"IEND", b""),
        ]
    )


def adler32_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 checksum of two byte strings joined, from the checksum of the first, that of the
    second and the second's length (zlib's ``adler32_combine``, which Python does not expose)."""
    remainder = second_length % _ADLER_BASE
    low = first & 0xFFFF
    high = (remainder * low) % _ADLER_BASE
    low = (low + (second & 0xFFFF) + _ADLER_BASE - 1) % _ADLER_BASE
    high = (high + (first >> 16) + (second >> 16) + _ADLER_BASE - remainder) % _ADLER_BASE
    return low | (high << 16)


def _chunk(kind: bytes, data: bytes) -> bytes:
    """A PNG chunk: length, type, data and the CRC of type and data."""
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))
