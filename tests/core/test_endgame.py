"""The endgame solver: exact against plain minimax, going out in two, the budget, the expert level.

Each expectation runs with both solvers: the native one (``_endgame.c``, what a MoveGenerator gets) and
the pure-Python one (``python_generator``); they must agree on every exact value.
"""

from __future__ import annotations

import itertools
import random

import pytest

from scrabble_core.ai import Level, MoveSource, SeatView, choose_move
from scrabble_core.board import Board
from scrabble_core.endgame import DEEPENING, _depths, minimax_value, solve_endgame
from scrabble_core.move import Pass, Play
from scrabble_core.movegen import MoveGenerator
from scrabble_core.native import native_core
from scrabble_core.variant import Variant, get_variant

# End positions of seeded hard-vs-hard games (bag empty), as text rows.
BOARDS = {
    "seed0": [
        "...PARDNER.SOLI",
        "...R........WIT",
        "..KA....SHUTED.",
        "..YO....Q..ADO.",
        "..R.M...u.V....",
        ".GIGOT..E.I....",
        "..E.J...A.N....",
        "AB.ZOONAL.I....",
        "MU.E.PURINE....",
        "IF.R....N.S....",
        "EF.O....G.T....",
        ".OBE...........",
        "..IS...........",
        "..C.AX.........",
        "WHEYLIkE.......",
    ],
    "seed2": [
        ".....WELTINGS..",
        "QUOTHA.........",
        "...E.FJELD.....",
        "...L.F.....B...",
        ".V.ER......A...",
        ".E.XI......T...",
        "ON..V.....IT...",
        "PI..ABACK.MUDRA",
        "ENG.G.....P....",
        "N.E.E.....E....",
        "LANOSITY..D.W..",
        "Y.I....OUTEcHO.",
        "..I...RUMOR.I..",
        "..........SIZED",
        "...............",
    ],
    "seed4": [
        "...........FINO",
        "............N..",
        ".....UNRAISEd..",
        "...........TIVY",
        "..........A.G..",
        ".......C..V.E..",
        "......HA..O.N.E",
        "......OLDWIFE.U",
        "......KA.ID...R",
        "...POLEMIZES.JO",
        ".YEAH..A..R..E.",
        "GOLD...R...TAW.",
        ".......IMAGINED",
        "EX.....E.BOT.LO",
        "NUTCaSES......T",
    ],
}
POOL = "AABCDEEEGIILMNOORSTTU?"


@pytest.fixture(scope="module", params=["native", "python"])
def generator(
    request: pytest.FixtureRequest, enable_generator: MoveGenerator, python_generator: MoveSource
) -> MoveSource:
    """The solver's move source: the native generator (the C solver where it is built) or the Python path."""
    if request.param == "native" and native_core() is None:
        pytest.skip("the native core is not in use")
    return enable_generator if request.param == "native" else python_generator


@pytest.fixture(scope="module")
def standard() -> Variant:
    return get_variant("standard")


def _racks(seed: int, mover: int, other: int) -> tuple[str, str]:
    tiles = random.Random(seed).sample(POOL, mover + other)
    return "".join(tiles[:mover]), "".join(tiles[mover:])


@pytest.mark.parametrize(("name", "seed"), list(itertools.product(sorted(BOARDS), range(4))))
def test_solver_equals_exhaustive_minimax(
    generator: MoveSource, standard: Variant, name: str, seed: int
) -> None:
    board = Board.from_rows(standard, BOARDS[name])
    rack, other = _racks(seed, 2, 1) if seed % 2 else _racks(seed, 1, 2)
    result = solve_endgame(board, rack, other, generator)
    assert result.exact
    assert result.value == minimax_value(board, rack, other, generator)
    assert board.rows_text() == BOARDS[name]  # the solver worked on a copy


@pytest.mark.slow
@pytest.mark.parametrize(("name", "seed"), list(itertools.product(sorted(BOARDS), range(4, 6))))
def test_solver_equals_exhaustive_minimax_two_tiles_each(
    generator: MoveSource, standard: Variant, name: str, seed: int
) -> None:
    board = Board.from_rows(standard, BOARDS[name])
    rack, other = _racks(seed, 2, 2)
    assert solve_endgame(board, rack, other, generator).value == minimax_value(board, rack, other, generator)


def test_going_out_in_two_beats_going_out_now(generator: MoveSource, standard: Variant) -> None:
    # Going out with BIT scores 17 + 2 * 10 for the Q; BI then T next turn scores more while the Q is stuck.
    board = Board.from_rows(standard, BOARDS["seed4"])
    view = SeatView(standard, board, "BIT", "Q", 0, (300, 300), 0)
    hard = choose_move(view, generator, Level.HARD, random.Random(0))
    assert hard == Play.from_gcg("15K BIT")
    result = solve_endgame(board, "BIT", "Q", generator)
    assert (result.move, result.value, result.exact) == (Play.from_gcg("2J BI"), 47, True)
    assert minimax_value(board, "BIT", "Q", generator) == 47
    assert choose_move(view, generator, Level.EXPERT, random.Random(0)) == Play.from_gcg("2J BI")


def test_an_unfinished_depth_gives_its_best_root_move(
    python_generator: MoveSource, standard: Variant
) -> None:
    # Depth 1 is hard's rule (go out with BIT: 37). Depth 2 searches BIT first, then BI (22, the Q
    # stuck, T out next: 22 + 2 * 10 at the horizon) before the node budget runs out.
    generator = python_generator
    board = Board.from_rows(standard, BOARDS["seed4"])
    first = solve_endgame(board, "BIT", "Q", generator, max_nodes=1)
    assert (first.move, first.value, first.depth, first.exact) == (Play.from_gcg("15K BIT"), 37, 1, False)
    partial = solve_endgame(board, "BIT", "Q", generator, max_nodes=3)
    assert (partial.move, partial.value, partial.depth, partial.exact) == (
        Play.from_gcg("2J BI"),
        42,
        1,
        False,
    )


def test_a_budget_spent_before_the_search_starts_still_ends_it_after_depth_1(
    generator: MoveSource, standard: Variant
) -> None:
    # A pre-endgame playout may reach its endgame after the turn's deadline: depth 1 finishes anyway
    # (hard's rule, BIT out for 37), and the budget stops the search there, not at the exact 2J BI.
    board = Board.from_rows(standard, BOARDS["seed4"])
    late = solve_endgame(board, "BIT", "Q", generator, deadline=-1.0)
    assert (late.move, late.value, late.depth, late.exact) == (Play.from_gcg("15K BIT"), 37, 1, False)
    ticks = itertools.count(1)
    timed = solve_endgame(board, "BIT", "Q", generator, deadline=0.5, clock=lambda: next(ticks))
    assert (timed.move, timed.depth, timed.exact) == (Play.from_gcg("15K BIT"), 1, False)
    assert timed.nodes == late.nodes <= 3


def test_pass_at_the_scoreless_limit_ends_the_game(generator: MoveSource, standard: Variant) -> None:
    # After five scoreless turns, passing ends the game: each side loses its own rack (Q 10, E 1).
    board = Board.from_rows(standard, BOARDS["seed4"])
    result = solve_endgame(board, "Q", "E", generator, scoreless=5)
    assert generator.generate(board, "Q") == []
    assert (result.move, result.value, result.exact) == (Pass(), 1 - 10, True)


def test_out_of_budget_returns_the_deepest_finished_depth(generator: MoveSource, standard: Variant) -> None:
    board = Board.from_rows(standard, BOARDS["seed0"])
    ticks = itertools.count()
    result = solve_endgame(board, "ACEINRT", "DGOSU", generator, deadline=0.5, clock=lambda: next(ticks))
    assert (result.depth, result.exact) == (1, False)
    out = solve_endgame(board, "ACEINRT", "DGOSU", generator, max_nodes=1)
    assert out.move == result.move and out.depth == 1
    view = SeatView(standard, board, "ACEINRT", "DGOSU", 0, (0, 0), 0)
    assert result.move == choose_move(view, generator, Level.HARD, random.Random(0))


@pytest.fixture(scope="module")
def native_generator(enable_generator: MoveGenerator) -> MoveGenerator:
    if native_core() is None:
        pytest.skip("the native core is not in use")
    return enable_generator


def _value_of(move: Play | Pass, board: Board, rack: str, other: str, generator: MoveSource) -> int:
    """What ``move`` is worth to the mover with best play after it (the Python solver, exact)."""
    variant = board.variant
    if isinstance(move, Pass):
        after = solve_endgame(board, other, rack, generator, scoreless=1)
        assert after.exact
        return -after.value
    placed = move.placements()
    kept = rack
    for tile in move.rack_tiles():
        kept = kept.replace(tile, "", 1)
    score = next(c.score for c in generator.generate(board, rack) if c.play == move)
    if not kept:
        return score + 2 * variant.rack_value(other)
    work = board.copy()
    work.place(placed)
    after = solve_endgame(work, other, kept, generator)
    assert after.exact
    return score - after.value


def test_the_depths_deepen_to_the_deepening_then_jump_to_the_greatest() -> None:
    assert (DEEPENING, _depths(64), _depths(3), _depths(DEEPENING)) == (
        4,
        [1, 2, 3, 4, 64],
        [1, 2, 3],
        [1, 2, 3, 4],
    )


def test_a_line_longer_than_the_deepening_is_solved_exactly(generator: MoveSource, standard: Variant) -> None:
    board = Board.from_rows(standard, BOARDS["seed0"])
    assert minimax_value(board, "DT", "BG", generator) == 19
    result = solve_endgame(board, "DT", "BG", generator)
    # nine turns: the longest line walked, beyond the depths deepened one by one
    assert (result.move, result.value, result.exact, result.depth) == (Play.from_gcg("6I .D.T"), 19, True, 9)
    shallow = solve_endgame(board, "DT", "BG", generator, max_depth=DEEPENING)
    assert (shallow.value, shallow.exact, shallow.depth) == (19, False, DEEPENING)


@pytest.mark.parametrize(("name", "seed"), list(itertools.product(sorted(BOARDS), range(3))))
def test_the_native_solver_agrees_with_the_python_one(
    native_generator: MoveGenerator, python_generator: MoveSource, standard: Variant, name: str, seed: int
) -> None:
    board = Board.from_rows(standard, BOARDS[name])
    rack, other = _racks(seed + 10, 3, 2)
    native = solve_endgame(board, rack, other, native_generator)
    python = solve_endgame(board, rack, other, python_generator)
    assert native.exact and python.exact
    assert native.value == python.value
    assert _value_of(native.move, board, rack, other, python_generator) == native.value


def test_the_native_budget_keeps_the_deepest_finished_depth(
    native_generator: MoveGenerator, standard: Variant
) -> None:
    board = Board.from_rows(standard, BOARDS["seed0"])
    first = solve_endgame(board, "ACEINRT", "DGOSU", native_generator, max_nodes=1)
    view = SeatView(standard, board, "ACEINRT", "DGOSU", 0, (0, 0), 0)
    assert (first.depth, first.exact) == (1, False)
    assert first.move == choose_move(view, native_generator, Level.HARD, random.Random(0))
    deeper = solve_endgame(board, "ACEINRT", "DGOSU", native_generator, max_nodes=2000)
    assert not deeper.exact and deeper.depth >= 2 and deeper.nodes == 2001
    assert board.rows_text() == BOARDS["seed0"]


def test_the_native_solver_refuses_what_it_cannot_search(
    native_generator: MoveGenerator, standard: Variant
) -> None:
    from scrabble_core._movegen import solve_endgame as native_solve

    native = native_generator.native_board(Board(standard))
    assert native is not None
    with pytest.raises(ValueError, match="solve_endgame: an argument out of its range"):
        native_solve(
            native.graph,
            native.geometry,
            native.squares,
            native.tiles("AAAAAAAAA"),
            b"",
            0,
            6,
            64,
            5,
            -1,
            None,
            lambda: 0.0,
            lambda: 0.0,
        )


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(BOARDS))
def test_the_native_solver_agrees_with_the_python_one_on_four_tiles_each(
    native_generator: MoveGenerator, python_generator: MoveSource, standard: Variant, name: str
) -> None:
    board = Board.from_rows(standard, BOARDS[name])
    for seed in range(3):
        rack, other = _racks(seed + 20, 4, 4)
        native = solve_endgame(board, rack, other, native_generator)
        python = solve_endgame(board, rack, other, python_generator)
        assert native.exact and python.exact and native.value == python.value
