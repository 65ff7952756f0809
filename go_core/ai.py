"""The built-in Go AI: light heuristics and Monte Carlo playouts, for when GNU Go is not installed.

The move is chosen among the legal points that do not fill the player's own eye. Each candidate gets a
prior from simple shape (capture, escape from atari, no self-atari, the third and fourth lines and open
areas in the opening, near the last move) and, while time allows, random playouts that start with it,
shared out by UCB1 (more to the candidates that win); the candidate with the best share of playouts
won, its prior counting as a few playouts, is played. It passes when nothing but its own eyes is left,
or when the opponent has passed and the board counts as a win. Seeded by the :class:`random.Random` passed in; the time budget is a deadline on ``clock`` (the
best move found so far is returned when it passes).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from go_core.board import Board
from go_core.errors import IllegalMoveError
from go_core.game import Game, Phase
from go_core.points import Color, Point
from go_core.scoring import ScoringMethod, count, empty_region

Clock = Callable[[], float]

MAX_CANDIDATES: Final = 12
"""The candidates that get playouts, the best priors first."""
EXPLORATION: Final = 0.4
"""UCB1's exploration weight: how readily playouts go to candidates that have had few."""
PRIOR_PLAYOUTS: Final = 10
"""How many playouts a candidate's prior is worth."""
TWO_EYE_SPACE: Final = 6
"""An eye space of this many points is taken to make two eyes."""


@dataclass(frozen=True, slots=True)
class Budget:
    """How long the AI may think: ``seconds`` on ``clock``, and at most ``playouts`` playouts."""

    seconds: float = 1.0
    playouts: int = 400
    clock: Clock = time.monotonic


def choose_move(
    game: Game, rng: random.Random, budget: Budget = Budget(), color: Color | None = None
) -> Point | None:
    """The point ``color`` (default: the player to move) should play in ``game``, or ``None`` to pass.
    ``game`` is not changed.

    Raises:
        IllegalMoveError: the game is not in its playing phase.
    """
    if game.phase is not Phase.PLAY:
        raise IllegalMoveError("The AI moves only while the game is being played")
    color = game.to_move if color is None else color
    board = game.board
    last = game.last_move
    komi = game.komi + (game.handicap if game.method is ScoringMethod.AREA else 0)
    if last is not None and last.is_pass and last.color is not color and _wins(board, color, komi):
        return None
    context = _Context(
        opening=len(game.moves) < board.size * 2,
        stones=board.stones(),
        last=None if last is None else last.point,
        rng=rng,
    )
    priors = {
        point: _prior(board, color, point, context)
        for point in game.legal_points(color)
        if not is_eye(board, point, color)
    }
    if not priors:
        return None
    ranked = sorted(priors, key=lambda point: (-priors[point], point))[:MAX_CANDIDATES]
    if len(ranked) == 1 or budget.playouts <= 0:
        return ranked[0]
    wins = dict.fromkeys(ranked, 0)
    runs = dict.fromkeys(ranked, 0)
    deadline = budget.clock() + budget.seconds
    for number in range(budget.playouts):
        if budget.clock() >= deadline:
            break
        explore = math.log(number + 1)
        point = max(
            ranked,
            key=lambda point: (
                _value(wins[point], runs[point], priors[point])
                + EXPLORATION * math.sqrt(explore / (runs[point] + 1))
            ),
        )
        trial = board.copy()
        trial.play(color, point)
        final = playout(trial, color.opponent, rng)
        runs[point] += 1
        wins[point] += _wins(final, color, komi)
    return max(ranked, key=lambda point: (_value(wins[point], runs[point], priors[point]), priors[point]))


def _value(wins: int, runs: int, prior: float) -> float:
    """The share of playouts won, the prior counting as :data:`PRIOR_PLAYOUTS` playouts won in the
    share a logistic curve gives it (a capture's prior is worth about nine wins in ten)."""
    prior_share = 1 / (1 + math.exp(-prior / 4))
    return (wins + PRIOR_PLAYOUTS * prior_share) / (runs + PRIOR_PLAYOUTS)


def propose_dead(game: Game) -> frozenset[Point]:
    """The stones that look dead at the end of play. A group is weak when its area (the points reached
    from it through empty points and stones of its colour) touches only the opponent's stones and holds
    fewer than two eyes: empty regions of the area next to its colour only, one of
    :data:`TWO_EYE_SPACE` points or more counting as two. The weak group with the smallest area is
    taken off, then the others are looked at again (its removal may give its neighbours their eyes).
    Groups in seki come out dead: the players unmark them."""
    board = game.board
    dead: set[Point] = set()
    while True:
        weak: list[tuple[int, set[Point]]] = []
        seen: set[Point] = set()
        for point in board.stones():
            if point in seen:
                continue
            color = board[point]
            assert color is not None
            area, borders = _area(board, point, color)
            stones = {spot for spot in area if board[spot] is color}
            seen |= stones
            if borders == {color.opponent} and _eyes(board, area, color) < 2:
                weak.append((len(area), stones))
        if not weak:
            return frozenset(dead)
        _, stones = min(weak, key=lambda entry: (entry[0], min(entry[1])))
        dead |= stones
        board.place(None, stones)


def _area(board: Board, start: Point, color: Color) -> tuple[set[Point], set[Color]]:
    """The points reached from ``start`` through empty points and ``color`` stones, and the colours of
    the stones around them."""
    area = {start}
    borders: set[Color] = set()
    todo = [start]
    while todo:
        for near in board.neighbours(todo.pop()):
            stone = board[near]
            if stone is color.opponent:
                borders.add(stone)
            elif near not in area:
                area.add(near)
                todo.append(near)
    return area, borders


def _eyes(board: Board, area: set[Point], color: Color) -> int:
    eyes = 0
    seen: set[Point] = set()
    for point in area:
        if board[point] is not None or point in seen:
            continue
        region, borders = empty_region(board, point)
        seen |= region
        if borders == {color}:
            eyes += 2 if len(region) >= TWO_EYE_SPACE else 1
    return eyes


def playout(board: Board, color: Color, rng: random.Random) -> Board:
    """Play ``board`` out at random from ``color``'s turn, until both pass (nothing but eyes left) or
    the move limit; returns ``board``. A stone just played that is left in atari is captured at once;
    otherwise a random legal point is played, never the player's own eye."""
    passes = 0
    empties = [point for point in board.points() if board[point] is None]
    last: Point | None = None
    for _ in range(3 * board.size * board.size):
        if passes == 2:
            break
        point = _random_move(board, color, rng, empties, last)
        if point is None:
            passes += 1
        else:
            passes = 0
            captured = board.play(color, point)
            empties.remove(point)
            empties.extend(captured)
        last = point
        color = color.opponent
    return board


def is_eye(board: Board, point: Point, color: Color) -> bool:
    """Whether the empty ``point`` is ``color``'s eye: all its neighbours are ``color`` stones and the
    opponent holds fewer than two of its diagonals (fewer than one on the edge)."""
    if board[point] is not None or any(board[near] is not color for near in board.neighbours(point)):
        return False
    diagonals = _diagonals(board.size, point)
    enemies = sum(board[corner] is color.opponent for corner in diagonals)
    return enemies < (2 if len(diagonals) == 4 else 1)


def _random_move(
    board: Board, color: Color, rng: random.Random, empties: list[Point], last: Point | None
) -> Point | None:
    if last is not None:
        liberties = board.liberties(last)
        if len(liberties) == 1:
            (capture,) = liberties
            if board.allows(color, capture):
                return capture
    start = rng.randrange(len(empties)) if empties else 0
    for offset in range(len(empties)):
        point = empties[(start + offset) % len(empties)]
        if not is_eye(board, point, color) and board.allows(color, point):
            return point
    return None


def _prior(board: Board, color: Color, point: Point, context: _Context) -> float:
    """Shape knowledge about ``color`` playing ``point``: higher is better. Captures, saving a group in
    atari and putting one in atari score; self-atari loses. The first line is poor (from 5×5); from 9×9,
    in the opening the third and fourth lines and points away from every stone are good, and points
    near the last move are. A seeded jitter breaks the ties."""
    score = 0.0
    captured = board.captures_of(color, point)
    score += 10.0 * len(captured)
    trial = board.copy()
    trial.play(color, point)
    liberties = len(trial.liberties(point))
    if liberties == 1 and not captured:
        score -= 8.0 * len(trial.group(point))
    for near in board.neighbours(point):
        if board[near] is color and len(board.liberties(near)) == 1 and liberties > 1:
            score += 6.0 * len(board.group(near))
        elif board[near] is color.opponent and len(trial.liberties(near)) == 1 and liberties > 1:
            score += 2.0
    line = min(point.col, point.row, board.size - 1 - point.col, board.size - 1 - point.row)
    if board.size >= 5 and line == 0:
        score -= 3.0 if context.opening else 1.0
    if board.size >= 9:
        if context.opening:
            score += {1: -1.5, 2: 1.0, 3: 1.0}.get(line, 0.0)
            room = min(
                (max(abs(point.col - col), abs(point.row - row)) for col, row in context.stones), default=9
            )
            score += 1.5 if room >= 4 else -1.0 if room <= 1 else 0.0
        last = context.last
        if last is not None and abs(point.col - last.col) + abs(point.row - last.row) <= 2:
            score += 0.5
    return score + context.rng.random() * 0.2


@dataclass(frozen=True, slots=True)
class _Context:
    """What :func:`_prior` knows of the game besides the board."""

    opening: bool
    stones: list[Point]
    last: Point | None
    rng: random.Random


def _wins(board: Board, color: Color, komi: float) -> bool:
    """Whether ``color`` wins ``board`` counted by area, every stone alive, White getting ``komi``."""
    score = count(board, komi=komi)
    return score.winner is color


@lru_cache(maxsize=4096)
def _diagonals(size: int, point: Point) -> tuple[Point, ...]:
    col, row = point
    return tuple(
        Point(col + dc, row + dr)
        for dc in (-1, 1)
        for dr in (-1, 1)
        if 0 <= col + dc < size and 0 <= row + dr < size
    )
