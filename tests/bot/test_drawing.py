"""The drawing thread: images drawn one at a time, those answering a command first, in the thread or in\na process of its own."""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time
from pathlib import Path

import pytest

from bot.games.scrabble.images.renderer import PngRenderer
from bot.host.drawing import IN_FLIGHT, NICENESS, Drawing, DrawingProcessDiedError
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


def niceness() -> bytes:
    """The CPU priority's niceness of the process that draws."""
    return str(os.nice(0)).encode()


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
        assert int(await drawing.draw(niceness)) == min(os.nice(0) + NICENESS, 19)  # the bot first
        rack = await drawing.draw(renderer.rack, "QUIZ?AB", standard, urgent=True)
        assert rack == renderer.rack("QUIZ?AB", standard)  # the same bytes as drawn here
        with caplog.at_level(logging.ERROR, "bot.host"), pytest.raises(DrawingProcessDiedError):
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


def named_when(name: str, started: str, gate: str) -> bytes:
    """``name``, once the file ``gate`` exists; creates the file ``started`` first."""
    Path(started).touch()
    while not Path(gate).exists():
        time.sleep(0.005)
    return name.encode()


async def wait_for_file(path: Path) -> None:
    for _ in range(2000):
        if path.exists():
            return
        await asyncio.sleep(0.005)
    raise AssertionError(f"{path} never appeared")


def no_font() -> bytes:
    raise ValueError("no such font")


async def test_in_its_process_urgent_images_go_first_and_errors_come_back(tmp_path: Path) -> None:
    drawing = Drawing()
    drawing.use_process()
    started, gate = tmp_path / "started", tmp_path / "gate"
    try:
        await drawing.draw(process_id)  # started
        done: list[str] = []
        first = asyncio.create_task(drawing.draw(named_when, "turn 0", str(started), str(gate)))
        await wait_for_file(started)  # the process draws it
        count = IN_FLIGHT - 2  # with the first and the urgent one, all in the process's hands
        turns = [asyncio.create_task(drawing.draw(named_after, f"turn {i}", 0)) for i in range(1, count + 1)]
        urgent = asyncio.create_task(drawing.draw(named_after, "board", 0, urgent=True))
        await asyncio.sleep(0)  # all in the process's pipe, the urgent one last
        gate.touch()
        for task in (first, *turns, urgent):
            task.add_done_callback(lambda finished: done.append(finished.result().decode()))
        await asyncio.gather(first, *turns, urgent)
        assert done == ["turn 0", "board", *(f"turn {i}" for i in range(1, count + 1))]
        with pytest.raises(ValueError, match=r"^no such font$"):
            await drawing.draw(no_font)
        with pytest.raises(AttributeError, match=r"^Can.t pickle local object"):
            await drawing.draw(lambda: b"drawn here only")
        assert await drawing.draw(named_after, "still drawing", 0) == b"still drawing"
    finally:
        drawing.close()


def noted(name: str, log: str) -> bytes:
    """``name``, noted as a line of the file ``log``."""
    with open(log, "a") as out:
        out.write(f"{name}\n")
    return name.encode()


async def test_in_its_process_an_image_nobody_waits_for_any_more_is_not_drawn(tmp_path: Path) -> None:
    drawing = Drawing()
    drawing.use_process()
    started, gate, log = tmp_path / "started", tmp_path / "gate", tmp_path / "log"
    try:
        await drawing.draw(process_id)  # started
        first = asyncio.create_task(drawing.draw(named_when, "first", str(started), str(gate)))
        await wait_for_file(started)
        given_up = [
            asyncio.create_task(drawing.draw(noted, f"given up {i}", str(log))) for i in range(IN_FLIGHT + 4)
        ]
        kept = asyncio.create_task(drawing.draw(noted, "kept", str(log)))
        await asyncio.sleep(0)  # the process has the first and IN_FLIGHT - 1 more; 5 wait here
        for task in given_up:
            task.cancel()
        await asyncio.wait(given_up)  # the process is told (while it still draws the first)
        gate.touch()
        assert await first == b"first"
        assert await kept == b"kept"
        assert log.read_text() == "kept\n"
    finally:
        drawing.close()
