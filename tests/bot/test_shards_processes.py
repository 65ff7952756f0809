"""Two real ``scrabble-bot`` processes, two shards each, on one PostgreSQL database, against the fake
gateway with four shards: each answers the guilds of its shards, a third process configured with a held
shard refuses to start naming the holder, and after a ``kill -9`` of one process a restarted one takes
its shards over once their leases lapse and every game goes on, nothing lost or doubled."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from discord_fake import TEST_TOKEN, FakeDiscord, Payloads, RecordedRequest
from discord_gateway import FakeGateway, guild_payload
from test_shards import guild_on

from tests.pg_cluster import PgCluster, query

GATEWAY_SCRIPT = Path(__file__).with_name("discord_gateway.py")
SHARDS = 4
LEASE_SECONDS = 4
ALICE, BOB = 700_000_000_000_000_001, 700_000_000_000_000_002

pytestmark = pytest.mark.slow


@dataclass
class Cluster:
    """The fakes, the database and a way to start bot processes on them."""

    fake: FakeDiscord
    gateway: FakeGateway
    url: str
    folder: Path
    processes: list[asyncio.subprocess.Process]

    def payloads(self, shard: int) -> Payloads:
        """Interactions in the guild of ``shard`` (one guild, one channel per shard)."""
        guild = guild_on(shard, SHARDS)
        return Payloads(application_id=self.fake.application_id, guild_id=guild, channel_id=guild + 1)

    async def start(
        self, name: str, shard_ids: list[int], *, standby: bool = False
    ) -> asyncio.subprocess.Process:
        config = self.folder / f"{name}.toml"
        config.write_text(
            f'database = {json.dumps(self.url)}\nlog_level = "WARNING"\nshard_count = {SHARDS}\n'
            f"shard_ids = {shard_ids}\nshard_lease_seconds = {LEASE_SECONDS}\n"
            f"shard_standby = {'true' if standby else 'false'}\n[ai]\nworkers = 1\n"
        )
        process = await asyncio.create_subprocess_exec(
            sys.executable, str(GATEWAY_SCRIPT), self.fake.api_base, self.gateway.url, "--config", str(config),
            env=os.environ | {"DISCORD_TOKEN": TEST_TOKEN}, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        self.processes.append(process)
        return process

    async def interact(self, payload: dict[str, object]) -> RecordedRequest:
        """Send ``payload`` as an ``INTERACTION_CREATE`` event; the answer (followup after a deferral)."""
        await self.gateway.dispatch("INTERACTION_CREATE", payload)
        callback = await self.fake.callback_for(payload, timeout=30)
        if callback.json["type"] != 5:
            return callback
        (followup, *_) = await self.fake.followups_for(payload, timeout=30)
        return followup


@pytest.fixture
async def cluster(tmp_path: Path, pg_cluster: PgCluster) -> AsyncIterator[Cluster]:
    fake = FakeDiscord(valid_token=TEST_TOKEN)
    await fake.start()
    owner = Payloads(application_id=fake.application_id).user_id
    guilds = [guild_payload(guild_on(shard, SHARDS), owner) for shard in range(SHARDS)]
    gateway = FakeGateway(fake.bot_user, fake.application_id, guilds)
    await gateway.start()
    fake.gateway_url = gateway.url
    running = Cluster(fake, gateway, pg_cluster.new_database(), tmp_path, [])
    try:
        yield running
    finally:
        for process in running.processes:
            if process.returncode is None:
                process.send_signal(signal.SIGINT)
                try:
                    await asyncio.wait_for(process.wait(), 20)
                except TimeoutError:
                    process.kill()
                    await process.wait()
        await gateway.close()
        await fake.close()


async def unsent_after(url: str, seconds: float) -> int:
    """The count of announcements still unsent once none is left or ``seconds`` have passed."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while True:
        ((unsent,),) = query(url, "SELECT COUNT(*) FROM outbox WHERE sent_at IS NULL")
        assert isinstance(unsent, int)
        if not unsent or loop.time() >= deadline:
            return unsent
        await asyncio.sleep(0.2)


def holders(url: str) -> dict[int, str]:
    return {
        int(str(shard)): str(holder) for shard, holder in query(url, "SELECT shard, holder FROM shard_leases")
    }


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
        assert created.content.startswith(f"Game {shard + 1} created"), created.content
        assert (await cluster.interact(payloads.slash("join", user_id=BOB))).content == "You joined the game."
        started = await cluster.interact(payloads.slash("start"))
        assert started.content == "The game has started: your rack comes by DM."

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
    for shard in range(SHARDS):  # every announcement delivered once: the lobby (twice), the start, the pass
        contents = [m["content"] for m in cluster.fake.channel_messages(cluster.payloads(shard).channel_id)]
        assert len(contents) == len(set(contents)) == 4, contents
        assert contents[2].startswith("The game begins!") and " passed.\nScores: " in contents[3]
