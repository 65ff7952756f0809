"""Fixtures of the engine's tests.

``tiny_variant`` is a 5x9 board with two holes and a German-flavoured tile set; ``make_game`` sets up a
game in any state a test needs.

``python_generator`` is the session's ENABLE generator behind a plain move source: the searches that run
in the native core for a :class:`~scrabble_core.movegen.MoveGenerator` (the simulation, the endgame
solver) take their pure-Python path with it, at the native generator's speed.

``brute_force`` is a deliberately simple move finder, independent of :mod:`scrabble_core.movegen`: it
tries every word of the lexicon in every window of every line (a run of squares with no tile just
before or after it), with every way of using the rack's blanks, and keeps what
:func:`scrabble_core.validation.check_play` accepts. It is slow (seconds for ENABLE on a 15x15 board,
milliseconds for small lexicons) and is the reference the move generator is checked against.
"""

from __future__ import annotations

import itertools
import random
import shutil
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from scrabble_core.ai_types import MoveSource, PlainSource
from scrabble_core.board import Board
from scrabble_core.errors import ScrabbleError
from scrabble_core.game import ChallengeMode, Game
from scrabble_core.lexicon import Lexicon, WordList
from scrabble_core.move import Play
from scrabble_core.movegen import MoveGenerator, load_move_generator
from scrabble_core.squares import Square
from scrabble_core.validation import check_play, play_from_tiles
from scrabble_core.variant import Variant, get_variant, variant_from_dict

TINY_VARIANT_DATA: dict[str, object] = {
    "name": "tiny",
    "rack_size": 5,
    "bingo_bonus": 20,
    "scoreless_rounds": 2,
    "board": {
        "start": "E3",
        "layout": (
            "3W -- -- 2L ## 2L -- -- 3W\n"
            "-- 2W -- -- 3L -- -- 2W --\n"
            "2L -- 3L -- 2W -- 3L -- 2L\n"
            "-- 2W -- -- 3L -- -- 2W --\n"
            "3W -- -- 2L ## 2L -- -- 3W\n"
        ),
    },
    "tiles": {
        "blanks": 1,
        "A": [4, 1],
        "Ä": [2, 3],
        "B": [2, 3],
        "E": [4, 1],
        "L": [2, 2],
        "N": [3, 1],
        "R": [3, 1],
        "S": [2, 1],
        "T": [3, 1],
    },
}
SEAT_NAMES = ("Ann", "Bob", "Cid", "Dee")


@dataclass(frozen=True)
class NamedWords:
    """A test's small word list (a :class:`~scrabble_core.lexicon.WordList`)."""

    name: str
    words: frozenset[str]

    def __contains__(self, word: object) -> bool:
        return word in self.words


@pytest.fixture
def tiny_variant() -> Variant:
    """A 5x9 board, start E3, holes on E1 and E5; racks of 5, bingo 20; letters AÄBELNRST, one blank."""
    return variant_from_dict(TINY_VARIANT_DATA, "tiny")


@pytest.fixture
def make_game() -> Callable[..., Game]:
    """``make_game(racks, *, draws="", board=None, scores=None, current=0, seed=0, variant=None,
    lexicon=None, challenge_mode=VOID)``: a game of ``len(racks)`` seats (Ann, Bob, Cid, Dee) holding
    exactly ``racks`` (letters kept in the order written, blanks last), on ``board`` (text rows) or an
    empty board, whose bag gives the tiles of ``draws`` in that order, with ``scores`` and ``current``
    the seat on turn."""

    def make(
        racks: Sequence[str],
        *,
        draws: str = "",
        board: Sequence[str] | None = None,
        scores: Sequence[int] | None = None,
        current: int = 0,
        seed: int = 0,
        variant: Variant | None = None,
        lexicon: WordList | None = None,
        challenge_mode: ChallengeMode = ChallengeMode.VOID,
    ) -> Game:
        chosen = variant or get_variant("standard")
        names = list(SEAT_NAMES[: len(racks)])
        game = Game(chosen, names, rng=random.Random(seed), lexicon=lexicon, challenge_mode=challenge_mode)
        data = game.to_dict()
        data["bag"] = draws[::-1]  # the last tile of the bag is drawn first
        data["current"] = current
        for seat, player in enumerate(data["players"]):
            rack = racks[seat]
            player["rack"] = rack.replace("?", "") + "?" * rack.count("?")
            player["score"] = scores[seat] if scores is not None else 0
        if board is not None:
            data["board"] = list(board)
        return Game.from_dict(data, lexicon=lexicon)

    return make


Placements = frozenset[tuple[Square, str]]
BruteForce = Callable[[Board, str, Iterable[str]], dict[Placements, tuple[Play, int]]]


def brute_force_moves(board: Board, rack: str, words: Iterable[str]) -> dict[Placements, tuple[Play, int]]:
    """Every legal play of ``rack`` (``?`` for a blank) on ``board`` whose words are all in ``words``.

    The result maps each play's placements (squares and tiles, blanks lowercase) to the play, as
    :func:`~scrabble_core.validation.play_from_tiles` writes it, and its score from
    :func:`~scrabble_core.validation.check_play`. A one-tile play appears once; each letter a blank
    stands for is its own play.
    """
    lexicon = NamedWords("brute force", frozenset(word.upper() for word in words))
    variant = board.variant
    available = Counter(rack)
    blanks = available.pop("?", 0)
    # The words whose letters the rack alone can supply, and every word by (length, index, letter).
    from_rack: dict[int, list[str]] = {}
    by_letter: dict[tuple[int, int, str], set[str]] = {}
    for word in lexicon.words:
        if sum((Counter(word) - available).values()) <= blanks:
            from_rack.setdefault(len(word), []).append(word)
        for i, letter in enumerate(word):
            by_letter.setdefault((len(word), i, letter), set()).add(word)
    found: dict[Placements, tuple[Play, int]] = {}
    for across in (True, False):
        d_row, d_col = (0, 1) if across else (1, 0)
        for row, col in variant.squares():
            if board.occupied((row - d_row, col - d_col)):
                continue
            # Windows from (row, col): grow while on the board and the rack can fill the empty squares.
            squares: list[Square] = []
            fixed: list[tuple[int, str]] = []
            square = (row, col)
            while variant.on_board(square) and len(squares) - len(fixed) <= len(rack):
                squares.append(square)
                tile = board[square]
                if tile is not None:
                    fixed.append((len(squares) - 1, tile.upper()))
                square = (square[0] + d_row, square[1] + d_col)
                if (
                    board.occupied(square)
                    or len(squares) == len(fixed)
                    or len(squares) - len(fixed) > len(rack)
                ):
                    continue
                if fixed:
                    sets = [by_letter.get((len(squares), i, letter), set()) for i, letter in fixed]
                    candidates: Iterable[str] = set.intersection(*sets)
                else:
                    candidates = from_rack.get(len(squares), [])
                for word in candidates:
                    new = [(sq, word[i]) for i, sq in enumerate(squares) if board[sq] is None]
                    _try_blanks(board, rack, lexicon, new, available, blanks, found)
    return found


def _try_blanks(
    board: Board,
    rack: str,
    lexicon: WordList,
    new: list[tuple[Square, str]],
    available: Counter[str],
    blanks: int,
    found: dict[Placements, tuple[Play, int]],
) -> None:
    """Add to ``found`` each legal way of putting the letters ``new`` down, some of them as blanks."""
    for count in range(min(blanks, len(new)) + 1):
        for as_blank in itertools.combinations(range(len(new)), count):
            real = Counter(letter for i, (_, letter) in enumerate(new) if i not in as_blank)
            if any(available[letter] < n for letter, n in real.items()):
                continue
            placements = [
                (square, letter.lower() if i in as_blank else letter)
                for i, (square, letter) in enumerate(new)
            ]
            try:
                play = play_from_tiles(board, placements)
                score = check_play(board, play, rack=rack, lexicon=lexicon).total
            except ScrabbleError:
                continue
            found[frozenset(placements)] = (play, score)


@pytest.fixture
def brute_force() -> BruteForce:
    """:func:`brute_force_moves`: ``brute_force(board, rack, words)`` -> ``{placements: (play, score)}``."""
    return brute_force_moves


@pytest.fixture(scope="session")
def movegen_cache_dir(enable_lexicon: Lexicon, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache directory holding a copy of the session's compiled ENABLE, where the move generator's
    DAWG is cached too (the lexicon's own cache directory keeps only the lexicon's files)."""
    assert enable_lexicon.trie_path is not None
    directory = tmp_path_factory.mktemp("movegen-cache")
    for path in enable_lexicon.trie_path.parent.glob(f"{enable_lexicon.source_hash}.*"):
        shutil.copy(path, directory)
    return directory


@pytest.fixture(scope="session")
def enable_generator(enable_lexicon: Lexicon, movegen_cache_dir: Path) -> MoveGenerator:
    """A move generator over ENABLE, built once per session (its DAWG cached in ``movegen_cache_dir``)."""
    return load_move_generator(enable_lexicon, movegen_cache_dir)


@pytest.fixture(scope="session")
def own_midgame_rows() -> list[str]:
    """A 15x15 midgame of this project's own, with a blank on the board and tiles on the edges (the
    counts of test_movegen.py's OWN_COUNTS were checked against the brute force with ENABLE)."""
    return [
        "...............",
        ".E.............",
        ".y.............",
        "TRACK..........",
        ".Y..R..........",
        "...DAZE.PEIN...",
        "....A..HIM.....",
        "..APLITE.......",
        "JUGA...........",
        ".HEN...........",
        *["..............."] * 5,
    ]


@pytest.fixture(scope="session")
def python_generator(enable_generator: MoveGenerator) -> MoveSource:
    """The ENABLE generator as a plain move source: the native searches take their Python path."""
    return PlainSource(enable_generator)
