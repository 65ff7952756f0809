"""Fixtures shared by the whole test suite."""

from __future__ import annotations

import pytest

from bot.games import register_builtin
from scrabble_core.lexicon import Lexicon, load_enable
from tests.pg_cluster import pg_cluster, store_database

register_builtin()  # the built-in games, as the command line registers them

__all__ = ["pg_cluster", "store_database"]  # the PostgreSQL fixtures, for every test


@pytest.fixture(scope="session")
def enable_lexicon(tmp_path_factory: pytest.TempPathFactory) -> Lexicon:
    """ENABLE over the English alphabet, compiled once per session into a temporary cache dir."""
    return load_enable(cache_dir=tmp_path_factory.mktemp("lexicon-cache"))
