"""Validation: whether a play is legal in a position, raising one typed error per broken rule.

The checks run in the order a player thinks of them: the notation fits the board, the squares are free,
the tiles are on the rack, the play is placed where the rules allow, and last the words are real.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence

from scrabble_core.board import Board
from scrabble_core.errors import (
    EmptySquareError,
    FirstMoveTooShortError,
    GapError,
    InvalidMoveError,
    NotConnectedError,
    NoTilesError,
    NotInLineError,
    OffBoardError,
    SquareOccupiedError,
    StartSquareError,
    TileNotOnRackError,
    UnknownWordsError,
)
from scrabble_core.lexicon import WordList
from scrabble_core.move import PLAYED_THROUGH, Play
from scrabble_core.scoring import ScoreBreakdown, score_placements, word_runs
from scrabble_core.squares import Square
from scrabble_core.tiles import letter_of, tile_text
from scrabble_core.variant import BLANK, Variant


def missing_tiles(rack: str, tiles: str) -> str:
    """The tiles of ``tiles`` that ``rack`` lacks (both written as racks, ``?`` for a blank), in order."""
    available = Counter(rack)
    missing = []
    for tile in tiles:
        if available[tile] > 0:
            available[tile] -= 1
        else:
            missing.append(tile)
    return "".join(missing)


def check_rack(rack: str, tiles: str) -> None:
    """Check that ``rack`` holds every tile of ``tiles``.

    Raises:
        TileNotOnRackError: names the tiles the rack lacks.
    """
    if missing := missing_tiles(rack, tiles):
        raise TileNotOnRackError(missing)


def check_play(
    board: Board, play: Play, *, rack: str | None = None, lexicon: WordList | None = None
) -> ScoreBreakdown:
    """Check that ``play`` is legal on ``board`` and return its score. Nothing is changed.

    ``rack`` (``?`` for blanks) is checked when given; words are looked up in ``lexicon`` when given
    (uppercase, blanks as their letter).

    Raises:
        InvalidMoveError: a letter outside the variant's alphabet.
        OffBoardError, SquareOccupiedError, EmptySquareError, NoTilesError, TileNotOnRackError,
        StartSquareError, FirstMoveTooShortError, NotConnectedError: the rule the play breaks.
        UnknownWordsError: listing every word formed that the lexicon lacks.
    """
    variant = board.variant
    for square in play.squares():
        check_on_board(variant, square)
    for square, letter in zip(play.squares(), play.letters, strict=True):
        tile = board[square]
        if letter == PLAYED_THROUGH:
            if tile is None:
                raise EmptySquareError(variant.square_name(square))
        elif tile is not None:
            raise SquareOccupiedError(variant.square_name(square), letter_of(tile))
        elif not variant.allows(letter):
            raise InvalidMoveError(f"{tile_text(letter)!r} is not a letter of this game")
    placements = play.placements()
    if not placements:
        raise NoTilesError
    if rack is not None:
        check_rack(rack, play.rack_tiles())
    squares = [square for square, _ in placements]
    if board.is_empty():
        if variant.start not in squares:
            raise StartSquareError(variant.square_name(variant.start))
        if len(placements) < 2:
            raise FirstMoveTooShortError
    elif len(placements) == len(play.letters) and not _touches(board, squares):
        raise NotConnectedError
    if lexicon is not None and (unknown := unknown_words(board, placements, play.across, lexicon)):
        raise UnknownWordsError(unknown)
    return score_placements(board, placements, play.across)


def canonical_play(board: Board, play: Play) -> Play:
    """The same play written as GCG records write it: the whole main word, ``.`` for tiles on the board.

    Tiles already on the board just before or after the written word are added to it, and a one-tile
    play is written in the direction where it forms a word (across when it forms words both ways). The
    play's squares must be on the board. A play that places no tile is returned as it is.
    """
    placements = play.placements()
    if not placements:
        return play
    across = play.across
    if len(placements) == 1:
        (row, col), _ = placements[0]
        along = board.occupied((row, col - 1)) or board.occupied((row, col + 1))
        down = board.occupied((row - 1, col)) or board.occupied((row + 1, col))
        across = along or not down
    runs = word_runs(board, placements, across)
    main = runs[0][2] if runs and runs[0][1] == across else [sq for sq, _ in placements]
    new = dict(placements)
    letters = "".join(new.get(square, PLAYED_THROUGH) for square in main)
    row, col = main[0]
    return Play(row, col, across, letters)


def play_from_tiles(board: Board, placements: Iterable[tuple[Square, str]]) -> Play:
    """Build the play that puts ``placements`` (square, tile) on ``board``, in canonical notation.

    Raises:
        NoTilesError: no placement.
        OffBoardError: a square outside the board or on a hole.
        SquareOccupiedError: a square that already holds a tile.
        NotInLineError: the squares are not in one row or one column.
        GapError: an empty square between the new tiles.
        InvalidMoveError: two tiles on one square.
    """
    tiles = sorted(placements)
    if not tiles:
        raise NoTilesError
    for (square, _), (next_square, _) in itertools.pairwise(tiles):
        if square == next_square:
            raise InvalidMoveError(f"two tiles on {_name(board.variant, square)}")
    for square, _ in tiles:
        check_on_board(board.variant, square)
        if (tile := board[square]) is not None:
            raise SquareOccupiedError(board.variant.square_name(square), letter_of(tile))
    rows = {square[0] for square, _ in tiles}
    cols = {square[1] for square, _ in tiles}
    if len(rows) > 1 and len(cols) > 1:
        raise NotInLineError
    across = len(rows) == 1
    (first_row, first_col), _ = tiles[0]
    (last_row, last_col), _ = tiles[-1]
    new = dict(tiles)
    letters = []
    for i in range((last_col - first_col) if across else (last_row - first_row)):
        square = (first_row, first_col + i) if across else (first_row + i, first_col)
        if square in new:
            letters.append(new[square])
        elif board.occupied(square):
            letters.append(PLAYED_THROUGH)
        else:
            raise GapError(board.variant.square_name(square))
    letters.append(tiles[-1][1])
    return canonical_play(board, Play(first_row, first_col, across, "".join(letters)))


def _touches(board: Board, squares: list[Square]) -> bool:
    return any(
        board.occupied((row + d_row, col + d_col))
        for row, col in squares
        for d_row, d_col in ((-1, 0), (1, 0), (0, -1), (0, 1))
    )


def formed_words(board: Board, placements: Sequence[tuple[Square, str]], across: bool) -> list[str]:
    """The words (uppercase, blanks as their letter, each once, main word first) that ``placements``
    would form on ``board``."""
    new = dict(placements)
    words: list[str] = []
    for _, _, squares in word_runs(board, placements, across):
        word = "".join(letter_of(new.get(square) or board[square] or "") for square in squares)
        if word not in words:
            words.append(word)
    return words


def unknown_words(
    board: Board, placements: Sequence[tuple[Square, str]], across: bool, lexicon: WordList
) -> list[str]:
    """The words (uppercase, each once, main word first) that ``placements`` would form on ``board``
    and that ``lexicon`` lacks."""
    return [word for word in formed_words(board, placements, across) if word not in lexicon]


def check_on_board(variant: Variant, square: Square) -> None:
    """Check that a tile can stand on ``square``.

    Raises:
        OffBoardError: the square is outside the board, or a hole of it.
    """
    if not variant.on_board(square):
        row, col = square
        inside = variant.infinite or (0 <= row < variant.rows and 0 <= col < variant.cols)
        raise OffBoardError(_name(variant, square), hole=inside)


def remove_tiles(rack: str, tiles: str) -> str:
    """``rack`` without ``tiles`` (both written as racks; ``rack`` must hold every tile of ``tiles``)."""
    for tile in tiles:
        rack = rack.replace(tile, "", 1)
    return rack


def _name(variant: Variant, square: Square) -> str:
    """A square's name, even for squares just off a finite board (written with their row and column)."""
    row, col = square
    if variant.infinite or (row >= 0 and 0 <= col < 25):
        return variant.square_name(square)
    return f"row {row + 1}, column {col + 1}"


__all__ = [
    "BLANK",
    "canonical_play",
    "check_on_board",
    "check_play",
    "check_rack",
    "formed_words",
    "missing_tiles",
    "play_from_tiles",
    "remove_tiles",
    "unknown_words",
]
