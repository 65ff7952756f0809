"""Real ``scrabble-bot`` processes (and ``scrabble-bot worker`` processes) on one PostgreSQL database of
the session's throwaway cluster, against the fake REST API and the fake gateway with :data:`SHARDS`
shards, one guild (and channel) per shard: the ``cluster`` fixture of the multi-process tests
(``test_shards_processes.py``, ``test_scale_faults.py``), which import it as ``cluster_fixture``."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from discord_fake import TEST_TOKEN, FakeDiscord, Payloads, RecordedRequest
from discord_gateway import FakeGateway, guild_payload, stop_bot
from test_shards import guild_on

from bot.host.ai.worker import APPLICATION_NAME
from tests.pg_cluster import PgCluster, query

GATEWAY_SCRIPT = Path(__file__).with_name("discord_gateway.py")
ROOT = Path(__file__).resolve().parents[2]
SHARDS = 4
LEASE_SECONDS = 4
ALICE, BOB = 700_000_000_000_000_001, 700_000_000_000_000_002


@dataclass
class Cluster:
    """The fakes, the database and a way to start bot and worker processes on them."""

    fake: FakeDiscord
    gateway: FakeGateway
    url: str
    folder: Path
    processes: list[asyncio.subprocess.Process]

    def payloads(self, shard: int) -> Payloads:
        """Interactions in the guild of ``shard`` (one guild, one channel per shard)."""
        guild = guild_on(shard, SHARDS)
        return Payloads(application_id=self.fake.application_id, guild_id=guild, channel_id=guild + 1)

    def config(
        self, name: str, shard_ids: list[int], *, standby: bool = False, ai: str = "workers = 1"
    ) -> Path:
        """The config file of process ``name``, owning ``shard_ids``; ``ai``: the lines of its ``[ai]``."""
        config = self.folder / f"{name}.toml"
        config.write_text(
            f'database = {json.dumps(self.url)}\nlog_level = "WARNING"\nshard_count = {SHARDS}\n'
            f"shard_ids = {shard_ids}\nshard_lease_seconds = {LEASE_SECONDS}\n"
            f"shard_standby = {'true' if standby else 'false'}\n[ai]\n{ai}\n"
        )
        return config

    async def start(
        self, name: str, shard_ids: list[int], *, standby: bool = False, ai: str = "workers = 1"
    ) -> asyncio.subprocess.Process:
        """Start ``scrabble-bot`` (through the fakes) owning ``shard_ids``, with :meth:`config`."""
        config = self.config(name, shard_ids, standby=standby, ai=ai)
        process = await asyncio.create_subprocess_exec(
            sys.executable, str(GATEWAY_SCRIPT), self.fake.api_base, self.gateway.url, "--config", str(config),
            env=os.environ | {"DISCORD_TOKEN": TEST_TOKEN}, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        self.processes.append(process)
        return process

    async def start_worker(self, name: str, timeout: float = 120.0) -> asyncio.subprocess.Process:
        """Start ``scrabble-bot worker --name name`` on the database; return once it listens for jobs
        (its connection is open: it opens it once its lexicon is loaded).

        Raises:
            TimeoutError: it is not ready after ``timeout`` seconds.
        """
        before = self._workers_connected()
        config = self.folder / f"worker-{name}.toml"
        config.write_text(f'database = {json.dumps(self.url)}\nlog_level = "WARNING"\n')
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "worker", "--config", str(config), "--name", name, "--poll", "0.2",
            env=os.environ | {"PYTHONPATH": str(ROOT)}, cwd=ROOT, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        self.processes.append(process)
        async with asyncio.timeout(timeout):
            while self._workers_connected() <= before:
                assert process.returncode is None, f"the worker {name} exited while loading"
                await asyncio.sleep(0.1)
        return process

    def _workers_connected(self) -> int:
        ((count,),) = query(
            self.url,
            f"SELECT COUNT(*) FROM pg_stat_activity WHERE application_name = '{APPLICATION_NAME}' "
            "AND datname = current_database()",
        )
        assert isinstance(count, int)
        return count

    async def interact(self, payload: dict[str, object]) -> RecordedRequest:
        """Send ``payload`` as an ``INTERACTION_CREATE`` event; the answer (followup after a deferral)."""
        await self.gateway.dispatch("INTERACTION_CREATE", payload)
        callback = await self.fake.callback_for(payload, timeout=30)
        if callback.json["type"] != 5:
            return callback
        (followup, *_) = await self.fake.followups_for(payload, timeout=30)
        return followup


@pytest.fixture(name="cluster")
async def cluster_fixture(tmp_path: Path, pg_cluster: PgCluster) -> AsyncIterator[Cluster]:
    """The fakes (a guild on every shard) and a new database; every process started is stopped at the
    end (SIGINT, then SIGKILL after 20 s). A test in which the fake answered a message with another of
    the same nonce (:attr:`FakeDiscord.swallowed`) fails."""
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
        fake.check_nothing_swallowed()
    finally:
        for process in running.processes:
            await stop_bot(process)
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
    """The holder of each shard's lease."""
    return {
        int(str(shard)): str(holder) for shard, holder in query(url, "SELECT shard, holder FROM shard_leases")
    }
