"""One Scrabble ``expert`` turn in shares over the pool's idle workers (root parallelism): real worker
processes, each share's statistics as the engine computes them for its seed, index and iterations, and
their merge."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Sequence
from pathlib import Path

import pytest
from search_time import search_seconds

from bot.games.scrabble import worker
from bot.games.scrabble.kind import KIND
from bot.games.scrabble.worker import view_job
from bot.host.ai import jobs
from bot.host.ai.executor import AiExecutor, WorkerConfig
from scrabble_core.ai import (
    ExpertBudget,
    Level,
    SeatView,
    choose_move,
    default_leave_model,
    seat_view,
)
from scrabble_core.expert import ENDGAME, SIMULATION, ExpertShare, expert_merge, expert_share, phase
from scrabble_core.game import Game
from scrabble_core.lexicon import Lexicon
from scrabble_core.movegen import MoveGenerator, load_move_generator
from scrabble_core.variant import get_variant


@pytest.fixture(scope="module")
def cache_dir(enable_lexicon: Lexicon) -> str:
    assert enable_lexicon.trie_path is not None
    return str(enable_lexicon.trie_path.parent)


@pytest.fixture(scope="module")
def generator(enable_lexicon: Lexicon, cache_dir: str) -> MoveGenerator:
    """The generator the workers load, here."""
    return load_move_generator(enable_lexicon, Path(cache_dir))


@pytest.fixture(scope="module")
def views(enable_lexicon: Lexicon, generator: MoveGenerator) -> dict[str, SeatView]:
    """The view of the sixth turn of a game of ``hard`` players (the simulation's) and its first with
    the bag empty (the endgame's)."""
    game = Game(get_variant("standard"), ["a", "b"], rng=random.Random(3), lexicon=enable_lexicon)
    found: dict[str, SeatView] = {}
    while not game.is_over and ENDGAME not in found:
        view = seat_view(game, game.current)
        if len(game.history) == 6 or phase(view) == ENDGAME:
            found[phase(view)] = view
        game.push(game.current, choose_move(view, generator, Level.HARD, random.Random(0)))
    assert set(found) == {SIMULATION, ENDGAME}
    return found


def _shares(texts: Sequence[str]) -> list[ExpertShare]:
    return [ExpertShare.from_dict(json.loads(text)["expert"]) for text in texts]


def _iterations(share: ExpertShare) -> int:
    assert share.stats is not None
    return share.stats.iterations


def _replayed(
    view: SeatView, generator: MoveGenerator, seed: int, index: int, count: int, iterations: int
) -> ExpertShare:
    """Share ``index`` of ``count`` of the expert's turn on ``view`` for the job seeded ``seed``, run
    for ``iterations`` iterations instead of a time."""
    return expert_share(
        view,
        generator,
        default_leave_model(),
        random.Random(seed).getrandbits(64),
        index,
        count,
        budget=ExpertBudget(iterations=iterations),
    )


async def _expert_turn(
    cache_dir: str, view: SeatView, seed: int, workers: int, think: float, merged: list[list[str]]
) -> tuple[str, list[ExpertShare]]:
    """The expert's move for ``view`` (the job seeded ``seed``) from a pool of ``workers`` with ``think``
    seconds, alone (so in ``workers`` shares), and the shares merged."""
    async with AiExecutor(WorkerConfig(cache_dir=cache_dir), workers=workers) as executor:
        text = await executor.ask(KIND, view_job(view, Level.EXPERT, seed), 60.0, think=think, quick=False)
        assert executor.shares_merged == workers
    (texts,) = merged
    return text, _shares(texts)


async def test_an_expert_turn_alone_is_searched_by_both_workers_and_merged_as_the_engine_merges(
    cache_dir: str, generator: MoveGenerator, views: dict[str, SeatView], merged: list[list[str]]
) -> None:
    view = views[SIMULATION]
    text, shares = await _expert_turn(cache_dir, view, 9, 2, search_seconds(1.5, 12.0), merged)
    iterations = [_iterations(share) for share in shares]
    assert all(count >= 4 for count in iterations)  # each share simulated on its own
    expected = [_replayed(view, generator, 9, index, 2, iterations[index]) for index in (0, 1)]
    assert shares == expected  # each its own deals, from the job's seed and its index
    assert text == expert_merge(expected).gcg()


async def test_one_worker_plays_the_expert_move_of_the_jobs_seed(
    cache_dir: str, generator: MoveGenerator, views: dict[str, SeatView], merged: list[list[str]]
) -> None:
    view = views[SIMULATION]
    text, (share,) = await _expert_turn(cache_dir, view, 9, 1, 1.0, merged)
    assert share == _replayed(view, generator, 9, 0, 1, _iterations(share))
    budget = ExpertBudget(iterations=_iterations(share))
    move = choose_move(
        view, generator, Level.EXPERT, random.Random(9), leaves=default_leave_model(), budget=budget
    )
    assert text == move.gcg()


async def test_the_endgame_through_both_workers_is_share_zeros_solution(
    cache_dir: str, generator: MoveGenerator, views: dict[str, SeatView], merged: list[list[str]]
) -> None:
    view = views[ENDGAME]
    text, shares = await _expert_turn(cache_dir, view, 4, 2, 30.0, merged)
    assert shares[1] == ExpertShare(ENDGAME, None, None)  # share 1 leaves it to share 0
    solved = choose_move(view, generator, Level.EXPERT, random.Random(4), time.monotonic() + 30.0)
    assert text == solved.gcg()


async def test_a_turn_arriving_while_an_expert_turn_is_spread_ends_its_second_share_early(
    cache_dir: str, generator: MoveGenerator, views: dict[str, SeatView], merged: list[list[str]]
) -> None:
    view = views[SIMULATION]
    think, before = search_seconds(8.0, 24.0), search_seconds(1.5, 8.0)  # share 1 has iterated by then
    async with AiExecutor(WorkerConfig(cache_dir=cache_dir), workers=2) as executor:
        spread = asyncio.create_task(
            executor.ask(KIND, view_job(view, Level.EXPERT, 2), 60.0, think=think, quick=False)
        )
        await asyncio.sleep(before)
        assert all(worker.jobs for worker in executor._workers)
        arrived = time.monotonic()
        other = await executor.ask(KIND, view_job(view, Level.HARD, 3), 60.0)
        # share 1 ended early for it: it did not wait for the 6.5 s (16 s in Python) the shares had left
        # (the bound leaves room for a loaded machine)
        assert time.monotonic() - arrived < 5.0
        assert not spread.done()  # share 0 searches on
        text = await spread
    assert other == choose_move(view, generator, Level.HARD, random.Random(3)).gcg()
    (texts,) = merged
    first, cut = _shares(texts)
    assert 0 < _iterations(cut) < _iterations(first)
    assert cut == _replayed(view, generator, 2, 1, 2, _iterations(cut))  # what it had, merged
    assert text == expert_merge([first, cut]).gcg()


def test_a_share_asked_to_end_stops_with_what_it_has_and_merges(
    monkeypatch: pytest.MonkeyPatch, generator: MoveGenerator, views: dict[str, SeatView]
) -> None:
    view = views[SIMULATION]
    data = view_job(view, Level.EXPERT, 6)
    readings = iter(range(1000))
    monkeypatch.setattr(jobs, "_INTERRUPT", [lambda: next(readings) >= 12])  # asked after a few iterations
    deadline = time.monotonic() + 60.0
    started = time.monotonic()
    cut = worker.share(generator, data, deadline, 1, 2)
    assert time.monotonic() - started < 30.0
    (stopped,) = _shares([cut])
    assert 0 < _iterations(stopped) < 12
    assert stopped == _replayed(view, generator, 6, 1, 2, _iterations(stopped))
    first = worker.share(generator, data, time.monotonic() + search_seconds(0.5, 6.0), 0, 2)  # never yields
    (whole,) = _shares([first])
    assert _iterations(whole) > 0
    assert worker.merge(data, [first, cut]) == expert_merge([whole, stopped]).gcg()
    assert worker.merge(data, [cut, first]) == worker.merge(data, [first, cut])


def test_other_levels_are_answered_by_share_zero_alone(
    generator: MoveGenerator, views: dict[str, SeatView]
) -> None:
    data = view_job(views[SIMULATION], Level.MEDIUM, 5)
    deadline = time.monotonic() + 30.0
    texts = [worker.share(generator, data, deadline, index, 2) for index in (0, 1)]
    move = worker.answer(generator, data, deadline)
    assert [json.loads(text) for text in texts] == [{"move": move}, {"move": None}]
    assert worker.merge(data, texts) == move
    with pytest.raises(ValueError, match=r"^no share of the move answered it$"):
        worker.merge(data, texts[1:])
