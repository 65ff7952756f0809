"""Symbolic evaluation of square programs: which ones are a letter or a word multiplier.

A square program is run over symbols instead of numbers: ``_acc_`` and ``pointValue(_pos_)`` are
unknowns, and every number the program computes is kept as ``c + a * _acc_ + p * pointValue(_pos_)``.
Constant parts are computed exactly as a run computes them (through
:mod:`scrabble_core.programs.values`); a branch or a loop on an unknown, a product of two unknowns, or
anything that reads the word otherwise (``charValue``, ``_length_``, ``pointValue`` of another index)
makes the program not recognisable. What is recognised is the program's :class:`Effect` on every word:
``_result_ = a * _acc_ + p * pointValue(_pos_)``. Nothing is run on sample inputs: the effect holds for
every word, so a board whose squares are all recognised can be scored with multipliers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from scrabble_core.errors import ProgramError
from scrabble_core.programs.syntax import (
    ACC,
    LENGTH,
    POS,
    RESULT,
    Assign,
    Binary,
    Call,
    Declare,
    Expr,
    If,
    Literal,
    ProgramTree,
    Stmt,
    Unary,
    Var,
)
from scrabble_core.programs.values import MAX_INT, Context, Frame, Limits, arithmetic, call, compare


@dataclass(frozen=True, slots=True)
class Effect:
    """A square program's effect on a word: ``_result_ = acc * _acc_ + points * pointValue(_pos_)``."""

    acc: int
    points: int

    @property
    def letter_multiplier(self) -> int | None:
        """``k`` if the program adds ``k`` times its letter's points to ``_acc_`` (``acc == 1``)."""
        return self.points if self.acc == 1 else None

    @property
    def word_multiplier(self) -> int | None:
        """``m`` if the program multiplies ``_acc_`` by ``m`` and adds nothing (``points == 0``)."""
        return self.acc if self.points == 0 else None


@dataclass(frozen=True, slots=True)
class _Affine:
    const: int
    acc: int
    points: int

    @property
    def constant(self) -> bool:
        return self.acc == 0 and self.points == 0


class _Position:
    """``_pos_`` itself: known only as the argument of ``pointValue``."""


_POS: Final = _Position()
_Symbol = _Affine | bool | str | _Position | None
"""``None`` is a value nothing is known of (``_length_``)."""


class _UnknownError(Exception):
    """The program is not recognisable."""


def effect(tree: ProgramTree, program: str, limits: Limits = Limits()) -> Effect | None:
    """The effect of the square program ``tree`` on every word, or ``None`` if it is not one of
    ``a * _acc_ + p * pointValue(_pos_)`` (or its evaluation would fail or pass ``limits``)."""
    frame = Frame(program, tree.slots, Context(), limits, 0)
    slots: list[_Symbol] = [None] * tree.slots
    slots[POS] = _POS
    slots[ACC] = _Affine(0, 1, 0)
    slots[RESULT] = _Affine(0, 1, 0)
    slots[LENGTH] = None
    for slot in range(LENGTH + 1, tree.slots):
        slots[slot] = _Affine(0, 0, 0)
    try:
        _run(frame, slots, tree.body)
    except (_UnknownError, ProgramError):
        return None
    result = slots[RESULT]
    if not isinstance(result, _Affine) or result.const != 0:
        return None
    return Effect(result.acc, result.points)


def _run(frame: Frame, slots: list[_Symbol], body: tuple[Stmt, ...]) -> None:
    for statement in body:
        frame.step()
        if isinstance(statement, Assign):
            slots[statement.slot] = _evaluate(frame, slots, statement.value)
        elif isinstance(statement, Declare):
            slots[statement.slot] = (
                _Affine(0, 0, 0) if statement.value is None else _evaluate(frame, slots, statement.value)
            )
        elif isinstance(statement, If):
            taken = (
                statement.then if _truth(_evaluate(frame, slots, statement.condition)) else statement.orelse
            )
            _run(frame, slots, taken)
        else:
            while True:
                frame.step()
                if not _truth(_evaluate(frame, slots, statement.condition)):
                    break
                _run(frame, slots, statement.body)


def _truth(value: _Symbol) -> bool:
    if type(value) is not bool:
        raise _UnknownError
    return value


def _concrete(value: _Symbol) -> int | bool | str:
    if isinstance(value, _Affine) and value.constant:
        return value.const
    if isinstance(value, bool | str):
        return value
    raise _UnknownError


def _known(value: int | bool | str) -> _Symbol:
    if isinstance(value, bool | str):
        return value
    return _Affine(value, 0, 0)


def _evaluate(frame: Frame, slots: list[_Symbol], node: Expr) -> _Symbol:
    if isinstance(node, Literal):
        return _known(node.value)
    if isinstance(node, Var):
        return slots[node.slot]
    if isinstance(node, Unary):
        operand = _evaluate(frame, slots, node.operand)
        if node.op == "-" and isinstance(operand, _Affine):
            return _Affine(-operand.const, -operand.acc, -operand.points)
        return not _truth(operand)
    if isinstance(node, Call):
        argument = _evaluate(frame, slots, node.args[0])
        if node.name == "pointValue" and argument is _POS:
            return _Affine(0, 0, 1)
        if node.name in ("pointValue", "charValue"):
            raise _UnknownError
        return _known(call(frame, node, node.name, _concrete(argument)))
    return _binary(frame, slots, node)


def _binary(frame: Frame, slots: list[_Symbol], node: Binary) -> _Symbol:
    left = _evaluate(frame, slots, node.left)
    if node.op in ("/\\", "\\/"):
        if _truth(left) == (node.op == "\\/"):
            return left
        return _truth(_evaluate(frame, slots, node.right))
    right = _evaluate(frame, slots, node.right)
    if node.op in ("+", "-", "*") and isinstance(left, _Affine) and isinstance(right, _Affine):
        if node.op == "*":
            if not (left.constant or right.constant):
                raise _UnknownError
            scale, term = (left.const, right) if left.constant else (right.const, left)
            parts = (scale * term.const, scale * term.acc, scale * term.points)
        else:
            sign = 1 if node.op == "+" else -1
            parts = (
                left.const + sign * right.const,
                left.acc + sign * right.acc,
                left.points + sign * right.points,
            )
        if any(abs(part) > MAX_INT for part in parts):
            raise _UnknownError
        return _Affine(*parts)
    if node.op in ("+", "-", "*", "/", "%"):
        return _known(arithmetic(frame, node, node.op, _concrete(left), _concrete(right)))
    return compare(frame, node, node.op, _concrete(left), _concrete(right))
