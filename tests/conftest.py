"""Fixtures shared by the whole test suite."""

from __future__ import annotations

import pytest

from bot.games import register_builtin
from scrabble_core.lexicon import Lexicon, load_enable
from scrabble_core.variant import VARIANTS
from tests.pg_cluster import pg_cluster, store_database

register_builtin()  # the built-in games, as the command line registers them

__all__ = ["pg_cluster", "store_database"]  # the PostgreSQL fixtures, for every test


@pytest.fixture(scope="session")
def enable_lexicon(tmp_path_factory: pytest.TempPathFactory) -> Lexicon:
    """ENABLE over the English alphabet, compiled once per session into a temporary cache dir."""
    return load_enable(cache_dir=tmp_path_factory.mktemp("lexicon-cache"))


@pytest.fixture(autouse=True)
def fresh_variant_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test sees the process's variant registry as it was before any test: the variant files a test
    adds (a config's ``variant_files``, a console's ``--variant``) are gone after it, as in a new process."""
    monkeypatch.setattr(VARIANTS, "_added", dict(VARIANTS._added))
