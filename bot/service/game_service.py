"""The game service: one method per command, over the open games of its
:class:`~bot.service.runner.GameRunner`.

It knows nothing of discord. The discord layer calls one method per command, with ids and text; the
method returns a :class:`~bot.messages.Message` for the asker (send it ephemerally when ``private``),
or raises a :class:`~scrabble_core.errors.ScrabbleError` (a :mod:`bot.service.errors` refusal, or the
engine's own) whose text is for the asker. Everything public (turn messages, lobby changes, the end of
a game, reminders) goes out through the :class:`~bot.service.protocols.Notifier`, in order.

Every state change takes the runner's one path (see :mod:`bot.service.runner`): if the write fails,
nothing changed.
"""

from __future__ import annotations

import contextlib
import logging
import random
import secrets
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, Final

from bot.config import Config
from bot.messages import Attachment, Button, Message, mention
from bot.service import announcements, ratings, text
from bot.service.actions import SEED_BITS, turn_seed
from bot.service.analysis import AnalysisService, LossChart, Pool
from bot.service.errors import (
    AlreadySeatedError,
    FeatureOffError,
    GameExistsError,
    GameStartedError,
    HintError,
    LobbyFullError,
    NoBoardError,
    NoGameError,
    NotAllowedError,
    NotEnoughPlayersError,
    NotSeatedError,
    WordError,
)
from bot.service.features import Feature, feature_named, features_text, is_on
from bot.service.go.ai import ThreadGoAi
from bot.service.go.protocols import GoAi, GoBoardRenderer
from bot.service.go.service import GoService
from bot.service.listeners import GameListener
from bot.service.options import NewGame, game_options
from bot.service.outbox import Announcement
from bot.service.protocols import Advisor, AiPlayer, BoardLinks, Clock, Notifier, Renderer, SystemClock
from bot.service.puzzles import PuzzleService
from bot.service.rules import rules_text
from bot.service.runner import GameRunner
from bot.service.seats import User, draw_first, program_user_id, seat_name, shown
from bot.service.storage import typed_storage_errors
from bot.service.table import Table
from bot.store import GameRow, GameStatus, LogEntry, SeatRow, Store
from scrabble_core.analysis import GameAnalysis
from scrabble_core.errors import ScrabbleError
from scrabble_core.game import MAX_PLAYERS, MIN_PLAYERS, ChallengeMode, EventKind, Game
from scrabble_core.gcg import export_gcg, record_of, without_racks
from scrabble_core.lexicon import WordList
from scrabble_core.notation import parse_player_play
from scrabble_core.validation import check_play
from scrabble_core.variant import VARIANTS, VariantRegistry

__all__ = ["GameService", "NewGame", "User"]

logger = logging.getLogger("bot.service")

HINT_MOVES: Final = 3
LEADERBOARD_SIZE: Final = 10


class GameService:
    """Hosts the games of every channel. Call :meth:`start` once before use and :meth:`close` at the end."""

    def __init__(
        self,
        config: Config,
        store: Store,
        lexicon: WordList,
        notifier: Notifier,
        ai: AiPlayer,
        advisor: Advisor | None = None,
        *,
        renderer: Renderer,
        clock: Clock | None = None,
        new_seed: Callable[[], int] = lambda: secrets.randbits(SEED_BITS),
        variants: VariantRegistry | None = None,
        go_ai: GoAi | None = None,
        go_renderer: GoBoardRenderer | None = None,
    ) -> None:
        """Set up the service over an open ``store``; ``lexicon`` is shared by every game; without an
        ``advisor`` hints are refused. ``new_seed`` gives the seed of a new game asked for without one
        (its bag, its draw for the first turn and its AI turns): random by default. ``variants`` are
        the variants games may use (default: the bundled ones and the config's variant files). With a
        ``go_renderer``, it hosts Go games too: :attr:`go` (its AI ``go_ai``, by default in a thread),
        sharing this service's store, notifier, clock, channel locks and delivery tasks.

        Raises:
            VariantError: without ``variants``, a variant file of the config cannot be loaded.
        """
        self._config = config
        self._store = store
        self._lexicon = lexicon
        self._advisor = advisor
        self._clock: Clock = clock or SystemClock()
        self._new_seed = new_seed
        if variants is None:
            VARIANTS.add_files(config.variant_files)
        self.variants = variants or VARIANTS
        self._runner = GameRunner(config, store, lexicon, notifier, ai, renderer, self._clock)
        self.analysis = AnalysisService(store, lexicon, self._clock)
        self.puzzles = PuzzleService(store, lexicon, self._clock, renderer, config.variant)
        self.go: GoService | None = None
        """The Go games' service (``None``: this bot hosts no Go)."""
        if go_renderer is not None:
            go_ai = go_ai or ThreadGoAi(config.ai_turn_timeout)
            locks = self._runner.locks
            self.go = GoService(
                store,
                notifier,
                go_ai,
                go_renderer,
                locks=locks,
                deliveries=self._runner.deliveries,
                clock=self._clock,
                new_seed=new_seed,
                reminder_left=config.turn.reminder_left,
            )

    # Life cycle ---------------------------------------------------------------------------------

    async def start(self) -> None:
        """Load every open game from the store and resume it: timers re-armed from their stored
        deadlines (an expired one acts at once), an AI turn that was due is played. Go games too."""
        await self._runner.start()
        if self.go is not None:
            await self.go.start()

    async def close(self) -> None:
        """Stop every timer and AI turn (they resume from the store at the next :meth:`start`)."""
        await self._runner.close()
        if self.go is not None:
            await self.go.close()

    async def idle(self) -> None:
        """Wait until no AI turn or timer action is running (timers waiting for their time are not
        waited for)."""
        await self._runner.idle()
        if self.go is not None:
            await self.go.idle()

    def channel_of(self, game_id: int) -> int:
        """The channel of the open game ``game_id`` (for buttons that carry a game id).

        Raises:
            NoGameError: no open game has that id.
        """
        channel_id = self._runner.tables.channel_of(game_id)
        if channel_id is None:
            raise NoGameError("That game is over")
        return channel_id

    def use_pool(self, pool: Pool, loss_chart: LossChart | None = None) -> None:
        """Run the post-game analyses and choose the daily puzzles in ``pool`` (the AI workers), drawing the
        analyses' chart with ``loss_chart``."""
        self.analysis.use_pool(pool, loss_chart)
        self.puzzles.use_pool(pool)

    def use_links(self, links: BoardLinks | None) -> None:
        """Put the web board's ``links`` in the messages from now on (None: no board, no links)."""
        self._runner.links = links

    def require_board(self) -> None:
        """Check that the bot serves the web board (before asking for anything that needs its links).

        Raises:
            NoBoardError: it does not.
        """
        if self._runner.links is None:
            raise NoBoardError

    def _lobby_message(self, row: GameRow) -> Message:
        return announcements.lobby_message(row, programs=self._runner.links is not None)

    def subscribe(self, listener: GameListener) -> None:
        """Tell ``listener`` of every committed change of every game (see :mod:`bot.service.listeners`)."""
        self._runner.listeners.add(listener)

    def open_table(self, game_id: int) -> Table:
        """The open game ``game_id`` as it stands (for reading).

        Raises:
            NoGameError: no open game has that id.
        """
        return self._runner.table(self.channel_of(game_id), game_id)

    def game(self, channel_id: int) -> Game:
        """A copy of the engine state of the channel's game (for reading: changing it changes nothing).

        Raises:
            NoGameError; GameNotStartedError.
        """
        table = self._runner.table(channel_id, None)
        table.started()
        return self._runner.copy(table)

    # Lobby --------------------------------------------------------------------------------------

    async def new_game(
        self, guild_id: int, channel_id: int, user: User, options: NewGame = NewGame()
    ) -> Message:
        """Open a lobby in ``channel_id`` with ``user`` in the first seat, the AI opponents and the
        programs' seats asked for, and announce it. Returns the asker's acknowledgement (with each
        program seat's token: see :meth:`add_program`).

        Raises:
            GameExistsError: the channel has an open game.
            OptionError: an unknown variant, challenge mode or AI level, a time limit, hint count or
                number of AI opponents or programs out of range.
            NoBoardError: programs asked for, but the bot serves no web board.
        """
        settings = game_options(options, self._config, self.variants)
        if options.programs:
            self.require_board()
        async with self._runner.lock(channel_id):
            if channel_id in self._runner.tables:
                raise GameExistsError
            now = self._clock.now()
            seats = [SeatRow(0, user.id, seat_name(user.name, []))]
            for _ in range(options.ai_opponents):
                names = [seat.name for seat in seats]
                seats.append(SeatRow(len(seats), None, seat_name("AI", names), settings.ai_level))
            for _ in range(options.programs):
                seats.append(_program_seat(seats))
            seed = options.seed if options.seed is not None else self._new_seed()
            draft = GameRow(
                0,
                guild_id,
                channel_id,
                user.id,
                GameStatus.LOBBY,
                settings,
                seed,
                None,
                tuple(seats),
                None,
                False,
                now,
                now,
            )
            log = [LogEntry("created", 0, {"user_id": user.id, "options": settings.to_dict()}, now)]
            row = await self._runner.create(draft, log)
            logger.info("game %d: created in channel %d by user %d", row.id, channel_id, user.id)
            await self._runner.post(channel_id, self._lobby_message(row))
        created = (
            f"Game {row.id} created: others join with /scrabble join, then start it with /scrabble start."
        )
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
        async with self._runner.lock(channel_id):
            table = self._lobby(channel_id)
            if any(seat.user_id == user.id for seat in table.row.seats):
                raise AlreadySeatedError
            if len(table.row.seats) >= MAX_PLAYERS:
                raise LobbyFullError(MAX_PLAYERS)
            seats = table.row.seats
            name = seat_name(user.name, [seat.name for seat in seats])
            await self._change_lobby(
                channel_id,
                table.row,
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
        async with self._runner.lock(channel_id):
            table = self._lobby(channel_id)
            if user_id != table.row.creator_id:
                raise NotAllowedError("Only the game's creator can add AI opponents")
            seats = table.row.seats
            if len(seats) >= MAX_PLAYERS:
                raise LobbyFullError(MAX_PLAYERS)
            level = table.row.options.ai_level
            seat = SeatRow(len(seats), None, seat_name("AI", [s.name for s in seats]), level)
            await self._change_lobby(
                channel_id, table.row, (*seats, seat), "ai_added", seat.seat, {"ai_level": level}
            )
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
        async with self._runner.lock(channel_id):
            table = self._lobby(channel_id)
            if user_id != table.row.creator_id:
                raise NotAllowedError("Only the game's creator can give a seat to a program")
            seats = table.row.seats
            if len(seats) >= MAX_PLAYERS:
                raise LobbyFullError(MAX_PLAYERS)
            seat = _program_seat(seats)
            await self._change_lobby(
                channel_id, table.row, (*seats, seat), "joined", seat.seat, {"user_id": seat.user_id}
            )
        return _ack(self._program_text(table.row.id, seat))

    def _program_text(self, game_id: int, seat: SeatRow) -> str:
        """How to run a program in ``seat`` (its token: private)."""
        assert self._runner.links is not None  # checked by require_board
        assert seat.user_id is not None  # a program's pseudo user
        access = self._runner.links.program(game_id, seat.user_id)
        return announcements.program_seat_text(seat.name, seat.seat, access)

    async def leave(self, channel_id: int, user_id: int) -> Message:
        """Take ``user_id`` out of the channel's lobby and announce it.

        Raises:
            NoGameError; NotSeatedError; GameStartedError (use resign); NotAllowedError for the creator
            (who cancels instead).
        """
        async with self._runner.lock(channel_id):
            table = self._lobby(channel_id, "This game has already started: use /scrabble resign to leave it")
            seat = table.seat_of(user_id)
            if user_id == table.row.creator_id:
                raise NotAllowedError("You created this game: cancel it with /scrabble cancel instead")
            seats = tuple(
                replace(s, seat=i) for i, s in enumerate(s for s in table.row.seats if s.seat != seat)
            )
            await self._change_lobby(channel_id, table.row, seats, "left", seat, {"user_id": user_id})
        return _ack("You left the game.")

    def _lobby(self, channel_id: int, started: str | None = None) -> Table:
        """The channel's game, which must still be in its lobby.

        Raises:
            NoGameError; GameStartedError (saying ``started`` if given).
        """
        table = self._runner.table(channel_id, None)
        if table.game is not None:
            raise GameStartedError(started)
        return table

    async def _change_lobby(
        self,
        channel_id: int,
        row: GameRow,
        seats: tuple[SeatRow, ...],
        kind: str,
        seat: int,
        data: dict[str, Any],
    ) -> None:
        """Save the lobby with its new ``seats`` and one log entry, log it, and repost the lobby
        message. The caller holds the channel's lock."""
        new = replace(row, seats=seats, updated_at=self._clock.now())
        await self._runner.save(Table(new, None), [LogEntry(kind, seat, data, new.updated_at)])
        logger.info("game %d: %s, seat %d %s", new.id, kind, seat, data)
        await self._runner.post(channel_id, self._lobby_message(new))

    async def start_game(self, channel_id: int, user_id: int) -> Message:
        """Start the channel's lobby (its creator only): draw who plays first (seeded by the game's seed;
        turns then go round in joining order), deal, announce the draw and the first turn, DM the racks.

        Raises:
            NoGameError; GameStartedError; NotAllowedError (not the creator); NotEnoughPlayersError.
        """
        async with self._runner.lock(channel_id):
            table = self._lobby(channel_id)
            if user_id != table.row.creator_id:
                raise NotAllowedError("Only the game's creator can start it")
            if len(table.row.seats) < MIN_PLAYERS:
                raise NotEnoughPlayersError
            options = table.row.options
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
                lexicon=self._lexicon,
                challenge_mode=options.challenge_mode,
            )
            now = self._clock.now()
            first_human = not seats[game.current].is_ai
            deadline = now + options.turn_seconds if options.turn_seconds and first_human else None
            row = replace(
                table.row,
                status=GameStatus.ACTIVE,
                state=game.to_dict(),
                seats=seats,
                deadline=deadline,
                reminded=False,
                updated_at=now,
            )
            new = Table(row, game)
            opening = ("The game begins!", draw.line)
            pending = await self._runner.save(
                new,
                [LogEntry("started", None, {"first": seats[0].name}, now)],
                announcement=Announcement(0, (), opening, tuple(seat.seat for seat in seats)),
            )
            logger.info("game %d: started with %d players, %s first", row.id, len(row.seats), seats[0].name)
            await self._runner.announce(new, [], opening, row.seats, pending=pending)
            await self._runner.schedule(new)
        return _ack("The game has started: your rack comes by DM.")

    async def cancel(self, channel_id: int, user_id: int, *, can_manage: bool) -> Message:
        """Cancel the channel's game, in the lobby or in play, without stats: its creator, or anyone
        with ``can_manage`` (Manage Messages).

        Raises:
            NoGameError; NotAllowedError.
        """
        async with self._runner.lock(channel_id):
            table = self._runner.table(channel_id, None)
            if user_id != table.row.creator_id and not can_manage:
                raise NotAllowedError("Only the game's creator or a moderator can cancel it")
            row = replace(table.row, status=GameStatus.CANCELLED, deadline=None, updated_at=self._clock.now())
            await self._runner.save(
                Table(row, table.game), [LogEntry("cancelled", None, {"user_id": user_id}, row.updated_at)]
            )
            logger.info("game %d: cancelled by user %d", row.id, user_id)
            await self._runner.post(
                channel_id, Message(f"The game was cancelled by {mention(user_id)}.", mentions=(user_id,))
            )
        return _ack("The game is cancelled.")

    # Turns --------------------------------------------------------------------------------------

    async def play(
        self, channel_id: int, user_id: int, move: str, *, game_id: int | None = None, turn: int | None = None
    ) -> Message:
        """``user_id`` plays ``move`` in engine notation (``8H QUIZ``). Every turn command takes the move
        number the player saw (``turn``, the length of the game's history; ``None``: the current one)
        and is refused if the game has moved on since.

        Raises:
            NoGameError; GameNotStartedError; NotSeatedError; StaleTurnError; any engine error (not
            your turn, unreadable move, illegal play, unknown word...).
        """
        events = await self._runner.player_turn(
            channel_id, user_id, game_id, lambda game, seat: game.play(seat, move), turn=turn
        )
        play = events[0]
        return _ack(f"You played {play.move} for {play.score}.")

    async def exchange(
        self,
        channel_id: int,
        user_id: int,
        tiles: str,
        *,
        game_id: int | None = None,
        turn: int | None = None,
    ) -> Message:
        """``user_id`` exchanges ``tiles`` (``?`` a blank); the new rack comes by DM.

        Raises:
            As :meth:`play` (the engine refuses an exchange with too few tiles in the bag).
        """
        await self._runner.player_turn(
            channel_id, user_id, game_id, lambda game, seat: game.exchange(seat, tiles), turn=turn
        )
        return _ack("Exchanged: your new rack comes by DM.")

    async def pass_turn(
        self, channel_id: int, user_id: int, *, game_id: int | None = None, turn: int | None = None
    ) -> Message:
        """``user_id`` passes.

        Raises:
            As :meth:`play`.
        """
        await self._runner.player_turn(
            channel_id, user_id, game_id, lambda game, seat: game.pass_turn(seat), turn=turn
        )
        return _ack("You passed.")

    async def resign(
        self, channel_id: int, user_id: int, *, game_id: int | None = None, turn: int | None = None
    ) -> Message:
        """``user_id`` resigns (at any time); with one player left the game ends.

        Raises:
            As :meth:`play`.
        """
        await self._runner.player_turn(
            channel_id, user_id, game_id, lambda game, seat: game.resign(seat), turn=turn
        )
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
        double = self._runner.table(channel_id, game_id).row.options.challenge_mode is ChallengeMode.DOUBLE
        events = await self._runner.player_turn(
            channel_id, user_id, game_id, lambda game, seat: game.challenge(seat), turn=turn, challenge=True
        )
        if any(event.kind is EventKind.PHONY_WITHDRAWN for event in events):
            return _ack("Challenge upheld: the play comes off the board.")
        if double and not events:  # not their turn: they lose the next one
            return _ack("The challenge failed: you lose your next turn.")
        return _ack("The challenge failed.")

    async def accept(
        self, channel_id: int, user_id: int, *, game_id: int | None = None, turn: int | None = None
    ) -> Message:
        """``user_id`` accepts the play that went out, ending the game.

        Raises:
            As :meth:`play`; the engine's ChallengeError when no play that went out is waiting.
        """
        await self._runner.player_turn(
            channel_id, user_id, game_id, lambda game, seat: game.accept(seat), turn=turn
        )
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
        async with self._runner.lock(channel_id):
            table = self._runner.table(channel_id, game_id)
            seat = table.seat_of(user_id)
            table.check_turn(turn, challenge=True)
            self._runner.decline_challenge(table, seat)
        return _ack("You let the play stand.")

    # Questions ----------------------------------------------------------------------------------

    async def rack(self, channel_id: int, user_id: int, *, game_id: int | None = None) -> Message:
        """``user_id``'s rack, as letters and an image (private).

        Raises:
            NoGameError; GameNotStartedError; NotSeatedError.
        """
        table = self._runner.table(channel_id, game_id)
        table.started()
        seat = table.seat_of(user_id)
        message = await announcements.rack_message(
            table, table.row.seats[seat], self._runner.renderer, urgent=True
        )
        if self._runner.links is not None:  # the New web link button: renew_link
            message = replace(message, buttons=(Button.NEW_LINK,), game=table.row.id)
        return announcements.with_seat_link(message, self._runner.links, table.row.id, seat)

    async def renew_link(self, channel_id: int, user_id: int) -> Message:
        """A new private link that plays ``user_id``'s seat on the web board; their older links stop
        working (private).

        Raises:
            NoBoardError: the bot serves no web board; NoGameError; NotSeatedError.
        """
        self.require_board()
        table = self._runner.table(channel_id, None)
        seat = table.seat_of(user_id)
        message = _ack("Your new link to play on the board (your older links no longer work):")
        return announcements.with_seat_link(message, self._runner.links, table.row.id, seat, renew=True)

    async def rack_letters(self, channel_id: int, user_id: int) -> str:
        """``user_id``'s rack letters for autocompletion; empty when they have no rack here."""
        table = self._runner.tables.get(channel_id)
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
        async with self._runner.lock(channel_id):
            table = self._runner.table(channel_id, game_id)
            game = table.started()
            seat = table.seat_of(user_id)
            table.check_turn(turn)
            allowed = table.row.options.hints
            used = table.row.seats[seat].hints_used
            if allowed == 0:
                raise HintError("Hints are disabled in this game")
            if used >= allowed:
                raise HintError(f"You have used all {allowed} of your hints in this game")
            if self._advisor is None:
                raise HintError("Hints are not available on this bot")
            suggestions = await self._advisor.top_moves(self._runner.copy(table), seat, HINT_MOVES)
            seats = list(table.row.seats)
            seats[seat] = replace(seats[seat], hints_used=used + 1)
            row = replace(table.row, seats=tuple(seats), updated_at=self._clock.now())
            await self._runner.save(Table(row, game), [LogEntry("hint", seat, {}, row.updated_at)])
            logger.info("game %d: hint %d of %d for seat %d", row.id, used + 1, allowed, seat)
        rack = game.players[seat].rack
        return Message(text.hint_text(rack, suggestions, used + 1, allowed), private=True)

    async def preview_play(self, channel_id: int, user_id: int, move: str) -> str:
        """What ``move`` would do for ``user_id``'s rack on the current board, for autocompletion: the
        play in notation and its score (``"8H QUIZ: 48 points"``), or the engine's reason it is not a
        legal play (``"you don't have Z on your rack"``). Empty when there is nothing to preview: no
        started game, not seated, the game is over, or nothing typed.

        Cheap, and changes nothing: no hint is used and nothing is written. The words are never looked
        up, so a preview cannot tell whether a word is in the dictionary (in games with challenges that
        is for a challenge, or ``/scrabble check``, to say). It does not check whose turn it is.
        """
        table = self._runner.tables.get(channel_id)
        if not move.strip() or table is None or table.game is None or table.game.is_over:
            return ""
        try:
            seat = table.seat_of(user_id)
        except NotSeatedError:
            return ""
        board = table.game.board
        rack = table.game.players[seat].rack
        try:
            play = parse_player_play(move, board, rack)
            score = check_play(board, play, rack=rack).total
        except ScrabbleError as error:
            return str(error)
        return f"{play.gcg()}: {score} {'point' if score == 1 else 'points'}"

    async def board(self, channel_id: int) -> Message:
        """The board with the last play highlighted, the scores and whose turn it is. It names the
        player to move but pings nobody (the turn message already did).

        Raises:
            NoGameError; GameNotStartedError.
        """
        table = self._runner.table(channel_id, None)
        table.started()
        message = await self._runner.turn_message(table, [], [], urgent=True)
        return replace(message, mentions=())

    async def score(self, channel_id: int) -> Message:
        """The scores and the bag's count.

        Raises:
            NoGameError; GameNotStartedError.
        """
        game = self._runner.table(channel_id, None).started()
        return Message(f"{text.scores_line(game)}\n{text.bag_line(game)}")

    async def bag(self, channel_id: int, user_id: int) -> Message:
        """The bag's count and the tiles ``user_id`` has not seen (private).

        Raises:
            NoGameError; GameNotStartedError; NotSeatedError.
        """
        table = self._runner.table(channel_id, None)
        game = table.started()
        return Message(text.bag_text(game, table.seat_of(user_id)), private=True)

    async def history(self, channel_id: int) -> Message:
        """Every move of the channel's game so far, without racks or exchanged tiles, with its GCG record
        attached, likewise without them (private). With no game going on, the same for the last game
        that ended in the channel, whose record shows the racks (and, once analysed, the analysis as
        ``#note`` lines).

        Raises:
            NoGameError: no game is going on and none ended here.
        """
        table = self._runner.tables.get(channel_id)
        if table is not None and table.game is not None:
            game = self._runner.copy(table)
            public = without_racks(record_of(game)).text().encode()
            lines = text.history_text(game, table.row.seats)
            return Message(lines, (Attachment(f"game-{table.row.id}.gcg", public),), private=True)
        row = await self._store.last_finished_game(channel_id)
        if row is None or row.state is None:
            raise NoGameError("No game has ended in this channel yet: start one with /scrabble new")
        game = Game.from_dict(row.state, lexicon=self._lexicon)
        stored = await self._store.analysis(row.id)
        notes = GameAnalysis.from_dict(stored).notes() if stored is not None else None
        record = Attachment(f"game-{row.id}.gcg", export_gcg(game, notes).encode())
        heading = f"The last game here, game {row.id}:\n"
        return Message(heading + text.history_text(game, row.seats), (record,), private=True)

    async def check(self, channel_id: int, word: str) -> Message:
        """Whether ``word`` is in the game's lexicon (private).

        Raises:
            NoGameError; WordError: not a word of the game's alphabet (2 to 15 letters).
        """
        table = self._runner.table(channel_id, None)
        variant = self.variants.get(table.row.options.variant)
        cleaned = word.strip().upper()
        longest = max(variant.rows, variant.cols)
        if not 2 <= len(cleaned) <= longest or not all(variant.is_letter(ch) for ch in cleaned):
            raise WordError(f"Give a word of 2 to {longest} letters to check")
        verdict = "is" if cleaned in self._lexicon else "is not"
        return Message(f"{cleaned} {verdict} in {self._lexicon.name}.", private=True)

    async def rules(self, channel_id: int | None, topic: str | None = None) -> Message:
        """The rules (private), or one ``topic`` of them, for the variant and players of the channel's
        game, or for the configured variant when there is none.

        Raises:
            RulesTopicError: no such topic.
        """
        table = None if channel_id is None else self._runner.tables.get(channel_id)
        if table is None:
            variant, players = self.variants.get(self._config.variant), None
        else:
            game = table.game
            variant = game.variant if game is not None else self.variants.get(table.row.options.variant)
            players = len(table.row.seats)
        return Message(rules_text(variant, players, topic), private=True)

    async def stats(self, guild_id: int, user_id: int) -> Message:
        """``user_id``'s stats in the guild (games, wins, average score, best move) and, unless the
        guild turned ratings off, their rating, rank, record and rating chart (see
        :func:`bot.service.ratings.stats_message`)."""
        shown = await self.feature_enabled(guild_id, Feature.RATINGS)
        renderer = self._runner.renderer
        return await ratings.stats_message(self._store, renderer, guild_id, user_id, show_ratings=shown)

    async def leaderboard(self, guild_id: int) -> Message:
        """The guild's best players: by conservative rating, or with ratings turned off (or before any
        rated game) most wins, then best average score."""
        shown = await self.feature_enabled(guild_id, Feature.RATINGS)
        return await ratings.leaderboard_message(self._store, guild_id, LEADERBOARD_SIZE, show_ratings=shown)

    # Server settings ----------------------------------------------------------------------------

    async def feature_enabled(self, guild_id: int, feature: Feature) -> bool:
        """Whether ``feature`` is on in the guild (every feature is, until turned off)."""
        return is_on(await self._store.features(guild_id), feature)

    async def features(self, guild_id: int) -> Message:
        """Which features are on in the guild (private)."""
        return Message(features_text(await self._store.features(guild_id)), private=True)

    async def set_feature(self, guild_id: int, feature: str, enabled: bool) -> Message:
        """Turn ``feature`` on or off in the guild (for those who may manage it: the front end checks).
        Ratings are computed either way: off, they are only not shown.

        Raises:
            SettingError: no feature has that name; StorageError: the write failed.
        """
        chosen = feature_named(feature)
        with typed_storage_errors():
            await self._store.set_feature(guild_id, chosen.value, enabled)
        logger.info("guild %d: %s turned %s", guild_id, chosen, "on" if enabled else "off")
        return _ack(f"The {chosen} feature is now {'on' if enabled else 'off'} in this server.")

    async def rebuild_ratings(self, guild_id: int) -> Message:
        """Recompute the guild's ratings from its finished rated games, in finish order (the same
        numbers, unless the stored ones were damaged).

        Raises:
            FeatureOffError: the guild turned ratings off; StorageError: the write failed.
        """
        if not await self.feature_enabled(guild_id, Feature.RATINGS):
            raise FeatureOffError(Feature.RATINGS)
        with typed_storage_errors():
            games = await self._store.rebuild_ratings(guild_id)
        logger.info("guild %d: ratings rebuilt from %d games", guild_id, games)
        return _ack(f"Ratings rebuilt from {games} rated game{'s' if games != 1 else ''}.")


def _program_seat(seats: Sequence[SeatRow]) -> SeatRow:
    """A new seat after ``seats`` for a program (a pseudo user: see :func:`bot.service.seats.is_program`)."""
    program = program_user_id([s.user_id for s in seats])
    return SeatRow(len(seats), program, seat_name("Bot", [s.name for s in seats]))


def _ack(content: str) -> Message:
    return Message(content, private=True)
