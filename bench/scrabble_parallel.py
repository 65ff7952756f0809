"""Root parallelism of Scrabble's ``expert`` through the bot's AI worker pool: simulation iterations a
turn with one worker process and with two, one turn at a time (so every worker is idle when a turn
arrives and the turn is searched in as many shares).

    python bench/scrabble_parallel.py [--seconds 1.0] [--turns 7]

Both pools (:class:`bot.host.ai.executor.AiExecutor`, real worker processes over ENABLE) are started
first, then their turns alternate on the same positions, so that both see the same load. Turn ``n`` is
the ``expert`` job for the midgame view of move ``4 + n`` of a game of ``hard`` players (seeded
``--seed``), with ``--seconds`` of thinking; its iterations are those of the shares the executor merged.
The machine's own ratio is measured in the same run, alternating with the pools' turns: the same share
(:func:`scrabble_core.expert.expert_share`) in one plain process, then in two at once, without the
executor (on a shared, loaded machine it is below 2, and the pool's ratio is to be read against it).
One line a pool, then the ratios:

    workers=<int> shares_per_turn=<median> iterations_per_turn=<median> playouts_per_turn=<median>
        turn_seconds=<median>
        converged_turns=<turns where a share stopped early, one candidate left>
    ratio=<two workers' median iterations / one's> timed_ratio=<the median of the ratio of the playouts
        of a turn over the turns where no share of either pool converged: they measure the speed alone>
        timed_turns=<how many> machine_ratio=<two plain processes' median iterations / one's>
    load=<1-minute load average before> <after>
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.pool_turns import POOLS, Recorder, Turn, alternate
from bot.games import register_builtin
from bot.games.scrabble.kind import KIND
from bot.games.scrabble.worker import view_job
from bot.host.ai.executor import WorkerConfig
from scrabble_core.ai import Level, MoveSource, SeatView, choose_move, default_leave_model, seat_view
from scrabble_core.expert import SIMULATION, expert_share, phase
from scrabble_core.game import Game
from scrabble_core.lexicon import load_enable
from scrabble_core.movegen import load_move_generator
from scrabble_core.variant import get_variant

FIRST_MOVE = 4

_GENERATOR: list[MoveSource] = []
"""A plain process's move generator, loaded once (:func:`_load`)."""


def views(generator: MoveSource, seed: int, count: int) -> list[SeatView]:
    """The midgame views of moves ``FIRST_MOVE`` on of a game of ``hard`` players seeded ``seed``
    (fewer if the game reaches the pre-endgame first)."""
    game = Game(get_variant("standard"), ["a", "b"], rng=random.Random(seed), lexicon=load_enable())
    found: list[SeatView] = []
    while not game.is_over and len(found) < count:
        view = seat_view(game, game.current)
        if phase(view) != SIMULATION:
            break
        if len(game.history) >= FIRST_MOVE:
            found.append(view)
        game.push(game.current, choose_move(view, generator, Level.HARD, random.Random(0)))
    return found


def _load() -> None:
    _GENERATOR[:] = [load_move_generator(load_enable())]


def plain_share(view: dict[str, Any], seconds: float, seed: int) -> int:
    """The iterations of one share of the expert's turn on ``view`` for ``seconds``, in this process."""
    share = expert_share(
        SeatView.from_dict(view),
        _GENERATOR[0],
        default_leave_model(),
        seed,
        0,
        1,
        time.monotonic() + seconds,
    )
    assert share.stats is not None
    return share.stats.iterations


def read(recorder: Recorder) -> dict[str, float]:
    """The last merge's shares: their iterations and playouts (a candidate played out on a deal: the
    work, an iteration costing less as candidates are pruned) added up, and whether one stopped early,
    one candidate left (its turn's iterations then measure the position more than the speed)."""
    stats = [json.loads(text)["expert"]["stats"] for text in recorder.shares]
    return {
        "iterations": sum(part["iterations"] for part in stats),
        "playouts": sum(sum(part["counts"]) for part in stats),
        "converged": float(any(sum(part["active"]) == 1 for part in stats)),
    }


async def run(seconds: float, turns: int, seed: int) -> None:
    lexicon = load_enable()
    assert lexicon.trie_path is not None
    config = WorkerConfig(cache_dir=str(lexicon.trie_path.parent))
    played = [
        Turn(
            KIND,
            view_job(view, Level.EXPERT, turn),
            {
                count: [(view.to_dict(), seconds, turn * len(POOLS) + index + 1) for index in range(count)]
                for count in POOLS
            },
        )
        for turn, view in enumerate(views(load_move_generator(lexicon), seed, turns + 1))
    ]
    measured = await alternate(config, played, seconds, plain_share, read, initializer=_load)
    column = {
        name: {count: [numbers[name] for numbers in measured.numbers[count]] for count in POOLS}
        for name in ("iterations", "playouts", "converged")
    }
    for count in POOLS:
        print(
            f"workers={count} shares_per_turn={statistics.median(measured.shares[count]):g} "
            f"iterations_per_turn={statistics.median(column['iterations'][count]):.0f} "
            f"playouts_per_turn={statistics.median(column['playouts'][count]):.0f} "
            f"turn_seconds={statistics.median(measured.seconds[count]):.3f} "
            f"converged_turns={sum(column['converged'][count]):.0f}"
        )
    ratio = statistics.median(column["iterations"][2]) / statistics.median(column["iterations"][1])
    machine_ratio = statistics.median(measured.machine[2]) / statistics.median(measured.machine[1])
    timed = [
        two / one
        for one, two, stopped_one, stopped_two in zip(
            column["playouts"][1],
            column["playouts"][2],
            column["converged"][1],
            column["converged"][2],
            strict=True,
        )
        if not stopped_one and not stopped_two
    ]
    timed_ratio = f"{statistics.median(timed):.2f}" if timed else "none"
    before, after = measured.load
    print(
        f"ratio={ratio:.2f} timed_ratio={timed_ratio} timed_turns={len(timed)} "
        f"machine_ratio={machine_ratio:.2f} load={before:.2f} {after:.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=1.0, help="thinking time a turn")
    parser.add_argument("--turns", type=int, default=7, help="timed turns a pool")
    parser.add_argument("--seed", type=int, default=1, help="the seed of the game the positions come from")
    args = parser.parse_args()
    register_builtin()
    asyncio.run(run(args.seconds, args.turns, args.seed))


if __name__ == "__main__":
    main()
