"""The one protocol of the AI's work, for every game and both transports (the bot's own worker processes,
:mod:`bot.host.ai.executor`, and the PostgreSQL queue's, :mod:`bot.host.ai.queue`): a job is a game's
``kind``, plain ``data`` (JSON) and a thinking time; its answer is text (a move in the game's notation).

A worker process loads, once, what each registered game's worker part needs (:func:`load_workers`: a
game's ``worker`` module has ``load(config: WorkerConfig)``), then answers each job with that game's
``answer(resources, data, deadline)`` (:func:`answer`). Which move the answer is, and what to play when
no answer comes in time (the fallback), is the game's plugin's to say.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from bot.config import Config
from bot.host import registry


def _registered() -> tuple[str, ...]:
    return tuple(registry.packages())


@dataclass(frozen=True)
class WorkerConfig:
    """What a worker process loads at start: the packages of the games it serves (by default those
    registered in this process), the bot's config (for the games' settings, such as Scrabble's
    lexicon) and a cache directory for what the games compile (``None``: each game's default). Plain
    data, so it crosses the process boundary."""

    config: Config = field(default_factory=Config)
    cache_dir: str | None = None
    games: tuple[str, ...] = field(default_factory=_registered)

    def __post_init__(self) -> None:
        if self.config.token is not None:  # a worker never needs the bot's token
            object.__setattr__(self, "config", replace(self.config, token=None))


@dataclass(frozen=True, slots=True)
class JobRequest:
    """One AI turn as a worker gets it, plain data only (JSON): the game's ``kind``, its ``data``
    (what the game's worker answers from: for a game with private state, only the seat's view), the
    thinking time and a test hook, ``delay`` (the worker sleeps first)."""

    kind: str
    data: dict[str, Any]
    think: float
    delay: float = 0.0

    def payload(self) -> dict[str, Any]:
        """The job's payload as stored."""
        return {"kind": self.kind, "data": self.data, "think": self.think, "delay": self.delay}

    def key(self) -> str:
        """The job's identity: a digest of its payload (the same turn is the same job)."""
        text = json.dumps(self.payload(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()


def load_workers(config: WorkerConfig) -> dict[str, Any]:
    """Register ``config``'s games in this (worker) process and load each one's worker resources, by
    kind (a game without a worker part has none).

    Raises:
        Exception: a game's resources cannot be loaded (a lexicon...).
    """
    resources: dict[str, Any] = {}
    for package in config.games:
        game = registry.register(package)
        if game.worker is not None:
            resources[game.kind] = registry.load(game.worker).load(config)
    return resources


def answer(kind: str, resources: Mapping[str, Any], data: Mapping[str, Any], deadline: float) -> str:
    """The answer of the game of ``kind`` to a job's ``data``, searched until ``deadline`` (of
    :func:`time.monotonic`) at most.

    Raises:
        KeyError: no game of that kind is served here; Exception: the data is not a job's.
    """
    module = registry.game(kind).worker
    if module is None:
        raise KeyError(f"the {kind} game has no AI worker")
    text: str = registry.load(module).answer(resources[kind], data, deadline)
    return text
