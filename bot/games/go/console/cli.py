"""``scrabble-bot go``: Go in the terminal against the AI or hot-seat, through the host and its
database like every console (:mod:`bot.console.saved`), or ``--gtp`` to speak the Go Text Protocol on
standard input and output. Games saved in files by earlier versions are brought into the database
the first time it runs (:mod:`bot.games.go.console.saves`)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Final

from bot.config import Config
from bot.console.cli import add_saved_options, console_config, default_database, login_name, run_session
from bot.console.saved import EXIT_USAGE, list_saved
from bot.console.terminal import Terminal
from bot.console.terminal_board import Style
from bot.games.go.commands import GoCommands
from bot.games.go.console.app import CONSOLE, GoConsole, Setup, no_image
from bot.games.go.console.commands import Verb
from bot.games.go.console.saves import import_saves, old_saves
from bot.games.go.engines import ENGINES, Engine, Level, find_gnugo, make_ai
from bot.games.go.gtp import serve_stdio
from bot.games.go.kind import KIND
from bot.games.go.options import GoNewGame
from bot.host.assembly import host_parts
from bot.host.protocols import QuietNotifier
from bot.host.store import SeatRow
from go_core import Game, ScoringMethod
from go_core.errors import GoError
from go_core.points import check_size
from go_core.scoring import DEFAULT_KOMI

PROG: Final = CONSOLE.program
HANDICAP_KOMI: Final = 0.5
"""The komi of a handicap game unless ``--komi`` says otherwise."""
HISTORY_FILE: Final = "go-history"
_GAME_OPTIONS: Final = ("size", "komi", "handicap", "scoring", "players", "color", "level", "engine", "seed")


def default_directory() -> Path:
    """Where earlier versions saved terminal Go games: ``go/`` beside the consoles' database."""
    return default_database().parent / "go"


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    """The options of ``scrabble-bot go``; exits with a usage message on bad ones."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Play Go in the terminal against the AI (GNU Go when it is installed, else a built-in "
        "one), or hot-seat with two names in --players. Type help at the prompt for the commands.",
    )
    parser.add_argument("--gtp", action="store_true", help="speak GTP on stdin/stdout (for Sabaki, GoGui...)")
    parser.add_argument(
        "--web",
        action="store_true",
        help="play on the board in the browser instead (scrabble-bot web --game go, with these options)",
    )
    parser.add_argument("--size", type=int, help="the board's width, 2 to 25 (default 19)")
    parser.add_argument(
        "--komi",
        type=float,
        help=f"White's komi (default {DEFAULT_KOMI:g}, {HANDICAP_KOMI:g} with a handicap)",
    )
    parser.add_argument(
        "--handicap",
        type=int,
        help="Black's handicap stones: 2 to 9 on odd boards from 9×9, 2 to 4 on the others from 7×7",
    )
    parser.add_argument(
        "--scoring", choices=[method.value for method in ScoringMethod], help="area (default) or stones"
    )
    parser.add_argument(
        "--players", metavar="NAMES", help="your name, or two comma-separated names for hot-seat"
    )
    parser.add_argument(
        "--color", choices=["black", "white"], help="your colour against the AI (default black)"
    )
    parser.add_argument(
        "--level", choices=[level.value for level in Level], help="the AI's level (default medium)"
    )
    parser.add_argument(
        "--engine", choices=list(ENGINES), help="the AI: GNU Go if installed (auto, the default)"
    )
    parser.add_argument("--seconds", type=float, default=10.0, help="the AI's time per move (default 10)")
    parser.add_argument("--seed", type=int, help="fix the AI's random choices")
    add_saved_options(parser)
    parser.add_argument(
        "--dir",
        type=Path,
        default=default_directory(),
        help="where earlier versions saved games, brought into the database once (default: %(default)s)",
    )
    looks = parser.add_mutually_exclusive_group()
    looks.add_argument("--ascii", action="store_true", help="plain ASCII, no colours")
    looks.add_argument(
        "--ansi", action="store_true", help="ANSI colours and Unicode stones, even when not detected"
    )
    args = parser.parse_args(argv)
    given = [f"--{name}" for name in _GAME_OPTIONS if getattr(args, name) is not None]
    args.new_options = bool(given)
    if args.resume is not None and given:
        parser.error(f"--resume continues a saved game with its own options: drop {', '.join(given)}")
    if args.gtp and (args.resume is not None or args.list):
        parser.error("--gtp takes the game from the GTP commands: drop --resume and --list")
    if args.web and (args.gtp or args.resume is not None or args.list):
        parser.error(
            "--web starts a new game on the board: scrabble-bot web --list and --resume continue one"
        )
    if args.seconds <= 0:
        parser.error("--seconds must be more than 0")
    names = [name.strip() for name in (args.players or login_name()).split(",")]
    if len(names) > 2 or any(not name for name in names) or len(set(names)) != len(names):
        parser.error("--players: one name (against the AI) or two different names (hot-seat)")
    args.names = names
    return args


def main(argv: Sequence[str] | None = None, terminal: Terminal | None = None) -> int:
    """Run ``scrabble-bot go`` with ``argv`` (the arguments after ``go``) on ``terminal`` (the real
    one by default); return the exit code."""
    args = parse_args(sys.argv[1:] if argv is None else argv)
    level = Level(args.level or Level.MEDIUM)
    if args.gtp:
        engine = make_ai(level, engine=ENGINES[args.engine or "auto"], seed=args.seed, seconds=args.seconds)
        return serve_stdio(engine, sys.stdin, sys.stdout)
    if args.web:
        from bot.web.cli import main as web  # aiohttp only for the board

        return web(_web_argv(args))
    config = console_config(PROG, args.config)
    if config is None:
        return EXIT_USAGE
    if terminal is None:
        terminal = Terminal.system(ascii_only=args.ascii)
        if args.ansi:
            terminal = Terminal(terminal.read, terminal.write, Style.RICH, terminal.clears)
    return run_session(
        PROG,
        play(args, config, terminal),
        terminal,
        args.db.parent / HISTORY_FILE,
        [verb.value for verb in Verb],
        CONSOLE.resume_hint,
        usage_errors=(GoError,),
    )


async def play(args: argparse.Namespace, config: Config, terminal: Terminal) -> int:
    """List the saved games (reading the database only), or open the store, the AI workers and the
    host (Go's alone), bring in the games saved in files by earlier versions, and play."""
    if args.list:
        code = await list_saved(args.db, CONSOLE, terminal)
        waiting = len(old_saves(args.dir))
        if waiting:
            terminal.say(
                f"{waiting} more saved by an earlier version in {args.dir}: they get their ids the next "
                f"time {PROG} runs"
            )
        return code
    engine = _engine(args.engine)
    setup = _setup(args, engine)
    async with host_parts(config, args.db, kinds=[KIND]) as parts:
        settings = {"engine": engine, "seconds": args.seconds, "renderer": no_image}
        host = await parts.host(QuietNotifier(), {KIND: settings})
        service: GoCommands = host.commands[KIND]
        await host.start()
        try:
            await import_saves(args.dir, service, parts.store)
            console = GoConsole(service, parts.store, terminal, _write_png)
            return await console.run(setup, resume=args.resume, new_options=args.new_options)
        finally:
            await host.close()


def _web_argv(args: argparse.Namespace) -> list[str]:
    """The arguments of ``scrabble-bot web`` for the game these options describe."""
    argv = ["--game", "go", "--players", ",".join(args.names)]
    for option, value in (
        ("--size", args.size),
        ("--komi", args.komi),
        ("--handicap", args.handicap),
        ("--level", args.level),
        ("--colour", args.color),
        ("--seed", args.seed),
        ("--config", args.config),
    ):
        if value is not None:
            argv += [option, str(value)]
    return argv


def _engine(asked: str | None) -> Engine:
    """The AI's engine: GNU Go when asked for (or ``auto``) and installed, else the built-in AI."""
    engine = ENGINES[asked or "auto"]
    return "builtin" if engine == "gnugo" and find_gnugo() is None else engine


def _setup(args: argparse.Namespace, engine: Engine) -> Setup:
    """The new game the options ask for: no time limit (nobody waits on a console); against the AI,
    its seat named after its engine.

    Raises:
        GoError: a board size the engine refuses (its message says why, in the terminal's words).
    """
    handicap = args.handicap or 0
    komi = args.komi if args.komi is not None else HANDICAP_KOMI if handicap else DEFAULT_KOMI
    options = GoNewGame(
        size=check_size(args.size or 19),
        komi=komi,
        handicap=handicap,
        scoring=args.scoring or ScoringMethod.AREA.value,
        seed=args.seed,
        colour=args.color or "black",
    )
    names = tuple(args.names)
    if len(names) == 1:
        level = Level(args.level or Level.MEDIUM)
        ai = make_ai(level, engine=engine, seed=args.seed, seconds=args.seconds)
        ai.close()  # only its name was needed (GNU Go starts on its first move)
        options = replace(options, ai_level=level.value, ai_name=ai.name)
    return Setup(names, options)


def _write_png(game: Game, black: SeatRow, white: SeatRow, path: Path) -> None:
    from bot.games.go.board_image import render_go_board  # Pillow only when an image is asked for

    path.write_bytes(render_go_board(game, black=black.name, white=white.name))
