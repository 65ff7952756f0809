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


async def _serve(*options: str) -> tuple[asyncio.subprocess.Process, list[str]]:
    """``scrabble-bot web OPTIONS`` started, and the first lines it printed (up to the spectators')."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "web", "--port", "0", *options, stdout=asyncio.subprocess.PIPE, cwd=ROOT
    )
    assert process.stdout is not None
    lines = [(await asyncio.wait_for(process.stdout.readline(), 120)).decode()]
    while not lines[-1].startswith("  spectators:") and lines[-1]:
        lines.append((await asyncio.wait_for(process.stdout.readline(), 60)).decode())
    return process, lines


async def _welcome(link: str) -> dict[str, object]:
    match = re.fullmatch(r"(http://127\.0\.0\.1:\d+)/game#t=(\S+)", link)
    assert match is not None, link
    url = f"{match.group(1).replace('http', 'ws')}/ws"
    async with aiohttp.ClientSession() as session, session.ws_connect(url) as ws:
        await ws.send_str(json.dumps({"type": "hello", "protocol": 1, "token": match.group(2)}))
        welcome: dict[str, object] = json.loads((await ws.receive(timeout=10)).data)
    return welcome


async def test_web_serves_go_lists_its_games_and_resumes_one(tmp_path: Path) -> None:
    database = str(tmp_path / "web.sqlite3")
    process, lines = await _serve(
        "--db", database, "--game", "go", "--players", "Ann", "--size", "9", "--level", "easy"
    )
    try:
        assert lines[0] == "Game 1 is on. Open your link in a browser:\n"
        welcome = await _welcome(lines[1].removeprefix("  Ann: ").strip())
        assert welcome["kind"] == "go"
        state = welcome["state"]
        assert isinstance(state, dict)
        assert state["title"] == "Go 9×9" and state["click"] == "play"
        assert [player["name"] for player in state["players"]] == ["Ann", "AI"]
    finally:
        process.terminate()
        await process.wait()
    listing = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "web",
        "--list",
        "--db",
        database,
        stdout=asyncio.subprocess.PIPE,
        cwd=ROOT,
    )
    output, _ = await asyncio.wait_for(listing.communicate(), 60)
    assert output.decode() == "Game 1: Go: Ann vs AI\n"
    process, lines = await _serve("--db", database, "--resume")
    try:
        assert lines[0] == "Game 1 is on. Open your link in a browser:\n"
        welcome = await _welcome(lines[1].removeprefix("  Ann: ").strip())
        assert welcome["game_id"] == 1 and welcome["kind"] == "go"
    finally:
        process.terminate()
        await process.wait()


def test_go_in_the_browser_is_the_web_command_for_go() -> None:
    from bot.games.go.console.cli import _web_argv, parse_args

    args = parse_args(["--web", "--players", "Ann,Bob", "--size", "13", "--color", "white", "--seed", "3"])
    assert _web_argv(args) == [
        "--game", "go", "--players", "Ann,Bob", "--size", "13", "--colour", "white", "--seed", "3",
    ]  # fmt: skip


def test_web_takes_a_variant_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.web.cli import parse_web_args
    from scrabble_core import variant as variant_module

    monkeypatch.setattr(variant_module.VARIANTS, "_added", {})
    standard = (variant_module.assets_dir() / "variants" / "standard.toml").read_text()
    board = tmp_path / "my board.toml"
    board.write_text(standard.replace('name = "standard"', 'name = "homemade"'))
    assert parse_web_args(["--variant", str(board)]).variant == str(board)
    assert variant_module.get_variant(str(board)).name == "homemade"
    with pytest.raises(SystemExit) as exit_:
        parse_web_args(["--variant", "nowhere"])
    assert exit_.value.code == 2
    assert (
        "--variant: no variant 'nowhere': choose one of standard, super, diamond, infinite, letter-sets, "
        "standard-program, or give a variant file (FILE.toml)" in capsys.readouterr().err
    )
