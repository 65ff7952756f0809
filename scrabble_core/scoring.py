"""Scoring: the words a play forms and what each is worth.

Premiums count only under newly placed tiles; every cross-word formed is scored; blanks score 0; the
bingo bonus is added when a whole rack is played. A board written as a program whose squares are not
all letter and word multipliers scores each word by running its squares' programs
(:meth:`scrabble_core.board_programs.BoardPrograms.score_word`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scrabble_core.board import Board
from scrabble_core.squares import Square, coordinate_name
from scrabble_core.tiles import has_set_tile, is_set_tile, letter_of


@dataclass(frozen=True, slots=True)
class WordScore:
    """One word formed by a play: as it reads on the board (blanks lowercase, set tiles as their letter),
    where, and its points."""

    word: str
    start: Square
    across: bool
    points: int

    @property
    def coordinate(self) -> str:
        """The word's GCG coordinate (``8H`` across, ``H8`` down)."""
        return coordinate_name(self.start, self.across)


@dataclass(frozen=True, slots=True)
class ScoreBreakdown:
    """The score of a play: each word formed (main word first) and the bingo bonus."""

    words: tuple[WordScore, ...]
    bingo: int

    @property
    def total(self) -> int:
        """The play's score: the sum of its words and the bingo bonus."""
        return sum(word.points for word in self.words) + self.bingo

    def describe(self) -> str:
        """The breakdown as a line players read, e.g. ``"QUIZ 48 + QI 11 + bingo 50 = 109"``."""
        parts = [f"{word.word.upper()} {word.points}" for word in self.words]
        if self.bingo:
            parts.append(f"bingo {self.bingo}")
        if len(parts) == 1:
            return parts[0]
        return f"{' + '.join(parts)} = {self.total}"


def word_runs(
    board: Board, placements: Sequence[tuple[Square, str]], across: bool
) -> list[tuple[Square, bool, list[Square]]]:
    """The words (of two or more letters) that placing ``placements`` forms, main word first.

    The main word runs along ``across`` through the new tiles; each new tile may also form a cross-word
    in the other direction. The board is read as if the new tiles were on it; it is not changed.
    Each word is ``(start, across, squares)``.
    """
    new = dict(placements)
    variant = board.variant

    def filled(square: Square) -> bool:
        return square in new or board.occupied(square)

    def run(square: Square, run_across: bool) -> list[Square]:
        d_row, d_col = (0, 1) if run_across else (1, 0)
        row, col = square
        while variant.on_board((row - d_row, col - d_col)) and filled((row - d_row, col - d_col)):
            row, col = row - d_row, col - d_col
        squares = []
        while variant.on_board((row, col)) and filled((row, col)):
            squares.append((row, col))
            row, col = row + d_row, col + d_col
        return squares

    runs: list[tuple[Square, bool, list[Square]]] = []
    main = run(placements[0][0], across)
    if len(main) > 1:
        runs.append((main[0], across, main))
    for square, _ in placements:
        cross = run(square, not across)
        if len(cross) > 1:
            runs.append((cross[0], not across, cross))
    return runs


def score_placements(board: Board, placements: Sequence[tuple[Square, str]], across: bool) -> ScoreBreakdown:
    """Score new tiles placed in one line (direction ``across``) on ``board``, which is not changed.

    The placements must already be legal (see :mod:`scrabble_core.validation`); a play of the whole
    rack (``variant.rack_size`` tiles) earns ``variant.bingo_bonus``.
    """
    new: Mapping[Square, str] = dict(placements)
    variant = board.variant
    words = []
    for start, run_across, squares in word_runs(board, placements, across):
        if variant.scored_by_programs:
            words.append(_programmed_word(board, new, start, run_across, squares))
            continue
        letter_sum = 0
        word_multiplier = 1
        letters = []
        for square in squares:
            tile = new.get(square) or board[square]
            assert tile is not None
            letters.append(tile)
            if square in new:
                premium = variant.premium(square)
                letter_sum += variant.value(tile) * premium.letter_multiplier
                word_multiplier *= premium.word_multiplier
            else:
                letter_sum += variant.value(tile)
        words.append(WordScore(_readable("".join(letters)), start, run_across, letter_sum * word_multiplier))
    bingo = variant.bingo_bonus if len(placements) == variant.rack_size else 0
    return ScoreBreakdown(tuple(words), bingo)


def _programmed_word(
    board: Board, new: Mapping[Square, str], start: Square, across: bool, squares: list[Square]
) -> WordScore:
    """A word scored by the square programs under its letters (see :mod:`scrabble_core.board_programs`).

    Raises:
        ProgramError: a square program fails or runs past its limits on this word.
    """
    variant = board.variant
    programs = variant.programs
    assert programs is not None
    tiles = [new.get(square) or board[square] or "" for square in squares]
    # A square under a new tile is a real square of the board, so it has an id.
    ids = [programs.square_id(square) or 0 if square in new else programs.used_square for square in squares]
    word = "".join(tiles)
    points = tuple(variant.value(tile) for tile in tiles)
    letters = "".join(map(letter_of, word))
    return WordScore(_readable(word), start, across, programs.score_word(ids, letters, points))


def _readable(word: str) -> str:
    """``word`` as board characters write it, with each set tile as its letter."""
    return "".join(letter_of(ch) if is_set_tile(ch) else ch for ch in word) if has_set_tile(word) else word
