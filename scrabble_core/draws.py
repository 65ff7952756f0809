"""The simulation's random draws: a small generator written the same in Python and in the native core.

The simulation shuffles the unseen tiles once per iteration. So that its pure-Python path and its
native one (``_search.h``) draw exactly the same tiles from the same seed, both use this generator
instead of :mod:`random`: SplitMix64 (a 64-bit state advanced by a fixed odd constant, each output a
mix of it), numbers below ``n`` drawn without bias (outputs at or above the last whole multiple of ``n``
below ``2**64`` are drawn again), and a Fisher-Yates shuffle from the last position down. A search
seeds it from the :class:`random.Random` it is given (:func:`share_seed`), so a game still replays
from its seed.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import Final, TypeVar

_MASK: Final = (1 << 64) - 1
_GAMMA: Final = 0x9E3779B97F4A7C15

T = TypeVar("T")


def _mix(z: int) -> int:
    """SplitMix64's output function of a state."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def share_seed(seed: int, share: int) -> int:
    """The seed of share ``share`` of a search seeded ``seed`` (``0 <= seed < 2**64``): the shares of
    one search draw unrelated streams."""
    return _mix((seed ^ _mix((share + 1) & _MASK)) & _MASK)


class Draws:
    """A SplitMix64 stream (see the module docstring)."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        """Start from ``seed`` (taken modulo ``2**64``)."""
        self.state = seed & _MASK

    def next(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + _GAMMA) & _MASK
        return _mix(self.state)

    def below(self, n: int) -> int:
        """A number in ``range(n)`` (``n >= 1``), every one equally likely."""
        limit = (1 << 64) - (1 << 64) % n
        while True:
            x = self.next()
            if x < limit:
                return x % n

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle ``items`` in place (Fisher-Yates, last position first)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
