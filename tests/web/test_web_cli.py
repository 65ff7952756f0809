"""``scrabble-bot web`` and ``scrabble-bot arena`` as a user runs them (real processes, the real
lexicon, AI workers and web server)."""

from __future__ import annotations

import asyncio
import json
import re
import sys
from pathlib import Path

import aiohttp
import pytest

from bot.web.cli import wilson_interval

ROOT = Path(__file__).parents[2]
EXAMPLE = ROOT / "examples" / "bot_client.py"


def test_the_wilson_interval() -> None:
    assert wilson_interval(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson_interval(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)


async def test_web_prints_links_that_open_the_game(tmp_path: Path) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "web", "--port", "0", "--db", str(tmp_path / "web.sqlite3"),
        "--players", "Ann", "--bot-seat", "--ai", "1", "--seed", "1",
        stdout=asyncio.subprocess.PIPE, cwd=ROOT,
    )  # fmt: skip
    assert process.stdout is not None
    lines = [(await asyncio.wait_for(process.stdout.readline(), 120)).decode() for _ in range(6)]
    try:
        assert lines[0] == "Game 1 is on. Open your link in a browser:\n"
        ann = re.fullmatch(r"  Ann: (http://127\.0\.0\.1:(\d+))/game#t=(\S+)\n", lines[1])
        assert ann is not None
        assert re.fullmatch(r"  bot seat 2 \(Bot\): token 1\.b1\.0\.\S+\n", lines[2])
        assert lines[3] == f"    websocket {ann.group(1).replace('http', 'ws')}/ws (see docs/protocol.md)\n"
        assert re.fullmatch(r"  spectators: http://127\.0\.0\.1:\d+/game#t=1\.s\.0\.\S+\n", lines[4])
        base, token = ann.group(1), ann.group(3)
        async with aiohttp.ClientSession() as session:
            async with session.get(f"{base}/healthz") as response:
                assert await response.text() == "ok"
            async with session.ws_connect(f"{base.replace('http', 'ws')}/ws") as ws:
                await ws.send_str(json.dumps({"type": "hello", "protocol": 1, "token": token}))
                welcome = json.loads((await ws.receive(timeout=10)).data)
        assert welcome["you"] == {"role": "player", "seat": 0, "name": "Ann"}
        assert [p["kind"] for p in welcome["state"]["players"]] == ["human", "ai", "human"]
        assert len(welcome["state"]["rack"]) == 7
    finally:
        process.terminate()
        await process.wait()


@pytest.mark.slow
async def test_the_arena_plays_the_example_bot_against_the_ai(tmp_path: Path) -> None:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "arena", "--games", "2", "--ai", "1", "--level", "easy", "--seed", "1",
        "--db", str(tmp_path / "arena.sqlite3"), "--bot", f"{sys.executable} {EXAMPLE}",
        stdout=asyncio.subprocess.PIPE, cwd=ROOT,
    )  # fmt: skip
    output, _ = await asyncio.wait_for(process.communicate(), 600)
    text = output.decode()
    assert process.returncode == 0, text
    assert re.search(r"^game 1: bot1=\d+ AI=\d+$", text, re.M)
    assert re.search(r"^game 2: bot1=\d+ AI=\d+$", text, re.M)
    assert re.search(r"^bot1: win rate (0\.00|0\.50|1\.00) \(95% interval 0\.\d\d-[01]\.\d\d\)$", text, re.M)
    assert re.search(r"^AI \(easy\): win rate", text, re.M)
