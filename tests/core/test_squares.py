"""Tests of scrabble_core.squares: square names and move coordinates."""

from __future__ import annotations

import pytest

from scrabble_core.errors import InvalidMoveError
from scrabble_core.squares import coordinate_name, parse_coordinate, parse_square, square_name


@pytest.mark.parametrize(
    ("square", "name"),
    [((7, 7), "H8"), ((0, 0), "A1"), ((14, 14), "O15"), ((10, 10), "K11"), ((24, 24), "Y25")],
)
def test_square_name_and_back(square: tuple[int, int], name: str) -> None:
    assert square_name(square) == name
    assert parse_square(name) == square
    assert parse_square(name.lower()) == square


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("8H", (7, 7, True)),
        ("H8", (7, 7, False)),
        ("8h", (7, 7, True)),
        ("h8", (7, 7, False)),
        (" 15a ", (14, 0, True)),
        ("a15", (14, 0, False)),
        ("1O", (0, 14, True)),
        ("O1", (0, 14, False)),
    ],
)
def test_parse_coordinate_direction_from_order(text: str, expected: tuple[int, int, bool]) -> None:
    assert parse_coordinate(text) == expected


def test_coordinate_name() -> None:
    assert coordinate_name((7, 7), True) == "8H"
    assert coordinate_name((7, 7), False) == "H8"
    assert coordinate_name((2, 4), False) == "E3"


@pytest.mark.parametrize("text", ["", "8", "H", "HH", "88", "8H8", "H-8", "8 H", "123A"])
def test_not_a_coordinate(text: str) -> None:
    with pytest.raises(InvalidMoveError) as info:
        parse_coordinate(text)
    assert str(info.value) == (
        f"{text.strip()!r} is not a coordinate: write the row then the column for a word across (8H), "
        "or the column then the row for a word down (H8)"
    )


@pytest.mark.parametrize("text", ["0H", "H0", "26A", "A26", "Z1", "1Z"])
def test_coordinate_on_no_board(text: str) -> None:
    with pytest.raises(InvalidMoveError) as info:
        parse_coordinate(text)
    assert str(info.value) == f"{text!r} is not a coordinate on any board"
