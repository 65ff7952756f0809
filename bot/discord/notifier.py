"""The game service's :class:`~bot.service.protocols.Notifier` over discord.py: channel messages and DMs."""

from __future__ import annotations

import logging

import discord

from bot.discord.delivery import send_to
from bot.discord.views import view_for
from bot.messages import Message

log = logging.getLogger(__name__)


class DiscordNotifier:
    """Sends the service's public messages to their channel (or thread) and racks by DM, through
    ``client``'s REST API (no gateway cache is needed: channels are addressed by id)."""

    def __init__(self, client: discord.Client) -> None:
        """Send through ``client`` (which must be logged in before the first message)."""
        self._client = client

    async def post(self, channel_id: int, message: Message) -> None:
        """Post ``message`` in ``channel_id`` with its files and buttons, pinging only its mentions.

        Raises:
            discord.HTTPException: Discord refused it (the service logs and goes on).
        """
        await send_to(self._client.get_partial_messageable(channel_id), message, view_for(message))

    async def direct(self, user_id: int, message: Message) -> bool:
        """DM ``message`` to ``user_id``; False if Discord refuses (DMs closed: error 50007, or
        another 403).

        Raises:
            discord.HTTPException: any other failure (the service counts it as not delivered).
        """
        try:
            channel = await self._client.create_dm(discord.Object(id=user_id))
            await send_to(channel, message, view_for(message))
        except discord.Forbidden as refused:
            log.info("user %d cannot be sent DMs (Discord error %d)", user_id, refused.code)
            return False
        return True
