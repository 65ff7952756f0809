"""Tests of the native move-generation core (scrabble_core/_movegen.c) against the pure-Python one.

The key expectations of test_movegen.py run with both generators; a differential test compares them
move for move (same list, same order, same scores and leaves; same top plays with a leave valuation)
on random positions of every kind: standard and super boards with ENABLE, small random boards with
holes and 4W/4L squares, long racks, blanks, a non-Latin alphabet and one of more than 31 letters.

CI must not fall back silently: test_native_core_is_in_use fails when the extension is not built,
unless ``SCRABBLE_PURE_PYTHON=1`` or ``SCRABBLE_ALLOW_NO_NATIVE=1`` says that is intended.
"""

from __future__ import annotations

import logging
import os
import random
from array import array
from collections.abc import Iterator
from pathlib import Path

import pytest

from scrabble_core import movegen as movegen_module
from scrabble_core import native as native_module
from scrabble_core.board import Board
from scrabble_core.errors import InvalidMoveError, ScrabbleError
from scrabble_core.leaves import LeaveModel, load_leave_model
from scrabble_core.lexicon import Lexicon
from scrabble_core.move import Play
from scrabble_core.movegen import GeneratedMove, MoveGenerator, load_move_generator
from scrabble_core.native import native_core
from scrabble_core.variant import Variant, get_variant, variant_from_dict

SHARED_DIR = os.environ.get("SCRABBLE_SHARED_DIR")
needs_shared = pytest.mark.skipif(not SHARED_DIR, reason="SCRABBLE_SHARED_DIR is not set")
needs_native = pytest.mark.skipif(native_core() is None, reason="the native core is not in use")

GREEK = "ΑΒΓΔΕΖΗΘΙΚ"
# 40 letters: the table needs 64-bit masks ('q').
WIDE = "АБВГДЕЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯABCDEFGH"
PREMIUMS = ["--"] * 10 + ["2L", "3L", "4L", "2W", "3W", "4W"]


def leave_value(leave: str) -> float:
    """A toy leave valuation with ties and fractions: blanks and S good, duplicates bad."""
    return 7.5 * leave.count("?") + 2.25 * leave.count("S") - 1.5 * (len(leave) - len(set(leave)))


def pair(lexicon: Lexicon, dawg_of: MoveGenerator | None = None) -> tuple[MoveGenerator, MoveGenerator]:
    """A native and a pure-Python generator over one DAWG."""
    base = dawg_of or load_move_generator(lexicon)
    return MoveGenerator(lexicon, base.dawg, native=True), MoveGenerator(lexicon, base.dawg, native=False)


@pytest.fixture(scope="module")
def enable_pair(
    enable_lexicon: Lexicon, enable_generator: MoveGenerator
) -> tuple[MoveGenerator, MoveGenerator]:
    if native_core() is None:
        pytest.skip("the native core is not in use")
    return pair(enable_lexicon, enable_generator)


@pytest.fixture(scope="module", params=["native", "python"])
def either(
    request: pytest.FixtureRequest, enable_lexicon: Lexicon, enable_generator: MoveGenerator
) -> MoveGenerator:
    """The ENABLE generator, once with each core."""
    if request.param == "native" and native_core() is None:
        pytest.skip("the native core is not in use")
    return MoveGenerator(enable_lexicon, enable_generator.dawg, native=request.param == "native")


# --- which core is in use -------------------------------------------------------------------------------


def test_native_core_is_in_use(enable_generator: MoveGenerator) -> None:
    if os.environ.get("SCRABBLE_PURE_PYTHON") == "1" or os.environ.get("SCRABBLE_ALLOW_NO_NATIVE") == "1":
        pytest.skip("the pure-Python generator is allowed here")
    assert native_core() is not None, "scrabble_core._movegen is not built (pip install -e . needs gcc)"
    assert enable_generator.native


@pytest.fixture
def fresh_choice() -> Iterator[None]:
    """Let native_core() choose (and log) again, and forget that choice afterwards."""
    native_core.cache_clear()
    yield
    native_core.cache_clear()


@pytest.mark.usefixtures("fresh_choice")
def test_pure_python_is_forced_by_the_environment(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, enable_generator: MoveGenerator
) -> None:
    monkeypatch.setenv("SCRABBLE_PURE_PYTHON", "1")
    with caplog.at_level(logging.INFO, logger="scrabble_core.native"):
        assert native_core() is None
        native_core()
        generator = MoveGenerator(enable_generator.lexicon, enable_generator.dawg)
    assert not generator.native
    assert [record.getMessage() for record in caplog.records] == [
        "move generation: pure Python (SCRABBLE_PURE_PYTHON=1)"
    ]


@needs_native
@pytest.mark.usefixtures("fresh_choice")
def test_the_native_core_is_logged_once(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.delenv("SCRABBLE_PURE_PYTHON", raising=False)
    with caplog.at_level(logging.INFO, logger="scrabble_core.native"):
        assert native_core() is not None
        assert native_core() is not None
    assert [record.getMessage() for record in caplog.records] == ["move generation: native core"]


@pytest.mark.usefixtures("fresh_choice")
def test_a_missing_extension_falls_back_to_python(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, enable_generator: MoveGenerator
) -> None:
    monkeypatch.delenv("SCRABBLE_PURE_PYTHON", raising=False)
    monkeypatch.setattr(native_module, "import_native", lambda: None)
    monkeypatch.setattr(movegen_module, "import_native", lambda: None)
    with caplog.at_level(logging.INFO, logger="scrabble_core.native"):
        generator = MoveGenerator(enable_generator.lexicon, enable_generator.dawg)
    assert not generator.native
    assert generator.best(Board(get_variant("standard")), "QUIZ") is not None
    assert caplog.records[0].getMessage() == (
        "move generation: pure Python (the native core scrabble_core._movegen is not built)"
    )
    with pytest.raises(ScrabbleError, match="the native move generator is not built"):
        MoveGenerator(enable_generator.lexicon, enable_generator.dawg, native=True)


# --- test_movegen.py's key expectations, with both cores ------------------------------------------------


def shared_board(name: str, variant: Variant) -> Board:
    assert SHARED_DIR is not None
    return Board.from_rows(variant, (Path(SHARED_DIR) / "positions" / f"{name}.txt").read_text().splitlines())


@needs_shared
@pytest.mark.parametrize(
    ("position", "rack", "count", "across", "best"),
    [
        ("midgame1", "RETAINS", 1517, None, 83),
        ("midgame1", "?AEINST", 11266, None, 80),
        ("empty", "RETAINS", 2 * 1089, 1089, 66),
        ("empty", "?AEINST", None, 9444, None),
    ],
)
def test_shared_positions_with_both_cores(
    either: MoveGenerator, position: str, rack: str, count: int | None, across: int | None, best: int | None
) -> None:
    board = shared_board(position, get_variant("standard"))
    moves = either.generate(board, rack)
    if count is not None:
        assert len(moves) == count
    if across is not None:
        assert sum(move.play.across for move in moves) == across
    if best is not None:
        assert moves[0].score == best
        best_move = either.best(board, rack)
        assert best_move is not None and best_move.score == best


# (moves, moves across, one-tile plays, best score): test_movegen.py's OWN_COUNTS.
OWN_COUNTS = {"RETAINS": (1860, 921, 49, 89), "?DEHLOR": (4488, 2340, 140, 71), "QUIZ": (8, 0, 5, 26)}


@pytest.mark.parametrize("rack", list(OWN_COUNTS))
def test_own_position_with_both_cores(either: MoveGenerator, own_midgame_rows: list[str], rack: str) -> None:
    board = Board.from_rows(get_variant("standard"), own_midgame_rows)
    moves = either.generate(board, rack)
    count, across, singles, best = OWN_COUNTS[rack]
    assert len(moves) == count
    assert sum(move.play.across for move in moves) == across
    assert sum(len(move.play.placements()) == 1 for move in moves) == singles
    assert moves[0].score == best
    assert [move.score for move in either.top(board, rack, 5)] == [move.score for move in moves[:5]]


def test_errors_are_the_same_with_both_cores(either: MoveGenerator) -> None:
    board = Board(get_variant("standard"))
    with pytest.raises(InvalidMoveError, match=r"'1' is not a tile of this game"):
        either.generate(board, "AB1")
    with pytest.raises(ValueError, match="count must be at least 1, not 0"):
        either.top(board, "AB", 0)
    greek = variant_from_dict(
        {
            "name": "greek",
            "board": {"start": "C3", "layout": "\n".join([" ".join(["--"] * 5)] * 5)},
            "tiles": {"blanks": 2, **{letter: [9, 1] for letter in GREEK}},
        },
        "greek",
    )
    with pytest.raises(ScrabbleError, match="the greek tiles have letters the lexicon ENABLE lacks: ΑΒΓ"):
        either.generate(Board(greek), "ΑΒ")


# --- the differential test ------------------------------------------------------------------------------


def random_variant(rng: random.Random, alphabet: str) -> Variant:
    """A 4x4 to 9x9 board with random premiums (4W and 4L too) and holes, random values and rules. The
    start square and its neighbours are never holes, so the board is playable."""
    rows, cols = rng.randint(4, 9), rng.randint(4, 9)
    start = (rng.randrange(rows), rng.randrange(cols))
    layout = "\n".join(
        " ".join(
            "##"
            if abs(row - start[0]) + abs(col - start[1]) > 1 and rng.random() < 0.12
            else rng.choice(PREMIUMS)
            for col in range(cols)
        )
        for row in range(rows)
    )
    rack_size = rng.choice([2, 3, 5, 7, 8, 12])
    return variant_from_dict(
        {
            "name": "random",
            "rack_size": rack_size,
            "bingo_bonus": rng.choice([0, 35, 50]),
            "board": {"start": f"{'ABCDEFGHI'[start[1]]}{start[0] + 1}", "layout": layout},
            "tiles": {"blanks": 3, **{letter: [rack_size, rng.randint(0, 12)] for letter in alphabet}},
        },
        "random",
    )


def random_lexicon(rng: random.Random, alphabet: str) -> Lexicon:
    letters = alphabet[: rng.randint(3, min(len(alphabet), 12))] if rng.random() < 0.7 else alphabet
    words = {
        "".join(rng.choice(letters) for _ in range(rng.randint(2, 6))) for _ in range(rng.randint(30, 250))
    }
    return Lexicon.from_words(sorted(words), alphabet)


def random_rack(rng: random.Random, variant: Variant, letters: str, size: int | None = None) -> str:
    size = size or rng.randint(1, variant.rack_size)
    return "".join("?" if rng.random() < 0.12 else rng.choice(letters) for _ in range(size))


def play_some(rng: random.Random, board: Board, generator: MoveGenerator, letters: str, plays: int) -> None:
    """Make ``plays`` random legal plays on ``board`` (with the native core, for speed)."""
    for _ in range(plays):
        moves = generator.generate(board, random_rack(rng, board.variant, letters, board.variant.rack_size))
        if moves:
            board.place(rng.choice(moves[: max(1, len(moves) // 3)]).play.placements())


def assert_same(native: MoveGenerator, python: MoveGenerator, board: Board, rack: str) -> int:
    """Both cores list the same moves in the same order and keep the same top plays; returns the count."""
    context = f"\n{board}\nrack {rack!r}"
    moves = native.generate(board, rack)
    assert moves == python.generate(board, rack), context
    for count in (1, 4):
        assert native.top(board, rack, count) == python.top(board, rack, count), context
        assert native.top(board, rack, count, leave_value) == python.top(board, rack, count, leave_value), (
            context
        )
    return len(moves)


def small_cases(seed: int, count: int) -> Iterator[tuple[MoveGenerator, MoveGenerator, Board, str]]:
    rng = random.Random(seed)
    for _ in range(count):
        alphabet = rng.choice(["ABCDEFGHIJ", GREEK, WIDE])
        lexicon = random_lexicon(rng, alphabet)
        native, python = pair(lexicon)
        variant = random_variant(rng, alphabet)
        board = Board(variant)
        play_some(rng, board, native, alphabet, rng.randint(0, 6))
        for _ in range(3):
            yield native, python, board, random_rack(rng, variant, alphabet)


def enable_cases(
    seed: int, count: int, enable_pair: tuple[MoveGenerator, MoveGenerator]
) -> Iterator[tuple[Board, str]]:
    rng = random.Random(seed)
    native = enable_pair[0]
    letters = "AAAAEEEEIIIOOUBCDFGHJKLMNNPQRRSSTTVWXYZ"
    for _ in range(count):
        board = Board(get_variant(rng.choice(["standard", "standard", "super"])))
        play_some(rng, board, native, letters, rng.randint(0, 12))
        yield board, random_rack(rng, board.variant, letters, rng.choice([2, 5, 7, 7, 7]))


def square_by_square(board: Board) -> str:
    """What :meth:`Board.squares_text` promises, read one square at a time."""
    variant = board.variant
    return "".join(
        board[row, col] or ("." if variant.on_board((row, col)) else "#")
        for row in range(variant.rows)
        for col in range(variant.cols)
    )


def test_the_squares_the_native_core_reads_and_the_rows_saved_are_the_boards_squares() -> None:
    rng = random.Random(4)
    seen = ""
    for _ in range(20):
        alphabet = rng.choice(["ABCDEFGHIJ", GREEK])
        board = Board(random_variant(rng, alphabet))
        assert board.squares_text() == square_by_square(board)
        play_some(rng, board, load_move_generator(random_lexicon(rng, alphabet)), alphabet, 4)
        assert board.squares_text() == square_by_square(board)
        rows = board.rows_text()
        assert rows == [
            square_by_square(board)[row * board.variant.cols :][: board.variant.cols]
            for row in range(len(rows))
        ]
        assert len(rows) == board.variant.rows and Board.from_rows(board.variant, rows) == board
        seen += board.squares_text()
    assert {"#", "."} <= set(seen) and any(tile.islower() for tile in seen)  # holes, empty squares, blanks


@needs_native
@pytest.mark.parametrize("seed", range(3))
def test_native_matches_python_on_small_random_boards(seed: int) -> None:
    total = sum(assert_same(*case) for case in small_cases(seed, 60))
    assert total > 1000


@needs_native
def test_native_matches_python_with_enable(enable_pair: tuple[MoveGenerator, MoveGenerator]) -> None:
    total = sum(assert_same(*enable_pair, board, rack) for board, rack in enable_cases(1, 12, enable_pair))
    assert total > 1000


@needs_native
@pytest.mark.slow
@pytest.mark.parametrize("seed", range(100, 106))
def test_native_matches_python_on_many_random_boards(seed: int) -> None:
    for case in small_cases(seed, 150):
        assert_same(*case)


@needs_native
@pytest.mark.slow
@pytest.mark.parametrize("seed", range(100, 103))
def test_native_matches_python_on_many_enable_boards(
    seed: int, enable_pair: tuple[MoveGenerator, MoveGenerator]
) -> None:
    for board, rack in enable_cases(seed, 60, enable_pair):
        assert_same(*enable_pair, board, rack)


# --- the core refuses bad input instead of crashing -----------------------------------------------------


@needs_native
def test_the_core_checks_its_table() -> None:
    graph = native_core()
    assert graph is not None
    with pytest.raises(ValueError, match="a whole number of nodes"):
        graph(array("i", [0] * 10), "AB")
    with pytest.raises(ValueError, match="entry 1 of the table is not a node"):
        graph(array("i", [0, 7] + [0] * 9), "AB")
    with pytest.raises(ValueError, match="up to 31"):
        graph(array("i", [0] * (32 + 9)), WIDE[:32])


@needs_native
def test_the_core_checks_its_arguments() -> None:
    graph_type = native_core()
    assert graph_type is not None
    lexicon = Lexicon.from_words(["AB", "BA"], "AB")
    graph = graph_type(array("i", load_move_generator(lexicon).dawg.table), "AB")
    geometry = (2, 2, bytes([1, 1] * 4), (1, 2), 3, 0, 50, 7)
    good = (geometry, bytes([255] * 4), bytes([0, 1]), ["AB", "B", "A", ""], 0, None, Play, GeneratedMove)
    assert [move.play.gcg() for move in graph.search(*good)] == ["1A AB", "1A BA", "A1 AB", "A1 BA"]

    def call(index: int, value: object) -> list[GeneratedMove]:
        args: list[object] = list(good)
        args[index] = value
        return graph.search(*args)  # type: ignore[arg-type]

    cases: list[tuple[int, object, type[Exception], str]] = [
        (0, (26, 2, bytes(8), (1, 2), 3, 0, 50, 7), ValueError, "wrong shape"),
        (0, (2, 2, bytes([9] * 8), (1, 2), 3, 0, 50, 7), ValueError, "above 4"),
        (0, (2, 2, bytes([1] * 8), (1, -5), 3, 0, 50, 7), ValueError, "outside 0 to 1000"),
        (0, (2, 2, bytes([1] * 8), (1, 2), 3, 9, 50, 7), ValueError, "wrong shape"),
        (1, bytes([255] * 3), ValueError, "does not match the geometry"),
        (1, bytes([255, 255, 255, 2]), ValueError, "not a letter of the alphabet"),
        (2, bytes([0, 5]), ValueError, "a rack tile"),
        (2, bytes(65), ValueError, "more than 64 tiles"),
        (3, ["AB"], ValueError, "one leave per sub-rack"),
        (4, -1, ValueError, "at least 0"),
        (5, [1.0], ValueError, "one value per leave"),
        (6, int, TypeError, "must be plain slotted dataclasses"),
        (7, Play, TypeError, r"must be plain slotted dataclasses \(play\)"),
    ]
    for index, value, error, message in cases:
        with pytest.raises(error, match=message):
            call(index, value)


@needs_native
def test_the_core_values_leaves_as_the_model_does() -> None:
    from scrabble_core._movegen import leave_values

    model = load_leave_model()
    odd = LeaveModel(
        "AEIOUÄ",
        {
            "tiles": {"Ä": 1.25, "S": 2.0, "?": 9.5},
            "duplicates": {"Ä": -3.0},
            "balance": {"1/1": 0.75, "2/0": -1.5, "03/1": 50.0},  # "03/1" is no cell: never counted
            "synergies": {"ÄS": 4.0, "SS?": -2.5},
        },
        {},
    )
    rng = random.Random(5)
    tiles = "AAEEIOUÄÄBCDLNRSSSTXZ??"
    for each in (model, odd):
        leaves = ["", "Ä", "ÄÄS", "SS?", "ÉÉ"] + [
            "".join(rng.sample(tiles, rng.randint(0, 8))) for _ in range(3000)
        ]
        assert leave_values(each.native_table, leaves) == [each.evaluate(leave) for leave in leaves]
    with pytest.raises(ValueError, match="sizes do not match"):
        leave_values((*model.native_table[:5], 3, model.native_table[6]), ["A"])
    with pytest.raises(TypeError, match="leaves must be strings"):
        leave_values(model.native_table, ["A", 1])  # type: ignore[list-item]


@needs_native
def test_a_leave_model_is_valued_in_the_core(enable_pair: tuple[MoveGenerator, MoveGenerator]) -> None:
    native, python = enable_pair
    model = load_leave_model()
    board = Board(get_variant("standard"))
    for rack in ("AEINST?", "QQUUXZ?", "EEEIIOU"):
        assert native.top(board, rack, 5, model) == python.top(board, rack, 5, model)
        assert native.top(board, rack, 5, model) == native.top(board, rack, 5, model.evaluate)
