"""The third game's commands, over the host's primitives."""

from __future__ import annotations

from dataclasses import replace

from bot.host.commands import GameCommands
from bot.host.errors import AlreadySeatedError, GameStartedError
from bot.host.messages import Message, mention
from bot.host.runner import Host
from bot.host.seats import User, seat_name
from bot.host.store import GameRow, GameStatus, LogEntry, SeatRow

from .plugin import KIND, Drop, FourPlugin, FourTable, Options, announcement
from .rules import Board


class FourCommands(GameCommands):
    """New game, join, drop, resign."""

    def __init__(self, host: Host, plugin: FourPlugin) -> None:
        super().__init__(host)
        self.plugin = plugin

    def board(self, channel_id: int) -> Board:
        """A copy of the channel's board."""
        board: Board = self.host.table(self.plugin, channel_id).started()
        return board.copy()

    async def new_game(
        self,
        guild_id: int,
        channel_id: int,
        user: User,
        *,
        ai_level: str | None = None,
        turn_seconds: int = 0,
    ) -> Message:
        """Open a game for ``user``: against the AI at once, else a lobby for the next to join."""
        async with self.host.lock(channel_id):
            now = self.host.clock.now()
            creator = SeatRow(0, user.id, seat_name(user.name, []))
            draft = GameRow(
                0,
                KIND,
                guild_id,
                channel_id,
                user.id,
                GameStatus.LOBBY,
                {},
                1,
                None,
                (creator,),
                None,
                False,
                now,
                now,
            )
            options = Options(turn_seconds, ai_level)
            table = await self.host.create(
                self.plugin, FourTable(draft, options, None), [LogEntry("created", 0, {}, now)]
            )
            assert isinstance(table, FourTable)
            if ai_level is None:
                message = Message(
                    f"{mention(user.id)} opened a Connect Four game: press Join to play.",
                    buttons=(f"{KIND}:join",),
                    game=table.row.id,
                )
                self.host.post(channel_id, message)
                return Message("Game created.", private=True)
            await self._start(table, SeatRow(1, None, "AI", ai_level), f"{mention(user.id)} plays the AI.")
        return Message("Game started against the AI.", private=True)

    async def join(self, channel_id: int, user: User) -> Message:
        """Take the second seat, which starts the game."""
        async with self.host.lock(channel_id):
            table = self.host.table(self.plugin, channel_id)
            assert isinstance(table, FourTable)
            if table.game is not None:
                raise GameStartedError
            if table.row.creator_id == user.id:
                raise AlreadySeatedError
            seat = SeatRow(1, user.id, seat_name(user.name, [table.row.seats[0].name]))
            await self._start(table, seat, f"{mention(user.id)} joined.")
        return Message("You joined the game.", private=True)

    async def _start(self, table: FourTable, second: SeatRow, line: str) -> None:
        now = self.host.clock.now()
        seats = (table.row.seats[0], second)
        timed = table.options.turn_seconds
        row = replace(
            table.row,
            status=GameStatus.ACTIVE,
            seats=seats,
            deadline=now + table.options.turn_seconds if timed else None,
            updated_at=now,
        )
        new = FourTable(row, table.options, Board())
        news = announcement(0, [line])
        pending = await self.host.save(new, [LogEntry("started", 1, {}, now)], announcement=news.data)
        self.host.announce(new, news, pending)
        await self.host.schedule(new)

    async def drop(
        self,
        channel_id: int,
        user_id: int,
        column: int,
        *,
        game_id: int | None = None,
        turn: int | None = None,
    ) -> Message:
        """``user_id`` drops a disc in ``column`` (from 1)."""
        await self.host.act(self.plugin, channel_id, user_id, game_id, turn, Drop(column - 1))
        return Message(f"You dropped a disc in column {column}.", private=True)

    async def resign(self, channel_id: int, user_id: int, *, game_id: int | None = None) -> Message:
        """``user_id`` resigns."""
        await self.host.act(self.plugin, channel_id, user_id, game_id, None, Drop(None))
        return Message("You resigned.", private=True)
