"""Which games a bot process owns when the bot runs as several sharded processes (the one place of the
rule).

Discord splits a bot's guilds into ``shard_count`` shards by ``(guild_id >> 22) % shard_count``; DMs
belong to shard 0. A process connects the shards of its :class:`Shards` and owns the games of their
guilds: it loads, times and runs only those, and the store refuses to create a game in a guild of
another shard (see :meth:`bot.host.store.games.Store.open`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

MAX_SHARDS: Final = 4096
"""The most shards a bot may be split into."""
DM_GUILD_ID: Final = 0
"""The guild id a game outside any guild (a DM) is stored with."""


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard of ``guild_id`` among ``shard_count``: Discord's ``(guild_id >> 22) % shard_count``;
    0 for DMs (no guild, or :data:`DM_GUILD_ID`)."""
    if not guild_id:
        return 0
    return (guild_id >> 22) % shard_count


@dataclass(frozen=True, slots=True)
class Shards:
    """The shards ``ids`` (sorted, distinct, each below ``count``) of ``count`` that one process owns.

    Raises:
        ValueError: ``count`` is not between 1 and :data:`MAX_SHARDS`, ``ids`` is empty, or an id is
            repeated or not below ``count``.
    """

    count: int
    ids: tuple[int, ...]

    def __post_init__(self) -> None:
        if not 1 <= self.count <= MAX_SHARDS:
            raise ValueError(f"shard_count must be between 1 and {MAX_SHARDS}, not {self.count}")
        if not self.ids:
            raise ValueError("shard_ids must name at least one shard")
        if len(set(self.ids)) != len(self.ids):
            raise ValueError(f"shard_ids names a shard twice: {list(self.ids)}")
        if any(not 0 <= shard < self.count for shard in self.ids):
            raise ValueError(f"shard_ids must be between 0 and {self.count - 1} (shard_count {self.count})")
        object.__setattr__(self, "ids", tuple(sorted(self.ids)))

    @classmethod
    def of_cluster(cls, index: int, processes: int, count: int) -> Shards:
        """The shards of process ``index`` (from 0) of ``processes`` that split ``count`` shards: every
        ``processes``-th shard from ``index`` (process 0 of 2 over 4 shards owns 0 and 2).

        Raises:
            ValueError: ``index`` is not below ``processes``, or there are more processes than shards.
        """
        if not 0 <= index < processes:
            raise ValueError(f"cluster_index must be between 0 and {processes - 1}, not {index}")
        if processes > count:
            raise ValueError(f"cluster_count ({processes}) may not exceed shard_count ({count})")
        return cls(count, tuple(range(index, count, processes)))

    @property
    def every(self) -> bool:
        """Whether this process owns every shard (the only way with SQLite, one process)."""
        return len(self.ids) == self.count

    def owns(self, guild_id: int | None) -> bool:
        """Whether the games of ``guild_id`` (``None`` or :data:`DM_GUILD_ID`: a DM) are this process's."""
        return shard_of(guild_id, self.count) in self.ids

    def __str__(self) -> str:
        return f"shards {', '.join(map(str, self.ids))} of {self.count}"
