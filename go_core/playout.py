"""The Monte Carlo search's board and its playouts: the pure-Python reference of ``go_core/_search.c``.

The board is laid out for speed, not for reading: one list per property over a padded grid of
``(size + 2)²`` points (a ring of :data:`EDGE` points around the board), a point's index being
``(row + 1) * (size + 2) + col + 1``; index 0 (an edge point) stands for a pass. Each group of stones
keeps, on its first stone (its *head*): its stone count and its exact number of liberties, updated as
stones are played and captured (a stone merging groups recounts them); the stones of a group are a ring
through ``next_stone``. The empty points are a list with each point's place in it, so that a point
is removed or added at once. A 64-bit hash of the position (Zobrist's: the XOR of one key per stone)
follows every change, for the tree's superko checks.

A playout plays on from a position, both colours in turn, until two passes in a row (or
``3 * size²`` moves): each move is chosen by :meth:`PlayoutBoard.policy_move`:

1. Nine times in ten (a :data:`ATARI_CHANCE` draw), after an opponent's stone: capture its group if it
   is left in atari; save each of one's own groups it put in atari, by capturing a group in atari next
   to it or by extending to a point that gives it two liberties or more. One of these at random.
2. Else, nineteen times in twenty (:data:`PATTERN_CHANCE`): one of the empty points around the last
   stone where a 3×3 pattern of :mod:`go_core.patterns` matches.
3. Else a random point: from a random place in the list of empty points, the first one that is legal,
   not the player's own eye (:meth:`PlayoutBoard.is_eye`) and not a self-atari of a group of two stones
   or more (:meth:`PlayoutBoard.is_bad_self_atari`); a pass when there is none.

Steps 1 and 2 skip illegal moves, own eyes and big self-ataris too. Playouts keep the simple ko only
(no retaking a single stone at once); the tree checks positional superko.

The end is counted by area: stones, and empty points whose stone neighbours are all of one colour;
an empty point next to both colours (a seki's shared liberty) is nobody's. The score is Black's area
minus White's minus the komi.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Final

from go_core.patterns import BLACK, EDGE, EMPTY, WHITE
from go_core.prng import XorShift64Star, splitmix64

PASS: Final = 0
"""The index that stands for a pass (an edge point)."""
ATARI_CHANCE: Final = 3_865_470_566
"""9/10 of 2**32: a 32-bit draw below it tries the atari moves."""
PATTERN_CHANCE: Final = 4_080_218_931
"""19/20 of 2**32: a draw below it tries the patterns around the last move."""
ZOBRIST_SEED: Final = 0x5EED_0F_60
MAX_MOVES_FACTOR: Final = 3
"""A playout stops after ``3 * size²`` moves."""


@cache
def zobrist_keys(size: int) -> tuple[int, ...]:
    """The 64-bit key of a black stone on each padded index, then of a white one (see
    :func:`go_core.prng.splitmix64`)."""
    return tuple(splitmix64(ZOBRIST_SEED + size, 2 * (size + 2) ** 2))


def position_hash(size: int, cells: bytes) -> int:
    """The hash of the position ``cells`` (one byte a point, row 0 first: 0 empty, 1 black, 2 white)."""
    keys, width, points = zobrist_keys(size), size + 2, (size + 2) ** 2
    value = 0
    for index, cell in enumerate(cells):
        if cell:
            row, col = divmod(index, size)
            value ^= keys[(cell - 1) * points + (row + 1) * width + col + 1]
    return value


class PlayoutBoard:
    """A position for the search (see the module's docstring), copied for each playout."""

    __slots__ = (
        "color",
        "empties",
        "empty_at",
        "group",
        "gsize",
        "hash",
        "keys",
        "ko",
        "komi",
        "last",
        "libs",
        "next_stone",
        "passes",
        "patterns",
        "size",
        "to_move",
        "width",
    )

    def __init__(
        self, size: int, komi: float, cells: bytes, to_move: int, ko: int, passes: int, patterns: bytes
    ) -> None:
        """The position ``cells`` (see :func:`position_hash`) with ``to_move`` (1 black, 2 white) to play,
        ``ko`` the padded index the player may not retake (0: none), ``passes`` in a row before."""
        width = size + 2
        self.size, self.width, self.komi, self.patterns = size, width, komi, patterns
        self.keys = zobrist_keys(size)
        self.color = [EDGE] * (width * width)
        self.group = [0] * (width * width)
        self.next_stone = [0] * (width * width)
        self.libs = [0] * (width * width)
        self.gsize = [0] * (width * width)
        self.empty_at = [-1] * (width * width)
        self.empties: list[int] = []
        self.hash = 0
        self.to_move, self.ko, self.passes, self.last = to_move, ko, passes, PASS
        for row in range(size):
            for col in range(size):
                point = (row + 1) * width + col + 1
                self.color[point] = EMPTY
                self.empty_at[point] = len(self.empties)
                self.empties.append(point)
        heads = []
        for index, cell in enumerate(cells):
            if cell:
                row, col = divmod(index, size)
                point = (row + 1) * width + col + 1
                self._take_empty(point)
                self.color[point] = cell
                self.hash ^= self.keys[(cell - 1) * width * width + point]
                self.group[point], self.next_stone[point], self.gsize[point] = point, point, 1
                heads.append(point)
                for near in self.neighbours(point):
                    if self.color[near] == cell and self.group[near] != self.group[point]:
                        self._merge(self.group[near], self.group[point])
        for point in heads:
            if self.group[point] == point:
                self.libs[point] = self._count_libs(point)

    def copy(self) -> PlayoutBoard:
        """An independent board in the same position."""
        board = PlayoutBoard.__new__(PlayoutBoard)
        board.size, board.width, board.komi, board.patterns = self.size, self.width, self.komi, self.patterns
        board.keys = self.keys
        board.color = self.color.copy()
        board.group = self.group.copy()
        board.next_stone = self.next_stone.copy()
        board.libs = self.libs.copy()
        board.gsize = self.gsize.copy()
        board.empty_at = self.empty_at.copy()
        board.empties = self.empties.copy()
        board.hash, board.to_move, board.ko = self.hash, self.to_move, self.ko
        board.passes, board.last = self.passes, self.last
        return board

    def neighbours(self, point: int) -> tuple[int, int, int, int]:
        """The four neighbours (edge points included): south, west, east, north."""
        width = self.width
        return (point - width, point - 1, point + 1, point + width)

    # Reading -------------------------------------------------------------------------------------

    def _count_libs(self, head: int) -> int:
        """The liberties of the group ``head``, counted stone by stone."""
        seen: set[int] = set()
        stone = head
        while True:
            for near in self.neighbours(stone):
                if self.color[near] == EMPTY:
                    seen.add(near)
            stone = self.next_stone[stone]
            if stone == head:
                return len(seen)

    def liberty(self, head: int) -> int:
        """A liberty of the group ``head`` (the first found from its head), 0 if none."""
        stone = head
        while True:
            for near in self.neighbours(stone):
                if self.color[near] == EMPTY:
                    return near
            stone = self.next_stone[stone]
            if stone == head:
                return 0

    def is_legal(self, point: int, color: int) -> bool:
        """Whether ``color`` may play on ``point``: empty, not the ko, and not suicide."""
        if self.color[point] != EMPTY or point == self.ko:
            return False
        for near in self.neighbours(point):
            near_color = self.color[near]
            if near_color == EMPTY:
                return True
            if near_color == color:
                if self.libs[self.group[near]] > 1:
                    return True
            elif near_color != EDGE and self.libs[self.group[near]] == 1:
                return True
        return False

    def is_eye(self, point: int, color: int) -> bool:
        """Whether the empty ``point`` is ``color``'s eye: its neighbours are ``color`` stones (or the
        edge) and the opponent holds fewer than two of its diagonals (none on the edge)."""
        for near in self.neighbours(point):
            if self.color[near] != color and self.color[near] != EDGE:
                return False
        width = self.width
        enemies, edge = 0, 0
        for corner in (point - width - 1, point - width + 1, point + width - 1, point + width + 1):
            corner_color = self.color[corner]
            if corner_color == EDGE:
                edge = 1
            elif corner_color not in (color, EMPTY):
                enemies += 1
        return enemies == 0 if edge else enemies < 2

    def captures(self, point: int, color: int) -> bool:
        """Whether ``color`` on ``point`` takes a group (one next to it in atari)."""
        opponent = 3 - color
        for near in self.neighbours(point):
            if self.color[near] == opponent and self.libs[self.group[near]] == 1:
                return True
        return False

    def liberties_after(self, point: int, color: int) -> int:
        """The liberties (0, 1, or 2 for two or more) of ``color``'s group with a stone on the empty
        ``point``, captures left aside."""
        found = 0
        for near in self.neighbours(point):
            if self.color[near] == EMPTY:
                if found == 0:
                    found = near
                elif near != found:
                    return 2
        heads: list[int] = []
        for near in self.neighbours(point):
            if self.color[near] == color and self.group[near] not in heads:
                head = self.group[near]
                heads.append(head)
                stone = head
                while True:
                    for empty in self.neighbours(stone):
                        if self.color[empty] == EMPTY and empty != point:
                            if found == 0:
                                found = empty
                            elif empty != found:
                                return 2
                    stone = self.next_stone[stone]
                    if stone == head:
                        break
        return 1 if found else 0

    def is_bad_self_atari(self, point: int, color: int) -> bool:
        """Whether ``color`` on ``point`` captures nothing and leaves a group of two stones or more with
        one liberty."""
        if self.captures(point, color):
            return False
        joins = False
        for near in self.neighbours(point):
            if self.color[near] == color:
                joins = True
        return joins and self.liberties_after(point, color) < 2

    def pattern_at(self, point: int) -> bool:
        """Whether a 3×3 pattern of :mod:`go_core.patterns` matches around ``point``."""
        width, color = self.width, self.color
        code = (
            color[point + width - 1]
            | color[point + width] << 2
            | color[point + width + 1] << 4
            | color[point - 1] << 6
            | color[point + 1] << 8
            | color[point - width - 1] << 10
            | color[point - width] << 12
            | color[point - width + 1] << 14
        )
        return self.patterns[code] == 1

    def capture_hash(self, point: int, color: int) -> int:
        """The position's hash after ``color`` plays on the empty ``point`` (its captures taken)."""
        keys, points, opponent = self.keys, self.width * self.width, 3 - color
        value = self.hash ^ keys[(color - 1) * points + point]
        heads: list[int] = []
        for near in self.neighbours(point):
            if self.color[near] == opponent and self.libs[self.group[near]] == 1:
                head = self.group[near]
                if head in heads:
                    continue
                heads.append(head)
                stone = head
                while True:
                    value ^= keys[(opponent - 1) * points + stone]
                    stone = self.next_stone[stone]
                    if stone == head:
                        break
        return value

    # Playing -------------------------------------------------------------------------------------

    def play(self, point: int) -> None:
        """The player to move plays on ``point`` (a legal move) or passes (:data:`PASS`)."""
        color = self.to_move
        self.to_move = 3 - color
        self.last = point
        if point == PASS:
            self.passes += 1
            self.ko = 0
            return
        self.passes = 0
        opponent = 3 - color
        self._take_empty(point)
        self.color[point] = color
        self.hash ^= self.keys[(color - 1) * self.width * self.width + point]
        self.group[point], self.next_stone[point], self.gsize[point] = point, point, 1
        heads: list[int] = []
        own: list[int] = []
        for near in self.neighbours(point):
            near_color = self.color[near]
            if near_color in (BLACK, WHITE):
                head = self.group[near]
                if head not in heads:
                    heads.append(head)
                    self.libs[head] -= 1
                    if near_color == color:
                        own.append(head)
        if not own:
            self.libs[point] = sum(self.color[near] == EMPTY for near in self.neighbours(point))
            head = point
        elif len(own) == 1:
            head = own[0]
            self._join(head, point)
            for near in self.neighbours(point):
                if self.color[near] == EMPTY and not self._touches(near, head, point):
                    self.libs[head] += 1
        else:
            head = own[0]
            self._join(head, point)
            for other in own[1:]:
                self._merge(head, other)
            self.libs[head] = self._count_libs(head)
        captured, taken = 0, 0
        for other in heads:
            if self.color[other] == opponent and self.libs[other] == 0:
                captured += self.gsize[other]
                taken = other
                self._remove(other)
        if captured == 1 and self.gsize[head] == 1 and self.libs[head] == 1:
            self.ko = taken
        else:
            self.ko = 0

    def _touches(self, empty: int, head: int, skip: int) -> bool:
        """Whether the empty point ``empty`` is next to a stone of group ``head`` other than ``skip``."""
        for near in self.neighbours(empty):
            if near != skip and self.group[near] == head and self.color[near] != EMPTY:
                return True
        return False

    def _join(self, head: int, point: int) -> None:
        """Add the lone stone ``point`` to the group ``head``."""
        self.group[point] = head
        self.next_stone[point] = self.next_stone[head]
        self.next_stone[head] = point
        self.gsize[head] += 1

    def _merge(self, head: int, other: int) -> None:
        """Move the stones of group ``other`` into group ``head`` (liberties are counted by the caller)."""
        stone = other
        while True:
            self.group[stone] = head
            stone = self.next_stone[stone]
            if stone == other:
                break
        self.next_stone[head], self.next_stone[other] = self.next_stone[other], self.next_stone[head]
        self.gsize[head] += self.gsize[other]

    def _remove(self, head: int) -> None:
        """Take the group ``head`` off: its points become empty and liberties of the groups around."""
        color = self.color[head]
        key_base = (color - 1) * self.width * self.width
        stone = head
        while True:
            following = self.next_stone[stone]
            self.color[stone] = EMPTY
            self.group[stone] = 0
            self.hash ^= self.keys[key_base + stone]
            self.empty_at[stone] = len(self.empties)
            self.empties.append(stone)
            stone = following
            if stone == head:
                break
        stone = head
        while True:
            following = self.next_stone[stone]
            seen: list[int] = []
            for near in self.neighbours(stone):
                if self.color[near] in (BLACK, WHITE):
                    other = self.group[near]
                    if other not in seen:
                        seen.append(other)
                        self.libs[other] += 1
            stone = following
            if stone == head:
                break

    def _take_empty(self, point: int) -> None:
        """Remove ``point`` from the list of empty points (the last one takes its place)."""
        place = self.empty_at[point]
        moved = self.empties.pop()
        if moved != point:
            self.empties[place] = moved
            self.empty_at[moved] = place
        self.empty_at[point] = -1

    # The playout policy --------------------------------------------------------------------------

    def _fits(self, point: int, color: int) -> bool:
        """Whether a playout may play ``point``: legal, not an own eye, not a big self-atari."""
        return (
            self.is_legal(point, color)
            and not self.is_eye(point, color)
            and not self.is_bad_self_atari(point, color)
        )

    def atari_moves(self, color: int) -> list[int]:
        """Step 1 of the policy: the moves that capture the last stone's group or save a group of
        ``color`` that the last stone put in atari (duplicates kept)."""
        moves: list[int] = []
        last = self.last
        if last == PASS or self.color[last] != 3 - color:
            return moves
        head = self.group[last]
        if self.libs[head] == 1:
            moves.append(self.liberty(head))
        saved: list[int] = []
        for near in self.neighbours(last):
            if self.color[near] != color:
                continue
            own = self.group[near]
            if own in saved or self.libs[own] != 1:
                continue
            saved.append(own)
            stone = own
            while True:
                for other in self.neighbours(stone):
                    if self.color[other] == 3 - color and self.libs[self.group[other]] == 1:
                        moves.append(self.liberty(self.group[other]))
                stone = self.next_stone[stone]
                if stone == own:
                    break
            escape = self.liberty(own)
            if self.captures(escape, color) or self.liberties_after(escape, color) >= 2:
                moves.append(escape)
        return [move for move in moves if self._fits(move, color)]

    def pattern_moves(self, color: int) -> list[int]:
        """Step 2 of the policy: the empty points around the last stone where a pattern matches."""
        last, width = self.last, self.width
        moves: list[int] = []
        if last == PASS:
            return moves
        for point in (
            last + width - 1,
            last + width,
            last + width + 1,
            last - 1,
            last + 1,
            last - width - 1,
            last - width,
            last - width + 1,
        ):
            if self.color[point] == EMPTY and self.pattern_at(point) and self._fits(point, color):
                moves.append(point)
        return moves

    def policy_move(self, rng: XorShift64Star) -> int:
        """The playout's move for the player to move (see the module's docstring), or :data:`PASS`."""
        color = self.to_move
        if rng.next32() < ATARI_CHANCE:
            moves = self.atari_moves(color)
            if moves:
                return moves[rng.below(len(moves))]
        if rng.next32() < PATTERN_CHANCE:
            moves = self.pattern_moves(color)
            if moves:
                return moves[rng.below(len(moves))]
        empties = self.empties
        count = len(empties)
        if count:
            start = rng.below(count)
            for offset in range(count):
                point = empties[(start + offset) % count]
                if self._fits(point, color):
                    return point
        return PASS

    def playout(self, rng: XorShift64Star, moves: list[int] | None = None) -> float:
        """Play on to the end (see the module's docstring) and return the score; the moves played are
        appended to ``moves``."""
        limit = MAX_MOVES_FACTOR * self.size * self.size
        played = 0
        while self.passes < 2 and played < limit:
            point = self.policy_move(rng)
            self.play(point)
            if moves is not None:
                moves.append(point)
            played += 1
        return self.score()

    def owners(self) -> list[int]:
        """Each board point's owner at the count (0 nobody, 1 Black, 2 White), row 0 first."""
        owners = []
        width = self.width
        for row in range(self.size):
            for col in range(self.size):
                point = (row + 1) * width + col + 1
                color = self.color[point]
                if color == EMPTY:
                    around = 0
                    for near in self.neighbours(point):
                        if self.color[near] != EDGE:
                            around |= self.color[near]
                    color = around if around in (BLACK, WHITE) else EMPTY
                owners.append(color)
        return owners

    def score(self, owners: Sequence[int] | None = None) -> float:
        """Black's area minus White's minus the komi (``owners`` as :meth:`owners` gives them)."""
        owned = self.owners() if owners is None else owners
        return owned.count(BLACK) - owned.count(WHITE) - self.komi
