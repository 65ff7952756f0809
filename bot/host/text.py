"""Wording every game's messages share: how a message repeats what a user typed."""

from __future__ import annotations

from typing import Final

MAX_ECHO: Final = 40
"""The most characters of a user's text an error message repeats."""


def quoted(user_text: str, limit: int = MAX_ECHO) -> str:
    """``user_text`` as a message repeats it: quoted, control characters escaped (``repr``), and cut
    to ``limit`` characters with an ellipsis if it is longer."""
    shown = repr(user_text[: limit + 1])
    return shown if len(shown) <= limit and len(user_text) <= limit else shown[: limit - 1] + "…"
