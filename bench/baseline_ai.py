"""A move server for self-play against another version of the code (``bench/selfplay.py --b-code DIR``).

    python bench/baseline_ai.py DIR [LEAVES_FILE]

Imports ``scrabble_core`` from ``DIR`` (a copy of another version, its extension built in place), loads
ENABLE, that code's move generator and a leave model (``LEAVES_FILE``, else that code's bundled one),
then answers each JSON line on its standard input with one line on its standard output, the move in
GCG. A request is ``{"view": <SeatView.to_dict()>, "level": <level>, "seed": <int>, "seconds": <float
or null>, "iterations": <int>, "endgame_nodes": <int>}``: the move of ``level`` for that view with
``random.Random(seed)``, searched for ``seconds`` from the moment the request is read, or without a
deadline within that code's ``ExpertBudget(iterations, endgame_nodes)``. An empty line ends it.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path


def main() -> None:
    """Serve moves (see the module docstring)."""
    code = Path(sys.argv[1]).resolve()
    sys.path.insert(0, str(code))
    from scrabble_core.ai import ExpertBudget, Level, SeatView, choose_move
    from scrabble_core.leaves import load_leave_model
    from scrabble_core.lexicon import load_enable
    from scrabble_core.movegen import load_move_generator

    lexicon = load_enable()
    generator = load_move_generator(lexicon)
    leaves = load_leave_model(Path(sys.argv[2]) if len(sys.argv) > 2 else None)
    print("ready", flush=True)
    for line in sys.stdin:
        if not line.strip():
            break
        request = json.loads(line)
        started = time.monotonic()
        deadline = None if request["seconds"] is None else started + request["seconds"]
        move = choose_move(
            SeatView.from_dict(request["view"]),
            generator,
            Level(request["level"]),
            random.Random(request["seed"]),
            deadline,
            leaves=leaves,
            budget=ExpertBudget(request["iterations"], request["endgame_nodes"]),
        )
        print(move.gcg(), flush=True)


if __name__ == "__main__":
    main()
