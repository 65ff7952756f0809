"""The AI player: picks a move for one seat from what that seat can see.

A move's *equity* is its score plus the value of the tiles it keeps (:mod:`scrabble_core.leaves`). When
the bag is empty the leave model no longer applies: a play that goes out earns what the rules give for
it (twice the opponent's rack with two players; the sum of the other racks with more), and a play that
keeps tiles loses twice their value (the swing if an opponent goes out first). Exchanges are candidates
while the bag allows them, valued by the leave they keep; a pass is chosen only when there is nothing
else.

Levels (:class:`Level`):

- ``expert``: simulates the best candidates a few turns ahead against racks drawn from the unseen tiles,
  and solves the endgame exactly once the bag is empty (:mod:`scrabble_core.simulation`);
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
and its move is returned. A search step is one call of the move generator (a few ms to ~0.1 s with the
bounded search, more for the full list the weaker levels rank), which cannot be interrupted: the
deadline is overrun by at most that step. The executor (:mod:`bot.ai_executor`) enforces a hard limit.
"""

from __future__ import annotations

import enum
import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations
from typing import Any, Final, Protocol

from scrabble_core.board import Board
from scrabble_core.game import Game
from scrabble_core.leaves import LeaveModel, load_leave_model
from scrabble_core.lexicon import WordList
from scrabble_core.move import Exchange, Move, Pass, Play
from scrabble_core.validation import remove_tiles
from scrabble_core.variant import Variant, variant_from_dict, variant_to_dict

ENDGAME_RACK_FACTOR = 2
"""Bag empty: tiles kept cost this many times their value (and going out earns as much, with two players)."""


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
class ExpertBudget:
    """How long ``expert`` searches when its turn has no deadline: a fixed amount of work, so its
    choice is reproducible and the same on a loaded machine as on a quiet one.

    Attributes:
        iterations: simulation iterations (one draw of the unseen tiles, every candidate played out
            on it; see :mod:`scrabble_core.simulation`).
        endgame_nodes: positions the endgame solver searches once the bag is empty.
    """

    iterations: int = 6
    endgame_nodes: int = 60


DEFAULT_BUDGET: Final = ExpertBudget()
"""The ``expert`` budget without a deadline when none is given: small, for tests and quick self-play."""


class Candidate(Protocol):
    """A legal play as the move generator reports it."""

    @property
    def play(self) -> Play: ...

    @property
    def score(self) -> int: ...

    @property
    def leave(self) -> str: ...


class MoveSource(Protocol):
    """The part of :class:`scrabble_core.movegen.MoveGenerator` the AI uses."""

    def generate(self, board: Board, rack: str) -> Sequence[Candidate]: ...

    def best(
        self, board: Board, rack: str, leave_value: Callable[[str], float] | None = None
    ) -> Candidate | None: ...

    def top(
        self, board: Board, rack: str, count: int, leave_value: Callable[[str], float] | None = None
    ) -> Sequence[Candidate]: ...


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


@dataclass(frozen=True)
class SeatView:
    """What one seat may know: the board, its own rack, the tiles it cannot see, the bag size and scores.

    ``unseen`` holds the bag and the other racks together, sorted, so it says nothing about who holds
    what. ``scores`` is indexed by seat; ``board`` is a copy that the AI does not change.
    """

    variant: Variant
    board: Board
    rack: str
    unseen: str
    bag_size: int
    scores: tuple[int, ...]
    seat: int

    @property
    def players(self) -> int:
        """Number of seats in the game."""
        return len(self.scores)

    def to_dict(self) -> dict[str, Any]:
        """The view as plain, picklable data; :meth:`from_dict` restores it."""
        return {
            "variant": variant_to_dict(self.variant),
            "board": self.board.rows_text(),
            "rack": self.rack,
            "unseen": self.unseen,
            "bag_size": self.bag_size,
            "scores": list(self.scores),
            "seat": self.seat,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SeatView:
        """The view saved by :meth:`to_dict`.

        Raises:
            VariantError, ScrabbleError, KeyError: the data is not a saved view.
        """
        variant = variant_from_dict(data["variant"], "seat view")
        return cls(
            variant=variant,
            board=Board.from_rows(variant, data["board"]),
            rack=data["rack"],
            unseen=data["unseen"],
            bag_size=data["bag_size"],
            scores=tuple(data["scores"]),
            seat=data["seat"],
        )


def seat_view(game: Game, seat: int) -> SeatView:
    """What ``seat`` of ``game`` can see now (the board is copied)."""
    return SeatView(
        variant=game.variant,
        board=game.board.copy(),
        rack=game.players[seat].rack,
        unseen=game.unseen_tiles(seat),
        bag_size=len(game.bag),
        scores=tuple(player.score for player in game.players),
        seat=seat,
    )


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


@cache
def default_leave_model() -> LeaveModel:
    """The bundled English leave model, loaded once per process.

    Raises:
        LeaveModelError: the bundled asset is missing or invalid.
    """
    return load_leave_model()


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
    move found when it passes is returned (at worst the highest-scoring play, found first).
    ``leaves`` defaults to :func:`default_leave_model`. ``expert`` without a deadline searches
    ``budget`` (:func:`scrabble_core.simulation.expert_move`).
    """
    board, rack = view.board, view.rack
    if level is Level.GREEDY:
        best = generator.best(board, rack)
        if best is not None:
            return best.play
        allowed = view.bag_size >= max(view.variant.exchange_min_bag, 1, len(rack))
        return Exchange(rack) if allowed and rack else Pass()
    model = leaves if leaves is not None else default_leave_model()
    if view.variant.tile_sets:
        model = model.with_sets(
            {tile_set.symbol: "".join(tile_set.points) for tile_set in view.variant.tile_sets}
        )
    if deadline is not None:
        quick = _or_exchange(generator.best(board, rack), view, model)
        if time.monotonic() >= deadline:
            return quick
    if level is Level.HARD:
        return _hard(view, generator, model)
    if level is Level.EXPERT:
        from scrabble_core.simulation import expert_move  # it builds on this module

        return expert_move(view, generator, model, rng, deadline, budget=budget)
    return _human(view, generator, _STYLES[level], model, rng)


def exchange_options(view: SeatView, model: LeaveModel, weight: float = 1.0) -> list[tuple[float, Exchange]]:
    """Every exchange the seat may make, valued ``weight`` times the leave it keeps, best first.

    Empty when the bag holds fewer than ``variant.exchange_min_bag`` tiles (or none). At most as many
    tiles as the bag holds are put back. Ties are broken by the exchange's notation.
    """
    rack = view.rack
    ranked = [
        (weight * model.evaluate(keep), Exchange(remove_tiles(rack, keep))) for keep in _exchange_keeps(view)
    ]
    ranked.sort(key=lambda option: (-option[0], option[1].tiles))
    return ranked


def best_exchange_value(view: SeatView, model: LeaveModel) -> float | None:
    """The value of the first of :func:`exchange_options` (``None`` when there is none), without
    listing them."""
    keeps = _exchange_keeps(view)
    return max(model.values(list(keeps))) if keeps else None


def _exchange_keeps(view: SeatView) -> tuple[str, ...]:
    """The distinct racks an allowed exchange may keep (tiles sorted)."""
    if view.bag_size < max(view.variant.exchange_min_bag, 1):
        return ()
    return _sub_racks("".join(sorted(view.rack)), max(len(view.rack) - view.bag_size, 0))


@lru_cache(maxsize=4096)
def _sub_racks(tiles: str, smallest: int) -> tuple[str, ...]:
    """The distinct sub-racks of ``tiles`` (sorted) of ``smallest`` tiles up to one fewer than all."""
    return tuple(
        dict.fromkeys(
            "".join(kept) for size in range(smallest, len(tiles)) for kept in combinations(tiles, size)
        )
    )


def endgame_leave_value(view: SeatView) -> Callable[[str], float]:
    """What a play's leave adds to its score under the endgame rule of :func:`move_equity` (bag
    empty), as a leave valuation for :meth:`MoveSource.best`."""
    out = (ENDGAME_RACK_FACTOR if view.players == 2 else 1) * view.variant.rack_value(view.unseen)
    value = view.variant.rack_value

    def leave_value(leave: str) -> float:
        return out if not leave else -ENDGAME_RACK_FACTOR * value(leave)

    return leave_value


def move_equity(view: SeatView, candidate: Candidate, model: LeaveModel, leave_weight: float = 1.0) -> float:
    """Score plus ``leave_weight`` times the leave value; with an empty bag the endgame rule instead
    (going out: + the end-of-game bonus for the unseen tiles; tiles kept: - twice their value)."""
    if view.bag_size == 0:
        if not candidate.leave:
            out_factor = ENDGAME_RACK_FACTOR if view.players == 2 else 1
            return candidate.score + out_factor * view.variant.rack_value(view.unseen)
        return candidate.score - ENDGAME_RACK_FACTOR * view.variant.rack_value(candidate.leave)
    return candidate.score + leave_weight * model.evaluate(candidate.leave)


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
