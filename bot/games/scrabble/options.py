"""The options of a new game: :class:`NewGame` as asked for, and :func:`game_options`, which checks it
(types, ranges, known names) against the limits of Scrabble's settings
(:mod:`bot.games.scrabble.settings`) and fills in their defaults."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from bot.config import MAX_TURN_SECONDS, Config
from bot.games.scrabble.settings import MAX_HINTS, scrabble_settings
from bot.host.errors import OptionError
from bot.host.options import choice_option, name_option, whole_option
from bot.host.seeds import SEED_LIMIT
from bot.host.text import quoted
from scrabble_core.ai import Level
from scrabble_core.game import MAX_PLAYERS, ChallengeMode
from scrabble_core.variant import VariantRegistry

_Choice = TypeVar("_Choice", bound=enum.StrEnum)


@dataclass(frozen=True, slots=True)
class ScrabbleOptions:
    """The settings a Scrabble game was created with (stored with it as its options' JSON). ``turn_seconds`` 0 means no time limit, ``hints`` 0 no
    hints; ``ai_level`` is the level of the game's AI seats; an unrated game changes no rating."""

    variant: str
    challenge_mode: ChallengeMode
    turn_seconds: int
    hints: int
    ai_level: Level
    rated: bool = True

    def to_dict(self) -> dict[str, Any]:
        """The options as JSON-compatible data."""
        return {
            "variant": self.variant,
            "challenge_mode": str(self.challenge_mode),
            "turn_seconds": self.turn_seconds,
            "hints": self.hints,
            "ai_level": str(self.ai_level),
            "rated": self.rated,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ScrabbleOptions:
        """The options saved by :meth:`to_dict`."""
        return cls(
            str(data["variant"]),
            ChallengeMode(str(data["challenge_mode"])),
            int(data["turn_seconds"]),
            int(data["hints"]),
            Level(str(data["ai_level"])),
            bool(data.get("rated", True)),  # games saved before ratings existed are rated
        )


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


def game_options(options: NewGame, config: Config, variants: VariantRegistry) -> ScrabbleOptions:
    """The options of a new game, defaults taken from ``config`` (Scrabble's settings, and the turn's
    time limit), the variant one of ``variants``.

    Raises:
        OptionError: a value of the wrong type, out of range or unknown (its echo cut short).
    """
    settings = scrabble_settings(config)
    variant = name_option(options.variant, "variant") or settings.variant
    if variant not in variants:
        raise OptionError(f"Unknown variant {quoted(variant)}: choose one of {', '.join(variants.names())}")
    mode = _choice(options.challenge_mode, "challenge mode", ChallengeMode, settings.challenge_mode)
    level = _choice(options.ai_level, "AI level", Level, settings.ai_level)
    seconds = whole_option(options.turn_seconds, "turn time limit", config.turn.time_limit)
    if not 0 <= seconds <= MAX_TURN_SECONDS:
        raise OptionError(f"The turn time limit must be between 0 (none) and {MAX_TURN_SECONDS} seconds")
    hints = whole_option(options.hints, "number of hints", settings.hints_per_player)
    if not 0 <= hints <= MAX_HINTS:
        raise OptionError(f"The number of hints must be between 0 and {MAX_HINTS}")
    if not 0 <= whole_option(options.ai_opponents, "number of AI opponents", 0) < MAX_PLAYERS:
        raise OptionError(f"A game has at most {MAX_PLAYERS - 1} AI opponents")
    programs = whole_option(options.programs, "number of programs", 0)
    if programs < 0 or options.ai_opponents + programs >= MAX_PLAYERS:
        raise OptionError(f"A game has at most {MAX_PLAYERS} players, AI and programs included")
    if options.seed is not None and not 0 <= whole_option(options.seed, "seed", 0) < SEED_LIMIT:
        raise OptionError(f"The seed must be a whole number from 0 to {SEED_LIMIT - 1}")
    if not isinstance(options.rated, bool):
        raise OptionError(f"Rated must be true or false, not {type(options.rated).__name__}")
    return ScrabbleOptions(variant, mode, seconds, hints, level, options.rated)


def _choice(value: object, what: str, choices: type[_Choice], default: _Choice) -> _Choice:
    name = name_option(value, what)
    return choice_option(name, what, choices) if name else default
