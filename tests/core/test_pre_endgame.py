"""The pre-endgame: every deal and its weight, playouts to the end with the endgame solver, shares."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrabble_core.ai import (
    ExpertBudget,
    Level,
    MoveSource,
    SeatView,
    choose_move,
    default_leave_model,
    seat_view,
)
from scrabble_core.endgame import solve_endgame
from scrabble_core.game import Game
from scrabble_core.leaves import LeaveModel
from scrabble_core.lexicon import Lexicon
from scrabble_core.move import Pass, Play
from scrabble_core.movegen import MoveGenerator
from scrabble_core.pre_endgame import (
    Deal,
    _Playout,
    candidates,
    count_deals,
    deals,
    pre_endgame,
    pre_endgame_share,
)
from scrabble_core.simulation import merge_stats, simulation_result
from scrabble_core.validation import remove_tiles
from scrabble_core.variant import get_variant


@pytest.fixture(scope="module")
def model() -> LeaveModel:
    return default_leave_model()


def bag_of(lexicon: Lexicon, generator: MoveSource, bag: int, first_seed: int = 1) -> SeatView:
    """The view of the seat on turn once a hard game has exactly ``bag`` tiles in the bag: the game of
    the first seed from ``first_seed`` on that stops there (some empty the bag past it)."""
    for seed in range(first_seed, first_seed + 50):
        game = Game(get_variant("standard"), ["a", "b"], rng=random.Random(seed), lexicon=lexicon)
        while len(game.bag) > bag:
            move = choose_move(seat_view(game, game.current), generator, Level.HARD, random.Random(0))
            game.push(game.current, move)
        if len(game.bag) == bag:
            return seat_view(game, game.current)
    raise AssertionError(f"no game stopped at {bag} tiles in the bag")


def test_the_deals_of_a_bag_of_one_and_their_weights() -> None:
    # Two A and a B unseen, one in the bag: an A there (either copy) or the B.
    assert deals("AAB", 1) == [Deal("AB", "A", 2), Deal("AA", "B", 1)]
    assert count_deals("AAB", 1) == 2


@settings(max_examples=40, deadline=None)
@given(st.text(alphabet="AAAEEIOSTQ?", min_size=2, max_size=9), st.integers(min_value=1, max_value=3))
def test_the_deals_are_every_order_of_the_bag_weighted_by_the_ways_to_deal_it(unseen: str, bag: int) -> None:
    bag = min(bag, len(unseen) - 1)
    listed = deals(unseen, bag)
    assert len(listed) == count_deals(unseen, bag) == len(set((deal.opponent, deal.bag) for deal in listed))
    # Every arrangement of the physical tiles is counted once: n! / (n - bag)! ordered bags.
    assert sum(deal.weight for deal in listed) == math.perm(len(unseen), bag)
    for deal in listed:
        assert Counter(deal.opponent) + Counter(deal.bag) == Counter(unseen)


def test_a_play_that_empties_the_bag_is_valued_by_the_endgame_after_it(
    enable_lexicon: Lexicon, enable_generator: MoveGenerator, model: LeaveModel
) -> None:
    view = bag_of(enable_lexicon, enable_generator, 1)
    playout = _Playout(view, enable_generator, model)
    deal = deals(view.unseen, 1)[0]
    _, move, points = next(
        option for option in candidates(view, enable_generator, model) if isinstance(option[1], Play)
    )
    assert isinstance(move, Play)
    board = view.board.copy()
    board.place(move.placements())
    ours = remove_tiles(view.rack, move.rack_tiles()) + deal.bag
    after = solve_endgame(board, deal.opponent, ours, enable_generator, max_nodes=50)
    expected = points - after.value if ours else points + 2 * view.variant.rack_value(deal.opponent)
    assert playout.run(move, points, deal, 50) == expected


def test_the_pass_is_a_candidate_and_the_best_value_is_played(
    enable_lexicon: Lexicon, enable_generator: MoveGenerator, model: LeaveModel
) -> None:
    view = bag_of(enable_lexicon, enable_generator, 1, 5)
    ranked = candidates(view, enable_generator, model)
    assert Pass() in [move for _, move, _ in ranked]
    result = pre_endgame(view, enable_generator, model, random.Random(0), budget=ExpertBudget(6, 60, 8))
    assert result.iterations == count_deals(view.unseen, 1)
    assert result.move == result.means[0][0]
    assert [mean for _, mean in result.means] == sorted((mean for _, mean in result.means), reverse=True)


def test_shares_split_the_deals_and_add_up(
    enable_lexicon: Lexicon, enable_generator: MoveGenerator, model: LeaveModel
) -> None:
    view = bag_of(enable_lexicon, enable_generator, 2)
    budget = ExpertBudget(6, 60, 1)
    whole = pre_endgame_share(view, enable_generator, model, 3, 0, 1, budget=budget)
    parts = [
        pre_endgame_share(view, enable_generator, model, 3, share, 3, budget=budget) for share in range(3)
    ]
    merged = merge_stats(parts)
    assert merged.iterations == whole.iterations == count_deals(view.unseen, 2)
    assert merged.counts == whole.counts
    assert merged.sums == pytest.approx(whole.sums)
    assert simulation_result(merged, 1).move == simulation_result(whole, 1).move


def test_random_deals_when_there_are_many(
    enable_lexicon: Lexicon, enable_generator: MoveGenerator, model: LeaveModel
) -> None:
    view = bag_of(enable_lexicon, enable_generator, 5)
    assert count_deals(view.unseen, view.bag_size) > 80
    stats = pre_endgame_share(view, enable_generator, model, 9, 0, 1, budget=ExpertBudget(5, 60, 2))
    assert stats.iterations == 5 and set(stats.counts) == {5}
    again = pre_endgame_share(view, enable_generator, model, 9, 0, 1, budget=ExpertBudget(5, 60, 2))
    assert again == stats
    few = pre_endgame_share(view, enable_generator, model, 9, 0, 1, budget=ExpertBudget(3, 60, 2))
    assert simulation_result(few, 1).move == candidates(view, enable_generator, model)[0][1]  # too few deals


def test_a_deadline_keeps_the_last_complete_pass(
    enable_lexicon: Lexicon, enable_generator: MoveGenerator, model: LeaveModel
) -> None:
    view = bag_of(enable_lexicon, enable_generator, 1, 10)
    ticks = iter(range(10**6))
    # The clock advances one unit a reading: the first pass always completes, the next one is cut.
    stats = pre_endgame_share(view, enable_generator, model, 1, 0, 1, 3.0, clock=lambda: float(next(ticks)))
    first = pre_endgame_share(view, enable_generator, model, 1, 0, 1, budget=ExpertBudget(6, 60, 1))
    assert stats == first
