"""Daily puzzles (scrabble_core.puzzles): the choice from a seed, the filter, the grading of answers."""

from __future__ import annotations

import random

import pytest

from scrabble_core.analysis import Position, game_positions
from scrabble_core.errors import InvalidMoveError, TileNotOnRackError, UnknownWordsError
from scrabble_core.game import Game
from scrabble_core.leaves import LeaveModel
from scrabble_core.lexicon import Lexicon
from scrabble_core.move import move_from_gcg
from scrabble_core.movegen import MoveGenerator
from scrabble_core.puzzles import (
    BEST_POINTS,
    CLOSE_POINTS,
    Puzzle,
    RankedPlay,
    choose_puzzle,
    grade,
    is_interesting,
    puzzle_seed,
    ranked_plays,
    selfplay_positions,
)
from scrabble_core.variant import get_variant

KNOWN_MOVES = [
    "8D PIBAL", "D8 .ACKER", "7G FACT", "8J OUTRAN", "14A ZEDS", "A12 RA.E", "13C E.RHINE", "H11 MI.TY",
    "11B PI.ER", "M3 JUNIO.", "9G DAWN", "10J YOGH", "N5 OF", "M10 .OVE", "N1 NOO", "1K aXI.G", "14L BLIN",
    "O10 LUMI.A", "15J VIES", "2E ROULADE", "1A WADSET", "3A GETTErS",
]  # fmt: skip
"""The known game of test_analysis.py."""

ZERO_LEAVES = LeaveModel("AEIOU", {}, {})
"""Leaves worth nothing: with tiles in the bag a play's equity is its score."""


@pytest.fixture(scope="module")
def turns(enable_lexicon: Lexicon) -> list[Position]:
    game = Game(get_variant("standard"), ["Ann", "Bob"], rng=random.Random(7), lexicon=enable_lexicon)
    for move in KNOWN_MOVES:
        game.push(game.current, move_from_gcg(move))
    return game_positions(game)


def sourced(turns: list[Position]) -> list[tuple[str, Position]]:
    return [(f"game 1, turn {p.number}", p) for p in turns]


def test_the_seed_of_a_guilds_day_is_fixed() -> None:
    assert puzzle_seed(1000, "2026-11-26") == 2796908371970026843
    assert (
        puzzle_seed(1000, "2026-11-27") != puzzle_seed(1000, "2026-11-26") != puzzle_seed(1001, "2026-11-26")
    )


def test_the_puzzle_of_a_day_is_the_same_from_the_same_seed(
    turns: list[Position], enable_generator: MoveGenerator
) -> None:
    chosen = {
        day: choose_puzzle(sourced(turns), enable_generator, ZERO_LEAVES, puzzle_seed(1000, day))
        for day in ("2026-11-26", "2026-11-27", "2026-11-28")
    }
    assert {day: (p.source, p.view.rack, p.answer.move) for day, p in chosen.items() if p} == {
        "2026-11-26": ("game 1, turn 8", "IIMTVYY", "H11 MI.TY"),
        "2026-11-27": ("game 1, turn 13", "FINNOOV", "11K FOIN"),
        "2026-11-28": ("game 1, turn 6", "AEIRVYY", "A12 RA.E"),
    }
    again = choose_puzzle(sourced(turns), enable_generator, ZERO_LEAVES, puzzle_seed(1000, "2026-11-26"))
    assert again == chosen["2026-11-26"]
    assert again is not None and Puzzle.from_dict(again.to_dict()) == again


def test_only_clear_high_scoring_positions_with_tiles_in_the_bag_are_puzzles(
    turns: list[Position], enable_generator: MoveGenerator
) -> None:
    interesting = [
        p.number
        for p in turns
        if is_interesting(p.view, ranked_plays(p.view, enable_generator, ZERO_LEAVES), ZERO_LEAVES)
    ]
    # turn 1: best 24 points; turn 5: ZEDS 43 but ZEES 41 (not clear); turn 7: a bingo; 21, 22: bag empty
    assert interesting == [6, 7, 8, 13, 16, 18, 20]
    best = ranked_plays(turns[6].view, enable_generator, ZERO_LEAVES)[:2]
    assert [(p.move, p.score, p.equity) for p in best] == [
        ("L1 INHEREN.", 74, 74.0),
        ("13C E.RHINE", 30, 30.0),
    ]


def test_no_interesting_position_gives_no_puzzle(
    turns: list[Position], enable_generator: MoveGenerator
) -> None:
    dull = [pair for pair in sourced(turns) if pair[1].number in (1, 2, 3, 21, 22)]
    assert choose_puzzle(dull, enable_generator, ZERO_LEAVES, 5) is None


@pytest.fixture(scope="module")
def puzzle(turns: list[Position], enable_generator: MoveGenerator) -> Puzzle:
    chosen = choose_puzzle(sourced(turns), enable_generator, ZERO_LEAVES, puzzle_seed(1000, "2026-11-27"))
    assert chosen is not None and chosen.view.rack == "FINNOOV"  # best 11K FOIN 32, then N5 OF 28
    return chosen


def test_answers_are_graded_against_the_best_play(puzzle: Puzzle, enable_lexicon: Lexicon) -> None:
    best = grade(puzzle, "11K FOIN", ZERO_LEAVES, enable_lexicon)
    assert (best.move, best.score, best.equity, best.loss, best.points, best.solved) == (
        "11K FOIN", 32, 32.0, 0.0, BEST_POINTS, True
    )  # fmt: skip
    wrong = grade(puzzle, "N5 OF", ZERO_LEAVES, enable_lexicon)
    assert (wrong.move, wrong.score, wrong.loss, wrong.points, wrong.solved) == ("N5 OF", 28, 4.0, 0, False)


def test_a_play_within_the_tolerance_solves_the_puzzle(
    turns: list[Position], enable_generator: MoveGenerator, enable_lexicon: Lexicon
) -> None:
    chosen = choose_puzzle(sourced(turns), enable_generator, ZERO_LEAVES, puzzle_seed(1000, "2026-11-26"))
    assert chosen is not None and [p.move for p in chosen.best[:2]] == ["H11 MI.TY", "F10 MYT.Y"]  # 33, 30
    assert grade(chosen, "F10 MYTHY", ZERO_LEAVES, enable_lexicon).points == 0  # 3 below: outside
    # The same position with a best play worth 31.5: the second play (30) is within the tolerance.
    near = Puzzle(chosen.source, chosen.view, (RankedPlay("H11 MI.TY", 33, 31.5), *chosen.best[1:]))
    graded = grade(near, "F10 MYTHY", ZERO_LEAVES, enable_lexicon)
    assert (graded.move, graded.equity, graded.loss, graded.points, graded.solved) == (
        "F10 MYT.Y", 30.0, 1.5, CLOSE_POINTS, True
    )  # fmt: skip


def test_an_answer_that_is_not_a_play_is_refused_with_the_reason(
    puzzle: Puzzle, enable_lexicon: Lexicon
) -> None:
    with pytest.raises(InvalidMoveError):
        grade(puzzle, "FOIN", ZERO_LEAVES, enable_lexicon)
    with pytest.raises(TileNotOnRackError):
        grade(puzzle, "11K QUIZ", ZERO_LEAVES, enable_lexicon)
    with pytest.raises(UnknownWordsError, match="NOFI"):
        grade(puzzle, "11K NOFI", ZERO_LEAVES, enable_lexicon)


def test_a_self_play_game_is_the_same_from_the_same_seed(
    enable_lexicon: Lexicon, enable_generator: MoveGenerator
) -> None:
    first = selfplay_positions(get_variant("standard"), enable_lexicon, enable_generator, ZERO_LEAVES, 42)
    again = selfplay_positions(get_variant("standard"), enable_lexicon, enable_generator, ZERO_LEAVES, 42)
    assert [(s, p.view.rack, p.move) for s, p in first] == [(s, p.view.rack, p.move) for s, p in again]
    assert len(first) > 10 and first[0][0] == "a self-play game"
