"""The Scrabble console's game loop: set up (or resume) a game on the host, then read and run commands.

Its games are kept as every console's are (:mod:`bot.console.saved`: ``--list``, ``--resume [ID]``).
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
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Final

from bot.console.saved import (
    EXIT_FAILED,
    EXIT_OK,
    FIRST_USER,
    GUILD,
    ConsoleGame,
    choose,
    free_channel,
    unfinished,
)
from bot.console.terminal import Terminal
from bot.console.terminal_board import legend
from bot.games.scrabble import codec
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

__all__ = ["CONSOLE", "GUILD", "LAST_FINISHED", "ConsoleApp", "Setup", "describe"]

LAST_FINISHED: Final = 0
"""``--analyze`` without an id: the game finished last."""
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
        """Play until the game ends or the player quits; returns the exit code. The game is chosen as
        every console chooses one (:func:`bot.console.saved.choose`): the saved game ``resume``, the
        last game played, or the new game of ``setup``."""
        saved = await self._saved()
        choice = choose(saved, CONSOLE, self._terminal, resume, new_options)
        if choice.exit is not None:
            return choice.exit
        row = choice.row or await self._create(setup)
        self._channel, self._game_id = row.channel_id, row.id
        _know_variant(_options(row).variant)
        self._seats = row.seats
        self._notifier.follow(self._channel)
        self._notifier.seat({seat.user_id: seat.name for seat in row.seats if seat.user_id is not None})
        self._terminal.say(self._banner(row))
        if choice.row is not None:
            self._notifier.show(await self._service.board(self._channel), board_now=False)
        return await self._play()

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
        rows = await self._store.open_games()
        for row in rows:
            if row.guild_id == GUILD and row.kind == KIND and row.status is GameStatus.LOBBY:
                await self._service.cancel(row.channel_id, row.creator_id, can_manage=True)
        self._notifier.discard()
        return unfinished(rows, KIND)

    async def _create(self, setup: Setup) -> GameRow:
        """Open the lobby in a free channel, seat everyone and start the game; the lobby's messages are
        not shown."""
        channel = free_channel(await self._store.open_games())
        users = [User(FIRST_USER + index, name) for index, name in enumerate(setup.players)]
        self._notifier.follow(channel)
        await self._service.new_game(GUILD, channel, users[0], setup.options)
        for user in users[1:]:
            await self._service.join(channel, user)
        await self._service.delivered()  # the lobby's posts reach the notifier, which forgets them
        self._notifier.discard()
        await self._service.start_game(channel, users[0].id)
        (row,) = [row for row in await self._store.open_games() if row.channel_id == channel]
        return row

    def _banner(self, row: GameRow) -> str:
        options = _options(row)
        game = self._service.game(row.channel_id)
        hints = f"{options.hints} hints each" if options.hints else "no hints"
        return (
            f"Game {row.id}: {_players(row)}. {game.variant.name.capitalize()} board, "
            f"{options.challenge_mode} challenges, {hints}.\n{legend(game.variant, self._terminal.style)}\nType help for the commands."
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
                self._terminal.say(
                    f"The AI could not play its turn (see the log above); {CONSOLE.resume_hint}"
                )
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

    async def _run(self, command: Command[Verb], user_id: int) -> bool:
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

    async def _act(self, command: Command[Verb], user_id: int) -> bool:
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

    async def _ask(self, command: Command[Verb], user_id: int) -> Message:
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
        self._terminal.say(f"The game is saved: {CONSOLE.resume_hint} {self._game_id}")
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


def _players(row: GameRow) -> str:
    return " vs ".join(
        seat.name if seat.ai_level is None else f"{seat.name} ({seat.ai_level})" for seat in row.seats
    )


def describe(row: GameRow) -> str:
    """A saved game in one line, read from its row alone (no dictionary): ``Ann vs AI (greedy),
    standard board, move 5: Ann 34, AI 20``."""
    _know_variant(_options(row).variant)
    assert row.state is not None, "a started game has its state"
    game = codec.read_state(row.state)
    scores = ", ".join(f"{player.name} {player.score}" for player in game.players)
    return f"{_players(row)}, {game.variant.name} board, move {len(game.history) + 1}: {scores}"


CONSOLE: Final = ConsoleGame(KIND, "scrabble-bot play", describe)
"""The Scrabble console, as the consoles' shared parts see it."""
