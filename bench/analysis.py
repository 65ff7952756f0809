"""Post-game analysis benchmark: the time to analyse each turn of a real game, ENABLE.

    python bench/analysis.py [--gcg FILE.gcg] [--seed 1] [--pool]

The game is a GCG record (``--gcg``; its turns without a rack are skipped) or, by default, a seeded
``medium`` vs ``hard`` self-play game. Every turn is analysed as ``/scrabble analyze`` does it
(:func:`bot.games.scrabble.analysis.analyse_turn`: ``expert``, its iterations and budget), and, as the baseline
in the same run, at ``hard`` (static equity). With ``--pool`` the expert pass also goes through a real
AI worker (:meth:`bot.host.ai.executor.AiExecutor.call`), inter-process transfer included. Prints one line per
pass:

    <pass> turns=<int> median_ms=<float> p90_ms=<float> max_ms=<float> total_s=<float>

then the summary of the expert analysis (the text ``/scrabble analyze`` shows).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.games import register_builtin
from bot.games.scrabble.analysis import ITERATIONS, LEVEL, MOVE_BUDGET, MOVE_TIMEOUT, analyse_turn
from bot.host.ai.executor import AiExecutor, WorkerConfig
from scrabble_core.ai import Level, MoveSource, choose_move, seat_view
from scrabble_core.analysis import (
    MoveAnalysis,
    Position,
    game_positions,
    record_positions,
    summarise,
    summary_text,
)
from scrabble_core.game import Game
from scrabble_core.gcg import parse_gcg
from scrabble_core.lexicon import Lexicon, load_enable
from scrabble_core.movegen import load_move_generator
from scrabble_core.variant import get_variant


def selfplay(lexicon: Lexicon, generator: MoveSource, seed: int) -> Game:
    """A game of ``medium`` (seat 0) against ``hard`` (seat 1), seeded."""
    game = Game(get_variant("standard"), ["medium", "hard"], rng=random.Random(seed), lexicon=lexicon)
    rng = random.Random(seed)
    levels = (Level.MEDIUM, Level.HARD)
    while not game.is_over:
        seat = game.current
        game.push(seat, choose_move(seat_view(game, seat), generator, levels[seat], rng))
    return game


def argument(position: Position, level: Level) -> dict[str, Any]:
    return {
        "position": position.to_dict(),
        "level": level.value,
        "seed": position.number,
        "iterations": ITERATIONS,
        "budget": MOVE_BUDGET,
    }


def report(name: str, seconds: Sequence[float]) -> None:
    ms = sorted(1000 * s for s in seconds)
    p90 = ms[min(len(ms) - 1, round(0.9 * (len(ms) - 1)))]
    print(
        f"{name} turns={len(ms)} median_ms={statistics.median(ms):.1f} p90_ms={p90:.1f} "
        f"max_ms={ms[-1]:.1f} total_s={sum(seconds):.2f}"
    )


def timed(
    positions: Sequence[Position], analyse: Callable[[Position], dict[str, Any]]
) -> tuple[list[float], list[MoveAnalysis]]:
    seconds, moves = [], []
    for position in positions:
        started = time.perf_counter()
        moves.append(MoveAnalysis.from_dict(analyse(position)))
        seconds.append(time.perf_counter() - started)
    return seconds, moves


async def pooled(positions: Sequence[Position]) -> list[float]:
    seconds = []
    async with AiExecutor(WorkerConfig()) as executor:
        for position in positions:
            started = time.perf_counter()
            await executor.call("scrabble", analyse_turn, argument(position, LEVEL), timeout=MOVE_TIMEOUT)
            seconds.append(time.perf_counter() - started)
    return seconds


def main() -> None:
    """Parse the command line, analyse the game, print the lines described above."""
    register_builtin()  # the built-in games, as the command line registers them
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gcg", type=Path, help="a GCG record to analyse (default: a self-play game)")
    parser.add_argument("--seed", type=int, default=1, help="the self-play game's seed (default 1)")
    parser.add_argument("--pool", action="store_true", help="also time the expert pass in a real AI worker")
    args = parser.parse_args()
    lexicon = load_enable()
    generator = load_move_generator(lexicon)
    if args.gcg is not None:
        record = parse_gcg(args.gcg.read_text(encoding="utf-8"))
        positions = record_positions(record, get_variant("standard"))
        names = [name for _, name in record.players]
        print(f"game: {args.gcg.name}")
    else:
        game = selfplay(lexicon, generator, args.seed)
        positions = game_positions(game)
        names = [player.name for player in game.players]
        print(f"game: self-play seed {args.seed}, scores {[p.score for p in game.players]}")
    hard, _ = timed(positions, lambda p: analyse_turn(generator, argument(p, Level.HARD)))
    report("hard(baseline)", hard)
    expert, moves = timed(positions, lambda p: analyse_turn(generator, argument(p, LEVEL)))
    report("expert", expert)
    if args.pool:
        report("expert(pool)", asyncio.run(pooled(positions)))
    print()
    print(summary_text(summarise(names, moves, LEVEL.value)))


if __name__ == "__main__":
    main()
