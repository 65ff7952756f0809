"""Who sits at a game: :class:`User` as the service sees a Discord user, the names of the seats, and
the draw for who plays first."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from scrabble_core.variant import BLANK, Variant

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
    """``text`` (a message of the service) with the escapes of :func:`shown` taken out, for a front end
    without chat markup (a terminal): names as they are."""
    return _ESCAPED.sub(r"\1", text)


@dataclass(frozen=True, slots=True)
class User:
    """A Discord user as the service sees them: an id and the name shown in games."""

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


@dataclass(frozen=True, slots=True)
class FirstDraw:
    """The draw for the first turn: who plays first (an index into the names drawn for) and the line
    that tells the channel how the tiles fell."""

    first: int
    line: str


def draw_first(names: Sequence[str], variant: Variant, rng: random.Random) -> FirstDraw:
    """Who plays first, drawn as in tournaments: each player draws a tile from a full bag (returned
    after each round); the tile nearest the start of the alphabet wins, a blank beats every letter,
    and the players tied for the best tile draw again."""
    order = {tile: rank for rank, tile in enumerate([BLANK, *variant.alphabet])}
    drawing = list(range(len(names)))
    rounds = []
    while True:
        tiles = rng.sample(variant.full_bag(), len(drawing))
        rounds.append(
            ", ".join(f"{shown(names[i])} draws {_tile_name(t)}" for i, t in zip(drawing, tiles, strict=True))
        )
        best = min(order[tile] for tile in tiles)
        drawing = [i for i, tile in zip(drawing, tiles, strict=True) if order[tile] == best]
        if len(drawing) == 1:
            break
    (first,) = drawing
    return FirstDraw(
        first, f"Draw for the first turn: {'; again: '.join(rounds)}. {shown(names[first])} plays first."
    )


def _tile_name(tile: str) -> str:
    return "a blank" if tile == BLANK else tile
