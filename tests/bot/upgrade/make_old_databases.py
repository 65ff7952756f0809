"""Writes the upgrade test's databases (``test_upgrade.py``) with the code of main at commit
:data:`COMMIT`, the last one before the host and its plugins:

    python tests/bot/upgrade/make_old_databases.py

It extracts that commit's tree with ``git archive`` into a temporary folder and runs
``old_main_driver.py`` there (with that tree's code and tests' fakes) on a new SQLite file and on a new
database of a throwaway PostgreSQL cluster (``tests/pg_cluster.py``), then keeps both as SQL text: the
SQLite file as its dump and schema version (:data:`SQLITE`), the PostgreSQL database as a plain
``pg_dump`` (:data:`POSTGRESQL`). It needs the repository's history, so it is run by hand and its output
committed; the tests only read that output.
"""

from __future__ import annotations

import io
import os
import sqlite3
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path
from typing import Final

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(ROOT))

from tests.pg_cluster import pg_bin_dir, running_cluster  # noqa: E402

COMMIT: Final = "e3d7772"
SQLITE: Final = HERE / f"main-{COMMIT}.sqlite.sql"
POSTGRESQL: Final = HERE / f"main-{COMMIT}.postgresql.sql"


def extract(commit: str, folder: Path) -> None:
    """``commit``'s tree into ``folder``."""
    archive = subprocess.run(["git", "archive", commit], cwd=ROOT, check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")


def drive(tree: Path, database: str) -> None:
    """Run the driver with ``tree``'s code on ``database``."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    subprocess.run(
        [sys.executable, str(HERE / "old_main_driver.py"), database], cwd=tree, env=env, check=True
    )


def dump(bin_dir: Path, url: str) -> str:
    """The plain SQL dump of the database at ``url``, without the dump tool's own commands."""
    text = subprocess.run(
        [
            str(bin_dir / "pg_dump") if (bin_dir / "pg_dump").exists() else "pg_dump",
            "--no-owner",
            "--no-privileges",
            "--inserts",
            url,
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return "".join(line for line in text.splitlines(keepends=True) if not line.startswith("\\"))


def sqlite_dump(path: Path) -> str:
    """The SQLite database at ``path`` as the SQL that makes it again, its schema version included."""
    with sqlite3.connect(path) as connection:
        version = connection.execute("PRAGMA user_version").fetchone()[0]
        lines = list(connection.iterdump())
    connection.close()
    return "\n".join([*lines, f"PRAGMA user_version = {version};"]) + "\n"


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        tree = Path(folder) / "tree"
        tree.mkdir()
        extract(COMMIT, tree)
        database = Path(folder) / "games.sqlite3"
        drive(tree, str(database))
        SQLITE.write_text(sqlite_dump(database), encoding="utf-8")
        bin_dir = pg_bin_dir()
        assert bin_dir is not None, "PostgreSQL's programs are needed (see tests/pg_cluster.py)"
        with running_cluster(bin_dir) as cluster:
            url = cluster.new_database()
            drive(tree, url)
            POSTGRESQL.write_text(dump(bin_dir, url), encoding="utf-8")
    print(f"wrote {SQLITE.relative_to(ROOT)} and {POSTGRESQL.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
