"""Self-play: AI levels play whole games against each other, for benchmarks and for fitting leaves.

Everything is seeded: a game's bag comes from ``Random(f"{seed}:bag")`` and each seat's choices from
``Random(f"{seed}:seat{n}")``, so a game replays identically for the same levels and seed.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from scrabble_core.ai import DEFAULT_BUDGET, ExpertBudget, Level, MoveSource, SeatView, choose_move, seat_view
from scrabble_core.game import Game
from scrabble_core.leaves import LeaveModel
from scrabble_core.lexicon import WordList
from scrabble_core.move import Move
from scrabble_core.validation import remove_tiles
from scrabble_core.variant import Variant

MAX_TURNS = 400
"""A game still going after this many turns is a bug: :func:`play_game` raises."""


@dataclass(frozen=True, slots=True)
class TurnRecord:
    """One turn: the seat, its rack before the move, the move (GCG), the tiles kept, the points it
    scored, the bag size before the move and the time the AI took (seconds)."""

    seat: int
    rack: str
    move: str
    leave: str
    score: int
    bag_before: int
    seconds: float


@dataclass(slots=True)
class GameRecord:
    """A finished game: final scores by seat, winners and every turn."""

    scores: list[int] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)
    turns: list[TurnRecord] = field(default_factory=list)


Mover = Callable[[SeatView, random.Random, float | None], Move]
"""A seat's own player: its move for a view, from its random stream, by a deadline (or none)."""


def play_game(
    variant: Variant,
    lexicon: WordList,
    generator: MoveSource,
    levels: Sequence[Level],
    seed: str | int,
    *,
    leaves: LeaveModel | None = None,
    time_per_turn: float | None = None,
    budget: ExpertBudget = DEFAULT_BUDGET,
    movers: Sequence[Mover | None] = (),
) -> GameRecord:
    """Play one game to its end, seat ``n`` played by ``levels[n]``, words checked on play; with
    ``time_per_turn``, each AI turn gets a deadline that many seconds after it starts, else ``expert``
    searches ``budget``. A seat with a mover in ``movers`` (by seat; ``None`` or missing: the level)
    plays its mover's moves instead (another leave model, another version of the AI).

    Raises:
        ScrabbleError: the AI chose a move the game refuses (a bug).
        RuntimeError: the game did not end within :data:`MAX_TURNS` turns.
    """
    game = Game(
        variant,
        [f"{level.value}-{n}" for n, level in enumerate(levels)],
        rng=random.Random(f"{seed}:bag"),
        lexicon=lexicon,
    )
    rngs = [random.Random(f"{seed}:seat{n}") for n in range(len(levels))]
    record = GameRecord()
    while not game.is_over:
        if len(record.turns) >= MAX_TURNS:
            raise RuntimeError(f"game {seed} did not end after {MAX_TURNS} turns")
        seat = game.current
        rack, bag_before = game.players[seat].rack, len(game.bag)
        started = time.perf_counter()
        deadline = None if time_per_turn is None else time.monotonic() + time_per_turn
        mover = movers[seat] if seat < len(movers) else None
        view = seat_view(game, seat)
        if mover is not None:
            move = mover(view, rngs[seat], deadline)
        else:
            move = choose_move(
                view, generator, levels[seat], rngs[seat], deadline, leaves=leaves, budget=budget
            )
        seconds = time.perf_counter() - started
        events = game.push(seat, move)
        kept = remove_tiles(rack, move.rack_tiles())
        record.turns.append(TurnRecord(seat, rack, str(move), kept, events[0].score, bag_before, seconds))
    record.scores = [player.score for player in game.players]
    record.winners = game.winners()
    return record
