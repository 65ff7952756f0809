"""Who sits at a game: :class:`User` as the host sees a Discord user, the names of the seats, the pseudo
users of programs, and how the messages show a name."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

MAX_NAME_LENGTH: Final = 32


_MARKUP: Final = re.compile(r"([\\*_~|`>\[\]()<@#:-])")
_ESCAPED: Final = re.compile(r"\\" + _MARKUP.pattern)


def shown(name: str) -> str:
    """A player's name as the messages show it: as text, whatever it holds. Every character that chat
    markup gives a meaning (``*`` ``_`` ``~`` ``|`` `` ` `` ``>`` ``[`` ``]`` ``(`` ``)`` ``<`` ``@`` ``#``
    ``:`` ``-`` and the backslash) is escaped with a backslash, so ``**x**``, ``[x](url)``, ``<@123>`` or
    ``@everyone`` in a display name render literally (and never ping: the messages allow only the pings
    they list). Names are stored and exported as they are; only the texts escape them, here."""
    return _MARKUP.sub(r"\\\1", name)


def unescaped(text: str) -> str:
    """``text`` (a message of the host) with the escapes of :func:`shown` taken out, for a front end
    without chat markup (a terminal): names as they are."""
    return _ESCAPED.sub(r"\1", text)


@dataclass(frozen=True, slots=True)
class User:
    """A Discord user as the host sees them: an id and the name shown in games."""

    id: int
    name: str


def program_user_id(seats: Sequence[int | None]) -> int:
    """A pseudo user id for a new seat played by a program over the board protocol, among the seats'
    ``user ids``: negative (a Discord id never is), unique in the game."""
    return -1 - sum(1 for user_id in seats if is_program(user_id))


def is_program(user_id: int | None) -> bool:
    """Whether ``user_id`` is the pseudo user of a seat played by a program (never DMed or pinged)."""
    return user_id is not None and user_id < 0


def seat_name(name: str, taken: Sequence[str]) -> str:
    """A seat name from a display name: printable, at most 32 characters, different from ``taken``."""
    base = "".join(ch for ch in name if ch.isprintable()).strip()[:MAX_NAME_LENGTH] or "Player"
    candidate, number = base, 2
    while candidate in taken:
        candidate, number = f"{base} {number}", number + 1
    return candidate
