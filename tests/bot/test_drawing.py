"""The drawing thread: images drawn one at a time, those answering a command first, in the thread or in\na process of its own."""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time

import pytest

from bot.render.png import PngRenderer
from bot.service.drawing import Drawing, DrawingProcessDiedError
from scrabble_core.variant import get_variant


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


def process_id() -> bytes:
    """The id of the process that draws (module level: the drawing process imports it)."""
    return str(os.getpid()).encode()


def die() -> bytes:
    """Kill the process that draws, as the kernel's OOM killer would."""
    os._exit(1)


async def test_in_its_process_the_images_are_the_same_and_a_death_fails_only_its_image(
    caplog: pytest.LogCaptureFixture,
) -> None:
    drawing = Drawing()
    drawing.use_process()
    renderer = PngRenderer()
    standard = get_variant("standard")
    try:
        drawer = int(await drawing.draw(process_id))
        assert drawer != os.getpid()
        rack = await drawing.draw(renderer.rack, "QUIZ?AB", standard, urgent=True)
        assert rack == renderer.rack("QUIZ?AB", standard)  # the same bytes as drawn here
        with caplog.at_level(logging.ERROR, "bot.service"), pytest.raises(DrawingProcessDiedError):
            await drawing.draw(die)
        assert "the drawing process died: it is started again for the next image" in caplog.text
        again = int(await drawing.draw(process_id))
        assert again not in (drawer, os.getpid())
        assert await drawing.draw(renderer.rack, "QUIZ?AB", standard) == rack
    finally:
        drawing.close()


def named_after(name: str, seconds: float) -> bytes:
    """``name``, after ``seconds`` (module level: the drawing process imports it)."""
    time.sleep(seconds)
    return name.encode()


def no_font() -> bytes:
    raise ValueError("no such font")


async def test_in_its_process_urgent_images_go_first_and_errors_come_back() -> None:
    drawing = Drawing()
    drawing.use_process()
    try:
        await drawing.draw(process_id)  # started
        done: list[str] = []
        turns = [
            asyncio.create_task(drawing.draw(named_after, f"turn {i}", 0.3 if i == 0 else 0))
            for i in range(6)
        ]
        await asyncio.sleep(0)  # queued: the first four are in the process's pipe
        urgent = asyncio.create_task(drawing.draw(named_after, "board", 0, urgent=True))
        for task in (*turns, urgent):
            task.add_done_callback(lambda finished: done.append(finished.result().decode()))
        await asyncio.gather(*turns, urgent)
        assert done == ["turn 0", "turn 1", "turn 2", "turn 3", "board", "turn 4", "turn 5"]
        with pytest.raises(ValueError, match=r"^no such font$"):
            await drawing.draw(no_font)
        with pytest.raises(AttributeError, match=r"^Can.t pickle local object"):
            await drawing.draw(lambda: b"drawn here only")
        assert await drawing.draw(named_after, "still drawing", 0) == b"still drawing"
    finally:
        drawing.close()
