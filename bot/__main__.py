"""Start the bot: ``scrabble-bot [--config FILE]`` or ``python -m bot [--config FILE]``; or play in the
terminal without Discord: ``scrabble-bot play ...`` (see :mod:`bot.console`); or Go: ``scrabble-bot go
...`` (see :mod:`bot.go`).

The settings come from the config file (``config.toml`` in the current directory if there is one) and
the token from ``$DISCORD_TOKEN`` or the file's ``token``. The token is never printed or logged.

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
import logging
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Final, TextIO

from bot.config import TOKEN_ENV, Config, ConfigError, load_config
from bot.games import register_builtin
from bot.host import registry

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


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    """The command line of the bot: only ``--config``."""
    parser = argparse.ArgumentParser(
        prog="scrabble-bot",
        description="Run the Scrabble bot for Discord (or `scrabble-bot play` to play in the terminal).",
    )
    parser.add_argument(
        "--config",
        type=Path,
        default=None,
        help=f"the TOML settings file (default: {DEFAULT_CONFIG} if it exists; see config.example.toml)",
    )
    return parser.parse_args(argv)


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
    from bot.web.server import board_server

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
    """Run the bot, or the terminal game for ``play``; return the process exit code (2: no token or a
    bad config, 1: Discord refused the token or could not be reached, or the lexicon, the database or
    the AI could not be loaded)."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    register_builtin()
    for game in registry.games():  # a game's terminal front end, by its subcommand
        if game.terminal is not None and args_list[:1] == [game.terminal[0]]:
            return int(registry.load(game.terminal[1]).main(args_list[1:]))
    if args_list[:1] == ["migrate-db"]:
        from bot.host.migrate_db import main as migrate_db  # copy a database into another (PostgreSQL)

        return migrate_db(args_list[1:])
    if args_list[:1] == ["worker"]:
        from bot.host.ai.worker import main as worker  # answer AI jobs queued on PostgreSQL

        return worker(args_list[1:])
    if args_list[:1] in (["web"], ["arena"]):
        from bot.web import cli  # the web board without Discord

        return (cli.main if args_list[0] == "web" else cli.arena_main)(args_list[1:])
    return run_bot(args_list)


def run_bot(argv: Sequence[str]) -> int:
    """``scrabble-bot [--config FILE]``: load the config, then run the bot until it is closed; return
    the exit code, as :func:`main`. The only path that imports discord.py."""
    import aiohttp
    import discord

    args = parse_args(argv)
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
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
