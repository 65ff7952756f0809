"""The board-program language: parsing with positions, running (interpreter and compiled closures agree),
the limits, and symbolic recognition of multiplier squares."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scrabble_core.errors import (
    ProgramError,
    ProgramLimitError,
    ProgramRuntimeError,
    ProgramSyntaxError,
)
from scrabble_core.programs import BOARD, MAX_INT, SQUARE, Context, Effect, Limits, Program


def square(text: str) -> Program:
    return Program(text, "test", SQUARE)


def board(text: str) -> Program:
    return Program(text, "test", BOARD)


WORD = Context(pos=1, acc=10, word="QUIZ", points=(10, 1, 1, 10))


def test_the_issue_s_triple_letter_and_double_word() -> None:
    assert square("_result_ := pointValue(_pos_) * 3 + _acc_").run(WORD) == 13
    assert square("_result_ := _acc_ * 2").run(WORD) == 20


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("_result_ := 7 / 2", 3),
        ("_result_ := -7 / 2", -4),
        ("_result_ := -7 % 3", 2),
        ("_result_ := 2 + 3 * 4 - -1", 15),
        ("_result_ := charToInt('A')", 65),
        ("if (intToChar(66) = 'B') then { _result_ := 1 } else { _result_ := 2 }", 1),
        ("if (toUpper('q') = 'Q' /\\ toLower('Q') = 'q') then { _result_ := 1 }", 1),
        ("if (isVowel('e') /\\ ~isVowel('Z') /\\ isLetter('x') /\\ isDigit('7')) then { _result_ := 1 }", 1),
        ("if (false \\/ 1 <> 2) then { _result_ := 5 }", 5),
        ("if ('A' < 'B' /\\ 3 >= 3 /\\ 2 <= 3 /\\ 4 > 3) then { _result_ := 1 }", 1),
        ("declare i; declare s; while (i < 5) do { i := i + 1; s := s + i }; _result_ := s", 15),
        ("declare n := 3; // a comment\n /* and\n another */ _result_ := n * n", 9),
        (
            "if (1 = 2) then { _result_ := 1 } else if (2 = 2) then { _result_ := 2 } else { _result_ := 3 }",
            2,
        ),
    ],
)
def test_constructs(text: str, expected: int) -> None:
    assert board(text).run(Context()) == expected
    assert board(text).interpret(Context()) == expected


def test_word_functions() -> None:
    program = square(
        "if (charValue(_pos_) = 'U' /\\ _length_ = 4) then { _result_ := _acc_ + pointValue(0) } "
        "else { _result_ := 0 }"
    )
    assert program.run(WORD) == 20
    assert program.run(Context(pos=0, acc=10, word="QUIZ", points=(10, 1, 1, 10))) == 0


def test_result_starts_at_the_given_value() -> None:
    assert square("declare unused").run(WORD, result=10) == 10


@pytest.mark.parametrize(
    ("text", "line", "column", "problem"),
    [
        ("x := 1", 1, 1, "x is not declared (write: declare x)"),
        ("declare _x_", 1, 9, "_x_ is a reserved name"),
        ("declare while", 1, 9, "expected a name to declare, found 'while'"),
        ("declare a; declare a", 1, 20, "a is already declared"),
        ("_result_ := 1 +", 1, 16, "expected a value, found the end of the program"),
        ("\n  _result_ := 3 $ 4", 2, 17, "unexpected character $ (Dollar sign)"),
        ("_x_ := 1", 1, 1, "_x_ is read-only: only _result_ and declared names are assigned"),
        ("_result_ := _pos_", 1, 13, "_pos_ is not known in a board program"),
        ("_result_ := pointValue(0)", 1, 13, "pointValue reads the word: only square programs have one"),
        (
            "_result_ := sqrt(4)",
            1,
            13,
            "sqrt is not a function (known: pointValue, charValue, charToInt, "
            "intToChar, toUpper, toLower, isLetter, isVowel, isDigit)",
        ),
        ("_result_ := 1 < 2 < 3", 1, 19, "comparisons do not chain: join them with /\\"),
        ("_result_ := 'AB'", 1, 13, "a character is written as one character in quotes, e.g. 'A'"),
        ("/* open", 1, 1, "the comment /* is never closed by */"),
        ("_result_ := 1 _result_ := 2", 1, 15, "expected ';' between statements, found '_result_'"),
        ("_result_ := 99999999999999999999", 1, 13, f"99999999999999999999 is larger than {MAX_INT}"),
        ("_result_ := " + "(" * 120 + "1" + ")" * 120, 1, 53, "the program nests more than 40 levels deep"),
    ],
)
def test_syntax_errors_name_the_program_and_the_position(
    text: str, line: int, column: int, problem: str
) -> None:
    with pytest.raises(ProgramSyntaxError) as caught:
        board(text)
    assert (caught.value.line, caught.value.column) == (line, column)
    assert str(caught.value) == f"test: line {line}, column {column}: {problem}"


def test_a_long_chain_of_operations_is_refused_not_a_recursion_error() -> None:
    with pytest.raises(ProgramSyntaxError, match="the expression nests more than 40 operations"):
        board("_result_ := " + " + ".join(["1"] * 200))


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("_result_ := 1 / 0", "line 1, column 15: division by zero"),
        ("_result_ := 1 % (2 - 2)", "line 1, column 15: modulo by zero"),
        ("_result_ := 1 + 'A'", "line 1, column 15: '+' needs a whole number, not the character 'A'"),
        ("if (1) then { }", "line 1, column 1: if needs true or false, not the number 1"),
        ("_result_ := intToChar(-1)", "line 1, column 13: intToChar(-1): no character has that code"),
        (
            "if (true < false) then { }",
            "line 1, column 10: '<' orders numbers or characters, not true and false",
        ),
        (
            "if (1 = 'A') then { }",
            "line 1, column 7: '=' compares values of one kind, not the number 1 and the character 'A'",
        ),
        ("_result_ := 'A'", "_result_ must be a whole number, not the character 'A'"),
    ],
)
def test_runtime_errors(text: str, problem: str) -> None:
    for run in (board(text).run, board(text).interpret):
        with pytest.raises(ProgramRuntimeError) as caught:
            run(Context())
        assert str(caught.value) == f"test: {problem}"
        assert not isinstance(caught.value, ProgramLimitError)


def test_a_letter_index_outside_the_word_is_a_runtime_error() -> None:
    with pytest.raises(
        ProgramRuntimeError,
        match=r"test: line 1, column 13: pointValue\(4\): the word's letters are numbered 0 to 3",
    ):
        square("_result_ := pointValue(_pos_ + 3)").run(WORD)


def test_the_step_limit_names_the_program_and_the_limit() -> None:
    program = Program("while (true) do { }", "board.program", BOARD, Limits(steps=50))
    for run in (program.run, program.interpret):
        with pytest.raises(ProgramLimitError) as caught:
            run(Context())
        assert caught.value.limit == "steps"
        assert str(caught.value) == "board.program: ran more than 50 steps (a loop that never ends?)"


def test_the_integer_size_limit() -> None:
    program = board("declare n := 2; while (true) do { n := n * n }")
    for run in (program.run, program.interpret):
        with pytest.raises(ProgramLimitError) as caught:
            run(Context())
        assert caught.value.limit == "integer size"
        assert str(caught.value) == f"test: line 1, column 42: a number grew past {MAX_INT} in size"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("_result_ := pointValue(_pos_) * 3 + _acc_", Effect(1, 3)),
        ("_result_ := _acc_ + pointValue(_pos_)", Effect(1, 1)),
        ("_result_ := _acc_ * 2", Effect(2, 0)),
        (
            "declare k := 1; while (k < 4) do { k := k + 1 }; _result_ := _acc_ + k * pointValue(_pos_)",
            Effect(1, 4),
        ),
        ("if (2 > 1) then { _result_ := 3 * _acc_ } else { _result_ := pointValue(1) }", Effect(3, 0)),
        ("declare a := _acc_; _result_ := a * 2 - _acc_", Effect(1, 0)),
        ("declare unused", Effect(1, 0)),
    ],
)
def test_symbolic_evaluation_recognises_multipliers(text: str, expected: Effect) -> None:
    assert square(text).effect == expected


@pytest.mark.parametrize(
    "text",
    [
        "_result_ := _acc_ + pointValue(0)",
        "_result_ := _acc_ * pointValue(_pos_)",
        "if (_acc_ > 5) then { _result_ := _acc_ * 2 }",
        "_result_ := _acc_ + _length_",
        "if (isVowel(charValue(_pos_))) then { _result_ := _acc_ * 2 }",
        "_result_ := _acc_ + 1",
        "_result_ := _acc_ / 2",
        "while (true) do { }",
    ],
)
def test_symbolic_evaluation_refuses_what_depends_on_the_word(text: str) -> None:
    assert square(text).effect is None


def test_an_effect_is_what_the_program_computes() -> None:
    program = square("declare k := 2; _result_ := (_acc_ + k * pointValue(_pos_)) * 1")
    effect = program.effect
    assert effect == Effect(1, 2)
    assert program.run(WORD) == effect.acc * WORD.acc + effect.points * WORD.points[WORD.pos]


# --- properties ---

_NAMES = ("a", "b", "c")


@st.composite
def _int_expr(draw: st.DrawFn, depth: int = 0) -> str:
    leaves = [
        st.integers(-20, 20).map(lambda n: f"({n})"),
        st.sampled_from([*_NAMES, "_x_", "_y_", "_result_"]),
    ]
    if depth > 3:
        return draw(st.one_of(leaves))
    choice = draw(st.integers(0, 4))
    if choice == 0:
        return draw(st.one_of(leaves))
    if choice == 1:
        op = draw(st.sampled_from(["+", "-", "*", "/", "%"]))
        return f"({draw(_int_expr(depth + 1))} {op} {draw(_int_expr(depth + 1))})"
    if choice == 2:
        return f"-{draw(_int_expr(depth + 1))}"
    if choice == 3:
        return f"charToInt(intToChar({draw(_int_expr(depth + 1))} % 100 + 32))"
    return draw(st.sampled_from(["'A'", "true", "a"]))  # of the wrong kind now and then


@st.composite
def _bool_expr(draw: st.DrawFn, depth: int = 0) -> str:
    op = draw(st.sampled_from(["=", "<>", "<", "<=", ">", ">="]))
    simple = f"{draw(_int_expr(depth + 1))} {op} {draw(_int_expr(depth + 1))}"
    if depth > 2 or draw(st.booleans()):
        return simple
    join = draw(st.sampled_from(["/\\", "\\/"]))
    return f"(({simple}) {join} ~({draw(_bool_expr(depth + 1))}))"


@st.composite
def _statements(draw: st.DrawFn, depth: int = 0) -> str:
    parts = []
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.integers(0, 3 if depth < 2 else 1))
        if kind <= 1:
            parts.append(f"{draw(st.sampled_from([*_NAMES, '_result_']))} := {draw(_int_expr())}")
        elif kind == 2:
            parts.append(
                f"if ({draw(_bool_expr())}) then {{ {draw(_statements(depth + 1))} }} "
                f"else {{ {draw(_statements(depth + 1))} }}"
            )
        else:
            parts.append(f"while ({draw(_bool_expr())}) do {{ {draw(_statements(depth + 1))} }}")
    return "; ".join(parts)


_PROGRAMS = _statements().map(lambda body: f"declare a; declare b := _x_; declare c := _y_; {body}")


def _outcome(run: Callable[[Context], int], context: Context) -> tuple[str, object]:
    try:
        return "ok", run(context)
    except ProgramError as error:
        return type(error).__name__, str(error)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=_PROGRAMS, x=st.integers(-30, 30), y=st.integers(-30, 30))
def test_the_interpreter_and_the_compiled_closures_agree(text: str, x: int, y: int) -> None:
    program = Program(text, "random", BOARD, Limits(steps=500))
    context = Context(x=x, y=y)
    assert _outcome(program.run, context) == _outcome(program.interpret, context)


_FRAGMENTS = st.sampled_from(
    [
        *"ab_x(){};:=<>/\\~+-*%'A0123456789 \n",
        "declare ",
        "if ",
        "then ",
        "else ",
        "while ",
        "do ",
        "_result_",
        "true",
    ]
)


@settings(max_examples=300, deadline=None)
@given(text=st.lists(_FRAGMENTS, max_size=40).map("".join))
def test_no_text_crashes_the_parser(text: str) -> None:
    try:
        Program(text, "fuzz", BOARD, Limits(steps=200))
    except ProgramSyntaxError as error:
        assert len(str(error)) <= 301
        assert str(error).startswith("fuzz: line ")


@settings(max_examples=200, deadline=None)
@given(text=st.text(max_size=60))
def test_no_unicode_text_crashes_the_parser(text: str) -> None:
    with contextlib.suppress(ProgramSyntaxError):
        Program(text, "fuzz", BOARD)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=_PROGRAMS, steps=st.integers(1, 60))
def test_the_step_limit_holds(text: str, steps: int) -> None:
    program = Program(
        f"while (true) do {{ {text} }}",
        "loop",
        BOARD,
        Limits(steps=steps),
    )
    with pytest.raises(ProgramError):
        program.run(Context())


def test_the_examples_of_the_documentation_parse() -> None:
    """Every program of docs/boards.md's examples parses as the kind of program it shows."""
    text = (Path(__file__).resolve().parents[2] / "docs" / "boards.md").read_text(encoding="utf-8")
    examples = text.split("### Examples", 1)[1].split("## How fast", 1)[0]
    blocks = [block.split("```", 1)[0] for block in examples.split("```\n")[1::2]]
    kinds = [SQUARE, SQUARE, BOARD, BOARD]
    assert len(blocks) == len(kinds)
    for block, kind in zip(blocks, kinds, strict=True):
        Program(block, "docs", kind)
