"""The installed package's version, as ``scrabble-bot --version`` and GTP's ``version`` give it."""

from __future__ import annotations

import importlib.metadata

__all__ = ["package_version"]


def package_version() -> str:
    """The version of the installed ``scrabble-host`` package; ``0`` when it is not installed (a copy of
    the sources run in place)."""
    try:
        return importlib.metadata.version("scrabble-host")
    except importlib.metadata.PackageNotFoundError:
        return "0"
