"""Ratings benchmark: what rating a game costs when it finishes, and how long a full rebuild takes.

    python bench/ratings.py [--games 1000] [--runs 5]

A fresh SQLite file gets ``--games`` finished games of one guild (2, 3 and 4 seats in turn, people from a
pool of 20 and an AI level, seeded scores; each game's state is a real greedy game played to its end, so
the rebuild reads states of realistic size). Each game is saved finished through :meth:`Store.save`:

- ``rated`` (every other game): the game is rated in that transaction (the path of every finished game);
- ``unrated`` (the others): the same save of a game created unrated (the baseline: nothing to rate).

Then :meth:`Store.rebuild_ratings` recomputes every rating ``--runs`` times (reading every finished game,
rating half of them), and the result is compared with the incremental one. Prints one line (medians, milliseconds):

    games=<int> save_rated_ms_median=<f> save_unrated_ms_median=<f> rebuild_s_median=<f>
    rebuild_identical=<bool>
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.games import register_builtin
from bot.games.scrabble.options import ScrabbleOptions
from bot.games.scrabble.records import result
from bot.games.scrabble.table import ScrabbleTable
from bot.host.store import GameRow, GameStatus, SeatRow, Store
from scrabble_core.ai import Level, choose_move, seat_view
from scrabble_core.game import ChallengeMode, Game
from scrabble_core.lexicon import load_enable
from scrabble_core.movegen import load_move_generator
from scrabble_core.variant import get_variant

GUILD = 1


def _played_states() -> dict[int, dict[str, Any]]:
    """A finished greedy game's state for 2, 3 and 4 players."""
    lexicon = load_enable()
    generator = load_move_generator(lexicon)
    states = {}
    for players in (2, 3, 4):
        names = [f"p{i}" for i in range(players)]
        game = Game(get_variant("standard"), names, rng=random.Random(players), lexicon=lexicon)
        while not game.is_over:
            view = seat_view(game, game.current)
            game.push(game.current, choose_move(view, generator, Level.GREEDY, random.Random(0)))
        states[players] = game.to_dict()
    return states


def _game(number: int, states: dict[int, dict[str, Any]], rng: random.Random, rated: bool) -> GameRow:
    """The ``number``-th finished game: 2 to 4 seats, one of them an AI, seeded scores."""
    players = 2 + number % 3
    people = rng.sample(range(1, 21), players - 1)
    seats = [SeatRow(i, user, f"user{user}") for i, user in enumerate(people)]
    seats.append(SeatRow(players - 1, None, "AI", Level.HARD))
    state = dict(states[players])
    state["players"] = [
        {**player, "name": seat.name, "score": rng.randint(150, 500)}
        for player, seat in zip(state["players"], seats, strict=True)
    ]
    options = ScrabbleOptions("standard", ChallengeMode.VOID, 0, 0, Level.HARD, rated)
    at = 1_700_000_000.0 + number
    return GameRow(
        0,
        "scrabble",
        GUILD,
        100 + number,
        people[0],
        GameStatus.ACTIVE,
        options.to_dict(),
        number,
        state,
        tuple(seats),
        None,
        False,
        at,
        at,
    )


async def _fill(
    store: Store, games: int, states: dict[int, dict[str, Any]]
) -> tuple[list[float], list[float]]:
    """Save ``games`` finished games, alternately rated and unrated; the save times of each kind (ms)."""
    rng = random.Random(0)
    times: dict[bool, list[float]] = {True: [], False: []}
    for number in range(games):
        rated = number % 2 == 0
        row = await store.create_game(_game(number, states, rng, rated), [])
        finished = replace(row, status=GameStatus.FINISHED)
        table = ScrabbleTable(
            finished, ScrabbleOptions.from_dict(row.options), Game.from_dict(dict(row.state or {}))
        )
        finished = replace(finished, result=result(table))  # as the host stores it
        start = time.perf_counter()
        await store.save(finished, [])
        times[rated].append((time.perf_counter() - start) * 1000)
    return times[True], times[False]


async def main() -> None:
    register_builtin()  # the built-in games, as the command line registers them
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    states = _played_states()
    with tempfile.TemporaryDirectory() as directory:
        store = await Store.open(Path(directory) / "bench.sqlite3")
        try:
            rated, unrated = await _fill(store, args.games, states)
            before = await store.ratings(GUILD, "scrabble")
            rebuilds = []
            for _ in range(args.runs):
                start = time.perf_counter()
                await store.rebuild_ratings()
                rebuilds.append(time.perf_counter() - start)
            identical = await store.ratings(GUILD, "scrabble") == before
        finally:
            await store.close()
    print(
        f"games={args.games} save_rated_ms_median={statistics.median(rated):.2f} "
        f"save_unrated_ms_median={statistics.median(unrated):.2f} "
        f"rebuild_s_median={statistics.median(rebuilds):.2f} rebuild_identical={identical}"
    )


if __name__ == "__main__":
    asyncio.run(main())
