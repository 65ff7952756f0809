"""Fakes and a harness for the Go service tests: a scripted Go AI, a quick board renderer, and a Go
service over a real SQLite file that can be restarted on the same file (keeping the notifier and clock).

Imported by the ``test_go_service*.py`` modules (pytest puts this directory on ``sys.path``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from service_fakes import GUILD, FakeClock, RecordingNotifier

from bot.config import Config, TurnConfig
from bot.games.go.commands import GoCommands
from bot.games.go.engines import RESIGN, AIMove, Level
from bot.games.go.options import GoNewGame
from bot.games.go.plugin import GoPlugin
from bot.host.registry import GameParts
from bot.host.runner import Host
from bot.host.seats import User
from bot.host.store import Store
from go_core import Game, Point

GO_CHANNEL = 3000
SEED = 5


class ScriptedGoAi:
    """Plays ``moves`` in order (text: ``D4``, ``pass``, ``resign``; passes when they run out) and proposes
    ``dead`` as the dead stones. Records each call's level and seed; ``gate`` (if set) holds every
    choice until it is set."""

    def __init__(self, moves: Iterable[str] = (), dead: Iterable[str] = ()) -> None:
        self.moves = list(moves)
        self.dead = list(dead)
        self.calls: list[tuple[Level, int]] = []
        self.gate: asyncio.Event | None = None

    async def choose(self, game: Game, level: Level, seed: int) -> AIMove:
        self.calls.append((level, seed))
        if self.gate is not None:
            await self.gate.wait()
        move = self.moves.pop(0) if self.moves else "pass"
        if move == RESIGN:
            return RESIGN
        return None if move == "pass" else game.parse_point(move)

    async def dead_stones(self, game: Game) -> tuple[frozenset[Point], str]:
        return frozenset(game.parse_point(point) for point in self.dead), "the test AI"


def quick_board(game: Game, *, black: str = "Black", white: str = "White") -> bytes:
    """A fake PNG naming the position: the players and the number of moves."""
    return f"{black}-{white}-{len(game.moves)}".encode()


@dataclass
class GoHarness:
    """A Go service over a real SQLite file with the scripted AI, a fake clock and a recording
    notifier; :meth:`restart` opens a new service on the same file."""

    path: Path
    ai: ScriptedGoAi = field(default_factory=ScriptedGoAi)
    clock: FakeClock = field(default_factory=FakeClock)
    notifier: RecordingNotifier = field(default_factory=RecordingNotifier)
    reminder_left: float = 0.0
    store: Store | None = None
    host: Host | None = None
    service: GoCommands | None = None

    async def open(self, store: type[Store] = Store) -> GoCommands:
        self.store = await store.open(self.path)
        config = Config(database=self.path, turn=TurnConfig(reminder_left=self.reminder_left))
        self.host = Host(config, self.store, self.notifier, [], self.clock)
        plugin = GoPlugin(self.ai, quick_board)
        self.service = GoCommands(self.host, plugin)
        self.host.add(GameParts(plugin, self.service))
        await self.host.start()
        return self.service

    async def close(self) -> None:
        if self.host is not None:
            await self.host.close()
        if self.store is not None:
            await self.store.close()
        self.host = None
        self.service = None
        self.store = None

    async def restart(self, store: type[Store] = Store) -> GoCommands:
        await self.close()
        return await self.open(store)

    @property
    def go(self) -> GoCommands:
        assert self.service is not None
        return self.service

    @property
    def db(self) -> Store:
        assert self.store is not None
        return self.store

    def texts(self) -> list[str]:
        """What the Go channel was told, an item per announcement (a post says those that waited
        together, a blank line apart)."""
        return [said for text in self.notifier.texts(GO_CHANNEL) for said in text.split("\n\n")]

    async def new(self, creator: User, **options: object) -> None:
        await self.go.new_game(GUILD, GO_CHANNEL, creator, GoNewGame(seed=SEED, **options))  # type: ignore[arg-type]
        await self.go.idle()

    async def moves(self, players: tuple[User, User], *points: str) -> None:
        """Black and White (``players``) play ``points`` in turn, starting with the player to move."""
        for point in points:
            game = self.go.game(GO_CHANNEL)
            player = players[0] if game.to_move.value == "B" else players[1]
            await self.go.play(GO_CHANNEL, player.id, point)
