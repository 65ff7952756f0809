"""The options of a new game: :class:`NewGame` as asked for, and :func:`game_options`, which checks it
(types, ranges, known names) against the limits of :mod:`bot.config` and fills in the configured
defaults."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Final, TypeVar

from bot.config import MAX_HINTS, MAX_TURN_SECONDS, Config
from bot.service.actions import SEED_BITS
from bot.service.errors import OptionError
from bot.service.text import quoted
from bot.store import GameOptions
from scrabble_core.ai import Level
from scrabble_core.game import MAX_PLAYERS, ChallengeMode
from scrabble_core.variant import VariantRegistry

SEED_LIMIT: Final = 1 << SEED_BITS
"""A game's seed is a whole number from 0 to ``SEED_LIMIT - 1``."""

_Choice = TypeVar("_Choice", bound=enum.StrEnum)


@dataclass(frozen=True, slots=True)
class NewGame:
    """The options of ``/scrabble new``; ``None`` takes the configured default. ``seed`` fixes the
    game's randomness (tests); by default it is random. ``programs`` seats are given to programs (bot
    clients of the web board's protocol). An unrated game (``rated`` false) changes no rating. Values
    come from users: :func:`game_options` checks their types as well as their values."""

    variant: str | None = None
    challenge_mode: str | None = None
    turn_seconds: int | None = None
    ai_opponents: int = 0
    ai_level: str | None = None
    hints: int | None = None
    seed: int | None = None
    programs: int = 0
    rated: bool = True


def game_options(options: NewGame, config: Config, variants: VariantRegistry) -> GameOptions:
    """The options of a new game, defaults taken from ``config``, the variant one of ``variants``.

    Raises:
        OptionError: a value of the wrong type, out of range or unknown (its echo cut short).
    """
    variant = _text(options.variant, "variant") or config.variant
    if variant not in variants:
        raise OptionError(f"Unknown variant {quoted(variant)}: choose one of {', '.join(variants.names())}")
    mode = _choice(options.challenge_mode, "challenge mode", ChallengeMode, config.challenge_mode)
    level = _choice(options.ai_level, "AI level", Level, config.ai_level)
    seconds = _whole(options.turn_seconds, "turn time limit", config.turn.time_limit)
    if not 0 <= seconds <= MAX_TURN_SECONDS:
        raise OptionError(f"The turn time limit must be between 0 (none) and {MAX_TURN_SECONDS} seconds")
    hints = _whole(options.hints, "number of hints", config.hints_per_player)
    if not 0 <= hints <= MAX_HINTS:
        raise OptionError(f"The number of hints must be between 0 and {MAX_HINTS}")
    if not 0 <= _whole(options.ai_opponents, "number of AI opponents", 0) < MAX_PLAYERS:
        raise OptionError(f"A game has at most {MAX_PLAYERS - 1} AI opponents")
    programs = _whole(options.programs, "number of programs", 0)
    if programs < 0 or options.ai_opponents + programs >= MAX_PLAYERS:
        raise OptionError(f"A game has at most {MAX_PLAYERS} players, AI and programs included")
    if options.seed is not None and not 0 <= _whole(options.seed, "seed", 0) < SEED_LIMIT:
        raise OptionError(f"The seed must be a whole number from 0 to {SEED_LIMIT - 1}")
    if not isinstance(options.rated, bool):
        raise OptionError(f"Rated must be true or false, not {type(options.rated).__name__}")
    return GameOptions(variant, mode, seconds, hints, level, options.rated)


def _text(value: object, what: str) -> str | None:
    if value is None or isinstance(value, str):
        return value
    raise OptionError(f"The {what} must be a name, not {type(value).__name__}")


def _whole(value: object, what: str, default: int) -> int:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        raise OptionError(f"The {what} must be a whole number, not {type(value).__name__}")
    return value


def _choice(value: object, what: str, choices: type[_Choice], default: _Choice) -> _Choice:
    name = _text(value, what)
    if not name:
        return default
    try:
        return choices(name)
    except ValueError:
        known = ", ".join(choice.value for choice in choices)
        raise OptionError(f"Unknown {what} {quoted(name)}: choose one of {known}") from None
