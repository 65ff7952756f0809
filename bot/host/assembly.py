"""The one place that builds the game service from its parts: the store, the AI worker pool and the
hints advisor over an already loaded lexicon (hints are computed in the AI workers, with the
generator as their fallback), then the service itself. The bot and the console both
use :func:`service_parts`; each brings its own notifier and renderer."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from bot.config import Config
from bot.games.go.ai_turns import PoolGoAi
from bot.games.go.protocols import GoAi, GoBoardRenderer
from bot.games.scrabble.advisor import GeneratorAdvisor
from bot.games.scrabble.analysis import LossChart
from bot.games.scrabble.commands import GameService
from bot.host.ai.executor import AiExecutor, ExecutorAiPlayer, WorkerConfig
from bot.host.protocols import AiPlayer, Notifier, Renderer
from bot.host.store.backends import display_name
from bot.host.store.games import Store, StoreOpenError
from scrabble_core.lexicon import LexiconError, WordList
from scrabble_core.movegen import MoveGenerator

if TYPE_CHECKING:
    from bot.host.ai.queue import AiJobQueue


class AssemblyError(RuntimeError):
    """The database or the AI workers could not be opened; the message says which and why."""


@dataclass(frozen=True, slots=True)
class ServiceParts:
    """Everything the game service runs on, open and ready: :meth:`service` builds it."""

    config: Config
    store: Store
    lexicon: WordList
    ai: ExecutorAiPlayer
    advisor: GeneratorAdvisor
    turns: AiPlayer | None = None
    """Who plays the AI's turns when not :attr:`ai` (the PostgreSQL queue of ``ai.queue``)."""
    queue: AiJobQueue | None = None
    """The PostgreSQL queue of ``ai.queue``, if configured (Go's AI moves go there too)."""

    def service(
        self,
        notifier: Notifier,
        renderer: Renderer,
        loss_chart: LossChart | None = None,
        go_renderer: GoBoardRenderer | None = None,
    ) -> GameService:
        """The game service over these parts, sending through ``notifier`` and drawing with
        ``renderer`` (and the analyses' chart with ``loss_chart``), analysing games and choosing puzzles
        in the AI workers; with a ``go_renderer`` (the bot's is
        :func:`~bot.games.go.board_image.render_go_board`) it hosts Go games too (``service.go``, Go's AI in
        the same workers). Call its ``start`` before use."""
        go_ai: GoAi = PoolGoAi(self.ai.executor, self.config.ai_turn_timeout)
        if self.queue is not None:
            from bot.host.ai.queue import QueueGoAi

            go_ai = QueueGoAi(self.queue, self.config.ai_turn_timeout, go_ai)
        service = GameService(
            self.config,
            self.store,
            self.lexicon,
            notifier,
            self.turns or self.ai,
            self.advisor,
            renderer=renderer,
            go_ai=go_ai,
            go_renderer=go_renderer,
        )
        service.use_pool(self.ai.executor, loss_chart)
        return service


@asynccontextmanager
async def _queue(url: str, generator: MoveGenerator) -> AsyncIterator[AiJobQueue]:
    """The AI job queue on ``url``, open for the ``async with`` block.

    Raises:
        AssemblyError: the queue cannot be opened.
    """
    import psycopg

    from bot.host.ai.queue import AiJobQueue

    queue = AiJobQueue(url, generator)
    try:
        await queue.start()
    except psycopg.Error as error:
        raise AssemblyError(f"cannot open the AI queue on {display_name(url)}: {error}") from error
    try:
        yield queue
    finally:
        await queue.close()


@asynccontextmanager
async def service_parts(
    config: Config, lexicon: WordList, generator: MoveGenerator, database: Path | str | None = None
) -> AsyncIterator[ServiceParts]:
    """Open the store (``database``, by default the config's), then the AI workers, for the ``async
    with`` block; close them (the workers first) when it ends.

    Raises:
        AssemblyError: the database cannot be opened or the AI workers cannot start.
    """
    path = config.database if database is None else database
    try:
        store = await Store.open(path, shards=config.shards)
    except StoreOpenError as error:  # in use, read-only, damaged, too new: it says which file and what to do
        raise AssemblyError(str(error)) from error
    except (sqlite3.Error, OSError, ValueError) as error:
        raise AssemblyError(f"cannot open the database {display_name(path)}: {error}") from error
    executor = AiExecutor(WorkerConfig(lexicon_source=config.lexicon), workers=config.ai_worker_count())
    try:
        try:
            await executor.start()
        except (RuntimeError, LexiconError) as error:
            raise AssemblyError(f"cannot start the AI workers: {error}") from error
        ai = ExecutorAiPlayer(executor, config.ai_turn_timeout, config.ai_expert_seconds)
        expert_seconds = config.ai_expert_seconds if config.ai_expert_hints else None
        advisor = GeneratorAdvisor(generator, executor, config.ai_turn_timeout, expert_seconds)
        if config.ai_queue == "postgresql":
            from bot.host.ai.queue import QueueAiPlayer

            async with _queue(str(path), generator) as queue:
                turns = QueueAiPlayer(queue, config.ai_turn_timeout, config.ai_expert_seconds)
                yield ServiceParts(config, store, lexicon, ai, advisor, turns, queue)
        else:
            yield ServiceParts(config, store, lexicon, ai, advisor)
    finally:
        await executor.close()
        await store.close()
