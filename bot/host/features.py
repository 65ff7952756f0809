"""The features a guild can turn off: ratings, post-game analysis and daily puzzles (all on by default).

Every game's commands answer whether one is on (:meth:`~bot.host.commands.GameCommands.feature_enabled`);
a command of a feature that is off is refused with :class:`~bot.host.errors.FeatureOffError`
(:func:`feature_off`). The texts name the commands that show a feature and the one that turns it on
as the registered games word them (:attr:`bot.host.registry.GameModule.features` and
``settings_command``): the host names no game.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from typing import Final

from bot.host import registry
from bot.host.errors import FeatureOffError, SettingError
from bot.host.text import quoted


class Feature(enum.StrEnum):
    """A feature a guild can turn off."""

    RATINGS = "ratings"
    ANALYSIS = "analysis"
    PUZZLES = "puzzles"


NAMES: Final[Mapping[Feature, str]] = {
    Feature.RATINGS: "ratings",
    Feature.ANALYSIS: "post-game analysis",
    Feature.PUZZLES: "daily puzzles",
}
_WHERE: Final[Mapping[Feature, str]] = {
    Feature.RATINGS: "{name} in {where}",
    Feature.ANALYSIS: "{name} ({where})",
    Feature.PUZZLES: "{name} ({where})",
}


def description(feature: Feature) -> str:
    """What ``feature`` is, with the registered games' commands that show it
    (``ratings in /scrabble stats and /scrabble leaderboard, /go stats``)."""
    where = [game.features[feature.value] for game in registry.games() if feature.value in game.features]
    name = NAMES[feature]
    return _WHERE[feature].format(name=name, where=", ".join(where)) if where else name


def feature_off(feature: Feature) -> FeatureOffError:
    """The refusal of a command of ``feature`` in a guild that turned it off, with the command that turns
    it on (the first registered game's that has one)."""
    command = next((game.settings_command for game in registry.games() if game.settings_command), None)
    how = "" if command is None else f" with {command} enable {feature}"
    return FeatureOffError(
        f"The {feature} feature is turned off in this server: someone who can manage the server can turn "
        f"it on{how}"
    )


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
        raise feature_off(feature)


def features_text(settings: Mapping[str, bool]) -> str:
    """Which features are on in a guild whose stored ``settings`` are these: each one, on or off."""
    lines = [
        f"{feature.value}: {'on' if is_on(settings, feature) else 'off'} ({description(feature)})"
        for feature in Feature
    ]
    return "Features in this server:\n" + "\n".join(lines)
