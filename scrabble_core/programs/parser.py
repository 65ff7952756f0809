"""The parser: a program's tokens as a :class:`~scrabble_core.programs.syntax.ProgramTree`.

Recursive descent over the grammar of ``docs/boards.md``. Names are resolved here, so a program that
reads a variable it never declared, declares a name twice or a reserved name, assigns a read-only
variable or uses a context variable or function its kind of program does not have is refused before
it ever runs. Nesting is capped (:data:`MAX_DEPTH`) so no text can exhaust the parser's stack or the
interpreter's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from scrabble_core.errors import ProgramSyntaxError, cut
from scrabble_core.programs.lexer import KEYWORDS, Token, tokenize
from scrabble_core.programs.syntax import (
    ACC,
    CONTEXT_VARIABLES,
    FUNCTIONS,
    LENGTH,
    POS,
    RESULT,
    WORD_FUNCTIONS,
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
    While,
    X,
    Y,
)
from scrabble_core.programs.values import MAX_INT

MAX_DEPTH: Final = 40
"""The deepest a program may nest: operators in one expression, parentheses, blocks."""

BOARD: Final = "board"
SQUARE: Final = "square"
KIND_VARIABLES: Final = {BOARD: (X, Y, RESULT), SQUARE: (POS, ACC, RESULT, LENGTH)}
"""The context variables each kind of program may read."""

_COMPARISONS: Final = ("=", "<>", "<=", ">=", "<", ">")


def parse_program(text: str, program: str, kind: str) -> ProgramTree:
    """Parse ``text``, a program of ``kind`` (:data:`BOARD` or :data:`SQUARE`) named ``program`` in errors.

    Raises:
        ProgramSyntaxError: the text is not a program of this kind; the message gives the line and
            column and what was expected there.
    """
    return _Parser(tokenize(text, program), program, kind).program()


class _Parser:
    def __init__(self, tokens: list[Token], program: str, kind: str) -> None:
        self.tokens = tokens
        self.at = 0
        self.program_name = program
        self.kind = kind
        self.scopes: list[dict[str, int]] = [{CONTEXT_VARIABLES[slot]: slot for slot in KIND_VARIABLES[kind]}]
        self.slots = len(CONTEXT_VARIABLES)
        self.depth: dict[int, int] = {}
        self.nesting = 0

    # --- tokens ---

    def peek(self) -> Token:
        return self.tokens[self.at]

    def next(self) -> Token:
        token = self.tokens[self.at]
        self.at += 1
        return token

    def error(self, token: Token, problem: str) -> ProgramSyntaxError:
        return ProgramSyntaxError(self.program_name, token.line, token.column, problem)

    def found(self, token: Token) -> str:
        return "the end of the program" if token.kind == "end" else repr(cut(token.text, 20))

    def is_symbol(self, text: str) -> bool:
        token = self.peek()
        return token.kind == "symbol" and token.text == text

    def is_keyword(self, text: str) -> bool:
        token = self.peek()
        return token.kind == "keyword" and token.text == text

    def expect(self, kind: str, text: str) -> Token:
        token = self.next()
        if token.kind != kind or token.text != text:
            raise self.error(token, f"expected {text!r}, found {self.found(token)}")
        return token

    def enter(self, token: Token) -> None:
        self.nesting += 1
        if self.nesting > MAX_DEPTH:
            raise self.error(token, f"the program nests more than {MAX_DEPTH} levels deep")

    # --- statements ---

    def program(self) -> ProgramTree:
        body = self.statements()
        token = self.peek()
        if token.kind != "end":
            raise self.error(token, f"expected a statement, found {self.found(token)}")
        return ProgramTree(body, self.slots)

    def statements(self) -> tuple[Stmt, ...]:
        body: list[Stmt] = []
        while True:
            while self.is_symbol(";"):
                self.next()
            token = self.peek()
            if token.kind == "end" or (token.kind == "symbol" and token.text == "}"):
                return tuple(body)
            statement = self.statement()
            body.append(statement)
            after = self.peek()
            ends_block = isinstance(statement, If | While)
            if not (
                after.kind == "end" or (after.text in (";", "}") and after.kind == "symbol") or ends_block
            ):
                raise self.error(after, f"expected ';' between statements, found {self.found(after)}")

    def block(self) -> tuple[Stmt, ...]:
        opening = self.expect("symbol", "{")
        self.enter(opening)
        self.scopes.append({})
        body = self.statements()
        self.scopes.pop()
        self.expect("symbol", "}")
        self.nesting -= 1
        return body

    def statement(self) -> Stmt:
        token = self.next()
        if token.kind == "keyword" and token.text == "declare":
            return self.declare(token)
        if token.kind == "keyword" and token.text == "if":
            condition = self.expression()
            self.expect("keyword", "then")
            then = self.block()
            orelse: tuple[Stmt, ...] = ()
            if self.is_keyword("else"):
                self.next()
                if self.is_keyword("if"):
                    self.enter(self.peek())
                    orelse = (self.statement(),)
                    self.nesting -= 1
                else:
                    orelse = self.block()
            return If(token.line, token.column, condition, then, orelse)
        if token.kind == "keyword" and token.text == "while":
            condition = self.expression()
            self.expect("keyword", "do")
            return While(token.line, token.column, condition, self.block())
        if token.kind == "name":
            self.expect("symbol", ":=")
            slot = self.lookup(token)
            if slot < len(CONTEXT_VARIABLES) and slot != RESULT:
                raise self.error(
                    token, f"{token.text} is read-only: only _result_ and declared names are assigned"
                )
            return Assign(token.line, token.column, token.text, slot, self.expression())
        raise self.error(token, f"expected a statement, found {self.found(token)}")

    def declare(self, keyword: Token) -> Declare:
        token = self.next()
        if token.kind != "name":
            raise self.error(token, f"expected a name to declare, found {self.found(token)}")
        name = token.text
        if name in CONTEXT_VARIABLES or name in FUNCTIONS or name in KEYWORDS:
            raise self.error(token, f"{name} is a reserved name")
        if any(name in scope for scope in self.scopes):
            raise self.error(token, f"{name} is already declared")
        value = None
        if self.is_symbol(":="):
            self.next()
            value = self.expression()
        slot = self.slots
        self.slots += 1
        self.scopes[-1][name] = slot
        return Declare(keyword.line, keyword.column, name, slot, value)

    def lookup(self, token: Token) -> int:
        for scope in reversed(self.scopes):
            if token.text in scope:
                return scope[token.text]
        if token.text in CONTEXT_VARIABLES:
            raise self.error(token, f"{token.text} is not known in a {self.kind} program")
        if token.text in FUNCTIONS:
            raise self.error(token, f"{token.text} is a function: call it as {token.text}(...)")
        raise self.error(token, f"{token.text} is not declared (write: declare {token.text})")

    # --- expressions ---

    def deep(self, node: Expr, *parts: Expr) -> Expr:
        depth = 1 + max((self.depth.get(id(part), 1) for part in parts), default=0)
        if depth > MAX_DEPTH:
            raise ProgramSyntaxError(
                self.program_name,
                node.line,
                node.column,
                f"the expression nests more than {MAX_DEPTH} operations",
            )
        self.depth[id(node)] = depth
        return node

    def expression(self) -> Expr:
        return self.binary(("\\/",), self.conjunction)

    def conjunction(self) -> Expr:
        return self.binary(("/\\",), self.negation)

    def binary(self, ops: tuple[str, ...], operand: Callable[[], Expr]) -> Expr:
        left = operand()
        while (token := self.peek()).kind == "symbol" and token.text in ops:
            self.next()
            right = operand()
            left = self.deep(Binary(token.line, token.column, token.text, left, right), left, right)
        return left

    def negation(self) -> Expr:
        token = self.peek()
        if token.kind == "symbol" and token.text == "~":
            self.next()
            self.enter(token)
            operand = self.negation()
            self.nesting -= 1
            return self.deep(Unary(token.line, token.column, "~", operand), operand)
        return self.comparison()

    def comparison(self) -> Expr:
        left = self.sum()
        token = self.peek()
        if token.kind == "symbol" and token.text in _COMPARISONS:
            self.next()
            right = self.sum()
            left = self.deep(Binary(token.line, token.column, token.text, left, right), left, right)
            after = self.peek()
            if after.kind == "symbol" and after.text in _COMPARISONS:
                raise self.error(after, "comparisons do not chain: join them with /\\")
        return left

    def sum(self) -> Expr:
        return self.binary(("+", "-"), self.term)

    def term(self) -> Expr:
        return self.binary(("*", "/", "%"), self.unary)

    def unary(self) -> Expr:
        token = self.peek()
        if token.kind == "symbol" and token.text == "-":
            self.next()
            self.enter(token)
            operand = self.unary()
            self.nesting -= 1
            return self.deep(Unary(token.line, token.column, "-", operand), operand)
        return self.primary()

    def primary(self) -> Expr:
        token = self.next()
        if token.kind == "int":
            value = int(token.text) if len(token.text) <= 20 else MAX_INT + 1
            if value > MAX_INT:
                raise self.error(token, f"{cut(token.text, 20)} is larger than {MAX_INT}")
            return Literal(token.line, token.column, value)
        if token.kind == "char":
            return Literal(token.line, token.column, token.text)
        if token.kind == "keyword" and token.text in ("true", "false"):
            return Literal(token.line, token.column, token.text == "true")
        if token.kind == "symbol" and token.text == "(":
            self.enter(token)
            inner = self.expression()
            self.expect("symbol", ")")
            self.nesting -= 1
            return inner
        if token.kind == "name" and self.is_symbol("("):
            return self.call(token)
        if token.kind == "name":
            slot = self.lookup(token)
            return Var(token.line, token.column, token.text, slot)
        raise self.error(token, f"expected a value, found {self.found(token)}")

    def call(self, token: Token) -> Expr:
        name = token.text
        if name not in FUNCTIONS:
            known = ", ".join(FUNCTIONS)
            raise self.error(token, f"{cut(name, 30)} is not a function (known: {known})")
        if name in WORD_FUNCTIONS and self.kind != SQUARE:
            raise self.error(token, f"{name} reads the word: only square programs have one")
        opening = self.expect("symbol", "(")
        self.enter(opening)
        args: list[Expr] = []
        if not self.is_symbol(")"):
            args.append(self.expression())
            while self.is_symbol(","):
                self.next()
                args.append(self.expression())
        self.expect("symbol", ")")
        self.nesting -= 1
        if len(args) != FUNCTIONS[name]:
            raise self.error(token, f"{name} takes {FUNCTIONS[name]} argument, not {len(args)}")
        return self.deep(Call(token.line, token.column, name, tuple(args)), *args)
