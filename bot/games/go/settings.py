"""Go's settings in the config file (its settings part: :class:`bot.config.SettingsPart`): the table
``[go]``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from bot.games.go.engines import ENGINES, Engine
from bot.games.go.kind import KIND

if TYPE_CHECKING:
    from bot.config import Config, GameSettings

__all__ = ["KEYS", "LEGACY", "GoSettings", "go_settings", "read"]

KEYS: Final = frozenset({"engine"})
"""The keys of ``[go]``."""
LEGACY: Final[dict[str, str]] = {}
"""Go's settings had no place before ``[go]``."""


@dataclass(frozen=True, slots=True)
class GoSettings:
    """Go's settings: the AI's ``engine`` (``auto``: GNU Go when it is installed, else the built-in
    AI; ``gnugo``; ``builtin``)."""

    engine: Engine = "auto"


DEFAULTS: Final = GoSettings()


def read(settings: GameSettings) -> GoSettings:
    """Go's settings from the file.

    Raises:
        ConfigError: a bad value.
    """
    return GoSettings(ENGINES[settings.choice("engine", DEFAULTS.engine, list(ENGINES))])


def go_settings(config: Config) -> GoSettings:
    """Go's settings in ``config`` (its defaults when the file sets none)."""
    found: GoSettings = config.settings(KIND)
    return found
