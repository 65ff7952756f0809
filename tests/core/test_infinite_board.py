"""Infinite boards: the variant, the board that keeps only its tiles, signed coordinates, validation,
scoring, move generation in a window (both cores, checked against a wider window) and whole games
(the JSON record and the GCG extension round-trip)."""

from __future__ import annotations

import random
from copy import deepcopy
from pathlib import Path

import pytest

from scrabble_core.__main__ import main
from scrabble_core.ai import Level
from scrabble_core.board import Board, InfiniteBoard
from scrabble_core.errors import (
    InvalidMoveError,
    NotConnectedError,
    OffBoardError,
    ScrabbleError,
    SquareOccupiedError,
    StartSquareError,
    VariantError,
)
from scrabble_core.lexicon import Lexicon
from scrabble_core.move import Play
from scrabble_core.movegen import MoveGenerator, window_variant
from scrabble_core.native import native_core
from scrabble_core.notation import parse_player_play, player_notation
from scrabble_core.validation import check_play
from scrabble_core.variant import (
    Premium,
    Variant,
    example_variants_dir,
    load_variant,
    variant_from_dict,
    variant_to_dict,
)
from tests.core.replays import play_out_and_replay

INFINITE = load_variant(example_variants_dir() / "infinite.toml")


def with_holes() -> Variant:
    """The infinite example with a hole wherever both coordinates are 3 more than a multiple of 8."""
    data = deepcopy(variant_to_dict(INFINITE))
    board = data["board"]
    assert isinstance(board, dict)
    board["program"] = board["program"] + "if (_x_ % 8 = 3 /\\ _y_ % 8 = 3) then { _result_ := 9 }"
    return variant_from_dict(data, "holes")


def test_the_infinite_example() -> None:
    assert INFINITE.infinite
    assert INFINITE.start == (0, 0)
    assert INFINITE.premium((0, 0)) is Premium.DOUBLE_WORD
    assert INFINITE.premium((4, 4)) is Premium.TRIPLE_WORD
    assert INFINITE.premium((-4, -4)) is Premium.TRIPLE_WORD  # the pattern repeats on the negative side
    assert INFINITE.premium((-8, 16)) is Premium.DOUBLE_WORD
    assert INFINITE.premium((0, -4)) is Premium.TRIPLE_LETTER
    assert INFINITE.on_board((-1_000_000, 1_000_000))
    assert INFINITE.square_name((5, -3)) == "-3,5"
    assert INFINITE.coordinate_name((5, -3), True) == "-3,5a"
    assert variant_from_dict(variant_to_dict(INFINITE), "again") == INFINITE


def test_the_board_keeps_only_the_tiles_placed() -> None:
    board = Board(INFINITE)
    assert isinstance(board, InfiniteBoard)
    far = [((-900_000, 5), "A"), ((0, 0), "B"), ((700_000, -3), "C")]
    board.place(far)
    assert list(board.tiles()) == sorted(far)
    assert board.rows_text() == ["5,-900000 A", "0,0 B", "-3,700000 C"]
    assert Board.from_rows(INFINITE, board.rows_text()) == board
    copy = board.copy()
    copy.remove([(0, 0)])
    assert board[(0, 0)] == "B" and copy[(0, 0)] is None
    assert len(board._tiles) == 3  # nothing is kept for the squares between


def test_reading_a_bad_tile_line() -> None:
    with pytest.raises(ScrabbleError, match=r"'x' is not a tile of an infinite board \(x,y TILE\)"):
        Board.from_rows(INFINITE, ["x"])
    with pytest.raises(ScrabbleError, match=r"^0,0 holds two tiles$"):
        Board.from_rows(INFINITE, ["0,0 A", "0,0 B"])


def test_validation_and_scoring_on_signed_squares() -> None:
    board = Board(INFINITE)
    with pytest.raises(StartSquareError, match=r"^the first word must cover the start square 0,0$"):
        check_play(board, Play.from_gcg("1,0a QUIZ"))
    quiz = Play.from_gcg("-2,0a QUIZ")
    assert check_play(board, quiz).total == (10 + 1 + 1 + 10) * 2  # I on the centre, 2W
    board.place(quiz.placements())
    with pytest.raises(SquareOccupiedError, match=r"^-2,0 is already taken by Q$"):
        check_play(board, Play.from_gcg("-2,0d QI"))
    with pytest.raises(NotConnectedError):
        check_play(board, Play.from_gcg("-10,-10a AX"))
    # AXE down x = 1 from y = -3 runs into Z on (1, 0): AXEZ, on plain squares.
    breakdown = check_play(board, Play.from_gcg("1,-3d AXE"))
    assert [(word.word, word.points) for word in breakdown.words] == [("AXEZ", 1 + 8 + 1 + 10)]
    # AXE across the row above QUIZ: X forms XQ down, E forms EU down (plain squares all).
    breakdown = check_play(board, Play.from_gcg("-3,-1a AXE"))
    assert [(word.word, word.points) for word in breakdown.words] == [("AXE", 10), ("XQ", 18), ("EU", 2)]
    # E on -2,-2, a 2L (both coordinates 6 more than a multiple of 8); Q already there scores plainly.
    assert check_play(board, Play.from_gcg("-2,-2d EX.")).words[0].points == 1 * 2 + 8 + 10


def test_a_hole_on_an_infinite_board() -> None:
    variant = with_holes()
    assert not variant.on_board((3, 3)) and not variant.on_board((-5, -5))
    board = Board(variant)
    with pytest.raises(OffBoardError, match=r"^3,-5 is not a square of this board$"):
        check_play(board, Play.from_gcg("3,-6d AB"))


def test_players_type_signed_coordinates() -> None:
    board = Board(INFINITE)
    rack = "QUIZAEE"
    expected = Play(0, -2, True, "QUIZ")
    for text in ("-2,0 across quiz", "(-2, 0) a QUIZ", "-2,0a quiz", " -2 , 0   ACROSS  Quiz", "-2,0 h quiz"):
        assert parse_player_play(text, board, rack) == expected, text
    assert parse_player_play("0,-1 down ziti".replace("ziti", "ZEE"), board, rack) == Play(
        -1, 0, False, "ZEE"
    )
    with pytest.raises(InvalidMoveError, match=r"^'8H' is not a coordinate: write x,y then across or down"):
        parse_player_play("8H QUIZ", board, rack)
    with pytest.raises(
        InvalidMoveError, match=r"^'-2,0' names no direction: add across or down, e.g. -2,0 across$"
    ):
        parse_player_play("-2,0 QUIZ", board, rack)
    assert player_notation(expected, INFINITE) == "-2,0 across QUIZ"
    assert parse_player_play(player_notation(Play(3, 0, False, "qI"), INFINITE), board, "?I") == Play(
        3, 0, False, "qI"
    )


def generators(lexicon: Lexicon, base: MoveGenerator) -> list[MoveGenerator]:
    found = [MoveGenerator(lexicon, base.dawg, native=False)]
    if native_core() is not None:
        found.append(MoveGenerator(lexicon, base.dawg, native=True))
    return found


def leave_value(leave: str) -> float:
    return 7.5 * leave.count("?") + 2.25 * leave.count("S") - 1.5 * (len(leave) - len(set(leave)))


def test_move_generation_in_the_window_is_exact(
    enable_lexicon: Lexicon, enable_generator: MoveGenerator
) -> None:
    """Every play the window gives is legal and scored as check_play scores it; both cores agree; and a
    window three times as wide finds the very same plays."""
    rng = random.Random(2026)
    cores = generators(enable_lexicon, enable_generator)
    board = Board(INFINITE)
    assert isinstance(board, InfiniteBoard)
    bag = INFINITE.full_bag()
    for turn in range(8):
        rack = "".join(rng.sample(bag, 7))
        found = [core.generate(board, rack) for core in cores]
        assert all(moves == found[0] for moves in found)
        moves = found[0]
        for move in moves[:: max(1, len(moves) // 40)]:
            assert check_play(board, move.play, rack=rack, lexicon=enable_lexicon).total == move.score
        for count in (1, 5):
            tops = [core.top(board, rack, count, leave_value) for core in cores]
            assert all(top == tops[0] for top in tops)
        (top, left), (bottom, right) = board.bounds(3 * INFINITE.rack_size)
        wide = Board(window_variant(INFINITE, (top, left), (bottom, right)))
        wide.place(((row - top, col - left), tile) for (row, col), tile in board.tiles())
        wider = {
            (m.play.row + top, m.play.col + left, m.play.across, m.play.letters, m.score)
            for m in cores[0].generate(wide, rack)
        }
        assert {(m.play.row, m.play.col, m.play.across, m.play.letters, m.score) for m in moves} == wider, (
            turn
        )
        if moves:
            board.place(rng.choice(moves[:5]).play.placements())
    (top, left), _ = board.bounds()
    assert top < 0 or left < 0


@pytest.mark.parametrize("level", [Level.GREEDY, Level.HARD, Level.MEDIUM, Level.EASY])
def test_a_whole_game_records_and_replays(
    enable_lexicon: Lexicon, enable_generator: MoveGenerator, level: Level
) -> None:
    record = play_out_and_replay(INFINITE, enable_lexicon, enable_generator, level, f"inf-{level}")
    assert any("," in event.move for event in record.events)  # the GCG extension's signed squares


@pytest.mark.parametrize(
    ("change", "key", "problem"),
    [
        ({"size": [15, 15]}, "board.size", "an infinite board has no size: remove it"),
        ({"start": [3, 3]}, "board.start", None),
        ({"program": "_result_ := 100 / (_x_ - 2)"}, "board.program", "line 1, column 17: division by zero"),
        ({"infinite": "yes"}, "board.infinite", "must be true or false, not 'yes'"),
    ],
)
def test_unplayable_infinite_variants_are_refused(
    change: dict[str, object], key: str, problem: str | None
) -> None:
    data = deepcopy(variant_to_dict(with_holes()))
    board = data["board"]
    assert isinstance(board, dict)
    board.update(change)
    with pytest.raises(VariantError) as caught:
        variant_from_dict(data, "club.toml")
    assert caught.value.key == key
    assert caught.value.problem == (problem or "3,3 is a hole: the first word could not cover it")


def test_the_moves_command_on_an_infinite_board(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    board = tmp_path / "board.txt"
    board.write_text("0,0 Q\n1,0 I\n", encoding="utf-8")
    variant = str(example_variants_dir() / "infinite.toml")
    assert (
        main(["moves", "--variant", variant, "--board", str(board), "--rack", "AEINRST", "--top", "1"]) == 0
    )
    assert capsys.readouterr().out == "1,-1a ANESTRI 59\n"
