"""Fit the leave model (:mod:`scrabble_core.leaves`) on the project's own self-play games.

    python scripts/fit_leaves.py --games 2000 --seed 1 [--policy greedy|hard] [--minutes 20] [--jobs 1]
                                 [--target next|bootstrap] [--save-corpus FILE] [--out assets/leaves/english.json]
    python scripts/fit_leaves.py --corpus FILE [--target next|bootstrap] [--out ...]

Method.

1. Self-play: two-player games on the ``standard`` variant with ENABLE, both seats played by
   ``--policy`` (``greedy``, the highest-scoring play, for a first fit; ``hard`` with the bundled model
   to refine it). Game ``i`` is seeded ``f"{seed}-{i}"``. ``--minutes`` stops starting new games once the
   time is up, so the games actually played are counted and recorded.
2. Samples: every move made while at least ``rack_size`` tiles remain in the bag after it gives one
   sample: the leave (the tiles the player kept), the points ``p`` the same player scores on their next
   turn (0 for an exchange or a pass) and ``v``, the value under the bundled model of the leave that
   next turn keeps (0 when the bag holds fewer than ``rack_size`` tiles after it: the model does not
   value endgame leaves). A move after which the player gets no further turn gives no sample. The
   corpus is kept per distinct leave (the count and the sums of ``p``, ``v``, their squares and
   product), which is all a least-squares fit reads; ``--save-corpus`` writes it, ``--corpus`` fits one
   saved.
3. Target: ``--target next`` regresses ``y = p``, the points the leave adds to the next turn;
   ``--target bootstrap`` regresses ``y = p + v``, the next turn's points plus what its own leave is
   worth, so a leave's value counts what it keeps on giving after one turn (one step of temporal
   difference on the bundled model).
4. Fit: ``y`` is regressed on the leave's features (:func:`scrabble_core.leaves.leave_features`:
   per-tile counts, extra copies per letter, the vowel/consonant cell, a few synergies) by ridge least
   squares (each distinct leave weighted by its count; normal equations solved in pure Python, penalty
   ``--ridge`` on every weight but the balance cells, which act as intercepts; a tiny one on those so
   empty cells stay defined).
5. Centering: the prediction for the empty leave (drawing a whole new rack) is subtracted from every
   balance cell, so a leave's value is the points it adds *compared with drawing fresh tiles*; the
   empty leave is worth 0.

The result is written as JSON with its provenance (games, samples, seed, date, method, policy, target,
lexicon, variant, seconds, residual standard deviation and, for ``hard`` self-play, the provenance of
the model those players used: ``policy_leaves``).

The bundled ``assets/leaves/english.json`` was fitted in three rounds, each played with the model of the
round before: ``--policy greedy --seed 1 --games 6000 --minutes 15`` (5157 games, 93,450 samples), then
``--policy hard --seed 2 --games 6000 --minutes 10`` (2964 games, 49,461 samples), then ``--policy hard
--seed 3 --games 200000 --minutes 240 --save-corpus FILE`` (200,000 games, 3,385,026 samples, 96,011
distinct leaves; 88 minutes on one core) fitted with ``--corpus FILE --target bootstrap``. Against the
second round's model, ``hard`` with it won 51.8% and 51.5% of two runs of 4,000 games (``bench/selfplay.py
--a hard --b hard --games 4000 --seed 21`` and ``22``, ``--a-leaves`` the new model, ``--b-leaves`` the old:
Wilson 95% 50.2-53.3% and 50.0-53.1%, mean spread +2.8 and +4.2); the same corpus fitted with ``--target
next`` won 50.6% (49.1-52.2%). Games are seeded, so the same ``--games`` and ``--seed`` replay exactly the
same games (with the same model playing them).
"""

from __future__ import annotations

import argparse
import datetime
import json
import multiprocessing
import sys
import time
from collections.abc import Iterator, Mapping
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
TARGETS = ("next", "bootstrap")

Sample = tuple[str, float, float]
"""A leave, the points of the next turn (``p``), the value of the leave that turn keeps (``v``)."""


@dataclass(slots=True)
class Sums:
    """What the samples of one leave add up to: their count and the sums of ``p``, ``v``, ``p*p``,
    ``v*v`` and ``p*v``."""

    count: int = 0
    p: float = 0.0
    v: float = 0.0
    pp: float = 0.0
    vv: float = 0.0
    pv: float = 0.0

    def add(self, p: float, v: float) -> None:
        self.count += 1
        self.p += p
        self.v += v
        self.pp += p * p
        self.vv += v * v
        self.pv += p * v

    def target(self, bootstrap: bool) -> tuple[float, float]:
        """The sums of ``y`` and ``y*y`` for the target (``y = p`` or ``y = p + v``)."""
        if not bootstrap:
            return self.p, self.pp
        return self.p + self.v, self.pp + 2 * self.pv + self.vv


Corpus = dict[str, Sums]
"""The samples by leave (tiles sorted)."""


@dataclass(frozen=True)
class _Worker:
    """What a pool process loads once: the lexicon, the move generator, the variant, the policy."""

    lexicon: Lexicon
    generator: MoveSource
    variant: Variant
    level: Level
    model: LeaveModel


_WORKER: list[_Worker] = []


def samples_of(record: GameRecord, rack_size: int, model: LeaveModel) -> Iterator[Sample]:
    """The ``(leave, p, v)`` samples of one game (see step 2 of the method); ``model`` values ``v``."""
    turns = record.turns
    for index, turn in enumerate(turns):
        if turn.bag_before - (len(turn.rack) - len(turn.leave)) < rack_size or turn.move == "-":
            continue
        following = next((later for later in turns[index + 1 :] if later.seat == turn.seat), None)
        if following is None:
            continue
        points = float(following.score if not following.move.startswith("-") else 0)
        bag_after = following.bag_before - (len(following.rack) - len(following.leave))
        kept = model.evaluate(following.leave) if bag_after >= rack_size else 0.0
        yield "".join(sorted(turn.leave)), points, kept


def corpus_of(samples: Iterator[Sample] | list[Sample]) -> Corpus:
    """The samples gathered by leave."""
    corpus: Corpus = {}
    for leave, p, v in samples:
        corpus.setdefault("".join(sorted(leave)), Sums()).add(p, v)
    return corpus


def fit(samples: list[tuple[str, float]], ridge: float) -> dict[str, dict[str, float]]:
    """Ridge least-squares weights of the leave features for ``(leave, y)`` samples, centered (steps 4
    and 5).

    Raises:
        ValueError: no samples.
    """
    corpus = corpus_of((leave, y, 0.0) for leave, y in samples)
    return fit_corpus(corpus, ridge, bootstrap=False)


def fit_corpus(corpus: Mapping[str, Sums], ridge: float, *, bootstrap: bool) -> dict[str, dict[str, float]]:
    """Ridge least-squares weights of the leave features for the target of ``corpus`` (``p``, or
    ``p + v`` with ``bootstrap``), each leave weighted by its count, centered (steps 3 to 5).

    Raises:
        ValueError: no samples.
    """
    if not corpus:
        raise ValueError("no samples to fit")
    rows = {leave: leave_features(leave, VOWELS, SYNERGIES) for leave in corpus}
    names = sorted({feature for row in rows.values() for feature in row})
    index = {feature: i for i, feature in enumerate(names)}
    size = len(names)
    gram = [[0.0] * size for _ in range(size)]
    rhs = [0.0] * size
    for leave, sums in corpus.items():
        total, _ = sums.target(bootstrap)
        items = [(index[feature], float(count)) for feature, count in rows[leave].items()]
        for i, x in items:
            rhs[i] += x * total
            for j, z in items:
                gram[i][j] += x * z * sums.count
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
    _WORKER.append(
        _Worker(
            lexicon,
            load_move_generator(lexicon),
            get_variant("standard"),
            Level(policy),
            default_leave_model(),
        )
    )


def _play(task: tuple[str, float]) -> list[Sample] | None:
    """The samples of game ``seed``; ``None`` (no game) once the monotonic clock passed ``stop``."""
    seed, stop = task
    if time.monotonic() >= stop:
        return None
    worker = _WORKER[0]
    record = play_game(worker.variant, worker.lexicon, worker.generator, [worker.level] * 2, seed)
    return list(samples_of(record, worker.variant.rack_size, worker.model))


def play_corpus(games: int, seed: int, policy: str, minutes: float, jobs: int) -> tuple[Corpus, int, int]:
    """Play the self-play games (step 1) and gather their samples: the corpus, the games played and
    the samples."""
    started = time.monotonic()
    stop = started + minutes * 60
    corpus: Corpus = {}
    played = samples = 0
    tasks = [(f"{seed}-{i}", stop) for i in range(games)]
    with multiprocessing.get_context("spawn").Pool(jobs, _init_worker, (policy,)) as pool:
        for game_samples in pool.imap(_play, tasks, chunksize=16):
            if game_samples is None:
                continue
            for leave, p, v in game_samples:
                corpus.setdefault(leave, Sums()).add(p, v)
            samples += len(game_samples)
            played += 1
            if played % 1000 == 0:
                print(f"{played} games, {samples} samples, {time.monotonic() - started:.0f} s", flush=True)
    return corpus, played, samples


def save_corpus(path: Path, corpus: Corpus, meta: Mapping[str, object]) -> None:
    """Write ``corpus`` and how it was made (``meta``) as JSON."""
    data = {
        "meta": dict(meta),
        "leaves": {leave: [s.count, s.p, s.v, s.pp, s.vv, s.pv] for leave, s in sorted(corpus.items())},
    }
    path.write_text(json.dumps(data) + "\n", encoding="utf-8")


def load_corpus(path: Path) -> tuple[Corpus, dict[str, object]]:
    """A corpus written by :func:`save_corpus` and its metadata."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return {leave: Sums(int(row[0]), *map(float, row[1:])) for leave, row in data["leaves"].items()}, data[
        "meta"
    ]


def main() -> None:
    """Parse the command line, play the games (or read a corpus), fit and write the model."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--policy", choices=["greedy", "hard"], default="greedy")
    parser.add_argument("--minutes", type=float, default=20.0, help="stop starting games after this")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--ridge", type=float, default=5.0)
    parser.add_argument("--target", choices=TARGETS, default="next")
    parser.add_argument("--corpus", type=Path, help="fit this saved corpus instead of playing games")
    parser.add_argument("--save-corpus", type=Path, help="write the corpus played to this file")
    parser.add_argument("--out", type=Path, default=REPO_ROOT / "assets" / "leaves" / "english.json")
    args = parser.parse_args()
    started = time.monotonic()
    if args.corpus is not None:
        corpus, meta = load_corpus(args.corpus)
    else:
        corpus, played, samples = play_corpus(args.games, args.seed, args.policy, args.minutes, args.jobs)
        meta = {
            "games": played,
            "samples": samples,
            "seed": args.seed,
            "policy": args.policy,
            "seconds": round(time.monotonic() - started),
            "policy_leaves": _policy_leaves(args.policy),
        }
        if args.save_corpus is not None:
            save_corpus(args.save_corpus, corpus, meta)
    bootstrap = args.target == "bootstrap"
    weights = fit_corpus(corpus, args.ridge, bootstrap=bootstrap)
    target = "next-turn points plus the value of that turn's leave" if bootstrap else "next-turn points"
    model = LeaveModel(
        VOWELS,
        weights,
        {
            **meta,
            "date": datetime.date.today().isoformat(),
            "method": f"scripts/fit_leaves.py: {target} of {meta['policy']} self-play, ridge {args.ridge}",
            "target": args.target,
            "lexicon": "ENABLE",
            "variant": "standard",
            "residual_sd": round(_residual_sd(corpus, weights, bootstrap), 2),
        },
    )
    data = model.to_dict()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    load_leave_model(args.out)
    print(f"wrote {args.out}: {meta['games']} games, {meta['samples']} samples, {len(corpus)} leaves")


def _policy_leaves(policy: str) -> dict[str, object] | None:
    """For ``hard`` self-play, the provenance of the bundled model its players used; else ``None``."""
    if policy != Level.HARD:
        return None
    used = default_leave_model().provenance
    return {key: used[key] for key in ("games", "samples", "seed", "policy", "target", "date") if key in used}


def _residual_sd(corpus: Mapping[str, Sums], weights: dict[str, dict[str, float]], bootstrap: bool) -> float:
    """Standard deviation of ``y - prediction`` over the samples (up to the centering constant, which it
    removes)."""
    model = LeaveModel(VOWELS, weights, {})
    count = total = squares = 0.0
    for leave, sums in corpus.items():
        y, yy = sums.target(bootstrap)
        prediction = model.evaluate(leave)
        count += sums.count
        total += y - sums.count * prediction
        squares += yy - 2 * prediction * y + sums.count * prediction * prediction
    mean = total / count
    return float(max(squares / count - mean * mean, 0.0) ** 0.5)


if __name__ == "__main__":
    main()
