"""Terminal Go games kept between sessions: one JSON file per game in a directory (by default beside
the Scrabble console's games, ``…/scrabble-host/go/``), numbered from 1."""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from bot.games.go.engines import ENGINES, Engine, Level
from go_core import Color, Game, Phase
from go_core.errors import GoError

FORMAT_VERSION: Final = 1
_NAME = re.compile(r"game-(\d+)\.json")


@dataclass(slots=True)
class SavedGame:
    """A terminal game: the engine's game, the players' names, and which colour the AI plays (``None``
    for hot-seat) at which level with which engine (``auto``, ``gnugo`` or ``builtin``)."""

    id: int
    game: Game
    black: str
    white: str
    ai_color: Color | None = None
    level: Level = Level.MEDIUM
    engine: Engine = "auto"
    seed: int | None = None

    def name(self, color: Color) -> str:
        """The name of the player of ``color``."""
        return self.black if color is Color.BLACK else self.white

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT_VERSION,
            "game": self.game.to_dict(),
            "black": self.black,
            "white": self.white,
            "ai": None
            if self.ai_color is None
            else {"color": self.ai_color.value, "level": self.level.value, "engine": self.engine},
            "seed": self.seed,
        }


class SaveDirectory:
    """The directory of saved games."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def games(self) -> list[SavedGame]:
        """Every readable saved game, the one saved last at the end (unreadable files are skipped)."""
        files = sorted(
            (file for file in self.path.glob("game-*.json") if _NAME.fullmatch(file.name)),
            key=lambda file: (file.stat().st_mtime_ns, file.name),
        )
        games = []
        for file in files:
            try:
                games.append(self._read(file))
            except (OSError, ValueError, GoError):
                continue
        return games

    def unfinished(self) -> list[SavedGame]:
        """The saved games not over yet, the one saved last at the end."""
        return [saved for saved in self.games() if saved.game.phase is not Phase.OVER]

    def new_id(self) -> int:
        """A number no saved game has."""
        numbers = [
            int(match.group(1))
            for file in self.path.glob("game-*.json")
            if (match := _NAME.fullmatch(file.name))
        ]
        return max(numbers, default=0) + 1

    def save(self, saved: SavedGame) -> Path:
        """Write ``saved`` (atomically: a crash leaves the previous file).

        Raises:
            OSError: the file cannot be written.
        """
        self.path.mkdir(parents=True, exist_ok=True)
        file = self.path / f"game-{saved.id}.json"
        temporary = file.with_suffix(".tmp")
        temporary.write_text(json.dumps(saved.to_dict(), indent=1))
        os.replace(temporary, file)
        return file

    def _read(self, file: Path) -> SavedGame:
        data = json.loads(file.read_text())
        if data.get("format") != FORMAT_VERSION:
            raise GoError(f"{file}: unknown format")
        match = _NAME.fullmatch(file.name)
        assert match is not None
        ai = data["ai"]
        return SavedGame(
            id=int(match.group(1)),
            game=Game.from_dict(data["game"]),
            black=str(data["black"]),
            white=str(data["white"]),
            ai_color=None if ai is None else Color(ai["color"]),
            level=Level.MEDIUM if ai is None else Level(ai["level"]),
            engine="auto" if ai is None else ENGINES.get(str(ai["engine"]), "auto"),
            seed=data.get("seed"),
        )
