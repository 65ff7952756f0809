"""The rules of the test-only third game, as a pure engine: seven columns of six rows, two players drop
discs in turn, four in a line wins, a full board is a draw."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

COLUMNS: Final = 7
ROWS: Final = 6
DISCS: Final = ("R", "Y")
"""The discs of the first and second player."""


class DropError(Exception):
    """A drop the rules refuse (the message is for the player)."""


@dataclass
class Board:
    """A game: the columns, bottom first, each a list of discs (0 or 1); whose turn it is; the winner
    (``None``: none yet; -1: a draw) and who resigned."""

    columns: list[list[int]] = field(default_factory=lambda: [[] for _ in range(COLUMNS)])
    turn: int = 0
    winner: int | None = None
    resigned: int | None = None

    @property
    def moves(self) -> int:
        """How many discs were dropped."""
        return sum(len(column) for column in self.columns)

    @property
    def over(self) -> bool:
        """Whether the game has ended."""
        return self.winner is not None

    def legal(self) -> list[int]:
        """The columns (from 0) a disc may be dropped in."""
        return [] if self.over else [c for c in range(COLUMNS) if len(self.columns[c]) < ROWS]

    def drop(self, player: int, column: int) -> None:
        """``player`` drops a disc in ``column`` (from 0).

        Raises:
            DropError: the game is over, not their turn, no such column, or it is full.
        """
        if self.over:
            raise DropError("The game is over")
        if player != self.turn:
            raise DropError("It is not your turn")
        if not 0 <= column < COLUMNS:
            raise DropError(f"There is no column {column + 1}: choose 1 to {COLUMNS}")
        if len(self.columns[column]) >= ROWS:
            raise DropError(f"Column {column + 1} is full")
        self.columns[column].append(player)
        if self._four(column):
            self.winner = player
        elif self.moves == COLUMNS * ROWS:
            self.winner = -1
        self.turn = 1 - player

    def resign(self, player: int) -> None:
        """``player`` resigns: the other wins.

        Raises:
            DropError: the game is over.
        """
        if self.over:
            raise DropError("The game is over")
        self.winner, self.resigned = 1 - player, player

    def _four(self, column: int) -> bool:
        row = len(self.columns[column]) - 1
        player = self.columns[column][row]
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            count = 1
            for sign in (1, -1):
                c, r = column + sign * dc, row + sign * dr
                while 0 <= c < COLUMNS and 0 <= r < len(self.columns[c]) and self.columns[c][r] == player:
                    count, c, r = count + 1, c + sign * dc, r + sign * dr
            if count >= 4:
                return True
        return False

    def rows(self) -> list[str]:
        """The board as text, top row first (``.`` empty)."""
        return [
            "".join(DISCS[col[r]] if r < len(col) else "." for col in self.columns)
            for r in reversed(range(ROWS))
        ]

    def copy(self) -> Board:
        """An independent copy."""
        return Board([list(c) for c in self.columns], self.turn, self.winner, self.resigned)

    def to_dict(self) -> dict[str, Any]:
        """The game as JSON-compatible data."""
        return {"columns": self.columns, "turn": self.turn, "winner": self.winner, "resigned": self.resigned}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Board:
        """The game :meth:`to_dict` wrote.

        Raises:
            KeyError, TypeError, ValueError: it is not one.
        """
        columns = [[int(disc) for disc in column] for column in data["columns"]]
        if len(columns) != COLUMNS or any(len(c) > ROWS or set(c) - {0, 1} for c in columns):
            raise ValueError("not a board of seven columns of six rows")
        winner, resigned = data["winner"], data["resigned"]
        return cls(columns, int(data["turn"]), winner, resigned)


def best_column(board: Board) -> int:
    """The AI's column: a win, else a block of the opponent's win, else the legal column nearest the
    centre."""
    legal = board.legal()
    for player in (board.turn, 1 - board.turn):
        for column in legal:
            trial = board.copy()
            trial.turn = player
            trial.drop(player, column)
            if trial.winner == player:
                return column
    return min(legal, key=lambda c: (abs(c - COLUMNS // 2), c))
