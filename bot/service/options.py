"""The options of a new game: :class:`NewGame` as asked for, and :func:`game_options`, which checks it
against the limits of :mod:`bot.config` and fills in the configured defaults."""

from __future__ import annotations

from dataclasses import dataclass

from bot.config import AI_LEVELS, MAX_HINTS, MAX_TURN_SECONDS, Config
from bot.service.errors import OptionError
from bot.store import GameOptions
from scrabble_core.game import MAX_PLAYERS, ChallengeMode
from scrabble_core.variant import variant_names


@dataclass(frozen=True, slots=True)
class NewGame:
    """The options of ``/scrabble new``; ``None`` takes the configured default. ``seed`` fixes the
    game's randomness (tests); by default it is random. ``programs`` seats are given to programs (bot
    clients of the web board's protocol)."""

    variant: str | None = None
    challenge_mode: str | None = None
    turn_seconds: int | None = None
    ai_opponents: int = 0
    ai_level: str | None = None
    hints: int | None = None
    seed: int | None = None
    programs: int = 0


def game_options(options: NewGame, config: Config) -> GameOptions:
    """The options of a new game, defaults taken from ``config``.

    Raises:
        OptionError: a value out of range or unknown.
    """
    variant = options.variant or config.variant
    if variant not in variant_names():
        raise OptionError(f"Unknown variant {variant!r}: choose one of {', '.join(variant_names())}")
    mode = options.challenge_mode or config.challenge_mode.value
    if mode not in {m.value for m in ChallengeMode}:
        raise OptionError(
            f"Unknown challenge mode {mode!r}: choose one of {', '.join(m.value for m in ChallengeMode)}"
        )
    level = options.ai_level or config.ai_level
    if level not in AI_LEVELS:
        raise OptionError(f"Unknown AI level {level!r}: choose one of {', '.join(AI_LEVELS)}")
    seconds = config.turn.time_limit if options.turn_seconds is None else options.turn_seconds
    if not 0 <= seconds <= MAX_TURN_SECONDS:
        raise OptionError(f"The turn time limit must be between 0 (none) and {MAX_TURN_SECONDS} seconds")
    hints = config.hints_per_player if options.hints is None else options.hints
    if not 0 <= hints <= MAX_HINTS:
        raise OptionError(f"The number of hints must be between 0 and {MAX_HINTS}")
    if not 0 <= options.ai_opponents < MAX_PLAYERS:
        raise OptionError(f"A game has at most {MAX_PLAYERS - 1} AI opponents")
    if options.programs < 0 or options.ai_opponents + options.programs >= MAX_PLAYERS:
        raise OptionError(f"A game has at most {MAX_PLAYERS} players, AI and programs included")
    return GameOptions(variant, mode, seconds, hints, level)
