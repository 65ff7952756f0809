"""Memory per active game in the game service, and the time to resume them at start-up.

``python bench/service_memory.py --games 100 --moves 20`` creates GAMES two-player games on a fresh
SQLite file, plays MOVES moves in each (each side plays its best-scoring move), closes the service, then
measures in the same process how much memory a new service takes to load every open game at start-up
(``tracemalloc``), against a baseline: the same start-up on a database with no game. Prints one line:
``games=<int> moves=<int> per_game_kib=<float> baseline_kib=<float> start_ms=<float> play_median_ms=<float>``.
Images are not drawn (a renderer that returns no bytes): they are measured by ``bench/render.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import statistics
import tempfile
import time
import tracemalloc
from collections.abc import Collection, Sequence
from pathlib import Path

from bot.config import Config
from bot.games import register_builtin
from bot.games.scrabble.commands import NewGame, ScrabbleCommands, User
from bot.games.scrabble.protocols import BoardHeader
from bot.host.messages import Message
from bot.host.runner import Host
from bot.host.setup import build_host
from bot.host.store import Store
from scrabble_core.board import Board
from scrabble_core.game import Game
from scrabble_core.lexicon import Lexicon, load_enable
from scrabble_core.move import Move, Pass
from scrabble_core.movegen import MoveGenerator, load_move_generator
from scrabble_core.notation import player_notation
from scrabble_core.squares import Square
from scrabble_core.variant import Variant

ANN = User(1, "Ann")
BOB = User(2, "Bob")


class Silent:
    """A notifier that delivers nothing."""

    async def post(self, channel_id: int, message: Message) -> None:
        """Drop a public message."""

    async def direct(self, user_id: int, message: Message) -> bool:
        """Drop a DM."""
        return True

    async def typing(self, channel_id: int) -> None:
        """Show nothing."""


class NoImages:
    """A renderer that draws nothing."""

    def board(self, board: Board, last_move: Collection[Square], header: BoardHeader) -> bytes:
        """No board image."""
        return b""

    def rack(self, tiles: str, variant: Variant) -> bytes:
        """No rack image."""
        return b""

    def chart(self, players: Sequence[str], totals: Sequence[Sequence[int]]) -> bytes:
        """No chart."""
        return b""


class NoAi:
    """No seat is an AI in this benchmark."""

    async def choose(self, game: Game, seat: int, level: str, seed: int) -> Move:
        """Never called: pass."""
        return Pass()


async def _host(store: Store, lexicon: Lexicon) -> Host:
    """The host over ``store`` with Scrabble's commands on ``lexicon``, no AI and no images."""
    options = {"scrabble": {"lexicon": lexicon, "ai": NoAi(), "renderer": NoImages()}}
    return await build_host(Config(), store, Silent(), options=options)


async def _fill(
    path: Path, lexicon: Lexicon, generator: MoveGenerator, games: int, moves: int
) -> list[float]:
    """Create and play the games; return the duration of each play in milliseconds."""
    store = await Store.open(path)
    host = await _host(store, lexicon)
    service: ScrabbleCommands = host.commands["scrabble"]
    await host.start()
    timings: list[float] = []
    try:
        for channel in range(1, games + 1):
            await service.new_game(0, channel, ANN, NewGame(seed=channel))
            await service.join(channel, BOB)
            await service.start_game(channel, ANN.id)
            for _ in range(moves):
                game = service.game(channel)
                if game.is_over:
                    break
                player = game.players[game.current]
                user = ANN if player.name == ANN.name else BOB
                best = generator.best(game.board, player.rack)
                started = time.perf_counter()
                if best is None:
                    await service.pass_turn(channel, user.id)
                else:
                    await service.play(channel, user.id, player_notation(best.play))
                timings.append((time.perf_counter() - started) * 1000)
        await service.idle()
    finally:
        await host.close()
        await store.close()
    return timings


async def _load(path: Path, lexicon: Lexicon) -> tuple[int, float]:
    """Start a service on ``path``; return the bytes it holds once started and the start time (ms)."""
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    started = time.perf_counter()
    store = await Store.open(path)
    host = await _host(store, lexicon)
    await host.start()
    elapsed = (time.perf_counter() - started) * 1000
    gc.collect()
    held = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    await host.close()
    await store.close()
    return held, elapsed


async def main() -> None:
    """Run the benchmark and print its line."""
    register_builtin()  # the built-in games, as the command line registers them
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--moves", type=int, default=20)
    args = parser.parse_args()
    lexicon = load_enable()
    generator = load_move_generator(lexicon)
    with tempfile.TemporaryDirectory() as directory:
        empty = Path(directory) / "empty.sqlite3"
        full = Path(directory) / "games.sqlite3"
        await _fill(empty, lexicon, generator, 0, 0)
        timings = await _fill(full, lexicon, generator, args.games, args.moves)
        baseline, _ = await _load(empty, lexicon)
        held, start_ms = await _load(full, lexicon)
    per_game = (held - baseline) / args.games / 1024
    print(
        f"games={args.games} moves={args.moves} per_game_kib={per_game:.1f} "
        f"baseline_kib={baseline / 1024:.1f} start_ms={start_ms:.1f} "
        f"play_median_ms={statistics.median(timings):.2f}"
    )


if __name__ == "__main__":
    asyncio.run(main())
