"""The engine's command line: ``python -m scrabble_core COMMAND ...``.

Commands:
    moves   every legal play of a rack on a board, best first, one ``COORD WORD SCORE`` per line.
    replay  replay a GCG record through the engine, checking every score and total.

Each command is a subparser added by an ``add_*_command`` function, whose handler receives the parsed
arguments and returns the exit status. Errors in the input (a file that cannot be read, a board that
does not fit the variant, a bad rack) are printed on stderr as one line and exit with status 1; usage
errors exit with status 2 (argparse).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Final, TextIO

from scrabble_core.board import Board
from scrabble_core.errors import ScrabbleError, cut, echo
from scrabble_core.gcg import LEXICON_PRAGMA, VARIANT_PRAGMA, GcgRecord, parse_gcg, replay
from scrabble_core.letters import is_game_letter
from scrabble_core.lexicon import ENABLE_NAME, load_lexicon
from scrabble_core.move import PLAYED_THROUGH
from scrabble_core.movegen import GeneratedMove, load_move_generator
from scrabble_core.tiles import word_text
from scrabble_core.variant import VARIANTS, find_variant, get_variant

Handler = Callable[[argparse.Namespace, TextIO], int]

EXIT_BROKEN_PIPE: Final = 128 + signal.SIGPIPE
"""The exit status when the output's reader goes away, as for a process that SIGPIPE ended."""


class CommandError(ScrabbleError):
    """The input of a command cannot be used; the message says why."""


def build_parser() -> argparse.ArgumentParser:
    """The parser of every command."""
    parser = argparse.ArgumentParser(prog="python -m scrabble_core", description="The Scrabble engine.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    add_moves_command(commands)
    add_replay_command(commands)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command of ``argv`` (default: ``sys.argv[1:]``), writing its output to ``out`` (default:
    stdout), and return the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    handler: Handler = args.handler
    try:
        return handler(args, out if out is not None else sys.stdout)
    except ScrabbleError as error:
        print(f"{parser.prog} {args.command}: error: {error}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        # The reader stopped reading (``| head -1``): stop quietly, as a process killed by SIGPIPE.
        # Later flushes of stdout (at exit) then go nowhere instead of failing again.
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE


# --- moves ---------------------------------------------------------------------------------------


def add_moves_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``moves``: every legal play of a rack on a board."""
    moves = commands.add_parser(
        "moves",
        help="list every legal play of a rack on a board, best first",
        description=(
            "Print every legal play of RACK on the board in FILE (or on the empty board), highest score "
            "first, one per line as COORD WORD SCORE: the GCG coordinate (8H across, H8 down; x,ya or "
            "x,yd on an infinite board), the whole word with the tiles already on the board (blanks in "
            "lowercase, a set tile as [1E]), and the score."
        ),
    )
    moves.add_argument(
        "--board",
        type=Path,
        metavar="FILE",
        help="the board as rows of text: '.' empty, A-Z a tile, a-z a blank on the board; an infinite "
        "board as one line a tile, x,y TILE (default: empty)",
    )
    moves.add_argument("--rack", required=True, help="the rack's tiles, ? for a blank (e.g. AEINST?)")
    moves.add_argument("--lexicon", metavar="PATH", help="a word list, one word per line (default: ENABLE)")
    moves.add_argument(
        "--variant",
        default="standard",
        metavar="NAME|FILE",
        help=f"a variant's name ({', '.join(VARIANTS.names())}) or a variant TOML file (default: standard)",
    )
    moves.add_argument("--top", type=_positive, metavar="N", help="print only the N best plays")
    moves.set_defaults(handler=run_moves)


def run_moves(args: argparse.Namespace, out: TextIO) -> int:
    """Print the plays of ``args.rack`` on the board of ``args.board``; see :func:`add_moves_command`.

    With no legal play, nothing is printed on stdout and stderr says so (exit status 0).

    Raises:
        ScrabbleError: the board file cannot be read or does not fit the variant; the variant or the
            lexicon cannot be loaded; the rack is longer than the variant's racks or holds a tile the
            variant does not have.
    """
    variant = find_variant(args.variant)
    board = Board(variant) if args.board is None else Board.from_rows(variant, _read_board(args.board))
    rack = "".join(tile.upper() if is_game_letter(tile, variant.alphabet) else tile for tile in args.rack)
    if len(rack) > variant.rack_size:
        raise CommandError(
            f"a rack holds at most {variant.rack_size} tiles in {variant.name}, not {len(rack)}"
        )
    lexicon = load_lexicon(args.lexicon, variant.alphabet)
    moves = load_move_generator(lexicon).generate(board, rack)
    if not moves:
        print(f"no legal play for {rack} on this board", file=sys.stderr)
    if args.top is not None:
        moves = moves[: args.top]
    out.writelines(f"{move_line(board, move)}\n" for move in moves)
    out.flush()
    return 0


def add_replay_command(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``replay``: a GCG record replayed through the engine."""
    replay_parser = commands.add_parser(
        "replay",
        help="replay a GCG record, checking every score and total",
        description=(
            "Replay the game recorded in FILE through the engine and print each event with the score "
            "and total the engine computes. Exits with status 1, naming the line, at the first move "
            "the engine finds illegal or the first score or total that differs from the record."
        ),
    )
    replay_parser.add_argument("file", type=Path, metavar="FILE.gcg", help="the GCG record")
    replay_parser.add_argument(
        "--no-lexicon",
        action="store_true",
        help="do not check words (for games played with another dictionary)",
    )
    replay_parser.add_argument(
        "--lexicon",
        metavar="FILE",
        help="the word list the game was played with, one word per line (default: the record's "
        "#lexicon if it is ENABLE, else ENABLE; a record of another lexicon needs this or --no-lexicon)",
    )
    replay_parser.add_argument(
        "--variant",
        metavar="NAME|FILE",
        help="the variant played (default: the record's #variant, else standard)",
    )
    replay_parser.set_defaults(handler=run_replay)


def run_replay(args: argparse.Namespace, out: TextIO) -> int:
    """Replay ``args.file`` and print its events; see :func:`add_replay_command`.

    Raises:
        ScrabbleError: the file cannot be read, is not GCG, or does not replay (:class:`GcgError`
            names the line).
    """
    try:
        text = args.file.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise CommandError(f"{args.file}: no such file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise CommandError(f"{args.file}: cannot read the record ({error})") from None
    record = parse_gcg(text)
    variant = (
        find_variant(args.variant)
        if args.variant
        else get_variant(record.pragmas.get(VARIANT_PRAGMA, "standard"))
    )
    lexicon = None if args.no_lexicon else load_lexicon(_lexicon_of(record, args.lexicon), variant.alphabet)
    replayed = replay(record, variant, lexicon)
    for item in replayed:
        event = item.event
        detail = f"  ({item.detail})" if item.detail else ""
        out.write(
            f"line {event.line_number}: {event.nick} {event.move} {item.score:+d} {item.total}{detail}\n"
        )
    out.write(f"{len(replayed)} moves, every score and total matches\n")
    out.flush()
    return 0


def _lexicon_of(record: GcgRecord, given: str | None) -> str | None:
    """The word list to check ``record`` with: ``given``, else ENABLE unless the record names another.

    Raises:
        CommandError: the record was played with another lexicon and no word list is given.
    """
    named = record.pragmas.get(LEXICON_PRAGMA, ENABLE_NAME)
    if given is None and named.casefold() != ENABLE_NAME.casefold():
        raise CommandError(
            f"the game was played with {cut(named)}: give its word list with --lexicon FILE, "
            "or replay it with --no-lexicon"
        )
    return given


def move_line(board: Board, move: GeneratedMove) -> str:
    """``COORD WORD SCORE`` of ``move`` on ``board``: the word in full, board tiles included."""
    play = move.play
    word = "".join(
        board[square] or "" if letter == PLAYED_THROUGH else letter
        for square, letter in zip(play.squares(), play.letters, strict=True)
    )
    return f"{board.variant.coordinate_name(play.start, play.across)} {word_text(word)} {move.score}"


def _read_board(path: Path) -> list[str]:
    try:
        return path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise CommandError(f"{path}: no such board file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise CommandError(f"{path}: cannot read the board file ({error})") from None


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{echo(text)} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


if __name__ == "__main__":
    sys.exit(main())
