"""The console game loop: set up (or resume) a game on the game service, then read and run commands.

Console games live in channel 0 of guild 0, a channel no Discord server has, so ``--resume`` finds the
last unfinished one; the people at the keyboard are users 1 to 4. Against the AI, the one human sees
every message as it comes. In a hot-seat game (several humans), the screen is cleared when a turn ends
and the next player is asked to take the keyboard before their rack is shown; a rack is never shown
on another player's turn.

The record (GCG) shows every rack, so a hot-seat game writes it only at the end (the bot's rule);
against the AI the one human may export it at any time (it shows the AI's earlier racks, a harmless
peek at a program).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Final

from bot.console.commands import HELP, Command, CommandError, Verb, parse_command
from bot.console.screen import ConsoleNotifier, TextRenderer
from bot.console.terminal import Terminal
from bot.console.terminal_board import LEGEND
from bot.service.errors import GameNotStartedError, NoGameError
from bot.service.game_service import GameService, NewGame, User
from bot.store import GameRow, GameStatus, SeatRow, Store
from scrabble_core.errors import ScrabbleError
from scrabble_core.game import Game
from scrabble_core.gcg import export_gcg

CHANNEL: Final = 0
GUILD: Final = 0
FIRST_USER: Final = 1

EXIT_OK: Final = 0
EXIT_FAILED: Final = 1
EXIT_USAGE: Final = 2

RESUME_HINT: Final = "continue it with scrabble-bot play --resume"
_ACTIONS: Final = frozenset({Verb.PLAY, Verb.EXCHANGE, Verb.PASS, Verb.CHALLENGE, Verb.ACCEPT, Verb.RESIGN})


@dataclass(frozen=True, slots=True)
class Setup:
    """A new console game: the humans' names in turn order and the game's options (the AI opponents
    sit after the first human)."""

    players: tuple[str, ...]
    options: NewGame


class ConsoleApp:
    """One console session over a started :class:`GameService`."""

    def __init__(
        self,
        service: GameService,
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

    async def run(self, setup: Setup, *, resume: bool) -> int:
        """Start the game of ``setup`` (or, with ``resume``, continue the unfinished one) and play until
        it ends or the player quits. Returns the exit code."""
        row = await self._unfinished()
        if resume and row is None:
            self._terminal.say("There is no unfinished game to resume: start one with scrabble-bot play")
            return EXIT_USAGE
        if row is not None and not resume:
            answer = self._read(f"An unfinished game is saved ({self._summary()}). Continue it? [Y/n] ")
            if answer is None:
                return EXIT_OK
            if answer.strip().lower() in {"n", "no"}:
                await self._service.cancel(CHANNEL, row.creator_id, can_manage=True)
                row = None
        resumed = row is not None
        if row is None:
            row = await self._create(setup)
        self._seats = row.seats
        self._notifier.seat({seat.user_id: seat.name for seat in row.seats if seat.user_id is not None})
        self._terminal.say(self._banner(row))
        if resumed:
            self._notifier.show(await self._service.board(CHANNEL), board_now=False)
        return await self._play()

    # Setting up ---------------------------------------------------------------------------------

    async def _unfinished(self) -> GameRow | None:
        """The unfinished game of the console channel; a lobby left by an interrupted set-up is
        cancelled."""
        rows = [row for row in await self._store.open_games() if row.channel_id == CHANNEL]
        if not rows:
            return None
        row = rows[0]
        if row.status is GameStatus.LOBBY:
            await self._service.cancel(CHANNEL, row.creator_id, can_manage=True)
            self._notifier.discard()
            return None
        return row

    async def _create(self, setup: Setup) -> GameRow:
        """Open the lobby, seat everyone and start the game; the lobby's messages are not shown."""
        users = [User(FIRST_USER + index, name) for index, name in enumerate(setup.players)]
        await self._service.new_game(GUILD, CHANNEL, users[0], setup.options)
        for user in users[1:]:
            await self._service.join(CHANNEL, user)
        self._notifier.discard()
        await self._service.start_game(CHANNEL, users[0].id)
        row = await self._unfinished()
        assert row is not None
        return row

    def _banner(self, row: GameRow) -> str:
        options = row.options
        players = " vs ".join(
            seat.name if seat.ai_level is None else f"{seat.name} ({seat.ai_level})" for seat in row.seats
        )
        hints = f"{options.hints} hints each" if options.hints else "no hints"
        return (
            f"Game {row.id}: {players}. {options.variant.capitalize()} board, {options.challenge_mode} "
            f"challenges, {hints}.\n{LEGEND[self._terminal.style]}\nType help for the commands."
        )

    def _summary(self) -> str:
        game = self._service.game(CHANNEL)
        scores = ", ".join(f"{player.name} {player.score}" for player in game.players)
        return f"{scores}, move {len(game.history) + 1}"

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
                if self._read(f"Pass the keyboard to {name} and press Enter... ") is None:
                    return self._quit()
                holder = user_id
            else:
                self._notifier.flush()
            self._notifier.show_board()
            if not self._notifier.open_inbox(user_id):
                self._notifier.show(await self._service.rack(CHANNEL, user_id))
            if not await self._turn(user_id, game.players[game.current].name):
                return self._quit()
            if not self._hot_seat:
                self._notifier.flush()

    async def _turn(self, user_id: int, name: str) -> bool:
        """Read commands until one ends the turn (True) or the player quits (False)."""
        while True:
            rack = await self._service.rack_letters(CHANNEL, user_id)
            line = self._read(f"{name} [{rack}]> ")
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
            except ScrabbleError as error:
                self._terminal.say(str(error))

    async def _run(self, command: Command, user_id: int) -> bool:
        """Run one command for ``user_id``; whether it ended the turn.

        Raises:
            ScrabbleError: the service or the engine refused it (nothing changed), or a file could
                not be written.
        """
        service, verb, argument = self._service, command.verb, command.argument
        if verb in _ACTIONS:
            if verb is Verb.PLAY:
                await service.play(CHANNEL, user_id, argument)
            elif verb is Verb.EXCHANGE:
                await service.exchange(CHANNEL, user_id, argument)
            elif verb is Verb.PASS:
                await service.pass_turn(CHANNEL, user_id)
            elif verb is Verb.CHALLENGE:
                await service.challenge(CHANNEL, user_id)
            elif verb is Verb.ACCEPT:
                await service.accept(CHANNEL, user_id)
            else:
                answer = self._read("Resign this game? [y/N] ")
                if answer is None or answer.strip().lower() not in {"y", "yes"}:
                    return False
                await service.resign(CHANNEL, user_id)
            return True
        if verb is Verb.HINT:
            self._notifier.show(await service.hint(CHANNEL, user_id))
        elif verb is Verb.RACK:
            self._notifier.show(await service.rack(CHANNEL, user_id))
        elif verb is Verb.BOARD:
            self._notifier.show(await service.board(CHANNEL))
        elif verb is Verb.SCORE:
            self._notifier.show(await service.score(CHANNEL))
        elif verb is Verb.BAG:
            self._notifier.show(await service.bag(CHANNEL, user_id))
        elif verb is Verb.HISTORY:
            self._notifier.show(await service.history(CHANNEL))
        elif verb is Verb.CHECK:
            self._notifier.show(await service.check(CHANNEL, argument))
        elif verb is Verb.EXPORT:
            self._export(Path(argument).expanduser())
        elif verb is Verb.IMAGE:
            self._image(Path(argument).expanduser())
        else:
            self._terminal.say(f"{HELP}\n{LEGEND[self._terminal.style]}")
        return False

    def _export(self, path: Path) -> None:
        if self._hot_seat:
            raise CommandError(
                "The record shows every player's rack, so a hot-seat game writes it when it ends"
            )
        try:
            path.write_text(export_gcg(self._service.game(CHANNEL)))
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
            return self._service.game(CHANNEL)
        except (NoGameError, GameNotStartedError):
            return None

    def _read(self, prompt: str) -> str | None:
        """A line from the player; ``None`` at the end of input or on Ctrl-C."""
        try:
            return self._terminal.read(prompt)
        except (EOFError, KeyboardInterrupt):
            self._terminal.say()
            return None

    def _quit(self) -> int:
        self._terminal.say(f"The game is saved: {RESUME_HINT}")
        return EXIT_OK
