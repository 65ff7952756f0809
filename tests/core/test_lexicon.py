"""Tests of scrabble_core.lexicon: ENABLE, word lists, normalisation, skipping, the trie cache."""

from __future__ import annotations

import importlib.metadata
import itertools
import json
import logging
import os
import subprocess
import sys
import unicodedata
from collections.abc import Callable
from pathlib import Path

import pytest

from scrabble_core import lexicon as lexicon_module
from scrabble_core.errors import ScrabbleError
from scrabble_core.lexicon import (
    ENABLE_WORD_COUNT,
    ENGLISH_ALPHABET,
    Lexicon,
    LexiconError,
    default_cache_dir,
    load_enable,
    load_lexicon,
    load_word_list,
)

GERMAN_ALPHABET = "AÄBCDEFGHIJKLMNOÖPQRSßTUÜVWXYZ"
REPO_ROOT = Path(__file__).resolve().parents[2]

# BOM, CRLF and LF line ends, comments, blank lines, mixed case, a duplicate in another case,
# and 7 entries that are not English words: 2 with digits, 1 hyphenated, 2 accented, 1 with an
# inner space, 1 single letter.
MESSY_LIST = (
    "\ufeffcat\r\n"
    "# a comment line\r\n"
    "\r\n"
    "  Dog  \n"
    "   # an indented comment\n"
    "ZEBRA\n"
    "\n"
    "zebra\r\n"
    "r2d2\n"
    "co-op\n"
    "café\n"
    "3D\n"
    "naïve\n"
    "ice cream\n"
    "a\n"
    "qi"
)
MESSY_WORDS = ["CAT", "DOG", "QI", "ZEBRA"]
MESSY_SKIPPED = 7


def _forbid_build(monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(*args: object) -> None:
        raise AssertionError("the trie was rebuilt although a valid cache file exists")

    monkeypatch.setattr(lexicon_module, "_build_cache", fail)


def _write(path: Path, text: str) -> Path:
    path.write_bytes(text.encode("utf-8"))
    return path


def _warnings(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [
        record
        for record in caplog.records
        if record.name == "scrabble_core.lexicon" and record.levelno == logging.WARNING
    ]


def _cache_files(cache_dir: Path) -> list[str]:
    return sorted(path.name for path in cache_dir.iterdir())


# --- ENABLE ---------------------------------------------------------------------------------------


def test_enable_has_the_expected_word_count(enable_lexicon: Lexicon) -> None:
    assert len(enable_lexicon) == ENABLE_WORD_COUNT == 172_820
    assert enable_lexicon.skipped == 0
    assert enable_lexicon.name == "ENABLE"
    assert enable_lexicon.alphabet == ENGLISH_ALPHABET


@pytest.mark.parametrize("word", ["AA", "QAT", "XU", "CWM", "ZAX", "AARDVARK", "ZYZZYVAS"])
def test_enable_has_known_words(enable_lexicon: Lexicon, word: str) -> None:
    assert word in enable_lexicon


# ENABLE predates QI and ZA (added to the North American lists in 2006): they are not in it.
@pytest.mark.parametrize("word", ["QZX", "QI", "ZA", "A", "", "AAA"])
def test_enable_lacks_non_words(enable_lexicon: Lexicon, word: str) -> None:
    assert word not in enable_lexicon


def test_contains_is_exact_and_uppercase_only(enable_lexicon: Lexicon) -> None:
    assert "AA" in enable_lexicon
    assert "aa" not in enable_lexicon
    assert "Aa" not in enable_lexicon
    assert " AA" not in enable_lexicon
    assert 1 not in enable_lexicon
    assert None not in enable_lexicon
    assert b"AA" not in enable_lexicon


def test_enable_iterates_sorted_uppercase(enable_lexicon: Lexicon) -> None:
    words = list(enable_lexicon)
    assert len(words) == ENABLE_WORD_COUNT
    assert words == sorted(words)
    assert words[:3] == ["AA", "AAH", "AAHED"]
    assert all(word.isupper() for word in words)


def test_enable_cache_layout(enable_lexicon: Lexicon) -> None:
    trie_path = enable_lexicon.trie_path
    assert trie_path is not None
    assert trie_path.name == f"{enable_lexicon.source_hash}.marisa"
    assert trie_path.is_file()
    assert len(enable_lexicon.source_hash) == 64
    lexicon_files = [name for name in _cache_files(trie_path.parent) if not name.endswith(".dawg")]
    assert lexicon_files == [
        f"{enable_lexicon.source_hash}.marisa",
        f"{enable_lexicon.source_hash}.meta.json",
    ]


def test_enable_second_load_uses_the_cache(enable_lexicon: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    assert enable_lexicon.trie_path is not None
    before = enable_lexicon.trie_path.stat()
    _forbid_build(monkeypatch)
    again = load_enable(cache_dir=enable_lexicon.trie_path.parent)
    assert len(again) == ENABLE_WORD_COUNT
    assert again.trie_path == enable_lexicon.trie_path
    after = enable_lexicon.trie_path.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)


def test_enable_repr(enable_lexicon: Lexicon) -> None:
    assert repr(enable_lexicon) == (
        "Lexicon(name='ENABLE', words=172820, alphabet='ABCDEFGHIJKLMNOPQRSTUVWXYZ', skipped=0)"
    )


@pytest.mark.parametrize("source", [None, "enable", "ENABLE", "Enable"])
def test_load_lexicon_names_enable(
    enable_lexicon: Lexicon, monkeypatch: pytest.MonkeyPatch, source: str | None
) -> None:
    assert enable_lexicon.trie_path is not None
    _forbid_build(monkeypatch)
    loaded = load_lexicon(source, ENGLISH_ALPHABET, cache_dir=enable_lexicon.trie_path.parent)
    assert loaded.name == "ENABLE"
    assert loaded.source_hash == enable_lexicon.source_hash


# --- ENABLE through a fake distribution, to check how its JSON file is read -----------------------


class _FakeDistribution:
    def __init__(self, root: Path) -> None:
        self.root = root

    def locate_file(self, name: str) -> Path:
        return self.root / name


def _fake_enable(monkeypatch: pytest.MonkeyPatch, root: Path, content: str) -> Path:
    path = root / "scrabble" / "dictionary.json"
    path.parent.mkdir(parents=True)
    _write(path, content)

    def distribution(name: str) -> _FakeDistribution:
        assert name == "scrabble"
        return _FakeDistribution(root)

    monkeypatch.setattr(importlib.metadata, "distribution", distribution)
    return path


def test_enable_json_goes_through_the_same_normaliser(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    path = _fake_enable(monkeypatch, tmp_path, json.dumps(["aa", "Qat", "x", "co-op", "aa"]))
    lexicon = load_enable(cache_dir=tmp_path / "cache")
    assert list(lexicon) == ["AA", "QAT"]
    assert lexicon.skipped == 2
    assert [str(path) in record.getMessage() for record in _warnings(caplog)] == [True]


def test_enable_and_word_list_of_the_same_bytes_are_cached_apart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    content = '["aa", "bb"]'
    _fake_enable(monkeypatch, tmp_path, content)
    as_json = load_enable(cache_dir=tmp_path / "cache")
    with pytest.raises(LexiconError, match="no word of the alphabet"):
        load_word_list(_write(tmp_path / "same.txt", content), ENGLISH_ALPHABET, tmp_path / "cache")
    # Had the word list been keyed like the JSON file, it would have loaded ENABLE's cached trie.
    assert list(as_json) == ["AA", "BB"]


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ('["aa", "bb"', "not valid JSON"),
        ('{"aa": 1}', "expected a JSON array of strings"),
        ('["aa", 3]', "expected a JSON array of strings"),
        ("[]", "no word of the alphabet"),
    ],
)
def test_enable_bad_json_is_a_lexicon_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, content: str, problem: str
) -> None:
    path = _fake_enable(monkeypatch, tmp_path, content)
    with pytest.raises(LexiconError, match=problem) as caught:
        load_enable(cache_dir=tmp_path / "cache")
    assert str(path) in str(caught.value)


def test_enable_without_its_package_is_a_lexicon_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def distribution(name: str) -> None:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "distribution", distribution)
    with pytest.raises(LexiconError, match=r"scrabble==1\.3"):
        load_enable()


# --- word lists: normalisation and skipping -------------------------------------------------------


def test_word_list_normalises_and_skips(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = _write(tmp_path / "messy.txt", MESSY_LIST)
    lexicon = load_word_list(path, ENGLISH_ALPHABET, cache_dir=tmp_path / "cache")
    assert list(lexicon) == MESSY_WORDS
    assert len(lexicon) == 4
    assert lexicon.skipped == MESSY_SKIPPED
    assert lexicon.name == "messy"
    assert "Dog" not in lexicon
    [warning] = _warnings(caplog)
    message = warning.getMessage()
    assert str(path) in message
    assert "skipped 7 entries" in message
    assert "'r2d2'" in message
    assert "'co-op'" in message


def test_word_list_of_one_bad_entry_says_entry(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = _write(tmp_path / "one.txt", "cat\ndog\nx\n")
    assert load_word_list(path, ENGLISH_ALPHABET, tmp_path / "cache").skipped == 1
    [warning] = _warnings(caplog)
    assert "skipped 1 entry that" in warning.getMessage()


def test_clean_word_list_logs_no_warning(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = _write(tmp_path / "clean.txt", "cat\ndog\n")
    lexicon = load_word_list(path, ENGLISH_ALPHABET, tmp_path / "cache")
    assert lexicon.skipped == 0
    assert _warnings(caplog) == []


def test_german_alphabet(tmp_path: Path) -> None:
    decomposed = unicodedata.normalize("NFD", "ärger")
    assert len(decomposed) == 6
    path = _write(
        tmp_path / "deutsch.txt",
        "\n".join(["Äpfel", "öl", "Über", "straße", decomposed, "café", "señor", "ß", "QUA"]),
    )
    lexicon = load_word_list(path, GERMAN_ALPHABET, cache_dir=tmp_path / "cache")
    # "straße" is uppercased to "STRASSE" before the alphabet check; a lone "ß" becomes "SS".
    # The NFD "ärger" is composed to NFC first; "café" and "señor" have letters outside it.
    assert set(lexicon) == {"ÄPFEL", "ÖL", "ÜBER", "STRASSE", "ÄRGER", "SS", "QUA"}
    assert lexicon.skipped == 2
    assert lexicon.alphabet == GERMAN_ALPHABET
    # Code-point order: the umlauts come after Z.
    assert list(lexicon) == ["QUA", "SS", "STRASSE", "ÄPFEL", "ÄRGER", "ÖL", "ÜBER"]
    assert "ÄRGER" in lexicon
    assert decomposed.upper() not in lexicon


def test_alphabet_is_normalised_to_nfc(tmp_path: Path) -> None:
    path = _write(tmp_path / "de.txt", "öl\n")
    decomposed_alphabet = unicodedata.normalize("NFD", GERMAN_ALPHABET)
    lexicon = load_word_list(path, decomposed_alphabet, cache_dir=tmp_path / "cache")
    assert lexicon.alphabet == GERMAN_ALPHABET
    assert list(lexicon) == ["ÖL"]


def test_load_lexicon_takes_a_path_or_a_string(tmp_path: Path) -> None:
    path = _write(tmp_path / "enable", "cat\ndog\n")
    by_path = load_lexicon(path, ENGLISH_ALPHABET, cache_dir=tmp_path / "cache")
    by_string = load_lexicon(str(path), ENGLISH_ALPHABET, cache_dir=tmp_path / "cache")
    assert list(by_path) == list(by_string) == ["CAT", "DOG"]
    assert by_path.name == by_string.name == "enable"


# --- word lists: errors ---------------------------------------------------------------------------


def test_missing_file_is_a_lexicon_error(tmp_path: Path) -> None:
    path = tmp_path / "nowhere" / "words.txt"
    with pytest.raises(LexiconError, match="no such file") as caught:
        load_word_list(path, ENGLISH_ALPHABET, cache_dir=tmp_path / "cache")
    assert str(path) in str(caught.value)
    assert isinstance(caught.value, ScrabbleError)
    assert isinstance(caught.value, ValueError)
    assert caught.value.source == str(path)


def test_directory_is_a_lexicon_error(tmp_path: Path) -> None:
    with pytest.raises(LexiconError, match="is a directory") as caught:
        load_word_list(tmp_path, ENGLISH_ALPHABET, cache_dir=tmp_path / "cache")
    assert str(tmp_path) in str(caught.value)


@pytest.mark.parametrize("content", ["", "\n\n# only comments\n", "1\n2\nx\nco-op\n", "\ufeff\r\n\r\n"])
def test_no_valid_word_is_a_lexicon_error(tmp_path: Path, content: str) -> None:
    path = _write(tmp_path / "empty.txt", content)
    cache_dir = tmp_path / "cache"
    with pytest.raises(LexiconError, match="no word of the alphabet") as caught:
        load_word_list(path, ENGLISH_ALPHABET, cache_dir=cache_dir)
    assert str(path) in str(caught.value)
    assert not cache_dir.exists()


def test_invalid_utf8_is_a_lexicon_error(tmp_path: Path) -> None:
    path = tmp_path / "latin1.txt"
    path.write_bytes("cat\ncafé\n".encode("latin-1"))
    with pytest.raises(LexiconError, match=r"not valid UTF-8 \(at byte 7\)") as caught:
        load_word_list(path, ENGLISH_ALPHABET, cache_dir=tmp_path / "cache")
    assert str(path) in str(caught.value)


def test_unwritable_cache_is_a_lexicon_error(tmp_path: Path) -> None:
    path = _write(tmp_path / "words.txt", "cat\n")
    not_a_dir = _write(tmp_path / "file", "")
    with pytest.raises(LexiconError, match="SCRABBLE_CACHE_DIR") as caught:
        load_word_list(path, ENGLISH_ALPHABET, cache_dir=not_a_dir / "cache")
    assert str(not_a_dir) in str(caught.value)


# --- the cache ------------------------------------------------------------------------------------


def test_second_load_maps_the_cache_without_rebuilding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    path = _write(tmp_path / "messy.txt", MESSY_LIST)
    cache_dir = tmp_path / "cache"
    first = load_word_list(path, ENGLISH_ALPHABET, cache_dir=cache_dir)
    assert first.trie_path is not None
    before = first.trie_path.stat()
    caplog.clear()
    _forbid_build(monkeypatch)
    second = load_word_list(path, ENGLISH_ALPHABET, cache_dir=cache_dir)
    after = first.trie_path.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    assert second.trie_path == first.trie_path
    assert second.source_hash == first.source_hash
    assert list(second) == MESSY_WORDS
    # The skipped count and examples come from the cache, and are reported again.
    assert second.skipped == MESSY_SKIPPED
    [warning] = _warnings(caplog)
    assert "skipped 7 entries" in warning.getMessage()
    assert "'r2d2'" in warning.getMessage()


def test_build_writes_only_the_trie_and_its_metadata(tmp_path: Path) -> None:
    path = _write(tmp_path / "words.txt", "cat\ndog\n")
    lexicon = load_word_list(path, ENGLISH_ALPHABET, cache_dir=tmp_path / "cache")
    digest = lexicon.source_hash
    assert lexicon.trie_path == tmp_path / "cache" / f"{digest}.marisa"
    assert _cache_files(tmp_path / "cache") == [f"{digest}.marisa", f"{digest}.meta.json"]


def test_other_alphabet_gets_another_cache_file(tmp_path: Path) -> None:
    path = _write(tmp_path / "words.txt", "cat\ndog\nöl\n")
    cache_dir = tmp_path / "cache"
    english = load_word_list(path, ENGLISH_ALPHABET, cache_dir=cache_dir)
    german = load_word_list(path, GERMAN_ALPHABET, cache_dir=cache_dir)
    assert english.source_hash != german.source_hash
    assert english.trie_path != german.trie_path
    assert list(english) == ["CAT", "DOG"]
    assert list(german) == ["CAT", "DOG", "ÖL"]
    assert len(list(cache_dir.glob("*.marisa"))) == 2


def test_changed_source_gets_another_cache_file(tmp_path: Path) -> None:
    path = _write(tmp_path / "words.txt", "cat\ndog\n")
    cache_dir = tmp_path / "cache"
    old = load_word_list(path, ENGLISH_ALPHABET, cache_dir=cache_dir)
    _write(path, "cat\ndog\nemu\n")
    new = load_word_list(path, ENGLISH_ALPHABET, cache_dir=cache_dir)
    assert old.source_hash != new.source_hash
    assert old.trie_path != new.trie_path
    assert list(new) == ["CAT", "DOG", "EMU"]
    assert list(old) == ["CAT", "DOG"]


def test_same_bytes_elsewhere_share_the_cache_file(tmp_path: Path) -> None:
    cache_dir = tmp_path / "cache"
    one = load_word_list(_write(tmp_path / "one.txt", "cat\n"), ENGLISH_ALPHABET, cache_dir)
    two = load_word_list(_write(tmp_path / "two.txt", "cat\n"), ENGLISH_ALPHABET, cache_dir)
    assert one.trie_path == two.trie_path
    assert (one.name, two.name) == ("one", "two")


def _garbage(path: Path) -> None:
    path.write_bytes(b"not a trie at all" * 10)


def _truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:100])


def _flip_a_byte(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))


def _empty(path: Path) -> None:
    path.write_bytes(b"")


def _delete(path: Path) -> None:
    path.unlink()


@pytest.mark.parametrize("damage", [_garbage, _truncate, _flip_a_byte, _empty, _delete])
@pytest.mark.parametrize("which", ["trie", "meta"])
def test_damaged_cache_is_rebuilt(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, damage: Callable[[Path], None], which: str
) -> None:
    path = _write(tmp_path / "messy.txt", MESSY_LIST)
    cache_dir = tmp_path / "cache"
    first = load_word_list(path, ENGLISH_ALPHABET, cache_dir=cache_dir)
    assert first.trie_path is not None
    target = first.trie_path if which == "trie" else first.trie_path.with_suffix(".meta.json")
    damage(target)
    caplog.clear()
    again = load_word_list(path, ENGLISH_ALPHABET, cache_dir=cache_dir)
    assert list(again) == MESSY_WORDS
    assert again.skipped == MESSY_SKIPPED
    assert any("rebuilding" in record.getMessage() for record in _warnings(caplog))
    assert _cache_files(cache_dir) == [
        f"{again.source_hash}.marisa",
        f"{again.source_hash}.meta.json",
    ]


@pytest.mark.parametrize(
    "meta",
    [
        "[]",
        '{"words": 4}',
        '{"words": "4", "skipped": 7, "examples": [], "trie_sha256": ""}',
        '{"words": 4, "skipped": 7, "examples": [1], "trie_sha256": ""}',
    ],
)
def test_malformed_metadata_is_rebuilt(tmp_path: Path, meta: str) -> None:
    path = _write(tmp_path / "messy.txt", MESSY_LIST)
    cache_dir = tmp_path / "cache"
    first = load_word_list(path, ENGLISH_ALPHABET, cache_dir=cache_dir)
    assert first.trie_path is not None
    _write(first.trie_path.with_suffix(".meta.json"), meta)
    again = load_word_list(path, ENGLISH_ALPHABET, cache_dir=cache_dir)
    assert list(again) == MESSY_WORDS


def test_metadata_word_count_must_match_the_trie(tmp_path: Path) -> None:
    path = _write(tmp_path / "words.txt", "cat\ndog\n")
    cache_dir = tmp_path / "cache"
    first = load_word_list(path, ENGLISH_ALPHABET, cache_dir=cache_dir)
    assert first.trie_path is not None
    meta_path = first.trie_path.with_suffix(".meta.json")
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    meta["words"] = 3
    _write(meta_path, json.dumps(meta))
    assert len(load_word_list(path, ENGLISH_ALPHABET, cache_dir=cache_dir)) == 2
    assert json.loads(meta_path.read_text(encoding="utf-8"))["words"] == 2


def test_failed_atomic_write_leaves_nothing(tmp_path: Path) -> None:
    target = tmp_path / "out.bin"

    def fail(temp: Path) -> None:
        temp.write_bytes(b"half")
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        lexicon_module._write_atomic(target, fail)
    assert list(tmp_path.iterdir()) == []


_BUILD_IN_CHILD = """
import sys
from pathlib import Path
from scrabble_core.lexicon import ENGLISH_ALPHABET, load_word_list
lexicon = load_word_list(Path(sys.argv[1]), ENGLISH_ALPHABET, cache_dir=Path(sys.argv[2]))
print(len(lexicon))
"""


def test_concurrent_builds_leave_a_valid_cache(tmp_path: Path) -> None:
    letters = "ABCDEFGHIJKLMNOP"
    words = ["".join(letters) for letters in itertools.product(letters, repeat=4)]
    path = _write(tmp_path / "many.txt", "\n".join(words))
    cache_dir = tmp_path / "cache"
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    children = [
        subprocess.Popen(
            [sys.executable, "-c", _BUILD_IN_CHILD, str(path), str(cache_dir)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
    ]
    outputs = [child.communicate(timeout=60) for child in children]
    assert [child.returncode for child in children] == [0] * 4, outputs
    assert [stdout.strip() for stdout, _ in outputs] == [str(len(words))] * 4
    lexicon = load_word_list(path, ENGLISH_ALPHABET, cache_dir=cache_dir)
    assert len(lexicon) == len(words)
    assert _cache_files(cache_dir) == [
        f"{lexicon.source_hash}.marisa",
        f"{lexicon.source_hash}.meta.json",
    ]


# --- default cache dir ----------------------------------------------------------------------------


def test_default_cache_dir_prefers_scrabble_cache_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SCRABBLE_CACHE_DIR", str(tmp_path / "mine"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_cache_dir() == tmp_path / "mine"


def test_default_cache_dir_uses_xdg(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SCRABBLE_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_cache_dir() == tmp_path / "xdg" / "scrabble-host"


@pytest.mark.parametrize("xdg", [None, "", "relative/cache"])
def test_default_cache_dir_falls_back_to_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, xdg: str | None
) -> None:
    monkeypatch.delenv("SCRABBLE_CACHE_DIR", raising=False)
    if xdg is None:
        monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    else:
        monkeypatch.setenv("XDG_CACHE_HOME", xdg)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_cache_dir() == tmp_path / ".cache" / "scrabble-host"


def test_loaders_use_the_default_cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SCRABBLE_CACHE_DIR", str(tmp_path / "env-cache"))
    lexicon = load_word_list(_write(tmp_path / "w.txt", "cat\n"), ENGLISH_ALPHABET)
    assert lexicon.trie_path == tmp_path / "env-cache" / f"{lexicon.source_hash}.marisa"


# --- in memory ------------------------------------------------------------------------------------


def test_from_words_normalises_and_skips(caplog: pytest.LogCaptureFixture) -> None:
    lexicon = Lexicon.from_words(
        ["cat", " Dog\r", "CAT", "x", "r2d2", "# comment", ""], ENGLISH_ALPHABET, name="tiny"
    )
    assert list(lexicon) == ["CAT", "DOG"]
    assert lexicon.skipped == 2
    assert lexicon.name == "tiny"
    assert lexicon.trie_path is None
    [warning] = _warnings(caplog)
    assert "tiny: skipped 2 entries" in warning.getMessage()


def test_from_words_hash_depends_on_words_and_alphabet_only() -> None:
    one = Lexicon.from_words(["cat", "dog"], ENGLISH_ALPHABET)
    two = Lexicon.from_words(["DOG", "cat", "Cat"], ENGLISH_ALPHABET)
    other = Lexicon.from_words(["cat", "dog"], GERMAN_ALPHABET)
    assert one.source_hash == two.source_hash != other.source_hash
    assert one.name == "custom"


def test_from_words_may_be_empty() -> None:
    lexicon = Lexicon.from_words([], ENGLISH_ALPHABET)
    assert len(lexicon) == 0
    assert list(lexicon) == []
    assert "A" not in lexicon
