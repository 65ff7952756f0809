"""One AI turn in shares over the pool's idle workers (root parallelism): Go's built-in AI with real worker
processes, the merge of the shares that came back, and other turns beside a spread one."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from bot.games.go.ai_turns import merged_move_text, move_job, share_rng, share_text
from bot.games.go.engines import Level
from bot.games.go.kind import KIND
from bot.host.ai import jobs
from bot.host.ai.executor import AiExecutor, WorkerConfig
from go_core import Game, Point, parse_move
from go_core.ai import (
    FIRST_STEP,
    LEVEL_PLAYOUTS,
    STATUS_BUDGET,
    Budget,
    SearchShare,
    decide,
    merge_shares,
    search_share,
    share_statuses,
    status_share,
)
from go_core.prng import seed_from
from go_core.search import move_index

GO_ONLY = WorkerConfig(games=("bot.games.go",))
"""Workers that serve Go alone (no lexicon to load)."""


def _opening() -> Game:
    """A 9×9 game a few moves in, Black to move."""
    game = Game(9)
    for move in ("E5", "C4", "F3", "G6", "C6", "D3"):
        game.play(move)
    return game


@pytest.fixture
def merged(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[list[str]]]:
    """The share texts of each merge the executor asks for, in order (the merge itself runs as it
    would)."""
    calls: list[list[str]] = []
    merge = jobs.merge

    def recording(kind: str, data: Any, shares: Sequence[str]) -> str:
        calls.append(list(shares))
        return merge(kind, data, shares)

    monkeypatch.setattr(jobs, "merge", recording)
    yield calls


def _searches(texts: Sequence[str]) -> list[SearchShare]:
    return [SearchShare.from_dict(json.loads(text)["search"]) for text in texts]


def _seeds(seed: int, index: int) -> tuple[int, int]:
    """The seeds of share ``index`` of a move seeded ``seed``: its search's, its count's."""
    rng = share_rng(seed, index)
    return seed_from(rng), seed_from(rng)


async def test_one_go_move_alone_is_searched_by_both_workers_and_merged_as_the_engine_merges(
    merged: list[list[str]],
) -> None:
    game = _opening()
    data = move_job(game, Level.EASY, "builtin", 5)
    async with AiExecutor(GO_ONLY, workers=2) as executor:
        text = await executor.ask(KIND, data, 60.0, quick=False)
        assert executor.shares_merged == 2
    (texts,) = merged
    half = Budget(seconds=60.0, playouts=LEVEL_PLAYOUTS["easy"] // 2)
    expected = [search_share(game, _seeds(5, index)[0], half) for index in (0, 1)]
    assert _searches(texts) == expected  # each its own seed and half the level's playouts
    assert [share.playouts for share in expected] == [50, 50]
    assert all("status" not in json.loads(text) for text in texts)  # the opponent did not pass
    move = parse_move(text, 9)
    assert isinstance(move, Point) and game.is_legal(move)
    assert move == decide(game, merge_shares(expected))


async def test_after_the_opponents_pass_the_shares_count_the_board_too(merged: list[list[str]]) -> None:
    game = _opening()
    game.play("G4")
    game.pass_turn()  # White passes: Black decides whether the board counted now wins
    async with AiExecutor(GO_ONLY, workers=2) as executor:
        text = await executor.ask(KIND, move_job(game, Level.EASY, "builtin", 6), 60.0, quick=False)
    (texts,) = merged
    parts = [json.loads(text) for text in texts]
    searches, counts = [], []
    for index, part in enumerate(parts):
        search_seed, count_seed = _seeds(6, index)
        searches.append(search_share(game, search_seed, Budget(60.0, LEVEL_PLAYOUTS["easy"] // 2)))
        playouts = part["status"]["playouts"]  # within the time left (all of them but on a slow path)
        assert 0 < playouts <= STATUS_BUDGET.playouts // 2
        counts.append(status_share(game, count_seed, Budget(600.0, playouts)))
    assert _searches(texts) == searches
    assert [SearchShare.from_dict(part["status"]) for part in parts] == counts
    dead = share_statuses(game, merge_shares(counts)).dead
    assert parse_move(text, 9) == decide(game, merge_shares(searches), dead=dead)


async def test_one_worker_searches_the_whole_move_in_one_share(merged: list[list[str]]) -> None:
    game = _opening()
    async with AiExecutor(GO_ONLY, workers=1) as executor:
        text = await executor.ask(KIND, move_job(game, Level.EASY, "builtin", 8), 60.0, quick=False)
        assert executor.shares_merged == 1
    (texts,) = merged
    whole = search_share(game, _seeds(8, 0)[0], Budget(seconds=60.0, playouts=LEVEL_PLAYOUTS["easy"]))
    assert _searches(texts) == [whole]
    assert parse_move(text, 9) == decide(game, whole)


async def test_a_turn_arriving_while_shares_run_takes_the_worker_of_the_second_share(
    merged: list[list[str]],
) -> None:
    first, second = _opening(), Game(9)
    async with AiExecutor(GO_ONLY, workers=2) as executor:
        spread = asyncio.create_task(
            executor.ask(KIND, move_job(first, Level.HARD, "builtin", 1), 30.0, think=8.0, quick=False)
        )
        await asyncio.sleep(0.3)
        assert all(worker.jobs for worker in executor._workers)  # both search the first turn
        arrived = time.monotonic()
        other = await executor.ask(KIND, move_job(second, Level.EASY, "builtin", 2), 30.0, quick=False)
        # share 1 ended early for it: it did not wait for the 7.7 s the shares had left (the bound
        # leaves room for a loaded machine)
        assert time.monotonic() - arrived < 5.0
        assert not spread.done()  # share 0 searches on
        assert await spread
        assert executor.shares_merged == 3 and executor.replaced == 0
    assert [len(texts) for texts in merged] == [1, 2]  # the second turn found no idle worker
    whole, cut = (json.loads(text)["search"]["playouts"] for text in merged[1])
    assert 0 < cut < whole / 3  # share 1's playouts so far are merged
    point = parse_move(other, 9)
    assert isinstance(point, Point) and second.is_legal(point)


async def test_a_lost_share_is_not_a_lost_turn(merged: list[list[str]]) -> None:
    game = _opening()
    async with AiExecutor(GO_ONLY, workers=2, respawn_delay=0.1) as executor:
        turn = asyncio.create_task(
            executor.ask(KIND, move_job(game, Level.HARD, "builtin", 4), 30.0, think=1.5, quick=False)
        )
        await asyncio.sleep(0.3)
        lost = executor._workers[0]
        assert lost.jobs
        os.kill(lost.process.pid or 0, signal.SIGKILL)
        text = await turn
        assert executor.shares_merged == 1 and executor.replaced == 1
    ((survivor,),) = merged
    assert json.loads(survivor)["search"]["playouts"] > 0
    point = parse_move(text, 9)
    assert isinstance(point, Point) and game.is_legal(point)


async def test_a_turn_whose_every_share_fails_raises_for_the_game_to_fall_back() -> None:
    async with AiExecutor(GO_ONLY, workers=2) as executor:
        with pytest.raises(
            RuntimeError, match="the AI worker failed: ValueError: 'strongest' is not a valid Level"
        ):
            await executor.ask(
                KIND, move_job(Game(9), Level.EASY, "builtin", 1) | {"level": "strongest"}, 30.0, quick=False
            )
        assert executor.shares_merged == 0 and executor.replaced == 0


def test_gnu_go_moves_come_from_share_zero_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    state = Game(9).to_dict()
    monkeypatch.setattr("bot.games.go.ai_turns.choose_move_text", lambda *args: "E5")
    texts = [share_text(state, "easy", "gnugo", 3, 1.0, index, 2) for index in (0, 1)]
    assert [json.loads(text) for text in texts] == [{"move": "E5"}, {"move": None}]
    assert merged_move_text(state, texts) == "E5"
    with pytest.raises(ValueError, match=r"^no share of the move searched it$"):
        merged_move_text(state, texts[1:])


def test_a_search_share_crosses_processes_as_json() -> None:
    share = search_share(_opening(), 11, Budget(seconds=60.0, playouts=64))
    assert SearchShare.from_dict(json.loads(json.dumps(share.to_dict()))) == share
    broken = share.to_dict() | {"black_owned": [0] * 80}
    with pytest.raises(ValueError, match=r"^a search share of a 9x9 board has 81 points to own$"):
        SearchShare.from_dict(broken)


def test_after_the_opponents_pass_the_merge_counts_with_the_counts_dead_stones() -> None:
    game = _opening()
    game.play("G4")
    game.pass_turn()
    state, points = game.to_dict(), 81
    a9 = move_index(9, Point.parse("A9", 9))
    white_everywhere = SearchShare(9, 100, ((a9, 100, 60.0),), (0,) * points, (100,) * points)
    black_everywhere = SearchShare(9, 100, (), (100,) * points, (0,) * points)
    search = json.dumps({"search": white_everywhere.to_dict()})
    assert merged_move_text(state, [search]) == "A9"  # the search's playouts: Black's stones dead, a loss
    counted = json.dumps({"search": white_everywhere.to_dict(), "status": black_everywhere.to_dict()})
    assert merged_move_text(state, [counted]) == "pass"  # the count's: White's stones dead, a win


async def test_a_cancelled_spread_turn_replaces_the_workers_of_its_shares() -> None:
    game = _opening()
    async with AiExecutor(GO_ONLY, workers=2, respawn_delay=0.1) as executor:
        turn = asyncio.create_task(
            executor.ask(KIND, move_job(game, Level.HARD, "builtin", 4), 30.0, think=20.0, quick=False)
        )
        await asyncio.sleep(0.3)
        assert all(worker.jobs for worker in executor._workers)
        turn.cancel()
        with pytest.raises(asyncio.CancelledError):
            await turn
        assert executor.replaced == 2  # both stop searching at once
        text = await executor.ask(KIND, move_job(game, Level.EASY, "builtin", 5), 30.0, quick=False)
        point = parse_move(text, 9)
        assert isinstance(point, Point) and game.is_legal(point)


def test_only_hard_shares_past_the_first_end_early_when_interrupted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jobs, "_INTERRUPT", [lambda: True])  # another job waits for a worker
    state = _opening().to_dict()

    def playouts(level: str, index: int, seconds: float) -> int:
        share = json.loads(share_text(state, level, "builtin", 7, seconds, index, 2))
        return int(share["search"]["playouts"])

    assert playouts("hard", 1, 60.0) == FIRST_STEP  # its budget is the time: it stops at once
    assert playouts("easy", 1, 60.0) == LEVEL_PLAYOUTS["easy"] // 2  # its budget is playouts: not cut
    assert playouts("hard", 0, 0.5) > FIRST_STEP  # share 0 is the turn's own search
