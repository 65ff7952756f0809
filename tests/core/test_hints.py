"""Tests of scrabble_core.hints: the top moves of a rack with their words, points and leave."""

from __future__ import annotations

import pytest

from scrabble_core.board import Board
from scrabble_core.errors import InvalidMoveError
from scrabble_core.hints import DEFAULT_HINTS, Hint, Hints, hints
from scrabble_core.lexicon import Lexicon
from scrabble_core.move import Play
from scrabble_core.movegen import MoveGenerator
from scrabble_core.scoring import WordScore, score_placements
from scrabble_core.validation import check_play
from scrabble_core.variant import get_variant


@pytest.fixture(scope="module")
def generator(enable_generator: MoveGenerator) -> MoveGenerator:
    return enable_generator


@pytest.fixture(scope="module")
def board(own_midgame_rows: list[str]) -> Board:
    return Board.from_rows(get_variant("standard"), own_midgame_rows)


@pytest.mark.parametrize("rack", ["RETAINS", "?DEHLOR", "QUIZ", "EE?"])
def test_hints_are_the_top_moves_with_their_words(
    generator: MoveGenerator, enable_lexicon: Lexicon, board: Board, rack: str
) -> None:
    found = hints(board, rack, generator)
    moves = generator.generate(board, rack)
    assert len(found.moves) == min(DEFAULT_HINTS, len(moves))
    assert [hint.score for hint in found.moves] == [move.score for move in moves[:DEFAULT_HINTS]]
    assert found.best_score == moves[0].score
    generated = {move.play: move for move in moves}
    for hint in found.moves:
        move = generated[hint.play]
        assert (hint.score, hint.leave) == (move.score, move.leave)
        assert hint.breakdown == check_play(board, hint.play, rack=rack, lexicon=enable_lexicon)
        assert hint.breakdown == score_placements(board, hint.play.placements(), hint.play.across)
        assert hint.breakdown.total == hint.score
        assert hint.words == hint.breakdown.words
        assert all(word.word.upper() in enable_lexicon for word in hint.words)


def test_hint_of_a_bingo_through_a_tile(generator: MoveGenerator, board: Board) -> None:
    best = hints(board, "RETAINS", generator, top=1).moves[0]
    assert best == Hint(
        Play.from_gcg("H7 ..RNIATES"),
        89,
        "",
        best.breakdown,
    )
    assert best.words == (WordScore("HERNIATES", (6, 7), False, 39),)
    assert best.breakdown.bingo == 50
    assert best.breakdown.describe() == "HERNIATES 39 + bingo 50 = 89"


def test_hint_words_show_blanks_and_cross_words(generator: MoveGenerator, board: Board) -> None:
    found = hints(board, "?DEHLOR", generator, top=20)
    assert any(any(char.islower() for char in hint.words[0].word) for hint in found.moves)
    assert any(len(hint.words) > 1 for hint in found.moves)
    for hint in found.moves:
        main = hint.words[0]
        assert (main.start, main.across) == (hint.play.start, hint.play.across)


def test_more_hints_than_moves(generator: MoveGenerator, board: Board) -> None:
    found = hints(board, "QUIZ", generator, top=50)
    assert len(found.moves) == 8
    assert found.best_score == 26


def test_no_hint_for_a_rack_without_a_play(generator: MoveGenerator) -> None:
    found = hints(Board(get_variant("standard")), "Q", generator)
    assert found == Hints(())
    assert found.best_score is None


def test_bad_requests(generator: MoveGenerator, board: Board) -> None:
    with pytest.raises(ValueError, match="count must be at least 1, not 0"):
        hints(board, "RETAINS", generator, top=0)
    with pytest.raises(InvalidMoveError):
        hints(board, "RETAIN5", generator)
