"""The one place where errors raised while handling an interaction are turned into replies.

Refusals (the host's :class:`~bot.host.errors.ServiceError` and a registered game's engine errors:
:func:`bot.host.registry.is_refusal`) are the user's mistake: they get the error's text, ephemerally.
Anything else is a bug: it is logged at ERROR with its traceback and an error id, and the user gets a
short apology quoting that id so the log entry can be found.
"""

from __future__ import annotations

import logging
import secrets
from typing import Any

import discord
from discord import app_commands

from bot.discord.delivery import MAX_CONTENT, PUBLIC_DEFERRAL, answer
from bot.host.errors import ServiceError
from bot.host.messages import Message, shorten
from bot.host.registry import is_refusal

log = logging.getLogger(__name__)


class GuildOnlyError(ServiceError):
    """A game command used outside a server (in a DM); ``game`` names the game."""

    def __init__(self, game: str) -> None:
        super().__init__(f"{game} games are played in server channels: use this command in a server.")


class UnknownFormError(ServiceError):
    """A modal submission in the bot's namespace that is not one of its forms, or lacks its input."""

    def __init__(self) -> None:
        super().__init__("This form is not one the bot knows: use the game's buttons again.")


def new_error_id() -> str:
    """A short random hex id that ties an apology to its log entry."""
    return secrets.token_hex(3)


def apology(error_id: str) -> str:
    """What the user reads when something unexpected went wrong."""
    return f"Sorry, something went wrong (error id {error_id})."


async def report_error(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """Answer ``interaction`` about ``error``, ephemerally, as a response or (if the interaction was
    already acknowledged) a followup. App-command wrappers are unwrapped first. After a public deferral
    the public "thinking" message is deleted first, so the refusal stays private."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if is_refusal(error):
        text = str(error)
    else:
        error_id = new_error_id()
        log.error(
            "Unexpected error %s handling %s interaction %s from user %s",
            error_id,
            interaction.type.name,
            _describe(interaction),
            interaction.user.id,
            exc_info=error,
        )
        text = apology(error_id)
    try:
        if interaction.response.is_done() and interaction.extras.get(PUBLIC_DEFERRAL):
            await interaction.delete_original_response()
        await answer(interaction, Message(shorten(text, MAX_CONTENT), private=True))
    except discord.HTTPException:
        log.warning("Could not tell the user about an error in interaction %s", interaction.id, exc_info=True)


def _describe(interaction: discord.Interaction[Any]) -> str:
    """The command's qualified name, or the component's custom id, for the log."""
    if interaction.command is not None:
        return f"/{interaction.command.qualified_name}"
    data: dict[str, object] = dict(interaction.data or {})
    return str(data.get("custom_id", interaction.id))


class GameCommandTree(app_commands.CommandTree[Any]):
    """The bot's command tree: its :meth:`on_error` hands every app-command error to :func:`report_error`."""

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """Reply to the user about ``error`` (see :func:`report_error`)."""
        await report_error(interaction, error)
