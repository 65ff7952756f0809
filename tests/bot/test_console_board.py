"""The board, rack and header drawn as terminal text, in colour and in plain ASCII."""

from __future__ import annotations

import re

import pytest

from bot.console.terminal_board import Style, draw_board, draw_header, draw_rack, draw_scores
from bot.render import BoardHeader, PlayerLine
from scrabble_core.board import Board
from scrabble_core.variant import get_variant

_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def quiz_board(variant_name: str) -> Board:
    """QUIZ across from the start square, the I a blank."""
    variant = get_variant(variant_name)
    row, col = variant.start
    board = Board(variant)
    board.place([((row, col + i), tile) for i, tile in enumerate("QUiZ")])
    return board


def test_plain_board_has_coordinates_premiums_values_and_the_last_move() -> None:
    text = draw_board(quiz_board("standard"), {(7, 7), (7, 8), (7, 9)}, Style.PLAIN)
    lines = text.splitlines()
    assert text.isascii()
    assert len(lines) == 15 + 2
    assert lines[0].split() == list("ABCDEFGHIJKLMNO") == lines[-1].split()
    assert " ".join(lines[1].split()) == "1 TW . . DL . . . TW . . . DL . . TW 1"
    assert ">Q10>U1 >i   Z10" in lines[8]  # the blank: lowercase, no value; Z not in the last move
    assert len({line.rindex(" ") for line in lines[1:-1]}) == 1  # the columns line up


def test_plain_board_before_the_first_move_shows_the_start() -> None:
    lines = draw_board(Board(get_variant("standard")), (), Style.PLAIN).splitlines()
    assert lines[8].split()[8] == "*"


@pytest.mark.parametrize(("variant", "size"), [("standard", 15), ("super", 21)])
def test_rich_board_is_coloured_and_aligned(variant: str, size: int) -> None:
    board = quiz_board(variant)
    text = draw_board(board, {board.variant.start}, Style.RICH)
    lines = _ANSI.sub("", text).splitlines()
    assert len(lines) == size + 2
    assert {line.rindex(" ") for line in lines[1:-1]} == {len(str(size)) + 1 + 3 * size}
    assert "Q₁₀" in text and " i " in text
    assert text.count("\x1b[") >= size * size


def test_rack_header_and_scores() -> None:
    variant = get_variant("standard")
    assert draw_rack("AQ?", variant, Style.PLAIN) == "A1 Q10 ?"
    assert _ANSI.sub("", draw_rack("AQ?", variant, Style.RICH)) == " A₁ Q₁₀  ? "
    assert draw_rack("", variant, Style.PLAIN) == "(empty)"
    header = BoardHeader([PlayerLine("Ann", 34, False), PlayerLine("AI", 20, True)], 79)
    assert draw_header(header, Style.PLAIN) == "Ann 34   > AI 20   | bag: 79"
    assert draw_scores(["Ann", "AI"], [[34, 60], [20]]) == "Ann: 34 60\nAI:  20"
