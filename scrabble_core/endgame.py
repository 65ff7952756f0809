"""The endgame solver: with the bag empty and two players, both racks are known, so search exactly.

The value of a position is the *spread* the player to move gains from here to the end of the game
(their points minus the opponent's), under the rules :class:`~scrabble_core.game.Game` applies:

- a play scores its points; a play that empties the rack ends the game and earns twice the value of
  the opponent's rack;
- a pass scores nothing; when the consecutive scoreless turns reach the variant's
  ``scoreless_turn_limit`` the game ends and each player loses the value of their own rack.

:func:`solve_endgame` runs a negamax search with alpha-beta pruning over every play and the pass, with
a transposition table keyed by the board (the tiles placed since the root), both racks, whose turn and
the scoreless count, and move ordering (the table's best move, then by the static endgame rule: score,
plus twice the other rack for going out, minus twice the tiles kept). A node one turn from the horizon
is valued by that same rule, so its best play comes from the generator's bounded search
(:meth:`~scrabble_core.movegen.MoveGenerator.best`) instead of the list of every play. It deepens
iteratively: depth ``d`` looks ``d`` turns ahead and values the positions where it stops by
:func:`horizon_value`; when a depth finishes without stopping anywhere, its value is exact and the search
ends. A move after which the other player can go out at once, with one of their :data:`OUT_PLAYS` best
plays that go out that the move leaves in place, is worth no more than its score less that play's and
twice the value of the tiles the mover keeps: when that is no better than the best found so far, the
move is not searched (a bound, not a guess: the values stay exact). With a deadline (or a node budget)
it returns the best move of the deepest depth it finished (depth 1 at least, which is the static
endgame rule of the ``hard`` level).

Exchanges are not possible with an empty bag. Games of more than two players are not solved here.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from scrabble_core.ai_types import MoveSource
from scrabble_core.board import Board
from scrabble_core.move import Pass, Play
from scrabble_core.movegen import MoveGenerator, NativeBoard
from scrabble_core.squares import Square
from scrabble_core.validation import play_from_tiles
from scrabble_core.variant import BLANK

OUT_FACTOR: Final = 2
"""Going out earns this many times the value of the opponent's rack (two players)."""

OUT_PLAYS: Final = 8
"""The other player's plays that go out that bound a node's moves (see :func:`solve_endgame`)."""

Clock = Callable[[], float]
_EXACT, _LOWER, _UPPER = 0, 1, 2


@dataclass(frozen=True, slots=True)
class EndgameResult:
    """What :func:`solve_endgame` found.

    Attributes:
        move: the move to make (a :class:`Play` or a :class:`Pass`).
        value: the spread the mover gains with it from here to the end (exact when ``exact``; else the
            estimate of the deepest finished depth).
        exact: whether the search saw every line to the end of the game.
        depth: the turns ahead the deepest finished search looked (exact: the longest line it walked,
            the positions the table had already solved not walked again).
        nodes: positions searched.
    """

    move: Play | Pass
    value: int
    exact: bool
    depth: int
    nodes: int


class _OutOfTimeError(Exception):
    """The deadline or node budget ran out in the middle of a depth."""


@dataclass(slots=True)
class _Entry:
    depth: int
    value: int
    flag: int
    complete: bool
    best: Play | Pass | None


_Node = tuple[Play | Pass, int, str]
"""A move of a node: the move, its score, the mover's rack after it (tiles as the generator writes a
leave: letters sorted, blanks last)."""


def horizon_value(rack_value: Callable[[str], int], other: str) -> int:
    """The guess for a position where the search stops: the mover goes out next turn and earns twice
    the value of the other rack (its points are not guessed). At depth 1 this makes the search the
    static endgame rule of the ``hard`` level: going out earns twice the opponent's rack, tiles kept
    cost twice their value."""
    return OUT_FACTOR * rack_value(other)


class _Search:
    """One solve: the working board (changed and restored as the search walks), the table, the budget."""

    def __init__(
        self,
        board: Board,
        generator: MoveSource,
        deadline: float | None,
        clock: Clock,
        max_nodes: int | None,
    ) -> None:
        self.board = board
        self.generator = generator
        self.variant = board.variant
        self.limit = board.variant.scoreless_turn_limit(2)
        self.deadline = deadline
        self.clock = clock
        self.max_nodes = max_nodes
        self.nodes = 0
        self.bounded = False  # the budget applies once depth 1 has finished (it finishes whatever the budget)
        self.horizons = 0
        self.ply = 0  # turns from the root to the node searched
        self.deepest = 0  # the most turns from the root of a node this depth searched
        self.root: tuple[frozenset[tuple[Square, str]], str, str, int] | None = None
        self.partial: tuple[Play | Pass, int] | None = None
        self.placed: frozenset[tuple[Square, str]] = frozenset()
        self.table: dict[tuple[frozenset[tuple[Square, str]], str, str, int], _Entry] = {}
        self.moves: dict[tuple[frozenset[tuple[Square, str]], str], list[_Node]] = {}
        self.values: dict[str, int] = {}

    def rack_value(self, tiles: str) -> int:
        """The variant's value of ``tiles``, remembered."""
        value = self.values.get(tiles)
        if value is None:
            value = self.values[tiles] = self.variant.rack_value(tiles)
        return value

    def children(self, rack: str, other: str) -> list[_Node]:
        """Every play of ``rack`` then the pass, best first by the static endgame rule (the value at
        depth 1: going out earns twice the other rack, tiles kept cost twice their value); cached per
        board and rack (which decide the other rack)."""
        key = (self.placed, rack)
        cached = self.moves.get(key)
        if cached is not None:
            return cached
        found = self.generator.generate(self.board, rack)
        kept = {move.leave for move in found}
        worth = {leave: -OUT_FACTOR * self.rack_value(leave) for leave in kept}
        worth[""] = OUT_FACTOR * self.rack_value(other)
        ranked = sorted(found, key=lambda move: -move.score - worth[move.leave])
        nodes: list[_Node] = [(move.play, move.score, move.leave) for move in ranked]
        nodes.append((Pass(), 0, rack))
        self.moves[key] = nodes
        return nodes

    def outs(self, player: str, waiting: str) -> list[tuple[int, frozenset[Square]]]:
        """The best plays (at most :data:`OUT_PLAYS`) with which ``player`` goes out on the board, best
        first: the score of each and the squares whose filling would change it (its own, and the one
        beyond each end of every word it forms): while none of them is filled it stays on the board."""
        found: list[tuple[int, frozenset[Square]]] = []
        for move, score, leave in self.children(player, waiting):
            if leave or isinstance(move, Pass):
                continue
            placements = move.placements()
            self.board.place(placements)
            squares = set()
            for (row, col), _ in placements:
                squares.add((row, col))
                for step_row, step_col in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                    at = (row + step_row, col + step_col)
                    while self.board.occupied(at):
                        at = (at[0] + step_row, at[1] + step_col)
                    squares.add(at)
            self.board.remove(square for square, _ in placements)
            found.append((score, frozenset(squares)))
            if len(found) == OUT_PLAYS:
                break
        return found

    def going_out_bound(
        self, move: Play | Pass, score: int, leave: str, outs: list[tuple[int, frozenset[Square]]]
    ) -> int:
        """An upper bound on the mover's value of ``move`` (``score`` points, keeping ``leave``) from the
        other's best play in ``outs`` that it leaves on the board: they go out next turn, earning its
        score and twice the value of ``leave``. A large number when it leaves none."""
        filled = (
            frozenset() if isinstance(move, Pass) else frozenset(square for square, _ in move.placements())
        )
        for out_score, squares in outs:
            if squares.isdisjoint(filled):
                return score - OUT_FACTOR * self.rack_value(leave) - out_score
        return 10**6

    def last_turn(self, mover: str, other: str, scoreless: int, beta: int) -> tuple[int, Play | Pass, bool]:
        """Depth 1: the best move by the static endgame rule (what the children would be worth with
        the horizon next), found by the generator's bounded search instead of listing every play; and
        whether that value rests on the horizon (not when a play that goes out reaches ``beta``, which
        is where the full list, going out first, would cut off: the value is then a lower bound)."""
        out = OUT_FACTOR * self.rack_value(other)
        rack_value = self.rack_value
        move: Play | Pass = Pass()
        if scoreless + 1 >= self.limit:
            value = rack_value(other) - rack_value(mover)
        else:
            value = -horizon_value(rack_value, mover)
        found = self.generator.best(
            self.board, mover, lambda leave: out if not leave else -OUT_FACTOR * rack_value(leave)
        )
        if found is not None:
            play_value = found.score + (out if not found.leave else -OUT_FACTOR * rack_value(found.leave))
            if play_value > value:
                value, move = play_value, found.play
                if not found.leave and value >= beta:
                    return value, move, False
        return value, move, True

    def stored(self, entry: _Entry, depth: int, alpha: int, beta: int) -> int | None:
        """The value ``entry`` gives its node when searched ``depth`` turns ahead within ``alpha``/``beta``,
        or ``None`` when the node must be searched."""
        if not (entry.complete or entry.depth >= depth):
            return None
        if (
            entry.flag == _EXACT
            or (entry.flag == _LOWER and entry.value >= beta)
            or (entry.flag == _UPPER and entry.value <= alpha)
        ):
            if not entry.complete:
                self.horizons += 1  # this value rests on a horizon: the depth is not exact
            return entry.value
        return None

    def check_budget(self) -> None:
        self.nodes += 1
        if not self.bounded:
            return
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise _OutOfTimeError
        if self.deadline is not None and self.clock() >= self.deadline:
            raise _OutOfTimeError

    def after(
        self,
        move: Play | Pass,
        score: int,
        leave: str,
        other: str,
        scoreless: int,
        depth: int,
        low: int,
        high: int,
    ) -> int:
        """The spread the mover gains with ``move`` (``score`` points, keeping ``leave``) and what follows,
        searched ``depth`` turns ahead within ``low``/``high`` (fail-soft)."""
        self.ply += 1
        if isinstance(move, Pass):
            value = -self.negamax(other, leave, scoreless + 1, depth - 1, -high, -low)
            self.ply -= 1
            return value
        placements = move.placements()
        self.board.place(placements)
        before = self.placed
        self.placed = before.union(placements)
        try:
            return score - self.negamax(other, leave, 0, depth - 1, score - high, score - low)
        finally:
            self.ply -= 1
            self.placed = before
            self.board.remove(square for square, _ in placements)

    def negamax(self, mover: str, other: str, scoreless: int, depth: int, alpha: int, beta: int) -> int:
        """The spread the mover gains from here, searched ``depth`` turns ahead, within ``alpha``/``beta``
        (fail-soft: outside the window the value is a bound)."""
        self.deepest = max(self.deepest, self.ply)
        if depth == 0:
            self.horizons += 1
            return horizon_value(self.rack_value, other)
        key = (self.placed, mover, other, scoreless)
        entry = self.table.get(key)
        if entry is not None and (stored := self.stored(entry, depth, alpha, beta)) is not None:
            return stored
        self.check_budget()
        if depth == 1:
            value, move, horizon = self.last_turn(mover, other, scoreless, beta)
            self.horizons += horizon
            self.table[key] = _Entry(depth, value, _EXACT if horizon else _LOWER, not horizon, move)
            if key == self.root:
                self.partial = (move, value)
            return value
        horizons = self.horizons
        original_alpha = alpha
        best_value: int | None = None
        best_move: Play | Pass | None = None
        first = entry.best if entry is not None else None
        outs: list[tuple[int, frozenset[Square]]] | None = None
        for move, score, leave in _first(self.children(mover, other), first):
            if isinstance(move, Pass) and scoreless + 1 >= self.limit:
                value = self.rack_value(other) - self.rack_value(mover)
            elif not leave:
                value = score + OUT_FACTOR * self.rack_value(other)
            else:
                if outs is None:
                    outs = self.outs(other, mover)
                bound = self.going_out_bound(move, score, leave, outs)
                if bound <= alpha:  # the other goes out after it: no better than alpha (fail-soft)
                    value = bound
                else:
                    value = self.after(move, score, leave, other, scoreless, depth, alpha, beta)
            if best_value is None or value > best_value:
                best_value, best_move = value, move
                if not self.placed and key == self.root:
                    self.partial = (move, value)
            alpha = max(alpha, value)
            if alpha >= beta:
                break
        assert best_value is not None  # the pass is always a child
        flag = _UPPER if best_value <= original_alpha else _LOWER if best_value >= beta else _EXACT
        self.table[key] = _Entry(depth, best_value, flag, self.horizons == horizons, best_move)
        return best_value


def _first(nodes: list[_Node], move: Play | Pass | None) -> list[_Node]:
    """``nodes`` with ``move``'s node first (the table's best move is tried first)."""
    if move is None or nodes[0][0] == move:
        return nodes
    return sorted(nodes, key=lambda node: node[0] != move)


def _key(rack: str) -> str:
    """``rack`` written as the generator writes a leave: letters sorted, blanks last."""
    return "".join(sorted(rack, key=lambda tile: (tile == BLANK, tile)))


def solve_endgame(
    board: Board,
    rack: str,
    other: str,
    generator: MoveSource,
    *,
    scoreless: int = 0,
    deadline: float | None = None,
    clock: Clock = time.monotonic,
    max_nodes: int | None = None,
    max_depth: int = 64,
) -> EndgameResult:
    """The best move for the player holding ``rack`` when the opponent holds ``other`` and the bag is
    empty, ``scoreless`` consecutive scoreless turns having been played.

    Searches deeper and deeper (depth 1 to :data:`DEEPENING`, then ``max_depth`` at once) until a depth
    is exact, ``max_depth`` is reached, or the budget runs out: ``deadline`` (a ``clock()`` value;
    :func:`time.monotonic` by default) or ``max_nodes`` positions. Depth 1 always finishes; past the
    budget, the result of the deepest finished depth is returned, or the best of the root moves the
    unfinished depth searched (the previous depth's best move is searched first), its ``depth`` being
    the last finished one. ``board`` is not changed (the search works on a copy).
    """
    native = generator.native_board(board) if isinstance(generator, MoveGenerator) else None
    if native is not None and max(len(rack), len(other)) <= NATIVE_MAX_TILES:
        return _native_solve(native, board, rack, other, scoreless, deadline, clock, max_nodes, max_depth)
    search = _Search(board.copy(), generator, deadline, clock, max_nodes)
    rack, other = _key(rack), _key(other)
    search.root = (frozenset(), rack, other, scoreless)
    result: EndgameResult | None = None
    for depth in _depths(max_depth):
        search.horizons = 0
        search.partial = None
        search.ply = search.deepest = 0
        try:
            value = search.negamax(rack, other, scoreless, depth, -(10**6), 10**6)
        except _OutOfTimeError:
            assert result is not None  # depth 1 is not bounded
            if search.partial is not None:  # the best of the root moves this depth finished
                move, value = search.partial
                result = EndgameResult(move, value, False, result.depth, search.nodes)
            break
        search.bounded = True
        entry = search.table[search.root]
        assert entry.best is not None
        exact = search.horizons == 0
        result = EndgameResult(entry.best, value, exact, min(depth, search.deepest + 1), search.nodes)
        if exact:
            break
    assert result is not None
    return result


DEEPENING: Final = 4
"""Iterative deepening searches depths 1 to this one, then ``max_depth`` directly: the shallow depths
order the moves (the table's best move first), and each depth between would cost nearly as much as the
whole search, since most lines of an endgame end within a few turns."""


def _depths(max_depth: int) -> list[int]:
    """The depths :func:`solve_endgame` searches, in order (see :data:`DEEPENING`)."""
    return list(range(1, min(DEEPENING, max_depth) + 1)) + ([max_depth] if max_depth > DEEPENING else [])


def minimax_value(board: Board, rack: str, other: str, generator: MoveSource, *, scoreless: int = 0) -> int:
    """The exact spread the player holding ``rack`` gains from here, by plain minimax: every line to
    the end of the game, no pruning, no table (the reference :func:`solve_endgame` is checked against;
    only for small racks). The same rules as :func:`solve_endgame`. ``board`` is not changed."""
    work = board.copy()
    variant = board.variant
    plays: dict[tuple[tuple[str, ...], str], list[tuple[Play, int, str]]] = {}

    def value(mover: str, waiting: str, passes: int) -> int:
        key = (tuple(work.rows_text()), mover)
        if key not in plays:
            plays[key] = [(m.play, m.score, m.leave) for m in generator.generate(work, mover)]
        if passes + 1 >= variant.scoreless_turn_limit(2):
            best = variant.rack_value(waiting) - variant.rack_value(mover)
        else:
            best = -value(waiting, mover, passes + 1)
        for play, score, leave in plays[key]:
            if not leave:
                best = max(best, score + OUT_FACTOR * variant.rack_value(waiting))
                continue
            placements = play.placements()
            work.place(placements)
            best = max(best, score - value(waiting, leave, 0))
            work.remove(square for square, _ in placements)
        return best

    return value(rack, other, scoreless)


NATIVE_MAX_TILES: Final = 8
"""The native solver takes racks of at most this many tiles (larger ones are searched in Python)."""


def _native_solve(
    native: NativeBoard,
    board: Board,
    rack: str,
    other: str,
    scoreless: int,
    deadline: float | None,
    clock: Clock,
    max_nodes: int | None,
    max_depth: int,
) -> EndgameResult:
    """:func:`solve_endgame` in the native core (``_endgame.c``)."""
    from scrabble_core._movegen import solve_endgame as native_solve  # the extension, present here

    (kind, placed), value, exact, depth, nodes = native_solve(
        native.graph,
        native.geometry,
        native.squares,
        native.tiles(rack),
        native.tiles(other),
        scoreless,
        board.variant.scoreless_turn_limit(2),
        max_depth,
        DEEPENING,
        -1 if max_nodes is None else max_nodes,
        deadline,
        clock,
        time.monotonic,
    )
    move: Play | Pass = Pass()
    if kind == _NATIVE_PLAY:
        tiles = {code: tile for tile, code in native.codes.items() if tile != BLANK}
        cols = board.variant.cols
        placements = []
        for index in range(0, len(placed), 3):
            square, code = placed[index] << 8 | placed[index + 1], placed[index + 2]
            tile = tiles[code % 64] if code < 64 else tiles[code % 64].lower()
            placements.append(((square // cols, square % cols), tile))
        move = play_from_tiles(board, placements)
    return EndgameResult(move, value, bool(exact), depth, nodes)


_NATIVE_PLAY: Final = 1
