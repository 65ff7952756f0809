"""Installing the package: the assets are package data found through one function, installed or
editable; the wheel, installed in a fresh virtual environment outside the checkout, plays a terminal
game; config.example.toml names only paths that exist."""

from __future__ import annotations

import importlib.resources
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

from scrabble_core.lexicon import Lexicon
from scrabble_core.variant import ASSETS_PACKAGE, assets_dir, bundled_variant_names

ROOT = Path(__file__).parents[2]
SOURCES = ("pyproject.toml", "setup.py", "README.md", "LICENSE", "assets", "bot", "go_core", "scrabble_core")
"""What a wheel is built from (a copy: the build writes beside its sources)."""


def test_the_assets_are_the_installed_package_data() -> None:
    folder = assets_dir()
    # an editable install maps the package onto the repository's folder
    assert folder == Path(str(importlib.resources.files(ASSETS_PACKAGE))) == ROOT / "assets"
    assert bundled_variant_names() == ["standard", "super"]
    assert (folder / "leaves" / "english.json").is_file()
    assert (folder / "fonts" / "DejaVuSans-Bold.ttf").is_file()


def test_config_example_names_only_paths_that_exist() -> None:
    text = (ROOT / "config.example.toml").read_text()
    paths = re.findall(r"(?<![\w/:.])((?:[\w-]+/)+[\w*.-]+)", text)
    assert "assets/variants/*.toml" in paths
    for path in paths:
        assert list(ROOT.glob(path)), path


def test_the_wheel_installs_outside_the_checkout_and_plays(tmp_path: Path, enable_lexicon: Lexicon) -> None:
    source = tmp_path / "source"
    source.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
        else:
            shutil.copy(ROOT / name, source / name)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input"]
    _run([*pip, "wheel", "--no-build-isolation", "--no-deps", "--no-index", "-w", tmp_path, source])
    [wheel] = tmp_path.glob("scrabble_host-*.whl")
    files = set(zipfile.ZipFile(wheel).namelist())
    for asset in (
        "variants/standard.toml",
        "variants/super.toml",
        "leaves/english.json",
        "fonts/DejaVuSans-Bold.ttf",
    ):
        assert f"scrabble_core/assets/{asset}" in files

    # A fresh environment whose only other packages are this one's dependencies: the test environment's
    # folder of packages is on its path, but not processed as a site (the checkout's editable install
    # there is not seen), and nothing is downloaded.
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", venv])
    python = venv / "bin" / "python"
    site = Path(_run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"]).strip())
    (site / "dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
    _run([python, "-m", "pip", "install", "--no-deps", "--no-index", "--ignore-installed", wheel])
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    where = _run(
        [python, "-c", "import bot, scrabble_core.variant as v; print(bot.__file__); print(v.assets_dir())"],
        cwd=elsewhere,
    ).split()
    assert all(Path(path).is_relative_to(site) for path in where), where
    assert enable_lexicon.trie_path is not None
    played = subprocess.run(
        [venv / "bin" / "scrabble-bot", "play", "--players", "Ann", "--ai", "1", "--level", "easy", "--seed", "1",
         "--db", tmp_path / "games.sqlite3"],
        input="pass\nresign\ny\n", cwd=elsewhere, capture_output=True, text=True, timeout=300, check=False,
        env=_clean_env(SCRABBLE_CACHE_DIR=str(enable_lexicon.trie_path.parent)),
    )  # fmt: skip
    assert played.returncode == 0, played.stderr
    assert "Game over: AI wins.\n1. AI " in played.stdout
    assert "2. Ann 0 (resigned)" in played.stdout
    assert (tmp_path / "game-1.gcg").is_file()  # beside the database


def _clean_env(**extra: str) -> dict[str, str]:
    """This environment without what would put the checkout on the path."""
    return {
        key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")
    } | extra


def _run(command: list[str | Path], cwd: Path | None = None) -> str:
    done = subprocess.run(
        command, cwd=cwd, capture_output=True, text=True, timeout=300, check=False, env=_clean_env()
    )
    assert done.returncode == 0, done.stderr
    return done.stdout
