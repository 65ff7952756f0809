"""The bot's child processes when the bot dies (kill -9): the drawing process and the AI workers exit,
quietly, whatever state their pipe to it was left in."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

from scrabble_core.lexicon import Lexicon

PARENT = Path(__file__).with_name("orphaned_parent.py")
ROOT = Path(__file__).parent.parent.parent


def _gone(pid: int) -> bool:
    """Whether process ``pid`` has exited (a zombie nobody reaped counts as exited)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return True
    return state in ("Z", "X")


def test_the_children_of_a_killed_bot_exit_without_a_traceback(enable_lexicon: Lexicon) -> None:
    assert enable_lexicon.trie_path is not None
    parent = subprocess.Popen(
        [sys.executable, str(PARENT), str(enable_lexicon.trie_path.parent)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        text=True,
    )
    try:
        assert parent.stdout is not None
        ready = parent.stdout.readline().split()
        assert ready[:1] == ["ready"], ready
        children = [int(pid) for pid in ready[1:]]
        assert len(children) == 3
        parent.send_signal(signal.SIGKILL)
        # The pipes reach their end once every child holding them has exited.
        _, errors = parent.communicate(timeout=60)
    finally:
        parent.kill()
        parent.wait()
    assert errors == "", errors
    assert all(_gone(pid) for pid in children)
