"""``python -m bot play`` in a pseudo-terminal: a real process, a real prompt, quit and resume."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from scrabble_core.lexicon import Lexicon

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")

_TIMEOUT = 30.0


class Pty:
    """A process on a pseudo-terminal: :meth:`expect` reads until a text shows, :meth:`type` types."""

    def __init__(self, args: list[str], env: dict[str, str]) -> None:
        self.master, slave = pty.openpty()
        self.process = subprocess.Popen(
            args, stdin=slave, stdout=slave, stderr=slave, env=env, close_fds=True
        )
        os.close(slave)
        self.seen = ""

    def expect(self, text: str) -> str:
        deadline = time.monotonic() + _TIMEOUT
        while text not in self.seen:
            left = deadline - time.monotonic()
            assert left > 0, f"{text!r} never showed; the screen so far:\n{self.seen}"
            ready, _, _ = select.select([self.master], [], [], left)
            if ready:
                try:
                    chunk = os.read(self.master, 4096)
                except OSError:  # the process ended and closed the terminal
                    chunk = b""
                assert chunk, f"the process ended before {text!r} showed:\n{self.seen}"
                self.seen += chunk.decode(errors="replace")
        before, _, self.seen = self.seen.partition(text)
        return before + text

    def type(self, line: str) -> None:
        os.write(self.master, f"{line}\r".encode())

    def wait(self) -> int:
        code = self.process.wait(_TIMEOUT)
        os.close(self.master)
        return code


def test_play_quit_and_resume_in_a_terminal(tmp_path: Path, enable_lexicon: Lexicon) -> None:
    assert enable_lexicon.trie_path is not None
    env = {
        **os.environ,
        "SCRABBLE_CACHE_DIR": str(enable_lexicon.trie_path.parent),
        "TERM": "xterm-256color",
        "HOME": str(tmp_path),
    }
    env.pop("NO_COLOR", None)
    command = [sys.executable, "-m", "bot", "play", "--db", str(tmp_path / "c.sqlite3")]

    game = Pty([*command, "--players", "Ann", "--ascii", "--seed", "1", "--level", "greedy"], env)
    game.expect("Ann [ADEGORZ]> ")
    game.type("8H GRAZED")
    played = game.expect("Ann [")
    assert "Ann played GRAZED at 8H (across) for 36." in played
    assert "AI played" in played
    assert "\x1b[" not in played.replace("\x1b[?", "")  # --ascii: no colours
    game.expect("]> ")
    game.type("quit")
    game.expect("The game is saved")
    assert game.wait() == 0

    resumed = Pty([*command, "--resume"], env)
    screen = resumed.expect("]> ")
    assert "Game 1: Ann vs AI (greedy)" in screen
    assert "\x1b[1;38;5;" in screen  # a colour terminal without --ascii: the board in colour
    resumed.type("history")
    assert "1. Ann played GRAZED at 8H (across) for 36." in resumed.expect("]> ")
    resumed.type("quit")
    resumed.expect("The game is saved")
    assert resumed.wait() == 0
    assert (tmp_path / "console-history").read_text().splitlines()[-2:] == ["history", "quit"]
