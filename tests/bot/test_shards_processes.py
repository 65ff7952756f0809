"""Two real ``scrabble-bot`` processes, two shards each, on one PostgreSQL database, against the fake
gateway with four shards: each answers the guilds of its shards, a third process configured with a held
shard refuses to start naming the holder, and after a ``kill -9`` of one process a restarted one takes
its shards over once their leases lapse and every game goes on, nothing lost or doubled."""

from __future__ import annotations

import asyncio
import re
import signal
import socket

import pytest
from bot_cluster import ALICE, BOB, SHARDS, Cluster, cluster_fixture, holders, unsent_after

from tests.pg_cluster import query

__all__ = ["cluster_fixture"]  # the fixture ``cluster``

pytestmark = pytest.mark.slow


async def test_sharded_processes_own_their_guilds_and_a_restart_takes_a_dead_ones_over(
    cluster: Cluster,
) -> None:
    first = await cluster.start("first", [0, 1])
    await cluster.gateway.wait_for_shards([0, 1], 90)
    second = await cluster.start("second", [2, 3])
    await cluster.gateway.wait_for_shards([2, 3], 90)
    assert sorted(tuple(identify["shard"]) for identify in cluster.gateway.identifies) == [
        (shard, SHARDS) for shard in range(SHARDS)
    ]
    host = socket.gethostname()
    leases = holders(cluster.url)
    assert [leases[shard].startswith(f"{host} pid {first.pid} (") for shard in range(SHARDS)] == [
        True,
        True,
        False,
        False,
    ]
    assert [leases[shard].startswith(f"{host} pid {second.pid} (") for shard in range(SHARDS)] == [
        False,
        False,
        True,
        True,
    ]

    # A third process configured with a held shard refuses to start, naming the holder.
    third = await cluster.start("third", [1])
    assert await asyncio.wait_for(third.wait(), 90) == 1
    assert third.stderr is not None
    error = (await third.stderr.read()).decode()
    assert f"scrabble-bot: shard 1 (of 4) is held by {leases[1]}, whose lease lapses in" in error

    # A game in a guild of every shard, each answered by the process of its shard (the gateway sends a
    # guild's events to its shard's session only).
    for shard in range(SHARDS):
        payloads = cluster.payloads(shard)
        created = await cluster.interact(payloads.slash("new"))
        assert created.content == "Your game is open: the others press Join, then you press Start."
        assert (await cluster.interact(payloads.slash("join", user_id=BOB))).content == "You joined the game."
        started = await cluster.interact(payloads.slash("start"))
        assert re.fullmatch(
            r"The game has started\.\nYour rack in <#\d+>: [A-Z]+(,? and (a blank|2 blanks))?",
            started.content,
        ), started.content

    # kill -9 of the first process: its shards are served by no one until its leases lapse.
    first.send_signal(signal.SIGKILL)
    await first.wait()
    await asyncio.sleep(0.5)
    with pytest.raises(RuntimeError, match="no client is connected to the shard of guild"):
        await cluster.gateway.dispatch("INTERACTION_CREATE", cluster.payloads(0).slash("board"))
    restarted = await cluster.start("restarted", [0, 1], standby=True)
    await cluster.gateway.wait_for_shards([0, 1], 120)
    leases = holders(cluster.url)
    assert [leases[shard].startswith(f"{host} pid {restarted.pid} (") for shard in range(SHARDS)] == [
        True,
        True,
        False,
        False,
    ]

    # Every game goes on where it was: its player to move passes, once, in the same game.
    for shard in range(SHARDS):
        payloads = cluster.payloads(shard)
        reply = await cluster.interact(payloads.slash("pass", user_id=ALICE))
        if reply.content != "You passed.":
            assert reply.content == "it is User700000000000000002's turn, not Alice's"
            assert (await cluster.interact(payloads.slash("pass", user_id=BOB))).content == "You passed."
    rows = query(cluster.url, "SELECT id, channel_id, status FROM games ORDER BY id")
    assert rows == [(shard + 1, cluster.payloads(shard).channel_id, "active") for shard in range(SHARDS)]
    kinds = query(cluster.url, "SELECT kind, COUNT(*) FROM events GROUP BY kind ORDER BY kind")
    assert kinds == [(kind, SHARDS) for kind in ("created", "joined", "pass", "started")]
    assert await unsent_after(cluster.url, 30.0) == 0  # announcements go out behind their answers
    for shard in range(
        SHARDS
    ):  # every announcement delivered once: the lobby (edited when Bob joined), the start, the pass
        contents = [m["content"] for m in cluster.fake.channel_messages(cluster.payloads(shard).channel_id)]
        assert len(contents) == len(set(contents)) == 3, contents
        assert contents[1].startswith("The game has started.") and " passed.\nScores: " in contents[2]
