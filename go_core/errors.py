"""The Go engine's errors: one base class, and one class per rule an action can break.

Every message is written for the player who typed the action, so a front end can show ``str(error)`` as it
is ("D4 is already occupied", "It is White's turn").
"""

from __future__ import annotations

from typing import Final

MAX_ECHO: Final = 40
"""The most characters of a player's text an error message repeats."""


def echo(text: str, limit: int = MAX_ECHO) -> str:
    """``text`` quoted and escaped as Python's ``repr`` writes it, for an error message. Past ``limit``
    characters of the escaped text it is cut at a character's boundary (``…`` marks the cut), so the
    result is at most ``limit + 3`` characters however many escapes the input needs."""
    kept = min(len(text), limit)  # a prefix only: every character escapes to one character or more
    while len(repr(text[:kept])) - 2 > limit:
        kept -= 1
    shown = repr(text[:kept])
    return shown if kept == len(text) else f"{shown[:-1]}…{shown[-1]}"


class GoError(ValueError):
    """Base of every error the Go engine raises."""


class InvalidPointError(GoError):
    """Text that is not a point of this board (``Z99``, ``I5``, ``hello``)."""


class OffBoardError(InvalidPointError):
    """A well-formed point outside the board (``T19`` on a 9×9 board)."""

    def __init__(self, text: str, size: int) -> None:
        self.text = text
        self.size = size
        super().__init__(f"{text} is off the board: this board is {size}×{size}")


class BoardSizeError(GoError):
    """A board size the engine cannot play (the coordinates have letters for 2 to 25 columns)."""


class HandicapError(GoError):
    """A handicap the board does not take."""


class KomiError(GoError):
    """A komi that is not a finite number of points, or too large."""


class IllegalMoveError(GoError):
    """A well-formed action the rules do not allow now."""


class OccupiedError(IllegalMoveError):
    """A stone is played on a point that already holds one."""

    def __init__(self, point: str) -> None:
        self.point = point
        super().__init__(f"{point} is already occupied")


class SuicideError(IllegalMoveError):
    """A stone that would leave its own group without liberties and capture nothing."""

    def __init__(self, point: str) -> None:
        self.point = point
        super().__init__(f"{point} is self-capture: the stone would have no liberties")


class KoError(IllegalMoveError):
    """A move that would repeat an earlier position of the game (positional superko; the simple ko is
    the commonest case)."""

    def __init__(self, point: str, *, simple: bool) -> None:
        self.point = point
        self.simple = simple
        reason = (
            "ko: retaking at once repeats the position, play elsewhere first"
            if simple
            else "superko: the move would repeat an earlier position"
        )
        super().__init__(f"{point} is not allowed by the {reason}")


class NotYourTurnError(IllegalMoveError):
    """A colour moves out of turn."""

    def __init__(self, to_move: str) -> None:
        self.to_move = to_move
        super().__init__(f"It is {to_move}'s turn")


class GameOverError(IllegalMoveError):
    """An action after the game has ended."""

    def __init__(self) -> None:
        super().__init__("The game is over")


class PhaseError(IllegalMoveError):
    """An action of the playing phase during the dead-stone phase, or the other way round."""


class NothingToUndoError(IllegalMoveError):
    """Undo with no move to take back."""

    def __init__(self) -> None:
        super().__init__("There is no move to undo")
