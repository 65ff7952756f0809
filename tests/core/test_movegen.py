"""Tests of scrabble_core.movegen, scrabble_core.dawg and the ``moves`` command.

The move generator is checked against the brute force of ``conftest.py`` (every word in every window,
kept if validation accepts it) on random small boards of random variants with holes, random small
lexicons and random racks with blanks, and on a midgame of our own with ENABLE; every move it lists is
accepted by :func:`check_play` with the same score. The public cross-check counts of other engines on
the shared positions run when ``SCRABBLE_SHARED_DIR`` is set.
"""

from __future__ import annotations

import io
import logging
import os
import random
import re
import shlex
import subprocess
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from scrabble_core import dawg as dawg_module
from scrabble_core import movegen as movegen_module
from scrabble_core.__main__ import main
from scrabble_core.board import Board
from scrabble_core.dawg import LOOKAHEAD, build_dawg, dawg_cache_path, load_dawg
from scrabble_core.errors import InvalidMoveError, ScrabbleError
from scrabble_core.lexicon import ENGLISH_ALPHABET, Lexicon, load_word_list
from scrabble_core.move import Play
from scrabble_core.movegen import GeneratedMove, MoveGenerator, load_move_generator
from scrabble_core.squares import Square
from scrabble_core.validation import canonical_play, check_play
from scrabble_core.variant import Variant, get_variant, variant_from_dict

# The brute_force fixture of conftest.py: (board, rack, words) -> {placements: (play, score)}.
Placements = frozenset[tuple[Square, str]]
BruteForce = Callable[[Board, str, Iterable[str]], dict[Placements, tuple[Play, int]]]

REPO_ROOT = Path(__file__).resolve().parents[2]
SHARED_DIR = os.environ.get("SCRABBLE_SHARED_DIR")
needs_shared = pytest.mark.skipif(not SHARED_DIR, reason="SCRABBLE_SHARED_DIR is not set")

# The midgame of our own (fixture own_midgame_rows): edges, a blank (the y of EyRY), tiles to play
# through and along. rack: (moves, moves across, one-tile plays, best score), computed by the generator and checked
# against the brute force with ENABLE (test_own_position_matches_the_brute_force_with_enable).
OWN_COUNTS = {
    "RETAINS": (1860, 921, 49, 89),
    "?DEHLOR": (4488, 2340, 140, 71),
    "QUIZ": (8, 0, 5, 26),
    "EE?": (421, 188, 112, 15),
}
GCG_LINE = re.compile(r"^(?:\d{1,2}[A-Y]|[A-Y]\d{1,2}) [A-Za-z]+ \d+$")


@pytest.fixture(scope="module")
def generator(enable_generator: MoveGenerator) -> MoveGenerator:
    return enable_generator


@pytest.fixture(scope="module")
def standard() -> Variant:
    return get_variant("standard")


@pytest.fixture(scope="module")
def own_board(standard: Variant, own_midgame_rows: list[str]) -> Board:
    return Board.from_rows(standard, own_midgame_rows)


def shared_board(name: str, variant: Variant) -> Board:
    assert SHARED_DIR is not None
    text = (Path(SHARED_DIR) / "positions" / f"{name}.txt").read_text(encoding="utf-8")
    return Board.from_rows(variant, text.splitlines())


def by_placements(moves: list[GeneratedMove]) -> dict[Placements, tuple[Play, int]]:
    """The moves keyed as the brute force keys them; fails on a duplicate."""
    keyed = {frozenset(move.play.placements()): (move.play, move.score) for move in moves}
    assert len(keyed) == len(moves), "a move is listed twice"
    return keyed


def expected_leave(rack: str, play: Play, alphabet: str) -> str:
    left = list(rack)
    for tile in play.rack_tiles():
        left.remove(tile)
    return "".join(sorted(left, key=lambda tile: (tile == "?", alphabet.find(tile))))


def assert_agrees_with_validation(
    board: Board, rack: str, moves: list[GeneratedMove], lexicon: Lexicon
) -> None:
    """Every move is legal, canonical, scored as validation scores it, with the right leave."""
    for move in moves:
        assert check_play(board, move.play, rack=rack, lexicon=lexicon).total == move.score, move
        assert canonical_play(board, move.play) == move.play, move
        assert move.leave == expected_leave(rack, move.play, lexicon.alphabet), move
    assert [move.score for move in moves] == sorted((move.score for move in moves), reverse=True)


# --- The DAWG -------------------------------------------------------------------------------------


def test_dawg_holds_exactly_the_words() -> None:
    words = sorted(["CAT", "CATS", "BAT", "BATS", "AT", "ATE", "TA", "TAB", "TABS"])
    dawg = build_dawg(words, "ABCEST")
    assert list(dawg.words()) == words
    # CAT and BAT share their suffix; the nodes after CATS, BATS, ATE, TABS are one final node.
    assert dawg.node_count < sum(len(word) for word in words)


def test_dawg_lookahead_masks() -> None:
    words = sorted(["AB", "ABC", "ACE", "BE", "BED", "CAB"])
    alphabet = "ABCDE"
    dawg = build_dawg(words, alphabet)
    size = len(alphabet)
    for depth in range(LOOKAHEAD + 1):
        letters = {word[depth] for word in words if len(word) > depth}
        assert dawg.table[size + 1 + depth] == sum(1 << alphabet.index(letter) for letter in letters)
    node_a = dawg.table[alphabet.index("A")]
    assert dawg.table[node_a + size] == 0  # A is not a word
    assert dawg.table[node_a + size + 1] == 0b00110  # AB, AC
    assert dawg.table[node_a + size + 2] == 0b10100  # ABC, ACE


def test_enable_dawg(enable_lexicon: Lexicon, generator: MoveGenerator, movegen_cache_dir: Path) -> None:
    assert generator.dawg.node_count == 54_167
    assert len(generator.dawg.table) == 54_167 * (26 + 2 + LOOKAHEAD)
    path = dawg_cache_path(enable_lexicon, movegen_cache_dir)
    assert path == movegen_cache_dir / f"{enable_lexicon.source_hash}.dawg"
    assert path.is_file()


@pytest.mark.slow
def test_enable_dawg_spells_every_word(enable_lexicon: Lexicon, generator: MoveGenerator) -> None:
    assert list(generator.dawg.words()) == list(enable_lexicon)


@pytest.mark.parametrize(
    ("words", "problem"),
    [
        (["CAT", "BAT"], "'BAT' is out of order or repeated"),
        (["CAT", "CAT"], "'CAT' is out of order or repeated"),
        (["CATS", "CAT"], "'CAT' is out of order or repeated"),
        (["CAT", "DOG"], "'DOG' has a letter outside the alphabet"),
    ],
)
def test_build_dawg_rejects_bad_input(words: list[str], problem: str) -> None:
    with pytest.raises(ValueError, match=re.escape(problem)):
        build_dawg(words, "ABCST")


def test_build_dawg_rejects_huge_alphabets() -> None:
    with pytest.raises(ValueError, match="at most 63"):
        build_dawg([], "".join(chr(0x4E00 + i) for i in range(64)))


def _word_list(tmp_path: Path, words: list[str]) -> Lexicon:
    source = tmp_path / "words.txt"
    source.write_text("\n".join(words), encoding="utf-8")
    return load_word_list(source, ENGLISH_ALPHABET, cache_dir=tmp_path / "cache")


def test_dawg_cache_is_written_once_and_read_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lexicon = _word_list(tmp_path, ["CAT", "CATS", "DOG"])
    built = load_dawg(lexicon)
    path = dawg_cache_path(lexicon)
    assert path is not None and path.parent == tmp_path / "cache" and path.is_file()

    def fail(*args: object) -> None:
        raise AssertionError("rebuilt instead of read from the cache")

    monkeypatch.setattr(dawg_module, "build_dawg", fail)
    assert load_dawg(lexicon).table == built.table
    assert load_move_generator(lexicon).dawg.table == built.table


def _damage(kind: str, data: bytes) -> bytes:
    if kind == "empty":
        return b""
    if kind == "truncated":
        return data[:-4]
    if kind == "flipped":
        return data[:-1] + bytes([data[-1] ^ 1])
    if kind == "header":
        return data.replace(b"dawg 1", b"dawg 9", 1)
    return b"\xff\xfe not a cache \n\n"


@pytest.mark.parametrize("kind", ["empty", "truncated", "flipped", "header", "garbage"])
def test_damaged_dawg_cache_is_rebuilt(tmp_path: Path, kind: str, caplog: pytest.LogCaptureFixture) -> None:
    lexicon = _word_list(tmp_path, ["CAT", "CATS", "DOG"])
    good = load_dawg(lexicon)
    path = dawg_cache_path(lexicon)
    assert path is not None
    sound = path.read_bytes()
    path.write_bytes(_damage(kind, sound))
    with caplog.at_level(logging.WARNING, logger="scrabble_core.dawg"):
        assert load_dawg(lexicon).table == good.table
    assert "rebuilding it" in caplog.text
    assert path.read_bytes() == sound
    assert [p.name for p in path.parent.iterdir() if p.suffix == ".tmp"] == []


def test_dawg_cache_of_another_alphabet_is_rebuilt(tmp_path: Path) -> None:
    lexicon = _word_list(tmp_path, ["CAT", "DOG"])
    path = dawg_cache_path(lexicon)
    assert path is not None
    path.parent.mkdir(parents=True, exist_ok=True)
    other = Lexicon.from_words(["CAT"], "ACT")
    load_dawg(other, cache_dir=path.parent)
    other_path = dawg_cache_path(other, path.parent)
    assert other_path is not None
    path.write_bytes(other_path.read_bytes())
    assert list(load_dawg(lexicon).words()) == ["CAT", "DOG"]


def test_unwritable_dawg_cache_still_gives_a_generator(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    lexicon = Lexicon.from_words(["CAT", "AT"], ENGLISH_ALPHABET)
    blocker = tmp_path / "a file"
    blocker.write_text("not a directory")
    with caplog.at_level(logging.WARNING, logger="scrabble_core.dawg"):
        generator = load_move_generator(lexicon, cache_dir=blocker)
    assert "cannot write the DAWG cache" in caplog.text
    assert list(generator.dawg.words()) == ["AT", "CAT"]


def test_lexicon_in_memory_is_not_cached(tmp_path: Path) -> None:
    lexicon = Lexicon.from_words(["CAT", "AT"], ENGLISH_ALPHABET)
    assert dawg_cache_path(lexicon) is None
    assert list(load_dawg(lexicon).words()) == ["AT", "CAT"]


# --- Cross-checks with other engines (shared positions) --------------------------------------------


@needs_shared
@pytest.mark.parametrize(
    ("position", "rack", "count", "best"),
    [
        ("midgame1", "RETAINS", 1517, 83),
        ("midgame1", "?AEINST", 11266, 80),
        ("empty", "RETAINS", 2 * 1089, 66),
    ],
)
def test_shared_positions_cross_check(
    generator: MoveGenerator, standard: Variant, position: str, rack: str, count: int, best: int
) -> None:
    board = shared_board(position, standard)
    moves = generator.generate(board, rack)
    assert len(moves) == count
    assert moves[0].score == best
    best_move = generator.best(board, rack)
    assert best_move is not None and best_move.score == best
    if position == "empty":
        assert sum(move.play.across for move in moves) == count // 2
    if rack == "RETAINS" and position == "midgame1":
        assert ("15C NASTIER", 83) in {(move.play.gcg(), move.score) for move in moves}


@needs_shared
def test_shared_empty_board_with_a_blank(generator: MoveGenerator, standard: Variant) -> None:
    moves = generator.generate(shared_board("empty", standard), "?AEINST")
    assert sum(move.play.across for move in moves) == 9444


@needs_shared
@pytest.mark.parametrize("rack", ["RETAINS", "?AEINST"])
def test_shared_midgame_agrees_with_validation(
    generator: MoveGenerator, enable_lexicon: Lexicon, standard: Variant, rack: str
) -> None:
    board = shared_board("midgame1", standard)
    assert_agrees_with_validation(board, rack, generator.generate(board, rack), enable_lexicon)


@needs_shared
@pytest.mark.parametrize("rack", ["RETAINS", pytest.param("?AEINST", marks=pytest.mark.slow)])
def test_shared_midgame_matches_the_brute_force(
    generator: MoveGenerator, enable_lexicon: Lexicon, standard: Variant, brute_force: BruteForce, rack: str
) -> None:
    board = shared_board("midgame1", standard)
    words = spellable(board, rack, enable_lexicon)
    assert by_placements(generator.generate(board, rack)) == brute_force(board, rack, words)


def spellable(board: Board, rack: str, words: Iterable[str]) -> list[str]:
    """The words the board's tiles and ``rack`` have the letters for (a blank is any letter): every word
    a play makes is one of them, so the brute force finds the same plays with these alone, faster."""
    supply = Counter(rack.replace("?", "")) + Counter(
        tile.upper() for square in board.variant.squares() if (tile := board[square]) is not None
    )
    blanks = rack.count("?")
    return [word for word in words if sum((Counter(word) - supply).values()) <= blanks]


# --- Our own midgame with ENABLE ---------------------------------------------------------------------


@pytest.mark.parametrize("rack", list(OWN_COUNTS))
def test_own_position_counts(generator: MoveGenerator, own_board: Board, rack: str) -> None:
    moves = generator.generate(own_board, rack)
    count, across, singles, best = OWN_COUNTS[rack]
    assert len(moves) == count
    assert sum(move.play.across for move in moves) == across
    assert sum(len(move.play.placements()) == 1 for move in moves) == singles
    assert moves[0].score == best
    by_placements(moves)


def test_own_position_best_move(generator: MoveGenerator, own_board: Board) -> None:
    best = generator.best(own_board, "RETAINS")
    assert best == GeneratedMove(Play.from_gcg("H7 ..RNIATES"), 89, "")


@pytest.mark.parametrize("rack", ["RETAINS", "?DEHLOR", "QUIZ"])
def test_own_position_agrees_with_validation(
    generator: MoveGenerator, enable_lexicon: Lexicon, own_board: Board, rack: str
) -> None:
    assert_agrees_with_validation(own_board, rack, generator.generate(own_board, rack), enable_lexicon)


@pytest.mark.parametrize("rack", ["EE?", "QUIZ", "RT?"])
def test_own_position_matches_the_brute_force_with_short_words(
    enable_lexicon: Lexicon, own_board: Board, brute_force: BruteForce, rack: str
) -> None:
    short = Lexicon.from_words([word for word in enable_lexicon if len(word) <= 3], ENGLISH_ALPHABET)
    moves = load_move_generator(short).generate(own_board, rack)
    assert moves
    assert by_placements(moves) == brute_force(own_board, rack, short)


@pytest.mark.slow
@pytest.mark.parametrize("rack", list(OWN_COUNTS))
def test_own_position_matches_the_brute_force_with_enable(
    generator: MoveGenerator, enable_lexicon: Lexicon, own_board: Board, brute_force: BruteForce, rack: str
) -> None:
    expected = brute_force(own_board, rack, enable_lexicon)
    assert len(expected) == OWN_COUNTS[rack][0]
    assert by_placements(generator.generate(own_board, rack)) == expected


# --- Random small boards against the brute force -----------------------------------------------------

LETTERS = "ABCDEFG"
PREMIUMS = ["--"] * 12 + ["2L", "3L", "4L", "2W", "3W", "4W"]


def random_variant(rng: random.Random) -> Variant:
    """A 5x5 to 7x7 board with random premiums, a few holes (never beside the start square, so that the
    board is playable) and random letter values."""
    rows, cols = rng.randint(5, 7), rng.randint(5, 7)
    start = (rng.randrange(rows), rng.randrange(cols))
    layout = "\n".join(
        " ".join(
            "##"
            if (row, col) != start and rng.random() < 0.1 and abs(row - start[0]) + abs(col - start[1]) > 1
            else rng.choice(PREMIUMS)
            for col in range(cols)
        )
        for row in range(rows)
    )
    rack_size = rng.randint(3, 7)
    return variant_from_dict(
        {
            "name": "random",
            "rack_size": rack_size,
            "bingo_bonus": rng.choice([0, 20, 50]),
            "board": {"start": f"{'ABCDEFG'[start[1]]}{start[0] + 1}", "layout": layout},
            "tiles": {"blanks": 2, **{letter: [rack_size, rng.randint(0, 5)] for letter in LETTERS}},
        },
        "random",
    )


def random_words(rng: random.Random) -> list[str]:
    return [
        "".join(rng.choice(LETTERS) for _ in range(rng.randint(2, 5))) for _ in range(rng.randint(20, 80))
    ]


def random_board(rng: random.Random, variant: Variant, lexicon: Lexicon) -> Board:
    """A board after a few random legal plays, sometimes with stray tiles (blanks too) anywhere."""
    board = Board(variant)
    generator = load_move_generator(lexicon)
    for _ in range(rng.randint(0, 5)):
        moves = generator.generate(board, random_rack(rng, variant, blanks=1))
        if moves:
            board.place(rng.choice(moves).play.placements())
    if rng.random() < 0.3:
        free = [square for square in variant.squares() if board[square] is None]
        for square in rng.sample(free, min(len(free), rng.randint(1, 3))):
            letter = rng.choice(LETTERS)
            board.place([(square, letter.lower() if rng.random() < 0.3 else letter)])
    return board


def random_rack(rng: random.Random, variant: Variant, blanks: int = 2) -> str:
    size = rng.randint(1, variant.rack_size)
    return "".join("?" if rng.random() < 0.15 * blanks else rng.choice(LETTERS) for _ in range(size))


def random_cases(seed: int, count: int) -> Iterator[tuple[Board, str, Lexicon]]:
    rng = random.Random(seed)
    for _ in range(count):
        variant = random_variant(rng)
        lexicon = Lexicon.from_words(random_words(rng), LETTERS)
        yield random_board(rng, variant, lexicon), random_rack(rng, variant), lexicon


def check_random_case(board: Board, rack: str, lexicon: Lexicon, brute_force: BruteForce) -> None:
    generator = load_move_generator(lexicon)
    moves = generator.generate(board, rack)
    context = f"\n{board}\nrack {rack} words {sorted(lexicon)}"
    assert by_placements(moves) == brute_force(board, rack, lexicon), context
    assert_agrees_with_validation(board, rack, moves, lexicon)
    best = generator.best(board, rack)
    assert (best.score if best else None) == (moves[0].score if moves else None), context
    equities = sorted((move.score + leave_value(move.leave) for move in moves), reverse=True)
    top = generator.top(board, rack, 3, leave_value)
    assert [move.score + leave_value(move.leave) for move in top] == equities[:3], context


@pytest.mark.parametrize("seed", range(4))
def test_random_boards_match_the_brute_force(seed: int, brute_force: BruteForce) -> None:
    for board, rack, lexicon in random_cases(seed, 10):
        check_random_case(board, rack, lexicon, brute_force)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(100, 120))
def test_many_random_boards_match_the_brute_force(seed: int, brute_force: BruteForce) -> None:
    for board, rack, lexicon in random_cases(seed, 50):
        check_random_case(board, rack, lexicon, brute_force)


# --- Rules and details ---------------------------------------------------------------------------------


def test_empty_board_plays_cover_the_start_with_two_tiles(
    generator: MoveGenerator, standard: Variant
) -> None:
    moves = generator.generate(Board(standard), "RETAINS")
    assert len(moves) == 2 * 1089
    assert all(standard.start in [square for square, _ in move.play.placements()] for move in moves)
    assert min(len(move.play.placements()) for move in moves) == 2


def test_one_tile_plays_are_listed_once_in_canonical_direction(
    generator: MoveGenerator, standard: Variant
) -> None:
    rows = ["." * 15] * 15
    rows[7] = ".......CAT....."
    board = Board.from_rows(standard, rows)
    moves = [(move.play.gcg(), move.score) for move in generator.generate(board, "S")]
    # SCAT and CATS across; AS down (written down: it forms no word across).
    assert sorted(moves) == [("8G S...", 6), ("8H ...S", 6), ("I8 .S", 3)]
    rows[8] = "........H......"
    board = Board.from_rows(standard, rows)
    # O on J9 forms HO across and TO down: listed once, across.
    assert [(move.play.gcg(), move.score) for move in generator.generate(board, "O")] == [("9I .O", 7)]


def test_each_letter_of_a_blank_is_its_own_move(generator: MoveGenerator, standard: Variant) -> None:
    rows = ["." * 15] * 15
    rows[7] = ".......AT......"
    board = Board.from_rows(standard, rows)
    moves = generator.generate(board, "?")
    before_at = {move.play.letters for move in moves if move.play.gcg().startswith("8G ")}
    assert before_at == {letter + ".." for letter in "bcefghklmopqrstvw"}
    assert all(move.score in (1, 2) and move.leave == "" for move in moves)
    assert len(moves) == 53


def test_leave_lists_letters_in_alphabet_order_then_blanks(
    generator: MoveGenerator, standard: Variant
) -> None:
    rack = "S?TE?A"
    leaves = {move.play.gcg(): move.leave for move in generator.generate(Board(standard), rack)}
    assert leaves["8G AT"] == "ES??"
    assert leaves["8G aT"] == "AES?"
    assert leaves["8H at"] == "AEST"
    assert leaves["8C ASTErn"] == ""
    for gcg, leave in list(leaves.items())[::20]:
        assert leave == expected_leave(rack, Play.from_gcg(gcg), ENGLISH_ALPHABET)


def test_bingo_follows_the_variant_rack_size(tiny_variant: Variant) -> None:
    lexicon = Lexicon.from_words(["BÄLLE", "BALL", "ALLE", "BÄR", "AB"], tiny_variant.alphabet)
    generator = load_move_generator(lexicon)
    moves = {move.play.gcg(): move.score for move in generator.generate(Board(tiny_variant), "BÄLLE")}
    assert moves["3C BÄLLE"] == 58  # 38 + a bingo of 20 for 5 tiles
    four = {move.play.gcg(): move.score for move in generator.generate(Board(tiny_variant), "BALL")}
    assert four["3B BALL"] == 20  # 10 doubled, no bingo with a rack of 4
    blank_b = {move.play.gcg(): move.score for move in generator.generate(Board(tiny_variant), "?ÄLLE")}
    assert blank_b["3C bÄLLE"] == 40
    blank_a = {move.play.gcg(): move.score for move in generator.generate(Board(tiny_variant), "B?LLE")}
    assert blank_a["3C BäLLE"] == 52


def test_plays_skip_holes(tiny_variant: Variant, brute_force: BruteForce) -> None:
    lexicon = Lexicon.from_words(["BAT", "TAB", "AT", "TA", "BATS", "STAB", "BEAT"], tiny_variant.alphabet)
    board = Board.from_rows(tiny_variant, ["....#....", ".........", "..BAT....", ".........", "....#...."])
    moves = load_move_generator(lexicon).generate(board, "SABE?")
    assert by_placements(moves) == brute_force(board, "SABE?", lexicon)
    assert all((0, 4) not in move.play.squares() and (4, 4) not in move.play.squares() for move in moves)


def test_racks_longer_than_the_lookahead(brute_force: BruteForce) -> None:
    layout = "\n".join(" ".join(["--"] * 12) for _ in range(3))
    variant = variant_from_dict(
        {
            "name": "long",
            "rack_size": 10,
            "board": {"start": "L2", "layout": layout},
            "tiles": {"blanks": 2, "A": [10, 1], "B": [10, 2], "C": [10, 3]},
        },
        "long",
    )
    words = ["ABACABACAB", "CABBACABBA", "ABCABCABCA", "BACCABACCAB", "AB", "CAB", "ABBA"]
    lexicon = Lexicon.from_words(words, "ABC")
    board = Board.from_rows(variant, ["............", "...........A", "............"])
    for rack in ("BACABACAB?", "ABCABCABC", "CBBACABBA"):
        moves = load_move_generator(lexicon).generate(board, rack)
        assert by_placements(moves) == brute_force(board, rack, lexicon)
    # Nine tiles before the anchor (the A on L2): further than the DAWG's lookahead masks reach.
    assert "2C CABBACABB." in {move.play.gcg() for move in moves}


def test_blanks_stand_only_for_letters_of_the_variant(brute_force: BruteForce) -> None:
    variant = variant_from_dict(
        {
            "name": "abt",
            "board": {"start": "C3", "layout": "\n".join(" ".join(["--"] * 5) for _ in range(5))},
            "tiles": {"blanks": 2, "A": [6, 1], "B": [6, 2], "T": [6, 1]},
        },
        "abt",
    )
    lexicon = Lexicon.from_words(["AB", "AX", "BAT", "TAX", "XI", "TAB"], ENGLISH_ALPHABET)
    board = Board.from_rows(variant, [".....", ".....", "..BAT", ".....", "....."])
    moves = load_move_generator(lexicon).generate(board, "A?")
    assert moves and not any("x" in move.play.letters for move in moves)
    assert by_placements(moves) == brute_force(board, "A?", lexicon)


def super_midgame(lexicon: Lexicon) -> Board:
    board = Board(get_variant("super"))
    for text in ("11H QUIRK", "L9 JO.E", "13J TOYS"):
        play = Play.from_gcg(text)
        check_play(board, play, lexicon=lexicon)
        board.place(play.placements())
    return board


def test_super_board(generator: MoveGenerator, enable_lexicon: Lexicon) -> None:
    board = super_midgame(enable_lexicon)
    for rack in ("RETAINS", "?EGILNO"):
        moves = generator.generate(board, rack)
        assert len(moves) > 400
        assert_agrees_with_validation(board, rack, moves, enable_lexicon)


@pytest.mark.slow
def test_super_board_matches_the_brute_force(
    generator: MoveGenerator, enable_lexicon: Lexicon, brute_force: BruteForce
) -> None:
    board = super_midgame(enable_lexicon)
    assert by_placements(generator.generate(board, "RETAINS")) == brute_force(
        board, "RETAINS", enable_lexicon
    )


def test_one_generator_serves_several_variants(generator: MoveGenerator, standard: Variant) -> None:
    super_moves = generator.generate(Board(get_variant("super")), "RETAINS")
    assert super_moves[0].play.start[0] == 10
    assert len(generator.generate(Board(standard), "RETAINS")) == 2178


def test_board_changes_are_seen(generator: MoveGenerator, standard: Variant) -> None:
    board = Board(standard)
    before = generator.generate(board, "AT")
    board.place([((7, 7), "C")])
    after = generator.generate(board, "AT")
    assert {move.play.gcg() for move in after} >= {"8H .AT", "H8 .AT"}
    assert not {move.play for move in before} & {move.play for move in after}
    board.remove([(7, 7)])
    assert generator.generate(board, "AT") == before
    generator.clear_cache()
    assert generator.generate(board, "AT") == before


def test_one_generator_in_several_threads(
    generator: MoveGenerator,
    enable_lexicon: Lexicon,
    own_board: Board,
    standard: Variant,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Tiny caches, so that threads keep evicting each other's boards and racks.
    monkeypatch.setattr(movegen_module, "_POSITION_CACHE_SIZE", 1)
    monkeypatch.setattr(movegen_module, "_RACK_CACHE_SIZE", 1)
    shared = MoveGenerator(enable_lexicon, generator.dawg)
    jobs = [(board, rack) for board in (own_board, Board(standard)) for rack in ("RETAINS", "QUIZ", "EE?")]
    expected = [generator.generate(board, rack) for board, rack in jobs]
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda job: shared.generate(*job), jobs * 4))
    assert results == expected * 4


def test_empty_rack_and_no_play(generator: MoveGenerator, standard: Variant) -> None:
    assert generator.generate(Board(standard), "") == []
    assert generator.best(Board(standard), "") is None
    assert generator.generate(Board(standard), "Q") == []
    assert generator.top(Board(standard), "QQ", 5) == []


def test_bad_racks_and_variants(generator: MoveGenerator, standard: Variant, tiny_variant: Variant) -> None:
    board = Board(standard)
    for rack in ("RET1INS", "retains", "AB*"):
        with pytest.raises(InvalidMoveError, match="is not a tile of this game"):
            generator.generate(board, rack)
        with pytest.raises(InvalidMoveError):
            generator.best(board, rack)
    with pytest.raises(ScrabbleError, match="the tiny tiles have letters the lexicon ENABLE lacks: Ä"):
        generator.generate(Board(tiny_variant), "BALL")


# --- best and top ------------------------------------------------------------------------------------


def leave_value(leave: str) -> float:
    """A toy leave valuation: blanks and S are good, duplicates and Q bad."""
    return (
        8.0 * leave.count("?")
        + 3.0 * leave.count("S")
        - 2.0 * (len(leave) - len(set(leave)))
        - 6 * leave.count("Q")
    )


@pytest.mark.parametrize("rack", ["RETAINS", "?DEHLOR", "QUIZ", "EEIIOUQ", "S?"])
def test_best_and_top_agree_with_the_full_list(generator: MoveGenerator, own_board: Board, rack: str) -> None:
    moves = generator.generate(own_board, rack)
    best = generator.best(own_board, rack)
    assert best is not None and best.score == moves[0].score and best in moves
    top = generator.top(own_board, rack, 10)
    assert [move.score for move in top] == [move.score for move in moves[:10]]
    assert set(top) <= set(moves)
    equities = sorted((move.score + leave_value(move.leave) for move in moves), reverse=True)
    valued = generator.best(own_board, rack, leave_value)
    assert valued is not None and valued.score + leave_value(valued.leave) == equities[0]
    top_valued = generator.top(own_board, rack, 7, leave_value)
    assert [move.score + leave_value(move.leave) for move in top_valued] == equities[:7]


def test_top_of_more_than_every_move(generator: MoveGenerator, own_board: Board) -> None:
    moves = generator.generate(own_board, "QUIZ")
    top = generator.top(own_board, "QUIZ", 100)
    assert sorted(top, key=str) == sorted(moves, key=str)
    assert [move.score for move in top] == [move.score for move in moves]


def test_top_needs_a_positive_count(generator: MoveGenerator, own_board: Board) -> None:
    with pytest.raises(ValueError, match="count must be at least 1, not 0"):
        generator.top(own_board, "RETAINS", 0)


def test_leave_value_is_called_once_per_distinct_leave(generator: MoveGenerator, own_board: Board) -> None:
    seen: list[str] = []

    def value(leave: str) -> float:
        seen.append(leave)
        return 0.0

    generator.best(own_board, "AABB?", value)
    assert len(seen) == len(set(seen)) == 3 * 3 * 2


# --- The moves command -------------------------------------------------------------------------------


@pytest.fixture
def cli_env(movegen_cache_dir: Path, generator: MoveGenerator, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache directory holding ENABLE and its DAWG, for the command to reuse."""
    monkeypatch.setenv("SCRABBLE_CACHE_DIR", str(movegen_cache_dir))
    return movegen_cache_dir


@pytest.fixture
def own_board_file(tmp_path: Path, own_midgame_rows: list[str]) -> Path:
    path = tmp_path / "own.txt"
    path.write_text("\n".join(own_midgame_rows) + "\n", encoding="utf-8")
    return path


def run_cli(*args: str) -> tuple[int, list[str]]:
    out = io.StringIO()
    status = main(list(args), out)
    return status, out.getvalue().splitlines()


@pytest.mark.usefixtures("cli_env")
def test_moves_command_output(own_board_file: Path, generator: MoveGenerator, own_board: Board) -> None:
    status, lines = run_cli("moves", "--board", str(own_board_file), "--rack", "RETAINS")
    assert status == 0
    assert len(lines) == OWN_COUNTS["RETAINS"][0]
    assert all(GCG_LINE.match(line) for line in lines)
    scores = [int(line.rsplit(" ", 1)[1]) for line in lines]
    assert scores == sorted(scores, reverse=True)
    assert lines[0] == "H7 HERNIATES 89"
    expected = []
    for move in generator.generate(own_board, "RETAINS"):
        squares = move.play.squares()
        word = "".join(
            own_board[sq] or "" if ch == "." else ch
            for sq, ch in zip(squares, move.play.letters, strict=True)
        )
        expected.append(f"{move.play.coordinate} {word} {move.score}")
    assert lines == expected
    assert len(set(lines)) == len(lines)


@pytest.mark.usefixtures("cli_env")
def test_moves_command_blanks_and_board_letters(
    tmp_path: Path, generator: MoveGenerator, standard: Variant
) -> None:
    rows = ["." * 15] * 15
    rows[7] = ".......cAT....."  # a blank C on the start square
    path = tmp_path / "cat.txt"
    path.write_text("\n".join(rows), encoding="utf-8")
    status, lines = run_cli("moves", "--board", str(path), "--rack", "S?")
    assert status == 0
    # The board's blank and the rack's blank both show in lowercase, in the whole word.
    assert {"8H cATS 3", "8H cATs 2", "8G ScAT 3", "8G ScATs 3"} <= set(lines)
    assert len(lines) == len(generator.generate(Board.from_rows(standard, rows), "S?"))
    assert all(GCG_LINE.match(line) for line in lines)


@pytest.mark.usefixtures("cli_env")
def test_moves_command_defaults_to_the_empty_board() -> None:
    status, lines = run_cli("moves", "--rack", "retains", "--top", "5")
    assert status == 0
    assert len(lines) == 5 and all(line.startswith("8") and line.endswith(" 66") for line in lines)


@pytest.mark.usefixtures("cli_env")
def test_moves_command_top(own_board_file: Path) -> None:
    _, full = run_cli("moves", "--board", str(own_board_file), "--rack", "QUIZ")
    status, top = run_cli("moves", "--board", str(own_board_file), "--rack", "QUIZ", "--top", "3")
    assert status == 0
    assert top == full[:3]
    assert full[0] == "L3 QUIN 26"


@pytest.mark.usefixtures("cli_env")
def test_moves_command_bad_rack(own_board_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, lines = run_cli("moves", "--board", str(own_board_file), "--rack", "RET1INS")
    assert (status, lines) == (1, [])
    assert capsys.readouterr().err == (
        "python -m scrabble_core moves: error: '1' is not a tile of this game: a rack holds the letters "
        "ABCDEFGHIJKLMNOPQRSTUVWXYZ and ? for a blank\n"
    )


@pytest.mark.usefixtures("cli_env")
def test_moves_command_refuses_a_rack_too_long_and_foreign_letters(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run_cli("moves", "--rack", "RETAINSX") == (1, [])
    assert capsys.readouterr().err == (
        "python -m scrabble_core moves: error: a rack holds at most 7 tiles in standard, not 8\n"
    )
    assert run_cli("moves", "--rack", "REſTAIN") == (1, [])
    assert capsys.readouterr().err.startswith(
        "python -m scrabble_core moves: error: 'ſ' is not a tile of this game"
    )


def test_moves_command_piped_to_head_stops_quietly(cli_env: Path) -> None:
    # 18,888 lines, far more than a pipe holds: the command is still writing when head exits.
    result = subprocess.run(
        f"{shlex.quote(sys.executable)} -m scrabble_core moves --rack '?AEINST' | head -1",
        shell=True,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "SCRABBLE_CACHE_DIR": str(cli_env)},
    )
    assert result.stdout == "8B ANESTrI 64\n"
    assert result.stderr == ""


@pytest.mark.usefixtures("cli_env")
def test_moves_command_says_when_no_play_exists(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_cli("moves", "--rack", "QXZ") == (0, [])
    assert capsys.readouterr().err == "no legal play for QXZ on this board\n"


@pytest.mark.usefixtures("cli_env")
def test_moves_command_missing_or_bad_board(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nowhere.txt"
    assert run_cli("moves", "--board", str(missing), "--rack", "RETAINS") == (1, [])
    assert capsys.readouterr().err == f"python -m scrabble_core moves: error: {missing}: no such board file\n"
    small = tmp_path / "small.txt"
    small.write_text(".....\n.....\n")
    assert run_cli("moves", "--board", str(small), "--rack", "RETAINS") == (1, [])
    assert capsys.readouterr().err.endswith("error: the board has 15 rows, the text has 2\n")


def test_moves_command_usage_errors(capsys: pytest.CaptureFixture[str]) -> None:
    for args in (
        ["moves", "--board", "x"],
        ["moves", "--rack", "A", "--top", "0"],
        ["moves", "--top", "2"],
        [],
    ):
        with pytest.raises(SystemExit) as info:
            main(args)
        assert info.value.code == 2
    assert "must be at least 1, not 0" in capsys.readouterr().err


def test_moves_command_with_a_word_list_and_a_variant(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCRABBLE_CACHE_DIR", str(tmp_path / "cache"))
    words = tmp_path / "words.txt"
    words.write_text("AT\nTA\nCAT\nACT\n", encoding="utf-8")
    rows = ["." * 21] * 21
    rows[10] = "..........C.........."
    board = tmp_path / "super.txt"
    board.write_text("\n".join(rows), encoding="utf-8")
    status, lines = run_cli(
        "moves", "--board", str(board), "--rack", "AT", "--lexicon", str(words), "--variant", "super"
    )
    assert status == 0
    # AT and TA cannot touch the C without forming a word the list lacks.
    assert lines == ["11J ACT 5", "11K CAT 5", "K10 ACT 5", "K11 CAT 5"]


def test_python_dash_m_runs_the_moves_command(cli_env: Path, own_board_file: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "scrabble_core", "moves", "--board", str(own_board_file), "--rack", "QUIZ"],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        env={**os.environ, "SCRABBLE_CACHE_DIR": str(cli_env)},
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0] == "L3 QUIN 26"
    assert len(result.stdout.splitlines()) == OWN_COUNTS["QUIZ"][0]
