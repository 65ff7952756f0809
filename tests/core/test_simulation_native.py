"""The simulation's native core against its pure-Python path, and the shares of a simulation.

The two paths must give the same statistics, bit for bit, from the same seed: the same deals, the same
playouts, the same sums and the same pruning. The Python path runs here with the native move generator
behind a plain move source (``python_generator``: the simulation runs in C only for a MoveGenerator),
so it is the reference simulation.py describes, at the native generator's speed.
"""

from __future__ import annotations

import dataclasses
import itertools
import random

import pytest

from scrabble_core.ai import (
    Level,
    MoveSource,
    SeatView,
    choose_move,
    default_leave_model,
    seat_view,
)
from scrabble_core.game import Game
from scrabble_core.inference import infer
from scrabble_core.leaves import LeaveModel
from scrabble_core.lexicon import Lexicon
from scrabble_core.move import Exchange, Pass, Play
from scrabble_core.movegen import MoveGenerator
from scrabble_core.native import native_core
from scrabble_core.simulation import (
    MIN_ITERATIONS,
    SimStats,
    merge_stats,
    simulate,
    simulate_share,
    simulation_result,
)
from scrabble_core.variant import example_variants_dir, get_variant, load_variant

needs_native = pytest.mark.skipif(native_core() is None, reason="the native core is not in use")


@pytest.fixture(scope="module")
def model() -> LeaveModel:
    return default_leave_model()


def _play_hard(game: Game, generator: MoveSource) -> None:
    move = choose_move(seat_view(game, game.current), generator, Level.HARD, random.Random(0))
    game.push(game.current, move)


def position(
    lexicon: Lexicon, generator: MoveSource, seed: int, bag_at_most: int | None, turns: int = 0
) -> SeatView:
    """The view of the seat on turn after ``turns`` hard moves, or once the bag holds ``bag_at_most``
    tiles or fewer but some (the game of the first seed from ``seed`` on that stops there)."""
    for tried in range(seed, seed + 50):
        game = Game(get_variant("standard"), ["a", "b"], rng=random.Random(tried), lexicon=lexicon)
        for _ in range(turns):
            _play_hard(game, generator)
        while bag_at_most is not None and len(game.bag) > bag_at_most:
            _play_hard(game, generator)
        if bag_at_most is None or game.bag:
            return seat_view(game, game.current)
    raise AssertionError(f"no game stopped with 1 to {bag_at_most} tiles in the bag")


POSITIONS = {
    "opening": (1, None, 0),
    "midgame": (4, None, 6),
    "late midgame": (7, None, 14),
    "pre-endgame": (2, 6, 0),
    "one in the bag": (2, 1, 0),
}


@needs_native
@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_the_native_share_equals_the_python_share(
    enable_lexicon: Lexicon,
    enable_generator: MoveGenerator,
    python_generator: MoveSource,
    model: LeaveModel,
    name: str,
) -> None:
    seed, bag, turns = POSITIONS[name]
    view = position(enable_lexicon, enable_generator, seed, bag, turns)
    assert 0 < view.bag_size <= bag if bag else view.bag_size > 6
    iterations = 12 if bag else 30
    native = simulate_share(view, enable_generator, model, 1000 + seed, 0, max_iterations=iterations)
    python = simulate_share(view, python_generator, model, 1000 + seed, 0, max_iterations=iterations)
    assert native == python
    assert native.iterations > 0 and len(native.moves) > 2
    if not bag:  # the midgame candidates hold exchanges
        assert any(move.startswith("-") for move in native.moves)
    # after the opening, the opponent's last play weighs the deals
    assert (infer(view, enable_generator, model, 0) is None) == (name == "opening")


@needs_native
def test_a_blank_on_the_rack_and_pruning_run_the_same_in_both(
    enable_lexicon: Lexicon, enable_generator: MoveGenerator, python_generator: MoveSource, model: LeaveModel
) -> None:
    for seed in itertools.count(20):
        view = position(enable_lexicon, enable_generator, seed, None, 5)
        if "?" in view.rack:
            break
    native = simulate_share(view, enable_generator, model, 7, 3, max_iterations=40)
    python = simulate_share(view, python_generator, model, 7, 3, max_iterations=40)
    assert native == python
    assert not all(native.active)  # some candidates were pruned


@needs_native
def test_the_clock_is_read_as_in_python(
    enable_lexicon: Lexicon, enable_generator: MoveGenerator, python_generator: MoveSource, model: LeaveModel
) -> None:
    # Each reading advances one second: iterations start at 0, 2, 4, 6, 8; one at 10 would overrun 9.5.
    # Without the opponent's last play there is no inference (weighing in Python reads the clock).
    view = dataclasses.replace(position(enable_lexicon, enable_generator, 4, None, 6), last_play="")
    readings: dict[str, list[int]] = {}
    for path, generator in (("native", enable_generator), ("python", python_generator)):
        ticks = itertools.count()
        seen = readings[path] = []

        def clock(ticks: itertools.count[int] = ticks, seen: list[int] = seen) -> float:
            seen.append(next(ticks))
            return seen[-1]

        stats = simulate_share(view, generator, model, 5, 0, 9.5, clock=clock)
        assert stats.iterations == 5
    assert readings["native"] == readings["python"] == list(range(11))


def test_shares_merge_into_one_result(
    enable_lexicon: Lexicon, enable_generator: MoveGenerator, model: LeaveModel
) -> None:
    view = position(enable_lexicon, enable_generator, 4, None, 6)
    shares = [
        simulate_share(view, enable_generator, model, 11, share, max_iterations=6) for share in range(3)
    ]
    assert len({share.sums for share in shares}) == 3  # each share drew its own deals
    merged = merge_stats(shares)
    assert merged.iterations == sum(share.iterations for share in shares) == 18
    assert merged.counts == tuple(map(sum, zip(*(share.counts for share in shares), strict=True)))
    result = simulation_result(merged)
    assert result.iterations == 18
    means = dict((str(move), mean) for move, mean in result.means)
    assert means[str(result.move)] == max(means.values())
    alone = simulation_result(shares[0])
    assert alone.iterations == 6 and alone.means != result.means


def test_simulate_runs_share_zero_of_the_seed_it_draws(
    enable_lexicon: Lexicon, enable_generator: MoveGenerator, model: LeaveModel
) -> None:
    view = position(enable_lexicon, enable_generator, 4, None, 6)
    seed = random.Random(8).getrandbits(64)
    share = simulate_share(view, enable_generator, model, seed, 0, max_iterations=MIN_ITERATIONS + 2)
    assert simulate(view, enable_generator, model, random.Random(8), max_iterations=MIN_ITERATIONS + 2) == (
        simulation_result(share)
    )


def test_merging_refuses_other_candidates(
    enable_lexicon: Lexicon, enable_generator: MoveGenerator, model: LeaveModel
) -> None:
    first = simulate_share(
        position(enable_lexicon, enable_generator, 4, None, 6),
        enable_generator,
        model,
        1,
        0,
        max_iterations=2,
    )
    other = position(enable_lexicon, enable_generator, 4, None, 8)
    second = simulate_share(other, enable_generator, model, 1, 1, max_iterations=2)
    with pytest.raises(ValueError, match="the shares simulated different candidates"):
        merge_stats([first, second])
    with pytest.raises(ValueError, match="no shares to merge"):
        merge_stats([])
    with pytest.raises(ValueError, match="statistics without candidates"):
        simulation_result(SimStats((), 0, (), (), (), ()))
    with pytest.raises(ValueError, match="a share needs a deadline or a number of iterations"):
        simulate_share(other, enable_generator, model, 1, 0)


def test_a_candidate_pruned_in_every_share_is_not_chosen() -> None:
    stats = SimStats(
        ("8H AB", "8H CD", "-E"),
        12,
        (12, 3, 12),
        (30.0, 40.0, 12.0),
        (90.0, 600.0, 20.0),
        (True, False, True),
    )
    result = simulation_result(stats)
    # "8H CD" has the best mean (13.3) but no share still simulated it: the best active mean wins.
    assert result.move == Play.from_gcg("8H AB")
    assert (result.static, result.iterations) == (Play.from_gcg("8H AB"), 12)
    assert result.means[0] == (Play.from_gcg("8H CD"), 40.0 / 3)
    # Below the iterations needed, the static choice (the first candidate) stands.
    few = SimStats(stats.moves, 3, (3, 3, 3), (3.0, 9.0, 30.0), stats.squares, (True, True, True))
    assert simulation_result(few).move == Play.from_gcg("8H AB")
    assert simulation_result(few, min_iterations=3).move == Exchange("E")
    assert isinstance(simulation_result(SimStats(("-",), 0, (0,), (0.0,), (0.0,), (True,))).move, Pass)


# The example boards: written as a program of multipliers (the native searches play on it), scored by
# square programs, infinite, with letter-set tiles (the searches run in Python on those).
NATIVE_BOARDS = {"standard-program": True, "diamond": False, "infinite": False, "letter-sets": False}


@needs_native
def test_programmed_boards_are_searched_in_the_native_core_where_it_takes_them(
    enable_lexicon: Lexicon,
    enable_generator: MoveGenerator,
    python_generator: MoveSource,
    model: LeaveModel,
) -> None:
    for name, native in NATIVE_BOARDS.items():
        variant = load_variant(example_variants_dir() / f"{name}.toml")
        board = Game(variant, ["a", "b"], rng=random.Random(3), lexicon=enable_lexicon).board
        assert (enable_generator.native_board(board) is not None) == native, name
    variant = load_variant(example_variants_dir() / "standard-program.toml")
    game = Game(variant, ["a", "b"], rng=random.Random(3), lexicon=enable_lexicon)
    for _ in range(2):
        _play_hard(game, enable_generator)
    view = seat_view(game, game.current)
    native_stats = simulate_share(view, enable_generator, model, 21, 0, max_iterations=3)
    python_stats = simulate_share(view, python_generator, model, 21, 0, max_iterations=3)
    assert native_stats == python_stats
    assert native_stats.iterations == 3 and len(native_stats.moves) > 2
