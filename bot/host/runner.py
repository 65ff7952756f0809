"""The host: the open games of every kind, their locks, the one path every change takes, what goes out
to the channels and DMs, turn timers, reminders and expiry, AI turns, recovery after a restart, and the
results of finished games. It is written once; each game is a plugin it calls
(:class:`~bot.host.plugin.GamePlugin`), and each game's commands call it.

Every state change follows one path, under the channel's lock (:meth:`Host.act` for a player's action,
the host's own timers and AI turns likewise): the plugin applies the action to a copy of the game
(refusing it changes nothing), then :meth:`Host.commit` writes the new row, its seats, log entries, stats,
result and its announcement (to the outbox) in one transaction; only once it is committed does the
in-memory game change and the announcement go out. If the write fails, nothing changed, and the command
is refused with a :class:`~bot.host.errors.StorageError`; the host's own work (an AI turn, a timeout, a
reminder) retries the write instead, with backoff, logging each retry and telling the channel once.

The announcement is handed to the channel's delivery task (:mod:`bot.host.delivery`), which renders and
sends it after the channel's earlier messages, apart from the lock (the command answers at once), marks
it posted once its message is out and sent once the private messages it sends are too; one that a crash
left unsent is delivered at the next :meth:`Host.start`, without posting again one that was posted.
Everything the host says in a channel goes through that task, so a channel's messages keep their order.
A busy channel's announcements merge, whatever the game: one whose game has a newer announcement queued
behind it is said as its text alone at the top of the next post, and only the newest shows the game
(and sends the private messages the older ones owed). A change after which an AI is to move waits for
the AI's move (while the AI thinks, the channel sees that the bot is typing), so that both go out as one
post. The ordering is drawn in ``docs/architecture.md``.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, Final, TypeVar

from bot.config import Config
from bot.host.delivery import CLOSE_GRACE_SECONDS, Deliveries, Job
from bot.host.errors import NoGameError, ServiceError, StaleTurnError, StorageError, StorageRangeError
from bot.host.features import Feature, is_on
from bot.host.links import with_board_link, with_launch_button, with_seat_link
from bot.host.listeners import GameListener, Listeners
from bot.host.locks import ChannelLocks
from bot.host.messages import Message
from bot.host.outbox import keyed
from bot.host.plugin import Announcement, GamePlugin, Outcome
from bot.host.preferences import Preference, is_set
from bot.host.protocols import BoardLinks, Clock, Notifier, SystemClock
from bot.host.registry import GameParts
from bot.host.seats import is_program
from bot.host.seeds import turn_seed
from bot.host.storage import retry_delay, retry_notice, typed_storage_errors
from bot.host.store import GameStatus, LogEntry, StatsDelta, Store
from bot.host.table import AnyTable, Tables
from bot.host.tasks import Tasks, outcome_seen

__all__ = ["THINKING_NOTICE_AFTER", "TYPING_AGAIN_AFTER", "Host"]

logger = logging.getLogger("bot.host")

_T = TypeVar("_T")
AnyPlugin = GamePlugin[Any, Any, Any]

THINKING_NOTICE_AFTER: Final = 1.5
"""Seconds an AI may take over its move before the channel sees that the bot is typing: a medium AI
moves well within it, and then the channel sees nothing but the move."""
TYPING_AGAIN_AFTER: Final = 8.0
"""Seconds after which the typing is shown again while the AI still thinks (Discord shows it for ten)."""
HOLD_GRACE: Final = 5.0
"""Seconds past the AI's turn timeout an announcement waits for the AI's move before it goes out alone
(the AI's fallback answers within the timeout)."""


@dataclass(frozen=True, slots=True)
class _Wait:
    """An AI's wait before it plays (until the turn's deadline): the seats that waived it, and the event
    set when the wait is over."""

    waived: set[int]
    over: asyncio.Event


class _Queued:
    """An announcement waiting for its channel: its message, built (its images drawn) from the moment
    it is queued, and whether a newer announcement of its game superseded it."""

    def __init__(self, message: Awaitable[Message]) -> None:
        self.message = asyncio.ensure_future(message)
        self.message.add_done_callback(outcome_seen)  # superseded: maybe never awaited
        self.superseding = asyncio.Event()

    @property
    def superseded(self) -> bool:
        """Whether a newer announcement of the game is queued."""
        return self.superseding.is_set()

    def supersede(self) -> None:
        """A newer announcement of the game is queued: give up the message if it is not built yet (an
        image still waiting to be drawn is never drawn)."""
        self.superseding.set()
        self.message.cancel()


@dataclass
class _Owed:
    """What a game's older announcements left to its newest: the seats to send their private view, and
    the outbox entries to mark sent once that is done."""

    seats: set[int] = field(default_factory=set)
    entries: list[int] = field(default_factory=list)


class Host:
    """The open games by channel (:attr:`tables`, read-only outside), and everything that changes them
    or acts on its own, for the games of ``plugins`` (by kind). Call :meth:`start` once before use and
    :meth:`close` at the end."""

    def __init__(
        self,
        config: Config,
        store: Store,
        notifier: Notifier,
        plugins: Sequence[AnyPlugin],
        clock: Clock | None = None,
    ) -> None:
        self.config = config
        self.store = store
        self.notifier = notifier
        self.clock: Clock = clock or SystemClock()
        self.plugins: dict[str, AnyPlugin] = {plugin.kind: plugin for plugin in plugins}
        self.commands: dict[str, Any] = {}
        """Each game's commands, by kind (see :meth:`add`)."""
        self.tables = Tables()
        self.locks = ChannelLocks()
        self.listeners = Listeners()
        self.links: BoardLinks | None = None
        """The web board's links for the messages (None: the bot serves no board)."""
        self._tasks = Tasks()
        self._deliveries = Deliveries()
        self._notices = Deliveries()  # the retry notices, which go out ahead of the channel's queue
        self._newest: dict[int, _Queued] = {}  # game id: its newest announcement
        self._owed: dict[int, _Owed] = {}  # game id: what its older announcements left to a newer one
        self._carried: dict[int, list[str]] = {}  # channel id: superseded announcements' texts, to say
        self._waits: dict[int, _Wait] = {}  # channel id: its AI's wait
        self._wants_dms: dict[int, bool] = {}  # user id: whether they asked for DMs (as stored)

    def add(self, parts: GameParts) -> None:
        """Play the games of ``parts``' plugin, whose commands are ``parts.commands``."""
        self.plugins[parts.plugin.kind] = parts.plugin
        self.commands[parts.plugin.kind] = parts.commands

    def plugin(self, kind: str) -> AnyPlugin:
        """The plugin of the games of ``kind``.

        Raises:
            KeyError: this host plays no such game.
        """
        return self.plugins[kind]

    # Life cycle ---------------------------------------------------------------------------------

    async def start(self) -> None:
        """Store the results the finished games lack and bring the ratings up to date; load every open
        game from the store, deliver the announcements a crash left unsent, and :meth:`schedule` each
        game (timers re-armed from their stored deadlines, an expired one acting at once; an AI turn
        that was due played). A game that cannot be loaded is quarantined (logged with its id, marked
        in the store) and the others start; a game of a kind this host does not play is left alone."""
        await self._store_results()
        for row in await self.store.open_games():
            plugin = self.plugins.get(row.kind)
            if plugin is None:
                logger.info(
                    "game %d is a %s game, which this host does not play: left alone", row.id, row.kind
                )
                continue
            try:
                self.tables[row.channel_id] = plugin.restore(row)
            except Exception as error:  # any broken state: that game alone is set aside
                logger.error("game %d cannot be loaded (%s): quarantined", row.id, error)
                await self.store.quarantine(row.id, f"{type(error).__name__}: {error}")
        await self._deliver_pending()
        await self.delivered()
        for channel_id, table in list(self.tables.items()):
            async with self.lock(channel_id):
                await self.schedule(table)
        logger.info("host started with %d open games", len(self.tables))

    async def _store_results(self) -> None:
        """Compute and store the results of the finished games that have none (a database from before
        results were stored), then rebuild the ratings if they are not over the stored results."""
        results = {}
        for row in await self.store.finished_without_result():
            plugin = self.plugins.get(row.kind)
            if plugin is None:
                continue
            try:
                results[row.id] = plugin.result(plugin.restore(row))
            except Exception as error:  # a state that cannot be read rates nobody
                logger.warning("game %d: not rated, its state cannot be read (%s)", row.id, error)
                results[row.id] = ()
        if results:
            await self.store.set_results(results)
        await self.store.check_ratings()

    async def close(self) -> None:
        """Stop every timer and AI turn (they resume from the store at the next :meth:`start`), then
        let the queued deliveries finish (for a few seconds at most: see
        :meth:`~bot.host.delivery.Deliveries.close`)."""
        await self._tasks.close()
        await self._notices.close(CLOSE_GRACE_SECONDS)
        await self._deliveries.close(CLOSE_GRACE_SECONDS)

    async def idle(self) -> None:
        """Wait until no AI turn or timer action is running and every queued delivery went out."""
        await self._tasks.idle()
        await self.delivered()

    async def timer_actions_done(self) -> None:
        """Wait until no timer action (a reminder, a timeout) is running: a clock that jumps ahead waits
        for the actions it woke before it wakes the next (see :class:`~bot.host.protocols.Clock`)."""
        await self._tasks.work_done()

    async def delivered(self) -> None:
        """Wait until every queued delivery went out (AI turns and timers may still be running)."""
        await self._notices.idle()
        await self._deliveries.idle()

    def subscribe(self, listener: GameListener) -> None:
        """Tell ``listener`` of every committed change of every game (see :mod:`bot.host.listeners`)."""
        self.listeners.add(listener)

    def use_links(self, links: BoardLinks | None) -> None:
        """Put the web board's ``links`` in the messages from now on (None: no board, no links)."""
        self.links = links

    # Finding games ------------------------------------------------------------------------------

    def lock(self, channel_id: int) -> AbstractAsyncContextManager[None]:
        """Hold the channel's lock (``async with``), as every change of its game does."""
        return self.locks.hold(channel_id)

    def table(self, plugin: AnyPlugin, channel_id: int, game_id: int | None = None) -> AnyTable:
        """The channel's open game of ``plugin``'s kind, which must be ``game_id`` if given.

        Raises:
            NoGameError: none (the plugin's words), or not that one ("That game is over").
        """
        table = self.tables.get(channel_id)
        if table is None or table.row.kind != plugin.kind:
            raise NoGameError(plugin.no_game)
        if game_id is not None and table.row.id != game_id:
            raise NoGameError("That game is over")
        return table

    def channel_of(self, game_id: int) -> int:
        """The channel of the open game ``game_id`` (for buttons that carry a game id).

        Raises:
            NoGameError: no open game has that id.
        """
        channel_id = self.tables.channel_of(game_id)
        if channel_id is None:
            raise NoGameError("That game is over")
        return channel_id

    def open_table(self, game_id: int, kind: str | None = None) -> AnyTable:
        """The open game ``game_id`` (of ``kind``, if given) as it stands (for reading).

        Raises:
            NoGameError: no open game (of that kind) has that id.
        """
        table = self.tables[self.channel_of(game_id)]
        if kind is not None and table.row.kind != kind:
            raise NoGameError("That game is over")
        return table

    def check_turn(self, plugin: AnyPlugin, table: AnyTable, turn: int | None, stale: StaleTurnError) -> None:
        """Refuse an action made for version ``turn`` (when given) of a game that has moved on since.

        Raises:
            GameNotStartedError; ``stale``.
        """
        table.started()
        if turn is not None and turn != plugin.version(table):
            raise stale

    # The state-change path ----------------------------------------------------------------------

    async def create(self, plugin: AnyPlugin, table: AnyTable, log: Sequence[LogEntry]) -> AnyTable:
        """Write the new game ``table`` (its row's id is ignored) and make it its channel's game; the
        table with its id.

        Raises:
            ChannelBusyError: the channel has an open game; StorageError: the write failed.
        """
        with typed_storage_errors(self.plugins):
            row = await self.store.create_game(plugin.encode(table), log)
        created = replace(table, row=replace(table.row, id=row.id))
        self.tables[row.channel_id] = created
        return created

    async def act(
        self,
        plugin: GamePlugin[Any, Any, Any],
        channel_id: int,
        user_id: int,
        game_id: int | None,
        turn: int | None,
        action: Any,
        *,
        stale: StaleTurnError | None = None,
        answered: bool = False,
    ) -> Outcome[Any, Any]:
        """``user_id``'s ``action`` in the channel's game of ``plugin``'s kind (``game_id`` if given) at
        version ``turn`` (when given), under the channel's lock: applied, committed, announced. When
        the command's answer shows the seat its private view (``answered``), no DM sends it, unless the
        person asked for DMs (:meth:`wants_dms`).

        Raises:
            NoGameError; GameNotStartedError; NotSeatedError; ``stale`` (StaleTurnError by default);
            the plugin's refusal; StorageError (nothing changed).
        """
        async with self.lock(channel_id):
            table = self.table(plugin, channel_id, game_id)
            table.started()
            seat = table.seat_of(user_id)
            self.check_turn(plugin, table, turn, stale or StaleTurnError())
            outcome = await plugin.apply(table, seat, action, self.clock.now())
            announcement = outcome.announcement
            if answered and announcement is not None and not await self.wants_dms(user_id):
                outcome = replace(outcome, announcement=plugin.answered(announcement, seat))
            await self.commit(outcome)
            return outcome

    async def wants_dms(self, user_id: int) -> bool:
        """Whether ``user_id`` asked for their private views by DM even when a command's answer shows
        them (:class:`~bot.host.preferences.Preference`; read from the store once, then kept).

        Raises:
            StorageError: the store cannot be read.
        """
        wanted = self._wants_dms.get(user_id)
        if wanted is None:
            with typed_storage_errors(self.plugins):
                preferences = await self.store.preferences(user_id)
            wanted = self._wants_dms[user_id] = is_set(preferences, Preference.DMS)
        return wanted

    async def set_preference(self, user_id: int, preference: Preference, enabled: bool) -> None:
        """Store ``user_id``'s ``preference``.

        Raises:
            StorageError: the write failed (nothing changed).
        """
        with typed_storage_errors(self.plugins):
            await self.store.set_preference(user_id, preference.value, enabled)
        if preference is Preference.DMS:
            self._wants_dms[user_id] = enabled

    async def commit(self, outcome: Outcome[Any, Any], *, retry: bool = False) -> None:
        """Commit ``outcome`` (see :meth:`save`), then log it, queue its announcement and
        :meth:`schedule` what comes next. A game it finishes is rated and its stats added in the same
        transaction. Must hold the lock.

        Raises:
            StorageError: as :meth:`save` (nothing changed).
        """
        table = outcome.table
        plugin = self.plugins[table.row.kind]
        stats: tuple[StatsDelta, ...] = ()
        if table.row.status is GameStatus.FINISHED:
            table = replace(table, row=replace(table.row, result=plugin.result(table)))
            stats = tuple(plugin.stats(table))
        announcement = outcome.announcement
        pending = await self.save(
            table, outcome.log, stats, None if announcement is None else announcement.data, retry=retry
        )
        for line in outcome.log_lines:
            logger.info("game %d: %s", table.row.id, line)
        if announcement is not None:
            self.announce(table, announcement, pending)
        await self.schedule(table)

    async def save(
        self,
        table: AnyTable,
        log: Sequence[LogEntry],
        stats: Sequence[Any] = (),
        announcement: Mapping[str, Any] | None = None,
        *,
        retry: bool = False,
    ) -> int | None:
        """Write the table, its log, stats and ``announcement`` (to the outbox) in one transaction, then
        make it the channel's (or drop a closed game) and tell the listeners. Returns the outbox entry
        of the announcement.

        With ``retry`` (the host's own work, which nobody waits for), a failed write is retried after
        0.5 s, 1 s, 2 s... (up to a minute between tries, each logged) until it succeeds, the channel
        being told once; the caller must hold the lock, so the game cannot change meanwhile.

        Raises:
            StorageError: the write failed (without ``retry``, or a number out of range): nothing
                changed.
        """
        plugin = self.plugins[table.row.kind]
        row = plugin.encode(table)
        channel_id = row.channel_id
        attempt = 0
        while True:
            try:
                with typed_storage_errors(self.plugins):
                    pending = await self.store.save(row, log, stats, announcement)
                break
            except StorageError as error:
                if not retry or isinstance(error, StorageRangeError):  # that one never succeeds
                    raise
                attempt += 1
                delay = retry_delay(attempt)
                logger.warning(
                    "game %d: could not save (%s): retry %d in %.1f s", row.id, error, attempt, delay
                )
                if attempt == 1:  # at once: the channel's queue may hold a post for this very save
                    notice = partial(self._notify, channel_id, Message(retry_notice(error)))
                    self._notices.send(channel_id, notice)
                await self.clock.sleep(delay)
        if row.status.is_open:
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

    def post(self, channel_id: int, message: Message) -> None:
        """Queue ``message`` for the channel, after everything queued for it before, and return at
        once; a failure to send it is logged."""
        self.deliver(channel_id, lambda: self._post_now(channel_id, message))

    async def _post_now(self, channel_id: int, message: Message) -> None:
        """Post ``message`` in the channel now (from its delivery task), after the texts of the
        superseded announcements waiting to be said there; a failure is logged."""
        if carried := self._carried.pop(channel_id, None):
            message = replace(message, text="\n\n".join([*carried, message.text]))
        try:
            await self.notifier.post(channel_id, message)
        except Exception:
            logger.exception("could not post in channel %d", channel_id)

    async def _notify(self, channel_id: int, message: Message) -> None:
        """Post ``message`` in the channel now, whatever its queue holds; a failure is logged."""
        try:
            await self.notifier.post(channel_id, message)
        except Exception:
            logger.exception("could not post in channel %d", channel_id)

    async def message_of(
        self, table: AnyTable, announcement: Announcement, *, urgent: bool = False
    ) -> Message:
        """The public message of ``announcement`` (the plugin's), with the Open board link while the
        game is open, if the plugin's messages carry the board's links."""
        plugin = self.plugins[table.row.kind]
        message = await plugin.announcement_message(table, announcement, urgent=urgent)
        if not plugin.board_links or not table.row.status.is_open:  # the board's links end with the game
            return message
        return with_board_link(message, self.links, table.row.id)

    def lobby_message(self, table: AnyTable, message: Message) -> Message:
        """A game's lobby ``message`` with the Open the board button, when the board runs as a Discord
        Activity and the plugin's messages carry the board's links."""
        if not self.plugins[table.row.kind].board_links:
            return message
        return with_launch_button(message, self.links, table.row.id)

    def announce(self, table: AnyTable, announcement: Announcement, pending: int | None = None) -> None:
        """After a saved change: queue its announcement in the channel's delivery task and return at
        once. There, its message is posted, the seats it names are sent their private view, then the
        outbox entry ``pending`` is marked sent (see :meth:`_after_post`).

        The message is built (its images drawn) from the moment the announcement is queued, while the
        channel's earlier messages go out. When the change leaves an AI to move (with no wait for
        challenges), the announcement waits for the AI's move (:meth:`_hold`). A newer announcement of
        the game supersedes this one if it is queued by the time this one's turn comes (or its wait
        ends), or while its images are being drawn: this one is then said as its text alone (the
        plugin's past message) at the top of the channel's next post, and the newer one sends this one's
        private messages after its own post, as they are then; both entries are marked once that is
        done. ``pending`` is marked posted once its message is out, if private messages are still to
        come, and sent once they are (a crash before leaves it in the outbox: the next start sends the
        private messages, and posts the message only if it was not marked posted, with the key of its
        first post: :func:`~bot.host.outbox.keyed`).

        Never raises: the change is saved already, so a failure is logged and the channel's next
        messages still go out."""
        if (older := self._newest.get(table.row.id)) is not None:
            older.supersede()
        queued = self._newest[table.row.id] = _Queued(self.message_of(table, announcement))
        self.deliver(table.row.channel_id, lambda: self._announce_now(table, announcement, pending, queued))

    async def _announce_now(
        self, table: AnyTable, announcement: Announcement, pending: int | None, queued: _Queued
    ) -> None:
        """The delivery job of :meth:`announce`: ``queued`` is its message, superseded when a newer
        one is queued."""
        plugin = self.plugins[table.row.kind]
        channel_id, game_id = table.row.channel_id, table.row.id
        try:
            if self._waits_for_ai(table):
                await self._hold(table, queued)
            await asyncio.wait({queued.message})  # built, failed or given up
        except asyncio.CancelledError:  # the delivery is cut short (close): so is its drawing
            queued.message.cancel()
            raise
        if self._newest.get(game_id) is queued:
            del self._newest[game_id]
        if queued.superseded:  # said at the top of the next post; the newer one owes what it owed
            if said := plugin.past_message(table, announcement).text:
                self._carried.setdefault(channel_id, []).append(said)
            owed = self._owed.setdefault(game_id, _Owed())
            owed.seats.update(announcement.private)
            if pending is not None:
                owed.entries.append(pending)
            return
        try:
            message = queued.message.result()
        except Exception:
            logger.exception("game %d: could not announce the change: its text goes out", game_id)
            message = plugin.past_message(table, announcement)
        await self._post_now(channel_id, keyed(message, table.row, pending, plugin.post_part))
        await self._after_post(table, announcement.private, pending)

    def _waits_for_ai(self, table: AnyTable) -> bool:
        """Whether the change that left the game as ``table`` holds is followed by an AI's move that
        nobody waits out first (no deadline: no challenges are awaited), its turn running now."""
        if table.game is None or table.row.status is not GameStatus.ACTIVE or table.row.deadline is not None:
            return False
        seat = self.plugins[table.row.kind].to_move(table)
        return (
            seat is not None
            and table.row.seats[seat].is_ai
            and self._tasks.ai_turn(table.row.channel_id) is not None
        )

    async def _hold(self, table: AnyTable, queued: _Queued) -> None:
        """Wait for the AI to move (its move's announcement supersedes ``queued``), for its turn to end
        otherwise, or at most its timeout and :data:`HOLD_GRACE` seconds."""
        ai_turn = self._tasks.ai_turn(table.row.channel_id)
        if ai_turn is None:
            return
        waits = [
            asyncio.ensure_future(queued.superseding.wait()),
            asyncio.ensure_future(self.clock.sleep(self.config.ai_turn_timeout + HOLD_GRACE)),
        ]
        try:
            await asyncio.wait([*waits, ai_turn], return_when=asyncio.FIRST_COMPLETED)
        finally:
            for waiting in waits:
                waiting.cancel()

    async def _after_post(self, table: AnyTable, private: Sequence[int], pending: int | None) -> None:
        """After the post of an announcement (outbox entry ``pending``): send the ``private`` seats and
        those the game's older announcements owed their private view, then mark their entries sent,
        ``pending`` last; or, if a newer announcement of the game is queued meanwhile, leave all that to
        it (the private views go after its own post, as they are then). A game over sends its last
        ``private`` seats only.

        An entry is marked posted before its private messages (its own or the older ones'), so that a
        crash before it is marked sent sends them at the next start without posting it again; one with
        no private message to wait for is marked sent at once."""
        game_id = table.row.id
        owed = self._owed.pop(game_id, _Owed())
        if game_id in self._newest:
            if pending is not None and private:
                await self._mark_posted(pending)
                owed.entries.append(pending)
            elif pending is not None:
                await self._mark_sent(pending)
            owed.seats.update(private)
            if owed.seats or owed.entries:
                self._owed[game_id] = owed
            return
        seats = sorted(set(private) if not table.row.status.is_open else owed.seats | set(private))
        if pending is not None and seats:
            await self._mark_posted(pending)
        for seat in seats:
            try:
                await self._send_private(table, seat)
            except Exception:
                logger.exception("game %d: could not send seat %d its private view", game_id, seat)
        for entry_id in [*owed.entries, *([] if pending is None else [pending])]:
            await self._mark_sent(entry_id)

    async def _send_private(self, table: AnyTable, seat_number: int) -> None:
        """DM a person their private view (and their board link); if that fails, tell the channel
        (without it). An AI or a program (which sees its view over the board protocol) gets none."""
        seat = table.row.seats[seat_number]
        if seat.user_id is None or is_program(seat.user_id):
            return
        plugin = self.plugins[table.row.kind]
        message = await plugin.private_message(table, seat.seat)
        if plugin.board_links:
            message = with_seat_link(message, self.links, table.row.id, seat.seat)
        try:
            delivered = await self.notifier.direct(seat.user_id, message)
        except Exception:
            logger.exception("could not DM user %d", seat.user_id)
            delivered = False
        if not delivered:
            await self._post_now(table.row.channel_id, plugin.private_failed_message(table, seat.user_id))

    async def _mark_posted(self, entry_id: int) -> None:
        """Mark outbox entry ``entry_id`` posted; if that fails, its message is posted again at the
        next start, should the entry not be marked sent by then."""
        try:
            await self.store.mark_posted(entry_id, self.clock.now())
        except Exception:
            logger.exception("could not mark announcement %d posted", entry_id)

    async def _mark_sent(self, entry_id: int) -> None:
        """Mark outbox entry ``entry_id`` sent; if that fails, it goes out again at the next start."""
        try:
            await self.store.mark_sent(entry_id, self.clock.now())
        except Exception:
            logger.exception(
                "could not mark announcement %d sent: it is sent again at the next start", entry_id
            )

    async def _deliver_pending(self) -> None:
        """Deliver the announcements left unsent by a crash, rebuilt from the stored games, in order.
        One marked posted is not posted again: the private views it was to send are sent (as they are
        now, after the game's newer announcements if any). One not posted goes through :meth:`announce`;
        if its game has moved on since, it is superseded by the game's up-to-date one, so it goes out as
        its text and its private views go with the up-to-date one; unless that one was sent already: a
        channel's announcements go out in order, so this one went out before (only marking it sent
        failed) and is marked sent. One that cannot be read is marked sent without being delivered; one
        of a game this host does not play is left for a host that does."""
        found: list[tuple[int, bool, Announcement, AnyTable]] = []
        for entry in await self.store.pending_outbox():
            try:
                table = await self._stored_table(entry.game_id)
                if table is None:
                    logger.warning(
                        "game %d: announcement %d has no open game: dropped", entry.game_id, entry.id
                    )
                    await self._mark_sent(entry.id)
                    continue
                announcement = self.plugins[table.row.kind].read_announcement(entry.data)
            except _NotPlayedHereError:
                continue
            except Exception:  # a broken entry or game must not stop the start
                logger.exception("game %d: announcement %d cannot be read: dropped", entry.game_id, entry.id)
                await self._mark_sent(entry.id)
                continue
            if table.game is None:
                logger.warning("game %d: announcement %d has no open game: dropped", entry.game_id, entry.id)
                await self._mark_sent(entry.id)
                continue
            found.append((entry.id, entry.posted, announcement, table))
        pending_now = {
            table.row.id
            for _, _, item, table in found
            if self.plugins[table.row.kind].version(table) == item.version
        }
        unposted: list[tuple[int, Announcement, AnyTable]] = []
        posted_only: dict[int, AnyTable] = {}
        for entry_id, posted, announcement, table in found:
            game_id, seats = table.row.id, table.row.seats
            if game_id not in pending_now:
                logger.warning("game %d: announcement %d went out before: marked sent", game_id, entry_id)
                await self._mark_sent(entry_id)
                continue
            private = tuple(seat for seat in announcement.private if 0 <= seat < len(seats))
            if not posted:
                unposted.append((entry_id, replace(announcement, private=private), table))
                continue
            logger.info(
                "game %d: announcement %d was posted: sending its private views after a restart",
                game_id,
                entry_id,
            )
            owed = self._owed.setdefault(game_id, _Owed())  # for the game's next announcement, or below
            owed.seats.update(private)
            owed.entries.append(entry_id)
            posted_only[game_id] = table
        # Every posted entry is owed before any announcement is queued: the first to go out takes them.
        for entry_id, announcement, table in unposted:
            logger.info(
                "game %d: delivering the announcement of version %d after a restart",
                table.row.id,
                announcement.version,
            )
            self.announce(table, announcement, entry_id)
            posted_only.pop(table.row.id, None)
        for table in posted_only.values():
            self.deliver(table.row.channel_id, partial(self._after_post, table, (), None))

    async def _stored_table(self, game_id: int) -> AnyTable | None:
        """Game ``game_id``: its open table, or the stored game if it has closed; ``None`` if it is a
        quarantined or unknown game.

        Raises:
            _NotPlayedHereError: it is a game of a kind this host does not play.
            Exception: its state cannot be restored.
        """
        for table in self.tables.values():
            if table.row.id == game_id:
                return table
        row = await self.store.game(game_id)
        if row is None or row.status.is_open or row.state is None:
            return None
        plugin = self.plugins.get(row.kind)
        if plugin is None:
            raise _NotPlayedHereError
        return plugin.restore(row)

    # Timers and AI turns ------------------------------------------------------------------------

    async def schedule(self, table: AnyTable) -> None:
        """After a change: start the AI's turn if the game waits for an AI, or arm the person's timer.
        An AI whose turn has a deadline waits until then (the change's announcement says so), or until
        the wait is waived (:meth:`waive_wait`). Must hold the lock."""
        channel_id = table.row.channel_id
        self._tasks.cancel_timer(channel_id)
        if (wait := self._waits.pop(channel_id, None)) is not None:
            wait.over.set()  # the game changed: the waiting AI looks again now
        if table.game is None or table.row.status is not GameStatus.ACTIVE:
            return
        plugin = self.plugins[table.row.kind]
        seat_number = plugin.to_move(table)
        if seat_number is None:
            return
        seat = table.row.seats[seat_number]
        if seat.is_ai:
            if self._tasks.may_start_ai_turn(channel_id):
                if table.row.deadline is not None:  # its announcement says so
                    self._waits[channel_id] = _Wait(set(), asyncio.Event())
                key = plugin.turn_key(table)
                self._tasks.start_ai_turn(channel_id, self._ai_turn(channel_id, table.row.id, key))
        elif table.row.deadline is not None:
            self._arm_timer(table)

    def _current(self, channel_id: int, game_id: int, key: tuple[int, ...]) -> AnyTable | None:
        """The channel's table if it is still game ``game_id`` at turn ``key``."""
        table = self.tables.get(channel_id)
        if table is None or table.row.id != game_id or table.game is None:
            return None
        if self.plugins[table.row.kind].turn_key(table) != key:
            return None
        return table

    def waive_wait(self, table: AnyTable, seat: int, needed: set[int]) -> None:
        """``seat`` waives the wait of the AI on move in the table's game; the wait ends once every
        seat of ``needed`` has.

        Raises:
            StaleTurnError: no wait is open (the AI has played, or there was none).
        """
        wait = self._waits.get(table.row.channel_id)
        if wait is None or table.row.deadline is None:
            raise StaleTurnError(challenge=True)
        wait.waived.add(seat)
        if needed <= wait.waived:
            wait.over.set()

    async def _wait(self, channel_id: int, game_id: int, key: tuple[int, ...]) -> None:
        """Wait out the wait of the AI on move, if one is open: until its deadline (stored with the
        game, so a restart keeps it) or until it is waived."""
        table = self._current(channel_id, game_id, key)
        wait = self._waits.get(channel_id)
        if table is None or wait is None or table.row.deadline is None:
            return
        waits = [
            asyncio.ensure_future(self.clock.sleep(table.row.deadline - self.clock.now())),
            asyncio.ensure_future(wait.over.wait()),
        ]
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for waiting in waits:
                waiting.cancel()
            if self._waits.get(channel_id) is wait:
                del self._waits[channel_id]

    async def _ai_turn(self, channel_id: int, game_id: int, key: tuple[int, ...]) -> None:
        """Play the AI's turn: wait out its wait (:meth:`_wait`), have the plugin choose its action
        outside the lock, then apply it if the turn has not moved on (else look again). An action the
        game refuses is logged and replaced by the plugin's fallback (a pass)."""
        try:
            await self._wait(channel_id, game_id, key)
            table = self._current(channel_id, game_id, key)
            if table is None:
                async with self.lock(channel_id):
                    await self._resume_ai(channel_id, game_id)
                return
            plugin = self.plugins[table.row.kind]
            refusals: tuple[type[Exception], ...] = (ServiceError, *plugin.refusals)
            seat = plugin.to_move(table)
            assert seat is not None  # scheduled for it
            seed = turn_seed(table.row.seed, plugin.version(table))
            name = table.row.seats[seat].name
            chosen_at = table

            def thinking(choosing: Awaitable[_T]) -> Awaitable[_T]:
                return self._thinking(chosen_at, key, name, choosing)

            action = await plugin.ai_action(table, seat, seed, thinking)
            async with self.lock(channel_id):
                table = self._current(channel_id, game_id, key)
                if table is None:
                    await self._resume_ai(channel_id, game_id)
                    return
                try:
                    outcome = await plugin.apply(table, seat, action, self.clock.now())
                except refusals:
                    logger.exception("game %d: the AI's move was refused; it passes", game_id)
                    outcome = await plugin.apply(
                        table, seat, plugin.ai_fallback(table, seat), self.clock.now()
                    )
                await self.commit(outcome, retry=True)
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.exception("game %d: the AI turn failed", game_id)
        finally:
            self._tasks.ai_turn_done(channel_id)

    async def _thinking(
        self, table: AnyTable, key: tuple[int, ...], name: str, choosing: Awaitable[_T]
    ) -> _T:
        """What ``choosing`` (the AI ``name`` choosing its move at turn ``key`` of the table's game)
        gives; while that takes more than :data:`THINKING_NOTICE_AFTER` seconds (of the host's clock)
        and the game is still at that turn, the channel sees that the bot is typing (again every
        :data:`TYPING_AGAIN_AFTER` seconds). A quick AI shows nothing but its move.

        Raises:
            Whatever ``choosing`` raises.
        """
        channel_id = table.row.channel_id
        chosen = asyncio.ensure_future(choosing)
        try:
            wait = THINKING_NOTICE_AFTER
            while not chosen.done():
                notice = asyncio.ensure_future(self.clock.sleep(wait))
                try:
                    await asyncio.wait((chosen, notice), return_when=asyncio.FIRST_COMPLETED)
                finally:
                    notice.cancel()
                if chosen.done() or self._current(channel_id, table.row.id, key) is None:
                    break
                logger.debug("game %d: %s is thinking", table.row.id, name)
                try:
                    await self.notifier.typing(channel_id)
                except Exception:
                    logger.exception("could not show the typing in channel %d", channel_id)
                wait = TYPING_AGAIN_AFTER
            return await chosen
        finally:
            chosen.cancel()

    async def _resume_ai(self, channel_id: int, game_id: int) -> None:
        """Called by an AI turn whose turn moved on while it thought (a resign, a challenge...): start a
        new AI turn if an AI is (still or now) to play game ``game_id``. While an AI turn runs,
        :meth:`schedule` starts no other, so it is this one's to do. Must hold the lock."""
        table = self.tables.get(channel_id)
        if table is None or table.row.id != game_id or table.game is None:
            return
        seat = self.plugins[table.row.kind].to_move(table)
        if seat is not None and table.row.seats[seat].is_ai:
            logger.info("game %d: the turn moved on while the AI thought; it thinks again", game_id)
            await self.schedule(table)

    def _arm_timer(self, table: AnyTable) -> None:
        """Arm the channel's timer: the reminder (once), else the deadline; the action runs in a work
        task, at once if its time has come."""
        row = table.row
        plugin = self.plugins[row.kind]
        channel_id, game_id, key, deadline = row.channel_id, row.id, plugin.turn_key(table), row.deadline
        assert deadline is not None
        now = self.clock.now()
        fraction = self.config.turn.reminder_left
        remind_at = deadline - plugin.time_limit(table) * fraction
        action, at = self._expire, deadline
        if not row.reminded and fraction > 0 and now < deadline:
            action, at = self._remind, remind_at
        self._tasks.arm_timer(channel_id, self.clock, at, lambda: action(channel_id, game_id, key))

    async def _remind(self, channel_id: int, game_id: int, key: tuple[int, ...]) -> None:
        """Remind the person on move (once per turn) and re-arm the timer for the deadline."""
        async with self.lock(channel_id):
            table = self._current(channel_id, game_id, key)
            if table is None or table.row.deadline is None or table.row.reminded:
                return
            plugin = self.plugins[table.row.kind]
            seat_number = plugin.to_move(table)
            if seat_number is None:
                return
            seat = table.row.seats[seat_number]
            row = replace(table.row, reminded=True, updated_at=self.clock.now())
            new = replace(table, row=row)
            try:
                await self.save(new, [LogEntry("reminder", seat.seat, {}, row.updated_at)], retry=True)
            except Exception:
                logger.exception("game %d: could not save the reminder", game_id)
                return
            left = max(0, round(table.row.deadline - self.clock.now()))
            logger.info("game %d: reminded seat %d", game_id, seat.seat)
            user = seat.user_id
            assert user is not None  # a person's timer
            if not is_program(user):  # a program reads the timer on the board
                self.post(channel_id, Message(plugin.reminder_text(user, left), mentions=(user,)))
            await self.schedule(new)

    async def _expire(self, channel_id: int, game_id: int, key: tuple[int, ...]) -> None:
        """The turn's time ran out: the seat on move does what the plugin says (pass, forfeit...)."""
        async with self.lock(channel_id):
            table = self._current(channel_id, game_id, key)
            if table is None:
                return
            plugin = self.plugins[table.row.kind]
            seat = plugin.to_move(table)
            if seat is None:
                return
            logger.info("game %d: seat %d ran out of time", game_id, seat)
            try:
                action = plugin.timeout_action(table, seat)
                outcome = await plugin.apply(table, seat, action, self.clock.now(), timed_out=True)
                await self.commit(outcome, retry=True)
            except Exception:
                logger.exception("game %d: could not apply the timeout", game_id)

    # Guild settings -----------------------------------------------------------------------------

    async def feature_enabled(self, guild_id: int, feature: Feature) -> bool:
        """Whether ``feature`` is on in the guild (every feature is, until turned off)."""
        return is_on(await self.store.features(guild_id), feature)


class _NotPlayedHereError(Exception):
    """A stored game of a kind this host does not play."""
