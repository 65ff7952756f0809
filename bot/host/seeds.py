"""The seeds of a game's randomness, one formula for every game: a new game's seed, and the seed of each
of its turns (its AI's choice), the same on a re-run after a restart."""

from __future__ import annotations

import secrets
from typing import Final

SEED_BITS: Final = 62
"""A game's seed, and the seed of each of its turns, is a number of this many bits."""

SEED_LIMIT: Final = 1 << SEED_BITS
"""A game's seed is a whole number from 0 to ``SEED_LIMIT - 1``."""


def new_seed() -> int:
    """A random seed for a new game."""
    return secrets.randbits(SEED_BITS)


def turn_seed(seed: int, turn: int) -> int:
    """The seed of turn ``turn`` of the game of seed ``seed``: the same on a re-run after a restart."""
    return (seed * 1_000_003 + turn) % SEED_LIMIT
