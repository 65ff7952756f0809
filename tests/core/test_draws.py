"""The simulation's random stream: SplitMix64, unbiased numbers below n, Fisher-Yates."""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from scrabble_core.draws import Draws, share_seed


def test_the_stream_is_splitmix64() -> None:
    # The reference outputs of SplitMix64 seeded 1234567.
    draws = Draws(1234567)
    assert [draws.next() for _ in range(5)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
        4593380528125082431,
        16408922859458223821,
    ]


def test_a_shuffle_is_pinned_by_its_seed() -> None:
    tiles = list("AEINRST?")
    Draws(42).shuffle(tiles)
    assert "".join(tiles) == "NETIRA?S"


def test_numbers_below_a_power_of_two_need_no_second_draw() -> None:
    # 2**64 is a whole multiple of 8: every output is kept, reduced modulo 8.
    first = Draws(7)
    second = Draws(7)
    assert [first.below(8) for _ in range(50)] == [second.next() % 8 for _ in range(50)]


def test_an_output_past_the_last_whole_multiple_is_drawn_again() -> None:
    # Below n = 2**64 - 1, only the output 2**64 - 1 is past the last whole multiple; force it.
    outputs = [(1 << 64) - 1, 5]

    class Rigged(Draws):
        def next(self) -> int:
            return outputs.pop(0)

    assert Rigged(0).below((1 << 64) - 1) == 5


@given(st.integers(min_value=0, max_value=(1 << 64) - 1), st.lists(st.integers(), max_size=30))
def test_a_shuffle_is_a_permutation(seed: int, items: list[int]) -> None:
    shuffled = list(items)
    Draws(seed).shuffle(shuffled)
    assert Counter(shuffled) == Counter(items)


def test_shares_draw_different_streams() -> None:
    seeds = {share_seed(99, share) for share in range(64)}
    assert len(seeds) == 64
    assert share_seed(99, 0) == share_seed(99, 0) != share_seed(100, 0)


def test_numbers_below_n_are_spread_evenly() -> None:
    draws = Draws(3)
    counts = Counter(draws.below(6) for _ in range(6000))
    assert set(counts) == set(range(6)) and all(900 < count < 1100 for count in counts.values())
