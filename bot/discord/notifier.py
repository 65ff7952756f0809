"""The host's :class:`~bot.host.protocols.Notifier` over discord.py: channel messages and DMs.

A channel's messages go out one at a time, in the order they were posted. discord.py waits out
Discord's rate limits (a 429's ``retry_after``) and sends the very same request again, whose nonce
keeps Discord from creating the message twice; meanwhile the channel's next messages wait. A message
with a key (an announcement's) has it as its nonce, so that a restart's second try of it, should the
crash have come between its post and the mark of its outbox entry, is not made twice either (Discord
keeps nonces for a few minutes: a restart after more than that may post it again). Messages
that wait together are merged as they arrive (:func:`~bot.discord.delivery.merged`: every text is kept
in order, a newer board image supersedes an older one; a keyed message goes alone), so a busy channel
holds about one waiting message, with one board, instead of a queue that grows with its moves. (The
host's delivery task of a channel, :mod:`bot.host.delivery`, sends one message at a time, so its
announcements, the keyed messages, never wait together here: the merging bounds a channel's queue of
other posts.)

A DM goes to the user's DM channel, whose id the notifier keeps (:data:`DM_CHANNELS_KEPT` of them):
discord.py keeps only the last 128 users' DM channels, and beyond that every DM first asked Discord for
the channel again, all those requests in one rate-limit queue, one at a time (racks DMed seconds late
with a few hundred players).
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from dataclasses import dataclass
from typing import Final

import discord

from bot.discord.buttons import view_for
from bot.discord.delivery import merged, send_to
from bot.host.messages import Message

log = logging.getLogger(__name__)

DM_CHANNELS_KEPT: Final = 100_000
"""How many users' DM channel ids the notifier keeps (the least recently used is forgotten first)."""


@dataclass
class _Outgoing:
    """A message waiting for its channel, and the futures of the posts it holds (several once merged)."""

    message: Message
    posts: list[asyncio.Future[None]]

    def settle(self, error: BaseException | None) -> None:
        """Tell the posts it holds that it went out, or failed with ``error``."""
        for post in self.posts:
            if post.done():  # the poster stopped waiting
                continue
            if error is None:
                post.set_result(None)
            elif isinstance(error, asyncio.CancelledError):
                post.cancel()
            else:
                post.set_exception(error)


class DiscordNotifier:
    """Sends the host's public messages to their channel (or thread) and racks by DM, through
    ``client``'s REST API (no gateway cache is needed: channels are addressed by id)."""

    def __init__(self, client: discord.Client) -> None:
        """Send through ``client`` (which must be logged in before the first message)."""
        self._client = client
        self._waiting: dict[int, deque[_Outgoing]] = {}
        self._senders: dict[int, asyncio.Task[None]] = {}
        self._dm_channels: dict[int, int] = {}  # user id: DM channel id, least recently used first

    async def post(self, channel_id: int, message: Message) -> None:
        """Post ``message`` in ``channel_id`` with its files and buttons, pinging only its mentions,
        after the channel's earlier messages; return once it went out, alone or merged with the
        messages that waited with it (see the module's documentation).

        Raises:
            discord.HTTPException: Discord refused it, or the merged message holding it (the host
                logs and goes on).
        """
        posted: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        waiting = self._waiting.setdefault(channel_id, deque())
        both = merged(waiting[-1].message, message) if waiting else None
        if both is not None:
            waiting[-1] = _Outgoing(both, [*waiting[-1].posts, posted])
        else:
            waiting.append(_Outgoing(message, [posted]))
        if channel_id not in self._senders:
            self._senders[channel_id] = asyncio.create_task(self._send_waiting(channel_id))
        await posted

    async def _send_waiting(self, channel_id: int) -> None:
        """Send the channel's waiting messages in order until none is left."""
        waiting = self._waiting[channel_id]
        channel = self._client.get_partial_messageable(channel_id)
        try:
            while waiting:
                outgoing = waiting.popleft()
                try:
                    await send_to(channel, outgoing.message, view_for(outgoing.message))
                except BaseException as error:
                    outgoing.settle(error)
                    if not isinstance(error, Exception):
                        raise
                else:
                    outgoing.settle(None)
        finally:
            for outgoing in waiting:  # only if the sender was cancelled: the client is closing
                outgoing.settle(asyncio.CancelledError())
            del self._senders[channel_id], self._waiting[channel_id]

    async def direct(self, user_id: int, message: Message) -> bool:
        """DM ``message`` to ``user_id``; False if Discord refuses (DMs closed: error 50007, or
        another 403).

        Raises:
            discord.HTTPException: any other failure (the host counts it as not delivered).
        """
        try:
            await send_to(await self._dm_channel(user_id), message, view_for(message))
        except discord.Forbidden as refused:
            log.info("user %d cannot be sent DMs (Discord error %d)", user_id, refused.code)
            return False
        return True

    async def _dm_channel(self, user_id: int) -> discord.abc.Messageable:
        """``user_id``'s DM channel, asked of Discord only the first time."""
        channel_id = self._dm_channels.pop(user_id, None)
        if channel_id is None:
            channel_id = (await self._client.create_dm(discord.Object(id=user_id))).id
            if len(self._dm_channels) >= DM_CHANNELS_KEPT:
                del self._dm_channels[next(iter(self._dm_channels))]
        self._dm_channels[user_id] = channel_id
        return self._client.get_partial_messageable(channel_id, type=discord.ChannelType.private)
