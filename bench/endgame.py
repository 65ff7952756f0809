"""Endgame benchmark: the solver against plain minimax on positions of seeded self-play, ENABLE, and the
full racks within a time, for this tree and an older version of the code in one run.

    python bench/endgame.py --positions 16 --seed 1 [--mover 2 --other 1] [--full-seconds 1]
                            [--baseline DIR]

Position ``i`` is the board of a ``hard`` vs ``hard`` game seeded ``f"{seed}-{i}"`` when its bag first
empties (played by this tree; every code solves the same positions). Each code runs in a process of
its own: ``current`` (this tree: the native solver where the extension is built) and, with
``--baseline DIR`` (another version, e.g. ``git archive main | tar -x -C DIR`` with its extension built
in place), ``baseline``.

Cut-down cases: the racks cut down to ``--mover`` and ``--other`` tiles (drawn, seeded, from the real
racks) so that plain minimax (:func:`scrabble_core.endgame.minimax_value`: every line, no pruning,
this tree's) finishes; for each position a line with the exact value, the solver's value, move, depth
and both times, then one line per code:

    code=<name> positions=<int> matched=<int> solver_median_ms=<float> solver_max_ms=<float>
    minimax_median_ms=<float>

With ``--full-seconds``, each code also solves each position with the full racks within that many
seconds (wall clock) and prints a line per position and one per code:

    code=<name> full_exact=<int>/<positions> full_median_depth=<float> full_median_ms=<float>
    full_median_nodes_per_s=<float>

(an exact answer is one found within the time: the search stops there). With a baseline, the ratio of
the median positions a second follows, then ``load1``. The exit status is 1 if any value of a cut-down
case differs from minimax's.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Position:
    """A position: its board, both full racks, the cut-down racks and their exact value by minimax."""

    name: str
    rows: list[str]
    rack: str
    other: str
    small: str
    small_other: str
    exact: int
    minimax_ms: float


@dataclass(frozen=True)
class Solved:
    """What a solver found for a position: its move, value, exactness, depth, positions and time."""

    move: str
    value: int
    exact: bool
    depth: int
    nodes: int
    ms: float


def end_positions(count: int, seed: int, mover: int, other: int) -> list[Position]:
    """The positions of the run (see the module docstring), with the exact values of the cut-down cases."""
    from scrabble_core.ai import Level, choose_move, seat_view
    from scrabble_core.endgame import minimax_value
    from scrabble_core.game import Game
    from scrabble_core.lexicon import load_enable
    from scrabble_core.movegen import load_move_generator
    from scrabble_core.variant import get_variant

    lexicon = load_enable()
    generator = load_move_generator(lexicon)
    found = []
    for index in range(count):
        name = f"{seed}-{index}"
        game = Game(get_variant("standard"), ["a", "b"], rng=random.Random(name), lexicon=lexicon)
        while game.bag and not game.is_over:
            move = choose_move(seat_view(game, game.current), generator, Level.HARD, random.Random(0))
            game.push(game.current, move)
        if game.is_over:
            print(f"{name}: the game ended before the bag emptied, skipped")
            continue
        rack, rest = game.players[game.current].rack, game.players[1 - game.current].rack
        draw = random.Random(name)
        small = "".join(draw.sample(rack, min(mover, len(rack))))
        small_other = "".join(draw.sample(rest, min(other, len(rest))))
        started = time.perf_counter()
        exact = minimax_value(game.board, small, small_other, generator)
        found.append(
            Position(
                name,
                game.board.rows_text(),
                rack,
                rest,
                small,
                small_other,
                exact,
                (time.perf_counter() - started) * 1000,
            )
        )
    return found


def solve_all(positions: list[Position], full_seconds: float | None) -> list[tuple[Solved, Solved | None]]:
    """Solve every position with the ``scrabble_core`` this process imports: the cut-down case, and the
    full racks within ``full_seconds``."""
    from scrabble_core.board import Board
    from scrabble_core.endgame import solve_endgame
    from scrabble_core.lexicon import load_enable
    from scrabble_core.movegen import load_move_generator
    from scrabble_core.variant import get_variant

    lexicon = load_enable()
    generator = load_move_generator(lexicon)
    variant = get_variant("standard")
    results: list[tuple[Solved, Solved | None]] = []
    for position in positions:
        board = Board.from_rows(variant, position.rows)
        started = time.perf_counter()
        small = solve_endgame(board, position.small, position.small_other, generator)
        cut = Solved(
            str(small.move),
            small.value,
            small.exact,
            small.depth,
            small.nodes,
            (time.perf_counter() - started) * 1000,
        )
        full = None
        if full_seconds is not None:
            started = time.perf_counter()
            deadline = time.monotonic() + full_seconds
            whole = solve_endgame(board, position.rack, position.other, generator, deadline=deadline)
            full = Solved(
                str(whole.move),
                whole.value,
                whole.exact,
                whole.depth,
                whole.nodes,
                (time.perf_counter() - started) * 1000,
            )
        results.append((cut, full))
    return results


def run_code(
    code: Path, positions_file: Path, full_seconds: float | None
) -> list[tuple[Solved, Solved | None]]:
    """:func:`solve_all` in a process of its own importing the code in ``code``."""
    command = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--worker",
        str(code),
        "--positions-file",
        str(positions_file),
    ]
    if full_seconds is not None:
        command += ["--full-seconds", str(full_seconds)]
    output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return [
        (Solved(**cut), None if full is None else Solved(**full))
        for cut, full in json.loads(output.strip().splitlines()[-1])
    ]


def report(
    name: str, positions: list[Position], results: list[tuple[Solved, Solved | None]]
) -> tuple[int, float]:
    """Print the lines of one code (see the module docstring): the mismatches with minimax, and the median
    positions a second with full racks (0 without them)."""
    matched = 0
    for position, (cut, full) in zip(positions, results, strict=True):
        matched += cut.exact and cut.value == position.exact
        print(
            f"{name} {position.name}: {position.small} vs {position.small_other} exact={position.exact} "
            f"solver={cut.value} move={cut.move} depth={cut.depth} nodes={cut.nodes} solver_ms={cut.ms:.1f} "
            f"minimax_ms={position.minimax_ms:.1f}"
        )
        if full is not None:
            print(
                f"  {name} full {position.rack} vs {position.other}: move={full.move} value={full.value} "
                f"depth={full.depth} exact={full.exact} nodes={full.nodes} ms={full.ms:.0f}"
            )
    solver_ms = [cut.ms for cut, _ in results]
    print(
        f"code={name} positions={len(results)} matched={matched} solver_median_ms={statistics.median(solver_ms):.1f} "
        f"solver_max_ms={max(solver_ms):.1f} "
        f"minimax_median_ms={statistics.median(position.minimax_ms for position in positions):.1f}"
    )
    fulls = [full for _, full in results if full is not None]
    if not fulls:
        return len(results) - matched, 0.0
    rate = statistics.median(full.nodes / full.ms * 1000 for full in fulls)
    print(
        f"code={name} full_exact={sum(full.exact for full in fulls)}/{len(fulls)} "
        f"full_median_depth={statistics.median(full.depth for full in fulls):.1f} "
        f"full_median_ms={statistics.median(full.ms for full in fulls):.0f} full_median_nodes_per_s={rate:.0f}"
    )
    return len(results) - matched, rate


def main() -> None:
    """Parse the command line, solve the positions with each code, print the lines described above."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=16)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--mover", type=int, default=2, help="tiles kept on the mover's rack (default 2)")
    parser.add_argument("--other", type=int, default=1, help="tiles kept on the other rack (default 1)")
    parser.add_argument("--full-seconds", type=float, help="also solve the full racks within this time")
    parser.add_argument("--baseline", type=Path, help="also solve with the code in this directory")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--positions-file", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker is not None:
        sys.path.insert(0, args.worker)
        data = json.loads(Path(args.positions_file).read_text(encoding="utf-8"))
        solved = solve_all([Position(**item) for item in data], args.full_seconds)
        print(json.dumps([(asdict(cut), None if full is None else asdict(full)) for cut, full in solved]))
        return
    sys.path.insert(0, str(ROOT))
    positions = end_positions(args.positions, args.seed, args.mover, args.other)
    positions_file = ROOT / "bench" / f".endgame-positions-{os.getpid()}.json"
    positions_file.write_text(json.dumps([asdict(position) for position in positions]), encoding="utf-8")
    codes = [("current", ROOT)] + ([("baseline", args.baseline.resolve())] if args.baseline else [])
    failed = 0
    rates = {}
    try:
        for name, code in codes:
            mismatches, rates[name] = report(
                name, positions, run_code(code, positions_file, args.full_seconds)
            )
            failed += mismatches
    finally:
        positions_file.unlink()
    if rates.get("baseline"):
        print(f"ratio full_median_nodes_per_s={rates['current'] / rates['baseline']:.1f}")
    print(f"load1={os.getloadavg()[0]:.2f}")
    if failed:
        sys.exit(1)


if __name__ == "__main__":
    main()
