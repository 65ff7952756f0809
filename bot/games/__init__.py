"""The games the host plays, one package each (:mod:`~bot.games.scrabble`, :mod:`~bot.games.go`), each
registered by one line of :data:`BUILTIN`."""

from __future__ import annotations

from typing import Final

from bot.host import registry

BUILTIN: Final = (
    "bot.games.scrabble",
    "bot.games.go",
)
"""The packages of the built-in games, in the order their commands are listed."""


def register_builtin() -> None:
    """Register the built-in games (:func:`bot.host.registry.register`)."""
    for package in BUILTIN:
        registry.register(package)
