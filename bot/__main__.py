"""``scrabble-bot`` (or ``python -m bot``): the bot on Discord, or one of the commands that need no
Discord: each registered game's terminal game (``play``: Scrabble, :mod:`bot.games.scrabble.console`;
``go``: Go in the terminal or over GTP, :mod:`bot.games.go.console`), ``web`` and ``arena`` (the board in
the browser, bots against the AI: :mod:`bot.web.cli`), ``worker`` (AI jobs queued on PostgreSQL:
:mod:`bot.host.ai.worker`) and ``migrate-db`` (:mod:`bot.host.migrate_db`). ``scrabble-bot --help`` lists
them; each has its own ``--help``.

The bot's settings come from the config file (``config.toml`` in the current directory if there is one)
and the token from ``$DISCORD_TOKEN`` or the file's ``token``. The token is never printed or logged.

Start-up: the store, the AI worker processes, then the host with its games (Scrabble loads its lexicon)
inside the bot, which starts it once logged in (resuming every open game) and closes it when the bot
closes. A process of a sharded bot (``shard_count`` in the config) first takes its
shards' leases (:mod:`bot.host.leases`; refused, naming the holder, if another process holds one), connects
only its shards and resumes only their games; it stops if it loses a lease.

discord.py and everything that needs it are imported only when the bot runs, so ``scrabble-bot play``
and the AI worker processes (which re-import this module when it is the main one) never load them.
"""

from __future__ import annotations

import argparse
import asyncio
import difflib
import importlib
import logging
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Final, TextIO

from bot.config import TOKEN_ENV, Config, ConfigError, load_config
from bot.games import register_builtin
from bot.host import registry
from bot.version import package_version
from scrabble_core.errors import echo

if TYPE_CHECKING:
    from bot.host.protocols import Notifier
    from bot.host.runner import Host

DEFAULT_CONFIG: Final = Path("config.toml")

EXIT_RUNTIME_ERROR: Final = 1
EXIT_USAGE: Final = 2

NO_TOKEN_MESSAGE: Final = (
    "scrabble-bot: no Discord bot token.\n"
    f"Set the {TOKEN_ENV} environment variable, or `token` in the config file "
    f"({DEFAULT_CONFIG} in the current directory, or the file given with --config).\n"
    "A bot and its token are created at https://discord.com/developers/applications.\n"
    "To play in this terminal without Discord instead: scrabble-bot play"
)

SWITCH_INTERVAL: Final = 0.0005
"""Seconds a thread of the bot may hold the interpreter's lock while another waits for it (Python's
default: 0.005). The event loop and the store's thread hand it back and forth at every socket call and
statement, and at the default each hand-over under load could wait 5 ms. ``bench/load.py`` at 200 games,
60 s runs one after the other (noisy): ``/play`` answer p50/p99 317/991 ms at 0.005, 146/732 at 0.0005,
226/848 at 0.001, 228/749 at 0.0002."""

log = logging.getLogger("bot")


class StartupError(Exception):
    """What the bot needs before logging in could not be loaded, or a process of a sharded bot lost its
    shards' leases and stopped; the message says what and why."""


register_builtin()  # the games' terminal commands are the command line's
_TERMINALS: Final = [game.terminal for game in registry.games() if game.terminal is not None]
_ON_THE_BOARD: Final = " or ".join(game.title for game in registry.games() if game.web is not None)

ENTRY_POINTS: Final = {
    **{terminal.command: (terminal.module, "main") for terminal in _TERMINALS},
    "web": ("bot.web.cli", "main"),
    "arena": ("bot.web.cli", "arena_main"),
    "worker": ("bot.host.ai.worker", "main"),
    "migrate-db": ("bot.host.migrate_db", "main"),
}
"""The module and function of each command but ``run`` (the bot, :func:`run_bot`), given the arguments
after the command's name; imported only when that command runs (none of them loads discord.py)."""

COMMANDS: Final = {
    "run": "run the bot on Discord (the default: no command)",
    **{terminal.command: terminal.summary for terminal in _TERMINALS},
    "web": f"play {_ON_THE_BOARD} in the browser; no Discord needed",
    "arena": "play bot programs against the AI; print their win rates",
    "worker": "answer the AI jobs a bot queues on PostgreSQL",
    "migrate-db": "copy a database into an empty one, and verify it",
}
"""Each command of ``scrabble-bot``, with its line in ``scrabble-bot --help``."""

_TOP_OPTIONS: Final = ("-h", "--help", "--version")


def _bot_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--config",
        type=Path,
        default=None,
        help=f"the TOML settings file (default: {DEFAULT_CONFIG} if it exists; see config.example.toml)",
    )


def _top_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="scrabble-bot",
        description="Host Scrabble and Go games on Discord, or play them in the terminal or the browser. "
        "Without a command, run the bot on Discord.",
        epilog="Each command has its own help: scrabble-bot COMMAND --help.",
    )
    parser.add_argument("--version", action="version", version=f"scrabble-bot {package_version()}")
    _bot_options(parser)
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")
    for name, summary in COMMANDS.items():
        commands.add_parser(name, help=summary, add_help=False)
    return parser


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    """The options of the bot itself (``scrabble-bot [run] [--config FILE]``); ``--help`` and
    ``--version`` print and exit, bad options exit with a usage message."""
    if argv[:1] == ["run"]:
        parser = argparse.ArgumentParser(
            prog="scrabble-bot run", description="Run the bot on Discord (the token: $DISCORD_TOKEN)."
        )
        _bot_options(parser)
        return parser.parse_args(argv[1:])
    return _top_parser().parse_args(argv)


def unknown_command(argv: Sequence[str]) -> str | None:
    """What to say when the first word of ``argv`` that is not an option names no command: the nearest
    command (or option) to type instead; None when there is no such word."""
    words = iter(argv)
    for word in words:
        if word == "--config":
            next(words, None)
        elif not word.startswith("-") and word not in COMMANDS:
            nearest = difflib.get_close_matches(word, [*COMMANDS, *_TOP_OPTIONS], n=1, cutoff=0.5)
            suggestion = f": did you mean {nearest[0]}?" if nearest else ""
            return f"{echo(word)} is not a command{suggestion} (scrabble-bot --help lists the commands)"
        elif not word.startswith("-"):
            return None
    return None


async def run(config: Config, token: str) -> None:
    """Open the store and the AI workers, build the host and its games (Scrabble loads its lexicon),
    then log in with ``token`` (which starts the host) and serve until the bot is closed.

    Raises:
        StartupError: the database, the AI workers or a game could not be loaded.
    """
    from bot.discord.sharded import make_bot
    from bot.host.assembly import AssemblyError, host_parts
    from bot.host.drawing import DRAWING
    from bot.host.leases import ShardHeldError, held_shards, kept
    from bot.stopping import stop_on_signals
    from bot.web.server import board_server

    main_task = asyncio.current_task()
    assert main_task is not None
    stop_on_signals(main_task)
    DRAWING.use_process()
    sys.setswitchinterval(SWITCH_INTERVAL)
    try:
        async with host_parts(config) as parts, held_shards(parts.store, config) as leases:

            async def make_host(notifier: Notifier) -> Host:
                return await parts.host(notifier)

            bot = make_bot(config, make_host)
            async with bot, kept(leases, bot.close):
                await bot.prepare()
                await bot.login(token)
                async with board_server(config, bot.host):
                    await bot.connect()
            if leases is not None and leases.lost is not None:
                raise StartupError(f"stopped: the shard leases were lost ({leases.lost})")
    except (AssemblyError, ShardHeldError) as error:
        raise StartupError(str(error)) from error


PLAIN_LOG_FORMAT: Final = "[{asctime}] [{levelname:<8}] {name}: {message}"
"""The log lines' format when they do not go to a terminal (discord.py's, without its colours)."""


class _NoVoiceWarnings(logging.Filter):
    """Drops discord.py's warnings that voice is not supported (PyNaCl, davey): the bot has no voice."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "voice will NOT be supported" not in record.getMessage()


def setup_logging(level: int, stream: TextIO) -> None:
    """Log at ``level`` to ``stream``: with discord.py's colours on a terminal, as plain text otherwise
    (a file, a pipe, a service manager's journal), and without discord.py's voice warnings."""
    import discord

    handler = logging.StreamHandler(stream)
    if stream.isatty():
        discord.utils.setup_logging(handler=handler, level=level)
    else:
        plain = logging.Formatter(PLAIN_LOG_FORMAT, "%Y-%m-%d %H:%M:%S", style="{")
        discord.utils.setup_logging(handler=handler, formatter=plain, level=level)
    logging.getLogger("discord.client").addFilter(_NoVoiceWarnings())


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command ``argv`` names (the bot when it names none); return the process exit code (2:
    bad usage, no token or a bad config; 1: Discord refused the token or could not be reached, or the
    lexicon, the database or the AI could not be loaded; the commands' own codes)."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list[:1] and args_list[0] in ENTRY_POINTS:
        module, function = ENTRY_POINTS[args_list[0]]
        entry: Callable[[list[str]], int] = getattr(importlib.import_module(module), function)
        return entry(args_list[1:])
    problem = unknown_command(args_list)
    if problem is not None:
        print(f"scrabble-bot: {problem}", file=sys.stderr)
        return EXIT_USAGE
    return run_bot(args_list)


def run_bot(argv: Sequence[str]) -> int:
    """``scrabble-bot [run] [--config FILE]``: load the config, then run the bot until it is closed;
    return the exit code, as :func:`main`. The only path that imports discord.py."""
    args = parse_args(argv)
    import aiohttp
    import discord

    path: Path | None = args.config
    if path is None and DEFAULT_CONFIG.is_file():
        path = DEFAULT_CONFIG
    try:
        config = load_config(path)
    except ConfigError as error:
        print(f"scrabble-bot: {error}", file=sys.stderr)
        return EXIT_USAGE
    if config.token is None:
        print(NO_TOKEN_MESSAGE, file=sys.stderr)
        return EXIT_USAGE
    setup_logging(config.log_level_number, sys.stderr)
    try:
        asyncio.run(run(config, config.token))
    except discord.LoginFailure:
        print(
            f"scrabble-bot: Discord refused the token: check {TOKEN_ENV} or the config's `token`.",
            file=sys.stderr,
        )
        return EXIT_RUNTIME_ERROR
    except (aiohttp.ClientError, OSError) as error:
        print(f"scrabble-bot: could not reach Discord ({type(error).__name__}: {error}).", file=sys.stderr)
        return EXIT_RUNTIME_ERROR
    except StartupError as error:
        print(f"scrabble-bot: {error}", file=sys.stderr)
        return EXIT_RUNTIME_ERROR
    except (KeyboardInterrupt, asyncio.CancelledError):  # stopped by a signal (bot.stopping)
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
