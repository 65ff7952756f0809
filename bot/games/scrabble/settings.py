"""Scrabble's settings in the config file (its settings part: :class:`bot.config.SettingsPart`): the
table ``[scrabble]``, or where files kept them before each game had a table of its own (``lexicon`` at
the top, ``[game]`` and ``[ai] level``, ``expert_seconds``, ``expert_hints``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final

from bot.games.scrabble.kind import KIND
from scrabble_core.ai import AI_LEVELS, Level
from scrabble_core.errors import VariantError
from scrabble_core.game import ChallengeMode
from scrabble_core.variant import VARIANTS

if TYPE_CHECKING:
    from bot.config import Config, GameSettings

__all__ = ["AI_LEVELS", "KEYS", "LEGACY", "MAX_HINTS", "ScrabbleSettings", "read", "scrabble_settings"]

DEFAULT_EXPERT_SECONDS: Final = 3.0
"""How long ``expert`` thinks about a move unless configured (below the AI turn timeout)."""
MAX_HINTS: Final = 100
"""The most hints per player a game (or the configured default) may allow."""
MAX_CHALLENGE_WINDOW: Final = 600
"""The longest challenge window (seconds an AI waits before playing after a human's play)."""
MAX_EXPERT_SECONDS: Final = 600.0

KEYS: Final = frozenset(
    {
        "lexicon",
        "variant",
        "variant_files",
        "challenge_mode",
        "hints_per_player",
        "challenge_window_seconds",
        "ai_level",
        "expert_seconds",
        "expert_hints",
    }
)
"""The keys of ``[scrabble]``."""
LEGACY: Final = {
    "lexicon": "lexicon",
    "game.variant": "variant",
    "game.variant_files": "variant_files",
    "game.challenge_mode": "challenge_mode",
    "game.hints_per_player": "hints_per_player",
    "game.challenge_window_seconds": "challenge_window_seconds",
    "ai.level": "ai_level",
    "ai.expert_seconds": "expert_seconds",
    "ai.expert_hints": "expert_hints",
}
"""Where files written before ``[scrabble]`` keep its settings."""


@dataclass(frozen=True, slots=True)
class ScrabbleSettings:
    """Scrabble's settings: the ``lexicon`` games are judged by (``enable``, or a word list's path),
    the defaults of a new game (``variant``, ``challenge_mode``, ``hints_per_player``, ``ai_level``),
    the ``variant_files`` that add boards, the ``challenge_window_seconds`` an AI waits after a human's
    play in games with challenges, how long ``expert`` thinks (``ai_expert_seconds``) and whether hints
    lead with its choice (``ai_expert_hints``)."""

    lexicon: str = "enable"
    variant: str = "standard"
    variant_files: tuple[Path, ...] = ()
    challenge_mode: ChallengeMode = ChallengeMode.VOID
    hints_per_player: int = 3
    challenge_window_seconds: int = 15
    ai_level: Level = Level.EXPERT
    ai_expert_seconds: float = DEFAULT_EXPERT_SECONDS
    ai_expert_hints: bool = False


DEFAULTS: Final = ScrabbleSettings()


def read(settings: GameSettings) -> ScrabbleSettings:
    """Scrabble's settings from the file; its variant files are added to the variants
    (:data:`scrabble_core.variant.VARIANTS`).

    Raises:
        ConfigError: a bad value, a variant file that cannot be read, an unknown variant, an expert
            who thinks longer than the AI turn timeout.
    """
    files = settings.paths("variant_files")
    try:
        VARIANTS.add_files(files)
    except VariantError as error:
        raise settings.error("variant_files", str(error)) from None
    variant = settings.string("variant", DEFAULTS.variant)
    if variant not in VARIANTS:
        known = ", ".join(VARIANTS.names())
        raise settings.error("variant", f"no variant {variant!r} (known: {known})")
    modes = [mode.value for mode in ChallengeMode]
    timeout = settings.host.ai_turn_timeout
    expert = settings.number("expert_seconds", min(DEFAULT_EXPERT_SECONDS, timeout), 0.1, MAX_EXPERT_SECONDS)
    if expert > timeout:
        raise settings.error("expert_seconds", f"must be at most ai.turn_timeout ({timeout}), not {expert}")
    return ScrabbleSettings(
        lexicon=settings.string("lexicon", DEFAULTS.lexicon),
        variant=variant,
        variant_files=files,
        challenge_mode=ChallengeMode(settings.choice("challenge_mode", ChallengeMode.VOID.value, modes)),
        hints_per_player=settings.integer("hints_per_player", DEFAULTS.hints_per_player, 0, MAX_HINTS),
        challenge_window_seconds=settings.integer(
            "challenge_window_seconds", DEFAULTS.challenge_window_seconds, 0, MAX_CHALLENGE_WINDOW
        ),
        ai_level=Level(settings.choice("ai_level", Level.EXPERT.value, [level.value for level in Level])),
        ai_expert_seconds=expert,
        ai_expert_hints=settings.boolean("expert_hints", DEFAULTS.ai_expert_hints),
    )


def scrabble_settings(config: Config) -> ScrabbleSettings:
    """Scrabble's settings in ``config`` (its defaults when the file sets none)."""
    found: ScrabbleSettings = config.settings(KIND)
    return found
