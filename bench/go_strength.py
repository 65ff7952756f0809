"""The built-in Go AI's strength: games against GNU Go over GTP, colours alternated.

    python bench/go_strength.py [--size 9] [--games 100] [--gnugo-level 1] [--seconds 5]
                                [--playouts N | --level easy|medium|hard] [--jobs 1] [--seed 1]

The built-in AI (:class:`go_core.ai.Thinker`, its tree kept from move to move) plays in this process
with ``--seconds`` a move and at most ``--playouts`` playouts (default: the ``--level``'s budget,
``hard`` unless given). GNU Go (``$SCRABBLE_GNUGO`` or ``/usr/games/gnugo``, ``--mode gtp --level L
--chinese-rules``) plays the other colour; the engine's :class:`go_core.Game` referees (a GNU Go move
that positional superko forbids counts as its pass). The built-in AI is Black in even-numbered games.
A game ends with two passes in a row (GNU Go's ``final_score`` counts it, by area with komi 7.5), a
resignation, or ``--max-moves`` moves (counted the same way).

Time a move is distorted by the machine's load: a fixed budget of playouts (``--playouts N`` with
``--seconds`` large) measures strength independently of it. ``--jobs`` plays that many games at once
in separate processes. Prints one line a game, then:

    games=<int> wins=<int> win_rate=<float> wilson95=<low>-<high> size=<int> gnugo_level=<int>
    playouts=<int> seconds=<float> mean_playouts_per_move=<float> mean_seconds_per_move=<float>
    load=<1-minute load average at the start>/<at the end>
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.games.go.engines import find_gnugo
from bot.games.go.gtp_client import GtpClient
from go_core import Color, Game, Phase, format_move, parse_move
from go_core.ai import LEVEL_PLAYOUTS, RESIGN, Budget, Thinker

GTP_SECONDS = 600.0


@dataclass(frozen=True)
class Settings:
    """One match's settings."""

    size: int
    gnugo: str
    gnugo_level: int
    playouts: int
    seconds: float
    komi: float
    max_moves: int
    seed: int


@dataclass(frozen=True)
class Outcome:
    """One game's result for the built-in AI."""

    number: int
    ai_color: Color
    result: str
    won: bool
    moves: int
    ai_moves: int
    ai_seconds: float
    ai_playouts: int


def play_game(settings: Settings, number: int) -> Outcome:
    """Game ``number`` of the match (the built-in AI is Black when ``number`` is even)."""
    ai_color = Color.BLACK if number % 2 == 0 else Color.WHITE
    game = Game(settings.size, komi=settings.komi)
    thinker = Thinker()
    rng = random.Random(settings.seed * 100_003 + number)
    budget = Budget(seconds=settings.seconds, playouts=settings.playouts)
    argv = [settings.gnugo, "--mode", "gtp", "--level", str(settings.gnugo_level), "--chinese-rules"]
    ai_moves, ai_seconds, ai_playouts = 0, 0.0, 0
    result = ""
    with GtpClient([*argv, "--seed", str(settings.seed + number)]) as gnugo:
        for command in (f"boardsize {settings.size}", "clear_board", f"komi {settings.komi:g}"):
            gnugo.send(command, GTP_SECONDS)
        while game.phase is Phase.PLAY and len(game.moves) < settings.max_moves:
            color = game.to_move
            if color is ai_color:
                started = time.monotonic()
                move = thinker.choose(game, rng, budget)
                ai_seconds += time.monotonic() - started
                ai_moves += 1
                ai_playouts += thinker.last_share.playouts if thinker.last_share else 0
                if move == RESIGN:
                    result = f"{color.opponent.value}+R"
                    break
                point = move
                gnugo.send(f"play {color.value} {format_move(point)}", GTP_SECONDS)
            else:
                answer = gnugo.send(f"genmove {color.value}", GTP_SECONDS)
                if answer.lower() == "resign":
                    result = f"{color.opponent.value}+R"
                    break
                point = parse_move(answer, settings.size)
                if point is not None and not game.is_legal(point, color):
                    gnugo.send("undo", GTP_SECONDS)
                    gnugo.send(f"play {color.value} pass", GTP_SECONDS)
                    point = None
            if point is None:
                game.pass_turn()
            else:
                game.play(point)
        if not result:
            result = gnugo.send("final_score", GTP_SECONDS)
    won = result != "0" and result[0] == ai_color.value
    return Outcome(number, ai_color, result, won, len(game.moves), ai_moves, ai_seconds, ai_playouts)


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default)."""
    if not games:
        return 0.0, 1.0
    rate = wins / games
    centre = rate + z * z / (2 * games)
    spread = z * math.sqrt(rate * (1 - rate) / games + z * z / (4 * games * games))
    scale = 1 + z * z / games
    return (centre - spread) / scale, (centre + spread) / scale


def main() -> None:
    """Parse the arguments, play the match and print its lines."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--gnugo-level", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=5.0, help="the built-in AI's time a move")
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--playouts", type=int, help="the built-in AI's playouts a move")
    budget.add_argument("--level", choices=list(LEVEL_PLAYOUTS), help="the playouts of this level")
    parser.add_argument("--komi", type=float, default=7.5)
    parser.add_argument("--max-moves", type=int, help="stop and count after this many (default 3 * size²)")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    gnugo = find_gnugo()
    if gnugo is None:
        parser.error("GNU Go is not installed (apt-get install gnugo, or set $SCRABBLE_GNUGO)")
    playouts = args.playouts or LEVEL_PLAYOUTS[args.level or "hard"]
    settings = Settings(
        size=args.size,
        gnugo=str(gnugo),
        gnugo_level=args.gnugo_level,
        playouts=playouts,
        seconds=args.seconds,
        komi=args.komi,
        max_moves=args.max_moves or 3 * args.size * args.size,
        seed=args.seed,
    )
    load_before = os.getloadavg()[0]
    outcomes: list[Outcome] = []
    with multiprocessing.Pool(args.jobs) as pool:
        games = [(settings, number) for number in range(args.games)]
        for outcome in (
            pool.starmap(play_game, games, chunksize=1)
            if args.jobs > 1
            else (play_game(*game) for game in games)
        ):
            outcomes.append(outcome)
            print(
                f"game={outcome.number} ai={outcome.ai_color.name.lower()} result={outcome.result} "
                f"won={int(outcome.won)} moves={outcome.moves} "
                f"ai_seconds_per_move={outcome.ai_seconds / max(outcome.ai_moves, 1):.2f}",
                flush=True,
            )
    wins = sum(outcome.won for outcome in outcomes)
    low, high = wilson(wins, len(outcomes))
    ai_moves = sum(outcome.ai_moves for outcome in outcomes) or 1
    print(
        f"games={len(outcomes)} wins={wins} win_rate={wins / max(len(outcomes), 1):.3f} "
        f"wilson95={low:.3f}-{high:.3f} size={args.size} gnugo_level={args.gnugo_level} "
        f"playouts={playouts} seconds={args.seconds:g} "
        f"mean_playouts_per_move={sum(o.ai_playouts for o in outcomes) / ai_moves:.0f} "
        f"mean_seconds_per_move={sum(o.ai_seconds for o in outcomes) / ai_moves:.2f} "
        f"load={load_before:.2f}/{os.getloadavg()[0]:.2f}"
    )


if __name__ == "__main__":
    main()
