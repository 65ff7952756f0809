"""Scrabble's part of an AI worker process (:mod:`bot.host.ai.jobs`): it loads the lexicon's move
generator and the leave model once (:func:`load`), then answers each job, a seat's view
(:class:`~scrabble_core.ai.SeatView`: the board, its own rack, the unseen tiles pooled, the scores;
never another seat's rack) with a level and a seed, by the move in GCG notation (:func:`answer`). The
functions the bot calls in its workers (hints, analyses, puzzles) get the move generator.

Shares (the host's root parallelism, :mod:`bot.host.ai.jobs`): an ``expert`` turn splits into the
engine's shares (:func:`scrabble_core.expert.expert_share`, seeded with 64 bits drawn from a
:class:`random.Random` of the job's seed, as :func:`answer` seeds its one share), each sent back as JSON
(:meth:`~scrabble_core.expert.ExpertShare.to_dict`) and merged by
:func:`scrabble_core.expert.expert_merge`; so one share plays what :func:`answer` plays. A share other than
share 0 asked to end early (:func:`bot.host.ai.jobs.interrupted`) stops at its next iteration with what
it has. The other levels do not search in shares: share 0 answers the job as :func:`answer`, the others
at once with nothing."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from bot.games.scrabble.settings import scrabble_settings
from bot.host.ai import jobs
from bot.host.ai.jobs import WorkerConfig
from scrabble_core.ai import Level, MoveSource, SeatView, choose_move, default_leave_model, leave_model_for
from scrabble_core.expert import ExpertShare, expert_merge, expert_share
from scrabble_core.lexicon import ENGLISH_ALPHABET, load_lexicon
from scrabble_core.movegen import load_move_generator


def load_move_source(config: WorkerConfig) -> MoveSource:
    """The move generator of the config's lexicon (compiled in ``config.cache_dir`` if given).

    Raises:
        LexiconError: the lexicon cannot be loaded.
    """
    cache_dir = Path(config.cache_dir) if config.cache_dir is not None else None
    lexicon = load_lexicon(scrabble_settings(config.config).lexicon, ENGLISH_ALPHABET, cache_dir)
    return load_move_generator(lexicon, cache_dir)


def load(config: WorkerConfig) -> MoveSource:
    """Load the move generator, and the bundled leave model (once per process).

    Raises:
        LexiconError: the lexicon cannot be loaded; LeaveModelError: the leave model cannot.
    """
    default_leave_model()
    return load_move_source(config)


def view_job(view: SeatView, level: Level, seed: int) -> dict[str, Any]:
    """The data of the job that asks for ``level``'s move for ``view`` (seeded by ``seed``)."""
    return {"view": view.to_dict(), "level": level.value, "seed": seed}


def answer(generator: MoveSource, data: Mapping[str, Any], deadline: float) -> str:
    """The move in GCG of the job :func:`view_job` made, searched until ``deadline`` at most.

    Raises:
        VariantError, ScrabbleError, KeyError, ValueError: the data is not a job's.
    """
    view = SeatView.from_dict(data["view"])
    rng = random.Random(data["seed"])
    move = choose_move(view, generator, Level(data["level"]), rng, deadline, leaves=default_leave_model())
    return move.gcg()


def share(generator: MoveSource, data: Mapping[str, Any], deadline: float, index: int, count: int) -> str:
    """Share ``index`` of ``count`` of the job :func:`view_job` made, searched until ``deadline`` at
    most (see the module docstring): JSON for :func:`merge`.

    Raises:
        VariantError, ScrabbleError, KeyError, ValueError: the data is not a job's.
    """
    if Level(data["level"]) is not Level.EXPERT:
        return json.dumps({"move": answer(generator, data, deadline) if index == 0 else None})
    view = SeatView.from_dict(data["view"])
    seed = random.Random(data["seed"]).getrandbits(64)
    model = leave_model_for(view.variant, default_leave_model())
    clock = time.monotonic if index == 0 else _yielding_clock(deadline)
    part = expert_share(view, generator, model, seed, index, count, deadline, clock=clock)
    return json.dumps({"expert": part.to_dict()})


def merge(data: Mapping[str, Any], shares: Sequence[str]) -> str:
    """The move in GCG that the texts of a job's ``shares`` (:func:`share`'s, those that came back)
    choose together: the merge of the expert's shares, whatever their order; another level's share 0
    move.

    Raises:
        ValueError: the share that answers is missing, or the shares cannot be merged
            (:func:`~scrabble_core.expert.expert_merge`); KeyError, TypeError: a text is not a share's.
    """
    parts = [json.loads(text) for text in shares]
    if Level(data["level"]) is not Level.EXPERT:
        moves = [part["move"] for part in parts if part["move"] is not None]
        if not moves:
            raise ValueError("no share of the move answered it")
        return str(moves[0])
    return expert_merge([ExpertShare.from_dict(part["expert"]) for part in parts]).gcg()


def _yielding_clock(deadline: float) -> Callable[[], float]:
    """The clock of a share that yields: :func:`time.monotonic`, or ``deadline`` once the share is asked
    to end (:func:`bot.host.ai.jobs.interrupted`), so the search stops as when its time is up."""

    def clock() -> float:
        return deadline if jobs.interrupted() else time.monotonic()

    return clock
