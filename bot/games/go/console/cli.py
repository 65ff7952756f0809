"""``scrabble-bot go``: Go in the terminal against the AI or hot-seat, or ``--gtp`` to speak the Go Text
Protocol on standard input and output."""

from __future__ import annotations

import argparse
import getpass
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Final

from bot.console.terminal import Terminal, line_editing
from bot.console.terminal_board import Style
from bot.games.go.console.app import RESUME_HINT, GoConsole, Verb
from bot.games.go.console.saves import SavedGame, SaveDirectory
from bot.games.go.engines import ENGINES, GoAI, Level, make_ai
from bot.games.go.gtp import serve_stdio
from bot.games.scrabble.console.cli import default_database
from go_core import Color, Game, ScoringMethod
from go_core.errors import GoError
from go_core.scoring import DEFAULT_KOMI

PROG: Final = "scrabble-bot go"
EXIT_USAGE: Final = 2
EXIT_INTERRUPTED: Final = 130
HANDICAP_KOMI: Final = 0.5
"""The komi of a handicap game unless ``--komi`` says otherwise."""
HISTORY_FILE: Final = "go-history"
_GAME_OPTIONS: Final = ("size", "komi", "handicap", "scoring", "players", "color", "level", "engine", "seed")


def default_directory() -> Path:
    """Where terminal Go games are kept: ``go/`` beside the Scrabble console's database."""
    return default_database().parent / "go"


def parse_args(argv: Sequence[str]) -> argparse.Namespace:
    """The options of ``scrabble-bot go``; exits with a usage message on bad ones."""
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="Play Go in the terminal against the AI (GNU Go when it is installed, else a built-in "
        "one), or hot-seat with two names in --players. Type help at the prompt for the commands.",
    )
    parser.add_argument("--gtp", action="store_true", help="speak GTP on stdin/stdout (for Sabaki, GoGui...)")
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
    saved = parser.add_mutually_exclusive_group()
    saved.add_argument(
        "--resume",
        type=int,
        nargs="?",
        const=0,
        metavar="ID",
        help="continue saved game ID (default: the last)",
    )
    saved.add_argument("--list", action="store_true", help="list the unfinished saved games")
    parser.add_argument(
        "--dir", type=Path, default=default_directory(), help="where games are saved (default: %(default)s)"
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
    if args.seconds <= 0:
        parser.error("--seconds must be more than 0")
    names = [name.strip() for name in (args.players or _login_name()).split(",")]
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
    if terminal is None:
        terminal = Terminal.system(ascii_only=args.ascii)
        if args.ansi:
            terminal = Terminal(terminal.read, terminal.write, Style.RICH, terminal.clears)
    saves = SaveDirectory(args.dir)
    if args.list:
        return _list(saves, terminal)
    try:
        saved = _choose(args, saves, terminal)
    except GoError as error:
        print(f"{PROG}: {error}", file=sys.stderr)
        return EXIT_USAGE
    if saved is None:
        return EXIT_USAGE if args.resume is not None else 0
    ai = _ai(saved, args.seconds)
    try:
        with line_editing(args.dir / HISTORY_FILE, [verb.value for verb in Verb]):
            return GoConsole(saved, saves, terminal, ai, _write_png).run()
    except KeyboardInterrupt:
        saves.save(saved)
        terminal.say(f"\nInterrupted. The game is saved: {RESUME_HINT} {saved.id}")
        return EXIT_INTERRUPTED
    finally:
        if ai is not None:
            ai.close()


def _choose(args: argparse.Namespace, saves: SaveDirectory, terminal: Terminal) -> SavedGame | None:
    """The saved game to continue, or a new one; ``None`` when there is nothing to play."""
    unfinished = saves.unfinished()
    if args.resume is not None:
        return _resumed(args.resume, unfinished, terminal)
    if unfinished and not args.new_options:
        last = unfinished[-1]
        question = f"An unfinished game is saved: game {last.id} ({_describe(last)}). Continue it?"
        answer = terminal.confirm(question, default=True)
        if answer is None:
            return None
        if answer:
            return last
    return _new_game(args, saves)


def _resumed(wanted: int, unfinished: list[SavedGame], terminal: Terminal) -> SavedGame | None:
    """The unfinished game ``wanted`` (0: the last saved); ``None`` (and why) when there is none."""
    if not unfinished:
        terminal.say("There is no unfinished game to resume: start one with scrabble-bot go")
        return None
    if wanted == 0:
        return unfinished[-1]
    for saved in unfinished:
        if saved.id == wanted:
            return saved
    known = ", ".join(str(saved.id) for saved in unfinished)
    terminal.say(f"No unfinished game has the id {wanted} (saved: {known}); scrabble-bot go --list")
    return None


def _new_game(args: argparse.Namespace, saves: SaveDirectory) -> SavedGame:
    """The game the options describe (raises :class:`GoError` for a size, komi or handicap the engine
    refuses)."""
    handicap = args.handicap or 0
    komi = args.komi if args.komi is not None else HANDICAP_KOMI if handicap else DEFAULT_KOMI
    game = Game(args.size or 19, komi=komi, handicap=handicap, method=ScoringMethod(args.scoring or "area"))
    level = Level(args.level or Level.MEDIUM)
    engine = ENGINES[args.engine or "auto"]
    if len(args.names) == 2:
        black, white = args.names
        return SavedGame(saves.new_id(), game, black, white, seed=args.seed)
    human = Color.WHITE if args.color == "white" else Color.BLACK
    ai = _ai(SavedGame(0, game, "", "", human.opponent, level, engine), args.seconds)
    assert ai is not None
    ai.close()  # only its name was needed (GNU Go starts on its first move)
    names = {human: args.names[0], human.opponent: ai.name}
    return SavedGame(
        saves.new_id(), game, names[Color.BLACK], names[Color.WHITE], human.opponent, level, engine, args.seed
    )


def _ai(saved: SavedGame, seconds: float) -> GoAI | None:
    """The AI of ``saved`` (``None`` for hot-seat); the built-in one when GNU Go is asked for and gone."""
    if saved.ai_color is None:
        return None
    try:
        return make_ai(saved.level, engine=saved.engine, seed=saved.seed, seconds=seconds)
    except FileNotFoundError:
        return make_ai(saved.level, engine="builtin", seed=saved.seed, seconds=seconds)


def _list(saves: SaveDirectory, terminal: Terminal) -> int:
    unfinished = saves.unfinished()
    if not unfinished:
        terminal.say("No game is saved: start one with scrabble-bot go")
    for saved in unfinished:
        terminal.say(f"Game {saved.id}: {_describe(saved)}")
    return 0


def _describe(saved: SavedGame) -> str:
    game = saved.game
    return (
        f"{saved.black} (Black) vs {saved.white} (White), {game.size}×{game.size}, move {len(game.moves) + 1}"
    )


def _write_png(saved: SavedGame, path: Path) -> None:
    from bot.games.go.board_image import render_go_board  # Pillow only when an image is asked for

    path.write_bytes(render_go_board(saved.game, black=saved.black, white=saved.white))


def _login_name() -> str:
    try:
        return getpass.getuser()
    except (OSError, KeyError):
        return "Player"
