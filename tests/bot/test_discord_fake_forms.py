"""The fake Discord's multipart parser against aiohttp's own, on bodies aiohttp's client writes as
discord.py has it write them (``FormData(quote_fields=False)``: names and file names as they are)."""

from __future__ import annotations

import asyncio
import re
from unittest import mock

import pytest
from aiohttp import BodyPartReader, FormData, MultipartReader
from aiohttp.streams import StreamReader
from discord_fake import form_parts
from hypothesis import given
from hypothesis import strategies as st

FIELD_NAMES = st.text(st.sampled_from("abcxyz_[]0123456789"), min_size=1, max_size=12)
FILE_NAMES = st.text(st.characters(exclude_categories=("Cc", "Cs")), min_size=1, max_size=20)
"""File names aiohttp's client will write (it refuses control characters in headers)."""
PARTS = st.lists(st.tuples(FIELD_NAMES, st.none() | FILE_NAMES, st.binary(max_size=300)), max_size=5)


async def aiohttp_parts(body: bytes, content_type: str) -> list[tuple[str, str | None, bytes]]:
    """``body`` read by aiohttp's ``MultipartReader``."""
    stream = StreamReader(mock.Mock(_reading_paused=False), 2**16, loop=asyncio.get_running_loop())
    stream.feed_data(body)
    stream.feed_eof()
    reader = MultipartReader({"Content-Type": content_type}, stream)
    parts = []
    while (part := await reader.next()) is not None:
        assert isinstance(part, BodyPartReader) and part.name is not None
        parts.append((part.name, part.filename, bytes(await part.read())))
    return parts


async def written(parts: list[tuple[str, str | None, bytes]]) -> tuple[bytes, str]:
    """The body and content type aiohttp's client sends for ``parts``, as discord.py builds them."""
    form = FormData(quote_fields=False)
    for name, filename, data in parts:
        if filename is None:
            form.add_field(name, data.decode("latin-1"), content_type="application/json")
        else:
            form.add_field(name, data, filename=filename, content_type="application/octet-stream")
    payload = form()
    return await payload.as_bytes(), payload.headers["Content-Type"]


@given(PARTS)
def test_the_fake_reads_what_aiohttps_reader_reads(parts: list[tuple[str, str | None, bytes]]) -> None:
    async def check() -> None:
        if not parts:
            return
        body, content_type = await written(parts)
        expected = [
            (name, filename, data if filename is not None else data.decode("latin-1").encode())
            for name, filename, data in parts
        ]
        assert form_parts(body, content_type) == expected
        if all(re.fullmatch(r"[\w .-]*", filename or "") for _, filename, _ in parts):
            # (aiohttp's reader rewrites other file names: it drops path parts and escaped backslashes)
            assert await aiohttp_parts(body, content_type) == expected

    asyncio.run(check())


def test_a_body_without_a_boundary_is_refused() -> None:
    with pytest.raises(ValueError, match="no boundary in 'multipart/form-data'"):
        form_parts(b"", "multipart/form-data")


def test_a_part_without_a_field_name_is_refused() -> None:
    body = b'--b\r\nContent-Disposition: form-data; filename="x.png"\r\n\r\nPNG\r\n--b--\r\n'
    with pytest.raises(ValueError, match="a part without a field name"):
        form_parts(body, "multipart/form-data; boundary=b")
