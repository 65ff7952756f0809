"""Talking GTP to an engine in a subprocess (GNU Go, or ``scrabble-bot go --gtp`` itself in tests), with a
time limit on every answer: an engine that does not answer in time is killed."""

from __future__ import annotations

import os
import selectors
import subprocess
import time
from collections.abc import Sequence
from typing import Final, Self

_CHUNK: Final = 65536


class GtpError(Exception):
    """The engine answered with a GTP error (``? illegal move``); the message is the engine's text."""


class GtpTimeoutError(GtpError):
    """The engine did not answer in time, or it is gone; it was killed."""


class GtpClient:
    """One GTP engine process: :meth:`send` a command, get its answer."""

    def __init__(self, argv: Sequence[str]) -> None:
        """Start ``argv`` (the engine in GTP mode) with pipes on its standard input and output.

        Raises:
            OSError: the program cannot be started.
        """
        self.argv = tuple(argv)
        self._process = subprocess.Popen(
            self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0
        )
        self._buffer = b""

    def send(self, command: str, timeout: float = 10.0) -> str:
        """Send ``command`` (one line) and return the answer's text, without ``=`` and the id.

        Raises:
            GtpError: the engine answered with an error.
            GtpTimeoutError: no whole answer within ``timeout`` seconds (the engine is killed), or the
                engine has exited.
        """
        stdin = self._process.stdin
        if stdin is None or self._process.poll() is not None:
            raise GtpTimeoutError(f"{self.argv[0]} is not running")
        try:
            stdin.write(f"{command}\n".encode())
            stdin.flush()
        except OSError as error:
            self.close()
            raise GtpTimeoutError(f"{self.argv[0]} is gone: {error}") from None
        answer = self._read_answer(time.monotonic() + timeout)
        status, text = answer[:1], answer[1:].lstrip("0123456789")
        text = text.strip(" ")
        if status == "?":
            raise GtpError(text)
        return text

    def close(self) -> None:
        """Stop the engine (killed if it does not quit at once)."""
        process = self._process
        if process.poll() is None:
            process.kill()
        process.wait()
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                stream.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def _read_answer(self, deadline: float) -> str:
        stdout = self._process.stdout
        assert stdout is not None
        with selectors.DefaultSelector() as selector:
            selector.register(stdout, selectors.EVENT_READ)
            while b"\n\n" not in self._buffer:
                remaining = deadline - time.monotonic()
                if remaining <= 0 or not selector.select(remaining):
                    self.close()
                    raise GtpTimeoutError(f"{self.argv[0]} did not answer in time and was stopped")
                chunk = os.read(stdout.fileno(), _CHUNK)
                if not chunk:
                    self.close()
                    raise GtpTimeoutError(f"{self.argv[0]} exited")
                self._buffer += chunk.replace(b"\r", b"")
        answer, _, self._buffer = self._buffer.partition(b"\n\n")
        return answer.decode(errors="replace")
