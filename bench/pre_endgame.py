"""Pre-endgame benchmark: the expert's pre-endgame (1 or 2 tiles in the bag, every deal played out with
the endgame solver at its end) within a time, for this tree and an older version of the code in one run.

    python bench/pre_endgame.py --positions 8 --seed 1 [--seconds 2] [--baseline DIR]

Position ``i`` is the board of a ``hard`` vs ``hard`` game seeded ``f"{seed}-{i}"`` when its bag first
holds 1 or 2 tiles (played by this tree; every code plays the same positions), seen by the seat to move.
Each code runs in a process of its own, as in ``bench/endgame.py``: ``current`` (this tree) and, with
``--baseline DIR`` (another version with its extension built in place), ``baseline``.

With a deadline the pre-endgame plays every deal in passes, each pass searching each endgame with
:data:`~scrabble_core.pre_endgame.PASS_GROWTH` times the positions of the last; the last complete pass
decides. For each position a line with the move, the positions per endgame of the last complete pass,
the endgames of that pass solved exactly, and the time; then one line per code:

    code=<name> positions=<int> median_pass_nodes=<float> exact=<int>/<int> median_ms=<float>

then ``load1``. The figures are read by wrapping the module's endgame solver and pass (bench only).
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
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def positions(count: int, seed: int) -> list[dict[str, Any]]:
    """The seat views of the run (see the module docstring), as ``SeatView.to_dict``."""
    from scrabble_core.ai import Level, choose_move
    from scrabble_core.ai_types import seat_view
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
        while len(game.bag) > 2 and not game.is_over:
            move = choose_move(seat_view(game, game.current), generator, Level.HARD, random.Random(0))
            game.push(game.current, move)
        if game.is_over or not game.bag:
            print(f"{name}: the bag never held 1 or 2 tiles, skipped")
            continue
        found.append({"name": name, "view": seat_view(game, game.current).to_dict()})
    return found


def solve_all(items: list[dict[str, Any]], seconds: float) -> list[dict[str, Any]]:
    """The pre-endgame of every position with the ``scrabble_core`` this process imports, within
    ``seconds`` each."""
    import scrabble_core.pre_endgame as module
    from scrabble_core.ai_types import SeatView
    from scrabble_core.equity import default_leave_model
    from scrabble_core.lexicon import load_enable
    from scrabble_core.movegen import load_move_generator

    generator = load_move_generator(load_enable())
    model = default_leave_model()
    namespace = vars(module)  # the module's own names, wrapped to count (bench only)
    solve, run_pass = namespace["solve_endgame"], namespace["_pass"]
    passes: list[tuple[int, list[bool]]] = []

    def counting_solve(*args: Any, **kwargs: Any) -> Any:
        result = solve(*args, **kwargs)
        passes[-1][1].append(result.exact)
        return result

    def counting_pass(playout: Any, ranked: Any, dealt: Any, nodes: int, *args: Any) -> Any:
        passes.append((nodes, []))
        done = run_pass(playout, ranked, dealt, nodes, *args)
        if done is None:
            passes.pop()
        return done

    namespace.update(solve_endgame=counting_solve, _pass=counting_pass)
    results = []
    for item in items:
        view = SeatView.from_dict(item["view"])
        passes.clear()
        started = time.perf_counter()
        found = module.pre_endgame(view, generator, model, random.Random(0), time.monotonic() + seconds)
        elapsed = (time.perf_counter() - started) * 1000
        nodes, exact = passes[-1] if passes else (0, [])
        results.append(
            {
                "move": str(found.move),
                "nodes": nodes,
                "exact": sum(exact),
                "endgames": len(exact),
                "ms": elapsed,
            }
        )
    return results


def main() -> None:
    """Parse the command line, play the positions with each code, print the lines described above."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=2.0, help="the pre-endgame's time a move")
    parser.add_argument("--baseline", type=Path, help="also play with the code in this directory")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--positions-file", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker is not None:
        sys.path.insert(0, args.worker)
        items = json.loads(Path(args.positions_file).read_text(encoding="utf-8"))
        print(json.dumps(solve_all(items, args.seconds)))
        return
    sys.path.insert(0, str(ROOT))
    items = positions(args.positions, args.seed)
    positions_file = ROOT / "bench" / f".pre-endgame-positions-{os.getpid()}.json"
    positions_file.write_text(json.dumps(items), encoding="utf-8")
    codes = [("current", ROOT)] + ([("baseline", args.baseline.resolve())] if args.baseline else [])
    try:
        for name, code in codes:
            command = [sys.executable, str(Path(__file__).resolve()), "--worker", str(code)]
            command += ["--positions-file", str(positions_file), "--seconds", str(args.seconds)]
            output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
            results = json.loads(output.strip().splitlines()[-1])
            for item, result in zip(items, results, strict=True):
                print(
                    f"{name} {item['name']}: bag={item['view']['bag_size']} move={result['move']} "
                    f"pass_nodes={result['nodes']} exact={result['exact']}/{result['endgames']} "
                    f"ms={result['ms']:.0f}"
                )
            print(
                f"code={name} positions={len(results)} "
                f"median_pass_nodes={statistics.median(r['nodes'] for r in results):.0f} "
                f"exact={sum(r['exact'] for r in results)}/{sum(r['endgames'] for r in results)} "
                f"median_ms={statistics.median(r['ms'] for r in results):.0f}"
            )
    finally:
        positions_file.unlink()
    print(f"load1={os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
