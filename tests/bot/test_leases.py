"""Shard leases on both backends: a held shard is refused naming its holder, a lapsed lease is taken
over, a lost lease is noticed; and a sharded store loads and creates only its own shards' games."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from test_shards import guild_on
from test_store import NEWEST_MIGRATION, draft

from bot.config import Config
from bot.host.leases import Lease, LeaseLostError, ShardHeldError, ShardLeases, held_shards, kept
from bot.host.shards import Shards
from bot.host.store import ForeignShardError, GameRow, GameStatus, SeatRow, Store, StoreOpenError
from tests.pg_cluster import PgCluster, query


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_a_held_shard_is_refused_naming_its_holder_then_taken_over_once_lapsed(
    store_database: Path | str,
) -> None:
    store = await Store.open(store_database)
    clock = Clock()
    first = ShardLeases(store, Shards(4, (0, 2)), 30.0, "host-a pid 7 (aa)", clock)
    second = ShardLeases(store, Shards(4, (2, 3)), 30.0, "host-b pid 9 (bb)", clock)
    await first.claim()
    clock.now += 29.0
    with pytest.raises(ShardHeldError) as error:
        await second.claim()
    assert str(error.value) == (
        "shard 2 (of 4) is held by host-a pid 7 (aa), whose lease lapses in 1 s unless renewed: stop that "
        "process, give this one other shard_ids, or set shard_standby to wait for it"
    )
    assert await first.leases() == [  # nothing of the refused claim was written (not even shard 3's)
        Lease(0, 4, "host-a pid 7 (aa)", 1030.0),
        Lease(2, 4, "host-a pid 7 (aa)", 1030.0),
    ]
    clock.now += 1.0  # the first process stopped renewing: its leases lapse
    await second.claim()
    assert [(lease.shard, lease.holder) for lease in await first.leases()] == [
        (0, "host-a pid 7 (aa)"),
        (2, "host-b pid 9 (bb)"),
        (3, "host-b pid 9 (bb)"),
    ]
    with pytest.raises(LeaseLostError, match=r"^host-a pid 7 \(aa\) lost one of its shards 0, 2 of 4"):
        await first.renew()
    await second.renew()
    await second.release()
    assert [lease.holder for lease in await first.leases()] == ["host-a pid 7 (aa)"]
    await store.close()


async def test_a_live_lease_with_another_shard_count_is_refused(store_database: Path | str) -> None:
    store = await Store.open(store_database)
    clock = Clock()
    await ShardLeases(store, Shards(2, (1,)), 30.0, "old", clock).claim()
    with pytest.raises(ShardHeldError, match=r"^shard 1 \(of 2\) is held by old,"):
        await ShardLeases(store, Shards(4, (0,)), 30.0, "new", clock).claim()
    await store.close()


async def test_keep_renews_and_reports_a_lost_lease(store_database: Path | str) -> None:
    store = await Store.open(store_database)
    leases = ShardLeases(store, Shards(2, (0,)), 1.5, "keeper")
    lost: list[Exception] = []

    async def on_lost(error: Exception) -> None:
        lost.append(error)

    await leases.claim()
    keeper = asyncio.create_task(leases.keep(on_lost))
    await asyncio.sleep(2.0)  # longer than a lease: only renewals keep it
    assert not lost
    with pytest.raises(ShardHeldError, match="is held by keeper"):
        await ShardLeases(store, Shards(2, (0,)), 1.5, "thief").claim()
    query(store_database, "UPDATE shard_leases SET holder = 'thief'")
    await asyncio.wait_for(keeper, 2.0)
    assert [type(error) for error in lost] == [LeaseLostError]
    await store.close()


async def test_a_sharded_store_loads_and_creates_only_its_own_games(store_database: Path | str) -> None:
    store = await Store.open(store_database)
    mine, theirs = guild_on(1, 2), guild_on(0, 2)
    await store.create_game(replace(draft(1), guild_id=mine), [])
    await store.create_game(replace(draft(2), guild_id=theirs), [])
    await store.close()

    store = await Store.open(store_database, shards=Shards(2, (1,)))
    assert [game.guild_id for game in await store.open_games()] == [mine]
    assert store.owns(mine) and not store.owns(theirs)
    with pytest.raises(
        ForeignShardError, match=f"^guild {theirs} is on shard 0, not this process's shards 1 of 2$"
    ):
        await store.create_game(replace(draft(3), guild_id=theirs), [])
    await store.close()
    assert query(store_database, "SELECT COUNT(*) FROM games") == [(2,)]


async def test_sharded_processes_share_a_postgresql_database_and_keep_unsharded_ones_out(
    pg_cluster: PgCluster,
) -> None:
    url = pg_cluster.new_database()
    first = await Store.open(url, shards=Shards(2, (0,)))
    second = await Store.open(url, shards=Shards(2, (1,)))
    with pytest.raises(StoreOpenError) as refused:
        await Store.open(url)
    assert str(refused.value) == (
        f"the database {url} is in use by another scrabble-bot or console (it holds the database's "
        "advisory lock): stop that one first, or use another database"
    )
    await first.close()
    await second.close()
    alone = await Store.open(url)
    with pytest.raises(StoreOpenError) as refused:
        await Store.open(url, shards=Shards(2, (0,)))
    assert str(refused.value) == (
        f"the database {url} is in use by an unsharded scrabble-bot or a console (it holds the database's "
        "advisory lock): stop that one first, or use another database"
    )
    await alone.close()


async def test_a_sharded_store_redelivers_and_resumes_only_its_own_games(store_database: Path | str) -> None:
    store = await Store.open(store_database)
    mine, theirs = guild_on(1, 2), guild_on(0, 2)
    for channel, guild in ((1, mine), (2, theirs)):
        row = await store.create_game(replace(draft(channel), guild_id=guild), [])
        await store.save(row, [], (), {"channel": channel})
    go = GameRow(0, "go", theirs, 3, 7, GameStatus.LOBBY, {"size": 9}, 1, None, (SeatRow(0, 7, "Bob"),))
    await store.create_game(go, [])
    await store.create_game(replace(go, guild_id=mine, channel_id=4), [])
    await store.close()

    store = await Store.open(store_database, shards=Shards(2, (1,)))
    assert [entry.data for entry in await store.pending_outbox()] == [{"channel": 1}]
    assert [game.channel_id for game in await store.open_games() if game.kind == "go"] == [4]
    with pytest.raises(ForeignShardError):
        await store.create_game(replace(go, channel_id=5), [])
    await store.close()


async def test_held_shards_are_claimed_released_and_a_lost_one_stops_the_process(
    store_database: Path | str,
) -> None:
    store = await Store.open(store_database)
    config = Config(database=store_database, shards=Shards(2, (0, 1)), shard_lease_seconds=1.5)
    stopped = asyncio.Event()

    async def stop() -> None:
        stopped.set()

    async with held_shards(store, Config()) as none, kept(none, stop):
        assert none is None and await ShardLeases(store, Shards(2, (0,)), 1.0, "x").leases() == []
    async with held_shards(store, config) as leases, kept(leases, stop):
        assert leases is not None
        assert [lease.holder for lease in await leases.leases()] == [leases.holder] * 2
        query(store_database, "UPDATE shard_leases SET holder = 'thief' WHERE shard = 1")
        await asyncio.wait_for(stopped.wait(), 3.0)
        assert isinstance(leases.lost, LeaseLostError)
    assert [(lease.shard, lease.holder) for lease in await leases.leases()] == [(1, "thief")]
    await store.close()


async def test_a_standby_waits_for_the_lease_to_lapse(store_database: Path | str) -> None:
    store = await Store.open(store_database)
    clock = Clock()
    await ShardLeases(store, Shards(2, (0,)), 30.0, "dead", clock).claim()
    standby = ShardLeases(store, Shards(2, (0,)), 0.3, "standby", clock)
    waiting = asyncio.create_task(standby.wait_and_claim())
    await asyncio.sleep(0.5)
    assert not waiting.done()
    clock.now += 30.0
    await asyncio.wait_for(waiting, 2.0)
    assert [lease.holder for lease in await standby.leases()] == ["standby"]
    await store.close()


def test_the_bot_is_sharded_only_when_configured() -> None:
    from bot.discord.client import GameBot
    from bot.discord.sharded import ShardedGameBot, make_bot

    def no_service(_: object) -> Any:
        return None

    plain = make_bot(Config(), no_service)
    assert type(plain) is GameBot and plain.shard_count is None
    sharded = make_bot(Config(database="postgresql://x/y", shards=Shards(4, (1, 3))), no_service)
    assert isinstance(sharded, ShardedGameBot)
    assert (sharded.shard_ids, sharded.shard_count) == ([1, 3], 4)


async def test_sharded_processes_starting_together_migrate_a_new_database_once(pg_cluster: PgCluster) -> None:
    url = pg_cluster.new_database()
    stores = await asyncio.gather(*(Store.open(url, shards=Shards(4, (shard,))) for shard in range(4)))
    assert [await store.schema_version() for store in stores] == [NEWEST_MIGRATION] * 4
    for store in stores:
        await store.close()
