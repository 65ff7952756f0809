"""The syntax tree of a board or square program (see ``docs/boards.md`` for the language).

Every node carries the line and column (1-based) where it starts, for the messages of later errors.
Names are resolved by the parser: a :class:`Var` and the left side of an :class:`Assign` hold the
variable's slot in the frame (the context variables first, then each ``declare`` in program order).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

Value = int | bool | str
"""A value of the language: a whole number, a truth value, or a character (a string of length 1)."""

CONTEXT_VARIABLES: Final = ("_x_", "_y_", "_pos_", "_acc_", "_result_", "_length_")
"""The variables every program may read, in their frame slots; only ``_result_`` may be assigned."""
X, Y, POS, ACC, RESULT, LENGTH = range(len(CONTEXT_VARIABLES))

FUNCTIONS: Final = {
    "pointValue": 1,
    "charValue": 1,
    "charToInt": 1,
    "intToChar": 1,
    "toUpper": 1,
    "toLower": 1,
    "isLetter": 1,
    "isVowel": 1,
    "isDigit": 1,
}
"""The built-in functions and how many arguments each takes."""

WORD_FUNCTIONS: Final = frozenset({"pointValue", "charValue"})
"""The functions that read the word, so only square programs may call them."""


@dataclass(frozen=True, slots=True)
class Node:
    """Where a node starts in the program's text."""

    line: int
    column: int


@dataclass(frozen=True, slots=True)
class Literal(Node):
    """A whole number, ``true``/``false`` or a character literal such as ``'A'``."""

    value: Value


@dataclass(frozen=True, slots=True)
class Var(Node):
    """A variable read: its name and its frame slot."""

    name: str
    slot: int


@dataclass(frozen=True, slots=True)
class Unary(Node):
    """``-a`` (``op`` ``"-"``) or ``~b`` (``op`` ``"~"``)."""

    op: str
    operand: Expr


@dataclass(frozen=True, slots=True)
class Binary(Node):
    """``a op b``: arithmetic ``+ - * / %``, comparison ``= <> < <= > >=``, logic ``/\\ \\/``."""

    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True)
class Call(Node):
    """A call of a built-in function of :data:`FUNCTIONS`."""

    name: str
    args: tuple[Expr, ...]


Expr = Literal | Var | Unary | Binary | Call


@dataclass(frozen=True, slots=True)
class Declare(Node):
    """``declare x`` (the variable starts at 0) or ``declare x := a``."""

    name: str
    slot: int
    value: Expr | None


@dataclass(frozen=True, slots=True)
class Assign(Node):
    """``x := a``."""

    name: str
    slot: int
    value: Expr


@dataclass(frozen=True, slots=True)
class If(Node):
    """``if (b) then { s } else { s }``; ``orelse`` is empty without ``else``."""

    condition: Expr
    then: tuple[Stmt, ...]
    orelse: tuple[Stmt, ...]


@dataclass(frozen=True, slots=True)
class While(Node):
    """``while (b) do { s }``."""

    condition: Expr
    body: tuple[Stmt, ...]


Stmt = Declare | Assign | If | While


@dataclass(frozen=True, slots=True)
class ProgramTree:
    """A parsed program: its statements and how many frame slots it needs."""

    body: tuple[Stmt, ...]
    slots: int
