"""Boards written as programs: the variant schema, scoring by square programs, the fast path for
multiplier squares, the refusals at load, and the move generator on such boards."""

from __future__ import annotations

import os
import pickle
import random
from collections.abc import Callable
from copy import deepcopy
from pathlib import Path

import pytest

from scrabble_core.__main__ import main
from scrabble_core.board import Board
from scrabble_core.errors import VariantError
from scrabble_core.gcg import parse_gcg, replay
from scrabble_core.lexicon import Lexicon
from scrabble_core.move import Play
from scrabble_core.movegen import MoveGenerator
from scrabble_core.native import native_core
from scrabble_core.validation import check_play
from scrabble_core.variant import (
    Premium,
    Variant,
    example_variants_dir,
    get_variant,
    load_variant,
    scored_by_programs_only,
    variant_from_dict,
    variant_to_dict,
)

SHARED_DIR = os.environ.get("SCRABBLE_SHARED_DIR")
STANDARD = get_variant("standard")
STANDARD_PROGRAM = load_variant(example_variants_dir() / "standard-program.toml")
DIAMOND = load_variant(example_variants_dir() / "diamond.toml")


def by_programs(variant: Variant) -> Variant:
    """An equal variant whose words are scored by running the square programs, never by multipliers."""
    return scored_by_programs_only(variant)


def test_the_standard_board_as_a_program_has_the_standard_layout_and_its_fast_path() -> None:
    assert STANDARD_PROGRAM.layout == STANDARD.layout
    assert STANDARD_PROGRAM.start == STANDARD.start == (7, 7)
    assert STANDARD_PROGRAM.programs is not None
    assert STANDARD_PROGRAM.programs.multipliers == {0: (1, 1), 1: (2, 1), 2: (3, 1), 3: (1, 2), 4: (1, 3)}
    assert not STANDARD_PROGRAM.scored_by_programs
    assert DIAMOND.scored_by_programs


def test_coordinates_are_x_then_y() -> None:
    programs = STANDARD_PROGRAM.programs
    assert programs is not None
    assert programs.square_id((0, 3)) == 1  # D1, x = 3, y = 0: 2L
    assert programs.square_id((1, 5)) == 2  # F2: 3L
    assert programs.square_id((7, 0)) == 4  # A8: 3W


@pytest.mark.skipif(not SHARED_DIR, reason="SCRABBLE_SHARED_DIR is not set")
@pytest.mark.parametrize(
    "variant", [STANDARD_PROGRAM, by_programs(STANDARD_PROGRAM)], ids=["fast", "programs"]
)
def test_reference_games_score_exactly_as_on_the_built_in_board(variant: Variant) -> None:
    assert SHARED_DIR is not None
    paths = sorted((Path(SHARED_DIR) / "reference" / "gcg").glob("*.gcg"))
    assert paths
    for path in paths:
        record = parse_gcg(path.read_text(encoding="utf-8"))
        built_in = replay(record, STANDARD)
        programmed = replay(record, variant)
        assert [(e.score, e.total) for e in programmed] == [(e.score, e.total) for e in built_in], path.name
        assert [(e.score, e.total) for e in programmed] == [(e.score, e.total) for e in record.events]


def test_scores_by_programs_equal_the_multipliers_on_random_plays(enable_generator: MoveGenerator) -> None:
    forced = by_programs(STANDARD_PROGRAM)
    rng = random.Random(26)
    board, forced_board = Board(STANDARD), Board(forced)
    bag = STANDARD.full_bag()
    for _ in range(12):
        rack = "".join(rng.sample(bag, 7))
        moves = enable_generator.generate(board, rack)
        if not moves:
            continue
        for move in moves[:: max(1, len(moves) // 20)]:
            assert check_play(forced_board, move.play).total == move.score, move.play
        play = rng.choice(moves[:10]).play
        board.place(play.placements())
        forced_board.place(play.placements())


def test_the_vowel_square_of_the_diamond() -> None:
    board = Board(DIAMOND)
    assert DIAMOND.layout[6][6] is Premium.PLAIN  # G7: a vowel square, not a multiplier
    assert DIAMOND.layout[3][7] is Premium.DOUBLE_WORD  # H4
    assert DIAMOND.layout[7][0] is Premium.TRIPLE_WORD  # A8
    assert not DIAMOND.on_board((5, 5))  # F6: a hole
    assert not DIAMOND.on_board((0, 0))  # outside the diamond
    assert check_play(board, Play.from_gcg("8G OX")).total == 9
    board.place(Play.from_gcg("8G OX").placements())
    # A new on the vowel square G7 scores triple; O, already on G8, scores as the used square (plainly).
    assert check_play(board, Play.from_gcg("G7 A.")).total == 4
    # A consonant there scores plainly.
    assert check_play(board, Play.from_gcg("G7 X.")).total == 9
    # A blank on it scores 0 whatever it stands for.
    assert check_play(board, Play.from_gcg("G7 a.")).total == 1


def test_a_programmed_variant_round_trips_through_its_dict_and_pickle() -> None:
    for variant, g7 in ((STANDARD_PROGRAM, 1), (DIAMOND, 4)):  # G7: a 2L, a vowel square
        again = variant_from_dict(variant_to_dict(variant), "again")
        assert again == variant
        unpickled = pickle.loads(pickle.dumps(variant))
        assert unpickled == variant
        assert unpickled.programs is not None and variant.programs is not None
        assert unpickled.programs.square_id((6, 6)) == variant.programs.square_id((6, 6)) == g7


def _data() -> dict[str, object]:
    return deepcopy(variant_to_dict(DIAMOND))


def _board(data: dict[str, object]) -> dict[str, object]:
    board = data["board"]
    assert isinstance(board, dict)
    return board


@pytest.mark.parametrize(
    ("change", "key", "problem"),
    [
        (
            lambda d: _board(d).update(start=[15, 7]),
            "board.start",
            "P8 is not a square of this 15x15 board",
        ),
        (
            lambda d: _board(d).update(start=[5, 5]),
            "board.start",
            "F6 is a hole: the first word could not cover it",
        ),
        (
            lambda d: _board(d).update(start=[0, 0]),
            "board.start",
            "A1 is a hole: the first word could not cover it",
        ),
        (
            lambda d: d.update(tiles={"blanks": 0, "A": [13, 1]}),
            "tiles",
            "13 tiles cannot fill two racks of 7 (need 14)",
        ),
        (
            lambda d: _board(d).update(program="_result_ := 1 / (_x_ - 7)"),
            "board.program",
            "line 1, column 15: division by zero",
        ),
        (
            lambda d: _board(d).update(program="while (true) do { }"),
            "board.program",
            "ran more than 10000 steps (a loop that never ends?)",
        ),
        (
            lambda d: _board(d).update(program="_result_ := "),
            "board.program",
            "line 1, column 13: expected a value, found the end of the program",
        ),
        (
            lambda d: d["squares"]["1"].update({"0": "_result_ := _acc_ / (_pos_ - 1)"}),
            "squares.1.0",
            "line 1, column 19: division by zero",
        ),
        (
            lambda d: d["squares"]["4"].update({"0": "while (true) do { }"}),
            "squares.4.0",
            "ran more than 10000 steps (a loop that never ends?)",
        ),
        (
            lambda d: _board(d).update(used_square=7),
            "board.used_square",
            "no [squares.7] for the tiles on the board",
        ),
        (
            lambda d: _board(d).update(infinite=True),
            "board.size",
            "an infinite board has no size: remove it",
        ),
        (lambda d: _board(d).update(size=[15]), "board.size", "must be [x, y], two whole numbers, not [15]"),
        (
            lambda d: _board(d).update(colour=1),
            "board.colour",
            "unknown key (expected program, start, used_square, infinite, size)",
        ),
        (lambda d: d.update(squares={"a": {}}), "squares.a", "a square id must be a whole number"),
        (
            lambda d: _board(d).pop("start"),
            "board.start",
            "missing: the centre the first word must cover, as [x, y]",
        ),
    ],
)
def test_unplayable_or_broken_variants_are_refused_with_the_reason(
    change: Callable[[dict[str, object]], None], key: str, problem: str
) -> None:
    data = _data()
    change(data)
    with pytest.raises(VariantError) as caught:
        variant_from_dict(data, "club.toml")
    assert (caught.value.key, caught.value.problem) == (key, problem)


def test_a_layout_variant_does_not_take_square_programs() -> None:
    data = deepcopy(variant_to_dict(STANDARD))
    data["squares"] = {"0": {"0": "_result_ := _acc_"}}
    with pytest.raises(VariantError, match="squares: unknown key"):
        variant_from_dict(data, "club.toml")


def test_moves_on_a_board_scored_by_programs_score_as_check_play(
    enable_lexicon: Lexicon, enable_generator: MoveGenerator
) -> None:
    generators = [MoveGenerator(enable_lexicon, enable_generator.dawg, native=False)]
    if native_core() is not None:
        generators.append(MoveGenerator(enable_lexicon, enable_generator.dawg, native=True))
    rng = random.Random(7)
    board = Board(DIAMOND)
    bag = DIAMOND.full_bag()
    for _ in range(6):
        rack = "".join(rng.sample(bag, 7))
        found = [generator.generate(board, rack) for generator in generators]
        assert all(moves == found[0] for moves in found)
        moves = found[0]
        forced = Board.from_rows(by_programs(DIAMOND), board.rows_text())
        for move in moves:
            assert check_play(board, move.play, rack=rack, lexicon=enable_lexicon).total == move.score
            assert check_play(forced, move.play).total == move.score  # every program run
        assert [m.score for m in moves] == sorted((m.score for m in moves), reverse=True)
        best = [generator.top(board, rack, 3) for generator in generators]
        assert all(top == best[0] for top in best)
        assert [m.score for m in best[0]] == [m.score for m in moves[:3]]
        if moves:
            board.place(moves[0].play.placements())
    assert sum(1 for _ in board.tiles()) > 10


def test_replay_command_on_a_programmed_variant(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "game.gcg"
    record.write_text("#player1 a A\n#player2 b B\n>a: AOXQTUZ 8G OX +9 9\n>b: AEIOSTR G7 A. +4 4\n")
    variant = example_variants_dir() / "diamond.toml"
    assert main(["replay", str(record), "--variant", str(variant), "--no-lexicon"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "2 moves, every score and total matches"
