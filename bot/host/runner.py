"""The runner of the open games: their tables and locks, the one path every change takes, what goes out
to the channels and DMs, turn timers and AI turns.

:class:`~bot.games.scrabble.commands.GameService` holds one and calls into it from its commands; the
runner never calls the commands. Every state change follows one path, under the game's lock: the
action is applied to a copy of the engine state (the engine raises, changing nothing, on bad input),
the new state, seats, log entries and stats are written in one SQLite transaction, and only once it is
committed does the in-memory game change and the announcements go out. If the write fails, nothing
changed, and the command is refused with a :class:`~bot.host.errors.StorageError`; the service's own
work (an AI turn, a timeout, a reminder) retries the write instead, with backoff, telling the channel
once.

The announcement of a turn is written to the store's outbox in the turn's own transaction; it is then
handed to the channel's delivery task (:mod:`bot.host.delivery`), which renders and sends it after
the channel's earlier messages, apart from the lock (the command answers at once), marks it posted once
its message is out and sent once the racks it DMs are too; one that a crash left unsent is delivered at
the next :meth:`GameRunner.start`, without posting again one that was posted.
Everything the runner says in a channel goes through that task, so a channel's messages keep their order.
A busy channel's announcements coalesce: one whose game has a newer announcement queued behind it goes
out as its text alone, and only the newest shows the board (and DMs the racks the older ones owed).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Final, TypeVar

from bot.config import Config
from bot.games.scrabble import announcements, text
from bot.games.scrabble.actions import Action, move_action, timeout_action, turn_seed
from bot.games.scrabble.records import event_entries, log_line, stats_deltas
from bot.host import delivery
from bot.host.delivery import Deliveries, Job
from bot.host.errors import NoGameError, StaleTurnError, StorageError, StorageRangeError
from bot.host.listeners import Listeners
from bot.host.locks import ChannelLocks
from bot.host.messages import Message, mention
from bot.host.outbox import Announcement, keyed
from bot.host.protocols import AiPlayer, BoardLinks, Clock, Notifier, Renderer
from bot.host.seats import is_program, shown
from bot.host.storage import retry_delay, retry_notice, typed_storage_errors
from bot.host.store.games import GameRow, GameStatus, LogEntry, SeatRow, StatsDelta, Store
from bot.host.table import Table, Tables
from bot.host.tasks import Tasks, outcome_seen
from scrabble_core.ai import Level, should_challenge
from scrabble_core.errors import ScrabbleError
from scrabble_core.game import ChallengeMode, Event, Game
from scrabble_core.lexicon import WordList

__all__ = ["GameRunner", "Window"]

logger = logging.getLogger("bot.host")

_T = TypeVar("_T")

THINKING_NOTICE_AFTER: Final = 1.5
"""Seconds an AI may take over its move before the channel is told that it is thinking: a medium AI
moves well within it, and a notice before every one of its moves was about 40% of a busy bot's
channel messages (``bench/load.py`` at 200 games)."""


@dataclass(frozen=True, slots=True)
class Window:
    """An AI's open challenge window: the seats that let the play stand, and the event set when all
    the other humans have."""

    declined: set[int]
    closed: asyncio.Event


class _Queued:
    """An announcement waiting for its channel: its turn message, built (its board drawn) from the
    moment it is queued, and whether a newer announcement of its game superseded it."""

    def __init__(self, message: Awaitable[Message]) -> None:
        self.message = asyncio.ensure_future(message)
        self.message.add_done_callback(outcome_seen)  # superseded: maybe never awaited
        self.superseded = False

    def supersede(self) -> None:
        """A newer announcement of the game is queued: give up the message if it is not built yet (a
        board still waiting to be drawn is never drawn)."""
        self.superseded = True
        self.message.cancel()


@dataclass
class _Owed:
    """What a game's older announcements left to its newest: the seats to DM their racks, and the
    outbox entries to mark sent once that is done."""

    seats: set[int] = field(default_factory=set)
    entries: list[int] = field(default_factory=list)


class GameRunner:
    """The open games by channel (:attr:`tables`, read-only outside), and everything that changes them
    or acts on its own. Call :meth:`start` once before use and :meth:`close` at the end."""

    def __init__(
        self,
        config: Config,
        store: Store,
        lexicon: WordList,
        notifier: Notifier,
        ai: AiPlayer,
        renderer: Renderer,
        clock: Clock,
    ) -> None:
        self._config = config
        self._store = store
        self._lexicon = lexicon
        self._notifier = notifier
        self._ai = ai
        self.renderer = renderer
        self._clock = clock
        self.tables = Tables()
        self.locks = ChannelLocks()
        self._tasks = Tasks()
        self._deliveries = Deliveries()
        self._newest: dict[int, _Queued] = {}  # game id: its newest announcement
        self._owed: dict[int, _Owed] = {}  # game id: what its older announcements left to a newer one
        self._windows: dict[int, Window] = {}
        self.listeners = Listeners()
        self.links: BoardLinks | None = None
        """The web board's links for the messages (None: the bot serves no board)."""

    # Life cycle ---------------------------------------------------------------------------------

    async def start(self) -> None:
        """Load every open game from the store, deliver the announcements a crash left unsent, and
        :meth:`schedule` each game. A game that cannot be loaded is quarantined (logged with its id,
        marked in the store) and the others start."""
        for row in await self._store.open_games():
            try:
                self.tables[row.channel_id] = self._loaded(row)
            except Exception as error:  # any broken state: that game alone is set aside
                logger.error("game %d cannot be loaded (%s): quarantined", row.id, error)
                await self._store.quarantine(row.id, f"{type(error).__name__}: {error}")
        await self._deliver_pending()
        await self.delivered()
        for channel_id, table in list(self.tables.items()):
            async with self.lock(channel_id):
                await self.schedule(table)
        logger.info("service started with %d open games", len(self.tables))

    def _loaded(self, row: GameRow) -> Table:
        """The table of a stored open game.

        Raises:
            ScrabbleError, ValueError, KeyError, TypeError: its state cannot be restored, or its seats
                are not its players.
        """
        if row.state is None:
            if row.status is not GameStatus.LOBBY:
                raise ValueError(f"a game {row.status} without a state")
            return Table(row, None)
        game = Game.from_dict(row.state, lexicon=self._lexicon)
        if len(game.players) != len(row.seats):
            raise ValueError(f"{len(row.seats)} seats for {len(game.players)} players")
        return Table(row, game)

    async def close(self) -> None:
        """Stop every timer and AI turn, then let the queued deliveries finish (for a few seconds at
        most: see :meth:`~bot.host.delivery.Deliveries.close`)."""
        await self._tasks.close()
        await self._deliveries.close(delivery.CLOSE_GRACE_SECONDS)

    async def idle(self) -> None:
        """Wait until no AI turn or timer action is running and every queued delivery went out."""
        await self._tasks.idle()
        await self.delivered()

    async def delivered(self) -> None:
        """Wait until every queued delivery went out (AI turns and timers may still be running)."""
        await self._deliveries.idle()

    @property
    def deliveries(self) -> Deliveries:
        """The channels' delivery tasks, for the services that share them (Go's)."""
        return self._deliveries

    # The state-change path ----------------------------------------------------------------------

    def lock(self, channel_id: int) -> AbstractAsyncContextManager[None]:
        """Hold the channel's lock (``async with``), as every change of its game does."""
        return self.locks.hold(channel_id)

    def table(self, channel_id: int, game_id: int | None) -> Table:
        """The channel's open game, which must be ``game_id`` if given.

        Raises:
            NoGameError.
        """
        table = self.tables.get(channel_id)
        if table is None:
            raise NoGameError
        if game_id is not None and table.row.id != game_id:
            raise NoGameError("That game is over")
        return table

    def copy(self, table: Table) -> Game:
        """A copy of the table's engine state that an action may change.

        Raises:
            GameNotStartedError: the game is still in its lobby.
        """
        return table.started().copy()

    async def create(self, draft: GameRow, log: Sequence[LogEntry]) -> GameRow:
        """Write a new lobby (``draft`` gets its id from the store) and make it its channel's game."""
        with typed_storage_errors():
            row = await self._store.create_game(draft, log)
        self.tables[row.channel_id] = Table(row, None)
        return row

    async def player_turn(
        self,
        channel_id: int,
        user_id: int,
        game_id: int | None,
        action: Callable[[Game, int], list[Event]],
        turn: int | None = None,
        *,
        challenge: bool = False,
    ) -> list[Event]:
        """Apply ``action(game, seat)`` for ``user_id``'s seat under the game's lock (a player's command),
        if the game is still at move number ``turn`` (when given; see :meth:`Table.check_turn`).

        Raises:
            NoGameError; GameNotStartedError; NotSeatedError; StaleTurnError; the engine's refusal.
        """
        async with self.lock(channel_id):
            table = self.table(channel_id, game_id)
            table.check_turn(turn, challenge=challenge)
            seat = table.seat_of(user_id)
            return await self.turn(table, seat, lambda game: action(game, seat))

    async def turn(
        self,
        table: Table,
        seat: int | None,
        action: Action,
        *,
        timed_out: bool = False,
        lines: Sequence[str] = (),
        retry: bool = False,
    ) -> list[Event]:
        """Apply an engine action to a copy of the game, save, then announce and schedule what comes next.

        ``seat`` acted (its timeout count is reset, or counted when ``timed_out``); ``lines`` open the
        public message (before the lines of the events); ``retry`` as :meth:`save`. Must hold the lock.

        Raises:
            ScrabbleError: the engine refused the action, or (without ``retry``) a StorageError: the
                write failed (nothing changed).
        """
        before = table.started()
        game = self.copy(table)
        events = action(game)
        now = self._clock.now()
        seats = list(table.row.seats)
        if seat is not None:
            timeouts = seats[seat].timeouts + 1 if timed_out else 0
            seats[seat] = replace(seats[seat], timeouts=timeouts)
        deadline, reminded = table.deadline_after(game, seat, now, self._config.challenge_window_seconds)
        row = replace(
            table.row,
            status=GameStatus.FINISHED if game.is_over else GameStatus.ACTIVE,
            state=game.to_dict(),
            seats=tuple(seats),
            deadline=deadline,
            reminded=reminded,
            updated_at=now,
        )
        log = event_entries(events, now)
        if timed_out and seat is not None:
            log.insert(0, LogEntry("timeout", seat, {"count": seats[seat].timeouts}, now))
        new = Table(row, game)
        opening = list(lines)
        if timed_out and seat is not None:
            opening.append(f"{shown(seats[seat].name)} ran out of time.")
        if not events:
            opening.append(text.failed_challenge_line(game, seat, row.seats))
        racks = (
            []
            if game.is_over
            else [s for s in row.seats if before.players[s.seat].rack != game.players[s.seat].rack]
        )
        announcement = Announcement(
            len(game.history), tuple(events), tuple(opening), tuple(s.seat for s in racks)
        )
        stats = stats_deltas(row, game) if game.is_over else ()
        pending = await self.save(new, log, stats, announcement, retry=retry)
        for event in events:
            logger.info("game %d: %s", row.id, log_line(event, row.seats))
        if game.is_over:
            logger.info("game %d: over, winners %s", row.id, game.winners())
        await self.announce(new, events, opening, racks, pending=pending)
        await self.schedule(new)
        return events

    async def save(
        self,
        table: Table,
        log: Sequence[LogEntry],
        stats: Sequence[StatsDelta] = (),
        announcement: Announcement | None = None,
        *,
        retry: bool = False,
    ) -> int | None:
        """Write the table, its log, stats and ``announcement`` (to the outbox) in one transaction, then
        make it the channel's (or drop a closed game). Returns the outbox entry of the announcement,
        for :meth:`announce` to mark sent.

        With ``retry`` (the service's own work, which nobody waits for), a failed write is retried
        after 0.5 s, 1 s, 2 s... (up to a minute between tries) until it succeeds, the channel being
        told once; the caller must hold the lock, so the game cannot change meanwhile.

        Raises:
            StorageError: the write failed (without ``retry``, or a number out of range): nothing
                changed.
        """
        channel_id = table.row.channel_id
        data = None if announcement is None else announcement.to_dict()
        attempt = 0
        while True:
            try:
                with typed_storage_errors():
                    pending = await self._store.save(table.row, log, stats, data)
                break
            except StorageError as error:
                if not retry or isinstance(error, StorageRangeError):  # that one never succeeds
                    raise
                attempt += 1
                delay = retry_delay(attempt)
                logger.warning(
                    "game %d: could not save (%s): retry %d in %.1f s", table.row.id, error, attempt, delay
                )
                if attempt == 1:
                    await self.post(channel_id, Message(retry_notice(error)))
                await self._clock.sleep(delay)
        if table.row.status.is_open:
            self.tables[channel_id] = table
        else:
            self.tables.pop(channel_id, None)
            self._tasks.stop(channel_id)
        self.listeners.changed(table)
        return pending

    # Announcements ------------------------------------------------------------------------------

    def deliver(self, channel_id: int, job: Job) -> None:
        """Run ``job`` (which builds and sends something for the channel) after everything queued for
        the channel before it, in the channel's delivery task; return at once."""
        self._deliveries.send(channel_id, job)

    async def announce(
        self,
        table: Table,
        events: Sequence[Event],
        lines: Sequence[str],
        racks: Sequence[SeatRow],
        *,
        pending: int | None = None,
    ) -> None:
        """After a saved turn: queue its announcement in the channel's delivery task and return at once.
        There, the turn message is posted (and the end of a game that is over), ``racks`` are DMed to
        their owners, then the outbox entry ``pending`` is marked sent (see :meth:`_after_post`).

        The turn message is built (its board drawn) from the moment the announcement is queued,
        while the channel's earlier messages go out. A newer announcement of the game coalesces with
        this one. If it is queued by the time this one's turn comes, or while its board is being
        drawn, this one goes out as its text alone
        (:func:`announcements.past_turn_message`: its board is not drawn, or no longer waited for); if
        it is queued by the time this one is posted, this one is posted as it is. Either way the
        newer one DMs ``racks`` after its own post, as they are then. ``pending`` is marked posted once
        its message is out, if DMs are still to come, and sent once they are (a crash before leaves it
        in the outbox: the next start DMs the racks, and posts the message only if it was not marked
        posted, with the key of its first post: :func:`~bot.host.outbox.keyed`).

        Never raises: the change is saved already, so a failure is logged and the channel's next
        messages still go out."""
        if (older := self._newest.get(table.row.id)) is not None:
            older.supersede()
        queued = self._newest[table.row.id] = _Queued(self.turn_message(table, events, lines))
        self.deliver(
            table.row.channel_id, lambda: self._announce_now(table, events, lines, racks, pending, queued)
        )

    async def _announce_now(
        self,
        table: Table,
        events: Sequence[Event],
        lines: Sequence[str],
        racks: Sequence[SeatRow],
        pending: int | None,
        queued: _Queued,
    ) -> None:
        """The delivery job of :meth:`announce`: ``queued`` is its message, superseded when a newer
        one is queued."""
        channel_id, game_id = table.row.channel_id, table.row.id
        try:
            await asyncio.wait({queued.message})  # built, failed or given up
        except asyncio.CancelledError:  # the delivery is cut short (close): so is its drawing
            queued.message.cancel()
            raise
        superseded = queued.superseded
        message = None
        if not superseded:
            try:
                message = queued.message.result()
            except Exception:
                logger.exception("game %d: could not announce the turn: its text goes out", game_id)
        if self._newest.get(game_id) is queued:
            del self._newest[game_id]
        if message is None:  # superseded, or its board could not be drawn
            message = announcements.past_turn_message(table, events, lines)
        await self._post_now(channel_id, keyed(message, table.row, pending, "turn"))
        if not superseded and table.started().is_over:
            try:
                final = await announcements.final_message(table, self.renderer)
                await self._post_now(channel_id, keyed(final, table.row, pending, "end"))
            except Exception:
                logger.exception("game %d: could not announce the end", game_id)
        await self._after_post(table, racks, pending)

    async def _after_post(self, table: Table, racks: Sequence[SeatRow], pending: int | None) -> None:
        """After the post of an announcement (outbox entry ``pending``): DM ``racks`` and those the
        game's older announcements owed, then mark their entries sent, ``pending`` last; or, if a newer
        announcement of the game is queued meanwhile, leave all that to it (the racks go after its own
        post, as they are then). A game over DMs its last ``racks`` only.

        An entry is marked posted before its DMs (its own racks or the older ones'), so that a crash
        before it is marked sent DMs them at the next start without posting it again; one with no DM to
        wait for is marked sent at once."""
        game_id = table.row.id
        owed = self._owed.pop(game_id, _Owed())
        if game_id in self._newest:
            if pending is not None and racks:
                await self._mark_posted(pending)
                owed.entries.append(pending)
            elif pending is not None:
                await self._mark_sent(pending)
            owed.seats.update(seat.seat for seat in racks)
            if owed.seats or owed.entries:
                self._owed[game_id] = owed
            return
        if not table.started().is_over:
            racks = [table.row.seats[seat] for seat in sorted(owed.seats | {seat.seat for seat in racks})]
        if pending is not None and racks:
            await self._mark_posted(pending)
        for seat in racks:
            try:
                await self._send_rack(table, seat)
            except Exception:
                logger.exception("game %d: could not send seat %d its rack", game_id, seat.seat)
        for entry_id in [*owed.entries, *([] if pending is None else [pending])]:
            await self._mark_sent(entry_id)

    async def _mark_posted(self, entry_id: int) -> None:
        """Mark outbox entry ``entry_id`` posted; if that fails, its message is posted again at the
        next start, should the entry not be marked sent by then."""
        try:
            await self._store.mark_posted(entry_id, self._clock.now())
        except Exception:
            logger.exception("could not mark announcement %d posted", entry_id)

    async def _mark_sent(self, entry_id: int) -> None:
        """Mark outbox entry ``entry_id`` sent; if that fails, it goes out again at the next start."""
        try:
            await self._store.mark_sent(entry_id, self._clock.now())
        except Exception:
            logger.exception(
                "could not mark announcement %d sent: it is sent again at the next start", entry_id
            )

    async def _deliver_pending(self) -> None:
        """Deliver the announcements left unsent by a crash, rebuilt from the stored games, in order.
        One marked posted is not posted again: the racks it was to DM are DMed (as they are now, after
        the game's newer announcements if any). One not posted goes through :meth:`announce`; if its
        game has moved on since, it is superseded by the game's up-to-date one, so it goes out as its
        text and its racks go with the up-to-date one; unless that one was sent already: a channel's
        announcements go out in order, so this one went out before (only marking it sent failed) and is
        marked sent. One that cannot be read is marked sent without being delivered."""
        found: list[tuple[int, bool, Announcement, Table]] = []
        for entry in await self._store.pending_outbox():
            try:
                announcement = Announcement.from_dict(entry.data)
                table = await self._stored_table(entry.game_id)
            except Exception:  # a broken entry or game must not stop the start
                logger.exception("game %d: announcement %d cannot be read: dropped", entry.game_id, entry.id)
                await self._mark_sent(entry.id)
                continue
            if table is None or table.game is None:
                logger.warning("game %d: announcement %d has no open game: dropped", entry.game_id, entry.id)
                await self._mark_sent(entry.id)
                continue
            found.append((entry.id, entry.posted, announcement, table))
        pending_now = {
            table.row.id for _, _, item, table in found if len(table.started().history) == item.move
        }
        unposted: list[tuple[int, Announcement, Table, list[SeatRow]]] = []
        posted_only: dict[int, Table] = {}
        for entry_id, posted, announcement, table in found:
            game_id, seats = table.row.id, table.row.seats
            if game_id not in pending_now:
                logger.warning("game %d: announcement %d went out before: marked sent", game_id, entry_id)
                await self._mark_sent(entry_id)
                continue
            racks = [seats[seat] for seat in announcement.racks if 0 <= seat < len(seats)]
            if not posted:
                unposted.append((entry_id, announcement, table, racks))
                continue
            logger.info(
                "game %d: announcement %d was posted: DMing its racks after a restart", game_id, entry_id
            )
            owed = self._owed.setdefault(game_id, _Owed())  # for the game's next announcement, or below
            owed.seats.update(seat.seat for seat in racks)
            owed.entries.append(entry_id)
            posted_only[game_id] = table
        # Every posted entry is owed before any announcement is queued: the first to go out takes them.
        for entry_id, announcement, table, racks in unposted:
            logger.info(
                "game %d: delivering the announcement of move %d after a restart",
                table.row.id,
                announcement.move,
            )
            await self.announce(table, announcement.events, announcement.lines, racks, pending=entry_id)
            posted_only.pop(table.row.id, None)
        for table in posted_only.values():
            self.deliver(table.row.channel_id, partial(self._after_post, table, (), None))

    async def _stored_table(self, game_id: int) -> Table | None:
        """Game ``game_id``: its open table, or the stored game if it has closed; ``None`` if it is a
        quarantined or unknown game.

        Raises:
            ScrabbleError, ValueError, KeyError, TypeError: its state cannot be restored.
        """
        for table in self.tables.values():
            if table.row.id == game_id:
                return table
        row = await self._store.game(game_id)
        if row is None or row.status.is_open or row.state is None:
            return None
        return Table(row, Game.from_dict(row.state, lexicon=self._lexicon))

    async def post(self, channel_id: int, message: Message) -> None:
        """Queue ``message`` for the channel, after everything queued for it before, and return at
        once; a failure to send it is logged."""
        self.deliver(channel_id, lambda: self._post_now(channel_id, message))

    async def _post_now(self, channel_id: int, message: Message) -> None:
        """Post ``message`` in the channel now (from its delivery task); a failure is logged."""
        try:
            await self._notifier.post(channel_id, message)
        except Exception:
            logger.exception("could not post in channel %d", channel_id)

    async def _send_rack(self, table: Table, seat: SeatRow) -> None:
        """DM a human their rack (and their board link); if that fails, tell the channel (without the
        rack). An AI or a program (which sees its rack over the board protocol) gets none.

        The rack is drawn ahead of the boards waiting (``urgent``): the channel's next announcements
        wait for this DM, and at a hundred moves a second a rack drawn in turn held a channel about
        4 s (``bench/load.py`` at 200 games)."""
        if seat.user_id is None or is_program(seat.user_id):
            return
        message = await announcements.rack_message(table, seat, self.renderer, urgent=True)
        message = announcements.with_seat_link(message, self.links, table.row.id, seat.seat)
        try:
            delivered = await self._notifier.direct(seat.user_id, message)
        except Exception:
            logger.exception("could not DM user %d", seat.user_id)
            delivered = False
        if not delivered:
            await self._post_now(
                table.row.channel_id, announcements.rack_not_sent_message(table, seat.user_id)
            )

    async def turn_message(
        self, table: Table, events: Sequence[Event], lines: Sequence[str], *, urgent: bool = False
    ) -> Message:
        """The public message after a turn (:func:`~bot.games.scrabble.announcements.turn_message`, its board
        drawn first if ``urgent``), with the Open board link."""
        message = await announcements.turn_message(table, events, lines, self.renderer, urgent=urgent)
        if table.started().is_over:  # the board's links end with the game
            return message
        return announcements.with_board_link(message, self.links, table.row.id)

    # Timers and AI turns ------------------------------------------------------------------------

    async def schedule(self, table: Table) -> None:
        """After a change: start the AI's turn if it is an AI's, or arm the human turn's timer. Must
        hold the lock."""
        channel_id = table.row.channel_id
        self._tasks.cancel_timer(channel_id)
        if (window := self._windows.pop(channel_id, None)) is not None:
            window.closed.set()  # the game changed (a challenge): the waiting AI looks again now
        game = table.game
        if game is None or game.is_over or table.row.status is not GameStatus.ACTIVE:
            return
        seat = table.row.seats[game.current]
        if seat.is_ai:
            if self._tasks.may_start_ai_turn(channel_id):
                deadline = table.row.deadline
                if deadline is not None:
                    self._windows[channel_id] = Window(set(), asyncio.Event())
                    left = max(0, round(deadline - self._clock.now()))
                    await self.post(channel_id, announcements.window_message(table, left))
                self._tasks.start_ai_turn(
                    channel_id, self._ai_turn(channel_id, table.row.id, table.turn_key())
                )
        elif table.row.deadline is not None:
            self._tasks.arm_timer(channel_id, self._timer(table))

    def _current(self, channel_id: int, game_id: int, key: tuple[int, int]) -> Table | None:
        """The channel's table if it is still game ``game_id`` at turn ``key``."""
        table = self.tables.get(channel_id)
        if table is None or table.row.id != game_id or table.game is None or table.turn_key() != key:
            return None
        return table

    def decline_challenge(self, table: Table, seat: int) -> None:
        """``seat`` lets the play stand in the open challenge window of the table's game; the window
        closes once every human but the one who played has said so.

        Raises:
            StaleTurnError: no challenge window is open (the AI has played, or there was none).
        """
        game = table.started()
        played = table.challenge_window(game)
        window = self._windows.get(table.row.channel_id)
        if played is None or window is None or table.row.deadline is None:
            raise StaleTurnError(challenge=True)
        window.declined.add(seat)
        others = {s.seat for s in table.row.seats if not s.is_ai and s.seat != played}
        if others <= window.declined:
            window.closed.set()

    async def _wait_for_challenges(self, channel_id: int, game_id: int, key: tuple[int, int]) -> None:
        """Wait out the challenge window of the AI on turn, if one is open: until its deadline (stored
        with the game, so a restart keeps it) or until every other human has pressed No challenge."""
        table = self._current(channel_id, game_id, key)
        window = self._windows.get(channel_id)
        if table is None or window is None or table.row.deadline is None:
            return
        waits = [
            asyncio.ensure_future(self._clock.sleep(table.row.deadline - self._clock.now())),
            asyncio.ensure_future(window.closed.wait()),
        ]
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for wait in waits:
                wait.cancel()
            if self._windows.get(channel_id) is window:
                del self._windows[channel_id]

    async def _ai_turn(self, channel_id: int, game_id: int, key: tuple[int, int]) -> None:
        """Play the AI's turn: first wait out its challenge window (:meth:`_wait_for_challenges`);
        then, if the last play is challengeable by it, challenge it or not (:meth:`_ai_challenge`); a
        challenge is an action of its own, after which :meth:`turn` schedules the AI's next turn if it
        is still on turn. Otherwise accept a play that went out, or choose the AI's move outside the
        lock. The action is applied if the turn has not moved on."""
        try:
            await self._wait_for_challenges(channel_id, game_id, key)
            table = self._current(channel_id, game_id, key)
            if table is None:
                async with self.lock(channel_id):
                    await self._resume_ai(channel_id, game_id)
                return
            game = self.copy(table)
            seat = game.current
            level = table.row.seats[seat].ai_level or self._config.ai_level
            seed = turn_seed(table.row.seed, key[0])
            lines: list[str] = []
            if phonies := self._ai_challenge(game, seat, level, seed):
                # One action of its own; if the AI is still on turn after it, the next AI turn moves.
                logger.info("game %d: AI seat %d challenges %s", game_id, seat, ", ".join(phonies))
                lines.append(text.ai_challenge_line(table.row.seats[seat].name, phonies))
                action: Action = lambda g: g.challenge(seat)  # noqa: E731
            elif game.awaiting_final_challenge:
                logger.info("game %d: AI seat %d accepts the play that went out", game_id, seat)
                action = lambda g: g.accept(seat)  # noqa: E731
            else:
                choosing = self._ai.choose(game, seat, level, seed)
                move = await self._thinking(table, key, table.row.seats[seat].name, choosing)
                action = move_action(seat, move)
            async with self.lock(channel_id):
                table = self._current(channel_id, game_id, key)
                if table is None:
                    await self._resume_ai(channel_id, game_id)
                    return
                try:
                    await self.turn(table, seat, action, lines=lines, retry=True)
                except ScrabbleError:
                    logger.exception("game %d: the AI's move was refused; it passes", game_id)
                    await self.turn(table, seat, lambda g: g.pass_turn(seat), retry=True)
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.exception("game %d: the AI turn failed", game_id)
        finally:
            self._tasks.ai_turn_done(channel_id)

    async def _thinking(self, table: Table, key: tuple[int, int], name: str, choosing: Awaitable[_T]) -> _T:
        """What ``choosing`` (the AI ``name`` choosing its move at turn ``key`` of the table's game)
        gives; if that takes more than :data:`THINKING_NOTICE_AFTER` seconds (of the service's clock)
        and the game is still at that turn, the channel is told that the AI is thinking, once. A quick
        AI posts nothing but its move.

        Raises:
            Whatever ``choosing`` raises.
        """
        channel_id = table.row.channel_id
        chosen = asyncio.ensure_future(choosing)
        notice = asyncio.ensure_future(self._clock.sleep(THINKING_NOTICE_AFTER))
        try:
            await asyncio.wait((chosen, notice), return_when=asyncio.FIRST_COMPLETED)
            if not chosen.done() and self._current(channel_id, table.row.id, key) is not None:
                await self.post(channel_id, Message(f"{shown(name)} is thinking…"))
            return await chosen
        finally:
            notice.cancel()
            chosen.cancel()

    def _ai_challenge(self, game: Game, seat: int, level: Level, seed: int) -> list[str]:
        """The phonies for which AI ``seat`` (on turn in ``game``) challenges the last play, or none if
        it lets the play stand (:func:`~scrabble_core.ai.should_challenge`, with the service's lexicon
        and a random source seeded by ``seed``, so a re-run after a restart decides the same)."""
        challengeable = game.challengeable
        if game.challenge_mode is ChallengeMode.VOID or challengeable is None or challengeable == seat:
            return []
        words = game.challengeable_words()
        if not should_challenge(words, level, self._lexicon, random.Random(seed)):
            return []
        return [word for word in words if word not in self._lexicon]

    async def _resume_ai(self, channel_id: int, game_id: int) -> None:
        """Called by an AI turn whose turn moved on while it thought (a resign, a challenge...): start a
        new AI turn if an AI is (still or now) to play game ``game_id``. While an AI turn runs,
        :meth:`schedule` starts no other, so it is this one's to do. Must hold the lock."""
        table = self.tables.get(channel_id)
        if table is None or table.row.id != game_id or table.game is None or table.game.is_over:
            return
        if table.row.seats[table.game.current].is_ai:
            logger.info("game %d: the turn moved on while the AI thought; it thinks again", game_id)
            await self.schedule(table)

    async def _timer(self, table: Table) -> None:
        """Wait for the reminder (once), then the deadline, and hand the action to a work task."""
        row = table.row
        channel_id, game_id, key, deadline = row.channel_id, row.id, table.turn_key(), row.deadline
        assert deadline is not None
        now = self._clock.now()
        fraction = self._config.turn.reminder_left
        remind_at = deadline - row.options.turn_seconds * fraction
        if not row.reminded and fraction > 0 and now < deadline:
            await self._clock.sleep(remind_at - now)
            self._tasks.spawn(self._remind(channel_id, game_id, key))
            return
        await self._clock.sleep(deadline - now)
        self._tasks.spawn(self._expire(channel_id, game_id, key))

    async def _remind(self, channel_id: int, game_id: int, key: tuple[int, int]) -> None:
        """Remind the player whose turn it is (once per turn) and re-arm the timer for the deadline."""
        async with self.lock(channel_id):
            table = self._current(channel_id, game_id, key)
            if table is None or table.row.deadline is None or table.row.reminded:
                return
            game = table.started()
            seat = table.row.seats[game.current]
            row = replace(table.row, reminded=True, updated_at=self._clock.now())
            new = Table(row, game)
            try:
                await self.save(new, [LogEntry("reminder", seat.seat, {}, row.updated_at)], retry=True)
            except Exception:
                logger.exception("game %d: could not save the reminder", game_id)
                return
            left = max(0, round(table.row.deadline - self._clock.now()))
            logger.info("game %d: reminded seat %d", game_id, seat.seat)
            user = seat.user_id
            assert user is not None
            if not is_program(user):  # a program reads the timer on the board
                await self.post(
                    channel_id,
                    Message(f"{mention(user)}, it is your turn: {left} seconds left.", mentions=(user,)),
                )
            await self.schedule(new)

    async def _expire(self, channel_id: int, game_id: int, key: tuple[int, int]) -> None:
        """The turn's time ran out: pass (accept a play that went out), or forfeit at the limit."""
        async with self.lock(channel_id):
            table = self._current(channel_id, game_id, key)
            if table is None:
                return
            game = table.started()
            seat = game.current
            count = table.row.seats[seat].timeouts + 1
            action = timeout_action(game, seat, self._config.turn, count)
            logger.info("game %d: seat %d timed out (%d in a row)", game_id, seat, count)
            try:
                await self.turn(table, seat, action, timed_out=True, retry=True)
            except Exception:
                logger.exception("game %d: could not apply the timeout", game_id)
