"""The Go game loop of ``scrabble-bot go``: read what the player types, play it through the host (Go's
commands, :class:`~bot.games.go.commands.GoCommands`), let the AI answer, and after two passes agree
on the dead stones and count.

Its games are kept as every console's are (:mod:`bot.console.saved`: ``--list``, ``--resume [ID]``), in
the host's database: every change is committed when it is made, so ``quit`` or Ctrl-C loses nothing.
The people at the keyboard are users 1 and 2 of the console's guild. Against the AI, the AI proposes
the dead stones and accepts whatever the player then marks; in a hot-seat game both players are at the
keyboard, so one ``accept`` is both players' agreement, and ``undo`` is asked and granted at once.

The host's own messages are Discord's (pings, buttons, ``/go`` commands); the console says what
happened in its own words, from the game as it changes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
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
from bot.games.go import codec
from bot.games.go.commands import GoCommands
from bot.games.go.console.commands import HELP, Command, CommandError, Verb, parse_command
from bot.games.go.console.text_board import draw_go_board
from bot.games.go.kind import KIND
from bot.games.go.options import GoNewGame
from bot.games.go.sgf import export_sgf
from bot.games.go.table import GoTable, colour_of, seat_of_colour
from bot.host.errors import NoGameError, ServiceError
from bot.host.seats import User
from bot.host.store import GameRow, GameStatus, SeatRow, Store
from go_core import Color, Game, Phase, format_move
from go_core.errors import GoError
from go_core.scoring import describe_result

__all__ = ["CONSOLE", "GoConsole", "Setup", "describe", "no_image"]


@dataclass(frozen=True, slots=True)
class Setup:
    """A new game: the names at the keyboard (one against the AI, two hot-seat) and its options."""

    names: tuple[str, ...]
    options: GoNewGame


def no_image(game: Game, *, black: str = "Black", white: str = "White") -> bytes:
    """The board image of the host's messages, which the console does not show: none."""
    return b""


class GoConsole:
    """One terminal session of Go over the host's Go commands ``service`` and ``store``."""

    def __init__(
        self,
        service: GoCommands,
        store: Store,
        terminal: Terminal,
        write_png: Callable[[Game, SeatRow, SeatRow, Path], None],
    ) -> None:
        """Play on ``terminal``; ``write_png(game, black, white, path)`` draws the board into a file
        for ``image``."""
        self._service = service
        self._store = store
        self._terminal = terminal
        self._write_png = write_png
        self._channel = 0
        self._row: GameRow | None = None
        self._shown: Game | None = None

    async def run(self, setup: Setup, *, resume: int | None = None, new_options: bool = False) -> int:
        """Play until the game ends or the player quits; returns the exit code. The game is chosen as
        every console chooses one (:func:`bot.console.saved.choose`): the saved game ``resume``, the
        last game played, or the new game of ``setup``."""
        choice = choose(await self._saved(), CONSOLE, self._terminal, resume, new_options)
        if choice.exit is not None:
            return choice.exit
        row = choice.row or await self._create(setup)
        self._channel, self._row = row.channel_id, self._service.host.tables[row.channel_id].row
        self._say(self._banner())
        return await self._play()

    async def _saved(self) -> list[GameRow]:
        """The unfinished Go console games, the one played last at the end; lobbies left by an
        interrupted set-up are cancelled."""
        rows = await self._store.open_games()
        for row in rows:
            if row.guild_id == GUILD and row.kind == KIND and row.status is GameStatus.LOBBY:
                await self._service.cancel(row.channel_id, row.creator_id, moderator=True)
        return unfinished(rows, KIND)

    async def _create(self, setup: Setup) -> GameRow:
        """Start the game of ``setup`` in a free channel."""
        channel = free_channel(await self._store.open_games())
        users = [User(FIRST_USER + index, name) for index, name in enumerate(setup.names)]
        await self._service.new_game(GUILD, channel, users[0], setup.options)
        if len(users) > 1:
            await self._service.join(channel, users[1])
        return self._service.host.tables[channel].row

    # Playing ------------------------------------------------------------------------------------

    @property
    def _seats(self) -> tuple[SeatRow, ...]:
        assert self._row is not None
        return self._row.seats

    async def _play(self) -> int:
        """Turn after turn until the game ends or the player quits."""
        while True:
            await self._service.host.idle()
            game = await self._report()
            if game.phase is Phase.OVER:
                return EXIT_OK
            seat = self._seats[seat_of_colour(game.to_move)]
            if game.phase is Phase.PLAY and seat.user_id is None:
                self._say(f"The AI could not play its move (see the log above); {CONSOLE.resume_hint}")
                return EXIT_FAILED
            line = self._terminal.ask(self._prompt(game))
            if line is None:
                return self._quit()
            try:
                command = parse_command(line, game.size)
                if command is None:
                    continue
                if command.verb is Verb.QUIT:
                    return self._quit()
                await self._run(command, game)
            except (ServiceError, GoError) as error:
                self._say(str(error))

    async def _run(self, command: Command[Verb], game: Game) -> None:
        """Run one command.

        Raises:
            ServiceError, GoError: the host or the engine refused it (nothing changed), or a file could
                not be written.
        """
        service, channel, verb = self._service, self._channel, command.verb
        player = self._player(game)
        if verb is Verb.PLAY:
            await service.play(channel, player, command.argument)
        elif verb is Verb.PASS:
            await service.pass_turn(channel, player)
        elif verb is Verb.RESIGN:
            if self._terminal.confirm("Resign this game?", default=False):
                await service.resign(channel, player)
        elif verb is Verb.UNDO:
            await self._undo(game)
        elif verb is Verb.DEAD:
            await service.toggle_dead(channel, player, command.argument)
            changed = await self._current()
            group = changed.dead ^ game.dead
            state = "dead" if group <= changed.dead else "alive"
            self._shown = changed
            self._show(changed)
            self._say(f"The group of {len(group)} at {command.argument.upper()} is marked {state}")
            self._say(changed.score().breakdown())
        elif verb is Verb.ACCEPT:
            for user in self._people():
                await service.accept_score(channel, user)
        elif verb is Verb.RESUME:
            await service.resume(channel, player)
        else:
            self._ask(command, game)

    def _ask(self, command: Command[Verb], game: Game) -> None:
        verb = command.verb
        if verb is Verb.BOARD:
            self._show(game)
        elif verb is Verb.SCORE:
            captures = f"Captures: Black {game.captures(Color.BLACK)}, White {game.captures(Color.WHITE)}"
            self._say(f"{captures}. Counted as the board stands: {game.score().breakdown()}")
        elif verb is Verb.SGF:
            path = Path(command.argument).expanduser()
            names = [seat.name for seat in self._seats]
            self._write(path, lambda: path.write_text(export_sgf(game, black=names[0], white=names[1])))
            self._say(f"The game record is written to {path}")
        elif verb is Verb.IMAGE:
            path = Path(command.argument).expanduser()
            seats = self._seats
            self._write(path, lambda: self._write_png(game, seats[0], seats[1], path))
            self._say(f"The board is written to {path}")
        else:
            self._say(HELP)

    async def _undo(self, game: Game) -> None:
        """Take back the last move: against the AI, the player's last move and the AI's answer (the
        host grants it at once); hot-seat, the move of the player who made it, granted by the other."""
        people = self._people()
        if len(people) == 1:
            await self._service.request_undo(self._channel, people[0])
            return
        last = game.last_move
        if last is None:
            raise CommandError("There is no move to take back")
        asker = self._seats[seat_of_colour(last.color)].user_id
        other = self._seats[seat_of_colour(last.color.opponent)].user_id
        assert asker is not None and other is not None
        await self._service.request_undo(self._channel, asker)
        await self._service.answer_undo(self._channel, other, True)

    # What happened ------------------------------------------------------------------------------

    async def _current(self) -> Game:
        """A copy of the game as it stands (once over, as it ended)."""
        try:
            return self._service.game(self._channel)
        except NoGameError:
            assert self._row is not None
            row = await self._store.game(self._row.id)
            assert row is not None and row.state is not None
            return codec.read_state(row.state).game

    async def _report(self) -> Game:
        """Say what changed since the game was last shown (the moves played or taken back, the
        dead-stone phase, the result) and show the board when it changed; the game as it stands."""
        game, before = await self._current(), self._shown
        self._shown = game
        if before is not None and before.to_dict() == game.to_dict():
            return game
        self._show(game)
        if before is not None:
            self._say_moves(before, game)
        if game.phase is Phase.SCORING and (before is None or before.phase is not Phase.SCORING):
            self._say_scoring(game)
        elif game.phase is Phase.PLAY and before is not None and before.phase is Phase.SCORING:
            self._say(f"Play resumes: {game.to_move.title} to move")
        elif game.phase is Phase.OVER:
            self._say_result(game)
        return game

    def _say_moves(self, before: Game, after: Game) -> None:
        """The moves played since ``before``, or taken back."""
        old, new = before.moves, after.moves
        common = 0
        while common < min(len(old), len(new)) and str(old[common]) == str(new[common]):
            common += 1
        if common < len(old):
            self._say("Taken back: " + ", ".join(str(move) for move in reversed(old[common:])))
        for move in new[common:]:
            seat = self._seats[seat_of_colour(move.color)]
            who = move.color.title if seat.user_id is not None else f"{move.color.title} ({seat.name})"
            if move.point is None:
                self._say(f"{who} passes")
            else:
                taken = len(move.captured)
                capture = "" if not taken else f", capturing {taken} stone{'s' if taken > 1 else ''}"
                self._say(f"{who} plays {move.point}{capture}")

    def _say_scoring(self, game: Game) -> None:
        self._say(
            "Both players passed: play stops. The stones proposed dead are lowercase (x, o) in plain "
            "text, × in colour; territory is , for Black and ' for White in plain text."
        )
        self._say(game.score().breakdown())
        self._say(
            "Type accept to count the game this way, dead D4 to mark or unmark a group, or resume to play on."
        )

    def _say_result(self, game: Game) -> None:
        result = game.result
        assert result is not None
        if result.endswith("+R"):
            self._say(f"{describe_result(result)}. Result: {result}")
        else:
            self._say(f"{game.score().breakdown()}. Result: {result}")

    def _show(self, game: Game) -> None:
        self._say(draw_go_board(game, self._terminal.style))
        captures = f"Captures: Black {game.captures(Color.BLACK)}, White {game.captures(Color.WHITE)}"
        last = game.last_move
        played = "" if last is None else f" Last move: {last.color.title} {format_move(last.point)}."
        self._say(f"{captures}.{played}")

    def _banner(self) -> str:
        assert self._row is not None
        table = self._service.host.tables[self._channel]
        assert isinstance(table, GoTable)
        options = table.options
        players = " vs ".join(_seat(seat) for seat in self._seats)
        handicap = f", handicap {options.handicap}" if options.handicap else ""
        return (
            f"Game {self._row.id}: {players}. {options.size}×{options.size}, komi {options.komi:g}"
            f"{handicap}, {options.method} scoring. Type help for the commands."
        )

    def _prompt(self, game: Game) -> str:
        if game.phase is Phase.SCORING:
            return "accept / dead D4 / resume> "
        return f"{game.to_move.title} ({self._seats[seat_of_colour(game.to_move)].name})> "

    # Who is at the keyboard ---------------------------------------------------------------------

    def _people(self) -> list[int]:
        """The users at the keyboard, Black's first."""
        return [seat.user_id for seat in self._seats if seat.user_id is not None]

    def _player(self, game: Game) -> int:
        """The user who acts now: the one to move in a hot-seat game, else the one at the keyboard."""
        seat = self._seats[seat_of_colour(game.to_move)]
        return seat.user_id if seat.user_id is not None else self._people()[0]

    def _write(self, path: Path, write: Callable[[], object]) -> None:
        try:
            write()
        except OSError as error:
            raise CommandError(f"Cannot write {path}: {error.strerror}") from None

    def _quit(self) -> int:
        assert self._row is not None
        self._say(f"The game is saved: {CONSOLE.resume_hint} {self._row.id}")
        return EXIT_OK

    def _say(self, text: str = "") -> None:
        self._terminal.say(text)


def _seat(seat: SeatRow) -> str:
    """``Ann (Black)``."""
    return f"{seat.name} ({colour_of(seat.seat).title})"


def describe(row: GameRow) -> str:
    """A saved game in one line, read from its row alone: ``Ann (Black) vs Bob (White), 7×7, move 2``."""
    assert row.state is not None, "a started game has its state"
    game = codec.read_state(row.state).game
    players = " vs ".join(_seat(seat) for seat in row.seats)
    return f"{players}, {game.size}×{game.size}, move {len(game.moves) + 1}"


CONSOLE: Final = ConsoleGame(KIND, "scrabble-bot go", describe)
"""The Go console, as the consoles' shared parts see it."""
