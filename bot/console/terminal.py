"""The console's input and output: the seam between the game loop and the real terminal.

:class:`Terminal` is two callables and what the screen can do; :meth:`Terminal.system` builds the real
one on standard input and output (line editing, history and completion from :mod:`readline` when it is
available and input is a terminal), and tests build one over scripted lines.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from bot.console.terminal_board import Style

HISTORY_LENGTH: Final = 500
_CLEAR: Final = "\x1b[H\x1b[2J\x1b[3J"


@dataclass(frozen=True)
class Terminal:
    """Where the console reads and writes.

    ``read(prompt)`` returns one line without its end and raises :class:`EOFError` at the end of input
    (or :class:`KeyboardInterrupt`); ``write(text)`` shows text as is. ``style`` is how boards are drawn;
    ``clears`` whether the screen can be cleared (hot-seat games clear it between players).
    """

    read: Callable[[str], str]
    write: Callable[[str], None]
    style: Style = Style.PLAIN
    clears: bool = False

    def say(self, text: str = "") -> None:
        """Write ``text`` and a line end."""
        self.write(f"{text}\n")

    def ask(self, prompt: str) -> str | None:
        """A line read after ``prompt``; ``None`` at the end of input or on Ctrl-C (after a line end)."""
        try:
            return self.read(prompt)
        except (EOFError, KeyboardInterrupt):
            self.say()
            return None

    def confirm(self, question: str, *, default: bool) -> bool | None:
        """Ask ``question``, a yes-or-no question (Enter answers ``default``), until the answer is y,
        yes, n or no, in any case: whether it is yes; ``None`` at the end of input or on Ctrl-C (after a
        line end)."""
        hint = "[Y/n]" if default else "[y/N]"
        while (line := self.ask(f"{question} {hint} ")) is not None:
            answer = line.strip().lower()
            if not answer:
                return default
            if answer in {"y", "yes"}:
                return True
            if answer in {"n", "no"}:
                return False
            self.say(f"Answer y or n (Enter: {'y' if default else 'n'}).")
        return None

    def clear(self) -> None:
        """Clear the screen and its scrollback, or draw a rule when the terminal cannot."""
        self.write(_CLEAR if self.clears else f"{'-' * 60}\n")

    @classmethod
    def system(cls, *, ascii_only: bool) -> Terminal:
        """The real terminal, on standard input and output: rich drawing (ANSI colours and Unicode)
        when standard output is a terminal that is not ``dumb``, ``NO_COLOR`` is not set, its encoding
        is UTF-8 and ``ascii_only`` is false; plain ASCII otherwise. The screen is cleared only on a
        terminal that is not ``dumb``."""
        stdout = sys.stdout
        screen = stdout.isatty() and os.environ.get("TERM", "") not in {"", "dumb"}
        utf8 = (stdout.encoding or "").replace("-", "").lower() == "utf8"
        rich = screen and utf8 and not ascii_only and not os.environ.get("NO_COLOR")

        def write(text: str) -> None:
            stdout.write(text)
            stdout.flush()

        return cls(input, write, Style.RICH if rich else Style.PLAIN, screen)


@contextlib.contextmanager
def line_editing(history: Path, words: Collection[str]) -> Iterator[None]:
    """While inside, :func:`input` edits lines with :mod:`readline` (when standard input is a
    terminal and the module exists), with the history kept in ``history`` across sessions and Tab
    completing the first word from ``words``."""
    if not sys.stdin.isatty():
        yield
        return
    try:
        import readline
    except ImportError:  # Windows without pyreadline: plain input
        yield
        return
    with contextlib.suppress(OSError):
        readline.read_history_file(history)
    readline.set_history_length(HISTORY_LENGTH)
    choices = sorted(words)

    def complete(text: str, state: int) -> str | None:
        if readline.get_begidx() != 0:
            return None
        matches = [f"{word} " for word in choices if word.startswith(text.lower())]
        return matches[state] if state < len(matches) else None

    readline.set_completer(complete)
    readline.parse_and_bind("tab: complete")
    try:
        yield
    finally:
        readline.set_completer(None)
        with contextlib.suppress(OSError):
            readline.write_history_file(history)
