"""The engine's errors: one base class, and one class per rule a move can break.

Every message is written for the person who typed the move, so a front end can show ``str(error)`` as it
is ("H8 is already taken by Q", "QZX is not in the dictionary").
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Sequence
from typing import Final

MAX_ECHO: Final = 40
"""The most characters of a user's text an error message repeats."""


def cut(text: str, limit: int = MAX_ECHO) -> str:
    """``text`` cut to ``limit`` characters for an error message (``…`` marks the cut)."""
    return text if len(text) <= limit else f"{text[:limit]}…"


def echo(text: str, limit: int = MAX_ECHO) -> str:
    """``text`` quoted and escaped as Python's ``repr`` writes it, for an error message. Past ``limit``
    characters of the escaped text it is cut at a character's boundary (``…`` marks the cut), so the
    result is at most ``limit + 3`` characters however many escapes the input needs."""
    kept = min(len(text), limit)  # a prefix only: every character escapes to one character or more
    while len(repr(text[:kept])) - 2 > limit:
        kept -= 1
    shown = repr(text[:kept])
    return shown if kept == len(text) else f"{shown[:-1]}…{shown[-1]}"


def character_name(ch: str) -> str:
    """A character as a player can recognise it: ``А (Cyrillic capital letter A)``, ``٨ (Arabic-indic
    digit eight)``; ``U+XXXX`` for a character Unicode does not name."""
    name = unicodedata.name(ch, "")
    if not name:
        return f"U+{ord(ch):04X}"
    words = [word if len(word) == 1 else word.lower() for word in name.split()]
    words[0] = words[0][:1].upper() + words[0][1:]
    shown = ch if ch.isprintable() and not ch.isspace() else f"U+{ord(ch):04X}"
    return f"{shown} ({' '.join(words)})"


class ScrabbleError(ValueError):
    """Base of every error the engine raises."""


class VariantError(ScrabbleError):
    """A variant file is not valid. The message names the file, the key and what is wrong."""

    def __init__(self, source: str, key: str, problem: str) -> None:
        self.source = source
        self.key = key
        self.problem = problem
        super().__init__(f"{source}: {key}: {problem}")


class InvalidMoveError(ScrabbleError):
    """The input is not a move at all (bad coordinate, unknown characters, empty word...)."""


class IllegalMoveError(ScrabbleError):
    """A well-formed move that the rules do not allow in this position."""


class SquareOccupiedError(IllegalMoveError):
    """A new tile is put on a square that already holds one."""

    def __init__(self, square: str, letter: str) -> None:
        self.square = square
        self.letter = letter
        super().__init__(f"{square} is already taken by {letter}")


class EmptySquareError(IllegalMoveError):
    """The move says it plays through a tile (``.``) on a square that is empty."""

    def __init__(self, square: str) -> None:
        self.square = square
        super().__init__(f"{square} is empty: there is no tile there to play through")


class NotInLineError(IllegalMoveError):
    """The new tiles are not all in one row or one column."""

    def __init__(self) -> None:
        super().__init__("the tiles must all be in one row or one column")


class GapError(IllegalMoveError):
    """The new tiles leave an empty square inside the word."""

    def __init__(self, square: str) -> None:
        self.square = square
        super().__init__(f"the word has a gap at {square}")


class NoTilesError(IllegalMoveError):
    """The move places no tile of the player's."""

    def __init__(self) -> None:
        super().__init__("the move places no tiles")


class TileNotOnRackError(IllegalMoveError):
    """The move or exchange needs tiles the player does not hold."""

    def __init__(self, missing: str) -> None:
        self.missing = missing
        counts = Counter(missing)
        shown = [_tile_count(tile, count) for tile, count in counts.items()]
        listed = shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} and {shown[-1]}"
        super().__init__(f"you don't have {listed} on your rack")


def _tile_count(tile: str, count: int) -> str:
    """``"Q"``, ``"two Es"``, ``"a blank"``, ``"two blanks"``: tiles as a player says them."""
    words = {1: "", 2: "two ", 3: "three ", 4: "four ", 5: "five ", 6: "six ", 7: "seven "}
    number = words.get(count, f"{count} ")
    if tile == "?":
        return "a blank" if count == 1 else f"{number}blanks"
    return tile if count == 1 else f"{number}{tile}s"


class OffBoardError(IllegalMoveError):
    """A tile would land outside the board or on a square the board does not have (a hole)."""

    def __init__(self, square: str, *, hole: bool = False) -> None:
        self.square = square
        self.hole = hole
        where = f"{square} is not a square of this board" if hole else f"{square} is off the board"
        super().__init__(where)


class StartSquareError(IllegalMoveError):
    """The first play does not cover the start square."""

    def __init__(self, square: str) -> None:
        self.square = square
        super().__init__(f"the first word must cover the start square {square}")


class FirstMoveTooShortError(IllegalMoveError):
    """The first play places a single tile."""

    def __init__(self) -> None:
        super().__init__("the first word must be at least 2 letters long")


class NotConnectedError(IllegalMoveError):
    """The play touches no tile already on the board."""

    def __init__(self) -> None:
        super().__init__("the word must touch a tile already on the board")


class UnknownWordsError(IllegalMoveError):
    """The play forms words that are not in the lexicon; ``words`` lists every one of them."""

    def __init__(self, words: Sequence[str]) -> None:
        self.words = tuple(words)
        if len(self.words) == 1:
            text = f"{self.words[0]} is not in the dictionary"
        else:
            text = f"{', '.join(self.words[:-1])} and {self.words[-1]} are not in the dictionary"
        super().__init__(text)


class ExchangeNotAllowedError(IllegalMoveError):
    """An exchange while the bag holds too few tiles."""


class NotYourTurnError(IllegalMoveError):
    """A player acts out of turn."""

    def __init__(self, player: str, current: str) -> None:
        self.player = player
        self.current = current
        super().__init__(f"it is {current}'s turn, not {player}'s")


class GameOverError(IllegalMoveError):
    """An action on a game that has ended."""

    def __init__(self) -> None:
        super().__init__("the game is over")


class ChallengeError(IllegalMoveError):
    """A challenge that cannot be made: nothing to challenge, or the game's mode has no challenges."""


class GameSetupError(ScrabbleError):
    """A game created or changed with settings the rules do not allow (player count, seat names...)."""


class GcgError(ScrabbleError):
    """A GCG record that cannot be read or does not replay; the message names the line."""

    def __init__(self, line_number: int, problem: str) -> None:
        self.line_number = line_number
        self.problem = problem
        super().__init__(f"line {line_number}: {problem}")


MAX_PROGRAM_MESSAGE: Final = 300
"""The most characters of a board program's error message (a variant author reads it at load)."""


class ProgramError(ScrabbleError):
    """A board or square program that cannot be read or run; the message names the program."""

    def __init__(self, program: str, problem: str) -> None:
        self.program = program
        self.problem = problem
        super().__init__(cut(f"{program}: {problem}", MAX_PROGRAM_MESSAGE))


class ProgramSyntaxError(ProgramError):
    """A program that does not parse, or names a variable it did not declare; ``line`` and ``column``
    (1-based) say where."""

    def __init__(self, program: str, line: int, column: int, problem: str) -> None:
        self.line = line
        self.column = column
        super().__init__(program, f"line {line}, column {column}: {problem}")


class ProgramRuntimeError(ProgramError):
    """A program that fails while running: division by zero, a letter index outside the word, a
    character where a number is needed."""


class ProgramLimitError(ProgramRuntimeError):
    """A program that runs past one of its limits (steps, integer size); ``limit`` names it."""

    def __init__(self, program: str, limit: str, problem: str) -> None:
        self.limit = limit
        super().__init__(program, problem)
