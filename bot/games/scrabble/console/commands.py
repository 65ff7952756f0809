"""What a player types at the console prompt, read into a :class:`Command`.

The commands are the bot's (``play 8H QUIZ``, ``exchange AEI``, ``pass``, ``hint``...), and a line that
starts with a coordinate is a play (``8H QUIZ``). The move itself is read by the engine when it is
played, so its errors are the engine's.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final

from bot.host.messages import shorten
from scrabble_core.errors import InvalidMoveError, ScrabbleError, echo
from scrabble_core.squares import parse_coordinate


class CommandError(ScrabbleError):
    """A line that is not a command, or a command without the argument it needs (or with one it does
    not take)."""


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
    Verb.PLAY: "the move, e.g. play 8H QUIZ",
    Verb.EXCHANGE: "the tiles to put back, e.g. exchange AEI (? for a blank)",
    Verb.CHECK: "a word, e.g. check QI",
    Verb.EXPORT: "a file name, e.g. export game.gcg",
    Verb.IMAGE: "a file name, e.g. image board.png",
}
ECHO_LENGTH: Final = 40
"""The most characters of what the player typed that an error repeats."""
_ALIASES: Final = {"exit": Verb.QUIT, "?": Verb.HELP, "scores": Verb.SCORE, "analyse": Verb.ANALYZE}

HELP: Final = """\
Commands (any case; Tab completes them, the arrow keys recall earlier lines):
  play 8H QUIZ     play a word: row then column (8H) across, column then row (H8) down;
  8H QUIZ          the same, without "play". Type the whole word, tiles already on the
                   board included (or . for them); ?E plays a blank as an E
  exchange AEI     put tiles back in the bag for new ones (? for a blank)
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


@dataclass(frozen=True, slots=True)
class Command:
    """A command and its argument as typed (``""`` when it has none)."""

    verb: Verb
    argument: str = ""


def parse_command(line: str) -> Command | None:
    """Read a line typed at the prompt; ``None`` for an empty line.

    Raises:
        CommandError: an unknown command, a missing argument or an argument a command does not take.
    """
    text = line.strip()
    if not text:
        return None
    word, _, rest = text.partition(" ")
    rest = rest.strip()
    if _is_coordinate(word):
        return Command(Verb.PLAY, text)
    verb = _ALIASES.get(word.lower()) or _verb(word)
    if verb in _ARGUMENTS and not rest:
        raise CommandError(f"{verb} needs {_ARGUMENTS[verb]}")
    if verb not in _ARGUMENTS and rest:
        raise CommandError(f"{verb} takes nothing after it (type help for the commands)")
    return Command(verb, rest)


def cut(text: str, limit: int = ECHO_LENGTH) -> str:
    """``text`` as the console echoes input: :func:`~bot.host.messages.shorten` to ``limit`` characters."""
    return shorten(text, limit)


def _verb(word: str) -> Verb:
    try:
        return Verb(word.lower())
    except ValueError:
        raise CommandError(
            f"Unknown command {echo(word, ECHO_LENGTH - 1)}: type a move such as 8H QUIZ, or help for the commands"
        ) from None


def _is_coordinate(word: str) -> bool:
    try:
        parse_coordinate(word)
    except InvalidMoveError:
        return False
    return True
