"""Terminal Go games saved by earlier versions, one JSON file per game (``game-N.json`` in a directory:
by default ``go/`` beside the consoles' database), brought into the database once
(:func:`import_saves`): each unfinished game goes on there under a new id, and its file is renamed
``game-N.json.imported`` so that it is not brought in again. Finished games stay in their files."""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from bot.console.saved import FIRST_USER, GUILD, free_channel
from bot.games.go.commands import GoCommands
from bot.games.go.engines import Level
from bot.games.go.errors import GoMoveError
from bot.games.go.options import GoNewGame
from bot.host.errors import OptionError
from bot.host.seats import User
from bot.host.store import Store
from go_core import Color, Game, Phase
from go_core.errors import GoError

__all__ = ["IMPORTED_SUFFIX", "OldSave", "import_saves", "old_saves"]

logger = logging.getLogger(__name__)

FORMAT_VERSION: Final = 1
IMPORTED_SUFFIX: Final = ".imported"
_NAME: Final = re.compile(r"game-(\d+)\.json")


@dataclass(frozen=True, slots=True)
class OldSave:
    """A game saved in a file: the engine's ``game``, the players' names, and the colour the AI
    played (``None``: hot-seat) at its ``level``, with its ``seed``."""

    path: Path
    game: Game
    black: str
    white: str
    ai_color: Color | None
    level: Level
    seed: int | None


def old_saves(directory: Path) -> list[OldSave]:
    """The unfinished games saved in ``directory`` not brought in yet, in the order they were saved
    (unreadable files are logged and left alone)."""
    files = sorted(
        (file for file in directory.glob("game-*.json") if _NAME.fullmatch(file.name)),
        key=lambda file: (file.stat().st_mtime_ns, file.name),
    )
    saves = []
    for file in files:
        try:
            saved = _read(file)
        except (OSError, ValueError, KeyError, TypeError, GoError) as error:
            logger.warning("cannot read the saved game %s: %s", file, error)
            continue
        if saved.game.phase is not Phase.OVER:
            saves.append(saved)
    return saves


async def import_saves(directory: Path, service: GoCommands, store: Store) -> list[int]:
    """Bring the unfinished games saved in ``directory`` into the database, each in a free console
    channel, the player at the keyboard user 1 (and the other of a hot-seat game user 2); rename
    their files so that they are brought in once. The new games' ids.

    A game whose settings this host does not take is logged and left in its file.

    Raises:
        StorageError: a game could not be written (the ones before it are in).
    """
    ids = []
    for saved in old_saves(directory):
        channel = free_channel(await store.open_games())
        if saved.ai_color is None:
            first, second = User(FIRST_USER, saved.black), User(FIRST_USER + 1, saved.white)
            options = GoNewGame(colour="black", seed=saved.seed)
        else:
            human = saved.ai_color.opponent
            first, second = User(FIRST_USER, saved.black if human is Color.BLACK else saved.white), None
            ai_name = saved.white if human is Color.BLACK else saved.black
            colour = "black" if human is Color.BLACK else "white"
            options = GoNewGame(ai_level=saved.level.value, colour=colour, seed=saved.seed, ai_name=ai_name)
        try:
            game_id = await service.adopt(GUILD, channel, first, options, saved.game, second)
        except (OptionError, GoMoveError) as error:  # settings this host does not take
            logger.warning("cannot bring in the saved game %s: %s", saved.path, error)
            continue
        saved.path.rename(saved.path.with_name(saved.path.name + IMPORTED_SUFFIX))
        logger.info("saved game %s brought in as game %d", saved.path, game_id)
        ids.append(game_id)
    return ids


def _read(file: Path) -> OldSave:
    data = json.loads(file.read_text())
    if data.get("format") != FORMAT_VERSION:
        raise ValueError("unknown format")
    ai = data["ai"]
    seed = data.get("seed")
    return OldSave(
        file,
        Game.from_dict(data["game"]),
        str(data["black"]),
        str(data["white"]),
        None if ai is None else Color(ai["color"]),
        Level.MEDIUM if ai is None else Level(ai["level"]),
        None if seed is None else int(seed),
    )
