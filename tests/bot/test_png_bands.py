"""PNGs joined from bands compressed apart (:mod:`bot.render.png_bands`): valid zlib streams whose
checksum is combined, decoded by Pillow to exactly the rows given."""

from __future__ import annotations

import io
import struct
import zlib

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from bot.render.png_bands import adler32_combine, band, banded_png


@given(st.binary(max_size=300), st.binary(max_size=300), st.integers(0, 300))
def test_the_combined_checksum_is_that_of_the_joined_bytes(first: bytes, second: bytes, repeat: int) -> None:
    second *= repeat  # lengths up to 90,000 bytes: past the checksum's modulus, 65,521
    assert adler32_combine(zlib.adler32(first), zlib.adler32(second), len(second)) == zlib.adler32(
        first + second
    )


def palette_image(width: int, rows: list[bytes]) -> Image.Image:
    image = Image.frombytes("P", (width, len(rows)), b"".join(rows))
    image.putpalette(bytes(range(256)) * 3)
    return image


def idat_data(png: bytes) -> bytes:
    """The concatenated data of a PNG's IDAT chunks, each chunk's CRC checked."""
    data, offset = b"", 8
    while offset < len(png):
        (length,) = struct.unpack(">I", png[offset : offset + 4])
        kind, body = png[offset + 4 : offset + 8], png[offset + 8 : offset + 8 + length]
        (crc,) = struct.unpack(">I", png[offset + 8 + length : offset + 12 + length])
        assert crc == zlib.crc32(body, zlib.crc32(kind)), kind
        if kind == b"IDAT":
            data += body
        offset += 12 + length
    return data


@given(
    st.integers(1, 40).flatmap(
        lambda width: st.tuples(
            st.just(width),
            st.lists(
                st.lists(st.binary(min_size=width, max_size=width), min_size=1, max_size=6),
                min_size=1,
                max_size=5,
            ),
        )
    )
)
def test_bands_join_into_the_image_of_their_rows(case: tuple[int, list[list[bytes]]]) -> None:
    width, bands = case
    rows = [row for rows_of_band in bands for row in rows_of_band]
    parts = [band(palette_image(width, rows_of_band)) for rows_of_band in bands]
    png = banded_png((width, len(rows)), bytes(range(256)) * 3, parts)
    decoded = Image.open(io.BytesIO(png))
    decoded.load()
    assert (decoded.mode, decoded.size) == ("P", (width, len(rows)))
    assert decoded.tobytes() == b"".join(rows)
    assert decoded.getpalette() == list(bytes(range(256)) * 3)
    # zlib checks the combined Adler-32 that Pillow ignores
    assert zlib.decompress(idat_data(png)) == b"".join(b"\x00" + row for row in rows)


def test_a_band_is_made_of_a_palette_image() -> None:
    with pytest.raises(ValueError, match=r"^a band is made of a palette image, not of mode RGB$"):
        band(Image.new("RGB", (2, 2)))


@pytest.mark.parametrize("length", [0, 4, 769])
def test_a_palette_is_whole_colours_and_at_most_256(length: int) -> None:
    part = band(palette_image(1, [b"\x00"]))
    with pytest.raises(ValueError, match=rf"^a PNG palette has 1 to 256 RGB colours, not {length} bytes$"):
        banded_png((1, 1), bytes(length), [part])
