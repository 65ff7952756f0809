"""Benchmark of the ENABLE lexicon: first build, cached load, memory, against a plain ``json.load``.

Every measure runs in a fresh Python process, so that nothing cached in memory (modules, the trie)
flatters a later run; the file system's page cache is warm after the first run, as on a server.

    python bench/lexicon.py [--reps N]

prints the medians over N runs on one line:

    build_median_ms=... load_median_ms=... rss_delta_mb=... trie_file_mb=... words=...
    json_load_median_ms=... load_vs_json=...

``build`` loads ENABLE into an empty cache directory (read, hash, parse, compile, write, map);
``load`` loads it again from that warm cache (read and hash the source, check and map the trie);
``rss_delta_mb`` is the growth of the resident set over that load and a few lookups (Linux only:
it reads ``/proc/self/status``); ``json_load`` is ``json.load`` of the raw dictionary file.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
PROBES = ("AA", "QAT", "ZYZZYVAS", "STRENGTHS", "XU", "CWM")


def _rss_kb() -> int:
    """Resident set size of this process, in KiB, from ``/proc/self/status``."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("VmRSS not found in /proc/self/status")


def _child_lexicon(cache_dir: Path) -> dict[str, float]:
    """Load ENABLE through ``cache_dir`` and report the time, the RSS growth and the word count."""
    from scrabble_core.lexicon import load_enable

    before = _rss_kb()
    started = time.perf_counter()
    lexicon = load_enable(cache_dir=cache_dir)
    elapsed_ms = (time.perf_counter() - started) * 1000
    if not all(probe in lexicon for probe in PROBES) or lexicon.trie_path is None:
        raise RuntimeError(f"unexpected lexicon {lexicon!r}")
    return {
        "ms": elapsed_ms,
        "rss_delta_kb": _rss_kb() - before,
        "words": len(lexicon),
        "trie_bytes": lexicon.trie_path.stat().st_size,
    }


def _child_json() -> dict[str, float]:
    """Time ``json.load`` of ENABLE's raw data file."""
    from scrabble_core.lexicon import enable_path

    path = enable_path()
    before = _rss_kb()
    started = time.perf_counter()
    with path.open(encoding="utf-8") as handle:
        words = json.load(handle)
    elapsed_ms = (time.perf_counter() - started) * 1000
    return {"ms": elapsed_ms, "rss_delta_kb": _rss_kb() - before, "words": len(words)}


def _run_child(mode: str, cache_dir: Path | None = None) -> dict[str, float]:
    """Run this script as ``--child mode`` in a new interpreter and return what it measured."""
    command = [sys.executable, __file__, "--child", mode]
    if cache_dir is not None:
        command += ["--cache-dir", str(cache_dir)]
    path = os.pathsep.join(filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")]))
    done = subprocess.run(
        command,
        env={**os.environ, "PYTHONPATH": path},
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, float] = json.loads(done.stdout)
    return result


def main() -> None:
    """Parse the arguments, then either measure once (as a child) or run and summarise the reps."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--reps", type=int, default=5, help="runs of each measure (default 5)")
    parser.add_argument("--child", choices=["lexicon", "json"], help=argparse.SUPPRESS)
    parser.add_argument("--cache-dir", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()

    if args.child == "lexicon":
        print(json.dumps(_child_lexicon(args.cache_dir)))
        return
    if args.child == "json":
        print(json.dumps(_child_json()))
        return

    builds, loads, jsons = [], [], []
    for _ in range(args.reps):
        with tempfile.TemporaryDirectory(prefix="lexicon-bench-") as temp:
            cache_dir = Path(temp)
            builds.append(_run_child("lexicon", cache_dir))
            loads.append(_run_child("lexicon", cache_dir))
        jsons.append(_run_child("json"))

    def median(runs: list[dict[str, float]], key: str) -> float:
        return statistics.median(run[key] for run in runs)

    load_ms = median(loads, "ms")
    json_ms = median(jsons, "ms")
    words = int(median(loads, "words"))
    print(
        f"build_median_ms={median(builds, 'ms'):.1f} load_median_ms={load_ms:.2f} "
        f"rss_delta_mb={median(loads, 'rss_delta_kb') / 1024:.2f} "
        f"trie_file_mb={median(loads, 'trie_bytes') / 2**20:.2f} words={words} "
        f"json_load_median_ms={json_ms:.1f} load_vs_json={load_ms / json_ms:.3f} reps={args.reps}"
    )


if __name__ == "__main__":
    main()
