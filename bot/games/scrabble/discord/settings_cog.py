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

from bot.discord.commands import run
from bot.host.commands import GameCommands
from bot.host.features import Feature, description

GAME: Final = "Scrabble"
"""How the settings' refusal in a DM names the games (the group is offered in servers only)."""

if TYPE_CHECKING:
    from bot.discord.client import GameBot


def feature_choices() -> list[app_commands.Choice[str]]:
    """The choices of ``enable`` and ``disable``: the features a server can turn off, described with the
    registered games' commands."""
    return [
        app_commands.Choice(name=f"{feature.value}: {description(feature)}"[:100], value=feature.value)
        for feature in Feature
    ]


FEATURES: Final = feature_choices()


@app_commands.guild_only()
@app_commands.default_permissions(manage_guild=True)
class SettingsCog(
    commands.GroupCog,
    name="Scrabble settings",
    group_name="scrabble-settings",
    group_description="Scrabble settings of this server (for those who can manage it)",
):
    """The ``/scrabble-settings`` group."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        self.settings = GameCommands(bot.host)
        super().__init__()

    @app_commands.command(name="features", description="Show which Scrabble features are on in this server")
    async def features(self, interaction: discord.Interaction[GameBot]) -> None:
        """Each feature, on or off, ephemerally."""
        await run(interaction, self.settings.features, slow=False, in_guild=True, game=GAME)

    @app_commands.command(name="enable", description="Turn a Scrabble feature on in this server")
    @app_commands.describe(feature="The feature to turn on")
    @app_commands.choices(feature=FEATURES)
    async def enable(self, interaction: discord.Interaction[GameBot], feature: str) -> None:
        """Turn ``feature`` on, ephemerally."""
        await run(interaction, self.settings.set_feature, feature, True, slow=False, in_guild=True, game=GAME)

    @app_commands.command(name="disable", description="Turn a Scrabble feature off in this server")
    @app_commands.describe(feature="The feature to turn off")
    @app_commands.choices(feature=FEATURES)
    async def disable(self, interaction: discord.Interaction[GameBot], feature: str) -> None:
        """Turn ``feature`` off, ephemerally."""
        await run(
            interaction, self.settings.set_feature, feature, False, slow=False, in_guild=True, game=GAME
        )

    @app_commands.command(
        name="rebuild-ratings", description="Recompute this server's ratings from its finished rated games"
    )
    async def rebuild_ratings(self, interaction: discord.Interaction[GameBot]) -> None:
        """Rebuild the ratings (deferred: it replays every rated game), ephemerally."""
        await run(interaction, self.settings.rebuild_ratings, slow=True, in_guild=True, game=GAME)
