"""Go's commands: one method per ``/go`` command (and each button of its messages), over the host
(:class:`~bot.host.runner.Host`) and Go's plugin (:mod:`bot.games.go.plugin`).

Like Scrabble's, it knows nothing of Discord: a command returns a :class:`~bot.host.messages.Message` for
the asker (``private``: show it to them alone) or raises a :class:`~bot.host.errors.ServiceError` whose
text is for the asker; the engine's refusals come as :class:`~bot.games.go.errors.GoMoveError` with the
engine's message. What is public goes out through the host, after the change is committed.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Final

from bot.games.go import text
from bot.games.go.buttons import GoButton
from bot.games.go.errors import UndoError, engine_refusals
from bot.games.go.options import GoNewGame, go_options
from bot.games.go.plugin import GoAction, GoPlugin, ai_accepts, announcement, moved, undo_moves
from bot.games.go.sgf import export_sgf
from bot.games.go.table import BLACK_SEAT, WHITE_SEAT, Extra, GoState, GoTable, colour_of, seat_of_colour
from bot.host.commands import GameCommands
from bot.host.errors import AlreadySeatedError, GameStartedError, NoGameError, NotAllowedError
from bot.host.features import Feature
from bot.host.messages import Attachment, Message, mention
from bot.host.options import name_option
from bot.host.rating_model import human_key
from bot.host.ratings import ranked, rating_line
from bot.host.runner import Host
from bot.host.seats import User, seat_name
from bot.host.seeds import new_seed
from bot.host.store import GameRow, GameStatus, LogEntry, SeatRow
from go_core import Game, Phase
from go_core.game import Move

__all__ = ["GoCommands"]

logger = logging.getLogger("bot.games.go")

AI_NAME: Final = "AI"


class GoCommands(GameCommands):
    """Go's commands over ``host`` (which plays ``plugin``'s games). ``new_seed`` gives a new game's
    seed (its colour draw and AI)."""

    def __init__(self, host: Host, plugin: GoPlugin, *, new_seed: Callable[[], int] = new_seed) -> None:
        super().__init__(host)
        self.plugin = plugin
        self._new_seed = new_seed

    def has_game(self, channel_id: int) -> bool:
        """Whether the channel has an open Go game (lobby or being played)."""
        return isinstance(self.host.tables.get(channel_id), GoTable)

    def game(self, channel_id: int) -> Game:
        """A copy of the channel's Go game (for reading: changing it changes nothing).

        Raises:
            NoGameError; GameNotStartedError.
        """
        return self._table(channel_id, None).board()

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
        table = await self._open(guild_id, channel_id, user, options)
        settings = table.options
        if settings.ai_level is not None:
            return _ack(f"Your game against the AI ({settings.ai_level}) has started.")
        who = "the member you invited" if settings.opponent is not None else "someone"
        return _ack(f"Your Go game is open: it starts when {who} presses Join.")

    async def adopt(
        self,
        guild_id: int,
        channel_id: int,
        user: User,
        options: GoNewGame,
        game: Game,
        opponent: User | None = None,
    ) -> int:
        """Open ``game``, a game under way (one saved outside the host), in ``channel_id`` and go on
        with it: ``user`` plays ``options.colour`` against ``opponent``, or against the AI when
        ``opponent`` is ``None`` (``options.ai_level``, which then plays at once if it is to move).
        The size, komi, handicap and scoring are ``game``'s. Returns the game's id; announces nothing
        but the AI's moves.

        Raises:
            OptionError: ``game``'s settings or ``options`` are not a game of this host's.
            ChannelBusyError; StorageError.
        """
        settings = replace(
            options, size=game.size, komi=game.komi, handicap=game.handicap, scoring=game.method.value
        )
        table = await self._open(guild_id, channel_id, user, settings, game, opponent)
        return table.row.id

    async def _open(
        self,
        guild_id: int,
        channel_id: int,
        user: User,
        options: GoNewGame,
        position: Game | None = None,
        opponent: User | None = None,
    ) -> GoTable:
        """Create the game of ``options`` for ``user`` (from ``position`` if given); start it against
        the AI, or against ``opponent``, or open its lobby. The lobby's table."""
        seed = self._new_seed() if options.seed is None else options.seed
        settings = go_options(options, user.id, random.Random(seed).random())
        ai_name = name_option(options.ai_name, "AI's name") or AI_NAME
        async with self.host.lock(channel_id):
            now = self.host.clock.now()
            creator = SeatRow(0, user.id, seat_name(user.name, []))
            draft = GameRow(
                0, self.plugin.kind, guild_id, channel_id, user.id, GameStatus.LOBBY, {}, seed, None,
                (creator,), None, False, now, now,
            )  # fmt: skip
            log = [LogEntry("created", 0, {"user_id": user.id, "options": settings.to_dict()}, now)]
            table = await self.host.create(self.plugin, GoTable(draft, settings, None), log)
            assert isinstance(table, GoTable)
            logger.info("go game %d: created in channel %d by user %d", table.row.id, channel_id, user.id)
            if settings.ai_level is not None:
                ai = SeatRow(1, None, seat_name(ai_name, [creator.name]), None)
                lines = [f"{mention(user.id)} plays the AI ({settings.ai_level})."]
                await self._start(table, ai, lines, position)
            elif opponent is not None:
                seat = SeatRow(1, opponent.id, seat_name(opponent.name, [creator.name]))
                await self._start(table, seat, [f"{mention(opponent.id)} joined."], position)
            else:
                self.host.post(channel_id, self._lobby_message(table))
        return table

    async def join(self, channel_id: int, user: User) -> Message:
        """Take the free seat of the channel's Go lobby, which starts the game (announced).

        Raises:
            NoGameError; GameStartedError; AlreadySeatedError (the creator); NotAllowedError (the game
            waits for another member); StorageError.
        """
        async with self.host.lock(channel_id):
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
        async with self.host.lock(channel_id):
            table = self._table(channel_id, None)
            if not moderator:
                if table.row.creator_id != user_id:
                    raise NotAllowedError("Only the game's creator (or a moderator) can cancel it")
                if table.game is not None:
                    raise GameStartedError("This game has already started: use /go resign to end it")
            now = self.host.clock.now()
            row = replace(table.row, status=GameStatus.CANCELLED, deadline=None, updated_at=now)
            await self.host.save(
                replace(table, row=row), [LogEntry("cancelled", None, {"user_id": user_id}, now)]
            )
            logger.info("go game %d: cancelled by user %d", row.id, user_id)
            notice = f"{mention(user_id)} cancelled the Go game."
            self.host.post(channel_id, Message(notice, mentions=(user_id,), game=row.id))
        return _ack("You cancelled the game.")

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

        def change(table: GoTable, game: Game, extra: Extra, seat: int) -> tuple[Extra, list[str]]:
            move = game.play(game.parse_point(point.strip()), colour_of(seat))
            return moved(extra), [text.move_line(table.row.seats[seat], move)]

        await self._act(channel_id, user_id, game_id, turn, GoAction("play", change))
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

        def change(table: GoTable, game: Game, extra: Extra, seat: int) -> tuple[Extra, list[str]]:
            move = game.pass_turn(colour_of(seat))
            return moved(extra), [text.move_line(table.row.seats[seat], move)]

        await self._act(channel_id, user_id, game_id, turn, GoAction("pass", change))
        return _ack("You passed.")

    async def resign(self, channel_id: int, user_id: int, *, game_id: int | None = None) -> Message:
        """``user_id`` resigns (in any phase, on any turn): the opponent wins.

        Raises:
            NoGameError; GameNotStartedError; NotSeatedError; StorageError.
        """

        def change(table: GoTable, game: Game, extra: Extra, seat: int) -> tuple[Extra, list[str]]:
            game.resign(colour_of(seat))
            return moved(extra), [f"{text.seat_label(table.row.seats[seat])} resigned."]

        await self._act(channel_id, user_id, game_id, None, GoAction("resign", change))
        return _ack("You resigned.")

    async def request_undo(self, channel_id: int, user_id: int, *, game_id: int | None = None) -> Message:
        """``user_id`` asks to take back their last move (and the opponent's reply after it, if any).
        Against the AI it is taken back at once; otherwise the opponent is asked (pinged, with Accept
        and Refuse buttons: :meth:`answer_undo`). Any other change drops the question.

        Raises:
            NoGameError; GameNotStartedError; NotSeatedError; UndoError (no move of theirs to take
            back, or a question already waiting); GoMoveError (the game is over); StorageError.
        """
        against_ai = False

        def change(table: GoTable, game: Game, extra: Extra, seat: int) -> tuple[Extra, list[str]]:
            nonlocal against_ai
            moves = undo_moves(game, colour_of(seat))
            if extra.undo is not None:
                raise UndoError("A request to take back a move is already waiting for an answer")
            if table.row.seats[1 - seat].is_ai:
                against_ai = True
                taken = _take_back(game, len(moves))
                return moved(extra), [
                    f"{text.seat_label(table.row.seats[seat])} took back {text.moves_text(taken)}."
                ]
            return replace(extra, version=extra.version + 1, undo=seat), []

        await self._act(channel_id, user_id, game_id, None, GoAction("undo", change))
        if against_ai:
            return _ack("Your move was taken back.")
        return _ack("You asked to take back your move: your opponent answers.")

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

        def change(table: GoTable, game: Game, extra: Extra, seat: int) -> tuple[Extra, list[str]]:
            asker = extra.undo
            if asker is None:
                raise UndoError("Nobody asked to take back a move")
            if asker == seat:
                raise UndoError("Your opponent answers your request, not you")
            name = text.seat_label(table.row.seats[seat])
            if not accept:
                return moved(extra), [f"{name} refused to take back the move."]
            taken = _take_back(game, len(undo_moves(game, colour_of(asker))))
            return moved(extra), [f"{name} accepted: {text.moves_text(taken)} taken back."]

        await self._act(channel_id, user_id, game_id, turn, GoAction("undo_answer", change))
        return _ack("You accepted: the moves were taken back." if accept else "You refused.")

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

        def change(table: GoTable, game: Game, extra: Extra, seat: int) -> tuple[Extra, list[str]]:
            group = game.toggle_dead(game.parse_point(point.strip()))
            state = "dead" if group <= game.dead else "alive"
            stones = f"{len(group)} stone{'s' if len(group) != 1 else ''}"
            ai_accepts(game, extra, table.row.seats)
            name = text.seat_label(table.row.seats[seat])
            marked.append(f"the group at {point.strip().upper()} ({stones}) {state}")
            return moved(extra), [f"{name} marked {marked[-1]}."]

        marked: list[str] = []
        await self._act(channel_id, user_id, game_id, None, GoAction("dead", change))
        return _ack(f"You marked {marked[-1]}.")

    async def accept_score(
        self, channel_id: int, user_id: int, *, game_id: int | None = None, turn: int | None = None
    ) -> Message:
        """``user_id`` accepts the dead stones as marked; once both have, the game is counted and the
        result posted with the score breakdown.

        Raises:
            NoGameError; GameNotStartedError; NotSeatedError; StaleTurnError (the marks changed since
            the button was shown); GoMoveError (not the dead-stone phase); StorageError.
        """

        def change(table: GoTable, game: Game, extra: Extra, seat: int) -> tuple[Extra, list[str]]:
            game.accept(colour_of(seat))
            return moved(extra), [f"{text.seat_label(table.row.seats[seat])} accepted the count."]

        await self._act(channel_id, user_id, game_id, turn, GoAction("accept", change))
        return _ack("You accepted the count.")

    async def resume(
        self, channel_id: int, user_id: int, *, game_id: int | None = None, turn: int | None = None
    ) -> Message:
        """Leave the dead-stone phase and play on (the marks are dropped).

        Raises:
            As :meth:`accept_score`.
        """

        def change(table: GoTable, game: Game, extra: Extra, seat: int) -> tuple[Extra, list[str]]:
            game.resume()
            return moved(extra), [f"{text.seat_label(table.row.seats[seat])} resumed play."]

        await self._act(channel_id, user_id, game_id, turn, GoAction("resume", change))
        return _ack("You resumed play.")

    # Questions ----------------------------------------------------------------------------------

    async def board(self, channel_id: int, *, public: bool = False) -> Message:
        """The channel's game as it stands (board image, players, whose turn or the dead-stone phase),
        pinging nobody, for the asker alone unless ``public`` (then with the buttons of the moment,
        which the game's older messages lose).

        Raises:
            NoGameError; GameNotStartedError.
        """
        table = self._table(channel_id, None)
        version = self.plugin.version(table)
        message = await self.host.message_of(table, announcement(version, []), urgent=True)
        if not public:
            message = replace(message, buttons=(), game=None, turn=None)
        return replace(message, mentions=(), private=not public)

    async def score(self, channel_id: int, *, public: bool = False) -> Message:
        """The count of the board as it stands (with the dead stones marked, in the dead-stone phase),
        and the captures, for the asker alone unless ``public``.

        Raises:
            NoGameError; GameNotStartedError.
        """
        table = self._table(channel_id, None)
        game = table.board()
        marked = "as marked" if game.phase is Phase.SCORING else "if the game ended now, no stone dead"
        return Message(
            f"{text.players_line(game, table.row.seats)}\nCount {marked}: {game.score().breakdown()}",
            private=not public,
        )

    async def export_sgf(self, channel_id: int, *, public: bool = False) -> Message:
        """The SGF record of the channel's Go game, or of the last one that ended here, for the asker
        alone unless ``public``.

        Raises:
            NoGameError: no Go game is going on and none ended here; GameNotStartedError.
        """
        open_table = self.host.tables.get(channel_id)
        if isinstance(open_table, GoTable):
            table = open_table
        else:
            row = await self.host.store.last_finished_game(channel_id, self.plugin.kind)
            if row is None:
                raise NoGameError("No Go game has ended in this channel yet: start one with /go new")
            table = self.plugin.restore(row)
        game = table.board()
        black, white = (seat.name for seat in table.row.seats)
        record = export_sgf(game, black=black, white=white).encode()
        players = " vs ".join(text.seat_label(seat) for seat in table.row.seats)
        heading = f"The record of the Go game {players} ({text.settings_text(table.options)})."
        return Message(heading, (Attachment(f"go-{table.row.id}.sgf", record),), private=not public)

    async def stats(self, guild_id: int, user: User, *, public: bool = False) -> Message:
        """``user``'s Go record in the guild (games, wins, losses, draws) and, unless the guild turned
        ratings off, their Go rating and rank (Go has its own ratings, apart from Scrabble's), for the
        asker alone unless ``public``."""
        store = self.host.store
        row = await store.stats(guild_id, self.plugin.kind, user.id)
        lines = [
            text.stats_text(user.name, 0, 0, 0)
            if row is None
            else text.stats_text(row.name, row.games, row.wins, row.draws)
        ]
        if await self.host.feature_enabled(guild_id, Feature.RATINGS):
            players = ranked(await store.ratings(guild_id, self.plugin.kind))
            key = human_key(user.id)
            lines += [
                f"Go: {rating_line(player, rank, len(players))}"
                for rank, player in enumerate(players, start=1)
                if player.player == key
            ]
        return Message("\n".join(lines), private=not public)

    # Inside ------------------------------------------------------------------------------------

    def _table(self, channel_id: int, game_id: int | None) -> GoTable:
        table = self.host.table(self.plugin, channel_id, game_id)
        assert isinstance(table, GoTable)
        return table

    def _lobby(self, channel_id: int) -> GoTable:
        table = self._table(channel_id, None)
        if table.game is not None:
            raise GameStartedError
        return table

    async def _act(
        self, channel_id: int, user_id: int, game_id: int | None, turn: int | None, action: GoAction
    ) -> None:
        """``action`` for ``user_id`` under the channel's lock: committed, announced, scheduled (see
        :meth:`bot.host.runner.Host.act`)."""
        await self.host.act(self.plugin, channel_id, user_id, game_id, turn, action)

    async def _start(
        self, table: GoTable, second: SeatRow, lines: Sequence[str], position: Game | None = None
    ) -> None:
        """Seat ``second`` beside the creator, Black and White by the options, and start the game (from
        ``position``, a game under way, if given)."""
        options = table.options
        creator = replace(table.row.seats[0], seat=BLACK_SEAT if options.creator_black else WHITE_SEAT)
        other = replace(second, seat=1 - creator.seat)
        seats = (creator, other) if creator.seat == BLACK_SEAT else (other, creator)
        if position is not None:
            game = position.copy()
        else:
            with engine_refusals():
                game = Game(options.size, komi=options.komi, handicap=options.handicap, method=options.method)
        extra = Extra(version=1)
        now = self.host.clock.now()
        timed = options.turn_seconds and not seats[seat_of_colour(game.to_move)].is_ai
        row = replace(
            table.row,
            status=GameStatus.ACTIVE,
            seats=seats,
            deadline=now + options.turn_seconds if timed else None,
            updated_at=now,
        )
        new = GoTable(row, options, GoState(game, extra))
        log = [LogEntry("started", other.seat, {"user_id": other.user_id}, now)]
        people = [seat.seat for seat in seats if not seat.is_ai] if self.host.links is not None else []
        news = announcement(1, lines, people)
        pending = await self.host.save(new, log, announcement=news.data)
        logger.info("go game %d: started", row.id)
        self.host.announce(new, news, pending)
        await self.host.schedule(new)

    def _lobby_message(self, table: GoTable) -> Message:
        row = table.row
        mentions = (row.creator_id,) + (() if table.options.opponent is None else (table.options.opponent,))
        message = Message(
            text.lobby_text(table.options, row.seats[0], row.creator_id),
            mentions=mentions,
            buttons=(GoButton.JOIN, GoButton.CANCEL),
            game=row.id,
        )
        return self.host.lobby_message(table, message)


def _take_back(game: Game, count: int) -> list[Move]:
    """Undo ``count`` moves (a pass taken back leaves the dead-stone phase it started); the moves taken
    back, last first."""
    taken = []
    for _ in range(count):
        move = game.undo()
        if move is not None:
            taken.append(move)
    return taken


def _ack(content: str) -> Message:
    return Message(content, private=True)
