"""The compiler: a syntax tree as nested Python closures, built once and run many times.

Each expression becomes a function of the :class:`~scrabble_core.programs.values.Frame` returning its
value, each statement a function of the frame; operators, literals and slots are bound when the
closure is built, so a run does no dispatch on node types. Every operation goes through
:mod:`scrabble_core.programs.values`, as in the interpreter, and steps are counted at the same places.
"""

from __future__ import annotations

from collections.abc import Callable

from scrabble_core.programs.syntax import (
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
    Value,
    Var,
)
from scrabble_core.programs.values import (
    Context,
    Frame,
    Limits,
    arithmetic,
    call,
    compare,
    negate,
    truth,
)

Evaluate = Callable[[Frame], Value]
Execute = Callable[[Frame], None]
Compiled = Callable[[Context, Limits, int], int]
"""A compiled program: ``(context, limits, initial _result_) -> final _result_``."""


def compile_tree(tree: ProgramTree, program: str) -> Compiled:
    """Compile ``tree`` (named ``program`` in errors) into a function that runs it.

    The function raises what :func:`~scrabble_core.programs.interpreter.interpret` raises for the same
    run: ProgramRuntimeError, ProgramLimitError.
    """
    body = _block(tree.body)
    slots = tree.slots

    def run(context: Context, limits: Limits, result: int) -> int:
        frame = Frame(program, slots, context, limits, result)
        body(frame)
        return frame.result()

    return run


def _block(body: tuple[Stmt, ...]) -> Execute:
    statements = tuple(_statement(statement) for statement in body)

    def run(frame: Frame) -> None:
        for statement in statements:
            statement(frame)

    return run


def _statement(node: Stmt) -> Execute:
    if isinstance(node, Assign | Declare):
        slot = node.slot
        value = (lambda frame: 0) if node.value is None else _expression(node.value)

        def store(frame: Frame) -> None:
            frame.step()
            frame.slots[slot] = value(frame)

        return store
    condition = _expression(node.condition)
    if isinstance(node, If):
        then, orelse = _block(node.then), _block(node.orelse)

        def branch(frame: Frame) -> None:
            frame.step()
            if truth(frame, node, condition(frame), "if"):
                then(frame)
            else:
                orelse(frame)

        return branch
    body = _block(node.body)

    def loop(frame: Frame) -> None:
        frame.step()
        while True:
            frame.step()
            if not truth(frame, node, condition(frame), "while"):
                return
            body(frame)

    return loop


def _expression(node: Expr) -> Evaluate:
    if isinstance(node, Literal):
        constant = node.value
        return lambda frame: constant
    if isinstance(node, Var):
        slot = node.slot
        return lambda frame: frame.slots[slot]
    if isinstance(node, Unary):
        operand, op = _expression(node.operand), node.op
        return lambda frame: negate(frame, node, op, operand(frame))
    if isinstance(node, Call):
        argument, name = _expression(node.args[0]), node.name
        return lambda frame: call(frame, node, name, argument(frame))
    return _binary(node)


def _binary(node: Binary) -> Evaluate:
    left, right, op = _expression(node.left), _expression(node.right), node.op
    if op == "/\\":
        return lambda frame: (
            truth(frame, node, left(frame), "'/\\'") and truth(frame, node, right(frame), "'/\\'")
        )
    if op == "\\/":
        return lambda frame: (
            truth(frame, node, left(frame), "'\\/'") or truth(frame, node, right(frame), "'\\/'")
        )
    if op in ("+", "-", "*", "/", "%"):
        return lambda frame: arithmetic(frame, node, op, left(frame), right(frame))
    return lambda frame: compare(frame, node, op, left(frame), right(frame))
