"""The bot as one process of a sharded bot: discord.py's :class:`~discord.ext.commands.AutoShardedBot`
connecting the shards the config gives (see :mod:`bot.host.shards`), otherwise the same :class:`GameBot`."""

from __future__ import annotations

from discord.ext import commands

from bot.config import Config
from bot.discord.client import GameBot, HostFactory


class ShardedGameBot(GameBot, commands.AutoShardedBot):
    """:class:`GameBot` over several gateway connections, one per shard of its process."""


def make_bot(config: Config, make_host: HostFactory) -> GameBot:
    """The bot the config asks for: :class:`ShardedGameBot` connecting ``config.shards`` (and only
    them), or the unsharded :class:`GameBot` (one connection, every guild) without shards."""
    if config.shards is None:
        return GameBot(config, make_host)
    return ShardedGameBot(
        config, make_host, shard_ids=list(config.shards.ids), shard_count=config.shards.count
    )
