"""The Open the board button of every game whose board runs as a Discord Activity
(:data:`bot.host.links.OPEN_BOARD`, put on the turn messages and the lobby by the host when the Activity
is configured): pressing it answers the interaction with ``LAUNCH_ACTIVITY`` (callback type 12,
discord.py's :meth:`~discord.InteractionResponse.launch_activity`), which opens the board inside Discord,
in the channel, for the user who pressed it. Where Discord cannot launch it (it refuses the callback),
the user gets the board's link instead, privately.

Enabling Activities in the developer portal gives the application an Entry Point command (the App
Launcher's, type 4), which Discord refuses to drop in a bulk overwrite of the global commands: with the
Activity configured, the bot syncs its commands with it kept (:func:`sync_keeping_entry_point`, the one
place the bot calls discord.py's HTTP layer for commands, since its command tree only knows its own).
The entry point launches the Activity itself (Discord's handler): the page then opens the channel's game.
"""

from __future__ import annotations

import logging
from typing import Any, Final

import discord

from bot.discord.buttons import ButtonSpec, add_buttons, view_for
from bot.discord.delivery import answer
from bot.discord.errors import report_error
from bot.host.links import BOARD_LABEL, OPEN_BOARD
from bot.host.messages import Link, Message

__all__ = ["ENTRY_POINT", "OPEN_BOARD_LABEL", "add_open_board", "open_board", "sync_keeping_entry_point"]

log = logging.getLogger(__name__)

OPEN_BOARD_LABEL: Final = "Open the board"
NOT_LAUNCHED: Final = "Discord could not open the board here: open it in your browser instead."
ENTRY_POINT: Final = 4
"""The type of the Entry Point command (``PRIMARY_ENTRY_POINT``)."""
_ENTRY_POINT_FIELDS: Final = (
    "id",
    "type",
    "name",
    "description",
    "handler",
    "contexts",
    "integration_types",
    "default_member_permissions",
    "nsfw",
    "name_localizations",
    "description_localizations",
)


async def open_board(interaction: discord.Interaction[Any], game_id: int, turn: int | None) -> None:
    """Launch the board (the Activity) for the user who pressed the button; if Discord refuses, answer
    them privately with the board's link (a spectator's: their seat's link comes with their rack)."""
    try:
        await interaction.response.launch_activity()
    except discord.HTTPException as error:
        log.info("game %d: Discord refused to launch the board (%s)", game_id, error.status)
        links = interaction.client.host.links
        if links is None:
            await report_error(interaction, error)
            return
        link = Link(BOARD_LABEL, links.spectator(game_id))
        message = Message(NOT_LAUNCHED, private=True, links=(link,))
        await answer(interaction, message, view_for(message))


def add_open_board() -> None:
    """Know the Open the board button (every game's messages may carry it)."""
    add_buttons({OPEN_BOARD: ButtonSpec(OPEN_BOARD_LABEL, discord.ButtonStyle.primary, open_board)})


async def sync_keeping_entry_point(tree: discord.app_commands.CommandTree[Any]) -> int:
    """Overwrite the application's global commands with ``tree``'s, keeping its Entry Point command
    (if it has one); the number of commands sent.

    Raises:
        discord.HTTPException: Discord refused the commands.
    """
    client = tree.client
    application_id = client.application_id
    if application_id is None:
        raise discord.app_commands.MissingApplicationID
    existing = await client.http.get_global_commands(application_id)
    kept = [
        {key: command[key] for key in _ENTRY_POINT_FIELDS if key in command}
        for command in existing
        if command.get("type") == ENTRY_POINT
    ]
    payload = [command.to_dict(tree) for command in tree.get_commands()] + kept
    await client.http.bulk_upsert_global_commands(application_id, payload=payload)
    return len(payload)
