"""The one protocol of the AI's work, for every game and both transports (the bot's own worker processes,
:mod:`bot.host.ai.executor`, and the PostgreSQL queue's, :mod:`bot.host.ai.queue`): a job is a game's
``kind``, plain ``data`` (JSON) and a thinking time; its answer is text (a move in the game's notation).

A worker process loads, once, what each registered game's worker part needs (:func:`load_workers`: a
game's ``worker`` module has ``load(config: WorkerConfig)``), then answers each job with that game's
``answer(resources, data, deadline)`` (:func:`answer`). Which move the answer is, and what to play when
no answer comes in time (the fallback), is the game's plugin's to say.

**Shares** (root parallelism). A game whose search splits into independent parts that add up offers two
more functions in its worker module, and the bot's worker pool then spreads each of its long jobs over the
processes that are idle when the job arrives (:meth:`bot.host.ai.executor.AiExecutor.ask`):

- ``share(resources, data, deadline, index, count) -> str``: share ``index`` of ``count`` of the job's
  search, in a worker process, until ``deadline``: text (the share's statistics) for the merge. Each share
  gets the same ``data``; the share draws its own randomness from the job's seed and its ``index``.
  ``count`` is 1 when one process is free, so a game's shares must make a whole search on their own;
  A share other than share 0 may be asked to end early, when another job waits for a worker
  (:func:`interrupted` turns true): it then returns what it found so far, merged as any other;
- ``merge(data, shares) -> str``: the job's answer (as :func:`answer`'s) from the texts of the shares that
  came back in time (at least one, in the order of their ``index``, a lost one left out). It runs in the
  bot's own process (off its event loop), with no worker resources: it only adds up and decides, in
  milliseconds.

The PostgreSQL queue runs one job a turn (:func:`answer`): its workers are separate processes, often on
other machines, that claim jobs one at a time.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
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


_INTERRUPT: list[Callable[[], bool]] = []
"""What :func:`interrupted` asks in this process (a worker of the bot's pool has one)."""


def interrupted() -> bool:
    """In a worker process of the bot's pool, whether the share it searches should end now: it is not
    share 0, and another job waits for a worker (see the module's docstring); false elsewhere."""
    return any(interrupt() for interrupt in _INTERRUPT)


def set_interrupt(interrupt: Callable[[], bool]) -> None:
    """Make :func:`interrupted` ask ``interrupt`` in this (worker) process."""
    _INTERRUPT[:] = [interrupt]


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
    text: str = _worker(kind).answer(resources[kind], data, deadline)
    return text


def spreads(kind: str) -> bool:
    """Whether the worker module of the game of ``kind`` offers shares (``share`` and ``merge``); not
    for a kind unknown to this process."""
    try:
        worker = _worker(kind)
    except KeyError:
        return False
    return callable(getattr(worker, "share", None)) and callable(getattr(worker, "merge", None))


def share(
    kind: str, resources: Mapping[str, Any], data: Mapping[str, Any], deadline: float, index: int, count: int
) -> str:
    """Share ``index`` of ``count`` of the job of the game of ``kind`` with ``data``, searched until
    ``deadline`` (of :func:`time.monotonic`) at most.

    Raises:
        KeyError: no game of that kind is served here; Exception: the data is not a job's.
    """
    text: str = _worker(kind).share(resources[kind], data, deadline, index, count)
    return text


def merge(kind: str, data: Mapping[str, Any], shares: Sequence[str]) -> str:
    """The answer of the game of ``kind`` to the job with ``data`` from the texts of its ``shares``.

    Raises:
        KeyError: no game of that kind is registered here; Exception: the shares cannot be merged.
    """
    text: str = _worker(kind).merge(data, shares)
    return text


def _worker(kind: str) -> Any:
    """The worker module of the game of ``kind``, imported.

    Raises:
        KeyError: no game of that kind is registered here, or it has no worker module.
    """
    module = registry.game(kind).worker
    if module is None:
        raise KeyError(f"the {kind} game has no AI worker")
    return registry.load(module)
