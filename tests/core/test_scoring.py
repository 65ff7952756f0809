"""Tests of scrabble_core.scoring: the words a play forms and their exact scores."""

from __future__ import annotations

from scrabble_core.board import Board
from scrabble_core.move import Play
from scrabble_core.scoring import ScoreBreakdown, WordScore, score_placements, word_runs
from scrabble_core.validation import check_play
from scrabble_core.variant import Variant, get_variant


def board_with(*plays: str, variant: Variant | None = None) -> Board:
    """A board holding the tiles of ``plays`` (GCG notation), placed with no rule checked."""
    board = Board(variant or get_variant("standard"))
    for play in plays:
        board.place(Play.from_gcg(play).placements())
    return board


def score(board: Board, play: str) -> ScoreBreakdown:
    return check_play(board, Play.from_gcg(play))


def words(breakdown: ScoreBreakdown) -> list[tuple[str, int]]:
    return [(word.word, word.points) for word in breakdown.words]


def test_first_play_doubled_on_the_start_square() -> None:
    breakdown = score(Board(get_variant("standard")), "8H QUIZ")
    assert words(breakdown) == [("QUIZ", 44)]
    assert breakdown.bingo == 0
    assert breakdown.total == 44
    assert breakdown.describe() == "QUIZ 44"
    assert breakdown.words[0] == WordScore("QUIZ", (7, 7), True, 44)
    assert breakdown.words[0].coordinate == "8H"


def test_letter_premium_on_the_first_play() -> None:
    # W on D8 (2L), Y on H8 (2W): (8 + 1 + 1 + 2 + 4) x 2.
    assert score(Board(get_variant("standard")), "8D WINDY").total == 32


def test_premium_under_an_old_tile_is_not_counted() -> None:
    board = board_with("8G CAT")
    # B on H7 and T on H9 are plain squares; the 2W under the old A (H8) no longer counts.
    breakdown = score(board, "H7 B.T")
    assert words(breakdown) == [("BAT", 5)]
    # Same for a letter premium under an old tile: W on D8 (2L) counts 4, not 8, in AW.
    board = board_with("8D WINDY")
    breakdown = score(board, "7C GALE")
    assert words(breakdown) == [("GALE", 7), ("AW", 5), ("LI", 2), ("EN", 2)]
    assert breakdown.total == 16
    assert breakdown.describe() == "GALE 7 + AW 5 + LI 2 + EN 2 = 16"


def test_two_words_through_one_new_tile_on_a_double_word() -> None:
    # HA on C5-D5, A on E4: a T on E5 (2W) makes HAT across and AT down, both doubled.
    board = board_with("5C HA", "E3 MA")
    breakdown = score(board, "5E T")
    assert words(breakdown) == [("HAT", 12), ("MAT", 10)]
    assert breakdown.total == 22
    # Written down, the same tile scores the same: only the order of the words changes.
    breakdown = check_play(board, Play(4, 4, False, "T"))
    assert words(breakdown) == [("MAT", 10), ("HAT", 12)]


def test_bingo_adds_fifty() -> None:
    breakdown = score(Board(get_variant("standard")), "8G RETAINS")
    # 1+1+1+1+1+2(N on L8, 2L)+1 = 8, doubled on H8: 16, + 50.
    assert words(breakdown) == [("RETAINS", 16)]
    assert breakdown.bingo == 50
    assert breakdown.total == 66
    assert breakdown.describe() == "RETAINS 16 + bingo 50 = 66"


def test_bingo_through_an_old_tile_with_a_blank() -> None:
    board = board_with("8G CAT")
    # Down from I6 through the old T on I8: N on I7, I on I9 and S on I13 are on 2L squares; the
    # blank q scores nothing. 1 + 2 + 1 + 2 + 0 + 1 + 1 + 2 = 10, + 50 for the seven tiles.
    breakdown = score(board, "I6 AN.IqUES")
    assert words(breakdown) == [("ANTIqUES", 10)]
    assert breakdown.bingo == 50
    assert breakdown.total == 60


def test_blank_on_a_triple_word_scores_zero_but_triples_the_word() -> None:
    board = board_with("8B CAT")
    blank = score(board, "8A s...")
    assert words(blank) == [("sCAT", 15)]  # (0 + 3 + 1 + 1) x 3
    real = score(board, "8A S...")
    assert words(real) == [("SCAT", 18)]


def test_cross_words_use_the_new_tiles_premiums() -> None:
    board = board_with("8G CAT")
    breakdown = score(board, "9G AX")
    # AX: A on G9 (2L) 2 + X 8 = 10; CA: 3 + 2 = 5; AX down: 1 + 8 = 9.
    assert words(breakdown) == [("AX", 10), ("CA", 5), ("AX", 9)]
    assert breakdown.total == 24
    assert [(word.coordinate, word.across) for word in breakdown.words] == [
        ("9G", True),
        ("G8", False),
        ("H8", False),
    ]


def test_main_word_extends_over_old_tiles_before_and_after() -> None:
    board = board_with("8G CAT")
    # An S after CAT makes CATS: the old tiles count at face value.
    assert words(score(board, "8J S")) == [("CATS", 6)]
    # Written as the player typed it from the S, or as the whole word: same score.
    assert words(score(board, "8G ...S")) == [("CATS", 6)]


def test_two_blanks_score_zero() -> None:
    breakdown = score(Board(get_variant("standard")), "8H qi")
    assert words(breakdown) == [("qi", 0)]
    assert breakdown.total == 0


def test_quadruple_squares_of_super() -> None:
    super_variant = get_variant("super")
    board = board_with("1B AT", variant=super_variant)
    assert words(score(board, "1A Q")) == [("QAT", 48)]  # 4W on A1
    board = board_with("3G AT", variant=super_variant)
    assert words(score(board, "3F Q")) == [("QAT", 42)]  # 4L on F3


def test_small_bingo_bonus_of_a_custom_variant(tiny_variant: Variant) -> None:
    board = Board(tiny_variant)
    # Five tiles are the whole rack of this variant: a bingo of 20.
    breakdown = score(board, "3C BÄLLE")
    # B on C3 (3L) 9, Ä 3, L on E3 (2W) 2, L 2, E on G3 (3L) 3 = 19, doubled: 38, + 20.
    assert words(breakdown) == [("BÄLLE", 38)]
    assert breakdown.total == 58


def test_word_runs() -> None:
    board = board_with("8G CAT")
    runs = word_runs(board, [((8, 6), "A"), ((8, 7), "X")], True)
    assert runs == [
        ((8, 6), True, [(8, 6), (8, 7)]),
        ((7, 6), False, [(7, 6), (8, 6)]),
        ((7, 7), False, [(7, 7), (8, 7)]),
    ]
    # The board is not changed by scoring.
    before = board.copy()
    score_placements(board, [((8, 6), "A"), ((8, 7), "X")], True)
    assert board == before
