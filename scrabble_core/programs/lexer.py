"""The lexer: a program's text as a list of tokens, each with its line and column.

Tokens are whole numbers, character literals (``'A'``), names (letters, digits and ``_``, not starting
with a digit), the symbols of :data:`SYMBOLS`, and an end marker. ``//`` starts a comment to the end of
the line, ``/* ... */`` a comment that may span lines.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from scrabble_core.errors import ProgramSyntaxError, character_name

SYMBOLS: Final = (":=", "<>", "<=", ">=", "/\\", "\\/", "+", "-", "*", "/", "%", "(", ")", "{", "}")
SYMBOLS_TAIL: Final = (";", ",", "=", "<", ">", "~")
KEYWORDS: Final = frozenset({"declare", "if", "then", "else", "while", "do", "true", "false"})
MAX_PROGRAM_LENGTH: Final = 10_000
"""The longest program text accepted, in characters."""


@dataclass(frozen=True, slots=True)
class Token:
    """One token: ``kind`` is ``"int"``, ``"char"``, ``"name"``, ``"keyword"``, ``"symbol"`` or
    ``"end"``; ``text`` its text (the character itself for a character literal)."""

    kind: str
    text: str
    line: int
    column: int


def tokenize(text: str, program: str) -> list[Token]:
    """The tokens of ``text``, ending with an ``"end"`` token; ``program`` names it in errors.

    Raises:
        ProgramSyntaxError: the text is longer than :data:`MAX_PROGRAM_LENGTH`, holds a character that
            starts no token, an unclosed comment or a malformed character literal.
    """
    if len(text) > MAX_PROGRAM_LENGTH:
        raise ProgramSyntaxError(
            program, 1, 1, f"the program has {len(text)} characters, more than {MAX_PROGRAM_LENGTH}"
        )
    tokens: list[Token] = []
    i, line, line_start = 0, 1, 0
    symbols = (*SYMBOLS, *SYMBOLS_TAIL)
    while i < len(text):
        ch = text[i]
        column = i - line_start + 1
        if ch == "\n":
            i, line, line_start = i + 1, line + 1, i + 1
        elif ch in " \t\r":
            i += 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = len(text) if end < 0 else end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                raise ProgramSyntaxError(program, line, column, "the comment /* is never closed by */")
            for j in range(i, end):
                if text[j] == "\n":
                    line, line_start = line + 1, j + 1
            i = end + 2
        elif "0" <= ch <= "9":
            end = i
            while end < len(text) and "0" <= text[end] <= "9":
                end += 1
            tokens.append(Token("int", text[i:end], line, column))
            i = end
        elif ch == "'":
            if i + 2 >= len(text) or text[i + 2] != "'" or text[i + 1] in "\n'":
                raise ProgramSyntaxError(
                    program, line, column, "a character is written as one character in quotes, e.g. 'A'"
                )
            tokens.append(Token("char", text[i + 1], line, column))
            i += 3
        elif ch.isascii() and (ch.isalpha() or ch == "_"):
            end = i
            while end < len(text) and text[end].isascii() and (text[end].isalnum() or text[end] == "_"):
                end += 1
            word = text[i:end]
            tokens.append(Token("keyword" if word in KEYWORDS else "name", word, line, column))
            i = end
        else:
            symbol = next((s for s in symbols if text.startswith(s, i)), None)
            if symbol is None:
                raise ProgramSyntaxError(program, line, column, f"unexpected character {character_name(ch)}")
            tokens.append(Token("symbol", symbol, line, column))
            i += len(symbol)
    tokens.append(Token("end", "", line, len(text) - line_start + 1))
    return tokens
