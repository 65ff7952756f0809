"""Fixtures shared by the whole test suite."""

from __future__ import annotations

import gc

import aiosqlite
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


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Stop the SQLite connections a test left open, and fail a run that passed with any.

    aiosqlite's connection thread is not a daemon: one left open (a test that failed before closing
    its store keeps it alive in its traceback) would keep the finished run from exiting at all."""
    gc.collect()
    left = [item for item in gc.get_objects() if isinstance(item, aiosqlite.Connection) and item._running]
    for connection in left:
        connection.stop()
    if left:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        if reporter is not None:
            reporter.write_sep(
                "-", f"{len(left)} SQLite connections left open by the tests: stopped", red=True
            )
        if exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED
