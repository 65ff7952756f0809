"""Who sits at a game: :class:`User` as the service sees a Discord user, and the names of the seats."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

MAX_NAME_LENGTH: Final = 32


@dataclass(frozen=True, slots=True)
class User:
    """A Discord user as the service sees them: an id and the name shown in games."""

    id: int
    name: str


def seat_name(name: str, taken: Sequence[str]) -> str:
    """A seat name from a display name: printable, at most 32 characters, different from ``taken``."""
    base = "".join(ch for ch in name if ch.isprintable()).strip()[:MAX_NAME_LENGTH] or "Player"
    candidate, number = base, 2
    while candidate in taken:
        candidate, number = f"{base} {number}", number + 1
    return candidate
