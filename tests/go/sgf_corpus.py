"""A corpus of SGF records written the ways real files are (made here, seeded: no third party's
records), for the replay test of ``test_go_sgf_files.py``.

Each record is a legal game on a board of 5 to 19 lines, written by hand as text, with what files out
there hold: handicaps (``HA`` and ``AB``, fixed or free), a move in the root, stones set up in later
nodes (``AB``, ``AW``, ``AE``), ``PL``, passes written ``B[]`` or ``B[tt]``, two passes in the middle
of a game, every kind of result (``RE``), komi written ``6,5`` or not a number, sizes written
``19:19``, comments with escapes, variations off the main line, line breaks anywhere, and dead stones
marked in the last node's territories (``TB``, ``TW``) of a game that ended with two passes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from go_core import Board, Color, Game, Point, handicap_points
from go_core.scoring import territory_owner

SIZES: Final = (9, 9, 9, 9, 13, 13, 19, 19, 7, 5, 11)
RESULTS: Final = (
    "B+R", "W+R", "B+Resign", "W+Resign", "B+T", "W+Time", "B+F", "W+Forfeit", "B+3.5", "W+12.5",
    "Void", "Draw", "0", "?", "B+",
)  # fmt: skip
KOMI: Final = ("6.5", "7.5", "0.5", "6,5", "abc", "", "-3")
LETTERS: Final = "abcdefghijklmnopqrstuvwxy"


@dataclass(frozen=True)
class CorpusRecord:
    """A record's text, and whether it takes stones off the board (``AE``, which GNU Go skips)."""

    text: str
    removes: bool


class _Writer:
    """A record being written: its nodes, each with the text of a variation off it, if any."""

    def __init__(self, size: int, rng: random.Random) -> None:
        self.size = size
        self.rng = rng
        self.nodes: list[tuple[str, str | None]] = []
        self.removes = False

    def point(self, point: Point | None) -> str:
        if point is None:
            return "tt" if self.size <= 19 and self.rng.random() < 0.5 else ""
        return LETTERS[point.col] + LETTERS[self.size - 1 - point.row]

    def values(self, points: list[Point]) -> str:
        return "".join(f"[{self.point(p)}]" for p in points)

    def text(self) -> str:
        return f"({self._sequence(0)})\n"

    def _sequence(self, start: int) -> str:
        """The nodes from ``start`` on: at a node with a variation, the rest of the main line is its
        first branch and the variation the second."""
        text = ""
        for index in range(start, len(self.nodes)):
            node, variation = self.nodes[index]
            text += f";{node}" + ("\n" if self.rng.random() < 0.2 else "")
            if variation is not None and index + 1 < len(self.nodes):
                return f"{text}({self._sequence(index + 1)})({variation})"
        return text


def make_record(seed: int) -> CorpusRecord:
    """The record of seed ``seed`` (see the module)."""
    rng = random.Random(seed)
    size = rng.choice(SIZES)
    out = _Writer(size, rng)
    root = ["GM[1]FF[4]", "SZ[19:19]" if size == 19 and rng.random() < 0.2 else f"SZ[{size}]"]
    root.append(f"KM[{rng.choice(KOMI)}]PB[Ann \\] the \\\\ first]PW[Bob]C[a [comment\\] \\\\]")
    if rng.random() < 0.2:
        root.append(f"RE[{rng.choice(RESULTS)}]")
    game = Game(size)
    if size >= 7 and rng.random() < 0.25:
        stones = rng.randint(2, 4)
        if rng.random() < 0.6:
            game = Game(size, handicap=stones)
            points = handicap_points(size, stones)
        else:
            points = _empty_points(game.board, rng, stones)
            game = Game(size, free_handicap=points)
        root.append(f"HA[{stones}]AB{out.values(points)}")
    elif rng.random() < 0.3 and (point := _legal_point(game, Color.BLACK, rng)) is not None:
        game.play(point, Color.BLACK, any_turn=True)
        root.append(f"B[{out.point(point)}]")
    out.nodes.append(("".join(root), None))
    _play(game, out, rng.randint(4, 60 if size <= 9 else 120))
    return CorpusRecord(out.text(), out.removes)


def corpus(count: int, seed: int = 0) -> list[CorpusRecord]:
    """``count`` records, the same ones for the same ``seed``."""
    return [make_record(seed * 100_003 + number) for number in range(count)]


def _play(game: Game, out: _Writer, turns: int) -> None:
    """Write ``turns`` nodes of play on ``game``: moves, passes, setups, ``PL``, a few variations; then,
    at times, two passes and the territories."""
    rng = out.rng
    color = game.to_move
    for _ in range(turns):
        chance = rng.random()
        if chance < 0.04:
            if _setup_node(game, out):
                color = game.to_move
            continue
        if chance < 0.06:
            color = rng.choice([Color.BLACK, Color.WHITE])
            out.nodes.append((f"PL[{color.value}]", None))
            continue
        point = _legal_point(game, color, rng) if rng.random() > 0.04 else None
        if game.passes >= 2:
            game.resume()
        if point is None:
            game.pass_turn(color, any_turn=True)
        else:
            game.play(point, color, any_turn=True)
        variation = f";{color.opponent.value}[aa];{color.value}[bb]" if rng.random() < 0.03 else None
        out.nodes.append((f"{color.value}[{out.point(point)}]", variation))
        color = color.opponent
    if game.passes == 0 and rng.random() < 0.4:
        for _ in range(2):
            game.pass_turn(color, any_turn=True)
            out.nodes.append((f"{color.value}[{out.point(None)}]", None))
            color = color.opponent
        node, _ = out.nodes[-1]
        out.nodes[-1] = (node + _territories(game, out), None)


def _setup_node(game: Game, out: _Writer) -> bool:
    """Write a node setting stones up, made on ``game`` too; whether one was written (none that would
    leave a group without liberties: readers differ on those, and files have none)."""
    rng = out.rng
    black = _empty_points(game.board, rng, rng.randint(0, 2))
    white = [p for p in _empty_points(game.board, rng, rng.randint(0, 2)) if p not in black]
    stones = game.board.stones()
    empty = rng.sample(stones, min(len(stones), rng.randint(1, 2))) if rng.random() < 0.25 else []
    trial = game.board
    trial.place(Color.BLACK, black)
    trial.place(Color.WHITE, white)
    trial.place(None, empty)
    if not (black or white or empty) or any(not trial.liberties(p) for p in trial.stones()):
        return False
    if game.passes >= 2:
        game.resume()
    game.setup(black, white, empty)
    node = "".join(
        f"{key}{out.values(points)}"
        for key, points in (("AB", black), ("AW", white), ("AE", empty))
        if points
    )
    out.nodes.append((node, None))
    out.removes |= bool(empty)
    return True


def _territories(game: Game, out: _Writer) -> str:
    """``TB``/``TW`` at the game's end, a few small groups marked dead."""
    board = game.board
    groups: list[frozenset[Point]] = []
    for point in board.stones():
        if not any(point in group for group in groups):
            groups.append(board.group(point))
    dead = [p for group in groups if len(group) <= 2 and out.rng.random() < 0.3 for p in group]
    owners = territory_owner(board, dead)
    return "".join(
        f"{key}{out.values(points)}"
        for key, color in (("TB", Color.BLACK), ("TW", Color.WHITE))
        if (points := sorted(p for p, owner in owners.items() if owner is color))
    )


def _legal_point(game: Game, color: Color, rng: random.Random) -> Point | None:
    """A random point ``color`` may play (resuming play after two passes), or None (a pass)."""
    trial = game
    if game.passes >= 2:
        trial = game.copy()
        trial.resume()
    for _ in range(30):
        point = Point(rng.randrange(game.size), rng.randrange(game.size))
        if trial.is_legal(point, color):
            return point
    return None


def _empty_points(board: Board, rng: random.Random, count: int) -> list[Point]:
    empty = [p for p in board.points() if board[p] is None]
    return rng.sample(empty, min(count, len(empty)))
