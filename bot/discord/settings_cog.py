"""The ``/scrabble-settings`` command group: a server's settings, for those who can manage the server.

Discord shows the group only to members with the Manage Server permission by default
(``default_permissions``); a server can give it to others in its integration settings, and the bot
follows what the server chose. The group is not offered in DMs (``guild_only``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import discord
from discord import app_commands
from discord.ext import commands

from bot.games.scrabble.commands import GameService
from bot.games.scrabble.discord.cog import run
from bot.host.features import DESCRIPTIONS, Feature

if TYPE_CHECKING:
    from bot.discord.client import ScrabbleBot

FEATURES: Final = [
    app_commands.Choice(name=f"{feature.value}: {DESCRIPTIONS[feature]}"[:100], value=feature.value)
    for feature in Feature
]
"""The choices of ``enable`` and ``disable``: the features a server can turn off."""


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class SettingsCog(
    commands.GroupCog,
    name="Scrabble settings",
    group_name="scrabble-settings",
    group_description="Scrabble settings of this server (for those who can manage it)",
):
    """The ``/scrabble-settings`` group."""

    def __init__(self, bot: ScrabbleBot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="features", description="Show which Scrabble features are on in this server")
    async def features(self, interaction: discord.Interaction[ScrabbleBot]) -> None:
        """Each feature, on or off, ephemerally."""
        await run(interaction, GameService.features, slow=False, in_guild=True)

    @app_commands.command(name="enable", description="Turn a Scrabble feature on in this server")
    @app_commands.describe(feature="The feature to turn on")
    @app_commands.choices(feature=FEATURES)
    async def enable(self, interaction: discord.Interaction[ScrabbleBot], feature: str) -> None:
        """Turn ``feature`` on, ephemerally."""
        await run(interaction, GameService.set_feature, feature, True, slow=False, in_guild=True)

    @app_commands.command(name="disable", description="Turn a Scrabble feature off in this server")
    @app_commands.describe(feature="The feature to turn off")
    @app_commands.choices(feature=FEATURES)
    async def disable(self, interaction: discord.Interaction[ScrabbleBot], feature: str) -> None:
        """Turn ``feature`` off, ephemerally."""
        await run(interaction, GameService.set_feature, feature, False, slow=False, in_guild=True)

    @app_commands.command(
        name="rebuild-ratings", description="Recompute this server's ratings from its finished rated games"
    )
    async def rebuild_ratings(self, interaction: discord.Interaction[ScrabbleBot]) -> None:
        """Rebuild the ratings (deferred: it replays every rated game), ephemerally."""
        await run(interaction, GameService.rebuild_ratings, slow=True, in_guild=True)
