"""The Go game loop of ``scrabble-bot go``: read what the player types, play it, let the AI answer, and
after two passes agree on the dead stones and count.

Against the AI, the AI proposes the dead stones and accepts whatever the player then marks; in a
hot-seat game both players are at the keyboard, so one ``accept`` is both players' agreement. Every
change is saved at once (:mod:`bot.games.go.console.saves`), so ``quit`` or Ctrl-C loses nothing.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from bot.console.terminal import Terminal
from bot.games.go.console.saves import SavedGame, SaveDirectory
from bot.games.go.console.text_board import draw_go_board
from bot.games.go.engines import RESIGN, GoAI
from bot.games.go.sgf import export_sgf
from go_core import Color, Game, Phase, format_move, parse_move
from go_core.ai import propose_dead
from go_core.errors import GoError, echo
from go_core.scoring import describe_result

RESUME_HINT: Final = "continue it with scrabble-bot go --resume"


class CommandError(GoError):
    """A line that is not a command, or a command without the argument it needs."""


class Verb(enum.StrEnum):
    """A console command."""

    PLAY = "play"
    PASS = "pass"
    RESIGN = "resign"
    UNDO = "undo"
    DEAD = "dead"
    ACCEPT = "accept"
    RESUME = "resume"
    BOARD = "board"
    SCORE = "score"
    SGF = "sgf"
    IMAGE = "image"
    HELP = "help"
    QUIT = "quit"


_ARGUMENTS: Final = {
    Verb.PLAY: "a point, e.g. play D4",
    Verb.DEAD: "a stone of the group, e.g. dead D4",
    Verb.SGF: "a file name, e.g. sgf game.sgf",
    Verb.IMAGE: "a file name, e.g. image board.png",
}
_COORDINATE: Final = re.compile(r"[A-Za-z]\d{1,3}")
_ALIASES: Final = {"exit": Verb.QUIT, "?": Verb.HELP, "alive": Verb.DEAD}

HELP: Final = """\
Commands (any case):
  D4 or play D4    put a stone on D4: column letter (no I), then row number from the bottom
  pass             pass; when both players pass in a row, play stops and the dead stones are marked
  resign           give up the game (asks first)
  undo             take back the last move (against the AI: its move and yours)
  dead D4          after two passes: mark the group on D4 dead, or alive again
  accept           after two passes: accept the dead stones as marked and count the game
  resume           after two passes: play on instead
  board            the board again        score   the count of the board as it is
  sgf FILE.sgf     write the game record (SGF)
  image FILE.png   write the board as the PNG the Discord bot posts
  help             this list
  quit             stop here: the game is saved, continue it with --resume"""


@dataclass(frozen=True, slots=True)
class Command:
    """A command and its argument as typed (``""`` when it has none)."""

    verb: Verb
    argument: str = ""


def parse_command(line: str, size: int) -> Command | None:
    """Read a line typed at the prompt; ``None`` for an empty line.

    Raises:
        CommandError: an unknown command, a missing argument or an argument a command does not take.
    """
    text = line.strip()
    if not text:
        return None
    word, _, rest = text.partition(" ")
    rest = rest.strip()
    try:
        point = parse_move(word, size)
    except GoError:
        if _COORDINATE.fullmatch(word):
            raise  # a point, but not one of this board: say why
    else:
        if not rest:
            return Command(Verb.PASS) if point is None else Command(Verb.PLAY, word)
    verb = _ALIASES.get(word.lower())
    if verb is None:
        try:
            verb = Verb(word.lower())
        except ValueError:
            raise CommandError(
                f"Unknown command {echo(word)}: type a point such as D4, or help for the commands"
            ) from None
    if verb in _ARGUMENTS and not rest:
        raise CommandError(f"{verb} needs {_ARGUMENTS[verb]}")
    if verb not in _ARGUMENTS and rest:
        raise CommandError(f"{verb} takes nothing after it (type help for the commands)")
    return Command(verb, rest)


class GoConsole:
    """One terminal session over a saved game."""

    def __init__(
        self,
        saved: SavedGame,
        saves: SaveDirectory,
        terminal: Terminal,
        ai: GoAI | None,
        write_png: Callable[[SavedGame, Path], None],
    ) -> None:
        """Play ``saved`` (saving it in ``saves``) on ``terminal``, with ``ai`` playing its AI colour;
        ``write_png`` draws the board into a file for ``image``."""
        self.saved = saved
        self._saves = saves
        self._terminal = terminal
        self._ai = ai
        self._write_png = write_png
        self._proposed = bool(saved.game.dead)
        """Whether the dead stones of this dead-stone phase were proposed (a saved game keeps its marks)."""

    @property
    def game(self) -> Game:
        """The game being played."""
        return self.saved.game

    def run(self) -> int:
        """Play until the game is over (0) or the player quits (0, the game saved)."""
        self._say(self._banner())
        self._show()
        while True:
            phase = self.game.phase
            if phase is Phase.OVER:
                self._announce_result()
                return 0
            if phase is Phase.SCORING and not self._proposed:
                self._propose()
                continue
            if phase is Phase.PLAY and self.game.to_move is self.saved.ai_color:
                self._ai_turn()
                continue
            line = self._terminal.ask(self._prompt())
            if line is None:
                return self._quit()
            try:
                command = parse_command(line, self.game.size)
                if command is None:
                    continue
                if command.verb is Verb.QUIT:
                    return self._quit()
                self._run(command)
            except GoError as error:
                self._say(str(error))

    # Commands ------------------------------------------------------------------------------------

    def _run(self, command: Command) -> None:
        game, verb = self.game, command.verb
        human = game.to_move
        if verb is Verb.PLAY:
            move = game.play(command.argument)
            self._changed(f"{human.title} plays {move.point}" + _captured(len(move.captured)))
        elif verb is Verb.PASS:
            game.pass_turn()
            self._changed(f"{human.title} passes")
        elif verb is Verb.RESIGN:
            if self._terminal.confirm("Resign this game?", default=False):
                game.resign(human)
                self._save()
        elif verb is Verb.UNDO:
            self._undo()
        elif verb is Verb.DEAD:
            group = game.toggle_dead(command.argument)
            state = "dead" if group <= game.dead else "alive"
            self._changed(f"The group of {len(group)} at {command.argument.upper()} is marked {state}")
            self._say(game.score().breakdown())
        elif verb is Verb.ACCEPT:
            game.accept(Color.BLACK)
            game.accept(Color.WHITE)
            self._save()
        elif verb is Verb.RESUME:
            game.resume()
            self._proposed = False
            self._changed(f"Play resumes: {game.to_move.title} to move")
        else:
            self._ask(command)

    def _ask(self, command: Command) -> None:
        verb = command.verb
        if verb is Verb.BOARD:
            self._show()
        elif verb is Verb.SCORE:
            captures = (
                f"Captures: Black {self.game.captures(Color.BLACK)}, White {self.game.captures(Color.WHITE)}"
            )
            self._say(f"{captures}. Counted as the board stands: {self.game.score().breakdown()}")
        elif verb is Verb.SGF:
            path = Path(command.argument).expanduser()
            self._write(
                path,
                lambda: path.write_text(
                    export_sgf(self.game, black=self.saved.black, white=self.saved.white)
                ),
            )
            self._say(f"The game record is written to {path}")
        elif verb is Verb.IMAGE:
            path = Path(command.argument).expanduser()
            self._write(path, lambda: self._write_png(self.saved, path))
            self._say(f"The board is written to {path}")
        else:
            self._say(HELP)

    def _undo(self) -> None:
        game = self.game
        taken = game.undo()
        if self.saved.ai_color is not None and game.to_move is self.saved.ai_color and game.moves:
            game.undo()
        self._proposed = False
        self._changed("Taken back" if taken is None else f"Taken back: {taken}")

    # The AI and the dead stones ------------------------------------------------------------------

    def _ai_turn(self) -> None:
        assert self._ai is not None
        color = self.game.to_move
        self._say(f"{self._ai.name} is thinking…")
        move = self._ai.choose(self.game)
        if move == RESIGN:
            self.game.resign(color)
            self._save()
            return
        if move is None:
            self.game.pass_turn()
            self._changed(f"{color.title} ({self._ai.name}) passes")
        else:
            captured = len(self.game.play(move).captured)
            self._changed(f"{color.title} ({self._ai.name}) plays {move}" + _captured(captured))

    def _propose(self) -> None:
        """The dead stones proposed after two passes: the AI's, or the built-in guess in hot-seat."""
        dead = propose_dead(self.game) if self._ai is None else self._ai.dead_stones(self.game)
        self.game.set_dead(dead)
        self._proposed = True
        self._save()
        self._show()
        self._say(
            "Both players passed: play stops. The stones proposed dead are lowercase (x, o) in plain "
            "text, × in colour; territory is , for Black and ' for White in plain text."
        )
        self._say(self.game.score().breakdown())
        self._say(
            "Type accept to count the game this way, dead D4 to mark or unmark a group, or resume to play on."
        )

    def _announce_result(self) -> None:
        result = self.game.result
        assert result is not None
        self._show()
        if result.endswith("+R"):
            self._say(f"{describe_result(result)}. Result: {result}")
        else:
            self._say(f"{self.game.score().breakdown()}. Result: {result}")

    # Output --------------------------------------------------------------------------------------

    def _changed(self, what: str) -> None:
        self._save()
        self._show()
        self._say(what)

    def _show(self) -> None:
        game = self.game
        self._say(draw_go_board(game, self._terminal.style))
        captures = f"Captures: Black {game.captures(Color.BLACK)}, White {game.captures(Color.WHITE)}"
        last = game.last_move
        played = "" if last is None else f" Last move: {last.color.title} {format_move(last.point)}."
        self._say(f"{captures}.{played}")

    def _banner(self) -> str:
        saved, game = self.saved, self.game
        players = " vs ".join(f"{saved.name(color)} ({color.title})" for color in (Color.BLACK, Color.WHITE))
        handicap = f", handicap {game.handicap}" if game.handicap else ""
        return (
            f"Game {saved.id}: {players}. {game.size}×{game.size}, komi {game.komi:g}{handicap}, "
            f"{game.method} scoring. Type help for the commands."
        )

    def _prompt(self) -> str:
        game = self.game
        if game.phase is Phase.SCORING:
            return "accept / dead D4 / resume> "
        return f"{game.to_move.title} ({self.saved.name(game.to_move)})> "

    def _save(self) -> None:
        self._saves.save(self.saved)

    def _write(self, path: Path, write: Callable[[], object]) -> None:
        try:
            write()
        except OSError as error:
            raise CommandError(f"Cannot write {path}: {error.strerror}") from None

    def _quit(self) -> int:
        self._save()
        self._say(f"The game is saved: {RESUME_HINT} {self.saved.id}")
        return 0

    def _say(self, text: str = "") -> None:
        self._terminal.say(text)


def _captured(stones: int) -> str:
    return "" if not stones else f", capturing {stones} stone{'s' if stones > 1 else ''}"
