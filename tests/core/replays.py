"""Whole games for the engine's tests: two AIs play one out, and its records must read back."""

from __future__ import annotations

import json
import random

from scrabble_core.ai import Level, choose_move, seat_view
from scrabble_core.game import Game
from scrabble_core.gcg import GcgRecord, export_gcg, parse_gcg, replay
from scrabble_core.lexicon import Lexicon
from scrabble_core.movegen import MoveGenerator
from scrabble_core.variant import Variant


def play_out_and_replay(
    variant: Variant, lexicon: Lexicon, generator: MoveGenerator, level: Level, seed: str
) -> GcgRecord:
    """Play a game of two ``level`` AIs on ``variant`` to its end; check that its JSON record reads back
    to the same game and that its GCG record replays with every score and total; return that record."""
    game = Game(variant, ["Ann", "Bob"], rng=random.Random(seed), lexicon=lexicon)
    rngs = [random.Random(1), random.Random(2)]
    while not game.is_over:
        seat = game.current
        game.push(seat, choose_move(seat_view(game, seat), generator, level, rngs[seat]))
    again = Game.from_dict(json.loads(json.dumps(game.to_dict())), lexicon=lexicon)
    assert again.to_dict() == game.to_dict()
    record = parse_gcg(export_gcg(game))
    replayed = replay(record, variant, lexicon)
    assert [(e.score, e.total) for e in replayed] == [(e.score, e.total) for e in record.events]
    totals = {event.event.nick: event.total for event in replayed}
    names = dict(record.players)
    assert {names[nick]: total for nick, total in totals.items()} == {p.name: p.score for p in game.players}
    return record
