"""The expert level's phases, and one turn split into shares and merged."""

from __future__ import annotations

import pickle
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
from scrabble_core.expert import (
    ENDGAME,
    PRE_ENDGAME,
    SIMULATION,
    ExpertShare,
    expert_merge,
    expert_move,
    expert_share,
    phase,
)
from scrabble_core.game import Game
from scrabble_core.leaves import LeaveModel
from scrabble_core.lexicon import Lexicon
from scrabble_core.movegen import MoveGenerator
from scrabble_core.simulation import merge_stats, simulation_result
from scrabble_core.variant import get_variant

BUDGET = ExpertBudget(iterations=6, endgame_nodes=50, pre_endgame_nodes=1)


@pytest.fixture(scope="module")
def model() -> LeaveModel:
    return default_leave_model()


def _views(lexicon: Lexicon, generator: MoveSource, seed: int, players: int = 2) -> dict[str, SeatView]:
    """The first view of each phase in a hard game seeded ``seed``."""
    game = Game(
        get_variant("standard"), [f"p{n}" for n in range(players)], rng=random.Random(seed), lexicon=lexicon
    )
    found: dict[str, SeatView] = {}
    while not game.is_over and len(found) < 3:
        view = seat_view(game, game.current)
        found.setdefault(phase(view), view)
        move = choose_move(view, generator, Level.HARD, random.Random(0))
        game.push(game.current, move)
    return found


@pytest.fixture(scope="module")
def views(enable_lexicon: Lexicon, enable_generator: MoveGenerator) -> dict[str, SeatView]:
    found = _views(enable_lexicon, enable_generator, 2)
    assert set(found) == {SIMULATION, PRE_ENDGAME, ENDGAME}
    return found


def test_the_phase_follows_the_bag(views: dict[str, SeatView]) -> None:
    assert views[SIMULATION].bag_size > 6
    assert 0 < views[PRE_ENDGAME].bag_size <= 6
    assert views[ENDGAME].bag_size == 0


@pytest.mark.parametrize("name", [SIMULATION, PRE_ENDGAME, ENDGAME])
def test_one_share_is_the_expert_move(
    views: dict[str, SeatView], enable_generator: MoveGenerator, model: LeaveModel, name: str
) -> None:
    view = views[name]
    seed = random.Random(4).getrandbits(64)
    share = expert_share(view, enable_generator, model, seed, 0, 1, budget=BUDGET)
    assert share.phase == name
    assert pickle.loads(pickle.dumps(share)) == share
    assert expert_merge([share]) == expert_move(
        view, enable_generator, model, random.Random(4), budget=BUDGET
    )
    assert expert_move(view, enable_generator, model, random.Random(4), budget=BUDGET) == choose_move(
        view, enable_generator, Level.EXPERT, random.Random(4), leaves=model, budget=BUDGET
    )


def test_the_simulation_splits_into_shares(
    views: dict[str, SeatView], enable_generator: MoveGenerator, model: LeaveModel
) -> None:
    view = views[SIMULATION]
    parts = [expert_share(view, enable_generator, model, 77, share, 2, budget=BUDGET) for share in range(2)]
    assert parts[0].stats is not None and parts[1].stats is not None
    assert parts[0].stats.sums != parts[1].stats.sums
    stats = merge_stats([parts[0].stats, parts[1].stats])
    assert stats.iterations == 2 * BUDGET.iterations
    assert expert_merge(parts) == simulation_result(stats).move


def test_the_endgame_is_share_zeros(
    views: dict[str, SeatView], enable_generator: MoveGenerator, model: LeaveModel
) -> None:
    view = views[ENDGAME]
    first, second = (
        expert_share(view, enable_generator, model, 5, share, 2, budget=BUDGET) for share in range(2)
    )
    assert second == ExpertShare(ENDGAME, None, None)
    assert first.move is not None
    assert expert_merge([second, first]).gcg() == first.move
    with pytest.raises(ValueError, match="the endgame's shares lack share 0"):
        expert_merge([second])


def test_shares_that_do_not_fit_are_refused(
    views: dict[str, SeatView], enable_generator: MoveGenerator, model: LeaveModel
) -> None:
    with pytest.raises(ValueError, match="share 2 is not one of 2"):
        expert_share(views[SIMULATION], enable_generator, model, 1, 2, 2)
    with pytest.raises(ValueError, match="no shares to merge"):
        expert_merge([])
    simulation = expert_share(views[SIMULATION], enable_generator, model, 1, 0, 1, budget=BUDGET)
    endgame = expert_share(views[ENDGAME], enable_generator, model, 1, 0, 1, budget=BUDGET)
    with pytest.raises(ValueError, match="shares of different phases: endgame, simulation"):
        expert_merge([simulation, endgame])


def test_more_than_two_players_get_the_static_choice(
    enable_lexicon: Lexicon, enable_generator: MoveGenerator, model: LeaveModel
) -> None:
    for view in _views(enable_lexicon, enable_generator, 6, players=3).values():
        hard = choose_move(view, enable_generator, Level.HARD, random.Random(0))
        assert expert_move(view, enable_generator, model, random.Random(1), budget=BUDGET) == hard
