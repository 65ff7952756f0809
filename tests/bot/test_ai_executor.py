"""The AI executor: turns in worker processes, the timeout fallback and the replacement of a stuck worker."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time
from pathlib import Path

import pytest

from bot.games.scrabble.ai_turns import ExecutorAiPlayer, ScrabblePool
from bot.games.scrabble.protocols import AiPlayer
from bot.host.ai.executor import AiExecutor, WorkerConfig, WorkerLostError
from scrabble_core.ai import Level, SeatView, choose_move, seat_view
from scrabble_core.game import Game
from scrabble_core.lexicon import Lexicon
from scrabble_core.move import Exchange, Pass, Play
from scrabble_core.movegen import MoveGenerator, load_move_generator
from scrabble_core.validation import check_play
from scrabble_core.variant import get_variant


@pytest.fixture
def config(enable_lexicon: Lexicon) -> WorkerConfig:
    assert enable_lexicon.trie_path is not None
    return WorkerConfig(cache_dir=str(enable_lexicon.trie_path.parent))


@pytest.fixture
def generator(enable_lexicon: Lexicon) -> MoveGenerator:
    """The move generator of this process, for the greedy fallback."""
    return load_move_generator(enable_lexicon)


@pytest.fixture
def view(enable_lexicon: Lexicon) -> SeatView:
    game = Game(get_variant("standard"), ["a", "b"], rng=random.Random(7), lexicon=enable_lexicon)
    return seat_view(game, 0)


async def test_a_turn_returns_a_legal_move(
    generator: MoveGenerator, config: WorkerConfig, view: SeatView, enable_lexicon: Lexicon
) -> None:
    async with AiExecutor(config) as executor:
        move = await ScrabblePool(executor, generator).choose(view, Level.HARD, seed=1, timeout=5.0)
        assert isinstance(move, Play)
        check_play(view.board, move, rack=view.rack, lexicon=enable_lexicon)
        game = Game(get_variant("standard"), ["a", "b"], rng=random.Random(7), lexicon=enable_lexicon)
        player: AiPlayer = ExecutorAiPlayer(ScrabblePool(executor, generator), timeout=5.0)
        assert await player.choose(game, 0, Level.HARD, 1) == move


async def test_a_stuck_worker_gives_the_fallback_move_and_is_replaced(
    generator: MoveGenerator, config: WorkerConfig, view: SeatView, enable_lexicon: Lexicon
) -> None:
    async with AiExecutor(config, grace=0.3) as executor:
        started = time.monotonic()
        move = await ScrabblePool(executor, generator).choose(
            view, Level.HARD, seed=1, timeout=0.2, debug_delay=30.0
        )
        elapsed = time.monotonic() - started
        # timeout + grace + the fallback (bounded by grace) is 0.8 s; the bound leaves room for a loaded
        # machine and still fails if the turn waited for the stuck worker (30 s)
        assert elapsed < 5.0
        assert isinstance(move, Play)
        check_play(view.board, move, rack=view.rack, lexicon=enable_lexicon)
        assert executor.replaced == 1
        again = await ScrabblePool(executor, generator).choose(view, Level.MEDIUM, seed=2, timeout=20.0)
        assert isinstance(again, Play)
        check_play(view.board, again, rack=view.rack, lexicon=enable_lexicon)


async def test_turns_run_side_by_side(generator: MoveGenerator, config: WorkerConfig, view: SeatView) -> None:
    async with AiExecutor(config, workers=2) as executor:
        moves = await asyncio.gather(
            *(
                ScrabblePool(executor, generator).choose(view, level, seed=3, timeout=10.0)
                for level in (Level.HARD, Level.EASY)
            )
        )
    assert all(isinstance(move, Play) for move in moves)


@pytest.mark.parametrize(("level", "replaced"), [(Level.HARD, 0), (Level.EXPERT, 1)])
async def test_a_cancelled_turn_does_not_leak_its_answer(
    generator: MoveGenerator, config: WorkerConfig, view: SeatView, level: Level, replaced: int
) -> None:
    async with AiExecutor(config) as executor:
        turn = asyncio.create_task(
            ScrabblePool(executor, generator).choose(view, level, seed=1, timeout=5.0, debug_delay=0.3)
        )
        await asyncio.sleep(0.1)
        turn.cancel()
        with pytest.raises(asyncio.CancelledError):
            await turn
        assert executor.replaced == replaced  # a long search is stopped; a quick one's answer dropped
        no_play = SeatView(view.variant, view.board, "QZXJKVW", view.unseen, view.bag_size, view.scores, 0)
        assert isinstance(
            await ScrabblePool(executor, generator).choose(no_play, Level.HARD, seed=1, timeout=20.0),
            Exchange,
        )


async def test_a_failing_turn_falls_back(
    generator: MoveGenerator, config: WorkerConfig, view: SeatView
) -> None:
    broken = SeatView(view.variant, view.board, "%%", view.unseen, view.bag_size, view.scores, view.seat)
    async with AiExecutor(config) as executor:
        assert (
            await ScrabblePool(executor, generator).choose(broken, Level.HARD, seed=1, timeout=5.0) == Pass()
        )
        assert executor.replaced == 0
        assert isinstance(
            await ScrabblePool(executor, generator).choose(view, Level.HARD, seed=1, timeout=5.0), Play
        )


async def test_no_workers_is_refused(config: WorkerConfig) -> None:
    with pytest.raises(ValueError, match="at least 1"):
        AiExecutor(config, workers=0)


async def test_a_failed_respawn_is_tried_again_until_a_worker_starts(
    generator: MoveGenerator,
    config: WorkerConfig,
    view: SeatView,
    enable_lexicon: Lexicon,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async with AiExecutor(config, grace=0.3, respawn_delay=0.05) as executor:
        spawn = executor._spawn
        attempts: list[float] = []

        async def failing_twice() -> object:
            attempts.append(time.monotonic())
            if len(attempts) <= 2:
                raise RuntimeError("AI worker exited with code 1 while loading")
            return await spawn()

        monkeypatch.setattr(executor, "_spawn", failing_twice)
        await ScrabblePool(executor, generator).choose(
            view, Level.HARD, seed=1, timeout=0.2, debug_delay=30.0
        )  # stuck: replaced
        assert executor.replaced == 1
        for _ in range(600):
            if len(executor._workers) == 1:
                break
            await asyncio.sleep(0.05)
        assert len(executor._workers) == 1  # the pool healed: one worker again
        assert len(attempts) == 3
        assert attempts[1] - attempts[0] >= 0.05
        assert attempts[2] - attempts[1] >= 0.1  # the wait doubles
        move = await ScrabblePool(executor, generator).choose(view, Level.MEDIUM, seed=2, timeout=20.0)
        assert isinstance(move, Play)
        check_play(view.board, move, rack=view.rack, lexicon=enable_lexicon)


class _RecordingExecutor:
    """Records what :class:`ExecutorAiPlayer` asks of the executor; always passes."""

    def __init__(self) -> None:
        self.calls: list[tuple[Level, float, float | None]] = []

    async def choose(
        self, view: SeatView, level: Level, seed: int, timeout: float, *, think: float | None
    ) -> Pass:
        self.calls.append((level, timeout, think))
        return Pass()


async def test_only_the_expert_thinks_for_its_own_budget(enable_lexicon: Lexicon) -> None:
    recorder = _RecordingExecutor()
    player = ExecutorAiPlayer(recorder, timeout=10.0, expert_seconds=3.0)  # type: ignore[arg-type]
    game = Game(get_variant("standard"), ["a", "b"], rng=random.Random(7), lexicon=enable_lexicon)
    for level in ("expert", "hard", "greedy"):
        await player.choose(game, 0, level, 1)
    assert recorder.calls == [(Level.EXPERT, 10.0, 3.0), (Level.HARD, 10.0, None), (Level.GREEDY, 10.0, None)]


async def test_an_expert_plays_its_best_so_far_when_its_thinking_time_ends(
    generator: MoveGenerator, config: WorkerConfig, view: SeatView, enable_lexicon: Lexicon
) -> None:
    async with AiExecutor(config, grace=2.0) as executor:
        started = time.monotonic()
        move = await ScrabblePool(executor, generator).choose(
            view, Level.EXPERT, seed=1, timeout=60.0, think=1.0
        )
        elapsed = time.monotonic() - started
        # the simulation stops at 1 s (overrun by one move generation): far from the 60 s timeout,
        # with no worker replaced, so the move is the expert's own and not the fallback
        assert elapsed < 20.0
        assert executor.replaced == 0
        assert isinstance(move, Play)
        check_play(view.board, move, rack=view.rack, lexicon=enable_lexicon)


async def test_a_stuck_expert_gives_the_fallback_move_at_the_turn_timeout(
    generator: MoveGenerator, config: WorkerConfig, view: SeatView, enable_lexicon: Lexicon
) -> None:
    async with AiExecutor(config, grace=0.3) as executor:
        started = time.monotonic()
        move = await ScrabblePool(executor, generator).choose(
            view, Level.EXPERT, seed=1, timeout=0.5, think=0.2, debug_delay=30.0
        )
        elapsed = time.monotonic() - started
        assert elapsed < 5.0  # timeout + grace + the fallback's grace is 1.1 s; the stuck worker sleeps 30 s
        assert executor.replaced == 1
        greedy = choose_move(view, load_move_generator(enable_lexicon), Level.GREEDY, random.Random(0))
        assert move == greedy


def touched(generator: object, path: str, text: str) -> str:
    """A call for the workers: write ``text`` to ``path`` (proof that the call ran), return it."""
    with open(path, "a") as file:
        file.write(text + "\n")
    return text


async def test_requests_waiting_for_the_one_worker_are_answered_in_order(
    config: WorkerConfig, tmp_path: Path
) -> None:
    path = str(tmp_path / "calls")
    async with AiExecutor(config) as executor:
        answers = await asyncio.gather(
            *(executor.call("scrabble", touched, path, f"call {n}", timeout=20.0) for n in range(6))
        )
        assert answers == [f"call {n}" for n in range(6)]
        assert (tmp_path / "calls").read_text().split("\n")[:-1] == answers  # first come, first served
        assert executor.replaced == 0


async def test_a_request_that_found_no_free_worker_in_time_is_never_sent(
    generator: MoveGenerator, config: WorkerConfig, view: SeatView, tmp_path: Path
) -> None:
    path = tmp_path / "calls"
    async with AiExecutor(config) as executor:
        busy = asyncio.create_task(
            ScrabblePool(executor, generator).choose(view, Level.HARD, seed=1, timeout=20.0, debug_delay=1.0)
        )
        await asyncio.sleep(0.1)  # the one worker is busy for a second
        with pytest.raises(TimeoutError):
            await executor.call("scrabble", touched, str(path), "too late", timeout=0.2)
        assert isinstance(await busy, Play)
        assert await executor.call("scrabble", touched, str(path), "next", timeout=20.0) == "next"
        assert path.read_text() == "next\n"  # the one that gave up never ran
        assert executor.replaced == 0


async def test_a_worker_that_dies_while_free_is_replaced_at_once(
    generator: MoveGenerator, config: WorkerConfig, view: SeatView
) -> None:
    async with AiExecutor(config) as executor:
        (worker,) = executor._workers
        os.kill(worker.process.pid or 0, signal.SIGKILL)
        for _ in range(600):  # no request is needed to notice
            if executor.replaced == 1 and len(executor._workers) == 1:
                break
            await asyncio.sleep(0.05)
        assert executor.replaced == 1
        assert executor._workers[0] is not worker
        assert isinstance(
            await ScrabblePool(executor, generator).choose(view, Level.HARD, seed=1, timeout=20.0), Play
        )


async def test_quick_requests_are_queued_on_a_busy_worker_and_long_ones_wait(
    generator: MoveGenerator, config: WorkerConfig, view: SeatView, tmp_path: Path
) -> None:
    path = str(tmp_path / "calls")
    async with AiExecutor(config) as executor:
        (worker,) = executor._workers
        busy = asyncio.create_task(
            ScrabblePool(executor, generator).choose(view, Level.HARD, seed=1, timeout=20.0, debug_delay=0.5)
        )
        quick = [
            asyncio.create_task(
                executor.call("scrabble", touched, path, f"quick {n}", timeout=20.0, quick=True)
            )
            for n in range(3)
        ]
        long = asyncio.create_task(executor.call("scrabble", touched, path, "long", timeout=20.0))
        await asyncio.sleep(0.2)
        assert len(worker.jobs) == 3  # the turn and two quick calls, sent at once
        assert [task.done() for task in (busy, *quick, long)] == [False] * 5
        assert isinstance(await busy, Play)
        assert await asyncio.gather(*quick, long) == ["quick 0", "quick 1", "quick 2", "long"]
        assert (tmp_path / "calls").read_text().split("\n")[:-1] == ["quick 0", "quick 1", "quick 2", "long"]
        assert executor.replaced == 0


async def test_a_stuck_worker_fails_the_quick_requests_queued_behind_it(
    generator: MoveGenerator, config: WorkerConfig, view: SeatView, tmp_path: Path
) -> None:
    path = tmp_path / "calls"
    async with AiExecutor(config, grace=0.3) as executor:
        stuck = asyncio.create_task(
            ScrabblePool(executor, generator).choose(view, Level.HARD, seed=1, timeout=0.2, debug_delay=30.0)
        )
        queued = asyncio.create_task(
            executor.call("scrabble", touched, str(path), "behind", timeout=20.0, quick=True)
        )
        assert isinstance(await stuck, Play)  # the fallback, at timeout + grace
        with pytest.raises(WorkerLostError, match="replaced"):
            await queued
        assert executor.replaced == 1
        assert not path.exists()
        assert (
            await executor.call("scrabble", touched, str(path), "after", timeout=20.0, quick=True) == "after"
        )
