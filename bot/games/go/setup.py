"""Go's parts over a host (:func:`build`): its plugin and commands, over its AI (in the AI worker pool,
or the PostgreSQL queue; GNU Go when it is installed, unless the config's ``[go] engine`` says otherwise)
and its board image.

The settings a process may give (:meth:`bot.host.setup.GameContext.option`): ``renderer`` (default: the
PNG board), ``engine`` (the AI's engine, over the config's) and ``seconds`` (the AI's time a move, over
the AI turn timeout), and stand-ins for tests: ``ai``, ``new_seed``.
"""

from __future__ import annotations

from bot.games.go.ai_turns import PoolGoAi, ThreadGoAi
from bot.games.go.commands import GoCommands
from bot.games.go.engines import Engine
from bot.games.go.plugin import GoPlugin
from bot.games.go.protocols import GoAi, GoBoardRenderer
from bot.games.go.settings import go_settings
from bot.host.registry import GameParts
from bot.host.seeds import new_seed
from bot.host.setup import GameContext


async def build(context: GameContext) -> GameParts:
    """Go's plugin and commands over ``context.host``."""
    config = context.config
    engine: Engine = context.option("engine") or go_settings(config).engine
    seconds: float = context.option("seconds", config.ai_turn_timeout)
    ai: GoAi | None = context.option("ai")
    if ai is None and context.pool is not None:
        ai = PoolGoAi(context.pool, seconds, engine)
        if context.queue is not None:
            from bot.games.go.ai_turns import QueueGoAi

            ai = QueueGoAi(context.queue, seconds, ai, engine)
    renderer: GoBoardRenderer | None = context.option("renderer")
    if renderer is None:
        from bot.games.go.board_image import render_go_board

        renderer = render_go_board
    plugin = GoPlugin(ai or ThreadGoAi(seconds, engine), renderer)
    return GameParts(plugin, GoCommands(context.host, plugin, new_seed=context.option("new_seed", new_seed)))
