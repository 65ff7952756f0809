"""The small pseudo-random generator of the Monte Carlo search, the same in C and in Python.

The search's random choices (which point a playout tries first) come from xorshift64* (Marsaglia's
xorshift with Vigna's multiplier): a 64-bit state, three shifts and a multiplication a number; the high
32 bits of the product are the number. :meth:`XorShift64Star.below` maps one to ``0 <= k < n`` by
multiplying (Lemire's method without its rejection step: the bias is below ``n / 2**32``). The native
search (``go_core/_search.c``) runs the same steps, so one seed gives the same playouts in both.

A search is seeded from the :class:`random.Random` its caller passes (:func:`seed_from`).
"""

from __future__ import annotations

import random
from typing import Final

MASK64: Final = (1 << 64) - 1
MULTIPLIER: Final = 0x2545F4914F6CDD1D
DEFAULT_STATE: Final = 0x9E3779B97F4A7C15
"""The state a zero seed is replaced with (xorshift's state must not be zero)."""


def seed_from(rng: random.Random) -> int:
    """A 64-bit seed drawn from ``rng`` (never zero)."""
    return rng.getrandbits(64) or DEFAULT_STATE


class XorShift64Star:
    """xorshift64*: ``state ^= state >> 12; state ^= state << 25; state ^= state >> 27`` (64 bits), then
    the high 32 bits of ``state * 0x2545F4914F6CDD1D`` (mod 2**64)."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = (seed & MASK64) or DEFAULT_STATE

    def next32(self) -> int:
        """The next number, ``0 <= k < 2**32``."""
        x = self.state
        x ^= x >> 12
        x ^= (x << 25) & MASK64
        x ^= x >> 27
        self.state = x
        return ((x * MULTIPLIER) & MASK64) >> 32

    def below(self, n: int) -> int:
        """The next number mapped to ``0 <= k < n`` (``n`` at most ``2**32``)."""
        return (self.next32() * n) >> 32


def splitmix64(seed: int, count: int) -> list[int]:
    """``count`` 64-bit numbers of SplitMix64 from ``seed``: the position hashes' keys (see
    :func:`go_core.playout.zobrist_keys`)."""
    numbers = []
    state = seed & MASK64
    for _ in range(count):
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        numbers.append(z ^ (z >> 31))
    return numbers
