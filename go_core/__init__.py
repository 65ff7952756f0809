"""A pure Go engine: the board, the rules (captures, no suicide, positional superko, passing, the
dead-stone phase), area and stone scoring, handicaps, and a built-in AI (:mod:`go_core.ai`).

No I/O beyond strings: front ends (terminal, GTP, Discord) and the SGF record live in :mod:`bot.go`.
"""

from go_core.board import Board
from go_core.errors import GoError
from go_core.game import Game, Move, Phase, Setup
from go_core.handicap import handicap_points, star_points
from go_core.points import COLUMNS, MAX_SIZE, MIN_SIZE, Color, Point, format_move, parse_move
from go_core.scoring import DEFAULT_KOMI, Score, ScoringMethod, count

__all__ = [
    "COLUMNS",
    "DEFAULT_KOMI",
    "MAX_SIZE",
    "MIN_SIZE",
    "Board",
    "Color",
    "Game",
    "GoError",
    "Move",
    "Phase",
    "Point",
    "Score",
    "ScoringMethod",
    "Setup",
    "count",
    "format_move",
    "handicap_points",
    "parse_move",
    "star_points",
]
