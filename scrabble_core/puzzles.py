"""Daily puzzles: a position and a rack from a real game, whose task is "find the best play".

:func:`choose_puzzle` takes the turns of finished games (:class:`~scrabble_core.analysis.Position`), shuffles
them with the puzzle's seed and keeps the first *interesting* one (:func:`is_interesting`): a full rack with
tiles left in the bag, a best play (by static equity: score plus leave) that beats every other play by at
least :data:`CLEAR_MARGIN` points and any exchange too (not a forced pass or exchange), and that is a bingo
or scores at least :data:`HIGH_SCORE`. With no game to draw from, :func:`selfplay_positions` plays one
(``hard`` against ``hard``) from the seed. The same seed and positions give the same puzzle.

:func:`grade` scores an answer: the best play (or one of equal equity) earns :data:`BEST_POINTS`, a play within
:data:`TOLERANCE` points of equity of it :data:`CLOSE_POINTS`, any other legal play nothing.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from scrabble_core.ai import (
    Level,
    MoveSource,
    SeatView,
    choose_move,
    exchange_options,
    move_equity,
    seat_view,
)
from scrabble_core.analysis import Position, game_positions
from scrabble_core.game import Game
from scrabble_core.leaves import LeaveModel
from scrabble_core.lexicon import WordList
from scrabble_core.move import Play
from scrabble_core.notation import parse_player_play
from scrabble_core.validation import canonical_play, check_play, remove_tiles
from scrabble_core.variant import Variant

CLEAR_MARGIN: Final = 3.0
"""Points of equity by which the best play must beat the next one."""
HIGH_SCORE: Final = 30
"""The least a non-bingo best play must score."""
TOLERANCE: Final = 2.0
"""Points of equity an answer may lose against the best play and still count as solved."""
BEST_POINTS: Final = 3
CLOSE_POINTS: Final = 2
SHOWN_MOVES: Final = 5
"""The best plays a puzzle keeps (shown with the answer)."""
MAX_TRIES: Final = 60
"""Positions looked at, at most, for an interesting one."""


@dataclass(frozen=True, slots=True)
class RankedPlay:
    """A play of the puzzle's position: GCG notation, score and equity."""

    move: str
    score: int
    equity: float


@dataclass(frozen=True, slots=True)
class Puzzle:
    """A puzzle: where it comes from (``"game 12, turn 7"``), the position, and its best plays (best first,
    at most :data:`SHOWN_MOVES`)."""

    source: str
    view: SeatView
    best: tuple[RankedPlay, ...]

    @property
    def answer(self) -> RankedPlay:
        """The best play."""
        return self.best[0]

    def to_dict(self) -> dict[str, Any]:
        """The puzzle as JSON-compatible data; :meth:`from_dict` restores it."""
        return {
            "source": self.source,
            "view": self.view.to_dict(),
            "best": [[play.move, play.score, play.equity] for play in self.best],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Puzzle:
        """The puzzle saved by :meth:`to_dict`."""
        best = tuple(RankedPlay(move, score, equity) for move, score, equity in data["best"])
        return cls(data["source"], SeatView.from_dict(data["view"]), best)


def puzzle_seed(guild_id: int, day: str) -> int:
    """The seed of a guild's puzzle of ``day`` (``YYYY-MM-DD``): stable across runs and machines."""
    digest = hashlib.sha256(f"{guild_id}:{day}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def ranked_plays(view: SeatView, generator: MoveSource, model: LeaveModel) -> list[RankedPlay]:
    """Every play of ``view`` by equity, best first (ties by notation)."""
    ranked = [
        RankedPlay(option.play.gcg(), option.score, round(float(move_equity(view, option, model)), 1))
        for option in generator.generate(view.board, view.rack)
    ]
    ranked.sort(key=lambda play: (-play.equity, play.move))
    return ranked


def is_interesting(view: SeatView, ranked: Sequence[RankedPlay], model: LeaveModel) -> bool:
    """Whether a position makes a puzzle (see the module docstring)."""
    if len(view.rack) < view.variant.rack_size or view.bag_size == 0 or len(ranked) < 2:
        return False
    best, second = ranked[0], ranked[1]
    exchanges = exchange_options(view, model)
    if exchanges and exchanges[0][0] > best.equity - CLEAR_MARGIN:
        return False
    bingo = len(Play.from_gcg(best.move).rack_tiles()) >= view.variant.rack_size
    return best.equity - second.equity >= CLEAR_MARGIN and (bingo or best.score >= HIGH_SCORE)


def choose_puzzle(
    positions: Sequence[tuple[str, Position]], generator: MoveSource, model: LeaveModel, seed: int
) -> Puzzle | None:
    """The first interesting position of ``positions`` (each with its source) in the order the seed
    shuffles them, looking at :data:`MAX_TRIES` at most; ``None`` if none is."""
    order = list(positions)
    random.Random(seed).shuffle(order)
    for source, position in order[:MAX_TRIES]:
        view = position.view
        if len(view.rack) < view.variant.rack_size or view.bag_size == 0:
            continue
        ranked = ranked_plays(view, generator, model)
        if is_interesting(view, ranked, model):
            return Puzzle(source, view, tuple(ranked[:SHOWN_MOVES]))
    return None


def selfplay_positions(
    variant: Variant, lexicon: WordList | None, generator: MoveSource, model: LeaveModel, seed: int
) -> list[tuple[str, Position]]:
    """The turns of a game ``hard`` plays against itself from ``seed``, labelled ``"a self-play game"``
    (words checked against ``lexicon`` if given: the AI only plays the generator's words anyway)."""
    game = Game(variant, ["Player 1", "Player 2"], rng=random.Random(seed), lexicon=lexicon)
    rng = random.Random(seed)
    while not game.is_over:
        seat = game.current
        game.push(seat, choose_move(seat_view(game, seat), generator, Level.HARD, rng, leaves=model))
    return [("a self-play game", position) for position in game_positions(game)]


@dataclass(frozen=True, slots=True)
class Grade:
    """An answer graded: the play (GCG), its score and equity, the equity lost against the best, the
    points earned and whether it solved the puzzle."""

    move: str
    score: int
    equity: float
    loss: float
    points: int

    @property
    def solved(self) -> bool:
        """Whether the answer was within the tolerance."""
        return self.points > 0


def grade(puzzle: Puzzle, answer: str, model: LeaveModel, lexicon: WordList | None = None) -> Grade:
    """Grade ``answer`` (a play as a player types it, ``8H QUIZ``; ``?E`` a blank E) against the puzzle.

    Raises:
        ScrabbleError: the answer is not a legal play in the position (unreadable, off the board, tiles
            not on the rack, or with ``lexicon`` a word it lacks); the message says why.
    """
    view = puzzle.view
    play = parse_player_play(answer, view.board, view.rack)
    score = check_play(view.board, play, rack=view.rack, lexicon=lexicon).total
    play = canonical_play(view.board, play)
    leave = remove_tiles(view.rack, play.rack_tiles())
    equity = round(move_equity(view, _Answer(play, score, leave), model), 1)
    best = puzzle.answer
    loss = 0.0 if play.gcg() == best.move else round(max(best.equity - equity, 0.0), 1)
    points = BEST_POINTS if loss == 0 else CLOSE_POINTS if loss <= TOLERANCE else 0
    return Grade(play.gcg(), score, equity, loss, points)


@dataclass(frozen=True, slots=True)
class _Answer:
    play: Play
    score: int
    leave: str
