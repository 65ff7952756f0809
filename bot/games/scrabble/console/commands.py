"""What a player types at the Scrabble console's prompt: its commands (:class:`Verb`) and their
:data:`GRAMMAR` for the consoles' one reader (:mod:`bot.console.commands`).

The commands are the bot's (``play 8H QUIZ``, ``exchange AEI``, ``pass``, ``hint``...), and a line that
starts with a coordinate is a play (``8H QUIZ``, or on an infinite board ``-3,5 across QUIZ``). The move
itself is read by the engine when it is played, so its errors are the engine's.
"""

from __future__ import annotations

import enum
import re
from typing import Final

from bot.console.commands import ECHO_LENGTH, Command, CommandError, Grammar, cut
from bot.console.commands import parse_command as parse_line
from scrabble_core.errors import InvalidMoveError, echo
from scrabble_core.squares import parse_coordinate

__all__ = ["ECHO_LENGTH", "GRAMMAR", "HELP", "Command", "CommandError", "Verb", "cut", "parse_command"]


class Verb(enum.StrEnum):
    """A console command."""

    PLAY = "play"
    EXCHANGE = "exchange"
    PASS = "pass"
    CHALLENGE = "challenge"
    ACCEPT = "accept"
    RESIGN = "resign"
    HINT = "hint"
    RACK = "rack"
    BOARD = "board"
    SCORE = "score"
    BAG = "bag"
    HISTORY = "history"
    CHECK = "check"
    EXPORT = "export"
    IMAGE = "image"
    ANALYZE = "analyze"
    HELP = "help"
    QUIT = "quit"


_ARGUMENTS: Final = {
    Verb.PLAY: "the move, e.g. play 8H QUIZ (on an infinite board, play -3,5 across QUIZ)",
    Verb.EXCHANGE: "the tiles to put back, e.g. exchange AEI (? for a blank, a set tile's number)",
    Verb.CHECK: "a word, e.g. check QI",
    Verb.EXPORT: "a file name, e.g. export game.gcg",
    Verb.IMAGE: "a file name, e.g. image board.png",
}
_ALIASES: Final = {"exit": Verb.QUIT, "?": Verb.HELP, "scores": Verb.SCORE, "analyse": Verb.ANALYZE}

HELP: Final = """\
Commands (any case; Tab completes them, the arrow keys recall earlier lines):
  play 8H QUIZ     play a word: row then column (8H) across, column then row (H8) down;
  8H QUIZ          the same, without "play". Type the whole word, tiles already on the
                   board included (or . for them); ?E plays a blank as an E, [1E] set
                   tile 1 as an E (a set tile's number and one of its letters)
  -3,5 across QUIZ on an infinite board: x,y of the first letter (x the column, y the row,
  0,0 down QUIZ    as the board labels them), then across or down (a or d; -3,5a QUIZ)
  exchange AEI     put tiles back in the bag for new ones (? for a blank, 1 for set tile 1)
  pass             pass your turn
  challenge        challenge the last play (not in void mode, where words are checked as played)
  accept           accept the play that went out, ending the game
  resign           leave the game (asks first)
  hint             the best moves for your rack (uses one of your hints)
  rack             your rack          board      the board        score   the scores
  bag              the tiles you have not seen yet                  history every move so far
  check WORD       whether a word is in the dictionary
  export FILE.gcg  write the game's record (GCG)
  image FILE.png   write the board as the PNG the Discord bot posts
  analyze          the analysis of the last game finished here: each move against the AI's best
  help             this list
  quit             stop here: the game is saved, continue it with --resume"""


_SIGNED_START: Final = re.compile(r"\(?\s*[+-]?[0-9]+\s*,")
"""How a signed coordinate begins (``-3,``, ``(2 ,``): a line that starts so is a play."""


def _move(word: str, rest: str) -> Command[Verb] | None:
    """A line that starts with a coordinate is a play: ``8H``/``H8``, or ``x,y`` on an infinite board."""
    line = f"{word} {rest}".strip()
    if _SIGNED_START.match(line):
        return Command(Verb.PLAY, line)
    try:
        parse_coordinate(word)
    except InvalidMoveError:
        return None
    return Command(Verb.PLAY, line)


def _unknown(word: str) -> str:
    return f"Unknown command {echo(word, ECHO_LENGTH - 1)}: type a move such as 8H QUIZ, or help for the commands"


GRAMMAR: Final = Grammar(Verb, _ARGUMENTS, _unknown, _move, _ALIASES)
"""The Scrabble console's commands."""


def parse_command(line: str) -> Command[Verb] | None:
    """Read a line typed at the Scrabble console's prompt (:func:`bot.console.commands.parse_command`).

    Raises:
        CommandError: an unknown command, a missing argument or an argument a command does not take.
    """
    return parse_line(line, GRAMMAR)
