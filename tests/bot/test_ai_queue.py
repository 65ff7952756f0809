"""AI turns as jobs on PostgreSQL (bot.host.ai.queue) answered by worker processes (bot.host.ai.worker), on the
session's throwaway PostgreSQL cluster."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from service_fakes import (
    ALICE,
    CHANNEL,
    CREATOR_FIRST_SEED,
    GUILD,
    QuickRenderer,
    RecordingNotifier,
    typed,
)

from bot.config import Config, ConfigError, load_config
from bot.games.go.ai_turns import QueueGoAi, ThreadGoAi
from bot.games.go.engines import Level as GoLevel
from bot.games.scrabble.ai_turns import QueueAiPlayer, ScrabblePool, ScrabbleQueue
from bot.games.scrabble.commands import NewGame, ScrabbleCommands
from bot.games.scrabble.settings import ScrabbleSettings
from bot.host.ai.executor import AiExecutor, WorkerConfig
from bot.host.ai.queue import AiJobQueue
from bot.host.ai.worker import APPLICATION_NAME, claim_job, finish_job
from bot.host.ai.worker import main as worker_main
from bot.host.assembly import host_parts
from go_core import Game as GoGame
from go_core import Point, format_move, parse_move
from scrabble_core.ai import Level, SeatView, choose_move, seat_view
from scrabble_core.game import Game
from scrabble_core.lexicon import Lexicon
from scrabble_core.move import Play
from scrabble_core.movegen import MoveGenerator, load_move_generator
from scrabble_core.variant import get_variant
from tests.pg_cluster import PgCluster

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def url(pg_cluster: PgCluster) -> str:
    return pg_cluster.new_database()


@pytest.fixture
def cache_dir(enable_lexicon: Lexicon) -> str:
    assert enable_lexicon.trie_path is not None
    return str(enable_lexicon.trie_path.parent)


@pytest.fixture
def generator(enable_lexicon: Lexicon) -> MoveGenerator:
    return load_move_generator(enable_lexicon)


def _game(lexicon: Lexicon) -> Game:
    return Game(get_variant("standard"), ["a", "b"], rng=random.Random(7), lexicon=lexicon)


@pytest.fixture
def view(enable_lexicon: Lexicon) -> SeatView:
    return seat_view(_game(enable_lexicon), 0)


@pytest.fixture
def start_worker(url: str, cache_dir: str) -> Iterator[object]:
    """``start_worker(name, reconnect_delay=5.0)``: a ``bot.host.ai.worker`` process on ``url``, ready when it returns; all are
    killed at teardown."""
    processes: list[subprocess.Popen[bytes]] = []

    def start(name: str, reconnect_delay: float = 5.0) -> subprocess.Popen[bytes]:
        code = (
            "import logging, sys; from bot.host.ai.worker import run_worker; from bot.host.ai.jobs import WorkerConfig; "
            "from bot.games import register_builtin; register_builtin(); "
            "logging.basicConfig(level=logging.INFO, stream=sys.stdout, force=True); "
            f"run_worker({url!r}, WorkerConfig(cache_dir={cache_dir!r}), name={name!r}, poll=0.2, "
            f"reconnect_delay={reconnect_delay!r})"
        )
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        process = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, env=env, cwd=ROOT)
        processes.append(process)
        assert process.stdout is not None
        deadline = time.monotonic() + 120
        for line in process.stdout:  # the worker logs "ready" once loaded
            if b"ready" in line or time.monotonic() > deadline:
                break
        assert process.poll() is None, "the worker died while loading"
        return process

    yield start
    for process in processes:
        if process.poll() is None:
            process.kill()
        process.wait()


def _job_rows(url: str) -> list[tuple[object, ...]]:
    with psycopg.connect(url) as connection:
        return connection.execute("SELECT status, attempts, worker, answer, payload FROM ai_jobs").fetchall()


async def test_a_worker_process_plays_the_move_of_the_local_pool(
    url: str, start_worker: object, view: SeatView, generator: MoveGenerator, cache_dir: str
) -> None:
    start_worker("w1")  # type: ignore[operator]
    async with AiJobQueue(url) as jobs:
        queue = ScrabbleQueue(jobs, generator)
        queued = await queue.choose(view, Level.HARD, seed=11, timeout=30.0, move_number=0)
        assert queue.fallbacks == 0
    async with AiExecutor(WorkerConfig(cache_dir=cache_dir)) as executor:
        local = await ScrabblePool(executor).choose(view, Level.HARD, seed=11, timeout=30.0)
    assert queued == local
    [(status, attempts, worker, answer, _)] = _job_rows(url)
    assert (status, attempts, worker, answer) == ("done", 1, "w1", local.gcg())


async def test_no_worker_gives_the_hard_fallback_at_the_deadline(
    url: str, view: SeatView, generator: MoveGenerator
) -> None:
    async with AiJobQueue(url, grace=0.2) as jobs:
        queue = ScrabbleQueue(jobs, generator)
        started = time.monotonic()
        move = await queue.choose(view, Level.EXPERT, seed=3, timeout=0.5, move_number=0)
        elapsed = time.monotonic() - started
        assert queue.fallbacks == 1
    assert move == choose_move(view, generator, Level.HARD, random.Random(3))
    assert 0.7 <= elapsed < 10.0  # timeout + grace, then the fallback computed here
    [(status, attempts, _, answer, _)] = _job_rows(url)
    assert (status, attempts, answer) == ("abandoned", 0, None)


async def test_a_late_answer_is_discarded(url: str, view: SeatView, generator: MoveGenerator) -> None:
    async with AiJobQueue(url, grace=0.2) as jobs:
        queue = ScrabbleQueue(jobs, generator)
        turn = asyncio.create_task(queue.choose(view, Level.EXPERT, seed=3, timeout=1.0, move_number=4))
        with psycopg.connect(url, autocommit=True) as worker:
            job = None
            while job is None:  # a slow worker claims the job in time...
                await asyncio.sleep(0.05)
                job = claim_job(worker, "slow")
            move = await turn
            assert job.payload["kind"] == "scrabble"
            assert job.payload["data"]["level"] == "expert"
            assert 0 < job.seconds_left <= 1.2
            # ...and answers after the deadline: nothing changes, the bot played its fallback
            assert finish_job(worker, job.key, job.claim, "8D ZZZ") is False
    assert move == choose_move(view, generator, Level.HARD, random.Random(3))
    [(status, attempts, worker_name, answer, _)] = _job_rows(url)
    assert (status, attempts, worker_name, answer) == ("abandoned", 1, "slow", None)


async def test_a_worker_killed_mid_job_is_replaced_and_the_move_answered_once(
    url: str, start_worker: object, view: SeatView, generator: MoveGenerator
) -> None:
    workers = {name: start_worker(name) for name in ("w1", "w2")}  # type: ignore[operator]
    async with AiJobQueue(url, lease_grace=0.5) as jobs:
        queue = ScrabbleQueue(jobs, generator)
        turn = asyncio.create_task(
            queue.choose(view, Level.HARD, seed=5, timeout=30.0, move_number=0, delay=2.0)
        )
        holder = None
        while holder is None:
            await asyncio.sleep(0.05)
            rows = _job_rows(url)
            if rows and rows[0][0] == "running":
                holder = str(rows[0][2])
        workers[holder].send_signal(signal.SIGKILL)
        move = await turn
        assert queue.fallbacks == 0
    assert move == choose_move(view, generator, Level.HARD, random.Random(5))
    [(status, attempts, worker, answer, _)] = _job_rows(url)
    other = "w2" if holder == "w1" else "w1"
    assert (status, attempts, worker, answer) == ("done", 2, other, move.gcg())


async def test_the_job_carries_only_the_seats_view(
    url: str, enable_lexicon: Lexicon, generator: MoveGenerator
) -> None:
    game = _game(enable_lexicon)
    state = game.to_dict()
    # the same position but the opponent holds other tiles (swapped with the bag's)
    swapped = json.loads(json.dumps(state))
    opponent, bag = swapped["players"][1]["rack"], swapped["bag"]
    swapped["players"][1]["rack"], swapped["bag"] = bag[:7], opponent + bag[7:]
    assert swapped["players"][1]["rack"] != opponent
    async with AiJobQueue(url, grace=0.1) as jobs:
        queue = ScrabbleQueue(jobs, generator)
        player = QueueAiPlayer(queue, timeout=0.2)
        for position in (state, swapped):
            await player.choose(Game.from_dict(position, lexicon=enable_lexicon), 0, "hard", 9)
    rows = _job_rows(url)
    assert len(rows) == 1  # one job: both positions asked the same question
    payload = rows[0][4]
    assert isinstance(payload, dict)
    assert payload["data"] == {"view": seat_view(game, 0).to_dict(), "level": "hard", "seed": 9}
    assert payload["data"]["view"]["rack"] == game.players[0].rack
    assert opponent not in json.dumps(payload)


def test_the_postgresql_queue_needs_a_postgresql_database(tmp_path: Path) -> None:
    config = tmp_path / "bot.toml"
    config.write_text("")
    assert load_config(config).ai_queue == "local"  # the default: the bot's own processes
    config.write_text('database = "postgresql://bot@db.example/scrabble"\n[ai]\nqueue = "postgresql"\n')
    assert load_config(config).ai_queue == "postgresql"
    config.write_text('[ai]\nqueue = "postgresql"\n')
    with pytest.raises(ConfigError) as raised:
        load_config(config)
    assert str(raised.value) == (
        f'{config}: ai.queue: "postgresql" needs a PostgreSQL database (database = "postgresql://...")'
    )


def test_the_worker_command_refuses_sqlite(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert worker_main(["--database", str(tmp_path / "games.sqlite3")]) == 2
    assert "AI workers need a PostgreSQL database" in capsys.readouterr().err


async def test_a_games_ai_turns_go_through_the_queue_to_a_worker(
    url: str, start_worker: object, enable_lexicon: Lexicon, generator: MoveGenerator
) -> None:
    start_worker("w1")  # type: ignore[operator]
    no_window = ScrabbleSettings(challenge_window_seconds=0)
    config = Config(database=url, ai_queue="postgresql", ai_workers=1, games={"scrabble": no_window})
    async with host_parts(config) as parts:
        settings = {"lexicon": enable_lexicon, "generator": generator, "renderer": QuickRenderer()}
        host = await parts.host(RecordingNotifier(), {"scrabble": settings})
        turns = host.plugin("scrabble").ai  # type: ignore[attr-defined]
        assert isinstance(turns, QueueAiPlayer)
        service: ScrabbleCommands = host.commands["scrabble"]
        await host.start()
        try:
            await service.new_game(GUILD, CHANNEL, ALICE, NewGame(ai_opponents=1, seed=CREATOR_FIRST_SEED))
            await service.start_game(CHANNEL, ALICE.id)
            for _ in range(3):
                game = service.game(CHANNEL)
                assert game.current == 0
                play = choose_move(seat_view(game, 0), generator, Level.GREEDY, random.Random(0))
                if isinstance(play, Play):
                    await service.play(CHANNEL, ALICE.id, typed(play))
                else:
                    await service.pass_turn(CHANNEL, ALICE.id)
                await service.idle()
            game = service.game(CHANNEL)
        finally:
            await host.close()
        assert turns.queue.fallbacks == 0
    ai_moves = [event.move for event in game.history if event.player == 1]
    with psycopg.connect(url) as connection:
        jobs = connection.execute(
            "SELECT move_number, status, answer FROM ai_jobs ORDER BY move_number"
        ).fetchall()
    assert [status for _, status, _ in jobs] == ["done"] * 3
    assert [number for number, _, _ in jobs] == [1, 3, 5]  # one job per AI turn, each played once
    assert [answer for _, _, answer in jobs] == ai_moves


async def test_a_worker_reconnects_when_its_connection_is_cut(
    url: str, start_worker: object, view: SeatView, generator: MoveGenerator
) -> None:
    worker = start_worker("w1", reconnect_delay=0.2)  # type: ignore[operator]
    with psycopg.connect(url, autocommit=True) as admin:
        [(cut,)] = admin.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = %s",
            (APPLICATION_NAME,),
        ).fetchall()
    assert cut == 1
    async with AiJobQueue(url) as jobs:
        queue = ScrabbleQueue(jobs, generator)
        move = await queue.choose(view, Level.HARD, seed=2, timeout=30.0, move_number=0)
        assert queue.fallbacks == 0
    assert worker.poll() is None
    assert move == choose_move(view, generator, Level.HARD, random.Random(2))


async def test_a_go_move_is_a_job_answered_by_a_worker(
    url: str, start_worker: object, generator: MoveGenerator
) -> None:
    start_worker("w1")  # type: ignore[operator]
    game = GoGame(9)
    game.play("E5")
    async with AiJobQueue(url) as jobs:
        ai = QueueGoAi(jobs, 5.0, ThreadGoAi(0.1, "builtin"), engine="builtin")
        move = await ai.choose(game, GoLevel.EASY, seed=4)
    assert isinstance(move, Point)
    assert move != parse_move("E5", 9)
    [(status, attempts, worker, answer, payload)] = _job_rows(url)
    assert (status, attempts, worker, answer) == ("done", 1, "w1", format_move(move))
    assert payload == {
        "kind": "go",
        "data": {"state": game.to_dict(), "level": "easy", "engine": "builtin", "seed": 4},
        "think": 4.0,
        "delay": 0.0,
    }
