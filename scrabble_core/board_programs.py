"""Boards written as programs: a board program names each square's id, a square is programs by priority.

A variant's ``[board] program`` maps a square ``(_x_, _y_)`` (``_x_`` the column, ``_y_`` the row, both
from 0 at the top left: ``A1`` is ``(0, 0)``, ``H8`` is ``(7, 7)``) to a square id in ``_result_``; an
id with no ``[squares.ID]`` is a hole. Each square id has programs by priority. A word is scored by
collecting the programs of the squares under its letters (a tile already on the board scores as the
``used_square``), running them in ascending priority (one priority's programs in the word's order)
with ``_acc_`` threaded from 0; the last ``_result_`` is the word's points.

Speed. Programs are compiled once per square id and the board program's answer is cached per square.
When symbolic evaluation (:attr:`scrabble_core.programs.Program.effect`) recognises every program as
adding a multiple of its letter's points or multiplying the word, every letter addition runs before
every word multiplication, and the tiles on the board score plainly, the board is a board of
multipliers: :attr:`BoardPrograms.multipliers` gives each id's letter and word multiplier, and the
engine scores and searches it as it does a layout-string board.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Final

from scrabble_core.programs import BOARD, SQUARE, Context, Program
from scrabble_core.squares import Square

MAX_SQUARE_IDS: Final = 64
"""The most square ids a variant may define."""
MAX_PROGRAMS_PER_SQUARE: Final = 16
_CHUNK_BITS: Final = 4
_CHUNK_LIMIT: Final = 4096
"""The most blocks of 16x16 squares whose ids are cached, a byte a square (4 MiB in all)."""


@dataclass(frozen=True, slots=True)
class SquareKind:
    """A square id and its programs, ``(priority, program text)`` in ascending priority."""

    id: int
    programs: tuple[tuple[int, str], ...]


class BoardPrograms:
    """A variant's board program and square programs, compiled once.

    Equal (and hashed) by their texts; pickled as their texts and compiled again where unpickled.

    Raises (at construction):
        ProgramSyntaxError: a program does not parse; its name says which (``board.program``,
            ``squares.2.1``).
    """

    def __init__(self, program: str, kinds: Sequence[SquareKind], used_square: int) -> None:
        self.program_text = program
        self.kinds = tuple(sorted(kinds, key=lambda kind: kind.id))
        self.used_square = used_square
        self.board = Program(program, "board.program", BOARD)
        self.squares: dict[int, tuple[tuple[int, Program], ...]] = {
            kind.id: tuple(
                (priority, Program(text, f"squares.{kind.id}.{priority}", SQUARE))
                for priority, text in kind.programs
            )
            for kind in self.kinds
        }
        # The cache of square ids: a byte per square in blocks of 16x16 squares, 0 for a square not
        # yet computed, 1 for a hole, 2 + k for the k-th id of ``kinds``.
        self._blocks: dict[Square, bytearray] = {}
        self._codes = {kind.id: code for code, kind in enumerate(self.kinds, 2)}
        self._ids_by_code: list[int | None] = [None, None, *(kind.id for kind in self.kinds)]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BoardPrograms):
            return NotImplemented
        return self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    @property
    def _key(self) -> tuple[str, tuple[SquareKind, ...], int]:
        return self.program_text, self.kinds, self.used_square

    def __reduce__(self) -> tuple[Any, ...]:
        return BoardPrograms, (self.program_text, self.kinds, self.used_square)

    def square_id(self, square: Square) -> int | None:
        """The id of ``square`` (``(row, col)``), or ``None`` where the board has a hole; cached.

        Raises:
            ProgramError: the board program fails or runs past its limits on this square.
        """
        row, col = square
        block_key = (row >> _CHUNK_BITS, col >> _CHUNK_BITS)
        block = self._blocks.get(block_key)
        if block is None:
            if len(self._blocks) >= _CHUNK_LIMIT:
                self._blocks.clear()
            block = self._blocks[block_key] = bytearray(1 << (2 * _CHUNK_BITS))
        mask = (1 << _CHUNK_BITS) - 1
        index = ((row & mask) << _CHUNK_BITS) | (col & mask)
        code = block[index]
        if not code:
            code = block[index] = self._codes.get(self.board.run(Context(x=col, y=row)), 1)
        return self._ids_by_code[code]

    def row_ids(self, row: int, left: int, right: int) -> list[int | None]:
        """:meth:`square_id` of the squares of ``row`` from column ``left`` to ``right``, read from the
        cache a block at a time (the board program runs for the squares not yet computed).

        Raises:
            ProgramError: the board program fails or runs past its limits on one of them.
        """
        side = 1 << _CHUNK_BITS
        start = (row & (side - 1)) * side
        ids: list[int | None] = []
        for block_col in range(left >> _CHUNK_BITS, (right >> _CHUNK_BITS) + 1):
            first = max(left, block_col * side)
            last = min(right, block_col * side + side - 1)
            block = self._blocks.get((row >> _CHUNK_BITS, block_col))
            codes = (
                b""
                if block is None
                else block[start + (first & (side - 1)) : start + (last & (side - 1)) + 1]
            )
            if len(codes) != last - first + 1 or 0 in codes:
                ids.extend(self.square_id((row, col)) for col in range(first, last + 1))
            else:
                ids.extend(map(self._ids_by_code.__getitem__, codes))
        return ids

    @cached_property
    def square_multipliers(self) -> Mapping[int, tuple[int, int] | None]:
        """Each square id's ``(letter multiplier, word multiplier)`` when each of its programs adds a
        multiple of its letter's points or multiplies the word, with every addition at a lower priority
        than every multiplication; ``None`` for the other ids."""
        return {square_id: _multipliers(programs) for square_id, programs in self.squares.items()}

    @cached_property
    def multipliers(self) -> Mapping[int, tuple[int, int]] | None:
        """:attr:`square_multipliers` when the whole board is a board of multipliers (see the module
        docstring), else ``None``."""
        adds = [p for programs in self.squares.values() for p, program in programs if _adds(program)]
        scales = [p for programs in self.squares.values() for p, program in programs if _scales(program)]
        if adds and scales and max(adds) >= min(scales):
            return None
        result = {
            square_id: value for square_id, value in self.square_multipliers.items() if value is not None
        }
        if len(result) < len(self.squares) or result.get(self.used_square) != (1, 1):
            return None
        return result

    @cached_property
    def _shapes(self) -> Mapping[int, tuple[int, int, float, float] | None]:
        """Each square id's letter and word multipliers with the highest priority of a letter addition
        and the lowest of a word multiplication (infinite where there is none); ``None`` for the ids
        whose programs are not all recognised."""
        shapes: dict[int, tuple[int, int, float, float] | None] = {}
        for square_id, programs in self.squares.items():
            multipliers = self.square_multipliers[square_id]
            if multipliers is None:
                shapes[square_id] = None
                continue
            adds = [priority for priority, program in programs if _adds(program)]
            scales = [priority for priority, program in programs if _scales(program)]
            shapes[square_id] = (*multipliers, max(adds, default=-math.inf), min(scales, default=math.inf))
        return shapes

    def run_every_program(self) -> None:
        """Score every word by running its programs from now on, even a word of recognised multipliers
        (the reference path, see :func:`scrabble_core.variant.scored_by_programs_only`)."""
        self.__dict__["_shapes"] = dict.fromkeys(self.squares)

    def score_word(self, ids: Sequence[int], word: str, points: tuple[int, ...]) -> int:
        """The points of ``word`` (uppercase letters, a blank as its letter) whose letters are worth
        ``points`` and stand on squares of ``ids`` (the used square's id under a tile already there).

        A word whose squares' programs are all recognised as multipliers, every letter addition of
        them at a lower priority than every word multiplication, is scored with the multipliers,
        which is what running the programs would compute.

        Raises:
            ProgramError: a square program fails or runs past its limits.
        """
        shapes = self._shapes
        if all(shapes[square_id] is not None for square_id in ids):
            known = [shapes[square_id] for square_id in ids]
            last_add = max(shape[2] for shape in known if shape is not None)
            first_scale = min(shape[3] for shape in known if shape is not None)
            if last_add < first_scale:
                total, factor = 0, 1
                for shape, value in zip(known, points, strict=True):
                    assert shape is not None
                    total += shape[0] * value
                    factor *= shape[1]
                return total * factor
        steps = sorted(
            (
                (priority, pos, program)
                for pos, square_id in enumerate(ids)
                for priority, program in self.squares[square_id]
            ),
            key=lambda step: step[0],
        )
        acc = 0
        for _, pos, program in steps:
            acc = program.run(Context(pos=pos, acc=acc, word=word, points=points), acc)
        return acc

    def check_square(self, square_id: int, probe: str, points: tuple[int, ...]) -> None:
        """Run every program of ``square_id`` on each letter of the word ``probe``.

        Raises:
            ProgramError: one of them fails or runs past its limits.
        """
        for pos in range(len(probe)):
            for _, program in self.squares[square_id]:
                program.run(Context(pos=pos, acc=0, word=probe, points=points))


def _adds(program: Program) -> bool:
    effect = program.effect
    return effect is not None and effect.acc == 1 and effect.points != 0


def _scales(program: Program) -> bool:
    effect = program.effect
    return effect is not None and effect.points == 0 and effect.acc != 1


def _multipliers(programs: tuple[tuple[int, Program], ...]) -> tuple[int, int] | None:
    letter, word = 0, 1
    adds: list[int] = []
    scales: list[int] = []
    for priority, program in programs:
        effect = program.effect
        if effect is None or effect.acc < 0 or effect.points < 0:
            return None
        if effect.acc == 1:
            letter += effect.points
            adds.append(priority)
        elif effect.points == 0:
            word *= effect.acc
            scales.append(priority)
        else:
            return None
    if adds and scales and max(adds) >= min(scales):
        return None
    return letter, word


__all__ = ["BoardPrograms", "SquareKind"]
