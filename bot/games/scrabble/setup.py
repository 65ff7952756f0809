"""Scrabble's parts over a host (:func:`build`): its plugin and commands, over the lexicon, the AI (in the
AI worker pool, or the PostgreSQL queue), the hints advisor and the images this process uses.

The settings a process may give (:meth:`bot.host.setup.GameContext.option`): ``lexicon`` and
``generator`` (loaded already; by default loaded here from the config), ``renderer`` (default: PNG
images), ``loss_chart`` (the analyses' chart), and stand-ins for tests: ``ai``, ``advisor``,
``new_seed``, ``variants``.
"""

from __future__ import annotations

import asyncio
import logging

from bot.games.scrabble.advisor import GeneratorAdvisor
from bot.games.scrabble.ai_turns import ExecutorAiPlayer, QueueAiPlayer, ScrabblePool, ScrabbleQueue
from bot.games.scrabble.commands import ScrabbleCommands
from bot.games.scrabble.plugin import ScrabblePlugin
from bot.games.scrabble.protocols import Advisor, AiPlayer, Renderer
from bot.games.scrabble.settings import scrabble_settings
from bot.host.registry import GameParts
from bot.host.seeds import new_seed
from bot.host.setup import GameContext
from scrabble_core.lexicon import ENGLISH_ALPHABET, Lexicon, WordList, load_lexicon
from scrabble_core.movegen import MoveGenerator, load_move_generator
from scrabble_core.variant import VARIANTS, VariantRegistry

log = logging.getLogger("bot")
"""The bot's start-up log, where the lexicon's loading is told."""


async def build(context: GameContext) -> GameParts:
    """Scrabble's plugin and commands over ``context.host``.

    Raises:
        LexiconError: the lexicon cannot be loaded; VariantError: a variant file cannot.
    """
    config = context.config
    settings = scrabble_settings(config)
    lexicon: WordList | None = context.option("lexicon")
    if lexicon is None:
        lexicon = await asyncio.to_thread(load_lexicon, settings.lexicon, ENGLISH_ALPHABET)
        log.info("lexicon %s loaded", lexicon.name)
    generator: MoveGenerator | None = context.option("generator")
    ai: AiPlayer | None = context.option("ai")
    advisor: Advisor | None = context.option("advisor")
    pool = context.pool
    if pool is not None and (ai is None or advisor is None):
        if generator is None:
            if not isinstance(lexicon, Lexicon):
                raise ValueError("the AI workers' moves need a lexicon of words, not a stand-in")
            generator = await asyncio.to_thread(load_move_generator, lexicon)
        if ai is None and context.queue is not None:
            queue = ScrabbleQueue(context.queue, generator)
            ai = QueueAiPlayer(queue, config.ai_turn_timeout, settings.ai_expert_seconds)
        elif ai is None:
            ai = ExecutorAiPlayer(
                ScrabblePool(pool, generator), config.ai_turn_timeout, settings.ai_expert_seconds
            )
        if advisor is None:
            expert_seconds = settings.ai_expert_seconds if settings.ai_expert_hints else None
            advisor = GeneratorAdvisor(generator, pool, config.ai_turn_timeout, expert_seconds)
    if ai is None:
        raise ValueError("Scrabble needs an AI: the AI worker pool, or one given")
    renderer: Renderer | None = context.option("renderer")
    if renderer is None:
        from bot.games.scrabble.images.renderer import PngRenderer

        renderer = PngRenderer()
    variants: VariantRegistry | None = context.option("variants")
    if variants is None:
        VARIANTS.add_files(settings.variant_files)
        variants = VARIANTS
    plugin = ScrabblePlugin(config, lexicon, ai, renderer, variants)
    commands = ScrabbleCommands(context.host, plugin, advisor, new_seed=context.option("new_seed", new_seed))
    if pool is not None:
        commands.use_pool(pool, context.option("loss_chart"))
    return GameParts(plugin, commands)
