"""The shard rule (which process owns a guild's games) and its settings."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import ConfigError, load_config
from bot.host.shards import Shards, shard_of

PG = 'database = "postgresql://bot@127.0.0.1:5432/scrabble"\n'


def guild_on(shard: int, count: int, n: int = 1) -> int:
    """A guild id (a snowflake) on ``shard`` of ``count``."""
    return ((n * count + shard) << 22) | 12345


def test_the_shard_of_a_guild_is_discords_rule() -> None:
    # A real snowflake: 41771983423143937 >> 22 is 9959216934 (its timestamp bits).
    assert shard_of(41771983423143937, 4) == 2
    assert shard_of(41771983423143937, 2) == 0
    assert shard_of(guild_on(3, 4), 4) == 3
    assert shard_of(guild_on(3, 4), 1) == 0
    assert shard_of(None, 4) == shard_of(0, 4) == 0  # DMs: shard 0


def test_a_process_owns_the_guilds_of_its_shards_only() -> None:
    shards = Shards(4, (2, 0))
    assert shards.ids == (0, 2)
    assert [shards.owns(guild_on(s, 4)) for s in range(4)] == [True, False, True, False]
    assert shards.owns(None)
    assert not Shards(4, (1,)).owns(0)
    assert str(shards) == "shards 0, 2 of 4"


def test_a_cluster_splits_the_shards_between_its_processes() -> None:
    assert Shards.of_cluster(0, 2, 4) == Shards(4, (0, 2))
    assert Shards.of_cluster(1, 2, 4) == Shards(4, (1, 3))
    assert Shards.of_cluster(2, 3, 4) == Shards(4, (2,))


@pytest.mark.parametrize(
    ("count", "ids", "message"),
    [
        (0, (0,), "shard_count must be between 1 and 4096, not 0"),
        (2, (), "shard_ids must name at least one shard"),
        (2, (1, 1), r"shard_ids names a shard twice: \[1, 1\]"),
        (2, (2,), r"shard_ids must be between 0 and 1 \(shard_count 2\)"),
    ],
)
def test_bad_shards_are_refused(count: int, ids: tuple[int, ...], message: str) -> None:
    with pytest.raises(ValueError, match=f"^{message}$"):
        Shards(count, ids)


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_no_shard_setting_is_one_unsharded_process(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, PG), {})
    assert config.shards is None
    assert config.shard_lease_seconds == 30.0
    assert not config.shard_standby


def test_shard_settings_are_read(tmp_path: Path) -> None:
    config = load_config(
        write(
            tmp_path,
            PG + "shard_count = 4\nshard_ids = [3, 1]\nshard_lease_seconds = 5\nshard_standby = true",
        ),
        {},
    )
    assert config.shards == Shards(4, (1, 3))
    assert config.shard_lease_seconds == 5.0
    assert config.shard_standby
    cluster = load_config(write(tmp_path, PG + "shard_count = 4\ncluster_index = 1\ncluster_count = 2"), {})
    assert cluster.shards == Shards(4, (1, 3))
    every = load_config(write(tmp_path, "shard_count = 2"), {})  # SQLite: one process, every shard
    assert every.shards == Shards(2, (0, 1))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("shard_ids = [0]", "shard_count: must be set with shard_ids, cluster_index or cluster_count"),
        ("shard_count = 0", "shard_count: must be between 1 and 4096, not 0"),
        (
            "shard_count = 2\nshard_ids = [0, 5]",
            r"shard_ids: shard_ids must be between 0 and 1 \(shard_count 2\)",
        ),
        ("shard_count = 2\nshard_ids = [true]", r"shard_ids: must be a list of integers, not \[True\]"),
        ("shard_count = 2\ncluster_index = 0", "cluster_index: cluster_index and cluster_count go together"),
        (
            "shard_count = 2\nshard_ids = [0]\ncluster_index = 0\ncluster_count = 2",
            "shard_ids: give either shard_ids or cluster_index and cluster_count, not both",
        ),
        (
            "shard_count = 2\ncluster_index = 0\ncluster_count = 3",
            r"cluster_index: cluster_count \(3\) may not exceed shard_count \(2\)",
        ),
        (
            "shard_count = 2\ncluster_index = 2\ncluster_count = 2",
            "cluster_index: cluster_index must be between 0 and 1, not 2",
        ),
        (
            "shard_count = 2\nshard_lease_seconds = 0.5",
            "shard_lease_seconds: must be between 1.0 and 3600.0, not 0.5",
        ),
    ],
)
def test_bad_shard_settings_are_named(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path, PG + text)
    with pytest.raises(ConfigError, match=f"^{path}: {message}$"):
        load_config(path, {})


def test_sqlite_cannot_split_the_shards(tmp_path: Path) -> None:
    path = write(tmp_path, "shard_count = 4\nshard_ids = [0, 1]")
    with pytest.raises(ConfigError) as error:
        load_config(path, {})
    assert str(error.value) == (
        f"{path}: shard_ids: with an SQLite database one process owns every shard (shards 0, 1 of 4 "
        "given): use a PostgreSQL database to split the shards between processes"
    )
