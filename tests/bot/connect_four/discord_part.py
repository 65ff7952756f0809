"""The third game's Discord part: ``/connect-four`` commands, its buttons."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.buttons import ButtonSpec, Press, add_buttons
from bot.discord.commands import press_in_game, run, user_of

from .commands import FourCommands
from .plugin import KIND
from .rules import COLUMNS

if TYPE_CHECKING:
    from bot.discord.client import GameBot

GAME = "Connect Four"


def _drop(column: int) -> Press:
    return press_in_game(KIND, lambda c, ch, i, g, t: c.drop(ch, i.user.id, column, game_id=g, turn=t))


_join = press_in_game(KIND, lambda c, ch, i, g, t: c.join(ch, user_of(i)))
_resign = press_in_game(KIND, lambda c, ch, i, g, t: c.resign(ch, i.user.id, game_id=g))


BUTTONS = {
    **{
        f"{KIND}:drop-{column}": ButtonSpec(
            str(column), discord.ButtonStyle.primary, _drop(column), per_turn=True
        )
        for column in range(1, COLUMNS + 1)
    },
    f"{KIND}:join": ButtonSpec("Join", discord.ButtonStyle.success, _join),
    f"{KIND}:resign": ButtonSpec("Resign", discord.ButtonStyle.danger, _resign),
}


class FourCog(commands.GroupCog, name=GAME, group_name=KIND, group_description="Play Connect Four"):
    """The ``/connect-four`` group."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def commands(self) -> FourCommands:
        four: FourCommands = self.bot.host.commands[KIND]
        return four

    @app_commands.command(name="new", description="Open a game here (against the AI with ai_level)")
    async def new(self, interaction: discord.Interaction[GameBot], ai_level: str | None = None) -> None:
        await run(
            interaction,
            self.commands.new_game,
            interaction.channel_id,
            user_of(interaction),
            slow=True,
            game=GAME,
            in_guild=True,
            ai_level=ai_level,
        )

    @app_commands.command(name="drop", description="Drop a disc in a column (1 to 7)")
    async def drop(
        self, interaction: discord.Interaction[GameBot], column: app_commands.Range[int, 1, COLUMNS]
    ) -> None:
        await run(interaction, self.commands.drop, interaction.user.id, column, slow=True, game=GAME)

    @app_commands.command(name="resign", description="Resign this channel's game")
    async def resign(self, interaction: discord.Interaction[GameBot]) -> None:
        await run(interaction, self.commands.resign, interaction.user.id, slow=True, game=GAME)


async def setup(bot: GameBot) -> None:
    add_buttons(BUTTONS)
    await bot.add_cog(FourCog(bot))
