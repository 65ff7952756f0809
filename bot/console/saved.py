"""The games the consoles keep, whatever the game: every console game lives in the consoles' database
(``--db``), in guild 0 (which no Discord server has), in a channel of its own (0, 1, ...), so that
several can be saved. One set of rules for every game's console:

- ``--list`` lists a game's unfinished games (:func:`list_saved`), the one played last at the end. It
  only reads the database: no lock (beside a console that plays, or the web board), no dictionary.
- ``--resume [ID]`` continues one (the last played by default); without game options a console offers
  to continue the last game played; with them it starts the new game they describe and says which games
  stay saved (:func:`choose`).

The people at the keyboard are users 1, 2...
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from bot.console.terminal import Terminal
from bot.host.store import GameRow, GameStatus, Store

GUILD: Final = 0
FIRST_USER: Final = 1
LAST_PLAYED: Final = 0
"""``--resume`` without an id: the game played last."""

EXIT_OK: Final = 0
EXIT_FAILED: Final = 1
EXIT_USAGE: Final = 2


@dataclass(frozen=True, slots=True)
class ConsoleGame:
    """A game's console as the shared parts see it: the game's ``kind``, its ``program``
    (``scrabble-bot play``) and how it describes a saved game in one line (``describe(row)``, from the
    stored row alone)."""

    kind: str
    program: str
    describe: Callable[[GameRow], str]

    @property
    def resume_hint(self) -> str:
        """How a game is continued: ``continue it with scrabble-bot play --resume``."""
        return f"continue it with {self.program} --resume"


@dataclass(frozen=True, slots=True)
class Choice:
    """What to play: a saved ``row``, a new game (``row`` ``None``), or nothing (``exit`` the code)."""

    row: GameRow | None = None
    exit: int | None = None


def unfinished(rows: Iterable[GameRow], kind: str) -> list[GameRow]:
    """The started console games of ``kind`` among the open ``rows``, the one played last at the end."""
    started = [
        row
        for row in rows
        if row.guild_id == GUILD and row.kind == kind and row.status is not GameStatus.LOBBY
    ]
    return sorted(started, key=lambda row: (row.updated_at, row.id))


def free_channel(rows: Iterable[GameRow]) -> int:
    """A console channel without an open game among ``rows`` (of any game: they share the database)."""
    used = {row.channel_id for row in rows if row.guild_id == GUILD}
    return next(number for number in itertools.count() if number not in used)


async def list_saved(database: Path, console: ConsoleGame, terminal: Terminal) -> int:
    """Show the unfinished games of ``console`` in ``database``, the one played last at the end, reading
    the database only; returns the exit code.

    Raises:
        StoreOpenError: the database cannot be read.
    """
    store = await Store.open_to_read(database)
    rows: list[GameRow] = []
    if store is not None:
        try:
            rows = unfinished(await store.open_games(), console.kind)
        finally:
            await store.close()
    if not rows:
        terminal.say(f"No game is saved: start one with {console.program}")
    for row in rows:
        terminal.say(f"Game {row.id}: {console.describe(row)}")
    return EXIT_OK


def choose(
    saved: list[GameRow], console: ConsoleGame, terminal: Terminal, resume: int | None, new_options: bool
) -> Choice:
    """The game to play among the unfinished ``saved`` (the one played last at the end): the saved
    game ``resume`` (:data:`LAST_PLAYED`: the one played last) if given; else, with ``new_options``
    (the player gave game options), a new game; else the last game played if the player wants to
    continue it, or a new game. Says why when there is nothing to play, and which games stay saved
    when a new one starts."""
    if resume is not None:
        row = _find(saved, console, terminal, resume)
        return Choice(exit=EXIT_USAGE) if row is None else Choice(row)
    if saved and not new_options:
        last = saved[-1]
        question = f"An unfinished game is saved: game {last.id} ({console.describe(last)}). Continue it?"
        answer = terminal.confirm(question, default=True)
        if answer is None:
            return Choice(exit=EXIT_OK)
        if answer:
            return Choice(last)
    if saved:
        kept = "".join(f"\n  Game {row.id}: {console.describe(row)}" for row in saved)
        terminal.say(f"Starting a new game. Still saved ({console.program} --resume ID):{kept}")
    return Choice()


def _find(saved: list[GameRow], console: ConsoleGame, terminal: Terminal, game_id: int) -> GameRow | None:
    """The saved game ``game_id`` (the last played for :data:`LAST_PLAYED`); says why if none."""
    if not saved:
        terminal.say(f"There is no unfinished game to resume: start one with {console.program}")
        return None
    if game_id == LAST_PLAYED:
        return saved[-1]
    for row in saved:
        if row.id == game_id:
            return row
    known = ", ".join(str(row.id) for row in saved)
    terminal.say(f"No unfinished game has the id {game_id} (saved: {known}); {console.program} --list")
    return None
