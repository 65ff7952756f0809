"""``scrabble-bot`` / ``python -m bot``: the no-token message, that the token is never printed, and the
hand-over of ``scrabble-bot play`` to the console front end."""

from __future__ import annotations

import asyncio
import importlib
import os
import socket
import subprocess
import sys
import types
from pathlib import Path

import pytest
from discord_fake import FakeDiscord

from bot.__main__ import main

SECRET = "MTIzNDU2.secret-token.never-print-me"
SCRIPT = Path(sys.executable).parent / "scrabble-bot"

# Points discord.py at ``base`` in the child process (as the fixtures do in this one), then runs main().
RUN_AGAINST = (
    "import sys, discord.http; discord.http.Route.BASE = sys.argv[1]; "
    "from bot.__main__ import main; sys.exit(main(sys.argv[2:]))"
)


def clean_env(**extra: str) -> dict[str, str]:
    """The environment without any Discord token, plus ``extra``."""
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    return env | extra


def closed_port() -> int:
    """A loopback port nothing listens on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
    return port


@pytest.mark.parametrize(
    "command", [[sys.executable, "-m", "bot"], [str(SCRIPT)]], ids=["python -m bot", "scrabble-bot"]
)
def test_without_a_token_it_exits_2_saying_how_to_provide_one(tmp_path: Path, command: list[str]) -> None:
    done = subprocess.run(
        command, check=False, cwd=tmp_path, env=clean_env(), capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert "no Discord bot token" in done.stderr
    assert "DISCORD_TOKEN" in done.stderr
    assert "`token` in the config file" in done.stderr


def test_a_bad_config_exits_2_naming_the_key(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text('log_level = "LOUD"\n')
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        check=False,
        cwd=tmp_path,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "log_level" in done.stderr


def test_unreachable_discord_never_prints_the_token(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text('log_level = "DEBUG"\n')
    base = f"http://127.0.0.1:{closed_port()}/api/v10"
    done = subprocess.run(
        [sys.executable, "-c", RUN_AGAINST, base],
        check=False,
        cwd=tmp_path,
        env=clean_env(DISCORD_TOKEN=SECRET),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert "could not reach Discord" in done.stderr
    assert SECRET not in done.stdout + done.stderr
    assert "secret-token" not in done.stdout + done.stderr


async def test_refused_token_from_the_config_file_is_never_printed(tmp_path: Path) -> None:
    fake = FakeDiscord(valid_token="the-right-token")
    await fake.start()
    config = tmp_path / "bot.toml"
    config.write_text(f'token = "{SECRET}"\nlog_level = "DEBUG"\n')
    try:
        child = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            RUN_AGAINST,
            fake.api_base,
            "--config",
            str(config),
            cwd=tmp_path,
            env=clean_env(),
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        stdout, stderr = await asyncio.wait_for(child.communicate(), 60)
    finally:
        await fake.close()
    output = (stdout + stderr).decode()
    assert child.returncode == 1
    assert "Discord refused the token" in output
    assert SECRET not in output
    assert "\x1b[" not in output  # no colour escapes: the log goes to a pipe
    assert "] [INFO    ] bot: lexicon ENABLE loaded" in output
    assert "voice will NOT be supported" not in output  # the bot has no voice
    (login,) = fake.find("GET", "/users/@me")
    assert login.authorization == f"Bot {SECRET}"  # the file's token was the one used


def test_the_no_token_message_points_to_local_play(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot"],
        check=False,
        cwd=tmp_path,
        env=clean_env(),
        capture_output=True,
        text=True,
    )
    assert "scrabble-bot play" in done.stderr


def test_play_is_handed_to_the_console_with_the_rest_of_the_arguments(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls: list[list[str]] = []

    def console_main(argv: list[str]) -> int:
        calls.append(argv)
        return 7

    monkeypatch.setitem(
        sys.modules, "bot.games.scrabble.console.cli", types.SimpleNamespace(main=console_main)
    )
    assert main(["play", "--ai", "hard"]) == 7
    assert calls == [["--ai", "hard"]]


def test_scrabble_bot_play_reaches_the_real_console() -> None:
    console = importlib.import_module("bot.console")
    assert callable(console.main)
    done = subprocess.run(
        [str(SCRIPT), "play", "--help"],
        check=False,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "no Discord bot token" not in done.stderr


@pytest.mark.parametrize("module", ["bot.__main__", "bot.console", "bot.host.ai.executor"])
def test_the_console_and_the_ai_workers_never_load_discord(module: str) -> None:
    # scrabble-bot play goes through bot.__main__ to bot.console, and every AI worker process (spawned)
    # re-imports the main module and bot.host.ai.executor: none of them should pay for discord.py.
    done = subprocess.run(
        [sys.executable, "-c", f"import sys, {module}; print('discord' in sys.modules)"],
        check=True,
        env=clean_env(),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.stdout.strip() == "False"
