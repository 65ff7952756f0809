"""The Go service: one method per ``/go`` command, over the open Go games of every channel.

It shares the Scrabble service's parts rather than copying them: the store (Go games are rows of the
same games table, kind ``go``, with the same seats, event log and outbox), the per-channel locks (the
SAME :class:`~bot.host.locks.ChannelLocks` instance, so no two changes of a channel ever interleave,
whatever the game), the channels' delivery tasks (the SAME :class:`~bot.host.delivery.Deliveries`,
so a channel's messages go out in order whatever the game), the background tasks
(:class:`~bot.host.tasks.Tasks`), the notifier, the clock and the AI worker pool (through
:class:`~bot.games.go.protocols.GoAi`). One open game per channel whatever its kind is the store's
rule (:meth:`bot.host.store.games.Store.create_go_game`).

Like :class:`~bot.games.scrabble.commands.GameService`, it knows nothing of Discord: a command returns a
:class:`~bot.host.messages.Message` for the asker (``private``: show it to them alone) or raises a
:class:`~bot.host.errors.ServiceError` (a :class:`~scrabble_core.errors.ScrabbleError`) whose text is
for the asker; the engine's refusals come as :class:`~bot.games.go.errors.GoMoveError` with the
engine's message. What is public goes out through the notifier, after the change is committed: every
change is applied to a copy of the game, written in one transaction with its announcement in the outbox,
then made the channel's, and its announcement queued in the channel's delivery task, which renders and
sends it behind the command's answer and then marks it sent (an announcement a crash left unsent goes out
at :meth:`GoService.start`).
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, Final

from bot.games.go import text
from bot.games.go.engines import RESIGN, AIMove
from bot.games.go.errors import UndoError, engine_refusals
from bot.games.go.options import GoNewGame, go_options
from bot.games.go.protocols import GoAi, GoBoardRenderer
from bot.games.go.sgf import export_sgf
from bot.games.go.table import BLACK_SEAT, WHITE_SEAT, Extra, GoTable, colour_of, seat_of_colour
from bot.host import delivery
from bot.host.delivery import Deliveries
from bot.host.errors import (
    AlreadySeatedError,
    GameStartedError,
    NoGameError,
    NotAllowedError,
    StorageError,
    StorageRangeError,
)
from bot.host.features import Feature, is_on
from bot.host.locks import ChannelLocks
from bot.host.messages import Attachment, Button, Message, mention
from bot.host.outbox import keyed
from bot.host.protocols import Clock, Notifier, SystemClock
from bot.host.rating_model import human_key
from bot.host.ratings import ranked, rating_line
from bot.host.seats import User, seat_name
from bot.host.storage import retry_delay, retry_notice, typed_storage_errors
from bot.host.store.games import GameKind, GameStatus, GoRow, KindStatsDelta, LogEntry, SeatRow, Store
from bot.host.tasks import Tasks
from go_core import Color, Game, Phase, Point
from go_core.game import Move

__all__ = ["GoService"]

logger = logging.getLogger("bot.games.go")

SEED_BITS: Final = 63
AI_NAME: Final = "AI"
OUTBOX_KIND: Final = "go"

Change = Callable[[Game, Extra], tuple[Extra, list[str]]]
"""An action on a copy of the game and its extra state: the new extra state and the lines that open its
announcement. Raises :class:`~go_core.errors.GoError` or a :class:`ServiceError` to refuse (nothing
changed)."""


class GoService:
    """Hosts the Go games of every channel. Call :meth:`start` once before use and :meth:`close` at the
    end (:class:`~bot.games.scrabble.commands.GameService` does both when it holds one, as ``service.go``)."""

    def __init__(
        self,
        store: Store,
        notifier: Notifier,
        ai: GoAi,
        renderer: GoBoardRenderer,
        *,
        locks: ChannelLocks,
        deliveries: Deliveries,
        clock: Clock | None = None,
        new_seed: Callable[[], int] = lambda: secrets.randbits(SEED_BITS),
        reminder_left: float = 0.0,
    ) -> None:
        """Set up the service over an open ``store``, sending through ``notifier``, the AI seats played
        by ``ai``, boards drawn by ``renderer``, every change of a channel under its lock in ``locks``
        and every message sent by the channel's task in ``deliveries`` (share the Scrabble service's
        both). ``new_seed`` gives a new game's seed (its colour draw and AI).
        In games with a time limit, the player to move is reminded once when ``reminder_left`` of the
        limit is left (0: never)."""
        self._store = store
        self._notifier = notifier
        self._ai = ai
        self._renderer = renderer
        self._locks = locks
        self._deliveries = deliveries
        self._clock: Clock = clock or SystemClock()
        self._new_seed = new_seed
        self._reminder_left = reminder_left
        self._tables: dict[int, GoTable] = {}
        self._tasks = Tasks()

    # Life cycle ---------------------------------------------------------------------------------

    async def start(self) -> None:
        """Load every open Go game from the store, deliver the announcements a crash left unsent, and
        resume each game: its timer re-armed from its stored deadline (an expired one acts at once),
        the AI's turn played if it is due. A game that cannot be loaded is quarantined and the others
        start."""
        for row in await self._store.open_go_games():
            try:
                self._tables[row.channel_id] = GoTable.load(row)
            except Exception as error:  # any broken state: that game alone is set aside
                logger.error("go game %d cannot be loaded (%s): quarantined", row.id, error)
                await self._store.quarantine(row.id, f"{type(error).__name__}: {error}")
        await self._deliver_pending()
        await self.delivered()
        for channel_id in list(self._tables):
            async with self._locks.hold(channel_id):
                table = self._tables.get(channel_id)
                if table is not None:
                    self._schedule(table)
        logger.info("go service started with %d open games", len(self._tables))

    async def close(self) -> None:
        """Stop every timer and AI turn (they resume from the store at the next :meth:`start`), then
        let the queued deliveries finish (for a few seconds at most: see
        :meth:`~bot.host.delivery.Deliveries.close`; closing deliveries shared with a service that
        closed them already only waits for those queued since)."""
        await self._tasks.close()
        await self._deliveries.close(delivery.CLOSE_GRACE_SECONDS)

    async def idle(self) -> None:
        """Wait until no AI turn or timer action is running and every queued delivery went out."""
        await self._tasks.idle()
        await self.delivered()

    async def delivered(self) -> None:
        """Wait until every queued delivery went out (AI turns and timers may still be running)."""
        await self._deliveries.idle()

    def has_game(self, channel_id: int) -> bool:
        """Whether the channel has an open Go game (lobby or being played)."""
        return channel_id in self._tables

    def channel_of(self, game_id: int) -> int:
        """The channel of the open Go game ``game_id`` (for buttons that carry a game id).

        Raises:
            NoGameError: no open Go game has that id.
        """
        for channel_id, table in self._tables.items():
            if table.row.id == game_id:
                return channel_id
        raise NoGameError("That game is over")

    def game(self, channel_id: int) -> Game:
        """A copy of the channel's Go game (for reading: changing it changes nothing).

        Raises:
            NoGameError; GameNotStartedError.
        """
        return self._table(channel_id, None).started()

    # Lobby --------------------------------------------------------------------------------------

    async def new_game(
        self, guild_id: int, channel_id: int, user: User, options: GoNewGame = GoNewGame()
    ) -> Message:
        """Open a Go game in ``channel_id`` for ``user``: against the AI (``options.ai_level``) it
        starts at once; otherwise it waits in a lobby for the invited ``options.opponent`` (or anyone)
        to :meth:`join`. Announces it; returns the asker's acknowledgement (private).

        Raises:
            OptionError: a bad option (size, komi, handicap, time limit, level, colour, scoring, seed).
            ChannelBusyError: the channel has an open game, Go or Scrabble (the message names it).
            StorageError: the write failed (nothing changed).
        """
        seed = self._new_seed() if options.seed is None else options.seed
        settings = go_options(options, user.id, random.Random(seed).random())
        async with self._locks.hold(channel_id):
            now = self._clock.now()
            creator = SeatRow(0, user.id, seat_name(user.name, []))
            draft = GoRow(
                0,
                guild_id,
                channel_id,
                user.id,
                GameStatus.LOBBY,
                settings.to_dict(),
                seed,
                None,
                (creator,),
                None,
                False,
                now,
                now,
            )
            log = [LogEntry("created", 0, {"user_id": user.id, "options": settings.to_dict()}, now)]
            with typed_storage_errors():
                row = await self._store.create_go_game(draft, log)
            table = GoTable(row, settings, None)
            self._tables[channel_id] = table
            logger.info("go game %d: created in channel %d by user %d", row.id, channel_id, user.id)
            if settings.ai_level is None:
                self._post(channel_id, self._lobby_message(table))
            else:
                ai = SeatRow(1, None, seat_name(AI_NAME, [creator.name]), None)
                await self._start(table, ai, [f"{mention(user.id)} plays the AI ({settings.ai_level})."])
        if settings.ai_level is not None:
            return _ack(f"Go game {row.id} started against the AI ({settings.ai_level}).")
        who = "the member you invited" if settings.opponent is not None else "someone"
        return _ack(f"Go game {row.id} created: it starts when {who} joins with /go join.")

    async def join(self, channel_id: int, user: User) -> Message:
        """Take the free seat of the channel's Go lobby, which starts the game (announced).

        Raises:
            NoGameError; GameStartedError; AlreadySeatedError (the creator); NotAllowedError (the game
            waits for another member); StorageError.
        """
        async with self._locks.hold(channel_id):
            table = self._lobby(channel_id)
            if table.row.creator_id == user.id:
                raise AlreadySeatedError
            invited = table.options.opponent
            if invited is not None and invited != user.id:
                raise NotAllowedError(f"This game waits for {mention(invited)}: only they can join it")
            creator = table.row.seats[0]
            seat = SeatRow(1, user.id, seat_name(user.name, [creator.name]))
            await self._start(table, seat, [f"{mention(user.id)} joined."])
        return _ack("You joined the game.")

    async def cancel(self, channel_id: int, user_id: int, *, moderator: bool = False) -> Message:
        """Cancel the channel's Go game while it waits for its opponent (its creator, or a
        ``moderator``: any time; a started game ends with no result and no stats).

        Raises:
            NoGameError; GameStartedError (for the creator, once it started: resign instead);
            NotAllowedError (not the creator nor a moderator); StorageError.
        """
        async with self._locks.hold(channel_id):
            table = self._table(channel_id, None)
            if not moderator:
                if table.row.creator_id != user_id:
                    raise NotAllowedError("Only the game's creator (or a moderator) can cancel it")
                if table.game is not None:
                    raise GameStartedError("This game has already started: use /go resign to end it")
            now = self._clock.now()
            row = replace(table.row, status=GameStatus.CANCELLED, deadline=None, updated_at=now)
            await self._save(
                replace(table, row=row), [LogEntry("cancelled", None, {"user_id": user_id}, now)]
            )
            logger.info("go game %d: cancelled by user %d", row.id, user_id)
            self._post(channel_id, Message(f"The Go game was cancelled by {mention(user_id)}."))
        return _ack("Game cancelled.")

    # Playing ------------------------------------------------------------------------------------

    async def play(
        self,
        channel_id: int,
        user_id: int,
        point: str,
        *,
        game_id: int | None = None,
        turn: int | None = None,
    ) -> Message:
        """Play a stone of ``user_id``'s colour on ``point`` (``D4``; ``pass`` passes). ``game_id`` and
        ``turn`` (the version a button was made for) refuse a stale button.

        Raises:
            NoGameError; GameNotStartedError; NotSeatedError; StaleTurnError; GoMoveError (not your
            turn, occupied, self-capture, ko, off the board, not a point, the dead-stone phase);
            StorageError.
        """
        if point.strip().lower() == "pass":
            return await self.pass_turn(channel_id, user_id, game_id=game_id, turn=turn)

        def change(game: Game, extra: Extra) -> tuple[Extra, list[str]]:
            move = game.play(game.parse_point(point.strip()), colour_of(seat))
            return _moved(extra), [text.move_line(table.row.seats[seat], move)]

        table, seat = self._seated(channel_id, user_id, game_id)
        await self._act(channel_id, user_id, game_id, turn, change, "play")
        return _ack(f"You played {point.strip().upper()}.")

    async def pass_turn(
        self, channel_id: int, user_id: int, *, game_id: int | None = None, turn: int | None = None
    ) -> Message:
        """Pass for ``user_id``. The second pass in a row starts the dead-stone phase: the proposed
        dead stones (GNU Go's ``final_status_list dead`` when installed, else the engine's) are marked
        and shown, an AI seat accepts them.

        Raises:
            As :meth:`play`.
        """

        def change(game: Game, extra: Extra) -> tuple[Extra, list[str]]:
            move = game.pass_turn(colour_of(seat))
            return _moved(extra), [text.move_line(table.row.seats[seat], move)]

        table, seat = self._seated(channel_id, user_id, game_id)
        await self._act(channel_id, user_id, game_id, turn, change, "pass")
        return _ack("You passed.")

    async def resign(self, channel_id: int, user_id: int, *, game_id: int | None = None) -> Message:
        """``user_id`` resigns (in any phase, on any turn): the opponent wins.

        Raises:
            NoGameError; GameNotStartedError; NotSeatedError; StorageError.
        """

        def change(game: Game, extra: Extra) -> tuple[Extra, list[str]]:
            game.resign(colour_of(seat))
            return _moved(extra), [f"{text.seat_label(table.row.seats[seat])} resigned."]

        table, seat = self._seated(channel_id, user_id, game_id)
        await self._act(channel_id, user_id, game_id, None, change, "resign")
        return _ack("You resigned.")

    async def request_undo(self, channel_id: int, user_id: int, *, game_id: int | None = None) -> Message:
        """``user_id`` asks to take back their last move (and the opponent's reply after it, if any).
        Against the AI it is taken back at once; otherwise the opponent is asked (pinged, with Accept
        and Refuse buttons: :meth:`answer_undo`). Any other change drops the question.

        Raises:
            NoGameError; GameNotStartedError; NotSeatedError; UndoError (no move of theirs to take
            back, or a question already waiting); GoMoveError (the game is over); StorageError.
        """

        def change(game: Game, extra: Extra) -> tuple[Extra, list[str]]:
            moves = _undo_moves(game, colour_of(seat))
            if extra.undo is not None:
                raise UndoError("A request to take back a move is already waiting for an answer")
            if table.row.seats[1 - seat].is_ai:
                taken = _take_back(game, len(moves))
                return _moved(extra), [
                    f"{text.seat_label(table.row.seats[seat])} took back {_moves_text(taken)}."
                ]
            return replace(extra, version=extra.version + 1, undo=seat), []

        table, seat = self._seated(channel_id, user_id, game_id)
        await self._act(channel_id, user_id, game_id, None, change, "undo")
        if table.row.seats[1 - seat].is_ai:
            return _ack("Your move was taken back.")
        return _ack("Your opponent is asked to accept.")

    async def answer_undo(
        self,
        channel_id: int,
        user_id: int,
        accept: bool,
        *,
        game_id: int | None = None,
        turn: int | None = None,
    ) -> Message:
        """The opponent of the seat that asked to take a move back accepts (the moves are taken back) or
        refuses.

        Raises:
            NoGameError; GameNotStartedError; NotSeatedError; StaleTurnError; UndoError (no question
            waits, or it is your own); StorageError.
        """

        def change(game: Game, extra: Extra) -> tuple[Extra, list[str]]:
            asker = extra.undo
            if asker is None:
                raise UndoError("Nobody asked to take back a move")
            if asker == seat:
                raise UndoError("Your opponent answers your request, not you")
            name = text.seat_label(table.row.seats[seat])
            if not accept:
                return _moved(extra), [f"{name} refused to take back the move."]
            taken = _take_back(game, len(_undo_moves(game, colour_of(asker))))
            return _moved(extra), [f"{name} accepted: {_moves_text(taken)} taken back."]

        table, seat = self._seated(channel_id, user_id, game_id)
        await self._act(channel_id, user_id, game_id, turn, change, "undo_answer")
        return _ack("Moves taken back." if accept else "You refused.")

    # The dead-stone phase -----------------------------------------------------------------------

    async def toggle_dead(
        self, channel_id: int, user_id: int, point: str, *, game_id: int | None = None
    ) -> Message:
        """Mark the group on ``point`` dead, or alive again (dead-stone phase); acceptances are
        withdrawn, and an AI seat accepts again only the marks it proposed.

        Raises:
            NoGameError; GameNotStartedError; NotSeatedError; GoMoveError (not the dead-stone phase,
            an empty point, not a point); StorageError.
        """

        def change(game: Game, extra: Extra) -> tuple[Extra, list[str]]:
            group = game.toggle_dead(game.parse_point(point.strip()))
            state = "dead" if group <= game.dead else "alive"
            stones = f"{len(group)} stone{'s' if len(group) != 1 else ''}"
            self._ai_accepts(game, extra, table.row.seats)
            return _moved(extra), [
                f"{text.seat_label(table.row.seats[seat])} marked the group at {point.strip().upper()} ({stones}) {state}."
            ]

        table, seat = self._seated(channel_id, user_id, game_id)
        await self._act(channel_id, user_id, game_id, None, change, "dead")
        return _ack(f"Group at {point.strip().upper()} marked.")

    async def accept_score(
        self, channel_id: int, user_id: int, *, game_id: int | None = None, turn: int | None = None
    ) -> Message:
        """``user_id`` accepts the dead stones as marked; once both have, the game is counted and the
        result posted with the score breakdown.

        Raises:
            NoGameError; GameNotStartedError; NotSeatedError; StaleTurnError (the marks changed since
            the button was shown); GoMoveError (not the dead-stone phase); StorageError.
        """

        def change(game: Game, extra: Extra) -> tuple[Extra, list[str]]:
            game.accept(colour_of(seat))
            return _moved(extra), [f"{text.seat_label(table.row.seats[seat])} accepts the count."]

        table, seat = self._seated(channel_id, user_id, game_id)
        await self._act(channel_id, user_id, game_id, turn, change, "accept")
        return _ack("You accepted the count.")

    async def resume(
        self, channel_id: int, user_id: int, *, game_id: int | None = None, turn: int | None = None
    ) -> Message:
        """Leave the dead-stone phase and play on (the marks are dropped).

        Raises:
            As :meth:`accept_score`.
        """

        def change(game: Game, extra: Extra) -> tuple[Extra, list[str]]:
            game.resume()
            return _moved(extra), [f"{text.seat_label(table.row.seats[seat])} resumed play."]

        table, seat = self._seated(channel_id, user_id, game_id)
        await self._act(channel_id, user_id, game_id, turn, change, "resume")
        return _ack("Play resumes.")

    # Questions ----------------------------------------------------------------------------------

    async def board(self, channel_id: int) -> Message:
        """The channel's game as it stands (board image, players, whose turn or the dead-stone phase),
        pinging nobody.

        Raises:
            NoGameError; GameNotStartedError.
        """
        table = self._table(channel_id, None)
        table.started()
        message = await self._state_message(table, [])
        return replace(message, mentions=())

    async def score(self, channel_id: int) -> Message:
        """The count of the board as it stands (with the dead stones marked, in the dead-stone phase),
        and the captures.

        Raises:
            NoGameError; GameNotStartedError.
        """
        table = self._table(channel_id, None)
        game = table.started()
        marked = "as marked" if game.phase is Phase.SCORING else "if the game ended now, no stone dead"
        return Message(
            f"{text.players_line(game, table.row.seats)}\nCount {marked}: {game.score().breakdown()}"
        )

    async def export_sgf(self, channel_id: int) -> Message:
        """The SGF record of the channel's Go game, or of the last one that ended here (private).

        Raises:
            NoGameError: no Go game is going on and none ended here; GameNotStartedError.
        """
        table = self._tables.get(channel_id)
        if table is None:
            row = await self._store.last_finished_go_game(channel_id)
            if row is None:
                raise NoGameError("No Go game has ended in this channel yet: start one with /go new")
            table = GoTable.load(row)
        game = table.started()
        black, white = (seat.name for seat in table.row.seats)
        record = export_sgf(game, black=black, white=white).encode()
        heading = f"The record of Go game {table.row.id} ({text.settings_text(table.options)})."
        return Message(heading, (Attachment(f"go-{table.row.id}.sgf", record),), private=True)

    async def stats(self, guild_id: int, user: User) -> Message:
        """``user``'s Go record in the guild (games, wins, losses, draws) and, unless the guild turned
        ratings off, their Go rating and rank (Go has its own ratings, apart from Scrabble's)."""
        row = await self._store.kind_stats(guild_id, GameKind.GO, user.id)
        lines = [
            text.stats_text(user.name, 0, 0, 0)
            if row is None
            else text.stats_text(row.name, row.games, row.wins, row.draws)
        ]
        if is_on(await self._store.features(guild_id), Feature.RATINGS):
            players = ranked(await self._store.ratings(guild_id, GameKind.GO))
            key = human_key(user.id)
            lines += [
                f"Go: {rating_line(player, rank, len(players))}"
                for rank, player in enumerate(players, start=1)
                if player.player == key
            ]
        return Message("\n".join(lines))

    # Inside: the change path --------------------------------------------------------------------

    def _table(self, channel_id: int, game_id: int | None) -> GoTable:
        table = self._tables.get(channel_id)
        if table is None:
            raise NoGameError("There is no Go game in this channel: start one with /go new")
        if game_id is not None and table.row.id != game_id:
            raise NoGameError("That game is over")
        return table

    def _lobby(self, channel_id: int) -> GoTable:
        table = self._table(channel_id, None)
        if table.game is not None:
            raise GameStartedError
        return table

    def _seated(self, channel_id: int, user_id: int, game_id: int | None) -> tuple[GoTable, int]:
        """The channel's started game and ``user_id``'s seat in it (checked again under the lock)."""
        table = self._table(channel_id, game_id)
        table.started()
        return table, table.seat_of(user_id)

    async def _act(
        self,
        channel_id: int,
        user_id: int,
        game_id: int | None,
        turn: int | None,
        change: Change,
        kind: str,
    ) -> None:
        """Apply ``change`` (logged as ``kind``) for ``user_id`` under the channel's lock: commit,
        announce, schedule."""
        async with self._locks.hold(channel_id):
            table = self._table(channel_id, game_id)
            table.started()
            seat = table.seat_of(user_id)
            table.check_turn(turn)
            await self._commit(table, change, kind, seat)

    async def _commit(
        self, table: GoTable, change: Change, kind: str, seat: int, *, retry: bool = False
    ) -> None:
        """Apply ``change`` (by ``seat``) to a copy, write it with its announcement and a log entry of
        ``kind`` (the version it made and its lines), make it the channel's, announce it and schedule
        what comes next. Must hold the lock.

        Raises:
            GoMoveError or the change's ServiceError (nothing changed); StorageError (without ``retry``).
        """
        game = table.started()
        with engine_refusals():
            extra, lines = change(game, table.extra)
        if game.phase is Phase.SCORING and table.game is not None and table.game.phase is Phase.PLAY:
            extra = await self._propose_dead(table, game, extra)
        now = self._clock.now()
        over = game.phase is Phase.OVER
        seat_next = table.row.seats[seat_of_colour(game.to_move)]
        timed = table.options.turn_seconds and game.phase is Phase.PLAY and not seat_next.is_ai
        row = replace(
            table.row,
            status=GameStatus.FINISHED if over else GameStatus.ACTIVE,
            state=table.state(game, extra),
            deadline=now + table.options.turn_seconds if timed else None,
            reminded=False,
            updated_at=now,
        )
        new = GoTable(row, table.options, game, extra)
        log = [LogEntry(kind, seat, {"version": extra.version, "lines": lines}, now)]
        stats = _stats(new) if over else ()
        pending = await self._save(
            new, log, stats, {"kind": OUTBOX_KIND, "version": extra.version, "lines": lines}, retry=retry
        )
        if over:
            logger.info("go game %d: over, %s", row.id, game.result)
        self._announce(new, lines, pending)
        self._schedule(new)

    async def _start(self, table: GoTable, second: SeatRow, lines: Sequence[str]) -> None:
        """Seat ``second`` beside the creator, Black and White by the options, and start the game."""
        options = table.options
        creator = replace(table.row.seats[0], seat=BLACK_SEAT if options.creator_black else WHITE_SEAT)
        other = replace(second, seat=1 - creator.seat)
        seats = (creator, other) if creator.seat == BLACK_SEAT else (other, creator)
        with engine_refusals():
            game = Game(options.size, komi=options.komi, handicap=options.handicap, method=options.method)
        extra = Extra(version=1)
        now = self._clock.now()
        timed = options.turn_seconds and not seats[seat_of_colour(game.to_move)].is_ai
        row = replace(
            table.row,
            status=GameStatus.ACTIVE,
            seats=seats,
            state=table.state(game, extra),
            deadline=now + options.turn_seconds if timed else None,
            updated_at=now,
        )
        new = GoTable(row, options, game, extra)
        log = [LogEntry("started", other.seat, {"user_id": other.user_id}, now)]
        pending = await self._save(new, log, (), {"kind": OUTBOX_KIND, "version": 1, "lines": list(lines)})
        logger.info("go game %d: started", row.id)
        self._announce(new, lines, pending)
        self._schedule(new)

    async def _save(
        self,
        table: GoTable,
        log: Sequence[LogEntry],
        stats: Sequence[KindStatsDelta] = (),
        outbox: dict[str, Any] | None = None,
        *,
        retry: bool = False,
    ) -> int | None:
        """Write the table (one transaction), then make it the channel's, or drop a closed game. With
        ``retry`` (the service's own work) a failed write is tried again with backoff, the channel told
        once. Returns the outbox entry.

        Raises:
            StorageError: the write failed (without ``retry``): nothing changed.
        """
        channel_id = table.row.channel_id
        attempt = 0
        while True:
            try:
                with typed_storage_errors():
                    pending = await self._store.save_go_game(table.row, log, stats, outbox)
                break
            except StorageError as error:
                if not retry or isinstance(error, StorageRangeError):
                    raise
                attempt += 1
                if attempt == 1:
                    self._post(channel_id, Message(retry_notice(error)))
                await self._clock.sleep(retry_delay(attempt))
        if table.row.status.is_open:
            self._tables[channel_id] = table
        else:
            self._tables.pop(channel_id, None)
            self._tasks.stop(channel_id)
        return pending

    async def _propose_dead(self, table: GoTable, game: Game, extra: Extra) -> Extra:
        """After the second pass: mark the AI's proposal of dead stones on ``game``; an AI seat accepts."""
        dead, proposer = await self._ai.dead_stones(game.copy())
        game.set_dead(dead)
        extra = replace(extra, proposal=dead, proposer=proposer)
        self._ai_accepts(game, extra, table.row.seats)
        return extra

    @staticmethod
    def _ai_accepts(game: Game, extra: Extra, seats: Sequence[SeatRow]) -> None:
        """An AI seat accepts the marks when they are its proposal."""
        for seat in seats:
            if seat.is_ai and game.dead == extra.proposal and game.phase is Phase.SCORING:
                game.accept(colour_of(seat.seat))

    # Inside: announcements ----------------------------------------------------------------------

    def _announce(self, table: GoTable, lines: Sequence[str], pending: int | None) -> None:
        """Queue the announcement of the table's state opened by ``lines`` in the channel's delivery
        task (after what the channel has queued) and return at once: :meth:`_announce_now` is the job."""
        self._deliveries.send(table.row.channel_id, lambda: self._announce_now(table, lines, pending))

    async def _announce_now(self, table: GoTable, lines: Sequence[str], pending: int | None) -> None:
        """Render and post the message of the table's state opened by ``lines``, then mark ``pending``
        sent. Never raises (the change is committed)."""
        try:
            message = await self._state_message(table, lines)
            await self._post_now(table.row.channel_id, keyed(message, table.row, pending, "state"))
        except Exception:
            logger.exception("go game %d: could not announce", table.row.id)
        if pending is not None:
            try:
                await self._store.mark_sent(pending, self._clock.now())
            except Exception:
                logger.exception(
                    "could not mark announcement %d sent: it goes out again at the next start", pending
                )

    async def _deliver_pending(self) -> None:
        """Deliver the Go announcements left unsent by a crash, rebuilt from the stored games; one whose
        game moved on since (or cannot be read) is marked sent without being delivered."""
        for entry in await self._store.pending_outbox(GameKind.GO):
            try:
                version = int(entry.data["version"])
                lines = [str(line) for line in entry.data["lines"]]
                table = await self._stored_table(entry.game_id)
            except Exception:
                logger.exception(
                    "go game %d: announcement %d cannot be read: dropped", entry.game_id, entry.id
                )
                await self._store.mark_sent(entry.id, self._clock.now())
                continue
            if table is None or table.extra.version != version:
                logger.warning("go game %d: announcement %d is out of date: dropped", entry.game_id, entry.id)
                await self._store.mark_sent(entry.id, self._clock.now())
                continue
            logger.info(
                "go game %d: delivering the announcement of version %d after a restart",
                entry.game_id,
                version,
            )
            self._announce(table, lines, entry.id)

    async def _stored_table(self, game_id: int) -> GoTable | None:
        for table in self._tables.values():
            if table.row.id == game_id:
                return table
        row = await self._store.go_game(game_id)
        if row is None or row.state is None:
            return None
        return GoTable.load(row)

    def _lobby_message(self, table: GoTable) -> Message:
        row = table.row
        mentions = (row.creator_id,) + (() if table.options.opponent is None else (table.options.opponent,))
        return Message(
            text.lobby_text(table.options, row.seats[0], row.creator_id),
            mentions=mentions,
            buttons=(Button.GO_JOIN, Button.GO_CANCEL),
            game=row.id,
        )

    async def _state_message(self, table: GoTable, lines: Sequence[str]) -> Message:
        """The public message of the table's state: ``lines``, then the players and whose turn it is
        (or the dead-stone phase, the undo question, the result), with the board and the buttons."""
        game = table.started()
        seats = table.row.seats
        black, white = (seat.name for seat in seats)
        image = await asyncio.to_thread(self._renderer, game, black=black, white=white)
        board = (Attachment(f"go-{table.row.id}-{table.extra.version}.png", image),)
        body = [*lines, text.players_line(game, seats)]
        row = table.row
        undo = table.extra.undo
        if game.phase is Phase.OVER:
            body.append(text.result_text(game, seats))
            return Message("\n".join(body), board)
        if undo is not None:
            other = seats[1 - undo]
            body.append(text.undo_request_text(seats[undo], other, _undo_moves(game, colour_of(undo))))
            buttons: tuple[Button, ...] = (Button.GO_UNDO_ACCEPT, Button.GO_UNDO_REFUSE)
            return _public(body, board, _people(other), buttons, row.id, table.extra.version)
        if game.phase is Phase.SCORING:
            body.append(text.scoring_text(game, table.extra.proposer, table.extra.proposal, game.accepted))
            buttons = (Button.GO_ACCEPT_SCORE, Button.GO_RESUME, Button.GO_UNDO, Button.GO_RESIGN)
            return _public(body, board, (), buttons, row.id, table.extra.version)
        current = table.seat_to_move()
        body.append(text.to_move_line(current, table.options.turn_seconds))
        buttons = (Button.GO_UNDO, Button.GO_RESIGN)
        if not current.is_ai:
            buttons = (Button.GO_PLAY, Button.GO_PASS, *buttons)
        return _public(body, board, _people(current), buttons, row.id, table.extra.version)

    def _post(self, channel_id: int, message: Message) -> None:
        """Queue ``message`` in the channel's delivery task, after what the channel has queued; return
        at once."""
        self._deliveries.send(channel_id, lambda: self._post_now(channel_id, message))

    async def _post_now(self, channel_id: int, message: Message) -> None:
        """Post ``message`` in the channel now (from its delivery task); a failure is logged."""
        try:
            await self._notifier.post(channel_id, message)
        except Exception:
            logger.exception("could not post in channel %d", channel_id)

    # Inside: timers and AI turns ----------------------------------------------------------------

    def _schedule(self, table: GoTable) -> None:
        """After a change: start the AI's turn if it is the AI's move, or arm the turn's timer."""
        channel_id = table.row.channel_id
        self._tasks.cancel_timer(channel_id)
        game = table.game
        if game is None or table.row.status is not GameStatus.ACTIVE or game.phase is not Phase.PLAY:
            return
        if table.extra.undo is not None:
            return
        seat = table.seat_to_move()
        if seat.is_ai:
            if self._tasks.may_start_ai_turn(channel_id):
                self._tasks.start_ai_turn(
                    channel_id, self._ai_turn(channel_id, table.row.id, table.extra.version)
                )
        elif table.row.deadline is not None:
            self._tasks.arm_timer(channel_id, self._timer(table))

    def _current(self, channel_id: int, game_id: int, version: int) -> GoTable | None:
        table = self._tables.get(channel_id)
        if table is None or table.row.id != game_id or table.extra.version != version:
            return None
        return table

    async def _ai_turn(self, channel_id: int, game_id: int, version: int) -> None:
        """Choose the AI's move outside the lock (in the pool), then play it if the game has not moved
        on (else look again)."""
        try:
            table = self._current(channel_id, game_id, version)
            if table is None:
                return
            game = table.started()
            seat = seat_of_colour(game.to_move)
            level = table.options.ai_level
            assert level is not None
            move = await self._ai.choose(game, level, _turn_seed(table.row.seed, version))
            async with self._locks.hold(channel_id):
                table = self._current(channel_id, game_id, version)
                if table is None:
                    self._resume_ai(channel_id, game_id)
                    return
                await self._commit(table, self._ai_change(table, seat, move), "ai_move", seat, retry=True)
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.exception("go game %d: the AI turn failed", game_id)
        finally:
            self._tasks.ai_turn_done(channel_id)

    def _ai_change(self, table: GoTable, seat: int, move: AIMove) -> Change:
        label = text.seat_label(table.row.seats[seat])

        def change(game: Game, extra: Extra) -> tuple[Extra, list[str]]:
            colour = colour_of(seat)
            if move == RESIGN:
                game.resign(colour)
                return _moved(extra), [f"{label} resigned."]
            if isinstance(move, Point):
                try:
                    played = game.play(move, colour)
                    return _moved(extra), [text.move_line(table.row.seats[seat], played)]
                except Exception:
                    logger.exception(
                        "go game %d: the AI's move %s was refused: it passes", table.row.id, move
                    )
            game.pass_turn(colour)
            return _moved(extra), [f"{label} passed."]

        return change

    def _resume_ai(self, channel_id: int, game_id: int) -> None:
        table = self._tables.get(channel_id)
        if table is not None and table.row.id == game_id:
            self._schedule(table)

    async def _timer(self, table: GoTable) -> None:
        """Wait for the reminder (once), then for the move's deadline, and hand the action to a work
        task."""
        row = table.row
        deadline = row.deadline
        assert deadline is not None
        key = (row.channel_id, row.id, table.extra.version)
        now = self._clock.now()
        if not row.reminded and self._reminder_left > 0 and now < deadline:
            await self._clock.sleep(deadline - table.options.turn_seconds * self._reminder_left - now)
            self._tasks.spawn(self._remind(*key))
            return
        await self._clock.sleep(deadline - now)
        self._tasks.spawn(self._expire(*key))

    async def _remind(self, channel_id: int, game_id: int, version: int) -> None:
        """Remind the player to move (once a move) and re-arm the timer for the deadline."""
        async with self._locks.hold(channel_id):
            table = self._current(channel_id, game_id, version)
            if table is None or table.row.deadline is None or table.row.reminded:
                return
            seat = table.seat_to_move()
            row = replace(table.row, reminded=True, updated_at=self._clock.now())
            new = replace(table, row=row)
            try:
                await self._save(new, [LogEntry("reminder", seat.seat, {}, row.updated_at)], retry=True)
            except Exception:
                logger.exception("go game %d: could not save the reminder", game_id)
                return
            left = max(0, round(table.row.deadline - self._clock.now()))
            assert seat.user_id is not None  # timed moves are people's
            reminder = f"{mention(seat.user_id)}, it is your move: {left} seconds left."
            self._post(channel_id, Message(reminder, mentions=(seat.user_id,)))
            self._schedule(new)

    async def _expire(self, channel_id: int, game_id: int, version: int) -> None:
        """The move's time ran out: the player to move loses on time."""
        async with self._locks.hold(channel_id):
            table = self._current(channel_id, game_id, version)
            if table is None or table.game is None:
                return
            seat = table.seat_to_move()

            def change(game: Game, extra: Extra) -> tuple[Extra, list[str]]:
                game.lose_on_time(colour_of(seat.seat))
                return _moved(extra), [f"{text.seat_label(seat)} ran out of time."]

            try:
                await self._commit(table, change, "timeout", seat.seat, retry=True)
            except Exception:
                logger.exception("go game %d: could not apply the timeout", game_id)


def _moved(extra: Extra) -> Extra:
    """The extra state after a change: the next version, no undo question."""
    return replace(extra, version=extra.version + 1, undo=None)


def _undo_moves(game: Game, colour: Color) -> list[Move]:
    """The moves to take back so that ``colour``'s last move is undone: the last move, or the last two
    when the opponent replied.

    Raises:
        UndoError: ``colour`` has made no move; GameOverError: the game is over.
    """
    moves = game.moves
    if game.phase is Phase.OVER:
        raise UndoError("The game is over")
    for back, move in enumerate(reversed(moves[-2:]), start=1):
        if move.color is colour:
            return list(moves[-back:])
    raise UndoError("You have no move to take back")


def _take_back(game: Game, count: int) -> list[Move]:
    """Undo ``count`` moves (a pass taken back leaves the dead-stone phase it started); the moves taken
    back, last first."""
    taken = []
    for _ in range(count):
        move = game.undo()
        if move is not None:
            taken.append(move)
    return taken


def _moves_text(moves: Sequence[Move]) -> str:
    return text.moves_text(moves)


def _stats(table: GoTable) -> list[KindStatsDelta]:
    """The stats of the human seats of a finished game."""
    game = table.game
    assert game is not None
    winner = game.winner
    return [
        KindStatsDelta(
            table.row.guild_id,
            GameKind.GO,
            seat.user_id,
            seat.name,
            won=winner is not None and colour_of(seat.seat) is winner,
            drawn=winner is None,
        )
        for seat in table.row.seats
        if seat.user_id is not None
    ]


def _turn_seed(seed: int, version: int) -> int:
    return random.Random(f"{seed}:{version}").getrandbits(SEED_BITS)


def _people(seat: SeatRow) -> tuple[int, ...]:
    return () if seat.user_id is None else (seat.user_id,)


def _public(
    body: Sequence[str],
    board: tuple[Attachment, ...],
    mentions: tuple[int, ...],
    buttons: tuple[Button, ...],
    game_id: int,
    version: int,
) -> Message:
    return Message("\n".join(body), board, mentions=mentions, buttons=buttons, game=game_id, turn=version)


def _ack(content: str) -> Message:
    return Message(content, private=True)
