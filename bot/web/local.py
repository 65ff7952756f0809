"""A game host without Discord, for ``scrabble-bot web`` and ``scrabble-bot arena``: the bot's host with
its games (Scrabble's lexicon, the SQLite store, the AI workers) and the board's web server, in one
event loop.

Players are local pseudo-users (ids from 1) and each game gets a channel of its own; nothing is posted
anywhere (:class:`~bot.host.protocols.QuietNotifier`): the board shows everything.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import socket
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from bot.config import Config
from bot.games import register_builtin
from bot.games.go.commands import GoCommands
from bot.games.go.kind import KIND as GO
from bot.games.go.options import GoNewGame
from bot.games.scrabble.commands import NewGame, ScrabbleCommands
from bot.games.scrabble.kind import KIND
from bot.host.assembly import host_parts
from bot.host.protocols import QuietNotifier
from bot.host.runner import Host
from bot.host.seats import User, is_program
from bot.host.table import AnyTable
from bot.web.links import LinkSigner, Role, board_url, program_number
from bot.web.server import DEFAULT_LIMITS, Limits, WebServer

__all__ = ["GameEnds", "LocalGame", "QuietNotifier", "local_host"]

LOCAL_GUILD = 0


@dataclass
class GameEnds:
    """A :class:`~bot.host.listeners.GameListener` that remembers the game of each channel and how
    each game ended."""

    finished: dict[int, AnyTable] = field(default_factory=dict)
    games: dict[int, int] = field(default_factory=dict)
    _changed: asyncio.Event = field(default_factory=asyncio.Event)

    def game_changed(self, table: AnyTable) -> None:
        self.games[table.row.channel_id] = table.row.id
        if not table.row.status.is_open:
            self.finished[table.row.id] = table
            self._changed.set()

    async def wait(self, game_id: int) -> AnyTable:
        """The table of game ``game_id`` once it has ended."""
        while game_id not in self.finished:
            self._changed.clear()
            await self._changed.wait()
        return self.finished[game_id]


@dataclass(frozen=True)
class LocalGame:
    """A started local game: its id and, by seat, each seat's link (None for the AI's seats)."""

    game_id: int
    links: tuple[str | None, ...]
    spectator: str
    tokens: tuple[str | None, ...]


@dataclass
class LocalHost:
    """The games and web server of a local host; :meth:`new_game` (Scrabble) and :meth:`new_go_game`
    start games on it, :meth:`links` gives an open game's links."""

    games: Host
    server: WebServer
    base_url: str
    ends: GameEnds
    _channels: itertools.count[int] = field(default_factory=lambda: itertools.count(int(time.time() * 1000)))
    _users: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    @property
    def service(self) -> ScrabbleCommands:
        """Scrabble's commands."""
        commands: ScrabbleCommands = self.games.commands[KIND]
        return commands

    async def new_game(self, seats: Sequence[tuple[str, Role]], options: NewGame) -> LocalGame:
        """Create and start a Scrabble game: the ``seats`` (a name and ``Role.PLAYER`` or ``Role.BOT``
        each; the first creates the game) and then ``options.ai_opponents`` AI seats; return its links."""
        channel = next(self._channels)
        # a program's seat has a negative pseudo user id, as in Discord (bot.host.seats.is_program)
        users = [User(next(self._users) * (-1 if role is Role.BOT else 1), name) for name, role in seats]
        await self.service.new_game(LOCAL_GUILD, channel, users[0], options)
        for user in users[1:]:
            await self.service.join(channel, user)
        await self.service.start_game(channel, users[0].id)
        return self.links(self.ends.games[channel])

    async def new_go_game(self, names: Sequence[str], options: GoNewGame) -> LocalGame:
        """Create and start a Go game: the first of ``names`` against the second, or against the AI
        (``options.ai_level``) when there is one name; return its links."""
        go: GoCommands = self.games.commands[GO]
        channel = next(self._channels)
        users = [User(next(self._users), name) for name in names]
        await go.new_game(LOCAL_GUILD, channel, users[0], options)
        for user in users[1:]:
            await go.join(channel, user)
        return self.links(self.games.tables[channel].row.id)

    def links(self, game_id: int) -> LocalGame:
        """The links of the open game ``game_id``: each person's, each program's token, the spectators'.

        Raises:
            NoGameError: no open game has that id.
        """
        table = self.games.open_table(game_id)
        signer = self.server.signer
        tokens = tuple(
            None
            if seat.user_id is None
            else signer.token(table.row.id, Role.BOT, program_number(seat.user_id))
            if is_program(seat.user_id)
            else signer.token(table.row.id, Role.PLAYER, seat.seat)
            for seat in table.row.seats
        )
        return LocalGame(
            table.row.id,
            tuple(None if token is None else board_url(self.base_url, token) for token in tokens),
            board_url(self.base_url, signer.token(table.row.id, Role.SPECTATOR)),
            tokens,
        )


@contextlib.asynccontextmanager
async def local_host(
    config: Config,
    database: Path,
    *,
    host: str = "127.0.0.1",
    port: int = 8765,
    public_url: str | None = None,
    limits: Limits = DEFAULT_LIMITS,
) -> AsyncIterator[LocalHost]:
    """Load the lexicon and move generator, open the store and the AI workers, start the games (the
    saved ones resume) and serve the board on ``host:port``; everything is closed on exit."""
    register_builtin()
    database.parent.mkdir(parents=True, exist_ok=True)
    async with host_parts(config, database) as parts:
        games = await parts.host(QuietNotifier())
        ends = GameEnds()
        games.subscribe(ends)
        signer = LinkSigner(path=database.with_name(database.name + ".links.json"))
        server = WebServer(games.commands[KIND], signer, host=host, port=port, limits=limits)
        await games.start()
        await server.start()
        try:
            shown = socket.gethostbyname(socket.gethostname()) if host in ("0.0.0.0", "") else host
            base = public_url or f"http://{shown}:{server.port}"
            yield LocalHost(games, server, base, ends)
        finally:
            await server.close()
            await games.close()
