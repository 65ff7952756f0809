"""What a person may ask for, across servers and games (:class:`Preference`, each off until they turn it
on): kept by the store, read by the host."""

from __future__ import annotations

import enum
from collections.abc import Mapping

__all__ = ["Preference", "is_set"]


class Preference(enum.StrEnum):
    """A person's preference."""

    DMS = "dms"
    """Their private views (a Scrabble rack) by DM after their own moves too, besides the command's
    answer that shows them."""


def is_set(preferences: Mapping[str, bool], preference: Preference) -> bool:
    """Whether ``preference`` is on among a person's stored ``preferences`` (off unless set on)."""
    return preferences.get(preference.value, False)
