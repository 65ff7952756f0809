"""Fixtures of the Go tests: GNU Go's program, when it is installed."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.games.go.engines import find_gnugo


@pytest.fixture(scope="session")
def gnugo() -> Path:
    """GNU Go's program; the test is skipped when it is not installed (.ci/run installs it)."""
    program = find_gnugo()
    if program is None:
        pytest.skip(
            "GNU Go is not installed (apt-get install gnugo, or set $SCRABBLE_GNUGO): .ci/run installs it"
        )
    return program
