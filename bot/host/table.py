"""An open game in memory, :class:`Table`: its stored row, its options and, once started, its state, as
its plugin reads them; and :class:`Tables`, the open games by channel and by id."""

from __future__ import annotations

from collections.abc import Iterator, MutableMapping
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from bot.host.errors import GameNotStartedError, NotSeatedError
from bot.host.store.rows import GameRow

O = TypeVar("O")  # noqa: E741 (a game's options)
S = TypeVar("S")  # a game's state


@dataclass(frozen=True, slots=True)
class Table(Generic[O, S]):
    """An open (or just closed) game: never mutated, a change makes a new one. ``row`` is as stored;
    ``options`` and ``game`` are the plugin's reading of its options and state (``game`` is ``None``
    in the lobby). A plugin subclasses it to word :attr:`NOT_STARTED` and add what its game reads."""

    row: GameRow
    options: O
    game: S | None

    NOT_STARTED: ClassVar[str] = "The game has not started yet"
    """What a game action is told while the game is in its lobby."""

    def started(self) -> S:
        """The state of a started game.

        Raises:
            GameNotStartedError: the game is still in its lobby.
        """
        if self.game is None:
            raise GameNotStartedError(self.NOT_STARTED)
        return self.game

    def seat_of(self, user_id: int) -> int:
        """The seat of ``user_id``.

        Raises:
            NotSeatedError: they do not play in this game.
        """
        for seat in self.row.seats:
            if seat.user_id == user_id:
                return seat.seat
        raise NotSeatedError


AnyTable = Table[Any, Any]


class Tables(MutableMapping[int, AnyTable]):
    """The open games by channel, indexed by game id as well (:meth:`channel_of`)."""

    def __init__(self) -> None:
        """No game yet."""
        self._by_channel: dict[int, AnyTable] = {}
        self._channels: dict[int, int] = {}

    def __getitem__(self, channel_id: int) -> AnyTable:
        return self._by_channel[channel_id]

    def __setitem__(self, channel_id: int, table: AnyTable) -> None:
        old = self._by_channel.get(channel_id)
        if old is not None:
            del self._channels[old.row.id]
        self._by_channel[channel_id] = table
        self._channels[table.row.id] = channel_id

    def __delitem__(self, channel_id: int) -> None:
        table = self._by_channel.pop(channel_id)
        del self._channels[table.row.id]

    def __iter__(self) -> Iterator[int]:
        return iter(self._by_channel)

    def __len__(self) -> int:
        return len(self._by_channel)

    def channel_of(self, game_id: int) -> int | None:
        """The channel of the open game ``game_id``, if it is open."""
        return self._channels.get(game_id)
