"""The AI player: picks a move for one seat from what that seat can see.

A move's *equity* is its score plus the value of the tiles it keeps, or with the bag empty the endgame
rule (:mod:`scrabble_core.equity`). Exchanges are candidates while the bag allows them, valued by the
leave they keep; a pass is chosen only when there is nothing else. What a seat sees and the move
generator the levels search with are the types of :mod:`scrabble_core.ai_types`.

Levels (:class:`Level`):

- ``expert``: simulates the best candidates a few turns ahead against racks drawn from the unseen tiles,
  plays the pre-endgame out on every draw and solves the endgame once the bag is empty
  (:mod:`scrabble_core.expert`);
- ``hard``: the move of highest equity (a static, leave-based player);
- ``medium`` and ``easy``: weaker *human-like* players, not a strong bot that blunders at random. They
  know fewer words (a longest main word, a most tiles played at once), weigh the leave less or not at
  all, and walk down their ranked moves taking each with a fixed probability, so they usually find a
  good move but not the best one;
- ``greedy``: the highest-scoring play, ignoring the leave (the usual benchmark opponent); with no
  play it exchanges its whole rack when it may, else passes. It never reads the leave model.

Challenges (:func:`should_challenge`): in the modes with challenges, the AI "knows the dictionary" like
a strong player and never challenges a valid play, so a challenge costs it nothing whatever the mode's
penalty. Faced with a phony, ``expert``, ``hard`` and ``greedy`` always challenge; ``medium`` and ``easy`` miss it
now and then (they challenge with the probability of :data:`CHALLENGE_RATES`), as weaker players do.

Fairness: :func:`choose_move` reads only a :class:`SeatView` (board, own rack, unseen tiles, bag size,
scores), built by :func:`seat_view`; other racks and the bag order cannot change its choice.

Anytime: with a ``deadline`` (a :func:`time.monotonic` value), a quick move (the highest-scoring play)
is found first and returned if the deadline has passed by then; otherwise the level's own search runs
and its move is returned. A search step cannot be interrupted: one call of the move generator (a few
ms to ~0.1 s with the bounded search, more for the full list the weaker levels rank), one simulation
iteration, one endgame position, one pre-endgame playout, or the expert's inference (a few dozen bounded
searches before its simulation starts); the deadline is overrun by at most that step. The executor
(:mod:`bot.ai_executor`) enforces a hard limit.
"""

from __future__ import annotations

import enum
import random
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from scrabble_core.ai_types import DEFAULT_BUDGET, Candidate, ExpertBudget, MoveSource, SeatView, seat_view
from scrabble_core.equity import (
    ENDGAME_RACK_FACTOR,
    best_exchange_value,
    default_leave_model,
    endgame_leave_value,
    exchange_options,
    leave_model_for,
    move_equity,
)
from scrabble_core.expert import expert_move
from scrabble_core.leaves import LeaveModel
from scrabble_core.lexicon import WordList
from scrabble_core.move import Exchange, Move, Pass

__all__ = [
    "AI_LEVELS",
    "CHALLENGE_RATES",
    "DEFAULT_BUDGET",
    "ENDGAME_RACK_FACTOR",
    "Candidate",
    "ExpertBudget",
    "Level",
    "MoveSource",
    "SeatView",
    "best_exchange_value",
    "choose_move",
    "default_leave_model",
    "endgame_leave_value",
    "exchange_options",
    "leave_model_for",
    "move_equity",
    "seat_view",
    "should_challenge",
]


class Level(enum.StrEnum):
    """How strongly the AI plays."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"
    GREEDY = "greedy"
    EXPERT = "expert"


AI_LEVELS: Final[tuple[Level, ...]] = tuple(Level)
"""Every level, weakest first: the choices a configuration offers (each is its own string value)."""

CHALLENGE_RATES: Final[Mapping[Level, float]] = {
    Level.EASY: 0.5,
    Level.MEDIUM: 0.8,
    Level.HARD: 1.0,
    Level.GREEDY: 1.0,
    Level.EXPERT: 1.0,
}
"""The chance that a level challenges a play with a word not in the dictionary (a valid play: never)."""


@dataclass(frozen=True, slots=True)
class _Style:
    """How a level chooses among its candidates."""

    max_word: int  # longest main word the player knows
    max_tiles: int  # most tiles the player puts down at once
    accept: float  # chance of taking each ranked move, best first
    leave_weight: float  # how much of the leave value the player sees
    exchanges: bool  # whether it exchanges while it still has a play


_STYLES = {
    Level.EASY: _Style(max_word=5, max_tiles=4, accept=0.3, leave_weight=0.0, exchanges=False),
    Level.MEDIUM: _Style(max_word=7, max_tiles=7, accept=0.55, leave_weight=0.5, exchanges=True),
}


def should_challenge(words: Sequence[str], level: Level, lexicon: WordList, rng: random.Random) -> bool:
    """Whether ``level`` challenges the play that formed ``words`` (what any seat sees on the board:
    :meth:`Game.challengeable_words <scrabble_core.game.Game.challengeable_words>`).

    Never when every word is in ``lexicon`` (nor when there is no word); otherwise with the level's
    :data:`CHALLENGE_RATES` chance: always for ``expert``, ``hard`` and ``greedy``, which draw nothing from ``rng``;
    ``medium`` and ``easy`` draw one number from ``rng``.
    """
    if all(word in lexicon for word in words):
        return False
    rate = CHALLENGE_RATES[level]
    return rate >= 1.0 or rng.random() < rate


def choose_move(
    view: SeatView,
    generator: MoveSource,
    level: Level,
    rng: random.Random,
    deadline: float | None = None,
    *,
    leaves: LeaveModel | None = None,
    budget: ExpertBudget = DEFAULT_BUDGET,
) -> Move:
    """The move ``level`` makes for the seat of ``view``; the caller applies it to the game.

    Always returns a move: a :class:`Play` the generator found, else an :class:`Exchange` while the bag
    holds at least ``variant.exchange_min_bag`` tiles, else a :class:`Pass`. Randomness (``easy`` and
    ``medium`` only) comes from ``rng``. With a ``deadline`` (:func:`time.monotonic` value), the best
    move found when it passes is returned (at worst the highest-scoring play, found first). Leaves are
    valued by :func:`leave_model_for` the variant and ``leaves``. ``expert`` without a deadline searches
    ``budget`` (:func:`scrabble_core.expert.expert_move`).
    """
    board, rack = view.board, view.rack
    if level is Level.GREEDY:
        best = generator.best(board, rack)
        if best is not None:
            return best.play
        allowed = view.bag_size >= max(view.variant.exchange_min_bag, 1, len(rack))
        return Exchange(rack) if allowed and rack else Pass()
    model = leave_model_for(view.variant, leaves)
    if deadline is not None:
        quick = _or_exchange(generator.best(board, rack), view, model)
        if time.monotonic() >= deadline:
            return quick
    if level is Level.HARD:
        return _hard(view, generator, model)
    if level is Level.EXPERT:
        return expert_move(view, generator, model, rng, deadline, budget=budget)
    return _human(view, generator, _STYLES[level], model, rng)


def _hard(view: SeatView, generator: MoveSource, model: LeaveModel) -> Move:
    """The move of highest equity: the bounded search with leaves, compared with the best exchange; with
    an empty bag, the play of highest equity by the endgame rule (ties broken by notation)."""
    if view.bag_size == 0:
        return _endgame_static(view, generator, model)
    best = generator.best(view.board, view.rack, model)
    exchange = best_exchange_value(view, model)
    if exchange is not None and (best is None or exchange > move_equity(view, best, model)):
        return exchange_options(view, model)[0][1]
    return best.play if best is not None else Pass()


def _endgame_static(view: SeatView, generator: MoveSource, model: LeaveModel) -> Move:
    """The play of highest :func:`move_equity` with the bag empty, ties broken by notation; a pass
    without a play. The two best by the bounded search decide unless they tie."""
    top = generator.top(view.board, view.rack, 2, endgame_leave_value(view))
    if not top:
        return Pass()
    if len(top) == 1 or move_equity(view, top[0], model) > move_equity(view, top[1], model):
        return top[0].play
    return _ranked(view, generator.generate(view.board, view.rack), model, 1.0)[0][1]


def _human(
    view: SeatView, generator: MoveSource, style: _Style, model: LeaveModel, rng: random.Random
) -> Move:
    """A weaker player's move: its known plays ranked by its equity, each taken with ``style.accept``."""
    candidates = generator.generate(view.board, view.rack)
    known = [
        c
        for c in candidates
        if len(c.play.letters) <= style.max_word and len(view.rack) - len(c.leave) <= style.max_tiles
    ]
    ranked: list[tuple[float, Move]] = list(_ranked(view, known or candidates, model, style.leave_weight))
    if not ranked:  # no play at all: even a weak player knows to throw back the worst tiles
        exchanges = exchange_options(view, model)
        return exchanges[0][1] if exchanges else Pass()
    if style.exchanges:
        ranked.extend(exchange_options(view, model, style.leave_weight))
        ranked.sort(key=lambda option: -option[0])
    for _, move in ranked:
        if rng.random() < style.accept:
            return move
    return ranked[0][1]


def _ranked(
    view: SeatView, candidates: Iterable[Candidate], model: LeaveModel, leave_weight: float
) -> list[tuple[float, Move]]:
    """Plays by equity, best first; ties broken by notation so the generator's order does not matter."""
    ranked: list[tuple[float, Move]] = [
        (move_equity(view, c, model, leave_weight), c.play) for c in candidates
    ]
    ranked.sort(key=lambda option: (-option[0], str(option[1])))
    return ranked


def _or_exchange(best: Candidate | None, view: SeatView, model: LeaveModel) -> Move:
    """``best``'s play; without one the best exchange, and a pass when exchanging is not allowed."""
    if best is not None:
        return best.play
    exchanges = exchange_options(view, model)
    return exchanges[0][1] if exchanges else Pass()
