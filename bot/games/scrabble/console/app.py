"""The console game loop: set up (or resume) a game on the host, then read and run commands.

Console games live in guild 0, which no Discord server has, each in a channel of its own (0, 1, ...),
so several can be saved: ``--list`` lists them and ``--resume [ID]`` continues one (the last played by
default). Started without game options, the console offers to continue the last game played; with them
(``--players``, ``--variant``...) it starts the new game they describe and says which games stay saved.
The people at the keyboard are users 1 to 4. Against the AI, the one human sees every message as it
comes. In a hot-seat game (several humans), the screen is cleared when a turn ends and the next player
is asked to take the keyboard before their rack is shown; a rack is never shown on another player's
turn.

The record (GCG) shows every rack, so a hot-seat game writes it only at the end (the bot's rule);
against the AI the one human may export it at any time (it shows the AI's earlier racks, a harmless
peek at a program).
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Final

from bot.console.terminal import Terminal
from bot.console.terminal_board import legend
from bot.games.scrabble.commands import NewGame, ScrabbleCommands, User
from bot.games.scrabble.console.commands import HELP, Command, CommandError, Verb, parse_command
from bot.games.scrabble.console.screen import ConsoleNotifier, TextRenderer
from bot.games.scrabble.kind import KIND
from bot.games.scrabble.options import ScrabbleOptions
from bot.host.errors import GameNotStartedError, NoGameError, ServiceError
from bot.host.messages import Message
from bot.host.store import GameRow, GameStatus, SeatRow, Store
from scrabble_core.errors import ScrabbleError, VariantError
from scrabble_core.game import Game
from scrabble_core.gcg import export_gcg
from scrabble_core.variant import add_variant_file, variant_names

GUILD: Final = 0
FIRST_USER: Final = 1
LAST_PLAYED: Final = 0
"""``--resume`` without an id: the game played last."""
LAST_FINISHED: Final = 0
"""``--analyze`` without an id: the game finished last."""

EXIT_OK: Final = 0
EXIT_FAILED: Final = 1
EXIT_USAGE: Final = 2

RESUME_HINT: Final = "continue it with scrabble-bot play --resume"
REPORT_SUFFIX: Final = ".txt"
"""The attachment of an analysis that holds its whole report."""
_ACTIONS: Final = frozenset({Verb.PLAY, Verb.EXCHANGE, Verb.PASS, Verb.CHALLENGE, Verb.ACCEPT, Verb.RESIGN})


@dataclass(frozen=True, slots=True)
class Setup:
    """A new console game: the humans' names in turn order and the game's options (the AI opponents
    sit after the first human)."""

    players: tuple[str, ...]
    options: NewGame


class ConsoleApp:
    """One console session over a started :class:`ScrabbleCommands`."""

    def __init__(
        self,
        service: ScrabbleCommands,
        store: Store,
        notifier: ConsoleNotifier,
        renderer: TextRenderer,
        terminal: Terminal,
    ) -> None:
        """Play through ``service`` (whose notifier and renderer are ``notifier`` and ``renderer``),
        reading its seats from ``store``, on ``terminal``."""
        self._service = service
        self._store = store
        self._notifier = notifier
        self._renderer = renderer
        self._terminal = terminal
        self._seats: tuple[SeatRow, ...] = ()
        self._channel = 0
        self._game_id = 0

    async def run(self, setup: Setup, *, resume: int | None = None, new_options: bool = False) -> int:
        """Play until the game ends or the player quits; returns the exit code. The game is the saved
        game ``resume`` (:data:`LAST_PLAYED`: the one played last) if given; else, with
        ``new_options`` (the player gave game options), the new game of ``setup``; else the game
        played last if the player wants to continue it, or the new game of ``setup``."""
        saved = await self._saved()
        row: GameRow | None = None
        if resume is not None:
            row = self._find(saved, resume)
            if row is None:
                return EXIT_USAGE
        elif saved and not new_options:
            last = saved[-1]
            question = f"An unfinished game is saved: game {last.id} ({self._describe(last)}). Continue it?"
            answer = self._terminal.confirm(question, default=True)
            if answer is None:
                return EXIT_OK
            if answer:
                row = last
        if row is None:
            if saved:
                kept = "".join(f"\n  Game {game.id}: {self._describe(game)}" for game in saved)
                self._terminal.say(f"Starting a new game. Still saved (scrabble-bot play --resume ID):{kept}")
            row = await self._create(setup, saved)
        self._channel, self._game_id = row.channel_id, row.id
        _know_variant(_options(row).variant)
        self._seats = row.seats
        self._notifier.follow(self._channel)
        self._notifier.seat({seat.user_id: seat.name for seat in row.seats if seat.user_id is not None})
        self._terminal.say(self._banner(row))
        if row.id in {game.id for game in saved}:
            self._notifier.show(await self._service.board(self._channel), board_now=False)
        return await self._play()

    async def list_games(self) -> int:
        """Show the saved games, the one played last at the end; returns the exit code."""
        saved = await self._saved()
        if not saved:
            self._terminal.say("No game is saved: start one with scrabble-bot play")
        for row in saved:
            self._terminal.say(f"Game {row.id}: {self._describe(row)}")
        return EXIT_OK

    async def analyze(self, game_id: int | None = None) -> int:
        """Show the analysis of the finished console game ``game_id`` (default: the one finished last),
        the same report as ``/scrabble analyze`` (every turn, then each player's summary), with its
        progress on one line; returns the exit code.

        Raises:
            ServiceError: no such finished game, or the analysis cannot be made.
        """
        if game_id is None:
            finished = await self._store.finished_games(GUILD, KIND, 1)
            if not finished:
                raise NoGameError("No console game has finished yet: play one to the end first")
            game_id = finished[0].id

        async def progress(text: str) -> None:
            self._terminal.write(f"\r{text}")

        message = await self._service.analysis.analyze(GUILD, GUILD, game_id, progress=progress)
        heading = message.text.split("\n", 1)[0]
        reports = [a.data.decode() for a in message.attachments if a.filename.endswith(REPORT_SUFFIX)]
        self._terminal.say()
        self._terminal.say("\n".join([heading, *reports]))
        return EXIT_OK

    # Setting up ---------------------------------------------------------------------------------

    async def _saved(self) -> list[GameRow]:
        """The unfinished console games, the one played last at the end; lobbies left by an
        interrupted set-up are cancelled."""
        rows = [row for row in await self._store.open_games() if row.guild_id == GUILD and row.kind == KIND]
        for row in rows:
            if row.status is GameStatus.LOBBY:
                await self._service.cancel(row.channel_id, row.creator_id, can_manage=True)
        self._notifier.discard()
        started = [row for row in rows if row.status is not GameStatus.LOBBY]
        return sorted(started, key=lambda row: (row.updated_at, row.id))

    def _find(self, saved: list[GameRow], game_id: int) -> GameRow | None:
        """The saved game ``game_id`` (the last played for :data:`LAST_PLAYED`); says why if none."""
        if not saved:
            self._terminal.say("There is no unfinished game to resume: start one with scrabble-bot play")
            return None
        if game_id == LAST_PLAYED:
            return saved[-1]
        for row in saved:
            if row.id == game_id:
                return row
        known = ", ".join(str(row.id) for row in saved)
        self._terminal.say(
            f"No unfinished game has the id {game_id} (saved: {known}); scrabble-bot play --list"
        )
        return None

    async def _create(self, setup: Setup, saved: list[GameRow]) -> GameRow:
        """Open the lobby in a free channel, seat everyone and start the game; the lobby's messages are
        not shown."""
        used = {row.channel_id for row in saved}
        channel = next(number for number in itertools.count() if number not in used)
        users = [User(FIRST_USER + index, name) for index, name in enumerate(setup.players)]
        self._notifier.follow(channel)
        await self._service.new_game(GUILD, channel, users[0], setup.options)
        for user in users[1:]:
            await self._service.join(channel, user)
        self._notifier.discard()
        await self._service.start_game(channel, users[0].id)
        (row,) = [row for row in await self._store.open_games() if row.channel_id == channel]
        return row

    def _banner(self, row: GameRow) -> str:
        options = _options(row)
        game = self._service.game(row.channel_id)
        hints = f"{options.hints} hints each" if options.hints else "no hints"
        return (
            f"Game {row.id}: {self._players(row)}. {game.variant.name.capitalize()} board, "
            f"{options.challenge_mode} challenges, {hints}.\n{legend(game.variant, self._terminal.style)}\nType help for the commands."
        )

    def _describe(self, row: GameRow) -> str:
        """``Ann vs AI (greedy), standard board, move 5: Ann 34, AI 20``."""
        game = self._service.game(row.channel_id)
        scores = ", ".join(f"{player.name} {player.score}" for player in game.players)
        return f"{self._players(row)}, {game.variant.name} board, move {len(game.history) + 1}: {scores}"

    @staticmethod
    def _players(row: GameRow) -> str:
        return " vs ".join(
            seat.name if seat.ai_level is None else f"{seat.name} ({seat.ai_level})" for seat in row.seats
        )

    # Playing ------------------------------------------------------------------------------------

    @property
    def _hot_seat(self) -> bool:
        return sum(not seat.is_ai for seat in self._seats) > 1

    async def _play(self) -> int:
        """Turn after turn until the game ends or the player quits."""
        holder: int | None = None
        while True:
            await self._service.idle()
            game = self._game()
            if game is None:
                self._notifier.flush()
                self._terminal.say("The final board:")
                self._notifier.show_board()
                return EXIT_OK
            user_id = self._seats[game.current].user_id
            if user_id is None:
                self._notifier.flush()
                self._terminal.say(f"The AI could not play its turn (see the log above); {RESUME_HINT}")
                return EXIT_FAILED
            if self._hot_seat and user_id != holder:
                if holder is not None:
                    self._terminal.clear()
                self._notifier.flush()
                name = self._seats[game.current].name
                if self._terminal.ask(f"Pass the keyboard to {name} and press Enter... ") is None:
                    return self._quit()
                holder = user_id
            else:
                self._notifier.flush()
            self._notifier.show_board()
            if not self._notifier.open_inbox(user_id):
                self._notifier.show(await self._service.rack(self._channel, user_id))
            if not await self._turn(user_id, game.players[game.current].name):
                return self._quit()
            if not self._hot_seat:
                self._notifier.flush()

    async def _turn(self, user_id: int, name: str) -> bool:
        """Read commands until one ends the turn (True) or the player quits (False)."""
        while True:
            rack = await self._service.rack_letters(self._channel, user_id)
            line = self._terminal.ask(f"{name} [{rack}]> ")
            if line is None:
                return False
            try:
                command = parse_command(line)
                if command is None:
                    continue
                if command.verb is Verb.QUIT:
                    return False
                if await self._run(command, user_id):
                    return True
            except (ScrabbleError, ServiceError) as error:
                self._terminal.say(str(error))

    async def _run(self, command: Command, user_id: int) -> bool:
        """Run one command for ``user_id``; whether it ended the turn.

        Raises:
            ServiceError, ScrabbleError: the commands or the engine refused it (nothing changed), or a
                file could not be written.
        """
        if command.verb in _ACTIONS:
            return await self._act(command, user_id)
        if command.verb is Verb.EXPORT:
            self._export(Path(command.argument).expanduser())
        elif command.verb is Verb.ANALYZE:
            await self.analyze()
        elif command.verb is Verb.IMAGE:
            self._image(Path(command.argument).expanduser())
        elif command.verb is Verb.HELP:
            variant = self._service.game(self._channel).variant
            self._terminal.say(f"{HELP}\n{legend(variant, self._terminal.style)}")
        else:
            self._notifier.show(await self._ask(command, user_id))
        return False

    async def _act(self, command: Command, user_id: int) -> bool:
        """Make the move ``command`` says; whether it was made (a resignation asks first)."""
        service, channel, verb = self._service, self._channel, command.verb
        if verb is Verb.PLAY:
            await service.play(channel, user_id, command.argument)
        elif verb is Verb.EXCHANGE:
            await service.exchange(channel, user_id, command.argument)
        elif verb is Verb.PASS:
            await service.pass_turn(channel, user_id)
        elif verb is Verb.CHALLENGE:
            await service.challenge(channel, user_id)
        elif verb is Verb.ACCEPT:
            await service.accept(channel, user_id)
        else:
            if not self._terminal.confirm("Resign this game?", default=False):
                return False
            await service.resign(channel, user_id)
        return True

    async def _ask(self, command: Command, user_id: int) -> Message:
        """The service's answer to a question: a hint, the rack, board, scores, bag, history or a word."""
        service, channel, argument = self._service, self._channel, command.argument
        questions: dict[Verb, Callable[[], Awaitable[Message]]] = {
            Verb.HINT: lambda: service.hint(channel, user_id),
            Verb.RACK: lambda: service.rack(channel, user_id),
            Verb.BAG: lambda: service.bag(channel, user_id),
            Verb.CHECK: lambda: service.check(channel, argument),
            Verb.SCORE: lambda: service.score(channel),
            Verb.HISTORY: lambda: _text_only(service.history(channel)),
            Verb.BOARD: lambda: service.board(channel),
        }
        return await questions[command.verb]()

    def _export(self, path: Path) -> None:
        if self._hot_seat:
            raise CommandError(
                "The record shows every player's rack, so a hot-seat game writes it when it ends"
            )
        try:
            path.write_text(export_gcg(self._service.game(self._channel)))
        except OSError as error:
            raise CommandError(f"Cannot write {path}: {error.strerror}") from None
        self._terminal.say(f"The record so far is written to {path}")

    def _image(self, path: Path) -> None:
        try:
            self._renderer.write_png(path)
        except OSError as error:
            raise CommandError(f"Cannot write {path}: {error.strerror}") from None
        self._terminal.say(f"The board is written to {path}")

    def _game(self) -> Game | None:
        """A copy of the game, or ``None`` once it is over."""
        try:
            return self._service.game(self._channel)
        except (NoGameError, GameNotStartedError):
            return None

    def _quit(self) -> int:
        self._terminal.say(f"The game is saved: {RESUME_HINT} {self._game_id}")
        return EXIT_OK


async def _text_only(answer: Awaitable[Message]) -> Message:
    """The text of ``answer`` without its files (the console's history writes no record: ``export``
    does)."""
    return replace(await answer, attachments=())


def _know_variant(name: str) -> None:
    """Make a saved game's variant file known again (the service looks its variant up by name); a file
    gone or changed is left unknown (the game itself keeps its variant)."""
    if name not in variant_names():
        with contextlib.suppress(VariantError):
            add_variant_file(Path(name))


def _options(row: GameRow) -> ScrabbleOptions:
    """The options of the stored Scrabble game ``row``."""
    return ScrabbleOptions.from_dict(row.options)
