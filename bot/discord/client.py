"""The discord.py client: :class:`GameBot`, the bot of every registered game, set up in
:meth:`GameBot.setup_hook`."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord.ext import commands

from bot.config import Config
from bot.discord.activity import add_open_board, sync_keeping_entry_point
from bot.discord.buttons import DYNAMIC_ITEMS, submit_form
from bot.discord.errors import GameCommandTree
from bot.discord.notifier import DiscordNotifier
from bot.host import registry
from bot.host.protocols import Notifier
from bot.host.runner import Host

log = logging.getLogger(__name__)

HostFactory = Callable[[Notifier], Awaitable[Host]]
"""Builds the host around the bot's notifier (the host sends through the bot)."""


def bot_intents() -> discord.Intents:
    """The gateway intents the bot needs: guilds and DMs, nothing privileged (slash commands and
    components arrive as interactions, which need no intent)."""
    intents = discord.Intents.none()
    intents.guilds = True
    intents.dm_messages = True
    return intents


class GameBot(commands.Bot):
    """The bot: each registered game's commands and its messages' persistent buttons, over one host.

    ``config`` gives the dev guild (commands are synced there, copied from the global ones, for instant
    updates while developing; globally otherwise). ``make_host`` builds the host the commands and
    buttons call, around a :class:`~bot.discord.notifier.DiscordNotifier` of this bot; the host is built
    and started in :meth:`setup_hook` (once the bot can send) and closed in :meth:`close`. With
    ``sync_commands=False`` the commands are not sent to Discord at start-up (tests, or restarts that
    did not change any command). Messages ping no one unless they allow it (the host's mentions).
    ``options`` go to discord.py's client (a sharded bot's shards, see :mod:`bot.discord.sharded`).
    """

    def __init__(
        self, config: Config, make_host: HostFactory, *, sync_commands: bool = True, **options: Any
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=bot_intents(),
            tree_cls=GameCommandTree,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            **options,
        )
        self.config = config
        self._make_host = make_host
        self.notifier = DiscordNotifier(self, config.discord)
        self.sync_commands = sync_commands
        self._host: Host | None = None
        self._host_started = False

    @property
    def host(self) -> Host:
        """The host (built in :meth:`setup_hook`)."""
        assert self._host is not None, "the bot is not set up yet"
        return self._host

    async def prepare(self) -> None:
        """Build the host and its games (once), which needs no connection to Discord: before logging
        in, so that a game that cannot load (a lexicon...) stops the bot before it connects.

        Raises:
            Exception: as the host factory (the bot's: :class:`~bot.host.assembly.AssemblyError`).
        """
        if self._host is None:
            self._host = await self._make_host(self.notifier)

    async def setup_hook(self) -> None:
        """Build the host if :meth:`prepare` did not, add each registered game's Discord part (its
        ``setup(bot)``: commands, buttons, forms) and the Open the board button they share, register the
        persistent buttons, sync the commands if asked to, then start the host (which resumes the open
        games: timers, AI turns)."""
        await self.prepare()
        add_open_board()
        for game in registry.games():
            if game.discord is not None:
                await registry.load(game.discord).setup(self)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        if self.sync_commands:
            await self.sync_app_commands()
        await self.host.start()
        self._host_started = True

    async def on_interaction(self, interaction: discord.Interaction[GameBot]) -> None:
        """Handle every modal submission by its custom id (:func:`bot.discord.buttons.submit_form`, which
        hands it to the game of its namespace).

        discord.py dispatches this event once for every interaction, after its own routing; its modal
        store only knows the modals this process sent, and the bot's modals leave their submission to
        this handler (they do nothing on submit), so a form opened before a restart is answered after
        it, and every submission is handled exactly once.
        """
        if interaction.type is discord.InteractionType.modal_submit:
            await submit_form(interaction)

    async def close(self) -> None:
        """Stop the host's timers and AI turns, then disconnect."""
        if self._host_started:
            self._host_started = False
            await self.host.close()
        await super().close()

    async def sync_app_commands(self) -> None:
        """Send the commands to Discord: to the dev guild if the config names one, else globally (with
        the Activity configured, keeping the application's Entry Point command)."""
        guild_id = self.config.dev_guild_id
        if guild_id is None and self.config.activity is not None:
            log.info(
                "Synced %d global commands (the Entry Point's kept)",
                await sync_keeping_entry_point(self.tree),
            )
        elif guild_id is None:
            synced = await self.tree.sync()
            log.info("Synced %d global commands", len(synced))
        else:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("Synced %d commands to the dev guild %d", len(synced), guild_id)
