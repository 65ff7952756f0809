"""Go as a game of the host: :class:`GoPlugin`, what the host calls (see :mod:`bot.host.plugin`) over the
engine (:mod:`go_core`), its AI and its board image.

An action is a :class:`GoAction`: a change of a copy of the engine's game and of the plugin's extra state
(:class:`~bot.games.go.table.Extra`), logged under its name. Every change adds one to the game's
version, which buttons carry; after the second pass the AI proposes the dead stones (an AI seat accepts
its own proposal), and the players accept or change them.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from bot.games.go import codec, text
from bot.games.go.buttons import GoButton
from bot.games.go.engines import RESIGN, AIMove
from bot.games.go.errors import UndoError, engine_refusals
from bot.games.go.kind import KIND
from bot.games.go.options import GoOptions
from bot.games.go.protocols import GoAi, GoBoardRenderer
from bot.games.go.table import NO_GO_GAME, Extra, GoState, GoTable, colour_of, seat_of_colour
from bot.host.messages import Attachment, Message, mention
from bot.host.plugin import Announcement, GamePlugin, Outcome, Thinking
from bot.host.rating_model import RatedSeat, ai_key, ai_name, human_key
from bot.host.store import GameRow, GameStatus, LogEntry, SeatRow
from bot.host.table import Table
from go_core import Color, Game, Phase, Point
from go_core.game import Move

__all__ = ["GoAction", "GoPlugin"]

logger = logging.getLogger("bot.games.go")


Change = Callable[[GoTable, Game, Extra, int], tuple[Extra, list[str]]]
"""A change by a seat of a copy of the game and its extra state: the new extra state and the lines that
open its announcement. Raises :class:`~go_core.errors.GoError` or a ServiceError to refuse (nothing
changed)."""


@dataclass(frozen=True, slots=True)
class GoAction:
    """A seat's action: its ``change``, logged as ``kind``."""

    kind: str
    change: Change


class GoPlugin(GamePlugin[GoOptions, GoState, GoAction]):
    """Go's rules, announcements, AI and results for the host: the AI seat played by ``ai``, boards
    drawn by ``renderer``."""

    kind: ClassVar[str] = KIND
    title: ClassVar[str] = "Go"
    format: ClassVar[int] = codec.FORMAT
    no_game: ClassVar[str] = NO_GO_GAME
    board_links: ClassVar[bool] = True
    refusals: ClassVar[tuple[type[Exception], ...]] = ()

    def __init__(self, ai: GoAi, renderer: GoBoardRenderer) -> None:
        self.ai = ai
        self.renderer = renderer

    # Stored form --------------------------------------------------------------------------------

    def restore(self, row: GameRow) -> GoTable:
        """See :meth:`GamePlugin.restore`.

        Raises:
            GoError, KeyError, TypeError, ValueError: its options or state cannot be read, or its
                seats are not two once started.
        """
        options = codec.read_options(row.options)
        if row.state is None:
            return GoTable(row, options, None)
        state = codec.read_state(row.state)
        if len(row.seats) != 2:
            raise ValueError(f"{len(row.seats)} seats in a started Go game")
        return GoTable(row, options, state)

    def encode(self, table: Table[GoOptions, GoState]) -> GameRow:
        """See :meth:`GamePlugin.encode`."""
        state = None if table.game is None else table.game.to_dict()
        return replace(
            table.row, kind=self.kind, options=table.options.to_dict(), state=state, format=self.format
        )

    # Reading a game -----------------------------------------------------------------------------

    def version(self, table: Table[GoOptions, GoState]) -> int:
        """The game's version: every committed change adds one."""
        return table.started().extra.version

    def to_move(self, table: Table[GoOptions, GoState]) -> int | None:
        """The seat to move while stones are played and no question to take a move back waits."""
        state = table.started()
        if state.game.phase is not Phase.PLAY or state.extra.undo is not None:
            return None
        return seat_of_colour(state.game.to_move)

    def time_limit(self, table: Table[GoOptions, GoState]) -> int:
        """The game's time limit for a move."""
        return table.options.turn_seconds

    def reminder_text(self, user_id: int, seconds_left: int) -> str:
        """See :meth:`GamePlugin.reminder_text`."""
        return f"<@{user_id}>, it is your move: {seconds_left} seconds left."

    # Changes ------------------------------------------------------------------------------------

    async def apply(
        self,
        table: Table[GoOptions, GoState],
        seat: int | None,
        action: GoAction,
        now: float,
        *,
        timed_out: bool = False,
    ) -> Outcome[GoOptions, GoState]:
        """Apply ``action`` (by ``seat``) to a copy; after the second pass, the AI proposes the dead
        stones. The move's deadline is set anew for a person to move.

        Raises:
            GoMoveError or the change's ServiceError (nothing changed).
        """
        assert isinstance(table, GoTable) and seat is not None
        before = table.started()
        game = before.game.copy()
        with engine_refusals():
            extra, lines = action.change(table, game, before.extra, seat)
        if game.phase is Phase.SCORING and before.game.phase is Phase.PLAY:
            extra = await self._propose_dead(table, game, extra)
        over = game.phase is Phase.OVER
        seat_next = table.row.seats[seat_of_colour(game.to_move)]
        timed = table.options.turn_seconds and game.phase is Phase.PLAY and not seat_next.is_ai
        row = replace(
            table.row,
            status=GameStatus.FINISHED if over else GameStatus.ACTIVE,
            deadline=now + table.options.turn_seconds if timed else None,
            reminded=False,
            updated_at=now,
        )
        new = GoTable(row, table.options, GoState(game, extra))
        log = [LogEntry(action.kind, seat, {"version": extra.version, "lines": lines}, now)]
        log_lines = [f"over, {game.result}"] if over else []
        return Outcome(new, log, announcement(extra.version, lines), log_lines)

    def timeout_action(self, table: Table[GoOptions, GoState], seat: int) -> GoAction:
        """The player to move loses on time."""

        def change(table: GoTable, game: Game, extra: Extra, seat: int) -> tuple[Extra, list[str]]:
            game.lose_on_time(colour_of(seat))
            return moved(extra), [f"{text.seat_label(table.row.seats[seat])} ran out of time."]

        return GoAction("timeout", change)

    async def _propose_dead(self, table: GoTable, game: Game, extra: Extra) -> Extra:
        """After the second pass: mark the AI's proposal of dead stones on ``game``; an AI seat accepts."""
        dead, proposer = await self.ai.dead_stones(game.copy())
        game.set_dead(dead)
        extra = replace(extra, proposal=dead, proposer=proposer)
        ai_accepts(game, extra, table.row.seats)
        return extra

    # AI -----------------------------------------------------------------------------------------

    async def ai_action(
        self, table: Table[GoOptions, GoState], seat: int, seed: int, thinking: Thinking[Any]
    ) -> GoAction:
        """The move the AI chooses (in the AI workers, their fallback answering if they do not)."""
        assert isinstance(table, GoTable)
        level = table.options.ai_level
        assert level is not None  # a game with an AI seat has its level
        move: AIMove = await thinking(self.ai.choose(table.board(), level, seed))
        return GoAction("ai_move", _ai_change(move))

    def ai_fallback(self, table: Table[GoOptions, GoState], seat: int) -> GoAction:
        """Pass."""
        return GoAction("ai_move", _ai_change(None))

    # Messages -----------------------------------------------------------------------------------

    def read_announcement(self, data: Mapping[str, Any]) -> Announcement:
        """See :meth:`GamePlugin.read_announcement`."""
        private = tuple(int(seat) for seat in data.get("private", ()))
        return announcement(int(data["version"]), [str(line) for line in data["lines"]], private)

    async def announcement_message(
        self, table: Table[GoOptions, GoState], announcement: Announcement, *, urgent: bool = False
    ) -> Message:
        """The public message of the game's state: the announcement's lines, then the players and whose
        move it is (or the dead-stone phase, the undo question, the result), with the board and the
        buttons."""
        assert isinstance(table, GoTable)
        state = table.started()
        game, extra = state.game, state.extra
        seats = table.row.seats
        black, white = (seat.name for seat in seats)
        image = await asyncio.to_thread(self.renderer, game, black=black, white=white)
        board = (Attachment(f"go-{table.row.id}-{extra.version}.png", image),)
        body = [*_lines(announcement), text.players_line(game, seats)]
        game_id = table.row.id
        undo = extra.undo
        if game.phase is Phase.OVER:
            body.append(text.result_text(game, seats))
            return Message("\n".join(body), board, game=game_id, turn=extra.version)
        if undo is not None:
            other = seats[1 - undo]
            body.append(text.undo_request_text(seats[undo], other, undo_moves(game, colour_of(undo))))
            buttons: tuple[str, ...] = (GoButton.UNDO_ACCEPT, GoButton.UNDO_REFUSE)
            return _public(body, board, _people(other), buttons, game_id, extra.version)
        if game.phase is Phase.SCORING:
            body.append(text.scoring_text(game, extra.proposer, extra.proposal, game.accepted))
            buttons = (GoButton.ACCEPT_SCORE, GoButton.RESUME, GoButton.UNDO, GoButton.RESIGN)
            return _public(body, board, (), buttons, game_id, extra.version)
        current = table.seat_to_move()
        body.append(text.to_move_line(current, table.options.turn_seconds))
        buttons = (GoButton.UNDO, GoButton.RESIGN)
        if not current.is_ai:
            buttons = (GoButton.PLAY, GoButton.PASS, *buttons)
        return _public(body, board, _people(current), buttons, game_id, extra.version)

    async def private_message(self, table: Table[GoOptions, GoState], seat: int) -> Message:
        """The private message the host adds a seat's link to the web board to."""
        return Message(
            f"Your link to play Go game {table.row.id} on the board (it is yours alone):", private=True
        )

    def private_failed_message(self, table: Table[GoOptions, GoState], user_id: int) -> Message:
        """The public notice that ``user_id``'s link to the board could not go by DM."""
        return Message(
            f"{mention(user_id)}, I could not send you your link to the board by DM (are your DMs closed?).",
            mentions=(user_id,),
        )

    def past_message(self, table: Table[GoOptions, GoState], announcement: Announcement) -> Message:
        """The announcement's lines, as text (the newer announcement shows the players and the board),
        and the result once the game is over."""
        state = table.started()
        body = _lines(announcement)
        if state.game.phase is Phase.OVER:
            body.append(text.result_text(state.game, table.row.seats))
        return Message("\n".join(body), game=table.row.id, turn=announcement.version)

    # Results ------------------------------------------------------------------------------------

    def result(self, table: Table[GoOptions, GoState]) -> tuple[RatedSeat, ...]:
        """The winner takes place 1 and the loser place 2 (a draw: both 1); people and the AI level are
        rated (seat 0 plays Black). Nobody without a result."""
        game = table.started().game
        if game.result is None:
            return ()
        winner = game.winner
        level = table.options.ai_level
        seats: list[RatedSeat] = []
        for seat in table.row.seats:
            place = 1 if winner is None or winner is colour_of(seat.seat) else 2
            if seat.user_id is not None:
                seats.append(RatedSeat(human_key(seat.user_id), seat.name, place))
            elif level is not None:
                seats.append(RatedSeat(ai_key(level.value), ai_name(level.value), place))
        return tuple(seats) if len(seats) >= 2 else ()


def announcement(version: int, lines: Sequence[str], private: Sequence[int] = ()) -> Announcement:
    """The announcement of the game's state at ``version``, opened by ``lines``; the ``private`` seats
    are sent their link to play on the web board (when a game starts on a bot that serves it)."""
    data: dict[str, Any] = {"kind": KIND, "version": version, "lines": list(lines)}
    if private:
        data["private"] = list(private)
    return Announcement(version, data, tuple(private))


def _lines(announcement: Announcement) -> list[str]:
    return [str(line) for line in announcement.data["lines"]]


def moved(extra: Extra) -> Extra:
    """The extra state after a change: the next version, no undo question."""
    return replace(extra, version=extra.version + 1, undo=None)


def ai_accepts(game: Game, extra: Extra, seats: Sequence[SeatRow]) -> None:
    """An AI seat accepts the marks when they are its proposal."""
    for seat in seats:
        if seat.is_ai and game.dead == extra.proposal and game.phase is Phase.SCORING:
            game.accept(colour_of(seat.seat))


def undo_moves(game: Game, colour: Color) -> list[Move]:
    """The moves to take back so that ``colour``'s last move is undone: the last move, or the last two
    when the opponent replied.

    Raises:
        UndoError: ``colour`` has made no move, or the game is over.
    """
    moves = game.moves
    if game.phase is Phase.OVER:
        raise UndoError("The game is over")
    for back, move in enumerate(reversed(moves[-2:]), start=1):
        if move.color is colour:
            return list(moves[-back:])
    raise UndoError("You have no move to take back")


def _ai_change(move: AIMove) -> Change:
    """Play the AI's ``move``: a point (a pass if the engine refuses it), a pass (``None``) or a
    resignation."""

    def change(table: GoTable, game: Game, extra: Extra, seat: int) -> tuple[Extra, list[str]]:
        colour = colour_of(seat)
        label = text.seat_label(table.row.seats[seat])
        if move == RESIGN:
            game.resign(colour)
            return moved(extra), [f"{label} resigned."]
        if isinstance(move, Point):
            try:
                played = game.play(move, colour)
                return moved(extra), [text.move_line(table.row.seats[seat], played)]
            except Exception:
                logger.exception("go game %d: the AI's move %s was refused: it passes", table.row.id, move)
        game.pass_turn(colour)
        return moved(extra), [f"{label} passed."]

    return change


def _people(seat: SeatRow) -> tuple[int, ...]:
    return () if seat.user_id is None else (seat.user_id,)


def _public(
    body: Sequence[str],
    board: tuple[Attachment, ...],
    mentions: tuple[int, ...],
    buttons: tuple[str, ...],
    game_id: int,
    version: int,
) -> Message:
    return Message("\n".join(body), board, mentions=mentions, buttons=buttons, game=game_id, turn=version)
