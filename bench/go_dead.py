"""Agreement of the dead-stone estimate with GNU Go's ``final_status_list dead`` over self-played,
finished 9×9 games: the built-in AI's (:meth:`go_core.ai.Thinker.statuses`) and a baseline copy of
the code's (e.g. the estimate before the playouts' ownership) in the same run.

    python bench/go_dead.py [--games 100] [--size 9] [--playouts 400] [--seed 1] [--baseline DIR]
                            [--against-gnugo]

Each game is the built-in AI against itself with ``--playouts`` a move (a resignation counts as a pass,
so every game ends with two passes in a row), seeded by ``--seed`` and its number; with
``--against-gnugo``, against GNU Go at level 1 (colours alternated), which passes as soon as nothing is
left to gain, dead stones still on the board. GNU Go
(``$SCRABBLE_GNUGO`` or ``/usr/games/gnugo``, ``--chinese-rules``) is given the moves and asked for
its dead stones; the estimate agrees when it names the same stones. With ``--baseline DIR`` (a copy of
another version, e.g. ``mkdir DIR && git archive main go_core | tar -x -C DIR``), that version's
``go_core.ai.propose_dead`` answers in a subprocess importing ``go_core`` from ``DIR``. Prints one
line a game, then:

    games=<int> agree=<int> agreement=<float> baseline_agree=<int> baseline_agreement=<float>
    games_with_dead=<int> mean_moves=<float> load=<1-minute load average>
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.games.go.engines import find_gnugo
from bot.games.go.gtp_client import GtpClient
from go_core import Color, Game, Phase, Point, format_move, parse_move
from go_core.ai import RESIGN, Budget, Thinker

GTP_SECONDS = 120.0
BASELINE = """
import json, sys
from go_core import Game
from go_core.ai import propose_dead
for line in sys.stdin:
    print(json.dumps(sorted(str(point) for point in propose_dead(Game.from_dict(json.loads(line))))))
"""


def play_game(size: int, playouts: int, seed: int, gnugo: str | None) -> Game:
    """A game of the built-in AI against itself, or against GNU Go at level 1 (``gnugo``: its program;
    it is White in odd-numbered seeds), to two passes in a row (or ``3 * size²`` moves)."""
    game, rng, thinker = Game(size), random.Random(seed), Thinker()
    budget = Budget(seconds=600, playouts=playouts)
    theirs = Color.WHITE if seed % 2 else Color.BLACK
    with contextlib.ExitStack() as stack:
        client = None
        if gnugo is not None:
            client = stack.enter_context(
                GtpClient([gnugo, "--mode", "gtp", "--level", "1", "--chinese-rules"])
            )
            for command in (f"boardsize {size}", "clear_board", f"komi {game.komi:g}"):
                client.send(command, GTP_SECONDS)
        while game.phase is Phase.PLAY and len(game.moves) < 3 * size * size:
            color = game.to_move
            if client is not None and color is theirs:
                point = parse_move(client.send(f"genmove {color.value}", GTP_SECONDS), size)
                if point is not None and not game.is_legal(point):
                    client.send("undo", GTP_SECONDS)
                    client.send(f"play {color.value} pass", GTP_SECONDS)
                    point = None
            else:
                move = thinker.choose(game, rng, budget)
                point = None if move == RESIGN else move
                if client is not None:
                    client.send(f"play {color.value} {format_move(point)}", GTP_SECONDS)
            if point is None:
                game.pass_turn()
            else:
                game.play(point)
    return game


def gnugo_dead(program: str, game: Game) -> frozenset[Point]:
    """GNU Go's dead stones in ``game``'s final position."""
    with GtpClient([program, "--mode", "gtp", "--chinese-rules"]) as gnugo:
        for command in (f"boardsize {game.size}", "clear_board", f"komi {game.komi:g}"):
            gnugo.send(command, GTP_SECONDS)
        for move in game.moves:
            gnugo.send(f"play {move.color.value} {format_move(move.point)}", GTP_SECONDS)
        answer = gnugo.send("final_status_list dead", GTP_SECONDS)
    return frozenset(Point.parse(word, game.size) for word in answer.split())


def baseline_dead(directory: Path, games: list[Game]) -> list[frozenset[Point]]:
    """The baseline's dead stones of each of ``games``, from a subprocess importing ``go_core`` from
    ``directory``."""
    answer = subprocess.run(
        [sys.executable, "-c", BASELINE],
        input="".join(json.dumps(game.to_dict()) + "\n" for game in games),
        env={**os.environ, "PYTHONPATH": str(directory.resolve())},
        capture_output=True,
        text=True,
        check=True,
        cwd=directory,
    )
    return [
        frozenset(Point.parse(text, game.size) for text in json.loads(line))
        for line, game in zip(answer.stdout.splitlines(), games, strict=True)
    ]


def main() -> None:
    """Parse the arguments, play and compare, and print the lines."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--playouts", type=int, default=400, help="the self-play's playouts a move")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--baseline", type=Path, help="a copy of another version's go_core to compare")
    parser.add_argument(
        "--against-gnugo", action="store_true", help="the built-in AI plays GNU Go (level 1), not itself"
    )
    args = parser.parse_args()
    program = find_gnugo()
    if program is None:
        parser.error("GNU Go is not installed (apt-get install gnugo, or set $SCRABBLE_GNUGO)")
    opponent = str(program) if args.against_gnugo else None
    games = [
        play_game(args.size, args.playouts, args.seed * 100_003 + number, opponent)
        for number in range(args.games)
    ]
    theirs = [gnugo_dead(str(program), game) for game in games]
    ours = [Thinker().statuses(game, random.Random(number)).dead for number, game in enumerate(games)]
    baseline = baseline_dead(args.baseline, games) if args.baseline else None
    for number, game in enumerate(games):
        line = (
            f"game={number} moves={len(game.moves)} gnugo_dead={len(theirs[number])} "
            f"ours_agree={int(ours[number] == theirs[number])}"
        )
        if baseline is not None:
            line += f" baseline_agree={int(baseline[number] == theirs[number])}"
        print(line, flush=True)
    agree = sum(mine == gnu for mine, gnu in zip(ours, theirs, strict=True))
    summary = f"games={len(games)} agree={agree} agreement={agree / len(games):.3f}"
    if baseline is not None:
        base = sum(old == gnu for old, gnu in zip(baseline, theirs, strict=True))
        summary += f" baseline_agree={base} baseline_agreement={base / len(games):.3f}"
    with_dead = sum(bool(dead) for dead in theirs)
    mean_moves = sum(len(game.moves) for game in games) / len(games)
    print(f"{summary} games_with_dead={with_dead} mean_moves={mean_moves:.1f} load={os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
