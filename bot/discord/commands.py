"""What every game's slash commands and buttons share: where a command is used, running a game's command
and answering with its message (deferred when slow), the users and their rights, and the help text.

Each game command finds the game by its channel (a thread is a channel of its own), calls the game's
commands (:attr:`bot.host.runner.Host.commands`) and shows the answer: ephemerally when it is private
(acknowledgements, racks, hints...), publicly otherwise. Work that may outlast Discord's 3 seconds
(rendering, AI turns, hints, DMs) is deferred if it takes more than a second, then answered by a
followup. Refusals and bugs are raised to the command tree, whose error handler
(:func:`bot.discord.errors.report_error`) answers them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Final

import discord
from discord import app_commands

from bot.discord.buttons import Press, view_for
from bot.discord.delivery import answer, answered_in_time
from bot.discord.errors import GuildOnlyError, report_error
from bot.host.messages import Message
from bot.host.seats import User
from bot.host.tasks import outcome_seen

MAX_CHOICES: Final = 25
"""The most suggestions Discord shows."""

MAX_GAME_ID: Final = 2**53
"""The largest game id a command accepts (Discord's integers are doubles)."""

MAX_CHOICE_LENGTH: Final = 100
"""The longest name or value of a suggestion Discord accepts."""

PUBLIC_OPTION: Final = "Show it to the channel (default: only you see it)"
"""The description of the ``public`` option of the commands whose answer a player may share."""

MODAL_TIMEOUT: Final = 15 * 60.0
"""Seconds discord.py keeps an opened modal (an interaction token lives 15 minutes); submissions are
handled by custom id (:func:`bot.discord.buttons.submit_form`), so this only bounds the memory the modals
hold."""


def commands_of(interaction: discord.Interaction[Any], kind: str) -> Any:
    """The commands of the game ``kind`` on the bot that received ``interaction``."""
    return interaction.client.host.commands[kind]


def help_text(commands: Iterable[app_commands.Command[Any, ..., Any] | app_commands.Group], game: str) -> str:
    """The text of a game's ``help`` command: one line per command (groups are skipped), with its
    options."""
    lines = [f"**{game} commands**"]
    for command in commands:
        if isinstance(command, app_commands.Command):
            options = " ".join(
                f"<{p.display_name}>" if p.required else f"[{p.display_name}]" for p in command.parameters
            )
            usage = f"/{command.qualified_name} {options}".rstrip()
            lines.append(f"`{usage}`: {command.description}")
    return "\n".join(lines)


def where(interaction: discord.Interaction[Any], game: str) -> tuple[int, int]:
    """The guild and channel (or thread) of a command of ``game``.

    Raises:
        GuildOnlyError: the command was used in a DM.
    """
    if interaction.guild_id is None or interaction.channel_id is None:
        raise GuildOnlyError(game)
    return interaction.guild_id, interaction.channel_id


async def run(
    interaction: discord.Interaction[Any],
    command: Callable[..., Awaitable[Message]],
    *args: Any,
    slow: bool,
    game: str,
    public: bool | None = None,
    in_guild: bool = False,
    **options: Any,
) -> None:
    """Run a command of ``game``: refuse DMs, call ``command(place, *args, **options)`` (if it is
    ``slow``, deferring the interaction when it takes more than
    :data:`~bot.discord.delivery.DEFER_AFTER`, publicly if the answer is ``public``), where ``place`` is
    the interaction's channel (or its guild if ``in_guild``), and answer with the message (and its
    buttons). A command with the ``public`` option (private by default, shared with the channel on
    request) is given it as ``public=``."""
    guild_id, channel_id = where(interaction, game)
    if public is not None:
        options["public"] = public
    work = command(guild_id if in_guild else channel_id, *args, **options)
    reply = await (answered_in_time(interaction, work, public=bool(public)) if slow else work)
    await answer(interaction, reply, view_for(reply))


def user_of(interaction: discord.Interaction[Any]) -> User:
    """The user of ``interaction`` as the host sees them: id and display name."""
    return User(interaction.user.id, interaction.user.display_name)


def can_manage(interaction: discord.Interaction[Any]) -> bool:
    """Whether the user may manage messages in the channel (moderators cancel any game)."""
    return interaction.permissions.manage_messages


async def run_and_answer(
    interaction: discord.Interaction[Any], act: Callable[[discord.Interaction[Any]], Awaitable[Message]]
) -> None:
    """Answer ``interaction`` with ``act(interaction)``'s answer and its buttons. A button pressed (or
    a form sent) on one of the bot's messages is first acknowledged by a deferred update, which lets
    the bot edit that message through the interaction later (:meth:`DiscordNotifier.pressed
    <bot.discord.notifier.DiscordNotifier.pressed>`: the buttons of a turn the press ended); its answer
    follows. Otherwise the answer is the response if it comes within
    :data:`~bot.discord.delivery.DEFER_AFTER`, else a followup after an ephemeral deferral (the game may
    take longer than Discord's 3 seconds: AI turns, hints on big racks). Any error is reported through
    :func:`bot.discord.errors.report_error`."""
    try:
        if interaction.message is not None:
            work = asyncio.ensure_future(act(interaction))  # a command is never cut in the middle
            work.add_done_callback(outcome_seen)
            await interaction.response.defer()
            interaction.client.notifier.pressed(interaction)
            reply = await asyncio.shield(work)
        else:
            reply = await answered_in_time(interaction, act(interaction))
        await answer(interaction, reply, view_for(reply))
    except Exception as error:
        await report_error(interaction, error)


Work = Callable[[Any, int, discord.Interaction[Any]], Awaitable[Message]]
"""An action of a game's commands for the user of an interaction: ``work(commands, channel_id,
interaction)``."""


async def run_in_game(interaction: discord.Interaction[Any], kind: str, game_id: int, work: Work) -> None:
    """Run ``work`` on the commands of the game ``kind`` in game ``game_id``'s channel for the user of
    ``interaction`` (:func:`run_and_answer`: the answer ephemeral, deferred if slow, errors reported); a
    game that is over is refused (:class:`~bot.host.errors.NoGameError`)."""

    async def act(clicked: discord.Interaction[Any]) -> Message:
        commands = commands_of(clicked, kind)
        return await work(commands, commands.channel_of(game_id), clicked)

    await run_and_answer(interaction, act)


ButtonAction = Callable[[Any, int, discord.Interaction[Any], int, int | None], Awaitable[Message]]
"""What a game's button does: ``action(commands, channel_id, interaction, game_id, turn)``."""


def press_in_game(kind: str, action: ButtonAction) -> Press:
    """A button's press that runs ``action`` on the commands of the game ``kind`` in the button's game for
    the user who clicks it (:func:`run_in_game`)."""

    async def press(interaction: discord.Interaction[Any], game_id: int, turn: int | None) -> None:
        await run_in_game(
            interaction, kind, game_id, lambda c, channel, i: action(c, channel, i, game_id, turn)
        )

    return press
