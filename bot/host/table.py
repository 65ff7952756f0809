"""An open game in memory, :class:`Table`: its stored row and engine state, who sits where, and when
its current turn runs out."""

from __future__ import annotations

from collections.abc import Iterator, MutableMapping
from dataclasses import dataclass

from bot.host.errors import GameNotStartedError, NotSeatedError, StaleTurnError
from bot.host.store.games import GameRow
from scrabble_core.game import ChallengeMode, Game


@dataclass(frozen=True, slots=True)
class Table:
    """An open game in memory: its stored row and, once started, its engine state (never mutated:
    actions work on a copy)."""

    row: GameRow
    game: Game | None

    def seat_of(self, user_id: int) -> int:
        """The seat of ``user_id``.

        Raises:
            NotSeatedError: they do not play in this game.
        """
        for seat in self.row.seats:
            if seat.user_id == user_id:
                return seat.seat
        raise NotSeatedError

    def started(self) -> Game:
        """The engine state of a started game.

        Raises:
            GameNotStartedError: the game is still in its lobby.
        """
        if self.game is None:
            raise GameNotStartedError
        return self.game

    def check_turn(self, turn: int | None, *, challenge: bool = False) -> Game:
        """The engine state of a started game whose move number (the length of its history) is
        ``turn``, when given: a command made for a turn that is over is refused.

        Raises:
            GameNotStartedError; StaleTurnError: the game has moved on since ``turn`` (worded for a
                challenge when ``challenge``).
        """
        game = self.started()
        if turn is not None and turn != len(game.history):
            raise StaleTurnError(challenge=challenge)
        return game

    def challenge_window(self, game: Game) -> int | None:
        """The human seat whose play an AI on turn in ``game`` waits a challenge window after, if it
        does: in games with challenges and more than one human, after a human's play that can still be
        challenged."""
        played = game.challengeable
        seats = self.row.seats
        if (
            game.challenge_mode is ChallengeMode.VOID
            or played is None
            or seats[played].is_ai
            or not seats[game.current].is_ai
            or sum(not seat.is_ai for seat in seats) < 2
        ):
            return None
        return played

    def turn_key(self) -> tuple[int, int]:
        """What identifies the current turn: the history's length and the seat to play."""
        game = self.started()
        return len(game.history), game.current

    def deadline_after(
        self, game: Game, actor: int | None, now: float, window: int = 0
    ) -> tuple[float | None, bool]:
        """The turn deadline and whether its reminder went out, once ``actor`` has acted and the engine
        state is ``game``: kept while the same turn goes on (someone else challenged), a new one for a
        new human turn, none without a limit. For an AI on turn, the end of its challenge window
        (:meth:`challenge_window`, ``window`` seconds), or none."""
        if game.is_over:
            return None, False
        if self.row.seats[game.current].is_ai:
            opens = window > 0 and actor is not None and self.challenge_window(game) == actor
            return (now + window if opens else None), False
        limit = self.row.options.turn_seconds
        if not limit:
            return None, False
        before = self.started()
        if self.row.deadline is not None and before.current == game.current and actor != before.current:
            return self.row.deadline, self.row.reminded
        return now + limit, False


class Tables(MutableMapping[int, Table]):
    """The open games by channel, indexed by game id as well (:meth:`channel_of`)."""

    def __init__(self) -> None:
        """No game yet."""
        self._by_channel: dict[int, Table] = {}
        self._channels: dict[int, int] = {}

    def __getitem__(self, channel_id: int) -> Table:
        return self._by_channel[channel_id]

    def __setitem__(self, channel_id: int, table: Table) -> None:
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
