"""What every front end shows of a board: the window of squares drawn, how each square looks, how
coordinates are labelled, and how a tile reads.

The image (:mod:`bot.games.scrabble.images.board`), the terminal (:mod:`bot.console.terminal_board`), the
web board's state (:mod:`bot.web.state`) and ``/scrabble rules`` all take these from here, so a board
looks and reads alike everywhere:

- **Windows.** A finite board is shown whole. An infinite one is shown as the :class:`Window` around its
  tiles and its centre, :data:`VIEW_MARGIN` squares wider on each side and at least :data:`MIN_VIEW`
  squares each way: it grows as the game grows.
- **Squares.** A square of a layout, or of a board program whose square id is a letter or word
  multiplier the board knows (:class:`~scrabble_core.variant.Premium`), looks as that premium (``TW``,
  ``DL``...). A square whose programs are anything else is a *program square*, labelled ``P`` and its
  square id (``P4``); :func:`square_words` says what it does, in words where it can, else as its code.
- **Coordinates.** Columns ``A``... and rows ``1``... on a finite board; signed numbers on an infinite
  one, ``x`` along the top and ``y`` down the side (squares are named ``x,y``).
- **Tiles.** A letter tile shows its letter and points, a blank its letter and no points, a set tile
  (:mod:`scrabble_core.tiles`) on the board the letter chosen with that letter's points and the
  letters of its set, and on a rack each letter of its set with its points.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from dataclasses import dataclass
from typing import Final

from scrabble_core.board import Board, InfiniteBoard
from scrabble_core.squares import COLUMN_LETTERS, Square
from scrabble_core.tiles import is_set_tile, letter_of, rack_tile
from scrabble_core.variant import BLANK, Premium, Variant

VIEW_MARGIN: Final = 2
"""How many squares an infinite board's window shows beyond its tiles (and its centre) on each side."""
MIN_VIEW: Final = 11
"""The fewest squares an infinite board's window shows each way."""
MAX_VIEW: Final = 48
"""The most squares an infinite board's window shows each way: past it, the window is cut to this many
around the last move (an image of 48 squares a side is some 3,000 pixels wide)."""
VIEW_STEP: Final = 4
"""An infinite board's window grows by whole blocks of this many squares, so that it changes only now
and then as the game grows (each change redraws the whole image)."""
PREMIUM_LABELS: Final[dict[Premium, str]] = {
    Premium.DOUBLE_LETTER: "DL",
    Premium.TRIPLE_LETTER: "TL",
    Premium.QUADRUPLE_LETTER: "QL",
    Premium.DOUBLE_WORD: "DW",
    Premium.TRIPLE_WORD: "TW",
    Premium.QUADRUPLE_WORD: "QW",
}
"""How an empty premium square is labelled on every board."""
PROGRAM_LABEL: Final = "P"
"""What a program square's label starts with (then its square id)."""
_MAX_LABEL: Final = 3

_MULTIPLIER_WORDS: Final = {2: "double", 3: "triple", 4: "quadruple"}


@dataclass(frozen=True, slots=True)
class Window:
    """A rectangle of squares: ``rows`` rows from row ``top`` and ``cols`` columns from column ``left``
    (``signed``: the coordinates of an infinite board, labelled with signed numbers)."""

    top: int
    left: int
    rows: int
    cols: int
    signed: bool = False

    @property
    def bottom(self) -> int:
        """The last row."""
        return self.top + self.rows - 1

    @property
    def right(self) -> int:
        """The last column."""
        return self.left + self.cols - 1

    def __contains__(self, square: object) -> bool:
        match square:
            case (int(row), int(col)):
                return self.top <= row <= self.bottom and self.left <= col <= self.right
        return False

    def squares(self) -> Iterator[Square]:
        """Every square of the window, row by row."""
        for row in range(self.top, self.top + self.rows):
            for col in range(self.left, self.left + self.cols):
                yield row, col

    def column_label(self, col: int) -> str:
        """How column ``col`` is labelled: its letter (``H``), or on an infinite board its ``x``."""
        return str(col) if self.signed else COLUMN_LETTERS[col]

    def row_label(self, row: int) -> str:
        """How row ``row`` is labelled: its number from 1 (``8``), or on an infinite board its ``y``."""
        return str(row) if self.signed else str(row + 1)


def full_window(variant: Variant) -> Window:
    """The whole of a finite board."""
    return Window(0, 0, variant.rows, variant.cols)


def view_window(
    board: Board,
    focus: Collection[Square] = (),
    *,
    margin: int = VIEW_MARGIN,
    least: int = MIN_VIEW,
    most: int = MAX_VIEW,
    step: int = VIEW_STEP,
) -> Window:
    """The squares to show of ``board``: all of a finite board; on an infinite board its tiles and
    centre with ``margin`` squares more on each side, out to whole blocks of ``step`` squares (counted
    from the board's ``0,0``), widened evenly to at least ``least`` squares each way, and cut to at
    most ``most`` each way around the squares of ``focus`` (the last move; without it, around the
    middle)."""
    if not isinstance(board, InfiniteBoard):
        return full_window(board.variant)
    (top, left), (bottom, right) = board.bounds(margin)
    top, left = top - top % step, left - left % step
    bottom, right = bottom + (-bottom - 1) % step, right + (-right - 1) % step
    rows, cols = bottom - top + 1, right - left + 1
    if rows < least:
        top -= (least - rows) // 2
        rows = least
    if cols < least:
        left -= (least - cols) // 2
        cols = least
    top, rows = _cut(top, rows, [row for row, _ in focus], most)
    left, cols = _cut(left, cols, [col for _, col in focus], most)
    return Window(top, left, rows, cols, signed=True)


def _cut(first: int, size: int, focus: list[int], most: int) -> tuple[int, int]:
    """The ``most`` lines of the ``size`` from ``first`` centred on ``focus`` (or on their middle)
    as far as they reach, when there are more than ``most``."""
    if size <= most:
        return first, size
    middle = (min(focus) + max(focus)) // 2 if focus else first + size // 2
    return max(first, min(middle - most // 2, first + size - most)), most


@dataclass(frozen=True, slots=True)
class SquareLook:
    """How an empty square looks: the premium whose colour it takes, its label (``TW``, ``P4``, or
    empty for a plain square) and, for a program square, its square id."""

    premium: Premium
    label: str
    program: int | None = None


def square_look(variant: Variant, square: Square) -> SquareLook | None:
    """How ``square`` of ``variant`` looks, or ``None`` for a hole (or a square off a finite board).

    Raises:
        ProgramError: the board program fails on ``square`` (an infinite board computes it on demand).
    """
    programs = variant.programs
    if programs is None or not variant.infinite:
        row, col = square
        if not (0 <= row < variant.rows and 0 <= col < variant.cols):
            return None
        premium = variant.layout[row][col]
        if premium is None:
            return None
        if programs is None:
            return _premium_look(premium)
    square_id = programs.square_id(square)
    return None if square_id is None else _program_looks(variant)[square_id]


def _premium_look(premium: Premium) -> SquareLook:
    return SquareLook(premium, PREMIUM_LABELS.get(premium, ""))


_PROGRAM_LOOKS: dict[int, tuple[Variant, dict[int, SquareLook]]] = {}
""":func:`_program_looks` by the id of its variant (hashing a variant hashes its whole board, once per
square drawn), with the variant itself so that its id is not reused while it is kept."""
_PROGRAM_LOOKS_KEPT: Final = 32


def _program_looks(variant: Variant) -> dict[int, SquareLook]:
    """The look of each square id of a board written as a program."""
    cached = _PROGRAM_LOOKS.get(id(variant))
    if cached is not None and cached[0] is variant:
        return cached[1]
    if len(_PROGRAM_LOOKS) >= _PROGRAM_LOOKS_KEPT:
        _PROGRAM_LOOKS.clear()
    programs = variant.programs
    assert programs is not None
    looks: dict[int, SquareLook] = {}
    for index, kind in enumerate(programs.kinds, 1):
        premium = variant.programs_premium(kind.id)
        if programs.square_multipliers[kind.id] in {(premium.letter_multiplier, premium.word_multiplier)}:
            looks[kind.id] = _premium_look(premium)
        else:
            label = f"{PROGRAM_LABEL}{kind.id}"
            looks[kind.id] = SquareLook(
                Premium.PLAIN, label if len(label) <= _MAX_LABEL else f"{PROGRAM_LABEL}{index}", kind.id
            )
    _PROGRAM_LOOKS[id(variant)] = (variant, looks)
    return looks


@dataclass(frozen=True, slots=True)
class SquareRule:
    """What a square id of a board program does: its look, and in ``words`` what it scores (``None``
    when no words say it: ``code`` then holds its programs, one ``priority = program`` a line)."""

    square_id: int
    look: SquareLook
    words: str | None
    code: str


def square_rules(variant: Variant) -> list[SquareRule]:
    """What each square id of ``variant``'s board program does, in the order of the ids (none for a
    layout board)."""
    programs = variant.programs
    if programs is None:
        return []
    looks = _program_looks(variant)
    rules = []
    for kind in programs.kinds:
        multipliers = programs.square_multipliers[kind.id]
        code = "\n".join(f"{priority} = {' '.join(text.split())}" for priority, text in kind.programs)
        words = None if multipliers is None else multiplier_words(*multipliers)
        rules.append(SquareRule(kind.id, looks[kind.id], words, code))
    return rules


def multiplier_words(letter: int, word: int) -> str:
    """A letter and word multiplier in words: ``triple letter``, ``double word``, ``plain`` (neither),
    ``5× letter``, ``double letter and triple word``."""
    parts = [
        f"{_MULTIPLIER_WORDS.get(factor, f'{factor}×')} {what}"
        for factor, what in ((letter, "letter"), (word, "word"))
        if factor != 1
    ]
    return " and ".join(parts) or "plain"


def program_legend(variant: Variant) -> list[str]:
    """One line per program square id (a square that is not a plain multiplier): its label and what it
    does, in words or as its code on one line (``P4 (square 4): 0 = if (isVowel(...``)."""
    lines = []
    for rule in square_rules(variant):
        if rule.look.program is not None:
            what = rule.words or rule.code.replace("\n", "; ")
            lines.append(f"{rule.look.label} (square {rule.square_id}): {what}")
    return lines


@dataclass(frozen=True, slots=True)
class TileLook:
    """How a tile reads: the ``letter`` it shows (empty for a blank or a set tile on a rack), its
    ``value`` (``None``: a blank, worth nothing), and for a set tile the letters of its set with their
    points (``choices``)."""

    letter: str
    value: int | None
    choices: tuple[tuple[str, int], ...] = ()


def board_tile(variant: Variant, tile: str) -> TileLook:
    """How ``tile``, as the board holds it, reads: a letter tile, a blank (lowercase), or a set tile
    placed as a letter."""
    if is_set_tile(tile):
        tile_set = variant.tile_set(rack_tile(tile))
        assert tile_set is not None, tile
        letter = letter_of(tile)
        return TileLook(letter, tile_set.points[letter], tile_set.letters)
    if tile.islower():
        return TileLook(tile.upper(), None)
    return TileLook(tile, variant.value(tile))


def rack_look(variant: Variant, tile: str) -> TileLook:
    """How ``tile``, as a rack holds it (a letter, ``?`` a blank, a set's number), reads.

    Raises:
        ValueError: ``tile`` is none of those in ``variant``.
    """
    if tile == BLANK:
        return TileLook("", None)
    tile_set = variant.tile_set(tile)
    if tile_set is not None:
        return TileLook("", max(tile_set.points.values()), tile_set.letters)
    if not variant.is_letter(tile):
        raise ValueError(f"{tile!r} is not a tile of {variant.name} (use its letters and ?)")
    return TileLook(tile, variant.value(tile))
