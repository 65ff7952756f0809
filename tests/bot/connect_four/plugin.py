"""The third game's plugin: what the host calls (:class:`bot.host.plugin.GamePlugin`) over the rules of
:mod:`rules`, written only against the host's interface."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from bot.host.ai.executor import AiExecutor, WorkerLostError
from bot.host.messages import Message
from bot.host.plugin import Announcement, GamePlugin, Outcome, Thinking
from bot.host.rating_model import RatedSeat, ai_key, ai_name, human_key
from bot.host.seats import shown
from bot.host.store import GameRow, GameStatus, LogEntry
from bot.host.table import Table

from . import codec
from .rules import Board, DropError, best_column

KIND = "connect-four"
NO_GAME = "There is no Connect Four game in this channel: start one with /connect-four new"


@dataclass(frozen=True, slots=True)
class Options:
    """A game's settings: the seconds a person has to move (0: no limit), and the AI's level (``None``:
    two people)."""

    turn_seconds: int = 0
    ai_level: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"turn_seconds": self.turn_seconds, "ai_level": self.ai_level}


class FourTable(Table[Options, Board]):
    """An open game."""

    __slots__ = ()

    NOT_STARTED: ClassVar[str] = "The game has not started yet: it starts when an opponent joins"


@dataclass(frozen=True, slots=True)
class Drop:
    """An action: a disc in ``column`` (from 0), or a resignation (``column`` ``None``)."""

    column: int | None


def announcement(version: int, lines: Sequence[str]) -> Announcement:
    return Announcement(version, {"version": version, "lines": list(lines)})


class FourPlugin(GamePlugin[Options, Board, Drop]):
    """The rules, messages, AI and results of the game for the host; its AI in ``pool`` (the host's AI
    workers, as every game's), or in this process without one."""

    kind: ClassVar[str] = KIND
    title: ClassVar[str] = "Connect Four"
    format: ClassVar[int] = codec.FORMAT
    no_game: ClassVar[str] = NO_GAME
    refusals: ClassVar[tuple[type[Exception], ...]] = (DropError,)

    def __init__(self, pool: AiExecutor | None = None) -> None:
        self.pool = pool

    def restore(self, row: GameRow) -> FourTable:
        options = Options(**row.options)
        return FourTable(row, options, None if row.state is None else codec.read_state(row.state))

    def encode(self, table: Table[Options, Board]) -> GameRow:
        state = None if table.game is None else table.game.to_dict()
        return replace(table.row, kind=KIND, options=table.options.to_dict(), state=state, format=self.format)

    def version(self, table: Table[Options, Board]) -> int:
        board = table.started()
        return board.moves + (1 if board.resigned is not None else 0)

    def to_move(self, table: Table[Options, Board]) -> int | None:
        board = table.started()
        return None if board.over else board.turn

    def time_limit(self, table: Table[Options, Board]) -> int:
        return table.options.turn_seconds

    def reminder_text(self, user_id: int, seconds_left: int) -> str:
        return f"<@{user_id}>, drop your disc: {seconds_left} seconds left."

    async def apply(
        self,
        table: Table[Options, Board],
        seat: int | None,
        action: Drop,
        now: float,
        *,
        timed_out: bool = False,
    ) -> Outcome[Options, Board]:
        assert seat is not None
        board = table.started().copy()
        name = shown(table.row.seats[seat].name)
        if action.column is None:
            board.resign(seat)
            lines = [f"{name} ran out of time and loses." if timed_out else f"{name} resigned."]
        else:
            board.drop(seat, action.column)
            lines = [f"{name} dropped a disc in column {action.column + 1}."]
        people = table.row.seats[board.turn]
        timed = table.options.turn_seconds and not board.over and not people.is_ai
        row = replace(
            table.row,
            status=GameStatus.FINISHED if board.over else GameStatus.ACTIVE,
            deadline=now + table.options.turn_seconds if timed else None,
            reminded=False,
            updated_at=now,
        )
        new = FourTable(row, table.options, board)
        log = [
            LogEntry("drop" if action.column is not None else "resign", seat, {"column": action.column}, now)
        ]
        return Outcome(new, log, announcement(self.version(new), lines))

    def timeout_action(self, table: Table[Options, Board], seat: int) -> Drop:
        return Drop(None)

    async def ai_action(
        self, table: Table[Options, Board], seat: int, seed: int, thinking: Thinking[Any]
    ) -> Drop:
        board = table.started()
        if self.pool is None:
            return Drop(best_column(board))
        try:
            answer = await thinking(self.pool.ask(KIND, {"board": board.to_dict()}, 5.0))
            return Drop(int(answer))
        except (TimeoutError, WorkerLostError, RuntimeError, ValueError):
            return Drop(best_column(board))  # the fallback: the same rule, here

    def ai_fallback(self, table: Table[Options, Board], seat: int) -> Drop:
        return Drop(table.started().legal()[0])

    def read_announcement(self, data: Mapping[str, Any]) -> Announcement:
        return announcement(int(data["version"]), [str(line) for line in data["lines"]])

    async def announcement_message(
        self, table: Table[Options, Board], announcement: Announcement, *, urgent: bool = False
    ) -> Message:
        board = table.started()
        body = [*announcement.data["lines"], "```", *board.rows(), "1234567", "```"]
        game_id, version = table.row.id, self.version(table)
        if board.over:
            body.append(self._result(table))
            return Message("\n".join(body), game=game_id, turn=version)
        seat = table.row.seats[board.turn]
        mentions = () if seat.user_id is None else (seat.user_id,)
        body.append(f"{shown(seat.name)} to move.")
        buttons = (*(f"{KIND}:drop-{c + 1}" for c in board.legal()), f"{KIND}:resign")
        return Message("\n".join(body), mentions=mentions, buttons=buttons, game=game_id, turn=version)

    def past_message(self, table: Table[Options, Board], announcement: Announcement) -> Message:
        return Message("\n".join(announcement.data["lines"]))

    def _result(self, table: Table[Options, Board]) -> str:
        board = table.started()
        if board.winner == -1:
            return "A draw: the board is full."
        return f"{shown(table.row.seats[board.winner or 0].name)} wins!"

    def result(self, table: Table[Options, Board]) -> tuple[RatedSeat, ...]:
        board = table.started()
        seats = []
        for seat in table.row.seats:
            place = 1 if board.winner in (-1, seat.seat) else 2
            if seat.user_id is not None:
                seats.append(RatedSeat(human_key(seat.user_id), seat.name, place))
            elif table.options.ai_level is not None:
                seats.append(
                    RatedSeat(ai_key(table.options.ai_level), ai_name(table.options.ai_level), place)
                )
        return tuple(seats)
