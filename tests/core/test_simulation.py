"""The expert's simulation: the static choice without time, information fairness, the deadline."""

from __future__ import annotations

import dataclasses
import itertools
import random

import pytest

from scrabble_core.ai import (
    ExpertBudget,
    Level,
    MoveSource,
    SeatView,
    choose_move,
    default_leave_model,
    seat_view,
)
from scrabble_core.game import Game
from scrabble_core.leaves import LeaveModel
from scrabble_core.lexicon import Lexicon
from scrabble_core.move import Exchange, Play
from scrabble_core.movegen import load_move_generator
from scrabble_core.selfplay import play_game
from scrabble_core.simulation import CANDIDATES, MIN_ITERATIONS, PRUNE_AFTER, _Playout, candidates, simulate
from scrabble_core.validation import check_play
from scrabble_core.variant import get_variant


@pytest.fixture(scope="module")
def generator(enable_lexicon: Lexicon) -> MoveSource:
    return load_move_generator(enable_lexicon)


@pytest.fixture(scope="module")
def model() -> LeaveModel:
    return default_leave_model()


def _game_after(lexicon: Lexicon, generator: MoveSource, turns: int, seed: int) -> Game:
    """A game after ``turns`` hard moves (plays or exchanges)."""
    game = Game(get_variant("standard"), ["a", "b"], rng=random.Random(seed), lexicon=lexicon)
    for _ in range(turns):
        _hard_move(game, generator)
    return game


def _hard_move(game: Game, generator: MoveSource) -> None:
    move = choose_move(seat_view(game, game.current), generator, Level.HARD, random.Random(0))
    if isinstance(move, Play):
        game.play(game.current, move)
    else:
        assert isinstance(move, Exchange)
        game.exchange(game.current, move.tiles)


def _hidden_shuffled(game: Game, seed: int, lexicon: Lexicon) -> SeatView:
    """The view of the seat on turn after the opponent's rack and the bag were dealt anew from the same
    tiles (what that seat cannot see)."""
    data = game.to_dict()
    other = 1 - game.current
    hidden = list(data["bag"] + data["players"][other]["rack"])
    random.Random(seed).shuffle(hidden)
    players = [dict(p) for p in data["players"]]
    players[other]["rack"] = "".join(sorted(hidden[:7]))
    changed = {**data, "players": players, "bag": "".join(hidden[7:])}
    return seat_view(Game.from_dict(changed, lexicon=lexicon), game.current)


def test_no_time_gives_the_static_choice(
    enable_lexicon: Lexicon, generator: MoveSource, model: LeaveModel
) -> None:
    view = seat_view(_game_after(enable_lexicon, generator, 3, seed=5), 1)
    result = simulate(view, generator, model, random.Random(1), deadline=0.0, clock=lambda: 1.0)
    hard = choose_move(view, generator, Level.HARD, random.Random(0))
    assert (result.move, result.static, result.iterations, result.means) == (hard, hard, 0, ())


def test_too_few_iterations_keep_the_static_choice(
    enable_lexicon: Lexicon, generator: MoveSource, model: LeaveModel
) -> None:
    view = seat_view(_game_after(enable_lexicon, generator, 3, seed=5), 1)
    result = simulate(view, generator, model, random.Random(1), max_iterations=MIN_ITERATIONS - 1)
    assert result.iterations == MIN_ITERATIONS - 1
    assert result.move == result.static == candidates(view, generator, model, 1)[0][1]


def test_deadline_stops_before_an_iteration_would_overrun(
    enable_lexicon: Lexicon, generator: MoveSource, model: LeaveModel
) -> None:
    # Each clock reading advances one second: an iteration "takes" 1 s and starts 2 s after the last.
    # Iterations start at 0, 2, 4, 6, 8; one starting at 10 would end after the deadline 9.5. Without
    # the opponent's last play there is no inference, whose weighing in Python reads the clock too.
    view = dataclasses.replace(seat_view(_game_after(enable_lexicon, generator, 3, seed=5), 1), last_play="")
    ticks = itertools.count()
    readings: list[int] = []

    def clock() -> float:
        readings.append(next(ticks))
        return readings[-1]

    result = simulate(view, generator, model, random.Random(1), deadline=9.5, clock=clock)
    assert result.iterations == 5
    assert readings[-1] == 10
    assert result.move in [move for move, _ in result.means]
    assert len(result.means) == len(candidates(view, generator, model, CANDIDATES))


def test_the_choice_does_not_depend_on_the_hidden_tiles(
    enable_lexicon: Lexicon, generator: MoveSource, model: LeaveModel
) -> None:
    game = _game_after(enable_lexicon, generator, 4, seed=11)
    results = {
        simulate(
            _hidden_shuffled(game, seed, enable_lexicon),
            generator,
            model,
            random.Random(42),
            max_iterations=4,
        )
        for seed in range(3)
    }
    assert len(results) == 1
    (result,) = results
    assert result.iterations == 4 and len(result.means) > 1


def test_expert_plays_legal_moves_in_the_pre_endgame(
    enable_lexicon: Lexicon, generator: MoveSource, model: LeaveModel
) -> None:
    game = _game_after(enable_lexicon, generator, 0, seed=3)
    while len(game.bag) > 6:
        _hard_move(game, generator)
    view = seat_view(game, game.current)
    assert 0 < view.bag_size <= 6
    result = simulate(view, generator, model, random.Random(0), max_iterations=MIN_ITERATIONS)
    assert result.iterations == MIN_ITERATIONS
    assert isinstance(result.move, Play)
    check_play(view.board, result.move, rack=view.rack, lexicon=enable_lexicon)


def test_the_best_simulated_mean_is_chosen(
    enable_lexicon: Lexicon, generator: MoveSource, model: LeaveModel
) -> None:
    # Before any pruning every candidate has the same draws: the move is the one of best mean, not
    # the static choice unless it is the best.
    changed = 0
    for seed in range(4):
        view = seat_view(_game_after(enable_lexicon, generator, 3 + seed, seed=seed), (3 + seed) % 2)
        result = simulate(view, generator, model, random.Random(seed), max_iterations=PRUNE_AFTER - 1)
        assert result.iterations == PRUNE_AFTER - 1
        assert result.move == result.means[0][0]
        assert result.means[0][1] > result.means[1][1]
        changed += result.move != result.static
    assert changed


def test_a_playout_without_plies_is_the_score_plus_the_leave_kept(
    enable_lexicon: Lexicon, generator: MoveSource, model: LeaveModel
) -> None:
    # The horizon values the tiles the last move kept, not the rack after drawing.
    view = seat_view(_game_after(enable_lexicon, generator, 2, seed=9), 0)
    playout = _Playout(view, generator, model, plies=0)
    tiles = sorted(view.unseen)
    assert model.evaluate("") == 0.0
    for _, move, points in candidates(view, generator, model, 5):  # plays and exchanges
        kept = view.rack
        for tile in move.rack_tiles():
            kept = kept.replace(tile, "", 1)
        assert playout.run(move, points, tiles) == points + model.evaluate(kept)
    assert (
        view.board == _game_after(enable_lexicon, generator, 2, seed=9).board
    )  # the view's board is untouched


def test_choose_move_searches_the_budget_given(
    enable_lexicon: Lexicon, generator: MoveSource, model: LeaveModel
) -> None:
    view = seat_view(_game_after(enable_lexicon, generator, 5, seed=2), 1)
    budget = ExpertBudget(iterations=PRUNE_AFTER - 2, endgame_nodes=10)
    move = choose_move(view, generator, Level.EXPERT, random.Random(3), budget=budget)
    assert move == simulate(view, generator, model, random.Random(3), max_iterations=PRUNE_AFTER - 2).move


@pytest.mark.slow
def test_expert_games_end(enable_lexicon: Lexicon, generator: MoveSource) -> None:
    for seed, levels in enumerate([[Level.EXPERT, Level.HARD], [Level.GREEDY, Level.EXPERT]]):
        record = play_game(get_variant("standard"), enable_lexicon, generator, levels, f"expert{seed}")
        assert record.winners
    three = [Level.EXPERT, Level.HARD, Level.EXPERT]
    assert play_game(get_variant("standard"), enable_lexicon, generator, three, "expert3").winners
