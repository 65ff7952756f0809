"""Fit the leave model (:mod:`scrabble_core.leaves`) on the project's own self-play games.

    python scripts/fit_leaves.py --games 2000 --seed 1 [--policy greedy|hard] [--minutes 20] [--jobs 1]
                                 [--out assets/leaves/english.json]

Method.

1. Self-play: two-player games on the ``standard`` variant with ENABLE, both seats played by
   ``--policy`` (``greedy``, the highest-scoring play, for a first fit; ``hard`` with the current model
   to refine it). Game ``i`` is seeded ``f"{seed}-{i}"``. ``--minutes`` stops starting new games once the
   time is up, so the games actually played are counted and recorded.
2. Samples: every move made while at least ``rack_size`` tiles remain in the bag after it gives one
   sample ``(leave, y)``, where the leave is the tiles the player kept and ``y`` the points the same
   player scores on their next turn (0 for an exchange or a pass). A move after which the player gets
   no further turn gives no sample.
3. Fit: ``y`` is regressed on the leave's features (:func:`scrabble_core.leaves.leave_features`:
   per-tile counts, extra copies per letter, the vowel/consonant cell, a few synergies) by ridge least
   squares (normal equations solved in pure Python, penalty ``--ridge`` on every weight but the balance
   cells, which act as intercepts; a tiny one on those so empty cells stay defined).
4. Centering: the prediction for the empty leave (drawing a whole new rack) is subtracted from every
   balance cell, so a leave's value is the points it adds to the next turn *compared with drawing
   fresh tiles*; the empty leave is worth 0.

The result is written as JSON with its provenance (games, samples, seed, date, method, policy, lexicon,
variant, seconds, residual standard deviation and, for ``hard`` self-play, the provenance of the model
those players used: ``policy_leaves``).

The bundled ``assets/leaves/english.json`` was made in two rounds, the asset's provenance recording
both: ``--policy greedy --seed 1 --games 6000 --minutes 15`` (5157 games played in the time, 93,450
samples), installed as the bundled model, then ``--policy hard --seed 2 --games 6000 --minutes 10``
(2964 games, 49,461 samples) with those leaves. Games are seeded, so ``--games 5157 --minutes 999``
replays exactly the games of the first round.
"""

from __future__ import annotations

import argparse
import datetime
import json
import multiprocessing
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO_ROOT))

from scrabble_core.ai import Level, MoveSource, default_leave_model  # noqa: E402
from scrabble_core.leaves import GROUPS, LeaveModel, leave_features, load_leave_model  # noqa: E402
from scrabble_core.lexicon import Lexicon, load_enable  # noqa: E402
from scrabble_core.movegen import load_move_generator  # noqa: E402
from scrabble_core.selfplay import GameRecord, play_game  # noqa: E402
from scrabble_core.variant import Variant, get_variant  # noqa: E402

VOWELS = "AEIOU"
SYNERGIES = ("QU", "ER", "ES", "ED", "IN", "ING", "ST", "?S")
BALANCE_RIDGE = 0.01

Sample = tuple[str, float]


@dataclass(frozen=True)
class _Worker:
    """What a pool process loads once: the lexicon, the move generator, the variant, the policy."""

    lexicon: Lexicon
    generator: MoveSource
    variant: Variant
    level: Level


_WORKER: list[_Worker] = []


def samples_of(record: GameRecord, rack_size: int) -> Iterator[Sample]:
    """The ``(leave, next-turn points)`` samples of one game (see step 2 of the method)."""
    turns = record.turns
    for index, turn in enumerate(turns):
        if turn.bag_before - (len(turn.rack) - len(turn.leave)) < rack_size or turn.move == "-":
            continue
        following = next((later for later in turns[index + 1 :] if later.seat == turn.seat), None)
        if following is not None:
            yield turn.leave, float(following.score if not following.move.startswith("-") else 0)


def fit(samples: list[Sample], ridge: float) -> dict[str, dict[str, float]]:
    """Ridge least-squares weights of the leave features for ``samples``, centered (steps 3 and 4).

    Raises:
        ValueError: no samples.
    """
    if not samples:
        raise ValueError("no samples to fit")
    rows = [leave_features(leave, VOWELS, SYNERGIES) for leave, _ in samples]
    names = sorted({feature for row in rows for feature in row})
    index = {feature: i for i, feature in enumerate(names)}
    size = len(names)
    gram = [[0.0] * size for _ in range(size)]
    rhs = [0.0] * size
    for row, (_, target) in zip(rows, samples, strict=True):
        items = [(index[feature], float(count)) for feature, count in row.items()]
        for i, x in items:
            rhs[i] += x * target
            for j, z in items:
                gram[i][j] += x * z
    for feature, i in index.items():
        gram[i][i] += BALANCE_RIDGE if feature[0] == "balance" else ridge
    solution = _solve(gram, rhs)
    weights: dict[str, dict[str, float]] = {group: {} for group in GROUPS}
    for (group, name), value in zip(names, solution, strict=True):
        weights[group][name] = value
    empty = weights["balance"].get("0/0", 0.0)
    weights["balance"] = {cell: value - empty for cell, value in weights["balance"].items()}
    return {
        group: {name: round(value, 3) for name, value in table.items()} for group, table in weights.items()
    }


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """Solve ``matrix @ x = vector`` by Gaussian elimination with partial pivoting (copies the input)."""
    size = len(vector)
    a = [[*row, vector[i]] for i, row in enumerate(matrix)]
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        head = a[col][col]
        for r in range(col + 1, size):
            factor = a[r][col] / head
            if factor:
                a[r] = [x - factor * y for x, y in zip(a[r], a[col], strict=True)]
    solution = [0.0] * size
    for r in reversed(range(size)):
        solution[r] = (a[r][size] - sum(a[r][c] * solution[c] for c in range(r + 1, size))) / a[r][r]
    return solution


def _init_worker(policy: str) -> None:
    lexicon = load_enable()
    _WORKER.append(_Worker(lexicon, load_move_generator(lexicon), get_variant("standard"), Level(policy)))


def _play(task: tuple[str, float]) -> list[Sample] | None:
    """The samples of game ``seed``; ``None`` (no game) once the monotonic clock passed ``stop``."""
    seed, stop = task
    if time.monotonic() >= stop:
        return None
    worker = _WORKER[0]
    record = play_game(worker.variant, worker.lexicon, worker.generator, [worker.level] * 2, seed)
    return list(samples_of(record, worker.variant.rack_size))


def main() -> None:
    """Parse the command line, play the games, fit and write the model."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--policy", choices=["greedy", "hard"], default="greedy")
    parser.add_argument("--minutes", type=float, default=20.0, help="stop starting games after this")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--ridge", type=float, default=5.0)
    parser.add_argument("--out", type=Path, default=REPO_ROOT / "assets" / "leaves" / "english.json")
    args = parser.parse_args()
    started = time.monotonic()
    stop = started + args.minutes * 60
    samples: list[Sample] = []
    games = 0
    tasks = [(f"{args.seed}-{i}", stop) for i in range(args.games)]
    with multiprocessing.get_context("spawn").Pool(args.jobs, _init_worker, (args.policy,)) as pool:
        for game_samples in pool.imap(_play, tasks):
            if game_samples is None:
                continue
            samples.extend(game_samples)
            games += 1
            if games % 50 == 0:
                print(
                    f"{games} games, {len(samples)} samples, {time.monotonic() - started:.0f} s", flush=True
                )
    weights = fit(samples, args.ridge)
    model = LeaveModel(
        VOWELS,
        weights,
        {
            "games": games,
            "samples": len(samples),
            "seed": args.seed,
            "date": datetime.date.today().isoformat(),
            "method": f"scripts/fit_leaves.py: next-turn points of {args.policy} self-play, ridge {args.ridge}",
            "policy": args.policy,
            "lexicon": "ENABLE",
            "variant": "standard",
            "seconds": round(time.monotonic() - started),
            "residual_sd": round(_residual_sd(samples, weights), 2),
            "policy_leaves": _policy_leaves(args.policy),
        },
    )
    data = model.to_dict()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    load_leave_model(args.out)
    print(f"wrote {args.out}: {games} games, {len(samples)} samples")


def _policy_leaves(policy: str) -> dict[str, object] | None:
    """For ``hard`` self-play, the provenance of the bundled model its players used; else ``None``."""
    if policy != Level.HARD:
        return None
    used = default_leave_model().provenance
    return {key: used[key] for key in ("games", "samples", "seed", "policy", "date") if key in used}


def _residual_sd(samples: list[Sample], weights: dict[str, dict[str, float]]) -> float:
    """Standard deviation of ``y - prediction`` (up to the centering constant, which it removes)."""
    model = LeaveModel(VOWELS, weights, {})
    residuals = [target - model.evaluate(leave) for leave, target in samples]
    mean = sum(residuals) / len(residuals)
    return float((sum((r - mean) ** 2 for r in residuals) / len(residuals)) ** 0.5)


if __name__ == "__main__":
    main()
