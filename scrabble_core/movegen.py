"""Move generation: every legal play of a rack on a board, and the best ones without listing them all.

A :class:`MoveGenerator` is built once per lexicon (:func:`load_move_generator`) and then serves any
board of any variant whose letters are in the lexicon's alphabet: 15x15, 21x21, custom boards with
holes.

Algorithm. Both directions of the board are laid end to end as one array of squares, each line
followed by a sentinel (a hole is a sentinel too). For every empty square the letters that would make
a valid cross-word there are one bit mask (cached per generator by the letters above and below), and
the points of that cross-word, premiums and tiles already on the board are stored per square. A play
is then a word read along a line from a *start* (a square whose predecessor holds no tile) that places
tiles on empty squares and reaches the first *anchor* at or after the start (a tile, or an empty square
with a cross-word; on an empty board, the start square). The search walks the DAWG of
:mod:`scrabble_core.dawg` from each start, trying only the rack's letters (every letter the square
allows for a blank), and scores incrementally as it goes. Before the anchor, the DAWG's lookahead masks
cut a branch as soon as no word from it can put an allowed letter on the anchor.

A move is identified by its placements: a one-tile play is found once (in the direction where it forms
a word, across when it forms both, as :func:`scrabble_core.validation.canonical_play` writes it), and
each letter a blank stands for is its own move.

Native core. The same search is also written in C (``scrabble_core/_movegen.c``, an optional extension
built at install where a compiler is available): it analyses the board, walks the same DAWG table and
returns the same moves in the same order with the same scores, several times faster. A generator uses
it when it is built, unless ``SCRABBLE_PURE_PYTHON=1`` is set (:mod:`scrabble_core.native` chooses); a
variant whose scores could overflow its 64-bit arithmetic, or a rack of more than 64 tiles, is searched
in Python.

Best moves. :meth:`MoveGenerator.best` and :meth:`MoveGenerator.top` search with a bound: for each start
and number of tiles the squares covered are fixed, so the highest score any word there can make is the
rack's tile values sorted against the squares' multipliers sorted (plus the fixed part: tiles already
there, cross-words, the bingo), plus the best leave value of that many tiles. Starts are searched from
the highest bound down, and a branch stops as soon as its bound cannot beat the moves kept.
"""

from __future__ import annotations

import functools
import heapq
import itertools
import math
import threading
from array import array
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from operator import mul
from pathlib import Path
from typing import TYPE_CHECKING, Final

from scrabble_core.board import Board, InfiniteBoard
from scrabble_core.dawg import LOOKAHEAD, Dawg, load_dawg
from scrabble_core.errors import InvalidMoveError, ScrabbleError
from scrabble_core.leaves import LeaveModel, NativeLeaveTable
from scrabble_core.lexicon import Lexicon
from scrabble_core.move import Play
from scrabble_core.native import import_native, native_core
from scrabble_core.scoring import score_placements, word_runs
from scrabble_core.squares import Square
from scrabble_core.tiles import is_set_tile, letter_of, set_tile
from scrabble_core.validation import remove_tiles
from scrabble_core.variant import BLANK, Premium, Variant

if TYPE_CHECKING:
    from scrabble_core._movegen import Graph

LeaveValue = Callable[[str], float]
"""The value of keeping ``leave`` (tiles as a rack, ``?`` for blanks) after a play, for :meth:`best`.
A :class:`~scrabble_core.leaves.LeaveModel` is one, evaluated by the native core for a whole rack at
once."""

_SENTINEL: Final = -2
_EMPTY: Final = -1
_POSITION_CACHE_SIZE: Final = 8
_CROSS_CACHE_SIZE: Final = 100_000
_RACK_CACHE_SIZE: Final = 256

# What the native core accepts (see _movegen.c): racks of up to 64 tiles and 2**20 leaves; scores
# that stay exact in a double (the bounds are doubles).
_NATIVE_MAX_RACK: Final = 64
_NATIVE_MAX_SIDE: Final = 63
_WINDOW_BLOCK: Final = 4
# A square's letter and word multipliers as the native core reads them (word multiplier 0 for a hole),
# and its word multiplier for the bound on scores (1 for a hole), keyed by the identity of the square's
# premium (or None): an enum member hashes in Python, its id at C speed, and a window's layout has
# thousands of squares.
_NATIVE_PREMIUMS_BY_ID: Final[Mapping[int, tuple[int, int]]] = {
    id(None): (1, 0),
    **{id(premium): (premium.letter_multiplier, premium.word_multiplier) for premium in Premium},
}
_NATIVE_WORD_BY_ID: Final[Mapping[int, int]] = {
    id(None): 1,
    **{id(premium): premium.word_multiplier for premium in Premium},
}
_NATIVE_MAX_LEAVES: Final = 1 << 20
_NATIVE_MAX_SCORE: Final = 1 << 52
_NATIVE_BLANK: Final = 64
_NATIVE_EMPTY: Final = 255

# A run of tiles on the board: (letter indexes, sum of their values, "." per tile, position after it).
_Run = tuple[tuple[int, ...], int, str, int]
# A start: (position, the word must end after this position, first anchor, its letter mask, fewest
# tiles a play from here places).
_Start = tuple[int, int, int, int, int]
# A window of a start: (tiles placed, fixed points, multipliers of the tiles' values, highest first).
_Window = tuple[int, int, list[int]]
# A play found: (start position, GCG letters, score, key of the tiles used).
_Found = tuple[int, str, int, int]


@dataclass(frozen=True, slots=True)
class GeneratedMove:
    """A legal play with its score and the tiles it leaves on the rack.

    Attributes:
        play: the play in canonical GCG notation (as :func:`~scrabble_core.validation.canonical_play`
            writes it: the whole main word, ``.`` for tiles on the board, blanks lowercase).
        score: its points, bingo included, as :func:`~scrabble_core.validation.check_play` counts them.
        leave: the rack's tiles it does not use: letters in the lexicon's alphabet order, then ``?``
            for each blank kept.
    """

    play: Play
    score: int
    leave: str


@dataclass(frozen=True, slots=True)
class NativeBoard:
    """A board as the native searches (:mod:`scrabble_core.simulation`, :mod:`scrabble_core.endgame`)
    take it: the generator's DAWG in the native core, the variant's layout and rules, the squares.

    Attributes:
        graph: the DAWG in the native core.
        geometry: the variant's layout, letter values and rules (see ``_movegen.c``).
        squares: the board's squares row by row, one code each (``_movegen.c``'s codes).
        codes: the code of each tile: a letter's index in the lexicon's alphabet, 64 for a blank.
    """

    graph: Graph
    geometry: tuple[int, int, bytes, tuple[int, ...], int, int, int, int]
    squares: bytes
    codes: Mapping[str, int]

    def tiles(self, rack: str) -> bytes:
        """``rack``'s tiles as codes, in its order."""
        codes = self.codes
        return bytes(codes[tile] for tile in rack)


@dataclass(slots=True, eq=False)
class _Position:
    """A board analysed for the search: both directions' lines end to end, indexed by position.

    ``tile`` is a letter index, ``_EMPTY`` or ``_SENTINEL``; ``xmask`` the letters an empty square
    allows (0 on tiles and sentinels); ``cross``/``cross_base`` whether a placed tile forms a
    cross-word and the points of that word's tiles already on the board; ``runs[p]`` the run of tiles
    starting at ``p``; ``single_skip`` marks the squares of down lines where a one-tile play is listed
    with the across lines; ``origin`` maps a position to ``(row, col, across)``.
    """

    tile: list[int]
    tile_value: list[int]
    xmask: list[int]
    cross: list[bool]
    cross_base: list[int]
    letter_mult: list[int]
    word_mult: list[int]
    runs: list[_Run | None]
    single_skip: list[bool]
    origin: list[tuple[int, int, bool]]
    starts: list[_Start]
    windows: dict[int, list[list[_Window]]] = field(default_factory=dict)


class _Leaves(dict[int, str]):
    """The leave of each key of tiles used (see :class:`_Rack`), written as :attr:`GeneratedMove.leave`
    and computed on first use.

    ``symbols`` are the rack's distinct tiles (letters in the alphabet's order, then ``?``),
    ``available`` how many of each the rack holds; a key holds, for each symbol ``k``, the number used
    in bits ``k * width`` and up.
    """

    def __init__(self, symbols: list[str], available: list[int], width: int) -> None:
        super().__init__()
        self.symbols = symbols
        self.available = available
        self.width = width

    def __missing__(self, key: int) -> str:
        field = (1 << self.width) - 1
        leave = "".join(
            symbol * (count - ((key >> (self.width * k)) & field))
            for k, (symbol, count) in enumerate(zip(self.symbols, self.available, strict=True))
        )
        self[key] = leave
        return leave

    def every_leave(self) -> list[str]:
        """The leave of every key of :meth:`every_key`, in the same order."""
        leaves = [""]
        for symbol, count in zip(self.symbols, self.available, strict=True):
            leaves = [leave + symbol * (count - used) for leave in leaves for used in range(count + 1)]
        return leaves

    def every_key(self) -> Iterator[tuple[int, int]]:
        """``(key, tiles used)`` for every sub-multiset of the rack."""
        for used in itertools.product(*(range(count + 1) for count in self.available)):
            yield sum(n << (self.width * k) for k, n in enumerate(used)), sum(used)


@dataclass(slots=True, eq=False)
class _Rack:
    """A rack prepared for the search: counts per letter index, blanks, and the key of each leave.

    The tiles used by a play are summed into an integer key (``weights[letter]`` or ``blank_weight``
    per tile), and ``leaves`` maps each key to the leave.
    """

    size: int
    counts: list[int]
    mask: int
    blanks: int
    values: list[int]
    weights: list[int]
    blank_weight: int
    leaves: _Leaves
    native: tuple[bytes, list[str]] | None = None

    def native_tiles(self) -> tuple[bytes, list[str]]:
        """The rack for the native core: its tiles as letter indexes (``_NATIVE_BLANK`` for a blank),
        and every leave in the order of :meth:`_Leaves.every_key`; computed on first use."""
        if self.native is None:
            tiles = bytes(i for i, n in enumerate(self.counts) for _ in range(n))
            self.native = (tiles + bytes([_NATIVE_BLANK] * self.blanks), self.leaves.every_leave())
        return self.native

    def fits_native(self) -> bool:
        """Whether the native core takes this rack (at most 64 tiles and 2**20 leaves)."""
        return self.size <= _NATIVE_MAX_RACK and math.prod(n + 1 for n in self.leaves.available) <= (
            _NATIVE_MAX_LEAVES
        )


class MoveGenerator:
    """Finds the legal plays of a rack on a board, for one lexicon (see the module docstring).

    Reusable for any board of any variant whose letters all belong to the lexicon's alphabet; it keeps
    a small cache of the last boards and racks analysed and of the cross-word masks, so calls on the
    same board (several racks, or :meth:`generate` then :meth:`best`) are cheaper. Safe to call from
    several threads at once (the searches hold the GIL, so this does not make them faster).

    Attributes:
        lexicon: the words plays must form.
        dawg: the lexicon's word graph the search walks.
    """

    __slots__ = ("_cross_cache", "_lock", "_native", "_positions", "_racks", "_windows", "dawg", "lexicon")

    def __init__(self, lexicon: Lexicon, dawg: Dawg, *, native: bool | None = None) -> None:
        """Use ``dawg``, which must be the DAWG of ``lexicon`` (see :func:`load_move_generator`).

        ``native``: ``None`` to search with the native core when it is available (see the module
        docstring), ``False`` to always search in Python, ``True`` to require the native core.

        Raises:
            ScrabbleError: ``native`` is ``True`` and the native core is not available.
        """
        self.lexicon = lexicon
        self.dawg = dawg
        graph = native_core() if native is None else import_native() if native else None
        if native and graph is None:
            raise ScrabbleError("the native move generator is not built (no C compiler at install?)")
        self._native = _NativeSearch(graph, dawg) if graph is not None else None
        self._cross_cache: dict[tuple[str, str], int] = {}
        self._positions: dict[tuple[int, tuple[str, ...]], tuple[Variant, _Position]] = {}
        self._racks: dict[tuple[int, str], tuple[Variant, _Rack]] = {}
        self._windows: dict[tuple[int, tuple[Square, Square]], tuple[Variant, Variant]] = {}
        self._lock = threading.Lock()  # guards the eviction of the board and rack caches

    @property
    def native(self) -> bool:
        """Whether the searches run in the native core."""
        return self._native is not None

    def generate(self, board: Board, rack: str) -> list[GeneratedMove]:
        """Every legal play of ``rack`` on ``board``, highest score first (ties in search order).

        ``rack`` holds the player's tiles, uppercase letters and ``?`` for a blank. Each move is
        accepted by :func:`~scrabble_core.validation.check_play` with this rack and lexicon and scores
        the same. Exchanges and passes are not listed.

        Raises:
            InvalidMoveError: the rack holds a character that is neither a letter of the variant nor
                ``?``.
            ScrabbleError: the variant has letters outside the lexicon's alphabet.
            ProgramError: a square program of the variant fails on a word formed.
        """
        variant = board.variant
        if variant.tile_sets and any(tile in variant.set_symbols for tile in rack):
            return self._with_sets(board, rack, 0, None)
        if variant.infinite:
            return self._windowed(board, rack, 0, None)
        if variant.scored_by_programs:
            return self._programmed(board, rack, 0, None)
        return self._generate(board, rack)

    def _generate(self, board: Board, rack: str) -> list[GeneratedMove]:
        """:meth:`generate` scored with the layout's premiums."""
        native = self._native_search(board.variant, _board_squares(board), rack, 0, None)
        if native is not None:
            return native
        position = self._position(board)
        prepared = self._rack(board.variant, rack)
        found: list[_Found] = []
        unbounded = [math.inf] * (prepared.size + 1)
        _walk(
            self.dawg,
            board.variant,
            position,
            prepared,
            [(start, unbounded) for start in position.starts if start[4] <= prepared.size],
            found.append,
            [-math.inf],
        )
        moves = _moves(position, prepared, found)
        moves.sort(key=_score, reverse=True)
        return moves

    def best(self, board: Board, rack: str, leave_value: LeaveValue | None = None) -> GeneratedMove | None:
        """The play of highest score, or of highest ``score + leave_value(leave)`` when a leave
        valuation is given; ``None`` when the rack has no legal play. Among equal values, one of them.

        Much faster than :meth:`generate` (see the module docstring). ``leave_value`` is called once per
        distinct leave of the rack (at most 128 times for 7 tiles), before the search.

        Raises:
            InvalidMoveError, ScrabbleError: as :meth:`generate`.
        """
        moves = self.top(board, rack, 1, leave_value)
        return moves[0] if moves else None

    def top(
        self, board: Board, rack: str, count: int, leave_value: LeaveValue | None = None
    ) -> list[GeneratedMove]:
        """The ``count`` plays of highest value (score, plus ``leave_value(leave)`` if given), highest
        first; fewer if the rack has fewer legal plays. Which of several plays of equal value make the
        cut at the bottom is unspecified.

        Raises:
            ValueError: ``count`` is less than 1.
            InvalidMoveError, ScrabbleError: as :meth:`generate`.
        """
        if count < 1:
            raise ValueError(f"count must be at least 1, not {count}")
        variant = board.variant
        if variant.tile_sets and any(tile in variant.set_symbols for tile in rack):
            return self._with_sets(board, rack, count, leave_value)
        if board.variant.infinite:
            return self._windowed(board, rack, count, leave_value)
        if board.variant.scored_by_programs:
            return self._programmed(board, rack, count, leave_value)
        native = self._native_search(board.variant, _board_squares(board), rack, count, leave_value)
        if native is not None:
            return native
        position = self._position(board)
        prepared = self._rack(board.variant, rack)
        bonus, best_leave = _leave_bonuses(prepared, leave_value)
        starts = _bounded_starts(board.variant, position, prepared, best_leave)
        limit = [-math.inf]
        kept: list[tuple[float, int, _Found]] = []
        order = itertools.count()

        def keep(record: _Found) -> None:
            value = record[2] + bonus[record[3]]
            if value > limit[0]:
                heapq.heappush(kept, (value, -next(order), record))
                if len(kept) > count:
                    heapq.heappop(kept)
                if len(kept) == count:
                    limit[0] = kept[0][0]

        _walk(self.dawg, board.variant, position, prepared, starts, keep, limit)
        kept.sort(reverse=True)
        return _moves(position, prepared, [record for _, _, record in kept])

    def _with_sets(
        self, board: Board, rack: str, count: int, leave_value: LeaveValue | None
    ) -> list[GeneratedMove]:
        """:meth:`generate` (``count`` 0) or :meth:`top` of a rack holding set tiles.

        For every way the rack's set tiles can stand for letters of their sets, the rack is searched (with
        either core) with each set tile as a letter tile of its letter; each play found is kept once for
        every way its letters can be the rack's letter tiles and those set tiles (a set tile stands only
        where it was given its letter), with its score (a set tile counts its letter's points in its set)
        and its leave (set tiles' numbers before the blanks). A play that uses a set tile as a letter is
        found in the search where the set tile was given that letter, so none is missed.
        """
        variant = board.variant
        symbols = variant.set_symbols
        held = [tile for tile in rack if tile in symbols]
        plain = "".join(tile for tile in rack if tile not in symbols)
        regular = Counter(plain)
        order = {tile: k for k, tile in enumerate([*self.dawg.alphabet, *symbols, BLANK])}

        @functools.cache
        def leave_of(used: str) -> str:
            return "".join(sorted(remove_tiles(rack, used), key=order.__getitem__))

        seen: set[tuple[int, int, bool, str]] = set()
        moves = []
        sets = [variant.tile_set(symbol) for symbol in held]
        for chosen in itertools.product(*(tile_set.points for tile_set in sets if tile_set is not None)):
            standing: dict[str, list[str]] = {}
            for symbol, letter in zip(held, chosen, strict=True):
                standing.setdefault(letter, []).append(symbol)
            given = "".join(chosen)

            @functools.cache
            def kept(leave: str, given: str = given) -> str:
                """The leave of a play that uses none of the set tiles: the search's leave with them back."""
                return "".join(sorted(remove_tiles(leave, given) + "".join(held), key=order.__getitem__))

            for move in self.generate(board, plain + given):
                play = move.play
                if not any(letter in standing for letter in play.letters):
                    key = (play.row, play.col, play.across, play.letters)
                    if key not in seen:
                        seen.add(key)
                        moves.append(GeneratedMove(play, move.score, kept(move.leave)))
                    continue
                factors: list[int] | None = None
                for letters in _set_choices(play.letters, regular, standing):
                    key = (play.row, play.col, play.across, letters)
                    if key in seen:
                        continue
                    seen.add(key)
                    placed = Play(play.row, play.col, play.across, letters)
                    if variant.scored_by_programs:
                        score = score_placements(board, placed.placements(), placed.across).total
                    else:
                        extra = [
                            (i, variant.value(letter) - variant.value(play.letters[i]))
                            for i, letter in enumerate(letters)
                            if is_set_tile(letter)
                        ]
                        if any(difference for _, difference in extra) and factors is None:
                            factors = _letter_factors(board, play)
                        score = move.score + sum(
                            difference * factors[i] for i, difference in extra if difference and factors
                        )
                    moves.append(GeneratedMove(placed, score, leave_of(placed.rack_tiles())))
        if leave_value is None or not count:
            moves.sort(key=_score, reverse=True)
        else:
            values = functools.cache(leave_value)
            moves.sort(key=lambda move: move.score + values(move.leave), reverse=True)
        return moves[:count] if count else moves

    def _windowed(
        self, board: Board, rack: str, count: int, leave_value: LeaveValue | None
    ) -> list[GeneratedMove]:
        """:meth:`generate` (``count`` 0) or :meth:`top` on an infinite board: searched on the finite
        window of the squares a play can reach (:meth:`_window`), with either core, and the plays
        moved back to the board's coordinates (and scored again by the programs where the board is
        scored by them)."""
        assert isinstance(board, InfiniteBoard)
        variant = board.variant
        framed, (top, left) = self._window(board)
        native = None
        if not variant.scored_by_programs:
            squares = functools.partial(_window_squares, board, framed, (top, left))
            native = self._native_search(framed, squares, rack, count, leave_value)
        if native is not None:
            moves = native
        else:
            window = Board(framed)
            window.place(board.tiles_from((top, left)))
            if variant.scored_by_programs:
                moves = self._generate(window, rack)
            elif count:
                moves = self.top(window, rack, count, leave_value)
            else:
                moves = self.generate(window, rack)
        moved = [
            GeneratedMove(
                Play(move.play.row + top, move.play.col + left, move.play.across, move.play.letters),
                move.score,
                move.leave,
            )
            for move in moves
        ]
        if not variant.scored_by_programs:
            return moved
        return self._rescored(board, moved, count, leave_value)

    def _window(self, board: InfiniteBoard) -> tuple[Variant, Square]:
        """The finite variant every play of a rack on ``board`` fits in, and its top left square on
        ``board``.

        A play places at most ``rack_size`` tiles in a line through or beside the tiles already there
        (or through the start), so it stays within ``rack_size`` squares of the rectangle around them:
        the window is that rectangle widened by ``rack_size`` on each side and out to whole blocks of
        :data:`_WINDOW_BLOCK` squares, its squares' premiums and holes those of the board's
        (:func:`window_variant`, kept while the window stays the same).
        Every play of the window, moved by the corner, is a play of the board with the same words (and,
        on a board of multipliers, the same score), and the other way round.
        """
        variant = board.variant
        (top, left), (bottom, right) = board.bounds(variant.rack_size)
        # Out to whole blocks of squares, so that the window changes only now and then as the tiles spread.
        corners = (
            (top - top % _WINDOW_BLOCK, left - left % _WINDOW_BLOCK),
            (
                bottom - bottom % _WINDOW_BLOCK + _WINDOW_BLOCK - 1,
                right - right % _WINDOW_BLOCK + _WINDOW_BLOCK - 1,
            ),
        )
        key = (id(variant), corners)
        cached = self._windows.get(key)
        if cached is None or cached[0] is not variant:
            if len(self._windows) >= _POSITION_CACHE_SIZE:
                self._windows.clear()
            cached = self._windows[key] = (variant, window_variant(variant, *corners))
        return cached[1], corners[0]

    def _programmed(
        self, board: Board, rack: str, count: int, leave_value: LeaveValue | None
    ) -> list[GeneratedMove]:
        """:meth:`generate` (``count`` 0) or :meth:`top` on a board scored by its square programs: every
        play the search finds on the layout, scored again by the programs (which no bound can cut)."""
        return self._rescored(board, self._generate(board, rack), count, leave_value)

    @staticmethod
    def _rescored(
        board: Board, found: list[GeneratedMove], count: int, leave_value: LeaveValue | None
    ) -> list[GeneratedMove]:
        """``found`` scored again on ``board`` (by its square programs), highest first: all of them
        (``count`` 0) or the ``count`` of highest score plus ``leave_value``."""
        moves = [
            GeneratedMove(
                move.play,
                score_placements(board, move.play.placements(), move.play.across).total,
                move.leave,
            )
            for move in found
        ]
        if not count:
            moves.sort(key=_score, reverse=True)
            return moves
        values = functools.cache(leave_value or (lambda leave: 0.0))
        moves.sort(key=lambda move: move.score + values(move.leave), reverse=True)
        return moves[:count]

    def clear_cache(self) -> None:
        """Forget the boards analysed, the racks prepared and the cross-word masks (all are rebuilt on
        demand)."""
        with self._lock:
            self._positions.clear()
            self._racks.clear()
            self._windows.clear()
        self._cross_cache.clear()

    def native_board(self, board: Board) -> NativeBoard | None:
        """``board`` as the native searches take it, with this generator's DAWG; ``None`` when the
        searches do not run in the native core or it does not take the variant.

        The native searches play on a fixed layout of multipliers with letter and blank tiles: a board
        that is infinite, scored by square programs or with letter-set tiles is searched in Python (the
        native move generator still serves those searches, through :meth:`generate` and :meth:`top`).

        Raises:
            ScrabbleError: the variant has letters outside the lexicon's alphabet.
        """
        native = self._native
        variant = board.variant
        if native is None or variant.infinite or variant.scored_by_programs or variant.tile_sets:
            return None
        self._check_alphabet(variant)
        geometry = native.geometry(variant)
        if geometry is None:
            return None
        return NativeBoard(native.graph, geometry, native.squares(board), native.tile_codes)

    def _native_search(
        self,
        variant: Variant,
        squares: Callable[[Mapping[int, int]], bytes],
        rack: str,
        count: int,
        leave_value: LeaveValue | None,
    ) -> list[GeneratedMove] | None:
        """:meth:`generate` (``count`` 0) or :meth:`top` in the native core, on the board of ``variant``
        whose squares, in the core's codes, ``squares`` gives; ``None`` when the core is not in use or
        does not take this variant or rack.

        Raises:
            InvalidMoveError, ScrabbleError: as :meth:`generate`.
        """
        native = self._native
        if native is None:
            return None
        self._check_alphabet(variant)
        geometry = native.geometry(variant)
        codes = native.codes(variant)
        prepared = self._rack(variant, rack)
        if geometry is None or codes is None or not prepared.fits_native():
            return None
        tiles, leaves = prepared.native_tiles()
        if leave_value is None or not count:
            bonus = None
        elif isinstance(leave_value, LeaveModel):
            bonus = native.leave_values(leave_value.native_table, leaves)
        else:
            bonus = [leave_value(leave) for leave in leaves]
        return native.search(geometry, squares(codes), tiles, leaves, count, bonus)

    def _check_alphabet(self, variant: Variant) -> None:
        """Raises ScrabbleError if the variant has letters outside the lexicon's alphabet."""
        missing = [letter for letter in variant.alphabet if letter not in self.dawg.alphabet]
        if missing:
            raise ScrabbleError(
                f"the {variant.name} tiles have letters the lexicon {self.lexicon.name} lacks: "
                f"{''.join(missing)}"
            )

    def _rack(self, variant: Variant, rack: str) -> _Rack:
        """Check ``rack`` against ``variant`` and prepare it for the search, or take it from the cache.

        Raises:
            InvalidMoveError: a character is neither a letter of the variant nor ``?``.
        """
        key = (id(variant), rack)
        cached = self._racks.get(key)
        if cached is not None and cached[0] is variant:
            return cached[1]
        prepared = _prepare_rack(self.dawg.alphabet, variant, rack)
        with self._lock:
            if len(self._racks) >= _RACK_CACHE_SIZE:
                self._racks.clear()
            self._racks[key] = (variant, prepared)
        return prepared

    def _position(self, board: Board) -> _Position:
        """The analysis of ``board``, from the cache when the same variant held the same tiles.

        Raises:
            ScrabbleError: the variant has letters outside the lexicon's alphabet.
        """
        variant = board.variant
        rows = tuple(board.rows_text())
        key = (id(variant), rows)
        cached = self._positions.get(key)
        if cached is not None and cached[0] is variant:
            return cached[1]
        self._check_alphabet(variant)
        # Single reads and writes of a dict are atomic: the cross-word cache needs no lock.
        if len(self._cross_cache) > _CROSS_CACHE_SIZE:
            self._cross_cache.clear()
        position = _analyse(self.dawg, variant, rows, self._cross_cache)
        with self._lock:
            if len(self._positions) >= _POSITION_CACHE_SIZE:
                del self._positions[next(iter(self._positions))]
            self._positions[key] = (variant, position)
        return position


def _prepare_rack(alphabet: str, variant: Variant, rack: str) -> _Rack:
    """Check ``rack`` against ``variant`` and lay it out for the search over ``alphabet``.

    Raises:
        InvalidMoveError: a character is neither a letter of the variant (and the alphabet) nor ``?``.
    """
    index = {letter: i for i, letter in enumerate(alphabet)}
    counts = [0] * len(alphabet)
    blanks = 0
    for tile in rack:
        if tile == BLANK:
            blanks += 1
        elif variant.is_letter(tile) and tile in index:
            counts[index[tile]] += 1
        else:
            raise InvalidMoveError(
                f"{tile!r} is not a tile of this game: a rack holds the letters "
                f"{variant.alphabet} and {BLANK} for a blank"
            )
    # Each distinct tile gets a field wide enough to count all the rack's tiles.
    width = len(rack).bit_length()
    tiles = [i for i, n in enumerate(counts) if n] + ([len(alphabet)] if blanks else [])
    weight = {tile: 1 << (width * k) for k, tile in enumerate(tiles)}
    symbols = [alphabet[tile] if tile < len(alphabet) else BLANK for tile in tiles]
    available = [[*counts, blanks][tile] for tile in tiles]
    return _Rack(
        size=len(rack),
        counts=counts,
        mask=sum(1 << i for i, n in enumerate(counts) if n),
        blanks=blanks,
        values=[variant.value(letter) if variant.is_letter(letter) else 0 for letter in alphabet],
        weights=[weight.get(i, 0) for i in range(len(alphabet))],
        blank_weight=weight.get(len(alphabet), 0),
        leaves=_Leaves(symbols, available, width),
    )


# The native core's view of a variant: (rows, cols, letter and word multiplier per square with word
# multiplier 0 for a hole, letter values by alphabet index, mask of the variant's letters, start
# square, bingo bonus, rack size), as _movegen.c's Graph.search takes it.
_Geometry = tuple[int, int, bytes, tuple[int, ...], int, int, int, int]


class _NativeSearch:
    """The native core's copy of one DAWG, with what it needs of each variant (cached)."""

    __slots__ = ("_codes", "_geometries", "_index", "_leave_values", "_set_codes", "graph", "tile_codes")

    def __init__(self, graph: type[Graph], dawg: Dawg) -> None:
        from scrabble_core._movegen import leave_values  # built with the graph

        self._leave_values = leave_values
        alphabet = dawg.alphabet
        self.graph = graph(array("i" if len(alphabet) <= 31 else "q", dawg.table), alphabet)
        self._index = {letter: i for i, letter in enumerate(alphabet)}
        self.tile_codes = {**self._index, BLANK: _NATIVE_BLANK}
        # Board text to the core's square codes: a letter, a blank (lowercase), empty (or a hole).
        codes = {ord(letter): i for i, letter in enumerate(alphabet)}
        codes.update({ord(letter.lower()): _NATIVE_BLANK + i for i, letter in enumerate(alphabet)})
        codes.update({ord("."): _NATIVE_EMPTY, ord("#"): _NATIVE_EMPTY})
        self._codes = codes
        self._geometries: dict[int, tuple[Variant, _Geometry | None]] = {}
        self._set_codes: dict[int, tuple[Variant, dict[int, int] | None]] = {}

    def geometry(self, variant: Variant) -> _Geometry | None:
        """The layout, values and rules of ``variant`` for the core, or ``None`` if its scores could
        be too high for the core's arithmetic. The variant's letters must be in the alphabet."""
        cached = self._geometries.get(id(variant))
        if cached is not None and cached[0] is variant:
            return cached[1]
        values = tuple(variant.value(letter) if variant.is_letter(letter) else 0 for letter in self._index)
        layout = variant.layout
        lines = [*layout, *zip(*layout, strict=True)]
        # A play's score is at most its line's word multipliers times every square's tile at 4L,
        # plus as much again for the cross-words, plus the bingo.
        word = _NATIVE_WORD_BY_ID.__getitem__
        worst = (
            max(math.prod(map(word, map(id, line))) * len(line) for line in lines)
            * (8 * max(values, default=0) + 1)
            * (variant.rows + variant.cols)
            + variant.bingo_bonus
        )
        geometry = None
        if worst < _NATIVE_MAX_SCORE and max(variant.rows, variant.cols) <= _NATIVE_MAX_SIDE:
            squares = map(id, itertools.chain.from_iterable(layout))
            premiums = bytes(itertools.chain.from_iterable(map(_NATIVE_PREMIUMS_BY_ID.__getitem__, squares)))
            row, col = variant.start
            geometry = (
                variant.rows,
                variant.cols,
                premiums,
                values,
                sum(1 << self._index[letter] for letter in variant.alphabet),
                row * variant.cols + col,
                variant.bingo_bonus,
                variant.rack_size,
            )
        if len(self._geometries) >= _POSITION_CACHE_SIZE:
            self._geometries.clear()
        self._geometries[id(variant)] = (variant, geometry)
        return geometry

    def codes(self, variant: Variant) -> Mapping[int, int] | None:
        """The core's square code of each character of ``variant``'s boards: a letter, a blank, empty; a
        set tile as the letter tile or the blank it scores as. ``None`` when a set tile scores as
        neither (the board is then searched in Python)."""
        if not variant.tile_sets:
            return self._codes
        cached = self._set_codes.get(id(variant))
        if cached is not None and cached[0] is variant:
            return cached[1]
        codes: dict[int, int] | None = dict(self._codes)
        for tile_set in variant.tile_sets:
            for letter, points in tile_set.letters:
                if codes is None:
                    break
                if points == variant.value(letter):
                    codes[ord(set_tile(tile_set.symbol, letter))] = self._index[letter]
                elif points == 0:
                    codes[ord(set_tile(tile_set.symbol, letter))] = _NATIVE_BLANK + self._index[letter]
                else:
                    codes = None
        if len(self._set_codes) >= _POSITION_CACHE_SIZE:
            self._set_codes.clear()
        self._set_codes[id(variant)] = (variant, codes)
        return codes

    def leave_values(self, table: NativeLeaveTable, leaves: list[str]) -> list[float]:
        """The value of each of ``leaves`` under the leave model of ``table``."""
        return self._leave_values(table, leaves)

    def search(
        self,
        geometry: _Geometry,
        squares: bytes,
        tiles: bytes,
        leaves: list[str],
        count: int,
        bonus: list[float] | None,
    ) -> list[GeneratedMove]:
        """Every play (``count`` 0) or the ``count`` best by score plus ``bonus`` of the leave, on the
        board whose squares are ``squares`` (a code a square, row by row: :meth:`codes`)."""
        return self.graph.search(geometry, squares, tiles, leaves, count, bonus, Play, GeneratedMove)

    def squares(self, board: Board) -> bytes:
        """The squares of ``board`` as the core reads them (a board without set tiles)."""
        return board.squares_text().translate(self._codes).encode("latin-1")


def _letter_factors(board: Board, play: Play) -> list[int]:
    """For each square of ``play``, how many times a new tile's points there count in its score on a
    board of multipliers: its letter multiplier times the word multiplier of each word through it."""
    variant = board.variant
    new = dict(play.placements())
    factors = dict.fromkeys(play.squares(), 0)
    for _, _, squares in word_runs(board, play.placements(), play.across):
        word = math.prod(variant.premium(square).word_multiplier for square in squares if square in new)
        for square in squares:
            if square in new and square in factors:
                factors[square] += variant.premium(square).letter_multiplier * word
    return [factors[square] for square in play.squares()]


def _board_squares(board: Board) -> Callable[[Mapping[int, int]], bytes]:
    """The squares of ``board`` in the native core's codes (a code a square, row by row)."""
    return lambda codes: board.squares_text().translate(codes).encode("latin-1")


def _window_squares(board: InfiniteBoard, window: Variant, corner: Square, codes: Mapping[int, int]) -> bytes:
    """The squares of the window ``window`` of ``board`` whose top left square is ``corner``
    (:meth:`MoveGenerator._window`) in the native core's codes: every square empty (the core knows the
    holes from the geometry) but the tiles'."""
    squares = bytearray([_NATIVE_EMPTY]) * (window.rows * window.cols)
    for index, tile in board.tiles_in(corner, window.cols):
        squares[index] = codes[ord(tile)]
    return bytes(squares)


def _set_choices(letters: str, regular: Counter[str], standing: Mapping[str, list[str]]) -> Iterator[str]:
    """``letters`` (a play found with set tiles as letter tiles) with its letters written as the tiles
    they can be: for each letter ``standing`` gives set tiles for (their numbers), the letter tiles of
    the rack (``regular``) and those set tiles in every way that covers its squares."""
    positions = [i for i, letter in enumerate(letters) if letter in standing]

    def choose(
        k: int, regular_left: Counter[str], sets_left: Counter[str]
    ) -> Iterator[list[tuple[int, str]]]:
        if k == len(positions):
            yield []
            return
        i = positions[k]
        letter = letters[i]
        if regular_left[letter]:
            regular_left[letter] -= 1
            for rest in choose(k + 1, regular_left, sets_left):
                yield rest
            regular_left[letter] += 1
        for symbol in dict.fromkeys(standing[letter]):
            if sets_left[symbol]:
                sets_left[symbol] -= 1
                for rest in choose(k + 1, regular_left, sets_left):
                    yield [(i, set_tile(symbol, letter)), *rest]
                sets_left[symbol] += 1

    sets = Counter(symbol for symbols in standing.values() for symbol in symbols)
    for chosen in choose(0, Counter(regular), sets):
        word = list(letters)
        for i, char in chosen:
            word[i] = char
        yield "".join(word)


def window_variant(variant: Variant, corner: Square, far: Square) -> Variant:
    """The finite variant of the squares of the infinite ``variant`` from ``corner`` (top left) to
    ``far`` (bottom right): their premiums and holes, the start moved with them, the same rules."""
    (top, left), (bottom, right) = corner, far
    programs = variant.programs
    assert programs is not None
    premiums: dict[int | None, Premium | None] = {None: None}
    premiums.update((square_id, variant.programs_premium(square_id)) for square_id in programs.squares)
    layout = tuple(
        tuple(map(premiums.__getitem__, programs.row_ids(row, left, right))) for row in range(top, bottom + 1)
    )
    start_row, start_col = variant.start
    return replace(
        variant, layout=layout, start=(start_row - top, start_col - left), programs=None, infinite=False
    )


def load_move_generator(lexicon: Lexicon, cache_dir: Path | None = None) -> MoveGenerator:
    """A move generator for ``lexicon``, its DAWG read from the cache or built once and cached there
    (beside the lexicon's trie file, or in ``cache_dir``; see :func:`scrabble_core.dawg.load_dawg`).

    Building ENABLE's DAWG takes about a second; loading it from the cache well under 0.1 s.
    """
    return MoveGenerator(lexicon, load_dawg(lexicon, cache_dir))


def _score(move: GeneratedMove) -> int:
    return move.score


def _moves(position: _Position, rack: _Rack, found: Iterable[_Found]) -> list[GeneratedMove]:
    """The plays ``found`` by :func:`_walk` as :class:`GeneratedMove` objects, in the same order."""
    origin, leaves = position.origin, rack.leaves
    return [
        GeneratedMove(Play(*origin[start], letters), score, leaves[used])
        for start, letters, score, used in found
    ]


def _analyse(
    dawg: Dawg, variant: Variant, rows: tuple[str, ...], cross_cache: dict[tuple[str, str], int]
) -> _Position:
    """Lay out ``rows`` (as :meth:`Board.rows_text` writes them) for the search."""
    alphabet = dawg.alphabet
    index = {letter: i for i, letter in enumerate(alphabet)}
    allowed = sum(1 << index[letter] for letter in variant.alphabet)
    empty_board = all(char in ".#" for row in rows for char in row)
    columns = tuple("".join(column) for column in zip(*rows, strict=True))
    position = _Position(
        tile=[_SENTINEL],
        tile_value=[0],
        xmask=[0],
        cross=[False],
        cross_base=[0],
        letter_mult=[1],
        word_mult=[1],
        runs=[],
        single_skip=[False],
        origin=[(-1, -1, True)],
        starts=[],
    )
    anchor = [False]
    for across, grid in ((True, rows), (False, columns)):
        for i, line in enumerate(grid):
            for j, char in enumerate(line):
                row, col = (i, j) if across else (j, i)
                premium = variant.layout[row][col]
                position.origin.append((row, col, across))
                if premium is None:
                    _append_square(position, _SENTINEL, 0, 0, False, 0, 1, 1, skip=False)
                    anchor.append(False)
                elif char != ".":
                    _append_square(
                        position,
                        index[letter_of(char)],
                        variant.value(char),
                        0,
                        False,
                        0,
                        premium.letter_multiplier,
                        premium.word_multiplier,
                        skip=False,
                    )
                    anchor.append(True)
                else:
                    before, after = _perpendicular(grid, i, j)
                    crossing = bool(before or after)
                    mask = allowed
                    if crossing:
                        letters = ("".join(map(letter_of, before)), "".join(map(letter_of, after)))
                        found = cross_cache.get(letters)
                        if found is None:
                            found = _cross_mask(dawg, index, *letters)
                            cross_cache[letters] = found
                        mask &= found
                    _append_square(
                        position,
                        _EMPTY,
                        0,
                        mask,
                        crossing,
                        variant.rack_value(before + after),
                        premium.letter_multiplier,
                        premium.word_multiplier,
                        skip=crossing and not across,
                    )
                    anchor.append(crossing or (empty_board and (row, col) == variant.start))
            position.origin.append((-1, -1, across))
            _append_square(position, _SENTINEL, 0, 0, False, 0, 1, 1, skip=False)
            anchor.append(False)
    tile = position.tile
    position.runs = [None] * len(tile)
    for p in range(1, len(tile)):
        if tile[p] >= 0 and tile[p - 1] < 0:
            end = p
            while tile[end] >= 0:
                end += 1
            run = tuple(tile[p:end])
            position.runs[p] = (run, sum(position.tile_value[p:end]), "." * len(run), end)
        if tile[p] != _SENTINEL and tile[p - 1] < 0:
            _add_start(position, anchor, p, min_tiles=2 if empty_board else 1)
    return position


def _append_square(
    position: _Position,
    tile: int,
    value: int,
    mask: int,
    cross: bool,
    cross_base: int,
    letter_mult: int,
    word_mult: int,
    *,
    skip: bool,
) -> None:
    position.tile.append(tile)
    position.tile_value.append(value)
    position.xmask.append(mask)
    position.cross.append(cross)
    position.cross_base.append(cross_base)
    position.letter_mult.append(letter_mult)
    position.word_mult.append(word_mult)
    position.single_skip.append(skip)


def _perpendicular(grid: Sequence[str], i: int, j: int) -> tuple[str, str]:
    """The tiles just before and just after square ``j`` of line ``i`` across the lines of ``grid``."""
    top = i
    while top > 0 and grid[top - 1][j] not in ".#":
        top -= 1
    bottom = i + 1
    while bottom < len(grid) and grid[bottom][j] not in ".#":
        bottom += 1
    return (
        "".join(grid[k][j] for k in range(top, i)),
        "".join(grid[k][j] for k in range(i + 1, bottom)),
    )


def _cross_mask(dawg: Dawg, index: dict[str, int], before: str, after: str) -> int:
    """The letters ``x`` (as a bit mask) such that ``before + x + after`` is a word."""
    table = dawg.table
    size = len(dawg.alphabet)
    node = 0
    for letter in before:
        node = table[node + index[letter]]
        if not node:
            return 0
    tail = [index[letter] for letter in after]
    mask = 0
    candidates = table[node + size + 1]
    while candidates:
        bit = candidates & -candidates
        candidates ^= bit
        child = table[node + bit.bit_length() - 1]
        for code in tail:
            child = table[child + code]
            if not child:
                break
        else:
            if table[child + size]:
                mask |= bit
    return mask


def _add_start(position: _Position, anchor: list[bool], start: int, min_tiles: int) -> None:
    """Record ``start`` if a play from it can reach an anchor, with how many tiles that takes."""
    tile = position.tile
    first = start
    need = 0
    while not anchor[first]:
        if tile[first] == _SENTINEL:
            return
        need += 1
        first += 1
    if tile[first] == _EMPTY:
        need += 1
    mask = position.xmask[first] if tile[first] == _EMPTY else 1 << tile[first]
    position.starts.append((start, max(first, start + 1), first, mask, max(need, min_tiles)))


def _windows(position: _Position, size: int) -> list[list[_Window]]:
    """For each start, the windows of the plays of 1 to ``size`` tiles that can reach its anchor."""
    cached = position.windows.get(size)
    if cached is not None:
        return cached
    tile, value, xmask = position.tile, position.tile_value, position.xmask
    all_windows = []
    for start, _, _, _, need in position.starts:
        windows: list[_Window] = []
        p = start
        placed = 0
        word_mult = 1
        tiles = 0
        cross_points = 0
        multipliers: list[tuple[int, int]] = []
        while placed < size and tile[p] != _SENTINEL:
            if tile[p] >= 0:
                tiles += value[p]
                p += 1
                continue
            if not xmask[p]:
                break
            placed += 1
            word_mult *= position.word_mult[p]
            crossing = position.word_mult[p] if position.cross[p] else 0
            multipliers.append((position.letter_mult[p], crossing))
            cross_points += position.cross_base[p] * crossing
            p += 1
            end = p
            trailing = 0
            while tile[end] >= 0:
                trailing += value[end]
                end += 1
            if placed >= need:
                factors = sorted((lm * (word_mult + wm) for lm, wm in multipliers), reverse=True)
                windows.append((placed, (tiles + trailing) * word_mult + cross_points, factors))
        all_windows.append(windows)
    position.windows[size] = all_windows
    return all_windows


def _leave_bonuses(rack: _Rack, leave_value: LeaveValue | None) -> tuple[Mapping[int, float], list[float]]:
    """The leave value of each key of tiles used (0 without ``leave_value``), and the best one for each
    number of tiles used. ``leave_value`` is called once for each distinct leave."""
    if leave_value is None:
        return defaultdict(float), [0.0] * (rack.size + 1)
    bonus: dict[int, float] = {}
    best = [-math.inf] * (rack.size + 1)
    for key, used in rack.leaves.every_key():
        value = leave_value(rack.leaves[key])
        bonus[key] = value
        best[used] = max(best[used], value)
    return bonus, best


def _bounded_starts(
    variant: Variant, position: _Position, rack: _Rack, best_leave: list[float]
) -> list[tuple[_Start, list[float]]]:
    """The starts paired with their bounds, most promising first (see the module docstring).

    ``bounds[j]`` is the highest value any play from the start placing more than ``j`` tiles can have.
    """
    tile_values = sorted(
        [rack.values[i] for i, n in enumerate(rack.counts) for _ in range(n)] + [0] * rack.blanks,
        reverse=True,
    )
    bingo = [variant.bingo_bonus if k == variant.rack_size else 0 for k in range(rack.size + 1)]
    bounded = []
    for start, windows in zip(position.starts, _windows(position, rack.size), strict=True):
        bounds = [-math.inf] * (rack.size + 1)
        for placed, fixed, factors in windows:
            bounds[placed - 1] = (
                fixed + sum(map(mul, factors, tile_values)) + bingo[placed] + best_leave[placed]
            )
        for k in range(rack.size - 2, -1, -1):
            bounds[k] = max(bounds[k], bounds[k + 1])
        if bounds[0] > -math.inf:
            bounded.append((start, bounds))
    bounded.sort(key=_first_bound, reverse=True)
    return bounded


def _first_bound(item: tuple[_Start, list[float]]) -> float:
    return item[1][0]


def _walk(
    dawg: Dawg,
    variant: Variant,
    position: _Position,
    rack: _Rack,
    starts: Iterable[tuple[_Start, list[float]]],
    emit: Callable[[_Found], None],
    limit: list[float],
) -> None:
    """Search the plays from ``starts`` in order and pass each one found to ``emit``.

    A start whose first square holds a tile reads the run of tiles, then places tiles after it; a start
    one square or less before its anchor places tiles from its first square (:func:`place`); one
    further away first fills the free squares before the anchor (:func:`lead`).

    ``bounds[j]`` of a start caps the value of its plays of more than ``j`` tiles: a branch is given up
    when that cap is not above ``limit[0]``, which ``emit`` may raise as it keeps plays; the walk stops
    at the first start whose cap is not above it.
    """
    table = dawg.table
    size = len(dawg.alphabet)
    is_word = size
    children = size + 1
    everything = (1 << size) - 1
    tile, xmask, cross, cross_base = position.tile, position.xmask, position.cross, position.cross_base
    letter_mult, word_mult, runs, single_skip = (
        position.letter_mult,
        position.word_mult,
        position.runs,
        position.single_skip,
    )
    counts, values, weights, blank_weight = list(rack.counts), rack.values, rack.weights, rack.blank_weight
    tiles = rack.size
    bingo, rack_size = variant.bingo_bonus, variant.rack_size
    letter_of = {1 << i: i for i in range(size)}
    upper = list(dawg.alphabet)
    lower = [letter.lower() for letter in dawg.alphabet]
    # The start being searched (closure cells, rebound per start).
    origin = reach = anchor = anchor_mask = 0
    anchor_free = False
    bounds: list[float] = []

    def place(
        p: int,
        node: int,
        left: int,
        mask: int,
        blanks: int,
        main: int,
        multiplier: int,
        crosses: int,
        word: str,
        used: int,
    ) -> None:
        """Put each possible tile on the empty square ``p`` (the anchor, a square after it, or the one
        just before it), emit the words that end there, and go on to the next empty square.

        ``node`` is the DAWG node of the word so far (which ends just before ``p``), ``left`` the tiles
        still on the rack, ``mask`` the letters among them, ``blanks`` the blanks among them; ``main``,
        ``multiplier`` and ``crosses`` the main word's letter points and word multiplier and the
        cross-words' points so far; ``word`` the play's GCG letters so far and ``used`` the key of the
        tiles used.
        """
        allowed = xmask[p] & table[node + children]
        lm = letter_mult[p]
        wm = word_mult[p]
        new_multiplier = multiplier * wm
        crossing = cross[p]
        base = cross_base[p]
        placed = tiles - left + 1
        skip = placed == 1 and single_skip[p]
        bonus = bingo if placed == rack_size else 0
        deeper = left > 1 and bounds[placed] > limit[0]
        run = runs[p + 1]
        candidates = allowed & mask
        while candidates:
            bit = candidates & -candidates
            candidates ^= bit
            letter = letter_of[bit]
            points = values[letter] * lm
            child = table[node + letter]
            new_main = main + points
            new_crosses = crosses + (base + points) * wm if crossing else crosses
            if run is None:
                q = p + 1
                new_word = word + upper[letter]
            else:
                for run_letter in run[0]:
                    child = table[child + run_letter]
                    if not child:
                        break
                if not child:
                    continue
                new_main += run[1]
                q = run[3]
                new_word = word + upper[letter] + run[2]
            if q > reach and table[child + is_word] and not skip:
                emit(
                    (
                        origin,
                        new_word,
                        new_main * new_multiplier + new_crosses + bonus,
                        used + weights[letter],
                    )
                )
            if deeper:
                count = counts[letter] - 1
                new_mask = mask if count else mask ^ bit
                if xmask[q] & table[child + children] & (new_mask | (everything if blanks else 0)):
                    counts[letter] = count
                    place(
                        q,
                        child,
                        left - 1,
                        new_mask,
                        blanks,
                        new_main,
                        new_multiplier,
                        new_crosses,
                        new_word,
                        used + weights[letter],
                    )
                    counts[letter] = count + 1
        if not blanks:
            return
        new_crosses = crosses + base * wm if crossing else crosses
        after = mask | (everything if blanks > 1 else 0)
        candidates = allowed
        while candidates:
            bit = candidates & -candidates
            candidates ^= bit
            letter = letter_of[bit]
            child = table[node + letter]
            new_main = main
            if run is None:
                q = p + 1
                new_word = word + lower[letter]
            else:
                for run_letter in run[0]:
                    child = table[child + run_letter]
                    if not child:
                        break
                if not child:
                    continue
                new_main += run[1]
                q = run[3]
                new_word = word + lower[letter] + run[2]
            if q > reach and table[child + is_word] and not skip:
                emit((origin, new_word, new_main * new_multiplier + new_crosses + bonus, used + blank_weight))
            if deeper and xmask[q] & table[child + children] & after:
                place(
                    q,
                    child,
                    left - 1,
                    mask,
                    blanks - 1,
                    new_main,
                    new_multiplier,
                    new_crosses,
                    new_word,
                    used + blank_weight,
                )

    def lead(
        p: int, node: int, left: int, mask: int, blanks: int, main: int, multiplier: int, word: str, used: int
    ) -> None:
        """Put each possible tile on the free square ``p``, at least two squares before the anchor (no
        tile or cross-word there, nothing to emit yet), keeping only the letters after which some word
        can put an allowed letter on the anchor; arguments as :func:`place`."""
        if not bounds[tiles - left + 1] > limit[0]:
            return
        lm = letter_mult[p]
        new_multiplier = multiplier * word_mult[p]
        q = p + 1
        distance = anchor - q
        if distance > LOOKAHEAD:
            target = everything
        elif anchor_free:
            # The anchor is an empty square: its tile comes from what is left on the rack.
            target = anchor_mask & (mask | (everything if blanks else 0))
        else:
            target = anchor_mask
        ahead = children + (distance if distance <= LOOKAHEAD else LOOKAHEAD)
        near = distance == 1
        allowed = table[node + children]
        candidates = allowed & mask
        while candidates:
            bit = candidates & -candidates
            candidates ^= bit
            letter = letter_of[bit]
            child = table[node + letter]
            if not table[child + ahead] & target:
                continue
            count = counts[letter] - 1
            new_mask = mask if count else mask ^ bit
            if not table[child + children] & (new_mask | (everything if blanks else 0)):
                continue
            counts[letter] = count
            new_main = main + values[letter] * lm
            if near:
                place(
                    q,
                    child,
                    left - 1,
                    new_mask,
                    blanks,
                    new_main,
                    new_multiplier,
                    0,
                    word + upper[letter],
                    used + weights[letter],
                )
            else:
                lead(
                    q,
                    child,
                    left - 1,
                    new_mask,
                    blanks,
                    new_main,
                    new_multiplier,
                    word + upper[letter],
                    used + weights[letter],
                )
            counts[letter] = count + 1
        if not blanks:
            return
        after = mask | (everything if blanks > 1 else 0)
        candidates = allowed
        while candidates:
            bit = candidates & -candidates
            candidates ^= bit
            letter = letter_of[bit]
            child = table[node + letter]
            if not (table[child + ahead] & target and table[child + children] & after):
                continue
            if near:
                place(
                    q,
                    child,
                    left - 1,
                    mask,
                    blanks - 1,
                    main,
                    new_multiplier,
                    0,
                    word + lower[letter],
                    used + blank_weight,
                )
            else:
                lead(
                    q,
                    child,
                    left - 1,
                    mask,
                    blanks - 1,
                    main,
                    new_multiplier,
                    word + lower[letter],
                    used + blank_weight,
                )

    playable = rack.mask | (everything if rack.blanks else 0)
    for (origin, reach, anchor, anchor_mask, _), bounds in starts:  # noqa: B007 (read by place)
        if not bounds[0] > limit[0]:
            break
        anchor_free = tile[anchor] == _EMPTY
        if tile[origin] >= 0:
            run = runs[origin]
            assert run is not None
            letters, points, dots, p = run
            node = 0
            for letter in letters:
                node = table[node + letter]
                if not node:
                    break
            if node and xmask[p] & table[node + children] & playable:
                place(p, node, tiles, rack.mask, rack.blanks, points, 1, 0, dots, 0)
        elif anchor - origin <= 1:
            if xmask[origin] & table[children] & playable:
                place(origin, 0, tiles, rack.mask, rack.blanks, 0, 1, 0, "", 0)
        elif anchor - origin > LOOKAHEAD or table[children + anchor - origin] & anchor_mask:
            lead(origin, 0, tiles, rack.mask, rack.blanks, 0, 1, "", 0)
