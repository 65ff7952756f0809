"""Stopping on SIGINT and SIGTERM: a process whose event loop is held up still ends in time (bot.stopping's
watchdog); the real ``scrabble-bot`` process, signalled at random moments while AI turns think in the
worker pool, boards are drawn and announcements go out (against the fake REST API and gateway), stops in
less than 5 s each time, and the next start loses and doubles no announcement."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import sqlite3
import sys
import time
from pathlib import Path

import pytest
from discord_fake import TEST_TOKEN, FakeDiscord
from discord_gateway import FakeGateway
from test_gateway_fake import started_fakes

GATEWAY_SCRIPT = Path(__file__).with_name("discord_gateway.py")
STOPS = 20
STOP_SECONDS = 5.0
"""The bound of a stop: bot.stopping's 4.5 s, and the time a process takes to end."""

HELD_UP = """
import asyncio, time
from bot.stopping import stop_on_signals

async def main():
    stop_on_signals(asyncio.current_task(), 1.0)
    print("ready", flush=True)
    time.sleep(30)  # the event loop held up

asyncio.run(main())
"""


async def start_bot(config: Path, fake: FakeDiscord, gateway: FakeGateway) -> asyncio.subprocess.Process:
    """``scrabble-bot`` on the fakes, once it has identified."""
    gateway.identified.clear()
    process = await asyncio.create_subprocess_exec(
        sys.executable, str(GATEWAY_SCRIPT), fake.api_base, gateway.url, "--config", str(config),
        env=os.environ | {"DISCORD_TOKEN": TEST_TOKEN},
    )  # fmt: skip
    await asyncio.wait_for(gateway.identified.wait(), 60)
    return process


async def seconds_to_stop(process: asyncio.subprocess.Process, signal_number: int) -> float:
    """Send ``signal_number``; the seconds until the process exited (killed after 60 s)."""
    began = time.monotonic()
    process.send_signal(signal_number)
    try:
        await asyncio.wait_for(process.wait(), 60)
    except TimeoutError:
        process.kill()
        await process.wait()
    return time.monotonic() - began


def unsent(database: Path) -> int:
    with sqlite3.connect(database) as db:
        (count,) = db.execute("SELECT count(*) FROM outbox WHERE sent_at IS NULL").fetchone()
    return int(count)


@pytest.mark.parametrize("signal_number", [signal.SIGINT, signal.SIGTERM])
async def test_a_stop_the_loop_cannot_serve_ends_the_process_after_its_seconds(signal_number: int) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", HELD_UP, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    assert process.stdout is not None and process.stderr is not None
    assert await asyncio.wait_for(process.stdout.readline(), 60) == b"ready\n"
    seconds = await seconds_to_stop(process, signal_number)
    assert 1.0 <= seconds < STOP_SECONDS
    assert process.returncode == 0
    assert b"the bot did not stop within 1.0 s of the signal: exiting now" in await process.stderr.read()


@pytest.mark.slow
async def test_sigint_and_sigterm_stop_the_bot_within_5_seconds_and_lose_nothing(tmp_path: Path) -> None:
    fake, gateway, payloads = await started_fakes()
    database = tmp_path / "games.sqlite3"
    config = tmp_path / "config.toml"
    config.write_text(
        f'database = {json.dumps(str(database))}\nlog_level = "WARNING"\n'
        "[turn]\ntime_limit = 2\nmax_timeouts = 0\n[ai]\nworkers = 2\n"
    )
    rng = random.Random(29)
    process = await start_bot(config, fake, gateway)
    try:
        new = payloads.slash(
            "new",
            [
                {"name": "ai_opponents", "type": 4, "value": 3},
                {"name": "ai_level", "type": 3, "value": "hard"},
            ],
        )
        for payload in (new, payloads.slash("start")):
            await gateway.dispatch("INTERACTION_CREATE", payload)
            await fake.callback_for(payload, timeout=30)
        stops, codes = [], []
        for number in range(STOPS):
            if number:
                process = await start_bot(config, fake, gateway)
            await asyncio.sleep(rng.uniform(0.0, 3.0))
            stops.append(await seconds_to_stop(process, (signal.SIGINT, signal.SIGTERM)[number % 2]))
            codes.append(process.returncode)
        assert max(stops) < STOP_SECONDS, [round(seconds, 2) for seconds in stops]
        assert codes == [0] * STOPS
        process = await start_bot(config, fake, gateway)
        for _ in range(600):
            if unsent(database) == 0:
                break
            await asyncio.sleep(0.1)
        assert unsent(database) == 0
        await seconds_to_stop(process, signal.SIGINT)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
        await gateway.close()
        await fake.close()
    plays = [
        line
        for message in fake.channel_messages(payloads.channel_id)
        for line in message["content"].splitlines()
        if " played " in line
    ]
    with sqlite3.connect(database) as db:
        (played,) = db.execute("SELECT count(*) FROM events WHERE kind = 'play'").fetchone()
    assert len(plays) == len(set(plays))  # no move announced twice (each is on squares of its own)
    assert played > STOPS // 2  # the game went on across the stops
