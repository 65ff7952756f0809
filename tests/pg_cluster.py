"""A throwaway PostgreSQL cluster for the tests: ``initdb`` in a temporary folder, started on a free
loopback port (no Unix socket), run as a non-root user, stopped and deleted at the end.

Where PostgreSQL (``initdb``/``pg_ctl``) or the psycopg driver is missing, the tests that need the
cluster skip, saying how to run them; with ``CI`` or ``SCRABBLE_REQUIRE_POSTGRES`` set they fail
instead (``.ci/run`` sets the latter). ``SCRABBLE_PG_BIN`` names the folder of ``initdb``/``pg_ctl``.
"""

from __future__ import annotations

import contextlib
import glob
import importlib.util
import itertools
import os
import pwd
import shutil
import socket
import sqlite3
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

HOW_TO_RUN = (
    "install PostgreSQL (Debian: apt-get install postgresql, which provides initdb and pg_ctl; or set "
    "SCRABBLE_PG_BIN to the folder holding them) and psycopg (pip install -e '.[test]') to run them"
)


def pg_bin_dir() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl``: ``$SCRABBLE_PG_BIN``, the PATH, or the newest of
    ``/usr/lib/postgresql/*/bin``; None if there is none."""
    if os.environ.get("SCRABBLE_PG_BIN"):
        return Path(os.environ["SCRABBLE_PG_BIN"])
    on_path = shutil.which("pg_ctl")
    if on_path is not None and shutil.which("initdb") is not None:
        return Path(on_path).parent
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(p.split("/")[4]))
    return Path(found[-1]).parent if found else None


def postgres_required() -> bool:
    """Whether a missing PostgreSQL fails the run instead of skipping its tests (CI)."""
    return any(os.environ.get(name, "") not in ("", "0") for name in ("CI", "SCRABBLE_REQUIRE_POSTGRES"))


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _run_as() -> str | None:
    """The user to run PostgreSQL as when this process is root (it refuses to run as root)."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            pwd.getpwnam(name)
        except KeyError:
            continue
        return name
    raise RuntimeError("running as root, and there is no postgres or nobody user to run PostgreSQL as")


@dataclass
class PgCluster:
    """A running cluster: :meth:`new_database` makes an empty database and returns its URL."""

    port: int
    _names: Iterator[int] = field(default_factory=itertools.count)

    def url(self, database: str = "postgres") -> str:
        """The URL of ``database`` on this cluster (user ``postgres``, trusted on loopback)."""
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """Create an empty database; its URL."""
        import psycopg

        name = f"test_{next(self._names)}"
        with psycopg.connect(self.url(), autocommit=True) as connection:
            connection.execute(f"CREATE DATABASE {name} TEMPLATE template0")
        return self.url(name)


def _command(user: str | None, *args: str | Path) -> list[str]:
    command = [str(arg) for arg in args]
    return command if user is None else ["runuser", "-u", user, "--", *command]


@contextlib.contextmanager
def running_cluster(bin_dir: Path, *, durable: bool = False) -> Iterator[PgCluster]:
    """A cluster of PostgreSQL's ``bin_dir`` in a temporary folder on a free loopback port, as a
    non-root user, stopped and deleted at the end. Not ``durable``: no fsync (for tests).

    Raises:
        RuntimeError: it cannot be started (with PostgreSQL's words).
    """
    user = _run_as()
    folder = Path(tempfile.mkdtemp(prefix="scrabble-pg-"))
    data = folder / "data"
    if user is not None:
        entry = pwd.getpwnam(user)
        os.chown(folder, entry.pw_uid, entry.pw_gid)
    port = _free_port()
    options = f"-p {port} -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c max_connections=200"
    if not durable:
        options += " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
    try:
        for command in (
            (bin_dir / "initdb", "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8"),
            (bin_dir / "pg_ctl", "-D", data, "-l", folder / "log", "-o", options, "-w", "start"),
        ):
            subprocess.run(
                _command(user, *command),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                check=True,
                cwd=folder,
            )
    except subprocess.CalledProcessError as error:
        log = (folder / "log").read_text(errors="replace") if (folder / "log").exists() else ""
        shutil.rmtree(folder, ignore_errors=True)
        raise RuntimeError(
            f"cannot start PostgreSQL: {error.stderr.decode(errors='replace')}{log}"
        ) from error
    try:
        yield PgCluster(port)
    finally:
        subprocess.run(
            _command(user, bin_dir / "pg_ctl", "-D", data, "-m", "immediate", "stop"),
            stdout=subprocess.DEVNULL,
            check=False,
        )
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[PgCluster]:
    """A PostgreSQL cluster for the whole run, stopped and deleted at the end (see the module)."""
    bin_dir = pg_bin_dir()
    missing = []
    if bin_dir is None or not (bin_dir / "initdb").exists():
        missing.append("PostgreSQL (initdb, pg_ctl)")
    if importlib.util.find_spec("psycopg") is None:
        missing.append("the psycopg driver")
    if missing:
        message = f"the PostgreSQL tests need {' and '.join(missing)}: {HOW_TO_RUN}"
        if postgres_required():
            pytest.fail(message + " (CI or SCRABBLE_REQUIRE_POSTGRES is set: they may not skip)")
        pytest.skip(message)
    assert bin_dir is not None
    with running_cluster(bin_dir) as cluster:
        yield cluster


@pytest.fixture(params=["sqlite", "postgresql"])
def store_database(request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    """A new, empty database for :meth:`bot.host.store.games.Store.open` on each backend in turn: an SQLite file
    in ``tmp_path``, then a database of the session's PostgreSQL cluster (its URL)."""
    if request.param == "sqlite":
        return tmp_path / "games.sqlite3"
    cluster: PgCluster = request.getfixturevalue("pg_cluster")
    return cluster.new_database()


def query(database: Path | str, *statements: str) -> list[tuple[object, ...]]:
    """Run ``statements`` straight on ``database`` (an SQLite file or a PostgreSQL URL), around the
    store, and commit; the rows the last one returns."""
    rows: list[tuple[object, ...]] = []
    if isinstance(database, Path):
        with sqlite3.connect(database) as db:
            for statement in statements:
                rows = db.execute(statement).fetchall()
        return rows
    import psycopg

    with psycopg.connect(database) as connection:
        for statement in statements:
            cursor = connection.execute(statement.encode())
            rows = cursor.fetchall() if cursor.description is not None else []
    return rows
