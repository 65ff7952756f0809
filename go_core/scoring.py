"""Counting a finished game: area scoring (stones plus surrounded territory) or stone scoring (stones
only), with komi for White, after the dead stones are taken off."""

from __future__ import annotations

import enum
from collections.abc import Collection
from dataclasses import dataclass
from typing import Final

from go_core.board import Board
from go_core.points import Color, Point

DEFAULT_KOMI: Final = 7.5
DRAW: Final = "0"
"""GTP's ``final_score`` for a draw."""


class ScoringMethod(enum.StrEnum):
    """Area scoring (Chinese, AGA): stones plus territory; stone scoring (the oldest rule): stones only."""

    AREA = "area"
    STONES = "stones"

    def __repr__(self) -> str:
        return f"ScoringMethod.{self.name}"


@dataclass(frozen=True, slots=True)
class Score:
    """A counted position. Territory is counted under area scoring only (0 under stone scoring);
    ``neutral`` is the empty points that border both colours (dame, seki's shared liberties);
    ``handicap`` the points White gets for Black's handicap stones."""

    method: ScoringMethod
    komi: float
    black_stones: int
    white_stones: int
    black_territory: int
    white_territory: int
    neutral: int
    handicap: int = 0

    @property
    def black(self) -> float:
        """Black's total."""
        return float(self.black_stones + self.black_territory)

    @property
    def white(self) -> float:
        """White's total, komi and handicap compensation included."""
        return self.white_stones + self.white_territory + self.komi + self.handicap

    @property
    def winner(self) -> Color | None:
        """The colour with more points, ``None`` for a draw."""
        if self.black == self.white:
            return None
        return Color.BLACK if self.black > self.white else Color.WHITE

    @property
    def margin(self) -> float:
        """How many points the winner is ahead by (0 for a draw)."""
        return abs(self.black - self.white)

    @property
    def result(self) -> str:
        """The result as SGF and GTP write it: ``B+3.5``, ``W+0.5``, ``0`` for a draw."""
        winner = self.winner
        return DRAW if winner is None else f"{winner.value}+{self.margin:g}"

    def breakdown(self) -> str:
        """``Black 40 (stones 20 + territory 20), White 48.5 (stones 19 + territory 22 + komi 7.5): W+8.5``."""

        def side(total: float, stones: int, territory: int, komi: float, handicap: int) -> str:
            parts = [f"stones {stones}"]
            if self.method is ScoringMethod.AREA:
                parts.append(f"territory {territory}")
            if komi:
                parts.append(f"komi {komi:g}")
            if handicap:
                parts.append(f"handicap {handicap}")
            return f"{total:g} ({' + '.join(parts)})"

        black = side(self.black, self.black_stones, self.black_territory, 0, 0)
        white = side(self.white, self.white_stones, self.white_territory, self.komi, self.handicap)
        return f"Black {black}, White {white}: {describe_result(self.result)}"


def describe_result(result: str) -> str:
    """A result in words: ``Black wins by 3.5``, ``White wins by resignation``, ``Draw``."""
    if result == DRAW:
        return "Draw"
    color = Color(result[0])
    margin = result[2:]
    if margin == "R":
        return f"{color.title} wins by resignation"
    if margin == "T":
        return f"{color.title} wins on time"
    return f"{color.title} wins by {margin}"


def count(
    board: Board,
    dead: Collection[Point] = (),
    *,
    komi: float = DEFAULT_KOMI,
    method: ScoringMethod = ScoringMethod.AREA,
    handicap: int = 0,
) -> Score:
    """Count ``board`` once the stones on ``dead`` are taken off: each empty region that touches stones of
    one colour only is that colour's territory; a region that touches both (or none) is neutral. White
    gets ``komi`` and ``handicap`` points more."""
    alive = board.copy()
    alive.place(None, dead)
    owners = territory_owner(alive)
    black_territory = sum(owner is Color.BLACK for owner in owners.values())
    empty = board.size * board.size - alive.count(Color.BLACK) - alive.count(Color.WHITE)
    area = method is ScoringMethod.AREA
    return Score(
        method=method,
        komi=komi,
        black_stones=alive.count(Color.BLACK),
        white_stones=alive.count(Color.WHITE),
        black_territory=black_territory if area else 0,
        white_territory=len(owners) - black_territory if area else 0,
        neutral=empty - len(owners),
        handicap=handicap,
    )


def empty_region(board: Board, start: Point) -> tuple[set[Point], set[Color]]:
    """The empty points connected to the empty ``start``, and the colours of the stones around them."""
    region = {start}
    borders: set[Color] = set()
    todo = [start]
    while todo:
        for near in board.neighbours(todo.pop()):
            stone = board[near]
            if stone is not None:
                borders.add(stone)
            elif near not in region:
                region.add(near)
                todo.append(near)
    return region, borders


def territory_owner(board: Board, dead: Collection[Point] = ()) -> dict[Point, Color]:
    """Each empty (or dead-stone) point that is one colour's territory, with that colour: what a board
    shows as territory in the dead-stone phase."""
    alive = board.copy()
    alive.place(None, dead)
    owners: dict[Point, Color] = {}
    seen: set[Point] = set()
    for point in alive.points():
        if alive[point] is not None or point in seen:
            continue
        region, borders = empty_region(alive, point)
        seen |= region
        if len(borders) == 1:
            owner = next(iter(borders))
            owners.update(dict.fromkeys(region, owner))
    return owners
