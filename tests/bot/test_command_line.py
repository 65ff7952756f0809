"""``scrabble-bot``'s command line: the commands listed by ``--help``, ``--version``, a mistyped command,
plain-text help everywhere, and the arena stopping at once on a bot that cannot play."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import COMMANDS, main
from bot.version import package_version

ROOT = Path(__file__).parents[2]


def test_help_lists_every_command_on_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    lines = capsys.readouterr().out.splitlines()
    listed = [
        line.split(None, 1) for line in lines if line.startswith("    ") and not line.startswith("     ")
    ]
    assert listed == [[name, summary] for name, summary in COMMANDS.items()]
    assert sorted(COMMANDS) == sorted(["run", "play", "web", "arena", "go", "worker", "migrate-db"])


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out == f"scrabble-bot {package_version()}\n"
    assert re.fullmatch(r"\d+\.\d+\.\d+", package_version())


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["plya"], "'plya' is not a command: did you mean play? (scrabble-bot --help lists the commands)"),
        (["help"], "'help' is not a command: did you mean --help? (scrabble-bot --help lists the commands)"),
        (["--config", "bot.toml", "wbe"], "'wbe' is not a command: did you mean web?"),
        (["xyzzy", "play"], "'xyzzy' is not a command (scrabble-bot --help lists the commands)"),
        (["\u202e" * 1000], "'" + "\\u202e" * 6 + "…' is not a command"),
    ],
)
def test_an_unknown_command_suggests_the_nearest(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"scrabble-bot: {message}")
    assert captured.err.count("\n") == 1


@pytest.mark.parametrize("command", [[], *[[name] for name in COMMANDS]], ids=["scrabble-bot", *COMMANDS])
def test_every_help_is_plain_text(command: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main([*command, "--help"])
    assert done.value.code == 0
    text = capsys.readouterr().out
    assert text.startswith(f"usage: scrabble-bot {' '.join(command)}".rstrip())
    for markup in ("`", "%%", ":mod:", ":func:", "**"):
        assert markup not in text


def test_the_readme_says_which_python_and_lists_every_command() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "Python 3.11 or newer" in readme
    for name in COMMANDS:
        assert f"scrabble-bot {name}" in readme, name


def _arena(tmp_path: Path, bot: str, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", "arena", "--games", "3", "--level", "easy", "--bot", bot,
         "--db", str(tmp_path / "arena.sqlite3"), *options],
        check=False, cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True,
        text=True, timeout=120,
    )  # fmt: skip


def test_the_arena_stops_at_once_when_a_bot_exits(tmp_path: Path) -> None:
    done = _arena(tmp_path, f"{sys.executable} examples/bot_client.py")  # no such file here
    assert done.returncode == 1
    assert "can't open file" in done.stderr
    assert done.stderr.endswith(
        f"scrabble-bot: bot1 ({sys.executable} examples/bot_client.py) exited with code 2 before its game "
        "ended\n"
    )
    assert done.stdout == ""


def test_the_arena_stops_when_a_bot_never_connects(tmp_path: Path) -> None:
    silent = f"{sys.executable} -c 'import time; time.sleep(120)'"
    done = _arena(tmp_path, silent, "--connect-timeout", "1.5")
    assert done.returncode == 1
    assert done.stderr == (
        f"scrabble-bot: bot1 ({silent}) did not connect within 1.5 seconds: a bot connects to the "
        "websocket and says hello (see docs/protocol.md)\n"
    )
