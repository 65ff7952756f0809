"""Scrabble's commands: one method per command of its front ends (Discord, the web board, the terminal),
over the host (:class:`~bot.host.runner.Host`) and Scrabble's plugin.

It knows nothing of Discord. A front end calls one method per command, with ids and text; the method
returns a :class:`~bot.host.messages.Message` for the asker (send it ephemerally when ``private``), or
raises a :class:`~bot.host.errors.ServiceError` or the engine's
:class:`~scrabble_core.errors.ScrabbleError` whose text is for the asker. Everything public (turn
messages, lobby changes, the end of a game, reminders) goes out through the host, in order.

Every state change takes the host's one path (see :mod:`bot.host.runner`): if the write fails, nothing
changed.
"""

from __future__ import annotations

import contextlib
import logging
import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, Final

from bot.games.scrabble import announcements, stats, text
from bot.games.scrabble.actions import Turn
from bot.games.scrabble.analysis import AnalysisService, LossChart, Pool
from bot.games.scrabble.buttons import ScrabbleButton
from bot.games.scrabble.errors import HintError, WordError, game_exists
from bot.games.scrabble.first_draw import draw_first
from bot.games.scrabble.options import NewGame, game_options
from bot.games.scrabble.plugin import ScrabblePlugin
from bot.games.scrabble.protocols import Advisor
from bot.games.scrabble.puzzles import PuzzleService
from bot.games.scrabble.rules import rules_text
from bot.games.scrabble.table import ScrabbleTable
from bot.host.commands import GameCommands
from bot.host.errors import (
    AlreadySeatedError,
    GameStartedError,
    LobbyFullError,
    NoBoardError,
    NoGameError,
    NotAllowedError,
    NotEnoughPlayersError,
    NotSeatedError,
    StaleTurnError,
)
from bot.host.features import Feature
from bot.host.links import with_seat_link
from bot.host.messages import Attachment, Message, mention
from bot.host.preferences import Preference
from bot.host.runner import Host
from bot.host.seats import User, program_user_id, seat_name, shown
from bot.host.seeds import new_seed, turn_seed
from bot.host.store import GameRow, GameStatus, LogEntry, SeatRow
from scrabble_core.analysis import GameAnalysis
from scrabble_core.errors import ScrabbleError
from scrabble_core.game import MAX_PLAYERS, MIN_PLAYERS, ChallengeMode, Event, EventKind, Game
from scrabble_core.gcg import export_gcg, record_of, without_racks
from scrabble_core.move import Play
from scrabble_core.move_words import play_in_words, tiles_in_words
from scrabble_core.notation import parse_player_play
from scrabble_core.validation import check_play

__all__ = ["NewGame", "ScrabbleCommands", "User"]

logger = logging.getLogger("bot.games.scrabble")

HINT_MOVES: Final = 3
LEADERBOARD_SIZE: Final = 10


class ScrabbleCommands(GameCommands):
    """Scrabble's commands over ``host`` (which plays ``plugin``'s games). Without an ``advisor`` hints
    are refused. ``new_seed`` gives the seed of a new game asked for without one (its bag, its draw for
    the first turn and its AI turns): random by default."""

    def __init__(
        self,
        host: Host,
        plugin: ScrabblePlugin,
        advisor: Advisor | None = None,
        *,
        new_seed: Callable[[], int] = new_seed,
    ) -> None:
        super().__init__(host)
        self.plugin = plugin
        self._advisor = advisor
        self._new_seed = new_seed
        self.variants = plugin.variants
        self.analysis = AnalysisService(host.store, plugin.lexicon, host.clock)
        self.puzzles = PuzzleService(
            host.store, plugin.lexicon, host.clock, plugin.renderer, plugin.settings.variant
        )

    def use_pool(self, pool: Pool, loss_chart: LossChart | None = None) -> None:
        """Run the post-game analyses and choose the daily puzzles in ``pool`` (the AI workers), drawing the
        analyses' chart with ``loss_chart``."""
        self.analysis.use_pool(pool, loss_chart)
        self.puzzles.use_pool(pool)

    def require_board(self) -> None:
        """Check that the bot serves the web board (before asking for anything that needs its links).

        Raises:
            NoBoardError: it does not.
        """
        if self.host.links is None:
            raise NoBoardError

    def _lobby_message(self, table: ScrabbleTable, *, update: bool = False) -> Message:
        return self.host.lobby_message(
            table, announcements.lobby_message(table, programs=self.host.links is not None, update=update)
        )

    def _table(self, channel_id: int, game_id: int | None = None) -> ScrabbleTable:
        """The channel's Scrabble game (``game_id`` if given).

        Raises:
            NoGameError.
        """
        table = self.host.table(self.plugin, channel_id, game_id)
        assert isinstance(table, ScrabbleTable)
        return table

    def _open(self, channel_id: int) -> ScrabbleTable | None:
        """The channel's Scrabble game, if it has one."""
        table = self.host.tables.get(channel_id)
        if table is None or not isinstance(table, ScrabbleTable):
            return None
        return table

    def open_table(self, game_id: int) -> ScrabbleTable:
        """The open Scrabble game ``game_id`` as it stands (for reading).

        Raises:
            NoGameError: no open Scrabble game has that id.
        """
        table = self.host.open_table(game_id, self.plugin.kind)
        assert isinstance(table, ScrabbleTable)
        return table

    def game(self, channel_id: int) -> Game:
        """A copy of the engine state of the channel's game (for reading: changing it changes nothing).

        Raises:
            NoGameError; GameNotStartedError.
        """
        return self._table(channel_id).started().copy()

    # Lobby --------------------------------------------------------------------------------------

    async def new_game(
        self, guild_id: int, channel_id: int, user: User, options: NewGame = NewGame()
    ) -> Message:
        """Open a lobby in ``channel_id`` with ``user`` in the first seat, the AI opponents and the
        programs' seats asked for, and announce it. Returns the asker's acknowledgement (with each
        program seat's token: see :meth:`add_program`).

        Raises:
            GameExistsError: the channel has an open game (ChannelBusyError: of another kind).
            OptionError: an unknown variant, challenge mode or AI level, a time limit, hint count or
                number of AI opponents or programs out of range.
            NoBoardError: programs asked for, but the bot serves no web board.
        """
        settings = game_options(options, self.host.config, self.variants)
        if options.programs:
            self.require_board()
        async with self.host.lock(channel_id):
            if self._open(channel_id) is not None:
                raise game_exists()
            now = self.host.clock.now()
            seats = [SeatRow(0, user.id, seat_name(user.name, []))]
            for _ in range(options.ai_opponents):
                names = [seat.name for seat in seats]
                seats.append(SeatRow(len(seats), None, seat_name("AI", names), settings.ai_level))
            for _ in range(options.programs):
                seats.append(_program_seat(seats))
            seed = options.seed if options.seed is not None else self._new_seed()
            draft = GameRow(
                0, self.plugin.kind, guild_id, channel_id, user.id, GameStatus.LOBBY, {}, seed, None,
                tuple(seats), None, False, now, now,
            )  # fmt: skip
            log = [LogEntry("created", 0, {"user_id": user.id, "options": settings.to_dict()}, now)]
            table = await self.host.create(self.plugin, ScrabbleTable(draft, settings, None), log)
            assert isinstance(table, ScrabbleTable)
            row = table.row
            logger.info("game %d: created in channel %d by user %d", row.id, channel_id, user.id)
            self.host.post(channel_id, self._lobby_message(table))
        created = "Your game is open: the others press Join, then you press Start."
        if not settings.rated:
            created += " It is unrated: it changes no rating."
        added = row.seats[len(row.seats) - options.programs :]  # the seats given to programs here
        programs = [self._program_text(row.id, seat) for seat in added]
        return _ack("\n\n".join([created, *programs]))

    async def join(self, channel_id: int, user: User) -> Message:
        """Seat ``user`` in the channel's lobby and announce it.

        Raises:
            NoGameError; GameStartedError; AlreadySeatedError; LobbyFullError.
        """
        async with self.host.lock(channel_id):
            table = self._lobby(channel_id)
            if any(seat.user_id == user.id for seat in table.row.seats):
                raise AlreadySeatedError
            if len(table.row.seats) >= MAX_PLAYERS:
                raise LobbyFullError(MAX_PLAYERS)
            seats = table.row.seats
            name = seat_name(user.name, [seat.name for seat in seats])
            await self._change_lobby(
                table,
                (*seats, SeatRow(len(seats), user.id, name)),
                "joined",
                len(seats),
                {"user_id": user.id},
            )
        return _ack("You joined the game.")

    async def add_ai(self, channel_id: int, user_id: int) -> Message:
        """Seat an AI opponent (at the game's AI level) in the channel's lobby, for its creator, and
        announce it.

        Raises:
            NoGameError; GameStartedError; NotAllowedError (not the creator); LobbyFullError.
        """
        async with self.host.lock(channel_id):
            table = self._lobby(channel_id)
            if user_id != table.row.creator_id:
                raise NotAllowedError("Only the game's creator can add AI opponents")
            seats = table.row.seats
            if len(seats) >= MAX_PLAYERS:
                raise LobbyFullError(MAX_PLAYERS)
            level = table.options.ai_level
            seat = SeatRow(len(seats), None, seat_name("AI", [s.name for s in seats]), level)
            await self._change_lobby(table, (*seats, seat), "ai_added", seat.seat, {"ai_level": level})
        return _ack(f"{shown(seat.name)} ({level}) joined the game.")

    async def add_program(self, channel_id: int, user_id: int) -> Message:
        """Seat a program (a bot client of the board protocol) in the channel's lobby, for its creator,
        and announce it. Returns, privately, the seat's token and how to run a program with it. The
        program plays like a person: the turn time limit and its expiry apply.

        Raises:
            NoBoardError: the bot serves no web board; NoGameError; GameStartedError; NotAllowedError
            (not the creator); LobbyFullError.
        """
        self.require_board()
        async with self.host.lock(channel_id):
            table = self._lobby(channel_id)
            if user_id != table.row.creator_id:
                raise NotAllowedError("Only the game's creator can give a seat to a program")
            seats = table.row.seats
            if len(seats) >= MAX_PLAYERS:
                raise LobbyFullError(MAX_PLAYERS)
            seat = _program_seat(seats)
            await self._change_lobby(table, (*seats, seat), "joined", seat.seat, {"user_id": seat.user_id})
        return _ack(self._program_text(table.row.id, seat))

    def _program_text(self, game_id: int, seat: SeatRow) -> str:
        """How to run a program in ``seat`` (its token: private)."""
        links = self.host.links
        assert links is not None  # checked by require_board
        assert seat.user_id is not None  # a program's pseudo user
        return announcements.program_seat_text(seat.name, seat.seat, links.program(game_id, seat.user_id))

    async def leave(self, channel_id: int, user_id: int) -> Message:
        """Take ``user_id`` out of the channel's lobby and announce it.

        Raises:
            NoGameError; NotSeatedError; GameStartedError (use resign); NotAllowedError for the creator
            (who cancels instead).
        """
        async with self.host.lock(channel_id):
            table = self._lobby(channel_id, "This game has already started: use /scrabble resign to leave it")
            seat = table.seat_of(user_id)
            if user_id == table.row.creator_id:
                raise NotAllowedError("You created this game: cancel it with /scrabble cancel instead")
            seats = tuple(
                replace(s, seat=i) for i, s in enumerate(s for s in table.row.seats if s.seat != seat)
            )
            await self._change_lobby(table, seats, "left", seat, {"user_id": user_id})
        return _ack("You left the game.")

    def _lobby(self, channel_id: int, started: str | None = None) -> ScrabbleTable:
        """The channel's game, which must still be in its lobby.

        Raises:
            NoGameError; GameStartedError (saying ``started`` if given).
        """
        table = self._table(channel_id)
        if table.game is not None:
            raise GameStartedError(started)
        return table

    async def _change_lobby(
        self, table: ScrabbleTable, seats: tuple[SeatRow, ...], kind: str, seat: int, data: dict[str, Any]
    ) -> None:
        """Save the lobby with its new ``seats`` and one log entry, log it, and update the lobby message.
        The caller holds the channel's lock."""
        new = replace(table, row=replace(table.row, seats=seats, updated_at=self.host.clock.now()))
        await self.host.save(new, [LogEntry(kind, seat, data, new.row.updated_at)])
        logger.info("game %d: %s, seat %d %s", new.row.id, kind, seat, data)
        self.host.post(new.row.channel_id, self._lobby_message(new, update=True))

    async def start_game(self, channel_id: int, user_id: int) -> Message:
        """Start the channel's lobby (its creator only): draw who plays first (seeded by the game's seed;
        turns then go round in joining order), deal, announce the draw and the first turn, DM the other
        players' racks; the answer shows the creator's own (by DM too if they asked for DMs).

        Raises:
            NoGameError; GameStartedError; NotAllowedError (not the creator); NotEnoughPlayersError.
        """
        async with self.host.lock(channel_id):
            table = self._lobby(channel_id)
            if user_id != table.row.creator_id:
                raise NotAllowedError("Only the game's creator can start it")
            if len(table.row.seats) < MIN_PLAYERS:
                raise NotEnoughPlayersError
            options = table.options
            variant = self.variants.get(options.variant)
            joined = table.row.seats
            draw = draw_first(
                [seat.name for seat in joined], variant, random.Random(turn_seed(table.row.seed, -1))
            )
            # Turns go round in joining order, from the seat that drew first.
            order = [*joined[draw.first :], *joined[: draw.first]]
            seats = tuple(replace(seat, seat=number) for number, seat in enumerate(order))
            game = Game(
                variant,
                [seat.name for seat in seats],
                rng=random.Random(table.row.seed),
                lexicon=self.plugin.lexicon,
                challenge_mode=options.challenge_mode,
            )
            now = self.host.clock.now()
            first_human = not seats[game.current].is_ai
            deadline = now + options.turn_seconds if options.turn_seconds and first_human else None
            row = replace(
                table.row,
                status=GameStatus.ACTIVE,
                seats=seats,
                deadline=deadline,
                reminded=False,
                updated_at=now,
            )
            new = ScrabbleTable(row, options, game)
            opening = ("The game has started.", draw.line)
            dms = await self.host.wants_dms(user_id)
            racks = tuple(seat.seat for seat in seats if dms or seat.user_id != user_id)
            turn = announcements.TurnAnnouncement(0, (), opening, racks)
            pending = await self.host.save(
                new, [LogEntry("started", None, {"first": seats[0].name}, now)], announcement=turn.to_dict()
            )
            logger.info("game %d: started with %d players, %s first", row.id, len(row.seats), seats[0].name)
            self.host.announce(new, turn.announcement(), pending)
            await self.host.schedule(new)
        return await self._rack_answer(new, new.seat_of(user_id), "The game has started.")

    async def cancel(self, channel_id: int, user_id: int, *, can_manage: bool) -> Message:
        """Cancel the channel's game, in the lobby or in play, without stats: its creator, or anyone
        with ``can_manage`` (Manage Messages).

        Raises:
            NoGameError; NotAllowedError.
        """
        async with self.host.lock(channel_id):
            table = self._table(channel_id)
            if user_id != table.row.creator_id and not can_manage:
                raise NotAllowedError("Only the game's creator or a moderator can cancel it")
            now = self.host.clock.now()
            row = replace(table.row, status=GameStatus.CANCELLED, deadline=None, updated_at=now)
            await self.host.save(
                replace(table, row=row), [LogEntry("cancelled", None, {"user_id": user_id}, now)]
            )
            logger.info("game %d: cancelled by user %d", row.id, user_id)
            message = Message(f"{mention(user_id)} cancelled the game.", mentions=(user_id,), game=row.id)
            self.host.post(channel_id, message)
        return _ack("You cancelled the game.")

    # Turns --------------------------------------------------------------------------------------

    async def _act(
        self,
        channel_id: int,
        user_id: int,
        game_id: int | None,
        turn: int | None,
        act: Callable[[Game, int], list[Any]],
        *,
        challenge: bool = False,
        answered: bool = True,
        lines: tuple[str, ...] = (),
    ) -> tuple[ScrabbleTable, Sequence[Event]]:
        """``act(game, seat)`` for ``user_id``'s seat (see :meth:`bot.host.runner.Host.act`), its
        announcement opened by ``lines``: the game after it and the events it caused. With
        ``answered``, the answer shows the seat its rack (no DM then, unless they asked for DMs)."""
        stale = StaleTurnError(challenge=challenge)
        outcome = await self.host.act(
            self.plugin, channel_id, user_id, game_id, turn, Turn(act, lines), stale=stale, answered=answered
        )
        table = outcome.table
        assert isinstance(table, ScrabbleTable)
        events: Sequence[Event] = outcome.reply
        return table, events

    async def _rack_answer(
        self, table: ScrabbleTable, seat: int, said: str, *, answered: bool = True
    ) -> Message:
        """The answer to ``seat``'s command that changed its rack: ``said`` (what it did), then its rack
        (letters and image) and its link to play on the board; ``said`` alone once the game is over or
        when the answer is not shown to the player (not ``answered``)."""
        if not answered or table.started().is_over:
            return _ack(said)
        message = await announcements.rack_message(
            table, table.row.seats[seat], self.plugin.renderer, urgent=True, said=said
        )
        return with_seat_link(message, self.host.links, table.row.id, seat)

    async def play(
        self,
        channel_id: int,
        user_id: int,
        move: str | Play,
        *,
        game_id: int | None = None,
        turn: int | None = None,
        answered: bool = True,
    ) -> Message:
        """``user_id`` plays ``move``: the engine's :class:`~scrabble_core.move.Play` (the web board's
        placed tiles), or its notation as a player types it (``8H QUIZ``). Every turn command takes the
        move number the player saw (``turn``, the length of the game's history; ``None``: the current
        one) and is refused if the game has moved on since. The answer says the play in words and, if
        ``answered`` (the front end shows it to the player), shows their new rack and their link to play
        on the board (their rack then comes by DM only if they asked for DMs).

        Raises:
            NoGameError; GameNotStartedError; NotSeatedError; StaleTurnError; any engine error (not
            your turn, unreadable move, illegal play, unknown word...).
        """
        table, (play, *_) = await self._act(
            channel_id,
            user_id,
            game_id,
            turn,
            lambda game, seat: game.play(seat, move),
            answered=answered,
        )
        said = f"You played {text.play_text(play.move, play.score, play.detail, table.started().board)}."
        return await self._rack_answer(table, play.player, said, answered=answered)

    async def exchange(
        self,
        channel_id: int,
        user_id: int,
        tiles: str,
        *,
        game_id: int | None = None,
        turn: int | None = None,
        answered: bool = True,
    ) -> Message:
        """``user_id`` exchanges ``tiles`` (``?`` a blank); the answer shows the new rack if ``answered``
        (as :meth:`play`).

        Raises:
            As :meth:`play` (the engine refuses an exchange with too few tiles in the bag).
        """
        table, (exchanged, *_) = await self._act(
            channel_id,
            user_id,
            game_id,
            turn,
            lambda game, seat: game.exchange(seat, tiles),
            answered=answered,
        )
        said = f"You exchanged {tiles_in_words(exchanged.move[1:], table.started().variant)}."
        return await self._rack_answer(table, exchanged.player, said, answered=answered)

    async def pass_turn(
        self, channel_id: int, user_id: int, *, game_id: int | None = None, turn: int | None = None
    ) -> Message:
        """``user_id`` passes.

        Raises:
            As :meth:`play`.
        """
        await self._act(channel_id, user_id, game_id, turn, lambda game, seat: game.pass_turn(seat))
        return _ack("You passed.")

    async def resign(
        self, channel_id: int, user_id: int, *, game_id: int | None = None, turn: int | None = None
    ) -> Message:
        """``user_id`` resigns (at any time); with one player left the game ends.

        Raises:
            As :meth:`play`.
        """
        await self._act(channel_id, user_id, game_id, turn, lambda game, seat: game.resign(seat))
        return _ack("You resigned.")

    async def challenge(
        self, channel_id: int, user_id: int, *, game_id: int | None = None, turn: int | None = None
    ) -> Message:
        """``user_id`` challenges the last play (at any time while it can be challenged); with ``turn``,
        the play after which the game's move number was ``turn``, which must still be the last one.

        Raises:
            As :meth:`play` (StaleTurnError: "That play can no longer be challenged"); the engine's
            ChallengeError when there is nothing to challenge.
        """
        table = self._table(channel_id, game_id)
        double = table.options.challenge_mode is ChallengeMode.DOUBLE
        name = table.row.seats[table.seat_of(user_id)].name
        _, events = await self._act(
            channel_id,
            user_id,
            game_id,
            turn,
            lambda game, seat: game.challenge(seat),
            challenge=True,
            lines=(text.challenge_line(name),),
        )
        if any(event.kind is EventKind.PHONY_WITHDRAWN for event in events):
            return _ack("Your challenge was upheld: the play came off the board.")
        if double and not events:  # not their turn: they lose the next one
            return _ack("Your challenge failed: you lose your next turn.")
        return _ack("Your challenge failed: the play stands.")

    async def accept(
        self, channel_id: int, user_id: int, *, game_id: int | None = None, turn: int | None = None
    ) -> Message:
        """``user_id`` accepts the play that went out, ending the game.

        Raises:
            As :meth:`play`; the engine's ChallengeError when no play that went out is waiting.
        """
        await self._act(channel_id, user_id, game_id, turn, lambda game, seat: game.accept(seat))
        return _ack("You accepted the last play.")

    async def no_challenge(
        self, channel_id: int, user_id: int, *, game_id: int | None = None, turn: int | None = None
    ) -> Message:
        """``user_id`` lets the last play stand in the challenge window of the AI on turn; the AI plays
        once every other human has said so (or the window's time is up).

        Raises:
            NoGameError; GameNotStartedError; NotSeatedError; StaleTurnError: no window is open for
            that play.
        """
        async with self.host.lock(channel_id):
            table = self._table(channel_id, game_id)
            seat = table.seat_of(user_id)
            self.host.check_turn(self.plugin, table, turn, StaleTurnError(challenge=True))
            played = table.challenge_window(table.started())
            if played is None:
                raise StaleTurnError(challenge=True)
            others = {s.seat for s in table.row.seats if not s.is_ai and s.seat != played}
            self.host.waive_wait(table, seat, others)
        return _ack("You let the play stand.")

    # Questions ----------------------------------------------------------------------------------

    async def rack(self, channel_id: int, user_id: int, *, game_id: int | None = None) -> Message:
        """``user_id``'s rack, as letters and an image (private).

        Raises:
            NoGameError; GameNotStartedError; NotSeatedError.
        """
        table = self._table(channel_id, game_id)
        table.started()
        seat = table.seat_of(user_id)
        message = await self.plugin.private_message(table, seat)
        if self.host.links is not None:  # the New web link button: renew_link
            message = replace(message, buttons=(ScrabbleButton.NEW_LINK,), game=table.row.id)
        return with_seat_link(message, self.host.links, table.row.id, seat)

    async def renew_link(self, channel_id: int, user_id: int) -> Message:
        """A new private link that plays ``user_id``'s seat on the web board; their older links stop
        working (private).

        Raises:
            NoBoardError: the bot serves no web board; NoGameError; NotSeatedError.
        """
        self.require_board()
        table = self._table(channel_id)
        seat = table.seat_of(user_id)
        message = _ack("Your new link to play on the board (your older links no longer work):")
        return with_seat_link(message, self.host.links, table.row.id, seat, renew=True)

    async def rack_letters(self, channel_id: int, user_id: int) -> str:
        """``user_id``'s rack letters for autocompletion; empty when they have no rack here."""
        table = self._open(channel_id)
        if table is None or table.game is None:
            return ""
        with contextlib.suppress(NotSeatedError):
            return table.game.players[table.seat_of(user_id)].rack
        return ""

    async def hint(
        self, channel_id: int, user_id: int, *, game_id: int | None = None, turn: int | None = None
    ) -> Message:
        """The best moves for ``user_id``'s rack with their score and leave (private); uses one of the
        player's hints.

        Raises:
            NoGameError; GameNotStartedError; NotSeatedError; StaleTurnError (``turn`` is over);
            HintError (hints disabled, used up, or no move generator).
        """
        async with self.host.lock(channel_id):
            table = self._table(channel_id, game_id)
            game = table.started()
            seat = table.seat_of(user_id)
            self.host.check_turn(self.plugin, table, turn, StaleTurnError())
            allowed = table.options.hints
            used = table.row.seats[seat].hints_used
            if allowed == 0:
                raise HintError("Hints are disabled in this game")
            if used >= allowed:
                raise HintError(f"You have used all {allowed} of your hints in this game")
            if self._advisor is None:
                raise HintError("Hints are not available on this bot")
            suggestions = await self._advisor.top_moves(game.copy(), seat, HINT_MOVES)
            seats = list(table.row.seats)
            seats[seat] = replace(seats[seat], hints_used=used + 1)
            row = replace(table.row, seats=tuple(seats), updated_at=self.host.clock.now())
            await self.host.save(replace(table, row=row), [LogEntry("hint", seat, {}, row.updated_at)])
            logger.info("game %d: hint %d of %d for seat %d", row.id, used + 1, allowed, seat)
        rack = game.players[seat].rack
        return Message(text.hint_text(rack, game.board, suggestions, used + 1, allowed), private=True)

    async def preview_play(self, channel_id: int, user_id: int, move: str) -> str:
        """What ``move`` would do for ``user_id``'s rack on the current board, for autocompletion: the
        play in words and its score (``"QUIZ at 8H (across): 48 points"``), or the engine's reason it
        is not a legal play (``"you don't have Z on your rack"``). Empty when there is nothing to
        preview: no started game, not seated, the game is over, or nothing typed.

        Cheap, and changes nothing: no hint is used and nothing is written. The words are never looked
        up, so a preview cannot tell whether a word is in the dictionary (in games with challenges that
        is for a challenge, or ``/scrabble check``, to say). It does not check whose turn it is.
        """
        table = self._open(channel_id)
        if not move.strip() or table is None or table.game is None or table.game.is_over:
            return ""
        try:
            seat = table.seat_of(user_id)
        except NotSeatedError:
            return ""
        try:
            play, score = preview(table.game, seat, move)
        except ScrabbleError as error:
            return str(error)
        return f"{play_in_words(play, table.game.board)}: {score} {'point' if score == 1 else 'points'}"

    async def board(self, channel_id: int, *, public: bool = False) -> Message:
        """The board with the last play highlighted, the scores and whose turn it is, for the asker
        alone unless ``public``; a public one names the player to move but pings nobody (the turn
        message already did), and takes the buttons of the game's older messages.

        Raises:
            NoGameError; GameNotStartedError.
        """
        table = self._table(channel_id)
        game = table.started()
        now = announcements.TurnAnnouncement(len(game.history), (), (), ())
        message = await self.host.message_of(table, now.announcement(), urgent=True)
        if not public:
            message = replace(message, buttons=(), game=None, turn=None)
        return replace(message, mentions=(), private=not public)

    async def score(self, channel_id: int, *, public: bool = False) -> Message:
        """The scores and the bag's count (for the asker alone unless ``public``).

        Raises:
            NoGameError; GameNotStartedError.
        """
        game = self._table(channel_id).started()
        return Message(f"{text.scores_line(game)}\n{text.bag_line(game)}", private=not public)

    async def bag(self, channel_id: int, user_id: int) -> Message:
        """The bag's count and the tiles ``user_id`` has not seen (private).

        Raises:
            NoGameError; GameNotStartedError; NotSeatedError.
        """
        table = self._table(channel_id)
        game = table.started()
        return Message(text.bag_text(game, table.seat_of(user_id)), private=True)

    async def history(self, channel_id: int, *, public: bool = False) -> Message:
        """Every move of the channel's game so far, without racks or exchanged tiles, with its GCG record
        attached, likewise without them, for the asker alone unless ``public``. With no game going on,
        the same for the last game that ended in the channel, whose record shows the racks (and, once
        analysed, the analysis as ``#note`` lines).

        Raises:
            NoGameError: no game is going on and none ended here.
        """
        table = self._open(channel_id)
        if table is not None and table.game is not None:
            game = table.game.copy()
            lines = text.history_text(game, table.row.seats)
            record = Attachment(f"game-{table.row.id}.gcg", without_racks(record_of(game)).text().encode())
            return Message(lines, (record,), private=not public)
        row = await self.host.store.last_finished_game(channel_id, self.plugin.kind)
        if row is None or row.state is None:
            raise NoGameError("No game has ended in this channel yet: start one with /scrabble new")
        game = self.plugin.restore(row).started()
        stored = await self.host.store.analysis(row.id)
        notes = GameAnalysis.from_dict(stored).notes() if stored is not None else None
        record = Attachment(f"game-{row.id}.gcg", export_gcg(game, notes).encode())
        heading = f"The last game here (game {row.id} for /scrabble analyze):\n"
        return Message(heading + text.history_text(game, row.seats), (record,), private=not public)

    async def check(self, channel_id: int, word: str) -> Message:
        """Whether ``word`` is in the game's lexicon (private).

        Raises:
            NoGameError; WordError: not a word of the game's alphabet (2 to 15 letters).
        """
        table = self._table(channel_id)
        variant = self.variants.get(table.options.variant)
        cleaned = word.strip().upper()
        longest = max(variant.rows, variant.cols)
        if not 2 <= len(cleaned) <= longest or not all(variant.is_letter(ch) for ch in cleaned):
            raise WordError(f"Give a word of 2 to {longest} letters to check")
        lexicon = self.plugin.lexicon
        verdict = "is" if cleaned in lexicon else "is not"
        return Message(f"{cleaned} {verdict} in {lexicon.name}.", private=True)

    async def rules(self, channel_id: int | None, topic: str | None = None) -> Message:
        """The rules (private), or one ``topic`` of them, for the variant and players of the channel's
        game, or for the configured variant when there is none.

        Raises:
            RulesTopicError: no such topic.
        """
        table = None if channel_id is None else self._open(channel_id)
        if table is None:
            variant, players = self.variants.get(self.plugin.settings.variant), None
        else:
            game = table.game
            variant = game.variant if game is not None else self.variants.get(table.options.variant)
            players = len(table.row.seats)
        return Message(rules_text(variant, players, topic), private=True)

    async def stats(self, guild_id: int, user_id: int, *, public: bool = False) -> Message:
        """``user_id``'s stats in the guild (games, wins, average score, best move) and, unless the
        guild turned ratings off, their rating, rank, record and rating chart (see
        :func:`bot.games.scrabble.stats.stats_message`), for the asker alone unless ``public``."""
        shown = await self.host.feature_enabled(guild_id, Feature.RATINGS)
        store, renderer = self.host.store, self.plugin.renderer
        message = await stats.stats_message(store, renderer, guild_id, user_id, show_ratings=shown)
        return replace(message, private=not public)

    async def leaderboard(self, guild_id: int, *, public: bool = False) -> Message:
        """The guild's best players: by conservative rating, or with ratings turned off (or before any
        rated game) most wins, then best average score; for the asker alone unless ``public``."""
        shown = await self.host.feature_enabled(guild_id, Feature.RATINGS)
        message = await stats.leaderboard_message(
            self.host.store, guild_id, LEADERBOARD_SIZE, show_ratings=shown
        )
        return replace(message, private=not public)

    async def rack_dms(self, user_id: int, enabled: bool) -> Message:
        """Whether ``user_id``'s rack also comes by DM after their own moves (their answer shows it
        either way), in every game and server (private).

        Raises:
            StorageError: the write failed (nothing changed).
        """
        await self.host.set_preference(user_id, Preference.DMS, enabled)
        if enabled:
            return _ack("From now on your rack also comes by DM after each of your moves.")
        return _ack(
            "From now on your rack comes in the answer to your moves, and by DM only when there is no "
            "answer to show it (the start of a game, a move on the web board, a timeout)."
        )


def preview(game: Game, seat: int, move: str | Play) -> tuple[Play, int]:
    """What ``move`` (a play, or its notation as typed) would be and score for ``seat``'s rack on the
    board of ``game``: the one preview of every front end (the words are not looked up, whose turn it is
    is not checked, nothing changes).

    Raises:
        ScrabbleError: it is not a legal play of that rack (the engine's reason).
    """
    board = game.board
    rack = game.players[seat].rack
    play = parse_player_play(move, board, rack) if isinstance(move, str) else move
    return play, check_play(board, play, rack=rack).total


def _program_seat(seats: Sequence[SeatRow]) -> SeatRow:
    """A new seat after ``seats`` for a program (a pseudo user: see :func:`bot.host.seats.is_program`)."""
    program = program_user_id([s.user_id for s in seats])
    return SeatRow(len(seats), program, seat_name("Bot", [s.name for s in seats]))


def _ack(content: str) -> Message:
    return Message(content, private=True)
