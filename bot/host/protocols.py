"""What the host needs from the outside, as protocols, with the production clock:

- :class:`Notifier`: sends the host's public channel messages and DMs (the Discord adapter, a console);
  :class:`QuietNotifier` sends nothing (the front ends that show the games themselves: the web board,
  Go's terminal).
- :class:`Clock`: wall-clock time and sleeping (:class:`SystemClock`; tests use a fake).
- :class:`BoardLinks`: the web board's links (the web server, :class:`bot.web.server.ServerLinks`).

Each game adds what it needs besides (its AI, its images): see its plugin.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Protocol

from bot.host.messages import Message


class Notifier(Protocol):
    """Delivers the messages the host sends on its own (not as answers to a command)."""

    async def post(self, channel_id: int, message: Message) -> None:
        """Post ``message`` publicly in ``channel_id``. Errors are logged by the host and ignored."""
        ...

    async def direct(self, user_id: int, message: Message) -> bool:
        """Send ``message`` to ``user_id`` by DM; False if it could not be delivered (DMs closed)."""
        ...

    async def typing(self, channel_id: int) -> None:
        """Show for a few seconds that the bot is working on its next message in ``channel_id`` (an AI
        thinking), where the front end can. Errors are logged by the host and ignored."""
        ...


class QuietNotifier:
    """A :class:`Notifier` whose posts go nowhere (logged at debug level) and whose DMs all count as
    delivered: for a front end that shows the games itself."""

    async def post(self, channel_id: int, message: Message) -> None:
        logging.getLogger("bot.host").debug("channel %d: %s", channel_id, message.text)

    async def direct(self, user_id: int, message: Message) -> bool:
        return True

    async def typing(self, channel_id: int) -> None:
        """Nothing: the front end shows whose turn it is."""


class Clock(Protocol):
    """Wall-clock time, for turn deadlines that survive restarts."""

    def now(self) -> float:
        """UTC epoch seconds."""
        ...

    async def sleep(self, seconds: float) -> None:
        """Wait ``seconds`` (at once if 0 or less)."""
        ...


class SystemClock:
    """The real :class:`Clock`."""

    def now(self) -> float:
        """:func:`time.time`."""
        return time.time()

    async def sleep(self, seconds: float) -> None:
        """:func:`asyncio.sleep`."""
        await asyncio.sleep(max(0.0, seconds))


class BoardLinks(Protocol):
    """Makes the web board's signed links of a game (absent when the bot serves no board)."""

    @property
    def activity(self) -> bool:
        """Whether the board opens inside Discord as an Activity: public messages then carry the
        Open the board button (:data:`bot.host.links.OPEN_BOARD`) instead of the spectator's link."""
        ...

    def spectator(self, game_id: int) -> str:
        """The link that shows game ``game_id`` without any rack (safe to post publicly)."""
        ...

    def seat(self, game_id: int, seat: int, *, renew: bool = False) -> str:
        """The private link that plays ``seat`` of game ``game_id``; with ``renew`` a new one, and the
        seat's older links stop working."""
        ...

    def program(self, game_id: int, user_id: int) -> tuple[str, str]:
        """The websocket URL and the token a program plays its seat of game ``game_id`` with: the seat
        of pseudo user ``user_id``, wherever it moves in the lobby and with the draw for the first
        turn."""
        ...
