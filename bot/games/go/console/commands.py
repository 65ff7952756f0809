"""What a player types at the Go console's prompt: its commands (:class:`Verb`) and their grammar for
the consoles' one reader (:mod:`bot.console.commands`). A line that is a point (``D4``) plays it, and
``pass`` passes; the engine reads the point, so its errors are the engine's."""

from __future__ import annotations

import enum
import re
from typing import Final

from bot.console.commands import Command, CommandError, Grammar
from bot.console.commands import parse_command as parse_line
from go_core import parse_move
from go_core.errors import GoError, echo

__all__ = ["HELP", "Command", "CommandError", "Verb", "parse_command"]


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


def _unknown(word: str) -> str:
    return f"Unknown command {echo(word)}: type a point such as D4, or help for the commands"


def _grammar(size: int) -> Grammar[Verb]:
    """The commands on a board of ``size``: a lone point is a move there."""

    def move(word: str, rest: str) -> Command[Verb] | None:
        try:
            point = parse_move(word, size)
        except GoError:
            if _COORDINATE.fullmatch(word):
                raise  # a point, but not one of this board: the engine says why
            return None
        if rest:
            return None
        return Command(Verb.PASS) if point is None else Command(Verb.PLAY, word)

    return Grammar(Verb, _ARGUMENTS, _unknown, move, _ALIASES)


def parse_command(line: str, size: int) -> Command[Verb] | None:
    """Read a line typed at the prompt of a game on a board of ``size``; ``None`` for an empty line.

    Raises:
        CommandError: an unknown command, a missing argument or an argument a command does not take.
        GoError: a point that is not one of the board.
    """
    return parse_line(line, _grammar(size))
