"""The features a guild can turn off: ratings, post-game analysis and daily puzzles (all on by default).

Every game's commands answer whether one is on (:meth:`~bot.host.commands.GameCommands.feature_enabled`);
a command of a feature that is off is refused with :class:`~bot.host.errors.FeatureOffError`.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Final

from bot.host.errors import FeatureOffError, SettingError
from bot.host.text import quoted


class Feature(enum.StrEnum):
    """A feature a guild can turn off."""

    RATINGS = "ratings"
    ANALYSIS = "analysis"
    PUZZLES = "puzzles"


DESCRIPTIONS: Final[Mapping[Feature, str]] = {
    Feature.RATINGS: "ratings in /scrabble stats and /scrabble leaderboard",
    Feature.ANALYSIS: "post-game analysis (/scrabble analyze)",
    Feature.PUZZLES: "daily puzzles (/scrabble puzzle, /scrabble solve)",
}


def feature_named(name: object) -> Feature:
    """The feature called ``name``.

    Raises:
        SettingError: no feature has that name (its echo cut short).
    """
    try:
        return Feature(str(name))
    except ValueError:
        known = ", ".join(feature.value for feature in Feature)
        raise SettingError(f"Unknown feature {quoted(str(name))}: choose one of {known}") from None


def is_on(settings: Mapping[str, bool], feature: Feature) -> bool:
    """Whether ``feature`` is on in a guild whose stored ``settings`` are these (on unless set off)."""
    return settings.get(feature.value, True)


def require_on(settings: Mapping[str, bool], feature: Feature) -> None:
    """Refuse a command of ``feature`` in a guild whose stored ``settings`` turned it off.

    Raises:
        FeatureOffError: it is off.
    """
    if not is_on(settings, feature):
        raise FeatureOffError(feature)


def features_text(settings: Mapping[str, bool]) -> str:
    """The answer to ``/scrabble-settings features``: each feature, on or off."""
    lines = [
        f"{feature.value}: {'on' if is_on(settings, feature) else 'off'} ({DESCRIPTIONS[feature]})"
        for feature in Feature
    ]
    return "Features in this server:\n" + "\n".join(lines)
