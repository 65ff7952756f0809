"""The runner of the open games: their tables and locks, the one path every change takes, what goes out
to the channels and DMs, turn timers and AI turns.

:class:`~bot.service.game_service.GameService` holds one and calls into it from its commands; the
runner never calls the commands. Every state change follows one path, under the game's lock: the
action is applied to a copy of the engine state (the engine raises, changing nothing, on bad input),
the new state, seats, log entries and stats are written in one SQLite transaction, and only once it is
committed does the in-memory game change and the announcements go out. If the write fails, nothing
changed.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable, Sequence
from dataclasses import replace

from bot.config import Config
from bot.messages import Message, mention
from bot.service import announcements, text
from bot.service.actions import Action, move_action, timeout_action, turn_seed
from bot.service.errors import NoGameError
from bot.service.protocols import AiPlayer, Clock, Notifier, Renderer
from bot.service.records import event_entries, log_line, stats_deltas
from bot.service.table import Table
from bot.service.tasks import Tasks
from bot.store import GameRow, GameStatus, LogEntry, SeatRow, StatsDelta, Store
from scrabble_core.ai import Level, should_challenge
from scrabble_core.errors import ScrabbleError
from scrabble_core.game import ChallengeMode, Event, Game
from scrabble_core.lexicon import WordList

__all__ = ["GameRunner"]

logger = logging.getLogger("bot.service")


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
        self.tables: dict[int, Table] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._tasks = Tasks()

    # Life cycle ---------------------------------------------------------------------------------

    async def start(self) -> None:
        """Load every open game from the store and :meth:`schedule` each."""
        for row in await self._store.open_games():
            game = None if row.state is None else Game.from_dict(row.state, lexicon=self._lexicon)
            self.tables[row.channel_id] = Table(row, game)
        for channel_id, table in list(self.tables.items()):
            async with self.lock(channel_id):
                await self.schedule(table)
        logger.info("service started with %d open games", len(self.tables))

    async def close(self) -> None:
        """Stop every timer and AI turn."""
        await self._tasks.close()

    async def idle(self) -> None:
        """Wait until no AI turn or timer action is running."""
        await self._tasks.idle()

    # The state-change path ----------------------------------------------------------------------

    def lock(self, channel_id: int) -> asyncio.Lock:
        """The channel's lock, held by every change of its game."""
        return self._locks.setdefault(channel_id, asyncio.Lock())

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
        """A copy of the table's engine state that an action may change."""
        assert table.row.state is not None
        return Game.from_dict(table.row.state, lexicon=self._lexicon)

    async def create(self, draft: GameRow, log: Sequence[LogEntry]) -> GameRow:
        """Write a new lobby (``draft`` gets its id from the store) and make it its channel's game."""
        row = await self._store.create_game(draft, log)
        self.tables[row.channel_id] = Table(row, None)
        return row

    async def player_turn(
        self, channel_id: int, user_id: int, game_id: int | None, action: Callable[[Game, int], list[Event]]
    ) -> list[Event]:
        """Apply ``action(game, seat)`` for ``user_id``'s seat under the game's lock (a player's command).

        Raises:
            NoGameError; GameNotStartedError; NotSeatedError; the engine's refusal.
        """
        async with self.lock(channel_id):
            table = self.table(channel_id, game_id)
            table.started()
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
    ) -> list[Event]:
        """Apply an engine action to a copy of the game, save, then announce and schedule what comes next.

        ``seat`` acted (its timeout count is reset, or counted when ``timed_out``); ``lines`` open the
        public message (before the lines of the events). Must hold the lock.

        Raises:
            ScrabbleError: the engine refused the action (nothing changed).
        """
        before = table.started()
        game = self.copy(table)
        events = action(game)
        now = self._clock.now()
        seats = list(table.row.seats)
        if seat is not None:
            timeouts = seats[seat].timeouts + 1 if timed_out else 0
            seats[seat] = replace(seats[seat], timeouts=timeouts)
        deadline, reminded = table.deadline_after(game, seat, now)
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
        await self.save(new, log, stats_deltas(row, game) if game.is_over else ())
        for event in events:
            logger.info("game %d: %s", row.id, log_line(event, row.seats))
        if game.is_over:
            logger.info("game %d: over, winners %s", row.id, game.winners())
        opening = list(lines)
        if timed_out and seat is not None:
            opening.append(f"{seats[seat].name} ran out of time.")
        if not events:
            opening.append(text.failed_challenge_line(game, seat, row.seats))
        racks = [s for s in row.seats if before.players[s.seat].rack != game.players[s.seat].rack]
        await self.announce(new, events, opening, () if game.is_over else racks)
        await self.schedule(new)
        return events

    async def save(self, table: Table, log: Sequence[LogEntry], stats: Sequence[StatsDelta] = ()) -> None:
        """Write the table in one transaction, then make it the channel's (or drop a closed game)."""
        await self._store.save(table.row, log, stats)
        channel_id = table.row.channel_id
        if table.row.status.is_open:
            self.tables[channel_id] = table
        else:
            self.tables.pop(channel_id, None)
            self._tasks.stop(channel_id)

    # Announcements ------------------------------------------------------------------------------

    async def announce(
        self, table: Table, events: Sequence[Event], lines: Sequence[str], racks: Sequence[SeatRow]
    ) -> None:
        """After a saved turn: post the turn message (and the end of a game that is over) and DM
        ``racks`` to their owners. Never raises: the change is saved already, so a failure is logged
        and what comes next (the reply, the timer, the AI's turn) still happens."""
        channel_id, game_id = table.row.channel_id, table.row.id
        try:
            await self.post(channel_id, await self.turn_message(table, events, lines))
        except Exception:
            logger.exception("game %d: could not announce the turn", game_id)
        if table.started().is_over:
            try:
                await self.post(channel_id, await announcements.final_message(table, self.renderer))
            except Exception:
                logger.exception("game %d: could not announce the end", game_id)
        for seat in racks:
            try:
                await self._send_rack(table, seat)
            except Exception:
                logger.exception("game %d: could not send seat %d its rack", game_id, seat.seat)

    async def post(self, channel_id: int, message: Message) -> None:
        try:
            await self._notifier.post(channel_id, message)
        except Exception:
            logger.exception("could not post in channel %d", channel_id)

    async def _send_rack(self, table: Table, seat: SeatRow) -> None:
        """DM a human their rack; if that fails, tell the channel (without the rack)."""
        if seat.user_id is None:
            return
        message = await announcements.rack_message(table, seat, self.renderer)
        try:
            delivered = await self._notifier.direct(seat.user_id, message)
        except Exception:
            logger.exception("could not DM user %d", seat.user_id)
            delivered = False
        if not delivered:
            await self.post(table.row.channel_id, announcements.rack_not_sent_message(table, seat.user_id))

    async def turn_message(self, table: Table, events: Sequence[Event], lines: Sequence[str]) -> Message:
        """The public message after a turn (:func:`~bot.service.announcements.turn_message`)."""
        return await announcements.turn_message(table, events, lines, self.renderer)

    # Timers and AI turns ------------------------------------------------------------------------

    async def schedule(self, table: Table) -> None:
        """After a change: start the AI's turn if it is an AI's, or arm the human turn's timer. Must
        hold the lock."""
        channel_id = table.row.channel_id
        self._tasks.cancel_timer(channel_id)
        game = table.game
        if game is None or game.is_over or table.row.status is not GameStatus.ACTIVE:
            return
        seat = table.row.seats[game.current]
        if seat.is_ai:
            if self._tasks.may_start_ai_turn(channel_id):
                await self.post(channel_id, Message(f"{seat.name} is thinking…"))
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

    async def _ai_turn(self, channel_id: int, game_id: int, key: tuple[int, int]) -> None:
        """Play the AI's turn: first, if the last play is challengeable by it, challenge it or not
        (:meth:`_ai_challenge`); a challenge is an action of its own, after which :meth:`turn`
        schedules the AI's next turn if it is still on turn. Otherwise accept a play that went out, or
        choose the AI's move outside the lock. The action is applied if the turn has not moved on."""
        try:
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
                move = await self._ai.choose(game, seat, level, seed)
                action = move_action(seat, move)
            async with self.lock(channel_id):
                table = self._current(channel_id, game_id, key)
                if table is None:
                    await self._resume_ai(channel_id, game_id)
                    return
                try:
                    await self.turn(table, seat, action, lines=lines)
                except ScrabbleError:
                    logger.exception("game %d: the AI's move was refused; it passes", game_id)
                    await self.turn(table, seat, lambda g: g.pass_turn(seat))
        except asyncio.CancelledError:
            raise
        except Exception:
            logger.exception("game %d: the AI turn failed", game_id)
        finally:
            self._tasks.ai_turn_done(channel_id)

    def _ai_challenge(self, game: Game, seat: int, level: str, seed: int) -> list[str]:
        """The phonies for which AI ``seat`` (on turn in ``game``) challenges the last play, or none if
        it lets the play stand (:func:`~scrabble_core.ai.should_challenge`, with the service's lexicon
        and a random source seeded by ``seed``, so a re-run after a restart decides the same)."""
        challengeable = game.challengeable
        if game.challenge_mode is ChallengeMode.VOID or challengeable is None or challengeable == seat:
            return []
        words = game.challengeable_words()
        if not should_challenge(words, Level(level), self._lexicon, random.Random(seed)):
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
                await self.save(new, [LogEntry("reminder", seat.seat, {}, row.updated_at)])
            except Exception:
                logger.exception("game %d: could not save the reminder", game_id)
                return
            left = max(0, round(table.row.deadline - self._clock.now()))
            logger.info("game %d: reminded seat %d", game_id, seat.seat)
            user = seat.user_id
            assert user is not None
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
                await self.turn(table, seat, action, timed_out=True)
            except Exception:
                logger.exception("game %d: could not apply the timeout", game_id)
