"""The language of board and square programs: parse once, compile to closures, run many times.

A board program maps a square ``(_x_, _y_)`` to a square id in ``_result_``; a square program maps a
letter of a word (``_pos_``, ``_acc_``, the word) to new points in ``_result_``. ``docs/boards.md``
gives the grammar and examples. :class:`Program` holds one parsed program; :meth:`Program.run` runs its
compiled closures, :meth:`Program.interpret` the reference interpreter, and :attr:`Program.effect`
what symbolic evaluation recognises of a square program (a letter or word multiplier).
"""

from __future__ import annotations

from functools import cached_property

from scrabble_core.programs.compiler import Compiled, compile_tree
from scrabble_core.programs.interpreter import interpret
from scrabble_core.programs.parser import BOARD, MAX_DEPTH, SQUARE, parse_program
from scrabble_core.programs.symbolic import Effect, effect
from scrabble_core.programs.syntax import ProgramTree
from scrabble_core.programs.values import DEFAULT_STEPS, MAX_INT, Context, Limits

__all__ = [
    "BOARD",
    "DEFAULT_STEPS",
    "MAX_DEPTH",
    "MAX_INT",
    "SQUARE",
    "Context",
    "Effect",
    "Limits",
    "Program",
]


class Program:
    """A parsed and compiled program.

    Raises (at construction):
        ProgramSyntaxError: ``text`` is not a program of ``kind`` (:data:`BOARD` or :data:`SQUARE`).
    """

    __slots__ = ("__dict__", "_compiled", "kind", "limits", "name", "text", "tree")

    def __init__(self, text: str, name: str, kind: str, limits: Limits = Limits()) -> None:
        self.text = text
        self.name = name
        self.kind = kind
        self.limits = limits
        self.tree: ProgramTree = parse_program(text, name, kind)
        self._compiled: Compiled = compile_tree(self.tree, name)

    def run(self, context: Context, result: int = 0) -> int:
        """Run the compiled program on ``context`` with ``_result_`` starting at ``result``; return the
        final ``_result_``.

        Raises:
            ProgramRuntimeError: an operation fails, or ``_result_`` ends as no whole number.
            ProgramLimitError: the run passes the step limit or the integer size.
        """
        return self._compiled(context, self.limits, result)

    def interpret(self, context: Context, result: int = 0) -> int:
        """:meth:`run` by the reference interpreter: the same result or the same error."""
        return interpret(self.tree, self.name, context, self.limits, result)

    @cached_property
    def effect(self) -> Effect | None:
        """What the square program does to every word, if symbolic evaluation recognises it."""
        return effect(self.tree, self.name, self.limits) if self.kind == SQUARE else None

    def __repr__(self) -> str:
        return f"<Program {self.name}>"
