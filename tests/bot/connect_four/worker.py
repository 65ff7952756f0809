"""The third game's part of an AI worker process: nothing to load; a job is the board, its answer the
column (from 0) the AI drops its disc in."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.host.ai.jobs import WorkerConfig

from .rules import Board, best_column


def load(config: WorkerConfig) -> None:
    return None


def answer(resources: None, data: Mapping[str, Any], deadline: float) -> str:
    return str(best_column(Board.from_dict(data["board"])))
