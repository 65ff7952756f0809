"""The host's :class:`~bot.host.protocols.Notifier` over discord.py: channel messages, DMs and the typing
indicator, within Discord's rate limits.

Every REST request goes out within the bot's budget (:class:`~bot.discord.budget.RestBudget`: Discord's
documented limits, configurable), so that Discord never has to answer 429; discord.py would wait out a
429 anyway (and send the same request again, whose nonce keeps Discord from creating the message twice).
A channel's messages go out one at a time, in the order they were posted. A message with a key (an
announcement's) has it as its nonce, so that a restart's second try of it, should the crash have come
between its post and the mark of its outbox entry, is not made twice either (Discord keeps nonces for a
few minutes: a restart after more than that may post it again). Messages that wait together are merged
as they arrive (:func:`~bot.discord.delivery.merged`: every text is kept in order, a newer board image
supersedes an older one; a keyed message goes alone), so a busy channel holds about one waiting message,
with one board, instead of a queue that grows with its moves. (The host's delivery task of a channel,
:mod:`bot.host.delivery`, sends one message at a time and merges its own announcements when they wait:
the merging here bounds a channel's queue of other posts.)

A game's messages: a new public message of a game takes the game buttons of the game's previous one
away (its links stay), so that nobody presses a stale Play; a message that is an ``update`` (a lobby as
players join) edits the game's previous one in place instead. Such an edit goes through the interaction
of a button pressed on that message when there is one (:meth:`DiscordNotifier.pressed`: an interaction
answer, which Discord does not count), else as a REST request. What the notifier remembers of a game's
messages is in memory: after a restart, the first new message leaves the buttons of the last one made
before it (they refuse a stale turn anyway).

A DM goes to the user's DM channel, whose id the notifier keeps (:data:`DM_CHANNELS_KEPT` of them):
discord.py keeps only the last 128 users' DM channels, and beyond that every DM first asked Discord for
the channel again.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from dataclasses import dataclass
from typing import Any, Final

import discord

from bot.config import DiscordLimits
from bot.discord.budget import RestBudget
from bot.discord.buttons import view_for
from bot.discord.delivery import mentions_of, merged, send_to
from bot.host.messages import Link, Message

log = logging.getLogger(__name__)

DM_CHANNELS_KEPT: Final = 100_000
"""How many users' DM channel ids the notifier keeps (the least recently used is forgotten first)."""
GAMES_KEPT: Final = 100_000
"""How many games' newest messages the notifier keeps (the least recently posted is forgotten first)."""
PRESS_SECONDS: Final = 14 * 60.0
"""How long a button's interaction may edit its message (Discord keeps its token 15 minutes)."""


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


@dataclass(frozen=True, slots=True)
class _Shown:
    """A game's newest public message: where it is, whether it has game buttons, its links."""

    channel_id: int
    message_id: int
    buttons: bool
    links: tuple[Link, ...]


@dataclass(frozen=True, slots=True)
class _Press:
    """A button pressed on a message, whose interaction may edit that message until ``until``
    (monotonic seconds)."""

    interaction: discord.Interaction[Any]
    until: float


class DiscordNotifier:
    """Sends the host's public messages to their channel (or thread), racks by DM and the typing
    indicator, through ``client``'s REST API (no gateway cache is needed: channels are addressed by id),
    within ``limits``."""

    def __init__(self, client: discord.Client, limits: DiscordLimits | None = None) -> None:
        """Send through ``client`` (which must be logged in before the first message)."""
        self._client = client
        self.budget = RestBudget(limits or DiscordLimits())
        self._waiting: dict[int, deque[_Outgoing]] = {}
        self._senders: dict[int, asyncio.Task[None]] = {}
        self._dm_channels: dict[int, int] = {}  # user id: DM channel id, least recently used first
        self._shown: dict[int, _Shown] = {}  # game id: its newest public message, least recent first
        self._presses: dict[int, _Press] = {}  # message id: the newest press on it

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
        try:
            while waiting:
                # Taken only once Discord's limits let it go: what is announced meanwhile merges into it.
                await self.budget.ready(("post", channel_id))
                outgoing = waiting.popleft()
                try:
                    await self._send(channel_id, outgoing.message)
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

    async def _send(self, channel_id: int, message: Message) -> None:
        """Send one message of the channel: an update edits its game's newest message in place; a new
        message of a game takes the buttons of the game's previous one away once it is out."""
        game = message.game
        shown = None if game is None else self._shown.get(game)
        if game is not None and message.update and shown is not None and shown.channel_id == channel_id:
            fields = {
                "content": message.text,
                "view": view_for(message),
                "allowed_mentions": mentions_of(message.mentions),
            }
            try:
                await self._edit(shown, fields)
            except discord.HTTPException as error:  # deleted meanwhile: it is posted anew
                log.info("could not edit message %d (%s): posted anew", shown.message_id, error)
            else:
                self._remember(
                    game, _Shown(channel_id, shown.message_id, bool(message.buttons), message.links)
                )
                return
        channel = self._client.get_partial_messageable(channel_id)
        sent = await send_to(
            channel, message, view_for(message), lambda: self.budget.request(("post", channel_id))
        )
        if game is None:
            return
        self._remember(game, _Shown(channel_id, sent.id, bool(message.buttons), message.links))
        if shown is not None and shown.buttons:
            try:
                await self._edit(shown, {"view": view_for(Message("", links=shown.links))})
            except discord.HTTPException as error:  # deleted, or no longer editable: nothing to take
                log.info("the buttons of message %d stay (%s)", shown.message_id, error)

    async def _edit(self, shown: _Shown, fields: dict[str, Any]) -> None:
        """Edit ``shown``'s message with ``fields`` (discord.py's: content, view...), through the
        interaction of a button pressed on it if one may still edit it.

        Raises:
            discord.HTTPException: Discord refused the edit.
        """
        press = self._presses.pop(shown.message_id, None)
        if press is not None and press.until > time.monotonic():
            try:
                await press.interaction.edit_original_response(**fields)
                return
            except discord.HTTPException as error:
                log.info("could not edit message %d through its button (%s)", shown.message_id, error)
        channel = self._client.get_partial_messageable(shown.channel_id)
        async with self.budget.request(("edit", shown.channel_id)):
            await channel.get_partial_message(shown.message_id).edit(**fields)

    def _remember(self, game_id: int, shown: _Shown) -> None:
        """Keep ``shown`` as the game's newest message (forgetting the least recent game's if full)."""
        self._shown.pop(game_id, None)
        if len(self._shown) >= GAMES_KEPT:
            del self._shown[next(iter(self._shown))]
        self._shown[game_id] = shown

    def pressed(self, interaction: discord.Interaction[Any]) -> None:
        """``interaction``, a button press (or a form it opened) on one of the bot's messages, was
        acknowledged by a deferred update: it may edit that message for a while, which the notifier
        does rather than send a request of its own (see the module's documentation)."""
        message = interaction.message
        if message is None:
            return
        now = time.monotonic()
        for stale in [key for key, press in self._presses.items() if press.until <= now]:
            del self._presses[stale]
        self._presses[message.id] = _Press(interaction, now + PRESS_SECONDS)

    async def typing(self, channel_id: int) -> None:
        """Show the typing indicator in ``channel_id`` (Discord shows it for ten seconds, or until the
        bot's next message there).

        Raises:
            discord.HTTPException: Discord refused it.
        """
        async with self.budget.request(("typing", channel_id)):
            await self._client.http.send_typing(channel_id)

    async def direct(self, user_id: int, message: Message) -> bool:
        """DM ``message`` to ``user_id``; False if Discord refuses (DMs closed: error 50007, or
        another 403).

        Raises:
            discord.HTTPException: any other failure (the host counts it as not delivered).
        """
        try:
            channel = await self._dm_channel(user_id)
            await send_to(
                channel, message, view_for(message), lambda: self.budget.request(("post", channel.id))
            )
        except discord.Forbidden as refused:
            log.info("user %d cannot be sent DMs (Discord error %d)", user_id, refused.code)
            return False
        return True

    async def _dm_channel(self, user_id: int) -> discord.PartialMessageable:
        """``user_id``'s DM channel, asked of Discord only the first time."""
        channel_id = self._dm_channels.pop(user_id, None)
        if channel_id is None:
            async with self.budget.request("dm channels"):
                channel_id = (await self._client.create_dm(discord.Object(id=user_id))).id
            if len(self._dm_channels) >= DM_CHANNELS_KEPT:
                del self._dm_channels[next(iter(self._dm_channels))]
        self._dm_channels[user_id] = channel_id
        return self._client.get_partial_messageable(channel_id, type=discord.ChannelType.private)
