"""Go's part of an AI worker process (:mod:`bot.host.ai.jobs`): nothing to load; a job is the game's
stored state (which hides nothing), the level, the engine (GNU Go or the built-in AI) and the seed, and
its answer is a point (``D4``), ``pass`` or ``resign``. A move splits into shares (:func:`share`,
:func:`merge`: the built-in AI's root parallelism, see :mod:`bot.games.go.ai_turns`)."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any, Final

from bot.games.go.ai_turns import choose_move_text, merged_move_text, share_text
from bot.host.ai.jobs import WorkerConfig

MIN_SECONDS: Final = 0.1
"""The least thinking time a move is given, however late it is claimed."""


def load(config: WorkerConfig) -> None:
    """Nothing: Go's AIs start with each move."""
    return None


def answer(resources: None, data: Mapping[str, Any], deadline: float) -> str:
    """The AI's move in the job's game, thought about until ``deadline`` at most.

    Raises:
        GoError, KeyError, ValueError: the data is not a job's.
    """
    seconds = max(deadline - time.monotonic(), MIN_SECONDS)
    return choose_move_text(data["state"], data["level"], data["engine"], data["seed"], seconds)


def share(resources: None, data: Mapping[str, Any], deadline: float, index: int, count: int) -> str:
    """Share ``index`` of ``count`` of the AI's move in the job's game (:func:`~bot.games.go.ai_turns.share_text`),
    thought about until ``deadline`` at most.

    Raises:
        GoError, KeyError, ValueError: the data is not a job's.
    """
    seconds = max(deadline - time.monotonic(), MIN_SECONDS)
    return share_text(data["state"], data["level"], data["engine"], data["seed"], seconds, index, count)


def merge(data: Mapping[str, Any], shares: Sequence[str]) -> str:
    """The AI's move in the job's game from its shares' texts
    (:func:`~bot.games.go.ai_turns.merged_move_text`).

    Raises:
        ValueError: no share searched the move; GoError, KeyError: the data is not a job's.
    """
    return merged_move_text(data["state"], shares)
