"""Go's Discord part: the ``/go`` commands (:mod:`~bot.games.go.discord.cog`), and its buttons and Play
form (:mod:`~bot.games.go.discord.views`). :func:`setup` adds them to the bot (discord.py's extension
pattern: the bot loads it by name from the game's registration)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from bot.discord.buttons import add_buttons, add_forms
from bot.games.go.discord.cog import GoCog
from bot.games.go.discord.views import BUTTONS, submit_form
from bot.games.go.kind import KIND

if TYPE_CHECKING:
    from bot.discord.client import GameBot


async def setup(bot: GameBot) -> None:
    """Add the ``/go`` commands, the buttons and the Play form to ``bot``."""
    add_buttons(BUTTONS)
    add_forms(KIND, submit_form)
    await bot.add_cog(GoCog(bot))
