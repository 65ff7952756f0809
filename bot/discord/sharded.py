"""The bot as one process of a sharded bot: discord.py's :class:`~discord.ext.commands.AutoShardedBot`
connecting the shards the config gives (see :mod:`bot.host.shards`), otherwise the same :class:`ScrabbleBot`."""

from __future__ import annotations

from discord.ext import commands

from bot.config import Config
from bot.discord.client import ScrabbleBot, ServiceFactory


class ShardedScrabbleBot(ScrabbleBot, commands.AutoShardedBot):
    """:class:`ScrabbleBot` over several gateway connections, one per shard of its process."""


def make_bot(config: Config, make_service: ServiceFactory) -> ScrabbleBot:
    """The bot the config asks for: :class:`ShardedScrabbleBot` connecting ``config.shards`` (and only
    them), or the unsharded :class:`ScrabbleBot` (one connection, every guild) without shards."""
    if config.shards is None:
        return ScrabbleBot(config, make_service)
    return ShardedScrabbleBot(
        config, make_service, shard_ids=list(config.shards.ids), shard_count=config.shards.count
    )
