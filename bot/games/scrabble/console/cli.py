"""``scrabble-bot play``: Scrabble in the terminal, no Discord token needed.

It runs the bot's own host on a local SQLite file (``--db``; by default
``$XDG_DATA_HOME/scrabble-host/console.sqlite3`` or ``~/.local/share/scrabble-host/console.sqlite3``),
with the bot's lexicon, AI workers and hints. The settings file (``--config``) is optional: its lexicon,
game defaults and AI settings apply, its database and token are not used.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from bot.config import Config
from bot.console.cli import add_saved_options, console_config, login_name, run_session
from bot.console.saved import EXIT_USAGE, list_saved
from bot.console.terminal import Terminal
from bot.games.scrabble.commands import NewGame, ScrabbleCommands
from bot.games.scrabble.console.app import CONSOLE, LAST_FINISHED, ConsoleApp, Setup
from bot.games.scrabble.console.commands import ECHO_LENGTH, Verb, cut
from bot.games.scrabble.console.screen import ConsoleNotifier, TextRenderer
from bot.games.scrabble.kind import KIND
from bot.games.scrabble.settings import AI_LEVELS, scrabble_settings
from bot.host.assembly import host_parts
from scrabble_core.errors import VariantError, echo
from scrabble_core.game import MAX_PLAYERS, MIN_PLAYERS, ChallengeMode
from scrabble_core.lexicon import ENGLISH_ALPHABET, Lexicon, LexiconError, load_lexicon
from scrabble_core.movegen import MoveGenerator, load_move_generator
from scrabble_core.variant import add_variant_file, bundled_variant_names, example_variant_names

PROG: Final = CONSOLE.program
NOTICE_AFTER: Final = 0.3
"""Seconds of loading after which the console says it is preparing the dictionary."""
HISTORY_FILE: Final = "console-history"
_GAME_OPTIONS: Final = ("players", "ai", "level", "variant", "challenge", "hints", "seed")
"""The options that describe a new game (``args`` attributes)."""
_ERROR_LENGTH: Final = 300


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    """The options of ``scrabble-bot play``; exits with a usage message on bad ones."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Play Scrabble in the terminal against the AI, or hot-seat with 2 to 4 people at one "
        "keyboard. No Discord token needed. Type help at the prompt for the commands.",
    )
    parser.add_argument(
        "--players",
        metavar="NAMES",
        help="the names of the people playing, comma-separated (default: your login name); with two "
        "or more it is a hot-seat game",
    )
    parser.add_argument(
        "--ai", type=int, metavar="N", help="AI opponents (default: 1 for one player, 0 for several)"
    )
    parser.add_argument(
        "--level", choices=AI_LEVELS, help="the AI's level (default: the config's ai.level, expert)"
    )
    parser.add_argument(
        "--variant",
        metavar="NAME|FILE.toml",
        help=f"the board: {', '.join(bundled_variant_names())} (default: standard), an example board "
        f"written as a program ({', '.join(example_variant_names())}: see docs/boards.md), or a variant "
        "file (see assets/variants/)",
    )
    parser.add_argument(
        "--challenge", choices=[mode.value for mode in ChallengeMode], help="challenge mode (default: void)"
    )
    parser.add_argument("--hints", type=int, metavar="N", help="hints per player (default: 3)")
    parser.add_argument("--seed", type=int, help="fix the shuffle of the bag (and the AI's choices)")
    saved = add_saved_options(parser)
    saved.add_argument(
        "--analyze",
        type=int,
        nargs="?",
        const=LAST_FINISHED,
        metavar="ID",
        help="show the analysis of the finished game ID (default: the one finished last): each move "
        "against the AI's best",
    )
    parser.add_argument("--ascii", action="store_true", help="plain ASCII, no colours")
    parser.add_argument(
        "--image",
        type=Path,
        metavar="FILE.png",
        help="keep FILE.png updated with the board as the bot posts it",
    )
    args = parser.parse_args(argv)
    given = [f"--{name}" for name in _GAME_OPTIONS if getattr(args, name) is not None]
    if given and args.resume is not None:
        parser.error(f"--resume continues a saved game with its own options: drop {', '.join(given)}")
    args.new_options = bool(given)
    if args.variant is not None and args.variant not in shipped_variant_names():
        args.variant = variant_file(parser, args.variant)
    players = [name.strip() for name in (args.players or login_name()).split(",")]
    if any(not name for name in players) or len(set(players)) != len(players):
        parser.error("--players: every player needs a name of their own")
    args.ai = (1 if len(players) == 1 else 0) if args.ai is None else args.ai
    if not MIN_PLAYERS <= len(players) + args.ai <= MAX_PLAYERS:
        parser.error(f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players: check --players and --ai")
    args.players = tuple(players)
    return args


def shipped_variant_names() -> list[str]:
    """The names ``--variant`` takes: the bundled variants and the examples."""
    return [*bundled_variant_names(), *example_variant_names()]


def variant_file(parser: argparse.ArgumentParser, value: str) -> str:
    """The name of the variant file ``value`` once added (:func:`add_variant_file`); a usage error
    when it is not a bundled name nor a valid ``.toml`` file."""
    if not value.endswith(".toml"):
        parser.error(
            f"--variant: no variant {echo(value, ECHO_LENGTH - 1)}: choose one of "
            f"{', '.join(shipped_variant_names())}, or give a variant file (FILE.toml)"
        )
    try:
        return add_variant_file(Path(value))
    except VariantError as error:
        parser.error(f"--variant: {cut(str(error), _ERROR_LENGTH)}")


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``scrabble-bot play`` with ``argv`` (the arguments after ``play``); return the exit code."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    config = console_config(PROG, args.config)
    if config is None:
        return EXIT_USAGE
    terminal = Terminal.system(ascii_only=args.ascii)
    return run_session(
        PROG,
        play(args, config, terminal),
        terminal,
        args.db.parent / HISTORY_FILE,
        [verb.value for verb in Verb],
        CONSOLE.resume_hint,
        failures=(LexiconError,),
    )


async def play(args: argparse.Namespace, config: Config, terminal: Terminal) -> int:
    """List the saved games (reading the database only), or open the lexicon, the store, the AI workers
    and the host, and run the console on them."""
    if args.list:
        return await list_saved(args.db, CONSOLE, terminal)
    lexicon, generator = await _prepare(config, terminal)
    async with host_parts(config, args.db, kinds=[KIND]) as parts:
        notifier = ConsoleNotifier(terminal, records=args.db.parent)
        renderer = TextRenderer(terminal.style, args.image)
        settings = {"lexicon": lexicon, "generator": generator, "renderer": renderer}
        host = await parts.host(notifier, {KIND: settings})
        service: ScrabbleCommands = host.commands[KIND]
        await host.start()
        try:
            app = ConsoleApp(service, parts.store, notifier, renderer, terminal)
            if args.analyze is not None:
                return await app.analyze(None if args.analyze == LAST_FINISHED else args.analyze)
            return await app.run(_setup(args), resume=args.resume, new_options=args.new_options)
        finally:
            await host.close()


def _setup(args: argparse.Namespace) -> Setup:
    """The new game the options ask for: no time limit (nobody waits on a console)."""
    options = NewGame(
        variant=args.variant,
        challenge_mode=args.challenge,
        turn_seconds=0,
        ai_opponents=args.ai,
        ai_level=args.level,
        hints=args.hints,
        seed=args.seed,
    )
    return Setup(args.players, options)


async def _prepare(config: Config, terminal: Terminal) -> tuple[Lexicon, MoveGenerator]:
    """The lexicon and move generator, from their caches; on the first run they are built (a few
    seconds), which the player is told about."""
    loading = asyncio.ensure_future(asyncio.to_thread(_load_words, scrabble_settings(config).lexicon))
    try:
        return await asyncio.wait_for(asyncio.shield(loading), NOTICE_AFTER)
    except TimeoutError:
        terminal.say("Preparing the dictionary (first run only)…")
    return await loading


def _load_words(source: str) -> tuple[Lexicon, MoveGenerator]:
    lexicon = load_lexicon(source, ENGLISH_ALPHABET)
    return lexicon, load_move_generator(lexicon)
