"""The Monte Carlo search's machinery: the playout board against go_core's Board, the playout policy,
the native search (go_core/_search.c) against the pure-Python reference (go_core/tree.py) on the same
seeds, and which of the two is in use.

CI must not fall back silently: test_native_search_is_in_use fails when the extension is not built,
unless ``SCRABBLE_PURE_PYTHON=1`` or ``SCRABBLE_ALLOW_NO_NATIVE=1`` says that is intended.
"""

from __future__ import annotations

import logging
import os
import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from go_core import Board, Color, Game, Point
from go_core import search as search_module
from go_core.errors import GoError
from go_core.patterns import pattern_table
from go_core.playout import PASS, PlayoutBoard, position_hash
from go_core.prng import XorShift64Star, seed_from
from go_core.search import Position, native_search, new_search, position_of
from go_core.tree import PySearch
from tests.go.go_games import random_game

needs_native = pytest.mark.skipif(native_search() is None, reason="the native search is not in use")
CODES = {Color.BLACK: 1, Color.WHITE: 2}


def _board(rows: list[str], to_move: int = 1) -> PlayoutBoard:
    board = Board.from_rows(rows)
    cells = bytearray(board.size * board.size)
    for color, code in CODES.items():
        for point in board.stones(color):
            cells[point.row * board.size + point.col] = code
    return PlayoutBoard(board.size, 0.5, bytes(cells), to_move, 0, 0, pattern_table())


def _at(board: PlayoutBoard, text: str) -> int:
    point = Point.parse(text, board.size)
    return (point.row + 1) * board.width + point.col + 1


# --- the generator ------------------------------------------------------------------------------------


def test_xorshift64star_follows_its_definition() -> None:
    rng = XorShift64Star(1)
    # From state 1: 1 ^ (1 << 25) after the shifts, times the multiplier, the high 32 bits.
    assert rng.next32() == ((0x2000001 * 0x2545F4914F6CDD1D) % 2**64) >> 32
    assert rng.state == 0x2000001
    assert XorShift64Star(0).state == XorShift64Star(0x9E3779B97F4A7C15).state
    below = XorShift64Star(7)
    assert {below.below(3) for _ in range(200)} == {0, 1, 2}
    assert seed_from(random.Random(4)) == random.Random(4).getrandbits(64)


# --- the playout board against go_core.Board ----------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([2, 3, 5, 7, 9]), st.integers(min_value=1, max_value=2**63))
def test_playout_boards_keep_the_rules_of_go(size: int, seed: int) -> None:
    """Every move of a playout is legal for go_core's Board, and after each one the stones, every
    group's liberties and size, the empty points and the hash are what go_core counts."""
    board = PlayoutBoard(size, 0.5, bytes(size * size), 1, 0, 0, pattern_table())
    reference = Board(size)
    rng = XorShift64Star(seed)
    width = size + 2
    for _ in range(3 * size * size):
        if board.passes >= 2:
            break
        move = board.policy_move(rng)
        color = Color.BLACK if board.to_move == 1 else Color.WHITE
        if move != PASS:
            point = Point(move % width - 1, move // width - 1)
            assert reference.allows(color, point)
            reference.play(color, point)
        board.play(move)
        cells = bytearray(size * size)
        for stone_color, code in CODES.items():
            for point in reference.stones(stone_color):
                index = (point.row + 1) * width + point.col + 1
                cells[point.row * size + point.col] = code
                assert board.color[index] == code
                assert board.libs[board.group[index]] == len(reference.liberties(point))
                assert board.gsize[board.group[index]] == len(reference.group(point))
        assert sorted(board.empties) == sorted(p for p in range(width * width) if board.color[p] == 0)
        assert board.hash == position_hash(size, bytes(cells))


def test_the_simple_ko_cannot_be_retaken_at_once() -> None:
    board = _board([".XO..", "XO.O.", ".XO..", ".....", "....."])
    board.play(_at(board, "C4"))  # Black takes B4; its stone has one liberty, B4
    assert board.ko == _at(board, "B4")
    assert not board.is_legal(_at(board, "B4"), 2)
    board.play(PASS)
    assert board.ko == 0


# --- the playout policy -------------------------------------------------------------------------------


def test_eyes_are_recognised_as_go_core_sees_them() -> None:
    board = _board([".X.X.", "XX.XX", ".....", "XX...", ".X..."])
    assert board.is_eye(_at(board, "A5"), 1)
    assert not board.is_eye(_at(board, "C5"), 1)  # C4 is empty
    assert board.is_eye(_at(board, "A1"), 1)
    assert not board.is_eye(_at(board, "A1"), 2)
    corner = _board([".X...", "XO...", ".....", ".....", "....."])
    assert not corner.is_eye(_at(corner, "A5"), 1)  # on the edge, one enemy diagonal makes it false


def test_a_self_atari_of_two_stones_is_refused_and_of_one_allowed() -> None:
    board = _board(["..X..", "XOX..", ".X...", ".....", "....."], to_move=2)
    assert board.is_bad_self_atari(_at(board, "B5"), 2)  # joins B4: two stones, one liberty (A5)
    assert not board.is_bad_self_atari(_at(board, "A5"), 2)  # a lone stone in atari
    assert not board.is_bad_self_atari(_at(board, "E1"), 2)
    assert board.atari_moves(2) == []


def test_the_atari_step_captures_the_last_stone() -> None:
    board = _board([".....", ".O...", "O.O..", ".....", "....."])
    board.play(_at(board, "B3"))  # Black's stone has one liberty, B2
    assert board.atari_moves(2) == [_at(board, "B2")]


def test_the_atari_step_saves_the_group_the_last_stone_put_in_atari() -> None:
    board = _board([".....", "..X..", ".XO..", ".....", "....."])
    board.play(_at(board, "D3"))  # White C3's last liberty is C2, where it gets three
    assert board.atari_moves(2) == [_at(board, "C2")]
    net = _board([".....", "..X..", ".XO..", "...X.", "..X.."])
    net.play(_at(net, "D3"))  # C2 would leave C3-C2 with one liberty, B2: no escape
    assert net.atari_moves(2) == []


def test_patterns_match_around_the_last_stone() -> None:
    board = _board(["XO...", ".....", ".....", ".....", "....."])
    assert not board.pattern_at(_at(board, "D2"))  # nothing around
    board.play(_at(board, "C5"))  # the enclosing hane shape around B4: X O X above, empty beside
    assert board.pattern_at(_at(board, "B4"))
    moves = board.pattern_moves(2)
    assert _at(board, "B4") in moves
    assert all(board.pattern_at(move) and board.color[move] == 0 for move in moves)


# --- the native search against the reference ----------------------------------------------------------


def _positions() -> list[Position]:
    """Positions of random games (9×9, 5×5, 13×13 and 19×19), one with a ko to retake, one after a
    pass."""
    positions = []
    for size, length in ((9, 30), (5, 12), (13, 40), (19, 25), (9, 0)):
        rng = random.Random(size * 7 + length)
        game = random_game(size, [rng.randrange(10_000) for _ in range(length)])
        positions.append(position_of(game, passes=0))
    ko = Game(5)
    for move in ["B4", "C4", "A3", "D3", "B2", "C2", "C3", "B3"]:
        ko.play(move)
    ko_position = position_of(ko)
    assert ko_position.ko == Point.parse("C3", 5).row * 5 + Point.parse("C3", 5).col
    positions.append(ko_position)
    passed = Game(9)
    passed.play("E5")
    passed.pass_turn()
    positions.append(position_of(passed))
    return positions


@needs_native
@pytest.mark.parametrize("position", _positions(), ids=lambda position: f"{position.size}")
def test_playouts_are_the_same_in_c_and_in_python(position: Position) -> None:
    for seed in (1, 2**63 + 5, 12345):
        native = new_search(position, seed, native=True)
        python = new_search(position, seed, native=False)
        assert native.hash == python.hash == position.history[-1]
        for _ in range(3):
            moves, score = native.playout_trace()
            assert (moves, score) == python.playout_trace()
            assert len(moves) > 0


@needs_native
@pytest.mark.parametrize("position", _positions(), ids=lambda position: f"{position.size}")
def test_searches_are_the_same_in_c_and_in_python(position: Position) -> None:
    native = new_search(position, 99, native=True)
    python = new_search(position, 99, native=False)
    for _ in range(2):
        native.run(150)
        python.run(150)
        assert native.children() == python.children()
        assert native.ownership() == python.ownership()
        assert (native.nodes, native.playouts) == (python.nodes, python.playouts)
    best = max(native.children(), key=lambda child: child[1])[0]
    assert native.advance(best) and python.advance(best)
    assert native.hash == python.hash
    native.run(100)
    python.run(100)
    assert native.children() == python.children()
    assert native.playouts == python.playouts == 100


def test_the_history_starts_again_at_a_setup() -> None:
    game = Game(5)
    game.play("C3")
    game.play("B2")
    game.setup(black=[Point.parse("A1", 5)], empty=[Point.parse("B2", 5)])
    game.play("D4", Color.WHITE, any_turn=True)
    position = position_of(game)
    board = game.board
    cells = bytearray(25)
    for color, code in CODES.items():
        for point in board.stones(color):
            cells[point.row * 5 + point.col] = code
    before = game.copy()
    before.undo()
    assert len(position.history) == 2
    assert position.history[-1] == position_hash(5, bytes(cells)) == position_hash(5, position.cells)
    assert position.history[0] == position_hash(5, position_of(before).cells)
    assert new_search(position, 1, native=False).hash == position.history[-1]


@needs_native
def test_a_full_tree_stops_growing_the_same_way_in_both() -> None:
    position = position_of(Game(5))
    native = new_search(position, 3, max_nodes=60, native=True)
    python = new_search(position, 3, max_nodes=60, native=False)
    native.run(300)
    python.run(300)
    assert native.nodes == python.nodes <= 60
    assert native.children() == python.children()


@pytest.mark.parametrize("native", [pytest.param(True, marks=needs_native), False], ids=["c", "python"])
def test_the_tree_never_repeats_a_position(native: bool) -> None:
    """Black may not retake the ko at once: the tree leaves it out of the root's children."""
    ko = Game(5)
    for move in ["B4", "C4", "A3", "D3", "B2", "C2", "C3", "B3"]:
        ko.play(move)
    tree = new_search(position_of(ko), 5, native=native)
    tree.run(50)
    retake = Point.parse("C3", 5)
    assert retake.row * 5 + retake.col not in [move for move, _, _ in tree.children()]
    assert -1 in [move for move, _, _ in tree.children()]


@pytest.mark.parametrize("native", [pytest.param(True, marks=needs_native), False], ids=["c", "python"])
def test_bad_arguments_are_refused(native: bool) -> None:
    factory = search_module._import_native() if native else PySearch
    assert factory is not None
    table = pattern_table()
    with pytest.raises(ValueError, match="max_nodes must be at least 1"):
        factory(5, 0.5, bytes(25), 1, -1, -1, 0, [], 1, table, 0)
    if native:
        with pytest.raises(ValueError, match="one byte a point"):
            factory(5, 0.5, bytes(24), 1, -1, -1, 0, [], 1, table, 10)
        with pytest.raises(ValueError, match="a board is 2 to 25 points wide"):
            factory(26, 0.5, bytes(26 * 26), 1, -1, -1, 0, [], 1, table, 10)
        with pytest.raises(ValueError, match="cells must be 0"):
            factory(5, 0.5, bytes([3] * 25), 1, -1, -1, 0, [], 1, table, 10)


# --- which search is in use ---------------------------------------------------------------------------


def test_native_search_is_in_use() -> None:
    if os.environ.get("SCRABBLE_PURE_PYTHON") == "1" or os.environ.get("SCRABBLE_ALLOW_NO_NATIVE") == "1":
        pytest.skip("the pure-Python search is allowed here")
    assert native_search() is not None, "go_core._search is not built (pip install -e . needs gcc)"


@pytest.fixture
def fresh_choice() -> Iterator[None]:
    """Let native_search() choose (and log) again, and forget that choice afterwards."""
    native_search.cache_clear()
    yield
    native_search.cache_clear()


@pytest.mark.usefixtures("fresh_choice")
def test_pure_python_is_forced_by_the_environment(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setenv("SCRABBLE_PURE_PYTHON", "1")
    with caplog.at_level(logging.INFO, logger="go_core.search"):
        assert native_search() is None
        assert isinstance(new_search(position_of(Game(5)), 1), PySearch)
    assert [record.getMessage() for record in caplog.records] == [
        "Go search: pure Python (SCRABBLE_PURE_PYTHON=1)"
    ]


@pytest.mark.usefixtures("fresh_choice")
def test_a_missing_extension_falls_back_to_python(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.delenv("SCRABBLE_PURE_PYTHON", raising=False)
    monkeypatch.setattr(search_module, "_import_native", lambda: None)
    with caplog.at_level(logging.INFO, logger="go_core.search"):
        assert isinstance(new_search(position_of(Game(5)), 1), PySearch)
    assert caplog.records[0].getMessage() == (
        "Go search: pure Python (the native core go_core._search is not built)"
    )
    with pytest.raises(GoError, match=r"^the native Go search go_core\._search is not built$"):
        new_search(position_of(Game(5)), 1, native=True)
