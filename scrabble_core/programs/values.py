"""The values, operators, built-in functions and limits of the language, shared by the interpreter and
the compiler so both run every operation the same way (and raise the same errors).

A run of a program has a :class:`Frame`: the variables' slots (the context variables first), the word
a square program reads, and the count of steps taken. A step is one statement executed or one test of
a ``while`` condition; a run may take at most :attr:`Limits.steps` of them, and no whole number it
computes may pass :data:`MAX_INT` in size, so no program can hang or grow without bound.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, NoReturn

from scrabble_core.errors import ProgramLimitError, ProgramRuntimeError
from scrabble_core.programs.syntax import CONTEXT_VARIABLES, Node, Value

MAX_INT: Final = 2**63 - 1
"""The largest size of a whole number a program may compute (either sign)."""
DEFAULT_STEPS: Final = 10_000
VOWELS: Final = frozenset("AEIOUaeiou")


@dataclass(frozen=True, slots=True)
class Limits:
    """What one run of a program may use: ``steps`` statements and loop tests."""

    steps: int = DEFAULT_STEPS


@dataclass(frozen=True, slots=True)
class Context:
    """What a program reads: the square ``(x, y)`` for a board program; for a square program the index
    ``pos`` of its letter in the word, the points so far ``acc``, the word's letters (uppercase, a blank
    as the letter it stands for) and their ``points``."""

    x: int = 0
    y: int = 0
    pos: int = 0
    acc: int = 0
    word: str = ""
    points: tuple[int, ...] = ()


class Frame:
    """The state of one run: the slots, the context, the steps taken, and the program's name."""

    __slots__ = ("context", "limit", "program", "slots", "steps")

    def __init__(self, program: str, slots: int, context: Context, limits: Limits, result: int) -> None:
        self.program = program
        self.context = context
        self.limit = limits.steps
        self.steps = 0
        self.slots: list[Value] = [
            context.x,
            context.y,
            context.pos,
            context.acc,
            result,
            len(context.word),
        ]
        self.slots.extend([0] * (slots - len(CONTEXT_VARIABLES)))

    def step(self) -> None:
        """Count one step.

        Raises:
            ProgramLimitError: the run has taken more steps than its limit.
        """
        self.steps += 1
        if self.steps > self.limit:
            raise ProgramLimitError(
                self.program, "steps", f"ran more than {self.limit} steps (a loop that never ends?)"
            )

    def fail(self, node: Node, problem: str) -> NoReturn:
        """Raise the runtime error ``problem`` at ``node``."""
        raise ProgramRuntimeError(self.program, f"line {node.line}, column {node.column}: {problem}")

    def result(self) -> int:
        """The final ``_result_``.

        Raises:
            ProgramRuntimeError: it is not a whole number.
        """
        value = self.slots[4]
        if type(value) is not int:
            raise ProgramRuntimeError(self.program, f"_result_ must be a whole number, not {describe(value)}")
        return value


def describe(value: Value) -> str:
    """A value as an error message names it: ``the number 3``, ``true``, ``the character 'A'``."""
    if type(value) is bool:
        return "true" if value else "false"
    if type(value) is int:
        return f"the number {value}"
    return f"the character {value!r}"


def integer(frame: Frame, node: Node, value: Value, what: str) -> int:
    """``value`` if it is a whole number, else a runtime error saying ``what`` needs one."""
    if type(value) is not int:
        frame.fail(node, f"{what} needs a whole number, not {describe(value)}")
    return value


def truth(frame: Frame, node: Node, value: Value, what: str) -> bool:
    """``value`` if it is ``true`` or ``false``, else a runtime error saying ``what`` needs one."""
    if type(value) is not bool:
        frame.fail(node, f"{what} needs true or false, not {describe(value)}")
    return value


def character(frame: Frame, node: Node, value: Value, what: str) -> str:
    """``value`` if it is a character, else a runtime error saying ``what`` needs one."""
    if type(value) is not str:
        frame.fail(node, f"{what} needs a character, not {describe(value)}")
    return value


def checked(frame: Frame, node: Node, value: int) -> int:
    """``value`` if its size is within :data:`MAX_INT`.

    Raises:
        ProgramLimitError: it is larger.
    """
    if -MAX_INT <= value <= MAX_INT:
        return value
    raise ProgramLimitError(
        frame.program,
        "integer size",
        f"line {node.line}, column {node.column}: a number grew past {MAX_INT} in size",
    )


def arithmetic(frame: Frame, node: Node, op: str, left: Value, right: Value) -> int:
    """``left op right`` for ``+ - * / %``; ``/`` rounds down and ``%`` takes the sign of the divisor.

    Raises:
        ProgramRuntimeError: an operand is not a number, or a division or modulo by zero.
        ProgramLimitError: the result is too large.
    """
    a = integer(frame, node, left, f"'{op}'")
    b = integer(frame, node, right, f"'{op}'")
    if op == "+":
        return checked(frame, node, a + b)
    if op == "-":
        return checked(frame, node, a - b)
    if op == "*":
        return checked(frame, node, a * b)
    if b == 0:
        frame.fail(node, "division by zero" if op == "/" else "modulo by zero")
    return checked(frame, node, a // b if op == "/" else a % b)


def compare(frame: Frame, node: Node, op: str, left: Value, right: Value) -> bool:
    """``left op right`` for ``= <> < <= > >=``: values of one kind; characters order by code point.

    Raises:
        ProgramRuntimeError: the values are of two kinds, or truth values are ordered.
    """
    if type(left) is not type(right):
        frame.fail(node, f"'{op}' compares values of one kind, not {describe(left)} and {describe(right)}")
    if op == "=":
        return left == right
    if op == "<>":
        return left != right
    if type(left) is bool:
        frame.fail(node, f"'{op}' orders numbers or characters, not true and false")
    if op == "<":
        return left < right  # type: ignore[operator]
    if op == "<=":
        return left <= right  # type: ignore[operator]
    if op == ">":
        return left > right  # type: ignore[operator]
    return left >= right  # type: ignore[operator]


def negate(frame: Frame, node: Node, op: str, value: Value) -> Value:
    """``-value`` (``op`` ``"-"``) or ``~value`` (``op`` ``"~"``)."""
    if op == "-":
        return checked(frame, node, -integer(frame, node, value, "'-'"))
    return not truth(frame, node, value, "'~'")


def letter_index(frame: Frame, node: Node, value: Value, name: str) -> int:
    """``value`` as an index into the word.

    Raises:
        ProgramRuntimeError: not a number, or outside the word.
    """
    index = integer(frame, node, value, name)
    length = len(frame.context.word)
    if not 0 <= index < length:
        frame.fail(node, f"{name}({index}): the word's letters are numbered 0 to {length - 1}")
    return index


def call(frame: Frame, node: Node, name: str, argument: Value) -> Value:
    """The built-in function ``name`` applied to ``argument``.

    Raises:
        ProgramRuntimeError: the argument is of the wrong kind or out of range.
    """
    if name == "pointValue":
        return frame.context.points[letter_index(frame, node, argument, name)]
    if name == "charValue":
        return frame.context.word[letter_index(frame, node, argument, name)]
    if name == "charToInt":
        return ord(character(frame, node, argument, name))
    if name == "intToChar":
        code = integer(frame, node, argument, name)
        if not 0 <= code <= 0x10FFFF or 0xD800 <= code <= 0xDFFF:
            frame.fail(node, f"intToChar({code}): no character has that code")
        return chr(code)
    ch = character(frame, node, argument, name)
    if name == "toUpper":
        upper = ch.upper()
        return upper if len(upper) == 1 else ch
    if name == "toLower":
        lower = ch.lower()
        return lower if len(lower) == 1 else ch
    if name == "isLetter":
        return ch.isalpha()
    if name == "isVowel":
        return ch in VOWELS
    return "0" <= ch <= "9"
