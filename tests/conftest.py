"""Fixtures shared by the whole test suite."""

from __future__ import annotations

import pytest

from scrabble_core.lexicon import Lexicon, load_enable


@pytest.fixture(scope="session")
def enable_lexicon(tmp_path_factory: pytest.TempPathFactory) -> Lexicon:
    """ENABLE over the English alphabet, compiled once per session into a temporary cache dir."""
    return load_enable(cache_dir=tmp_path_factory.mktemp("lexicon-cache"))
