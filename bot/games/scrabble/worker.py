"""Scrabble's part of an AI worker process (:mod:`bot.host.ai.jobs`): it loads the lexicon's move
generator and the leave model once (:func:`load`), then answers each job, a seat's view
(:class:`~scrabble_core.ai.SeatView`: the board, its own rack, the unseen tiles pooled, the scores;
never another seat's rack) with a level and a seed, by the move in GCG notation (:func:`answer`). The
functions the bot calls in its workers (hints, analyses, puzzles) get the move generator."""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from bot.games.scrabble.settings import scrabble_settings
from bot.host.ai.jobs import WorkerConfig
from scrabble_core.ai import Level, MoveSource, SeatView, choose_move, default_leave_model
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
