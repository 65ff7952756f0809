"""The Monte Carlo tree search: the pure-Python reference of ``go_core/_search.c``'s ``Search``.

Each iteration walks down the tree from the root, choosing at each node the child of highest value,
plays the chosen moves on a copy of the root's board, plays the position out
(:meth:`go_core.playout.PlayoutBoard.playout`) and counts it; the result (a win, a loss, half for a
draw) is added to every node on the way down, and, by RAVE (all moves as first), to the siblings whose
move the same player played later in the same iteration.

- **Value.** A child's value mixes its own share of wins and its RAVE share:
  ``beta * rave_wins / rave_visits + (1 - beta) * wins / visits``, ``beta = rave_visits / (rave_visits +
  visits + visits * rave_visits / RAVE_EQUIVALENCE)``; ``wins`` and ``visits`` include the child's prior.
  The first child of highest value is chosen; there is no exploration term (the priors and RAVE spread
  the visits).
- **Expansion.** The root at once, another node once it has :data:`EXPAND_VISITS` visits: one child per
  legal point that is not the player's own eye and does not repeat a position of the game or of the path
  from the root (positional superko), and a pass, last, with a poor prior (:data:`PRIOR_PASS_WINS`):
  tried once the moves look worse, it is how the tree leaves a seki alone. No node is added past
  ``max_nodes`` (a node that does not fit stays a leaf: with ``max_nodes`` 1 every iteration is a
  playout from the root).
- **Priors** (virtual visits and wins of a new child, from the player's side): :data:`PRIOR_EVEN` visits
  at half wins; captures (:data:`PRIOR_CAPTURE_ONE`, :data:`PRIOR_CAPTURE_MANY` stones) and saving a
  group from atari (:data:`PRIOR_ESCAPE`) win; a self-atari of two stones or more loses
  (:data:`PRIOR_SELF_ATARI`); a 3×3 pattern wins (:data:`PRIOR_PATTERN`); a point 1, 2 or 3 steps from
  the last stone wins (:data:`PRIOR_NEAR`); in an empty area (no stone within 3 steps) the first two
  lines lose and the third line wins (:data:`PRIOR_EMPTY_AREA`).
- **Ownership.** Each playout's count (:meth:`~go_core.playout.PlayoutBoard.owners`) adds to each
  point's black or white tally, for the dead-stone estimate.

Moves outside this module are board indices ``row * size + col`` (row 0 at the bottom), -1 a pass.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from go_core.patterns import BLACK, EMPTY, WHITE
from go_core.playout import PASS, PlayoutBoard
from go_core.prng import XorShift64Star

EXPAND_VISITS: Final = 8
RAVE_EQUIVALENCE: Final = 3500.0
PRIOR_EVEN: Final = 10.0
PRIOR_PASS_WINS: Final = 1.0
"""A pass's prior wins (of :data:`PRIOR_EVEN` visits)."""
PRIOR_CAPTURE_ONE: Final = 15.0
PRIOR_CAPTURE_MANY: Final = 30.0
PRIOR_ESCAPE: Final = 15.0
PRIOR_SELF_ATARI: Final = 10.0
PRIOR_PATTERN: Final = 10.0
PRIOR_NEAR: Final = (0.0, 24.0, 22.0, 8.0)
"""By the number of steps (rows plus columns) from the last stone, 1 to 3."""
PRIOR_EMPTY_AREA: Final = 10.0
EMPTY_AREA_REACH: Final = 3


class PySearch:
    """A search tree over one position (see the module's docstring); ``go_core._search.Search`` has the
    same methods and makes the same choices for the same seed."""

    def __init__(
        self,
        size: int,
        komi: float,
        cells: bytes,
        to_move: int,
        ko: int,
        last: int,
        passes: int,
        history: Iterable[int],
        seed: int,
        patterns: bytes,
        max_nodes: int,
    ) -> None:
        """A tree with only its root: the position ``cells`` (one byte a point, row 0 first: 0 empty,
        1 black, 2 white) with ``to_move`` (1 or 2) to play after ``passes`` passes in a row; ``ko`` the
        point the player may not retake at once and ``last`` the last stone played (-1: none);
        ``history`` the hashes of the game's earlier positions
        (:func:`go_core.playout.position_hash`); ``seed`` the playouts' random generator's."""
        if max_nodes < 1:
            raise ValueError("max_nodes must be at least 1 (the root)")
        self.size = size
        self._board = PlayoutBoard(size, komi, cells, to_move, self._inside(ko), passes, patterns)
        self._board.last = self._inside(last)
        self._history = set(history)
        self._history.add(self._board.hash)
        self._rng = XorShift64Star(seed)
        self._max_nodes = max_nodes
        self._move: list[int] = []
        self._first_child: list[int] = []
        self._child_count: list[int] = []
        self._visits: list[int] = []
        self._wins: list[float] = []
        self._prior_visits: list[float] = []
        self._prior_wins: list[float] = []
        self._amaf_visits: list[int] = []
        self._amaf_wins: list[float] = []
        self._root = self._new_node(PASS, 0.0, 0.0)
        self._black_owned = [0] * (size * size)
        self._white_owned = [0] * (size * size)
        self.playouts = 0

    @property
    def hash(self) -> int:
        """The root position's hash (:func:`go_core.playout.position_hash`)."""
        return self._board.hash

    @property
    def nodes(self) -> int:
        """The nodes made so far (the root and every child ever added)."""
        return len(self._move)

    def run(self, playouts: int) -> None:
        """Run ``playouts`` iterations."""
        for _ in range(playouts):
            self._iterate()
            self.playouts += 1

    def children(self) -> list[tuple[int, int, float]]:
        """The root's children: ``(move, visits, wins)``, wins from the player to move's side."""
        start = self._first_child[self._root]
        return [
            (self._outside(self._move[child]), self._visits[child], self._wins[child])
            for child in range(start, start + self._child_count[self._root])
        ]

    def advance(self, move: int) -> bool:
        """Make the root's child for ``move`` the root (the tree below it is kept, the ownership tallies
        and the playout count start again); ``False`` (nothing changes) when there is no such child."""
        root = self._root
        start = self._first_child[root]
        inside = self._inside(move)
        for child in range(start, start + self._child_count[root]):
            if self._move[child] == inside:
                self._board.play(inside)
                self._history.add(self._board.hash)
                self._root = child
                self._black_owned = [0] * (self.size * self.size)
                self._white_owned = [0] * (self.size * self.size)
                self.playouts = 0
                return True
        return False

    def ownership(self) -> tuple[list[int], list[int]]:
        """For each point (row 0 first), in how many playouts Black, and White, owned it at the end."""
        return list(self._black_owned), list(self._white_owned)

    def playout_trace(self) -> tuple[list[int], float]:
        """One playout from the root's position (with the search's generator): its moves and score."""
        board = self._board.copy()
        moves: list[int] = []
        board.playout(self._rng, moves)
        return [self._outside(move) for move in moves], board.score()

    # Inside --------------------------------------------------------------------------------------

    def _inside(self, move: int) -> int:
        if move < 0:
            return PASS
        row, col = divmod(move, self.size)
        return (row + 1) * (self.size + 2) + col + 1

    def _outside(self, point: int) -> int:
        if point == PASS:
            return -1
        row, col = divmod(point, self.size + 2)
        return (row - 1) * self.size + col - 1

    def _new_node(self, move: int, prior_visits: float, prior_wins: float) -> int:
        self._move.append(move)
        self._first_child.append(0)
        self._child_count.append(0)
        self._visits.append(0)
        self._wins.append(0.0)
        self._prior_visits.append(prior_visits)
        self._prior_wins.append(prior_wins)
        self._amaf_visits.append(0)
        self._amaf_wins.append(0.0)
        return len(self._move) - 1

    def _iterate(self) -> None:
        board = self._board.copy()
        root_color = board.to_move
        node = self._root
        path = [node]
        hashes: list[int] = []
        while board.passes < 2:
            if self._child_count[node] == 0 and (
                (node != self._root and self._visits[node] < EXPAND_VISITS)
                or not self._expand(node, board, hashes)
            ):
                break
            node = self._select(node)
            board.play(self._move[node])
            hashes.append(board.hash)
            path.append(node)
        moves = [self._move[node] for node in path[1:]]
        if board.passes < 2:
            board.playout(self._rng, moves)
        owners = board.owners()
        score = board.score(owners)
        for index, owner in enumerate(owners):
            if owner == BLACK:
                self._black_owned[index] += 1
            elif owner == WHITE:
                self._white_owned[index] += 1
        black_result = 1.0 if score > 0 else 0.0 if score < 0 else 0.5
        first: dict[int, int] = {}
        for step, move in enumerate(moves):
            if move != PASS and move not in first:
                first[move] = step
        for depth, node in enumerate(path):
            self._visits[node] += 1
            if depth > 0:
                mover = root_color if depth % 2 == 1 else 3 - root_color
                self._wins[node] += black_result if mover == BLACK else 1.0 - black_result
            if depth == len(path) - 1:
                continue
            to_move = root_color if depth % 2 == 0 else 3 - root_color
            result = black_result if to_move == BLACK else 1.0 - black_result
            start = self._first_child[node]
            for child in range(start, start + self._child_count[node]):
                step = first.get(self._move[child], -1)
                if step >= depth and step % 2 == depth % 2:
                    self._amaf_visits[child] += 1
                    self._amaf_wins[child] += result

    def _select(self, node: int) -> int:
        best, best_value = -1, -1.0
        start = self._first_child[node]
        for child in range(start, start + self._child_count[node]):
            visits = self._visits[child] + self._prior_visits[child]
            wins = self._wins[child] + self._prior_wins[child]
            rave_visits = self._amaf_visits[child]
            if rave_visits > 0:
                beta = rave_visits / (rave_visits + visits + visits * rave_visits / RAVE_EQUIVALENCE)
                value = beta * (self._amaf_wins[child] / rave_visits) + (1.0 - beta) * (wins / visits)
            else:
                value = wins / visits
            if value > best_value:
                best, best_value = child, value
        return best

    def _expand(self, node: int, board: PlayoutBoard, hashes: list[int]) -> bool:
        """Give ``node`` (whose position ``board`` holds) its children; ``False`` if they do not fit."""
        size, width = self.size, self.size + 2
        if len(self._move) + size * size + 1 > self._max_nodes:
            return False
        color = board.to_move
        start = len(self._move)
        for row in range(1, size + 1):
            for point in range(row * width + 1, row * width + size + 1):
                if board.color[point] != EMPTY or not board.is_legal(point, color):
                    continue
                if board.is_eye(point, color):
                    continue
                position = board.capture_hash(point, color)
                if position in self._history or position in hashes:
                    continue
                prior_visits, prior_wins = self._prior(board, point, color)
                self._new_node(point, prior_visits, prior_wins)
        self._new_node(PASS, PRIOR_EVEN, PRIOR_PASS_WINS)
        self._first_child[node] = start
        self._child_count[node] = len(self._move) - start
        return True

    def _prior(self, board: PlayoutBoard, point: int, color: int) -> tuple[float, float]:
        """The virtual visits and wins of ``color``'s move on ``point`` (see the module's docstring)."""
        visits, wins = PRIOR_EVEN, PRIOR_EVEN / 2
        size, width = self.size, self.size + 2
        captured = 0
        heads: list[int] = []
        for near in board.neighbours(point):
            if board.color[near] == 3 - color and board.libs[board.group[near]] == 1:
                head = board.group[near]
                if head not in heads:
                    heads.append(head)
                    captured += board.gsize[head]
        if captured:
            bonus = PRIOR_CAPTURE_ONE if captured == 1 else PRIOR_CAPTURE_MANY
            visits, wins = visits + bonus, wins + bonus
        if board.is_bad_self_atari(point, color):
            visits += PRIOR_SELF_ATARI
        else:
            for near in board.neighbours(point):
                if board.color[near] == color and board.libs[board.group[near]] == 1:
                    if board.liberties_after(point, color) >= 2:
                        visits, wins = visits + PRIOR_ESCAPE, wins + PRIOR_ESCAPE
                    break
        if board.pattern_at(point):
            visits, wins = visits + PRIOR_PATTERN, wins + PRIOR_PATTERN
        row, col = divmod(point, width)
        last = board.last
        if last != PASS:
            steps = abs(row - last // width) + abs(col - last % width)
            if steps < len(PRIOR_NEAR):
                visits, wins = visits + PRIOR_NEAR[steps], wins + PRIOR_NEAR[steps]
        if self._empty_area(board, row, col):
            line = min(row, col, size + 1 - row, size + 1 - col)
            if line <= 2:
                visits += PRIOR_EMPTY_AREA
            elif line == 3:
                visits, wins = visits + PRIOR_EMPTY_AREA, wins + PRIOR_EMPTY_AREA
        return visits, wins

    def _empty_area(self, board: PlayoutBoard, row: int, col: int) -> bool:
        """Whether no stone is within :data:`EMPTY_AREA_REACH` steps of the padded ``(row, col)``."""
        size, width = self.size, self.size + 2
        for dr in range(-EMPTY_AREA_REACH, EMPTY_AREA_REACH + 1):
            reach = EMPTY_AREA_REACH - abs(dr)
            r = row + dr
            if r < 1 or r > size:
                continue
            for c in range(max(1, col - reach), min(size, col + reach) + 1):
                if board.color[r * width + c] != EMPTY:
                    return False
        return True
