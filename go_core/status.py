"""Dead stones and seki at the end of a game, from the playouts' ownership of each point.

A group is **dead** when its colour owns its points at the end of fewer than half of the playouts
(they were captured and became the opponent's area). A living group is **in seki** when it has fewer
than two eyes (empty regions bordered by its colour only) and one of its liberties, next to a living
group of the opponent, is nobody's at the end of more than half of the playouts: neither side could
fill it without being captured (the playouts do not play a self-atari of two stones or more), so it
stays a shared liberty. Seki stones are alive; their shared liberties count for nobody.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from go_core.board import Board
from go_core.points import Color, Point
from go_core.scoring import empty_region

ALIVE_SHARE: Final = 0.5
"""A group whose colour owns its points in fewer playouts than this share is dead."""
NEUTRAL_SHARE: Final = 0.5
"""A liberty that is nobody's in more playouts than this share is a shared liberty."""


@dataclass(frozen=True, slots=True)
class StoneStatuses:
    """The dead stones and the stones in seki of a position (GTP's ``final_status_list``)."""

    dead: frozenset[Point]
    seki: frozenset[Point]


def stone_statuses(
    board: Board, black_owned: Sequence[int], white_owned: Sequence[int], playouts: int
) -> StoneStatuses:
    """The statuses of ``board``'s stones given in how many of ``playouts`` playouts Black and White
    owned each point (row 0 first; see the module's docstring). No playouts: every stone alive."""
    if playouts <= 0:
        return StoneStatuses(frozenset(), frozenset())
    size = board.size

    def share(owned: Sequence[int], point: Point) -> float:
        return owned[point.row * size + point.col] / playouts

    owned_by = {Color.BLACK: black_owned, Color.WHITE: white_owned}
    groups = _groups(board)
    dead: set[Point] = set()
    for color, stones in groups:
        if sum(share(owned_by[color], stone) for stone in stones) / len(stones) < ALIVE_SHARE:
            dead |= stones
    alive = board.copy()
    alive.place(None, dead)
    seki: set[Point] = set()
    for color, stones in groups:
        if stones & dead or _eyes(alive, stones, color) >= 2:
            continue
        for liberty in alive.liberties(next(iter(stones))):
            nobody = 1 - share(black_owned, liberty) - share(white_owned, liberty)
            if nobody > NEUTRAL_SHARE and any(
                alive[near] is color.opponent for near in alive.neighbours(liberty)
            ):
                seki |= stones
                break
    return StoneStatuses(frozenset(dead), frozenset(seki))


def _groups(board: Board) -> list[tuple[Color, frozenset[Point]]]:
    """Each group of ``board``: its colour and its stones."""
    groups: list[tuple[Color, frozenset[Point]]] = []
    seen: set[Point] = set()
    for point in board.stones():
        color = board[point]
        if point not in seen and color is not None:
            stones = board.group(point)
            seen |= stones
            groups.append((color, stones))
    return groups


def _eyes(board: Board, stones: frozenset[Point], color: Color) -> int:
    """How many empty regions next to the group ``stones`` are bordered by ``color`` only."""
    eyes: list[set[Point]] = []
    for liberty in board.liberties(next(iter(stones))):
        if not any(liberty in eye for eye in eyes):
            region, borders = empty_region(board, liberty)
            if borders == {color}:
                eyes.append(region)
    return len(eyes)
