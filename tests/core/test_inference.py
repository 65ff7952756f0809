"""Inference: the opponent's last play weighs the leaves they may have kept, and the deals follow."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

from scrabble_core.ai import Level, MoveSource, SeatView, choose_move, default_leave_model, seat_view
from scrabble_core.draws import Draws
from scrabble_core.game import Game
from scrabble_core.inference import SAMPLES, TOP_WEIGHT, infer, leave_weight
from scrabble_core.leaves import LeaveModel
from scrabble_core.lexicon import Lexicon
from scrabble_core.move import Exchange, Play
from scrabble_core.movegen import MoveGenerator
from scrabble_core.native import native_core
from scrabble_core.simulation import _deal
from scrabble_core.validation import remove_tiles
from scrabble_core.variant import get_variant


@pytest.fixture(scope="module")
def model() -> LeaveModel:
    return default_leave_model()


def after_a_play(lexicon: Lexicon, generator: MoveSource, seed: int, turns: int) -> tuple[SeatView, str]:
    """The view after ``turns`` hard moves (the last a play) and the leave the opponent really kept."""
    game = Game(get_variant("standard"), ["a", "b"], rng=random.Random(seed), lexicon=lexicon)
    kept = ""
    for turn in range(turns):
        move = choose_move(seat_view(game, game.current), generator, Level.HARD, random.Random(0))
        rack = game.players[game.current].rack
        if isinstance(move, Play):
            game.play(game.current, move)
            kept = remove_tiles(rack, move.rack_tiles())
        else:
            assert isinstance(move, Exchange) and turn < turns - 1
            game.exchange(game.current, move.tiles)
    return seat_view(game, game.current), "".join(sorted(kept))


def test_the_view_carries_the_opponents_last_play(
    enable_lexicon: Lexicon, enable_generator: MoveGenerator
) -> None:
    view, _ = after_a_play(enable_lexicon, enable_generator, 4, 5)
    assert view.last_play and Play.from_gcg(view.last_play)
    assert SeatView.from_dict(view.to_dict()) == view
    old = view.to_dict()
    del old["last_play"]  # a view saved before the field existed
    assert SeatView.from_dict(old).last_play == ""


def test_the_leave_a_static_player_kept_weighs_the_most(
    enable_lexicon: Lexicon, enable_generator: MoveGenerator, model: LeaveModel
) -> None:
    cases = (after_a_play(enable_lexicon, enable_generator, seed, 6) for seed in range(10))
    for seed, (view, kept) in enumerate([case for case in cases if case[1]][:3]):
        assert Counter(kept) <= Counter(view.unseen)
        # The opponent played hard's move: for the leave they really kept, the play was the best.
        assert leave_weight(view, kept, enable_generator, model) == TOP_WEIGHT
        inferred = infer(view, enable_generator, model, seed)
        assert inferred is not None and len(inferred.leaves) == SAMPLES
        assert TOP_WEIGHT in inferred.weights
        assert all(
            len(leave) == len(kept) and Counter(leave) <= Counter(view.unseen) for leave in inferred.leaves
        )
        assert min(inferred.weights) >= 1
        assert sum(inferred.weights) < TOP_WEIGHT * SAMPLES  # some leaves made that play a poor choice
        assert infer(view, enable_generator, model, seed) == inferred


def test_no_inference_without_a_play_to_read(
    enable_lexicon: Lexicon, enable_generator: MoveGenerator, model: LeaveModel
) -> None:
    view, _ = after_a_play(enable_lexicon, enable_generator, 4, 5)
    assert infer(dataclasses.replace(view, last_play=""), enable_generator, model, 1) is None
    assert infer(dataclasses.replace(view, bag_size=0), enable_generator, model, 1) is None
    assert infer(dataclasses.replace(view, scores=(0, 0, 0)), enable_generator, model, 1) is None
    # a play whose tiles are not on the board (not this board's last play)
    assert infer(dataclasses.replace(view, last_play="1A ZA"), enable_generator, model, 1) is None
    opening = seat_view(Game(get_variant("standard"), ["a", "b"], rng=random.Random(1)), 0)
    assert opening.last_play == "" and infer(opening, enable_generator, model, 1) is None


def test_a_deal_gives_the_opponent_an_inferred_leave_first(
    enable_lexicon: Lexicon, enable_generator: MoveGenerator, model: LeaveModel
) -> None:
    view, _ = after_a_play(enable_lexicon, enable_generator, 4, 5)
    inferred = infer(view, enable_generator, model, 2)
    assert inferred is not None
    draws = Draws(9)
    seen: Counter[str] = Counter()
    for _ in range(200):
        tiles = _deal(view.unseen, draws, inferred)
        assert sorted(tiles) == sorted(view.unseen)
        leave = "".join(sorted(tiles[: len(inferred.leaves[0])]))
        assert leave in inferred.leaves
        seen[leave] += 1
    # drawn by weight: the heaviest leaves come up more often than the lightest
    heavy = max(inferred.leaves, key=lambda leave: inferred.weights[inferred.leaves.index(leave)])
    light = min(inferred.leaves, key=lambda leave: inferred.weights[inferred.leaves.index(leave)])
    if inferred.weights[inferred.leaves.index(heavy)] > 8 * inferred.weights[inferred.leaves.index(light)]:
        assert seen[heavy] > seen[light]


def test_the_native_weights_are_the_python_ones(
    enable_lexicon: Lexicon, enable_generator: MoveGenerator, python_generator: MoveSource, model: LeaveModel
) -> None:
    view, _ = after_a_play(enable_lexicon, enable_generator, 4, 5)
    native = infer(view, enable_generator, model, 3, samples=150)
    python = infer(view, python_generator, model, 3, samples=150)
    assert native is not None and native == python
    assert len(set(native.weights)) > 3  # weights of every kind, not just the extremes


def test_weighing_in_python_stops_halfway_to_the_deadline_with_the_samples_weighed(
    enable_lexicon: Lexicon, enable_generator: MoveGenerator, python_generator: MoveSource, model: LeaveModel
) -> None:
    view, _ = after_a_play(enable_lexicon, enable_generator, 4, 5)
    whole = infer(view, python_generator, model, 3, samples=150)
    assert whole is not None
    ticks = iter(range(10**6))
    # the clock reads 0 when the weighing starts, then 1, 2, ... before each leave: halfway to 40 is
    # 20, so 19 distinct leaves are weighed
    cut = infer(view, python_generator, model, 3, samples=150, deadline=40.0, clock=lambda: next(ticks))
    assert cut is not None
    distinct = list(dict.fromkeys(whole.leaves))
    first_unweighed = whole.leaves.index(distinct[19])
    assert cut.leaves == whole.leaves[:first_unweighed]
    assert cut.weights == whole.weights[:first_unweighed]
    assert set(cut.leaves) == set(distinct[:19])
    # a deadline already past weighs nothing: no inference, the deals are uniform
    assert infer(view, python_generator, model, 3, deadline=-1.0, clock=lambda: 0.0) is None
    if native_core() is not None:  # the native weighing always runs whole
        assert infer(view, enable_generator, model, 3, samples=150, deadline=-1.0) == whole
