"""Scrabble as a game of the host: :class:`ScrabblePlugin`, what the host calls (see
:mod:`bot.host.plugin`) over the engine (:mod:`scrabble_core`), its lexicon, its AI and its images."""

from __future__ import annotations

import logging
import random
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, ClassVar

from bot.config import Config
from bot.games.scrabble import announcements, codec, records, text
from bot.games.scrabble.actions import Turn, move_turn, pass_turn, timeout_turn
from bot.games.scrabble.errors import NO_GAME
from bot.games.scrabble.kind import KIND
from bot.games.scrabble.options import ScrabbleOptions
from bot.games.scrabble.protocols import AiPlayer, Renderer
from bot.games.scrabble.settings import scrabble_settings
from bot.games.scrabble.table import ScrabbleTable
from bot.host.messages import Message
from bot.host.plugin import Announcement, GamePlugin, Outcome, Thinking
from bot.host.rating_model import RatedSeat
from bot.host.seats import shown
from bot.host.store import GameRow, GameStatus, LogEntry, StatsDelta
from bot.host.table import Table
from scrabble_core.ai import Level, should_challenge
from scrabble_core.errors import ScrabbleError
from scrabble_core.game import ChallengeMode, Game
from scrabble_core.lexicon import WordList
from scrabble_core.variant import VariantRegistry

__all__ = ["ScrabblePlugin"]

logger = logging.getLogger("bot.games.scrabble")


class ScrabblePlugin(GamePlugin[ScrabbleOptions, Game, Turn]):
    """Scrabble's rules, announcements, AI and results for the host. ``lexicon`` judges every game's
    words; ``ai`` chooses the AI seats' moves, ``renderer`` draws the images; ``variants`` are the boards
    games may use."""

    kind: ClassVar[str] = KIND
    title: ClassVar[str] = "Scrabble"
    format: ClassVar[int] = codec.FORMAT
    post_part: ClassVar[str] = "turn"
    no_game: ClassVar[str] = NO_GAME
    board_links: ClassVar[bool] = True
    refusals: ClassVar[tuple[type[Exception], ...]] = (ScrabbleError,)

    def __init__(
        self, config: Config, lexicon: WordList, ai: AiPlayer, renderer: Renderer, variants: VariantRegistry
    ) -> None:
        self.config = config
        self.settings = scrabble_settings(config)
        self.lexicon = lexicon
        self.ai = ai
        self.renderer = renderer
        self.variants = variants

    # Stored form --------------------------------------------------------------------------------

    def restore(self, row: GameRow) -> ScrabbleTable:
        """See :meth:`GamePlugin.restore`.

        Raises:
            ScrabbleError, ValueError, KeyError, TypeError: its options or state cannot be read, or its
                seats are not its players.
        """
        options = codec.read_options(row.options)
        seats = tuple(
            replace(s, ai_level=None if s.ai_level is None else Level(s.ai_level)) for s in row.seats
        )
        row = replace(row, seats=seats)
        if row.state is None:
            if row.status is not GameStatus.LOBBY:
                raise ValueError(f"a game {row.status} without a state")
            return ScrabbleTable(row, options, None)
        game = codec.read_state(row.state, self.lexicon)
        if len(game.players) != len(row.seats):
            raise ValueError(f"{len(row.seats)} seats for {len(game.players)} players")
        return ScrabbleTable(row, options, game)

    def encode(self, table: Table[ScrabbleOptions, Game]) -> GameRow:
        """See :meth:`GamePlugin.encode`."""
        state = None if table.game is None else table.game.to_dict()
        return replace(
            table.row, kind=self.kind, options=table.options.to_dict(), state=state, format=self.format
        )

    # Reading a game -----------------------------------------------------------------------------

    def version(self, table: Table[ScrabbleOptions, Game]) -> int:
        """The move number: the length of the game's history."""
        return len(table.started().history)

    def turn_key(self, table: Table[ScrabbleOptions, Game]) -> tuple[int, ...]:
        """The history's length and the seat to play (a failed challenge moves the turn on without a
        move)."""
        game = table.started()
        return len(game.history), game.current

    def to_move(self, table: Table[ScrabbleOptions, Game]) -> int | None:
        """The seat on turn, ``None`` once the game is over."""
        game = table.started()
        return None if game.is_over else game.current

    def time_limit(self, table: Table[ScrabbleOptions, Game]) -> int:
        """The game's turn time limit."""
        return table.options.turn_seconds

    # Changes ------------------------------------------------------------------------------------

    async def apply(
        self,
        table: Table[ScrabbleOptions, Game],
        seat: int | None,
        action: Turn,
        now: float,
        *,
        timed_out: bool = False,
    ) -> Outcome[ScrabbleOptions, Game]:
        """Apply ``action`` to a copy of the game: ``seat``'s timeout count is reset (or counted when
        ``timed_out``); the announcement opens with the action's lines.

        Raises:
            ScrabbleError or ServiceError: the engine refused the action (nothing changed).
        """
        assert isinstance(table, ScrabbleTable)
        before = table.started()
        game = before.copy()
        assert seat is not None  # a Scrabble action is always a seat's
        events = action.act(game, seat)
        seats = list(table.row.seats)
        if seat is not None:
            timeouts = seats[seat].timeouts + 1 if timed_out else 0
            seats[seat] = replace(seats[seat], timeouts=timeouts)
        deadline, reminded = table.deadline_after(game, seat, now, self.settings.challenge_window_seconds)
        row = replace(
            table.row,
            status=GameStatus.FINISHED if game.is_over else GameStatus.ACTIVE,
            seats=tuple(seats),
            deadline=deadline,
            reminded=reminded,
            updated_at=now,
        )
        log = records.event_entries(events, now)
        opening = list(action.lines)
        if timed_out and seat is not None:
            log.insert(0, LogEntry("timeout", seat, {"count": seats[seat].timeouts}, now))
            opening.append(f"{shown(seats[seat].name)} ran out of time.")
        if not events:
            opening.append(text.failed_challenge_line(game, seat, row.seats))
        racks = (
            ()
            if game.is_over
            else tuple(s.seat for s in row.seats if before.players[s.seat].rack != game.players[s.seat].rack)
        )
        turn = announcements.TurnAnnouncement(len(game.history), tuple(events), tuple(opening), racks)
        lines = [records.log_line(event, row.seats, game.board) for event in events]
        if game.is_over:
            lines.append(f"over, winners {game.winners()}")
        return Outcome(ScrabbleTable(row, table.options, game), log, turn.announcement(), lines, events)

    def timeout_action(self, table: Table[ScrabbleOptions, Game], seat: int) -> Turn:
        """Pass (accept a play that went out), or forfeit at the configured limit of timeouts."""
        count = table.row.seats[seat].timeouts + 1
        logger.info("game %d: seat %d timed out (%d in a row)", table.row.id, seat, count)
        return timeout_turn(table.started(), seat, self.config.turn, count)

    # AI -----------------------------------------------------------------------------------------

    async def ai_action(
        self, table: Table[ScrabbleOptions, Game], seat: int, seed: int, thinking: Thinking[Any]
    ) -> Turn:
        """Challenge the last play if the AI's judgement says so (:meth:`_ai_challenge`, a turn of its
        own, after which the AI plays again if it is still on turn), accept a play that went out, or
        play the move the AI workers choose."""
        game = table.started().copy()
        level = table.row.seats[seat].ai_level or self.settings.ai_level
        game_id = table.row.id
        if phonies := self._ai_challenge(game, seat, Level(level), seed):
            logger.info("game %d: AI seat %d challenges %s", game_id, seat, ", ".join(phonies))
            line = text.ai_challenge_line(table.row.seats[seat].name, phonies)
            return Turn(lambda g, s: g.challenge(s), (line,))
        if game.awaiting_final_challenge:
            logger.info("game %d: AI seat %d accepts the play that went out", game_id, seat)
            return Turn(lambda g, s: g.accept(s))
        move = await thinking(self.ai.choose(game, seat, Level(level), seed))
        return move_turn(move)

    def ai_fallback(self, table: Table[ScrabbleOptions, Game], seat: int) -> Turn:
        """Pass."""
        return pass_turn()

    def _ai_challenge(self, game: Game, seat: int, level: Level, seed: int) -> list[str]:
        """The phonies for which AI ``seat`` (on turn in ``game``) challenges the last play, or none if
        it lets the play stand (:func:`~scrabble_core.ai.should_challenge`, with the lexicon and a random
        source seeded by ``seed``, so a re-run after a restart decides the same)."""
        challengeable = game.challengeable
        if game.challenge_mode is ChallengeMode.VOID or challengeable is None or challengeable == seat:
            return []
        words = game.challengeable_words()
        if not should_challenge(words, level, self.lexicon, random.Random(seed)):
            return []
        return [word for word in words if word not in self.lexicon]

    # Messages -----------------------------------------------------------------------------------

    def read_announcement(self, data: Mapping[str, Any]) -> Announcement:
        """See :meth:`GamePlugin.read_announcement`."""
        return announcements.TurnAnnouncement.from_dict(data).announcement()

    async def announcement_message(
        self, table: Table[ScrabbleOptions, Game], announcement: Announcement, *, urgent: bool = False
    ) -> Message:
        """The turn message: its lines and events, the board, the scores, who is next and their buttons
        (the challenge window the AI to move waits out); once the game is over, the result, the score
        chart and the record."""
        assert isinstance(table, ScrabbleTable)
        turn = announcements.TurnAnnouncement.from_dict(announcement.data)
        return await announcements.turn_message(table, turn.events, turn.lines, self.renderer, urgent=urgent)

    def past_message(self, table: Table[ScrabbleOptions, Game], announcement: Announcement) -> Message:
        """The turn's lines and events as text (and the result once the game is over)."""
        assert isinstance(table, ScrabbleTable)
        turn = announcements.TurnAnnouncement.from_dict(announcement.data)
        return announcements.past_turn_message(table, turn.events, turn.lines)

    def answered(self, announcement: Announcement, seat: int) -> Announcement:
        """The announcement without ``seat``'s rack to DM."""
        turn = announcements.TurnAnnouncement.from_dict(announcement.data)
        return replace(turn, racks=tuple(rack for rack in turn.racks if rack != seat)).announcement()

    async def private_message(self, table: Table[ScrabbleOptions, Game], seat: int) -> Message:
        """The seat's rack, drawn ahead of the boards waiting (the channel's next announcements wait for
        this DM)."""
        assert isinstance(table, ScrabbleTable)
        return await announcements.rack_message(table, table.row.seats[seat], self.renderer, urgent=True)

    def private_failed_message(self, table: Table[ScrabbleOptions, Game], user_id: int) -> Message:
        """The notice that the rack could not go by DM."""
        assert isinstance(table, ScrabbleTable)
        return announcements.rack_not_sent_message(table, user_id)

    # Results ------------------------------------------------------------------------------------

    def result(self, table: Table[ScrabbleOptions, Game]) -> tuple[RatedSeat, ...]:
        """See :func:`bot.games.scrabble.records.result`."""
        assert isinstance(table, ScrabbleTable)
        return records.result(table)

    def stats(self, table: Table[ScrabbleOptions, Game]) -> list[StatsDelta]:
        """See :func:`bot.games.scrabble.records.stats_deltas`."""
        return records.stats_deltas(table.row, table.started())
