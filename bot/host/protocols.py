"""What the game service needs from the outside, as protocols, with the production clock (the
production renderer is :class:`bot.games.scrabble.images.renderer.PngRenderer`, given to the service by its builder,
:mod:`bot.host.assembly`; the service itself never imports Pillow).

- :class:`Notifier`: sends the service's public channel messages and DMs (the discord layer).
- :class:`AiPlayer`: chooses an AI seat's move (the process-pool executor, or an in-process one).
- :class:`Advisor`: the top moves of a seat, for hints (the move generator).
- :class:`Renderer`: the images (:class:`bot.games.scrabble.images.renderer.PngRenderer` draws PNGs with Pillow).
- :class:`Clock`: wall-clock time and sleeping (:class:`SystemClock`; tests use a fake).
- :class:`BoardLinks`: the web board's links (the web server, :class:`bot.web.server.ServerLinks`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Protocol

from bot.host.messages import BoardHeader, Message
from scrabble_core.ai import Level
from scrabble_core.board import Board
from scrabble_core.game import Game
from scrabble_core.move import Move
from scrabble_core.squares import Square
from scrabble_core.variant import Variant


class Notifier(Protocol):
    """Delivers the messages the service sends on its own (not as answers to a command)."""

    async def post(self, channel_id: int, message: Message) -> None:
        """Post ``message`` publicly in ``channel_id``. Errors are logged by the service and ignored."""
        ...

    async def direct(self, user_id: int, message: Message) -> bool:
        """Send ``message`` to ``user_id`` by DM; False if it could not be delivered (DMs closed)."""
        ...


class AiPlayer(Protocol):
    """Chooses moves for AI seats."""

    async def choose(self, game: Game, seat: int, level: Level, seed: int) -> Move:
        """The move of ``seat`` (whose turn it is) at ``level``, the same for the same ``seed`` and
        position. ``game`` is the player's own copy. The move must be legal: a move the engine refuses
        is logged and replaced by a pass."""
        ...


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A move suggested by a hint: its notation as a player types it, its score and the tiles kept."""

    move: str
    score: int
    leave: str


class Advisor(Protocol):
    """Finds the best moves of a seat, for hints."""

    async def top_moves(self, game: Game, seat: int, limit: int) -> Sequence[Suggestion]:
        """At most ``limit`` plays of ``seat`` from its rack, best first (``game`` is a copy)."""
        ...


class Renderer(Protocol):
    """Draws the images of the game (CPU work: the service calls it in a worker thread)."""

    def board(self, board: Board, last_move: Collection[Square], header: BoardHeader) -> bytes:
        """The board as a PNG, ``last_move`` highlighted, ``header`` above it."""
        ...

    def rack(self, tiles: str, variant: Variant) -> bytes:
        """A rack as a PNG."""
        ...

    def chart(self, players: Sequence[str], totals: Sequence[Sequence[int]]) -> bytes:
        """The players' scores turn by turn as a PNG chart."""
        ...


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
