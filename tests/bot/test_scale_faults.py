"""Issue 14's combined fault test, in one run: two ``scrabble-bot`` processes (two shards each) against
the fake gateway with four shards, one PostgreSQL database, AI turns on its queue (``[ai] queue =
"postgresql"``) answered by two ``scrabble-bot worker`` processes; a game in a guild of every shard, two
of them against the expert AI. While an AI turn of the first process's game is in flight, held by a
worker, that process and that worker are killed (``kill -9``); the other process goes on meanwhile, a
new worker is started, a standby takes the dead process's shards over once their leases lapse, and
every game plays on. Then, from the database and the fake Discord's records: each game's event log is
its moves, each once and in order; the AI's moves are the answers of the queue's jobs, each job
answered once (the one in flight by a living worker, on its second attempt); every announcement
went out exactly once, in order."""

from __future__ import annotations

import asyncio
import json
import re
import signal

import pytest
from bot_cluster import BOB, SHARDS, Cluster, cluster_fixture, unsent_after
from discord_fake import integer_option, string_option

from scrabble_core.game import Game
from scrabble_core.lexicon import Lexicon
from scrabble_core.move import Play
from scrabble_core.move_words import play_in_words
from scrabble_core.movegen import MoveGenerator, load_move_generator
from scrabble_core.notation import player_notation
from tests.pg_cluster import query

__all__ = ["cluster_fixture"]  # the fixture ``cluster``

pytestmark = pytest.mark.slow

EXPERT_SECONDS = 10
AI = f'workers = 1\nqueue = "postgresql"\nlevel = "expert"\nturn_timeout = 20\nexpert_seconds = {EXPERT_SECONDS}'
"""The bots' ``[ai]``: expert turns of a few seconds on the PostgreSQL queue."""
AI_SHARDS = (0, 3)
"""The shards whose game is against the AI: one of the process killed, one of the other."""
MOVES = ("play", "pass", "exchange")


def stored(cluster: Cluster, shard: int) -> tuple[int, Game, list[int | None]]:
    """The game of ``shard``'s channel as committed: its id, its state, the user of each seat (None:
    the AI)."""
    channel = cluster.payloads(shard).channel_id
    [(game_id, state)] = query(cluster.url, f"SELECT id, state FROM games WHERE channel_id = {channel}")
    seats = query(cluster.url, f"SELECT user_id FROM seats WHERE game_id = {game_id} ORDER BY seat")
    assert isinstance(game_id, int) and isinstance(state, str)
    return game_id, Game.from_dict(json.loads(state)), [user for (user,) in seats]  # type: ignore[misc]


async def human_moves(cluster: Cluster, shard: int, generator: MoveGenerator) -> None:
    """The human on turn in ``shard``'s game makes the best play (a pass if there is none), which the
    game applies."""
    _, game, users = stored(cluster, shard)
    user = users[game.current]
    assert user is not None, "the AI is on turn"
    payloads = cluster.payloads(shard)
    best = generator.best(game.board, game.players[game.current].rack)
    if best is None:
        await cluster.interact(payloads.slash("pass", user_id=user))
    else:
        move = string_option("move", player_notation(best.play))
        await cluster.interact(payloads.slash("play", [move], user_id=user))
    _, after, _ = stored(cluster, shard)
    # The move is the game's next event (an AI may have answered it already).
    assert len(after.history) > len(game.history)
    assert after.history[len(game.history)].player == game.current


async def ai_moved(cluster: Cluster, shard: int, timeout: float = 60.0) -> None:
    """Wait until a human is on turn in ``shard``'s game (the AI has moved)."""
    async with asyncio.timeout(timeout):
        while True:
            _, game, users = stored(cluster, shard)
            if users[game.current] is not None:
                return
            await asyncio.sleep(0.2)


async def running_job(cluster: Cluster, known: set[str], timeout: float = 60.0) -> tuple[str, str]:
    """The key and worker of a job a worker has claimed, other than those ``known``."""
    async with asyncio.timeout(timeout):
        while True:
            for key, worker in query(cluster.url, "SELECT key, worker FROM ai_jobs WHERE status = 'running'"):
                if key not in known:
                    return str(key), str(worker)
            await asyncio.sleep(0.05)


async def open_game(cluster: Cluster, shard: int, generator: MoveGenerator) -> None:
    """Create and start ``shard``'s game (Alice against Bob, or against the expert AI on
    :data:`AI_SHARDS`), then, against the AI, bring it to the AI's turn."""
    payloads = cluster.payloads(shard)
    if shard in AI_SHARDS:
        options = [integer_option("ai_opponents", 1), string_option("ai_level", "expert")]
        created = await cluster.interact(payloads.slash("new", options))
    else:
        created = await cluster.interact(payloads.slash("new"))
        assert (await cluster.interact(payloads.slash("join", user_id=BOB))).content == "You joined the game."
    assert created.content == "Your game is open: the others press Join, then you press Start.", (
        created.content
    )
    started = await cluster.interact(payloads.slash("start"))
    assert re.fullmatch(
        r"The game has started\.\nYour rack in <#\d+>: [A-Z]+(,? and (a blank|2 blanks))?", started.content
    ), started.content
    _, game, users = stored(cluster, shard)
    if shard in AI_SHARDS and users[game.current] is not None:
        await human_moves(cluster, shard, generator)


def said_in_order(cluster: Cluster, shard: int, game: Game, announcements: int) -> None:
    """``shard``'s channel shows the lobby (edited in place), the start, then the game's moves in order,
    each said once, in at most one post per announcement (an AI's move joins the post of the move before
    it when it answers while that post waits)."""
    contents = [m["content"] for m in cluster.fake.channel_messages(cluster.payloads(shard).channel_id)]
    assert contents[0].startswith("New standard game by ")
    assert contents[1].startswith("The game has started.")
    assert len(contents) == len(set(contents)) <= 1 + announcements, contents
    said_all = "\n".join(contents[1:])
    position = 0
    for event in game.history:
        if event.kind.value == "play":
            said = f" played {play_in_words(Play.from_gcg(event.move), game.board).placed} for "
        else:
            said = f" {event.kind.value}"
        found = said_all.find(said, position)
        assert found >= 0, (event, said_all[position:])
        position = found + len(said)


async def test_kill_9_of_a_bot_process_and_of_a_worker_mid_turn_loses_and_doubles_nothing(
    cluster: Cluster, enable_lexicon: Lexicon
) -> None:
    async with asyncio.timeout(300):  # a hang fails the test instead of the run
        generator = load_move_generator(enable_lexicon)
        first = await cluster.start("first", [0, 1], ai=AI)
        second = await cluster.start("second", [2, 3], ai=AI)
        await cluster.gateway.wait_for_shards(range(SHARDS), 120)
        workers = {name: await cluster.start_worker(name) for name in ("w1", "w2")}
        for shard in (1, 2):
            await open_game(cluster, shard, generator)
        # The AI's turn of shard 0's game (the first process's) is claimed by a worker, which is killed
        # with the first process as soon as it claimed it (an expert turn that prunes its candidates
        # down to one ends early, so a later kill may come after it); shard 3's turn is then claimed
        # by the other worker.
        await open_game(cluster, 0, generator)
        doomed_job, doomed_worker = await running_job(cluster, set())
        first.send_signal(signal.SIGKILL)
        workers[doomed_worker].send_signal(signal.SIGKILL)
        await asyncio.gather(first.wait(), workers[doomed_worker].wait())
        [in_flight] = query(
            cluster.url, f"SELECT status, attempts, worker FROM ai_jobs WHERE key = '{doomed_job}'"
        )
        assert in_flight == ("running", 1, doomed_worker)  # killed mid-turn
        await open_game(cluster, 3, generator)
        _, other_worker = await running_job(cluster, {doomed_job})
        assert {doomed_worker, other_worker} == {"w1", "w2"}

        # The second process goes on meanwhile; a new worker joins; a standby takes the shards over.
        await ai_moved(cluster, 3)
        await human_moves(cluster, 2, generator)
        await cluster.start_worker("w3")
        await cluster.start("standby", [0, 1], standby=True, ai=AI)
        await cluster.gateway.wait_for_shards([0, 1], 120)
        await ai_moved(cluster, 0)

        # Every game plays on: two more turns each (and the AI's answers).
        async def play_on(shard: int) -> None:
            for _ in range(2):
                await human_moves(cluster, shard, generator)
                if shard in AI_SHARDS:
                    await ai_moved(cluster, shard)

        await asyncio.gather(*(play_on(shard) for shard in range(SHARDS)))
        assert second.returncode is None
        assert await unsent_after(cluster.url, 30.0) == 0

        # The job in flight was answered once, by a living worker, on its second attempt.
        [answered] = query(
            cluster.url, f"SELECT status, attempts, worker FROM ai_jobs WHERE key = '{doomed_job}'"
        )
        assert answered in {("done", 2, other_worker), ("done", 2, "w3")}
        jobs = query(cluster.url, "SELECT status, answer FROM ai_jobs ORDER BY created_at")
        ai_moves: list[str] = []
        for shard in range(SHARDS):
            game_id, game, users = stored(cluster, shard)
            # The event log holds the game's moves, each once, in order.
            logged = query(
                cluster.url,
                f"SELECT kind, data FROM events WHERE game_id = {game_id} AND kind IN {MOVES} ORDER BY id",
            )
            assert [json.loads(str(data)) for _, data in logged] == [e.to_dict() for e in game.history]
            ai_moves += [event.move for event in game.history if users[event.player] is None]
            # Every announcement went out once, in order: the start, then one message per move.
            announced = query(cluster.url, f"SELECT data FROM outbox WHERE game_id = {game_id} ORDER BY id")
            assert [json.loads(str(data))["move"] for (data,) in announced] == list(
                range(len(game.history) + 1)
            )
            said_in_order(cluster, shard, game, len(announced))
        assert sorted(str(answer) for status, answer in jobs if status == "done") == sorted(ai_moves)
        assert [status for status, _ in jobs] == ["done"] * len(ai_moves)
