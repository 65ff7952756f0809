"""The drawing thread: images drawn one at a time, those answering a command first."""

from __future__ import annotations

import asyncio
import threading

import pytest

from bot.service.drawing import Drawing


async def test_an_urgent_image_is_drawn_before_those_waiting() -> None:
    drawing = Drawing()
    started, gate = threading.Event(), threading.Event()
    order: list[str] = []

    def slow() -> bytes:
        started.set()
        gate.wait(10)
        order.append("first")
        return b"first"

    def named(name: str) -> bytes:
        order.append(name)
        return name.encode()

    first = asyncio.create_task(drawing.draw(slow))
    assert await asyncio.to_thread(started.wait, 10)  # the thread is drawing it
    waiting = [asyncio.create_task(drawing.draw(named, name)) for name in ("turn 1", "turn 2")]
    urgent = asyncio.create_task(drawing.draw(named, "board", urgent=True))
    await asyncio.sleep(0)  # all three are queued
    gate.set()
    assert await asyncio.gather(first, *waiting, urgent) == [b"first", b"turn 1", b"turn 2", b"board"]
    assert order == ["first", "board", "turn 1", "turn 2"]


async def test_a_failed_drawing_raises_its_error_and_the_next_is_drawn() -> None:
    drawing = Drawing()

    def broken() -> bytes:
        raise ValueError("no such font")

    with pytest.raises(ValueError, match=r"^no such font$"):
        await drawing.draw(broken)
    assert await drawing.draw(bytes, 3) == b"\x00\x00\x00"
