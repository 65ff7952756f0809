"""What every console's command line shares: where the consoles keep their games (:func:`default_database`),
the options of saved games (:func:`add_saved_options`) and running a console's session in an event loop
of its own (:func:`run_session`: line editing, Ctrl-C, the errors that end it)."""

from __future__ import annotations

import argparse
import asyncio
import getpass
import logging
import os
import sqlite3
import sys
from collections.abc import Collection, Coroutine
from pathlib import Path
from typing import Any, Final

from bot.config import Config, ConfigError, load_config
from bot.console.saved import EXIT_FAILED, EXIT_USAGE, LAST_PLAYED
from bot.console.terminal import Terminal, line_editing
from bot.games import register_builtin
from bot.host import registry

EXIT_INTERRUPTED: Final = 130


def default_database() -> Path:
    """Where console games are kept unless ``--db`` says otherwise: ``$XDG_DATA_HOME/scrabble-host/
    console.sqlite3`` or ``~/.local/share/scrabble-host/console.sqlite3``."""
    xdg = os.environ.get("XDG_DATA_HOME", "")
    base = Path(xdg) if xdg and Path(xdg).is_absolute() else Path.home() / ".local" / "share"
    return base / "scrabble-host" / "console.sqlite3"


def login_name() -> str:
    """The name of the person at the keyboard (their login), or ``Player``."""
    try:
        return getpass.getuser()
    except (OSError, KeyError):
        return "Player"


def add_resume_options(parser: argparse.ArgumentParser) -> argparse._MutuallyExclusiveGroup:
    """Add ``--resume [ID]`` and ``--list``, in the group returned (where a command adds its other ways
    to start)."""
    saved = parser.add_mutually_exclusive_group()
    saved.add_argument(
        "--resume",
        type=int,
        nargs="?",
        const=LAST_PLAYED,
        metavar="ID",
        help="continue the saved game ID (default: the one played last)",
    )
    saved.add_argument("--list", action="store_true", help="list the saved games and their ids")
    return saved


def add_saved_options(parser: argparse.ArgumentParser) -> argparse._MutuallyExclusiveGroup:
    """Add the options every console has: ``--resume [ID]`` and ``--list`` (in the group returned,
    where a console adds its other ways to start), ``--db`` and ``--config``."""
    saved = add_resume_options(parser)
    parser.add_argument(
        "--db",
        type=Path,
        default=default_database(),
        help="the SQLite file of console games (default: %(default)s)",
    )
    parser.add_argument("--config", type=Path, help="a settings file (see config.example.toml)")
    return saved


def console_config(program: str, path: Path | None) -> Config | None:
    """The settings of ``path`` (the built-in games' too), or ``None`` after saying why they cannot be
    read."""
    register_builtin()
    try:
        return load_config(path)
    except ConfigError as error:
        print(f"{program}: {error}", file=sys.stderr)
        return None


def run_session(
    program: str,
    session: Coroutine[Any, Any, int],
    terminal: Terminal,
    history: Path,
    words: Collection[str],
    interrupted: str,
    *,
    failures: tuple[type[Exception], ...] = (),
    usage_errors: tuple[type[Exception], ...] = (),
) -> int:
    """Run a console's ``session`` in an event loop of its own, with line editing (its history kept in
    ``history``, Tab completing ``words``); return its exit code. Ctrl-C stops it (the game is saved:
    ``interrupted`` says how to continue it; code 130); a failure to open what it needs (the database,
    the AI workers, ``failures``: a word list) ends it with its message (code 1); a refusal of the
    game's options (a :class:`~bot.host.errors.ServiceError`, a game's refusal, ``usage_errors``) too
    (code 2)."""
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    history.parent.mkdir(parents=True, exist_ok=True)
    fatal: tuple[type[Exception], ...] = (OSError, sqlite3.Error, RuntimeError, *failures)
    loop = asyncio.new_event_loop()
    task = loop.create_task(session)
    try:
        with line_editing(history, words):
            return loop.run_until_complete(task)
    except KeyboardInterrupt:
        task.cancel()
        loop.run_until_complete(asyncio.gather(task, return_exceptions=True))
        terminal.say(f"\nInterrupted. The game is saved: {interrupted}")
        return EXIT_INTERRUPTED
    except fatal as error:
        print(f"{program}: {error}", file=sys.stderr)
        return EXIT_FAILED
    except Exception as error:
        if not (registry.is_refusal(error) or isinstance(error, usage_errors)):
            raise
        print(f"{program}: {error}", file=sys.stderr)
        return EXIT_USAGE
    finally:
        loop.run_until_complete(loop.shutdown_default_executor())
        loop.close()
