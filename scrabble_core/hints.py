"""Hints: the best plays of a rack on the current board, with the words each forms and their points.

This is what the bot's ``/hint`` shows. It runs the move generator's bounded search
(:meth:`~scrabble_core.movegen.MoveGenerator.top`), not the full list of moves, so it answers in a few
milliseconds on typical racks and in a few tens with two blanks.
"""

from __future__ import annotations

from dataclasses import dataclass

from scrabble_core.board import Board
from scrabble_core.move import Play
from scrabble_core.movegen import MoveGenerator
from scrabble_core.scoring import ScoreBreakdown, WordScore, score_placements

DEFAULT_HINTS = 5


@dataclass(frozen=True, slots=True)
class Hint:
    """One suggested play.

    Attributes:
        play: the play in canonical GCG notation.
        score: its points, bingo included.
        leave: the tiles it keeps, letters in the alphabet's order then ``?`` for blanks.
        breakdown: every word it forms (main word first) with its points, and the bingo bonus.
    """

    play: Play
    score: int
    leave: str
    breakdown: ScoreBreakdown

    @property
    def words(self) -> tuple[WordScore, ...]:
        """The words formed, main word first, each with its points."""
        return self.breakdown.words


@dataclass(frozen=True, slots=True)
class Hints:
    """The best plays of a rack, highest score first; empty when the rack has no legal play."""

    moves: tuple[Hint, ...]

    @property
    def best_score(self) -> int | None:
        """The highest score the rack can make on this board, ``None`` if it has no legal play."""
        return self.moves[0].score if self.moves else None


def hints(board: Board, rack: str, generator: MoveGenerator, top: int = DEFAULT_HINTS) -> Hints:
    """The ``top`` highest-scoring plays of ``rack`` (``?`` for a blank) on ``board``.

    Among plays of equal score at the bottom of the list, which ones are shown is unspecified.

    Raises:
        ValueError: ``top`` is less than 1.
        InvalidMoveError: the rack holds a character that is neither a letter of the variant nor ``?``.
        ScrabbleError: the variant has letters outside the generator's lexicon.
    """
    found = generator.top(board, rack, top)
    return Hints(
        tuple(
            Hint(
                move.play,
                move.score,
                move.leave,
                score_placements(board, move.play.placements(), move.play.across),
            )
            for move in found
        )
    )
