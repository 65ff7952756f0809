"""The interpreter: runs a syntax tree directly, node by node.

It is the reference the compiler (:mod:`scrabble_core.programs.compiler`) is tested against: both run
every operation through :mod:`scrabble_core.programs.values` and count steps the same way.
"""

from __future__ import annotations

from scrabble_core.programs.syntax import (
    Assign,
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


def interpret(tree: ProgramTree, program: str, context: Context, limits: Limits, result: int) -> int:
    """Run ``tree`` on ``context`` with ``_result_`` starting at ``result``; return the final ``_result_``.

    Raises:
        ProgramRuntimeError: an operation fails (the message gives where and why).
        ProgramLimitError: the run passes one of ``limits`` or the integer size.
    """
    frame = Frame(program, tree.slots, context, limits, result)
    _run(frame, tree.body)
    return frame.result()


def _run(frame: Frame, body: tuple[Stmt, ...]) -> None:
    for statement in body:
        frame.step()
        if isinstance(statement, Assign):
            frame.slots[statement.slot] = _evaluate(frame, statement.value)
        elif isinstance(statement, Declare):
            frame.slots[statement.slot] = 0 if statement.value is None else _evaluate(frame, statement.value)
        elif isinstance(statement, If):
            if truth(frame, statement, _evaluate(frame, statement.condition), "if"):
                _run(frame, statement.then)
            else:
                _run(frame, statement.orelse)
        else:
            while True:
                frame.step()
                if not truth(frame, statement, _evaluate(frame, statement.condition), "while"):
                    break
                _run(frame, statement.body)


def _evaluate(frame: Frame, node: Expr) -> Value:
    if isinstance(node, Literal):
        return node.value
    if isinstance(node, Var):
        return frame.slots[node.slot]
    if isinstance(node, Unary):
        return negate(frame, node, node.op, _evaluate(frame, node.operand))
    if isinstance(node, Call):
        return call(frame, node, node.name, _evaluate(frame, node.args[0]))
    if node.op == "/\\":
        return truth(frame, node, _evaluate(frame, node.left), "'/\\'") and truth(
            frame, node, _evaluate(frame, node.right), "'/\\'"
        )
    if node.op == "\\/":
        return truth(frame, node, _evaluate(frame, node.left), "'\\/'") or truth(
            frame, node, _evaluate(frame, node.right), "'\\/'"
        )
    left = _evaluate(frame, node.left)
    right = _evaluate(frame, node.right)
    if node.op in ("+", "-", "*", "/", "%"):
        return arithmetic(frame, node, node.op, left, right)
    return compare(frame, node, node.op, left, right)
