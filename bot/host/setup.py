"""Building a host with its games: :func:`build_host` makes the host over an open store and has each
registered game (:mod:`bot.host.registry`) build its parts over it, from a :class:`GameContext`."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bot.config import Config
from bot.host import registry
from bot.host.protocols import Clock, Notifier
from bot.host.runner import Host
from bot.host.store import Store

if TYPE_CHECKING:
    from bot.host.ai.executor import AiExecutor
    from bot.host.ai.queue import AiJobQueue


@dataclass(frozen=True)
class GameContext:
    """What a game builds its parts from: the config, the host, the AI worker processes (``pool``; none:
    the AIs run in this process) and the PostgreSQL queue of AI jobs (``queue``, if configured), and the
    settings this process gives the game (``options``: the front end's images, stand-ins in tests...)."""

    config: Config
    host: Host
    pool: AiExecutor | None = None
    queue: AiJobQueue | None = None
    options: Mapping[str, Any] = field(default_factory=dict)

    def option(self, name: str, default: Any = None) -> Any:
        """The setting ``name`` of this process for the game (``default`` if it is not given)."""
        return self.options.get(name, default)


async def build_host(
    config: Config,
    store: Store,
    notifier: Notifier,
    *,
    clock: Clock | None = None,
    pool: AiExecutor | None = None,
    queue: AiJobQueue | None = None,
    options: Mapping[str, Mapping[str, Any]] | None = None,
    kinds: Collection[str] | None = None,
) -> Host:
    """A host over ``store`` sending through ``notifier``, with the parts of every registered game (of
    ``kinds``, if given) built over it (``options`` by kind: each game's settings of this process). Call
    its ``start`` before use.

    Raises:
        Exception: a game cannot build its parts (its lexicon cannot be loaded...).
    """
    host = Host(config, store, notifier, [], clock)
    for game in registry.games(kinds):
        context = GameContext(config, host, pool, queue, (options or {}).get(game.kind, {}))
        host.add(await registry.load(game.parts).build(context))
    return host
