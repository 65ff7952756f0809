"""The third game's parts over a host."""

from __future__ import annotations

from bot.host.registry import GameParts
from bot.host.setup import GameContext

from .commands import FourCommands
from .plugin import FourPlugin


async def build(context: GameContext) -> GameParts:
    plugin = FourPlugin(context.pool)
    return GameParts(plugin, FourCommands(context.host, plugin))
