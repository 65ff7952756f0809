"""Scrabble's Discord part: the ``/scrabble`` commands (:mod:`~bot.games.scrabble.discord.cog`), the
server's settings (:mod:`~bot.games.scrabble.discord.settings_cog`: its features, its ratings rebuilt),
and the buttons and Play and Exchange forms (:mod:`~bot.games.scrabble.discord.views`). :func:`setup`
adds them to the bot (discord.py's extension pattern: the bot loads it by name from the game's
registration)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.discord.buttons import add_buttons, add_forms
from bot.games.scrabble.discord.cog import ScrabbleCog
from bot.games.scrabble.discord.settings_cog import SettingsCog
from bot.games.scrabble.discord.views import BUTTONS, submit_form
from bot.games.scrabble.kind import KIND

if TYPE_CHECKING:
    from bot.discord.client import GameBot


async def setup(bot: GameBot) -> None:
    """Add the ``/scrabble`` and ``/scrabble-settings`` commands, the buttons and the forms to ``bot``."""
    add_buttons(BUTTONS)
    add_forms(KIND, submit_form)
    await bot.add_cog(ScrabbleCog(bot))
    await bot.add_cog(SettingsCog(bot))
