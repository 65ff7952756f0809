"""The discord.py client: :class:`ScrabbleBot`, set up in :meth:`ScrabbleBot.setup_hook`."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import discord
from discord.ext import commands

from bot.config import Config
from bot.discord.errors import ScrabbleCommandTree
from bot.discord.notifier import DiscordNotifier
from bot.discord.settings_cog import SettingsCog
from bot.games.go.discord.cog import GoCog
from bot.games.go.discord.views import GO_DYNAMIC_ITEMS, submit_go_form
from bot.games.scrabble.commands import GameService
from bot.games.scrabble.discord.cog import ScrabbleCog
from bot.games.scrabble.discord.views import DYNAMIC_ITEMS, submit_form
from bot.host.protocols import Notifier

log = logging.getLogger(__name__)

ServiceFactory = Callable[[Notifier], GameService]
"""Builds the game service around the bot's notifier (the service sends through the bot)."""


def bot_intents() -> discord.Intents:
    """The gateway intents the bot needs: guilds and DMs, nothing privileged (slash commands and
    components arrive as interactions, which need no intent)."""
    intents = discord.Intents.none()
    intents.guilds = True
    intents.dm_messages = True
    return intents


class ScrabbleBot(commands.Bot):
    """The Scrabble bot: the ``/scrabble`` and ``/go`` commands and the game messages' persistent buttons.

    ``config`` gives the dev guild (commands are synced there, copied from the global ones, for instant
    updates while developing; globally otherwise). ``make_service`` builds the game service the
    commands and buttons call, around a :class:`~bot.discord.notifier.DiscordNotifier` of this bot; the
    service is started in :meth:`setup_hook` (once the bot can send) and closed in :meth:`close`. With
    ``sync_commands=False`` the commands are not sent to Discord at start-up (tests, or restarts that
    did not change any command). Messages ping no one unless they allow it (the service's mentions).
    ``options`` go to discord.py's client (a sharded bot's shards, see :mod:`bot.discord.sharded`).
    """

    def __init__(
        self, config: Config, make_service: ServiceFactory, *, sync_commands: bool = True, **options: Any
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=bot_intents(),
            tree_cls=ScrabbleCommandTree,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            **options,
        )
        self.config = config
        self.service = make_service(DiscordNotifier(self))
        self.sync_commands = sync_commands
        self._service_started = False

    async def setup_hook(self) -> None:
        """Add the cog, register the persistent buttons, sync the commands if asked to, then start the
        game service (which resumes the open games: timers, AI turns)."""
        await self.add_cog(ScrabbleCog(self))
        await self.add_cog(SettingsCog(self))
        await self.add_cog(GoCog(self))
        self.add_dynamic_items(*DYNAMIC_ITEMS, *GO_DYNAMIC_ITEMS)
        if self.sync_commands:
            await self.sync_app_commands()
        await self.service.start()
        self._service_started = True

    async def on_interaction(self, interaction: discord.Interaction[ScrabbleBot]) -> None:
        """Handle every modal submission by its custom id (:func:`bot.games.scrabble.discord.views.submit_form` for
        Scrabble's forms, :func:`bot.games.go.discord.views.submit_go_form` for Go's: each ignores the other's).

        discord.py dispatches this event once for every interaction, after its own routing; its modal
        store only knows the modals this process sent, and the bot's modals leave their submission to
        this handler (they do nothing on submit), so a Play or Exchange form opened before a restart is
        answered after it, and every submission is handled exactly once.
        """
        if interaction.type is discord.InteractionType.modal_submit:
            await submit_form(interaction)
            await submit_go_form(interaction)

    async def close(self) -> None:
        """Stop the game service's timers and AI turns, then disconnect."""
        if self._service_started:
            self._service_started = False
            await self.service.close()
        await super().close()

    async def sync_app_commands(self) -> None:
        """Send the commands to Discord: to the dev guild if the config names one, else globally."""
        guild_id = self.config.dev_guild_id
        if guild_id is None:
            synced = await self.tree.sync()
            log.info("Synced %d global commands", len(synced))
        else:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("Synced %d commands to the dev guild %d", len(synced), guild_id)
