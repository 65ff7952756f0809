"""Helpers of the analysis and puzzle tests: an in-process stand-in for the AI worker pool, the ENABLE move
generator, and a known finished game stored as the bot stores one.

Imported by ``test_analysis*.py`` and ``test_puzzles*.py`` (pytest puts this directory on ``sys.path``).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

from service_fakes import scrabble_row

from bot.games.scrabble.options import ScrabbleOptions
from bot.host.store import GameRow, GameStatus, SeatRow, Store
from scrabble_core.ai import Level, MoveSource
from scrabble_core.game import ChallengeMode, Game
from scrabble_core.lexicon import WordList
from scrabble_core.move import move_from_gcg
from scrabble_core.variant import get_variant

KNOWN_MOVES = [
    "8D PIBAL", "D8 .ACKER", "7G FACT", "8J OUTRAN", "14A ZEDS", "A12 RA.E", "13C E.RHINE", "H11 MI.TY",
    "11B PI.ER", "M3 JUNIO.", "9G DAWN", "10J YOGH", "N5 OF", "M10 .OVE", "N1 NOO", "1K aXI.G", "14L BLIN",
    "O10 LUMI.A", "15J VIES", "2E ROULADE", "1A WADSET", "3A GETTErS",
]  # fmt: skip
"""A whole game (Ann: the medium AI, Bob: hard) on the bag of ``random.Random(7)``, ENABLE, void (the
game of tests/core/test_analysis.py)."""


def known_game(lexicon: WordList) -> Game:
    """The finished game of :data:`KNOWN_MOVES`."""
    game = Game(get_variant("standard"), ["Ann", "Bob"], rng=random.Random(7), lexicon=lexicon)
    for move in KNOWN_MOVES:
        game.push(game.current, move_from_gcg(move))
    return game


async def store_finished(
    store: Store, game: Game, guild_id: int, channel_id: int, at: float = 0.0
) -> GameRow:
    """Store ``game`` as a finished game of two humans (user ids 11 and 12) in ``channel_id``."""
    options = ScrabbleOptions("standard", ChallengeMode.VOID, 0, 0, Level.MEDIUM)
    seats = tuple(SeatRow(seat, 11 + seat, player.name) for seat, player in enumerate(game.players))
    draft = scrabble_row(
        0,
        guild_id,
        channel_id,
        11,
        GameStatus.FINISHED,
        options,
        7,
        game.to_dict(),
        seats,
        None,
        False,
        at,
        at,
    )
    return await store.create_game(draft, [])


class InlinePool:
    """The AI worker pool's :meth:`~bot.host.ai.executor.AiExecutor.call`, in a thread of this process, with
    the calls recorded as ``(function, first argument, timeout)``; ``fail_at`` makes the call of that
    number (from 1) raise ``TimeoutError``."""

    def __init__(self, generator: MoveSource, fail_at: int | None = None) -> None:
        self.generator = generator
        self.fail_at = fail_at
        self.calls: list[tuple[Callable[..., Any], Any, float]] = []

    async def call(self, kind: str, function: Callable[..., Any], *args: Any, timeout: float) -> Any:
        self.calls.append((function, args[0], timeout))
        if len(self.calls) == self.fail_at:
            raise TimeoutError("the worker did not answer")
        return await asyncio.to_thread(function, self.generator, *args)
