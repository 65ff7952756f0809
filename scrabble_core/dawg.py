"""The word graph the move generator walks: a minimal DAWG stored as one flat table of integers.

marisa-trie answers "is this a word?" but cannot be walked letter by letter from Python, so the move
generator uses this separate structure, built once per lexicon and cached on disk beside the lexicon's
trie file.

Layout. A lexicon over an alphabet of ``A`` letters gives a table of ``stride = A + 2 + LOOKAHEAD``
integers per node; node ``k`` starts at *base* ``k * stride`` and the root is node 0 (base 0):

- ``table[base + i]`` for ``i < A``: the base of the child reached by letter ``i`` of the alphabet,
  or 0 when no word continues with that letter (no edge leads back to the root, so 0 is free);
- ``table[base + A]``: 1 if the letters leading to the node spell a word, else 0;
- ``table[base + A + 1 + d]`` for ``0 <= d <= LOOKAHEAD``: the bit mask (bit ``i`` for letter ``i``)
  of the letters that can come ``d + 1`` letters after the node in some word: for ``d = 0`` the
  letters that have a child. The move generator uses the deeper masks to give up early on a start
  whose letters cannot reach the constraint of a square further on.

The graph is minimal (equivalent suffixes are shared): ENABLE gives 54,167 nodes.

Cache file. ``<source_hash>.dawg`` beside :attr:`Lexicon.trie_path`: a header line
``scrabble-host dawg <format> <typecode> <stride> <length> <sha256 of the table bytes>``, the alphabet
in UTF-8 on the next line, then the table as little-endian integers of the :mod:`array` typecode
(``i``, 32 bits, for alphabets of up to 31 letters, else ``q``). It is written atomically (temporary
file then :func:`os.replace`); a file that is unreadable or fails its checks is rebuilt.
"""

from __future__ import annotations

import hashlib
import logging
import os
import sys
import tempfile
import time
from array import array
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from scrabble_core.lexicon import Lexicon

LOOKAHEAD: Final = 7
MAX_ALPHABET: Final = 63

_FORMAT: Final = 1
_MAGIC: Final = "scrabble-host dawg"
_SUFFIX: Final = ".dawg"

logger = logging.getLogger(__name__)


@dataclass(frozen=True, eq=False)
class Dawg:
    """A minimal DAWG of a lexicon's words as a flat table (layout in the module docstring).

    Attributes:
        alphabet: the lexicon's letters; letter ``i`` of a word is edge ``i``.
        table: the nodes, :attr:`stride` integers each, the root first.
    """

    alphabet: str
    table: list[int]

    @property
    def stride(self) -> int:
        """Integers per node: one per letter, the word flag, then ``LOOKAHEAD + 1`` letter masks."""
        return len(self.alphabet) + 2 + LOOKAHEAD

    @property
    def node_count(self) -> int:
        """Number of nodes in the graph."""
        return len(self.table) // self.stride

    def words(self) -> Iterator[str]:
        """Every word of the graph, in the order of the alphabet's letters (depth first)."""
        table = self.table
        size = len(self.alphabet)
        stack: list[tuple[int, str]] = [(0, "")]
        while stack:
            node, prefix = stack.pop()
            if table[node + size]:
                yield prefix
            stack.extend(
                (table[node + i], prefix + self.alphabet[i]) for i in reversed(range(size)) if table[node + i]
            )


def build_dawg(words: Iterable[str], alphabet: str) -> Dawg:
    """Build the minimal DAWG of ``words``, which must be sorted by code point (as ``Lexicon``
    iterates), distinct, and written with letters of ``alphabet`` only.

    Uses the incremental construction of Daciuk et al. (2000): when a word leaves the path of the
    previous one, the abandoned part of that path is minimised against a register of finished nodes.

    Raises:
        ValueError: a word is out of order or repeated or uses a letter outside ``alphabet``; or the
            alphabet has more than ``MAX_ALPHABET`` letters.
    """
    if len(alphabet) > MAX_ALPHABET:
        raise ValueError(f"an alphabet of {len(alphabet)} letters (at most {MAX_ALPHABET})")
    index = {letter: i for i, letter in enumerate(alphabet)}
    # A finished node is its signature: (is_word, letter, child id, letter, child id, ...).
    register: dict[tuple[int, ...], int] = {}
    signatures: list[tuple[int, ...]] = [()]  # id 0 is kept for the root
    # The path of the last word: for each depth, the node's edges so far (flat letter/child pairs,
    # the last child still open) and its word flag.
    path_edges: list[list[int]] = [[]]
    path_final: list[int] = [0]
    previous: list[int] = []
    previous_word = ""

    def finish(depth: int) -> None:
        """Register the path's nodes deeper than ``depth`` and link each to its parent."""
        for level in range(len(path_edges) - 1, depth, -1):
            signature = (path_final[level], *path_edges[level])
            node = register.get(signature)
            if node is None:
                node = len(signatures)
                register[signature] = node
                signatures.append(signature)
            path_edges[level - 1][-1] = node
            del path_edges[level], path_final[level]

    for word in words:
        try:
            letters = [index[letter] for letter in word]
        except KeyError as error:
            raise ValueError(f"{word!r} has a letter outside the alphabet: {error}") from None
        common = 0
        limit = min(len(previous), len(letters))
        while common < limit and previous[common] == letters[common]:
            common += 1
        if previous and (common == len(letters) or word < previous_word):
            raise ValueError(f"{word!r} is out of order or repeated")
        finish(common)
        for letter in letters[common:]:
            path_edges[-1] += (letter, -1)
            path_edges.append([])
            path_final.append(0)
        path_final[-1] = 1
        previous = letters
        previous_word = word
    finish(0)
    signatures[0] = (path_final[0], *path_edges[0])
    return Dawg(alphabet, _table(signatures, len(alphabet)))


def _table(signatures: list[tuple[int, ...]], size: int) -> list[int]:
    """Lay the registered nodes out as the flat table of the module docstring."""
    stride = size + 2 + LOOKAHEAD
    count = len(signatures)
    children: list[list[int]] = []
    masks = [0] * count
    table = [0] * (count * stride)
    for node, signature in enumerate(signatures):
        base = node * stride
        table[base + size] = signature[0]
        kids = list(signature[2::2])
        children.append(kids)
        mask = 0
        for letter, child in zip(signature[1::2], kids, strict=True):
            table[base + letter] = child * stride
            mask |= 1 << letter
        masks[node] = mask
    for depth in range(LOOKAHEAD + 1):
        offset = size + 1 + depth
        for node in range(count):
            table[node * stride + offset] = masks[node]
        # The letters d + 2 after a node: those d + 1 after any of its children.
        masks = [_union(masks, kids) for kids in children]
    return table


def _union(masks: list[int], nodes: list[int]) -> int:
    union = 0
    for node in nodes:
        union |= masks[node]
    return union


def dawg_cache_path(lexicon: Lexicon, cache_dir: Path | None = None) -> Path | None:
    """Where the DAWG of ``lexicon`` is cached: ``cache_dir`` if given, else beside the lexicon's trie
    file; ``None`` for a lexicon built in memory with no ``cache_dir``."""
    if cache_dir is not None:
        return cache_dir / f"{lexicon.source_hash}{_SUFFIX}"
    if lexicon.trie_path is None:
        return None
    return lexicon.trie_path.with_name(f"{lexicon.source_hash}{_SUFFIX}")


def load_dawg(lexicon: Lexicon, cache_dir: Path | None = None) -> Dawg:
    """The DAWG of ``lexicon``: read from its cache file if that is present and sound, else built from
    the lexicon's words and written there (see :func:`dawg_cache_path`; nothing is written when there
    is no cache path). A damaged cache file is logged and rebuilt; a cache that cannot be written is
    logged and the built DAWG is still returned.
    """
    path = dawg_cache_path(lexicon, cache_dir)
    if path is not None:
        cached = _read_cache(path, lexicon.alphabet)
        if cached is not None:
            return cached
    started = time.perf_counter()
    dawg = build_dawg(lexicon, lexicon.alphabet)
    logger.info(
        "built the DAWG of %s (%d nodes) in %.0f ms",
        lexicon.name,
        dawg.node_count,
        (time.perf_counter() - started) * 1000,
    )
    if path is not None:
        try:
            _write_cache(path, dawg)
        except OSError as error:
            logger.warning("cannot write the DAWG cache %s (%s); using it uncached", path, error)
    return dawg


def _typecode(alphabet: str) -> str:
    """The :mod:`array` typecode that holds the table's letter masks (and node bases)."""
    return "i" if len(alphabet) <= 31 else "q"


def _write_cache(path: Path, dawg: Dawg) -> None:
    """Write ``dawg`` to ``path`` atomically. Raises OSError if the directory is not writable."""
    typecode = _typecode(dawg.alphabet)
    packed = array(typecode, dawg.table)
    if sys.byteorder != "little":
        packed.byteswap()
    payload = packed.tobytes()
    digest = hashlib.sha256(payload).hexdigest()
    header = f"{_MAGIC} {_FORMAT} {typecode} {dawg.stride} {len(dawg.table)} {digest}\n{dawg.alphabet}\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temp_name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(header.encode())
            out.write(payload)
        os.replace(temp_name, path)
    except BaseException:
        Path(temp_name).unlink(missing_ok=True)
        raise


def _read_cache(path: Path, alphabet: str) -> Dawg | None:
    """The DAWG cached at ``path``, or ``None`` if it is absent or fails a check (logged)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as error:
        logger.warning("DAWG cache %s is unreadable (%s); rebuilding it", path, error)
        return None
    try:
        return _parse_cache(data, alphabet)
    except (ValueError, UnicodeDecodeError) as error:
        logger.warning("DAWG cache %s is unusable (%s); rebuilding it", path, error)
        return None


def _parse_cache(data: bytes, alphabet: str) -> Dawg:
    """Decode a cache file's bytes. Raises ValueError (or UnicodeDecodeError) if they are damaged."""
    first = data.find(b"\n")
    second = data.find(b"\n", first + 1)
    if first < 0 or second < 0:
        raise ValueError("no header")
    fields = data[:first].decode().split(" ")
    if len(fields) < 5 or " ".join(fields[:-5]) != _MAGIC or fields[-5] != str(_FORMAT):
        raise ValueError("not a DAWG cache of this format")
    typecode, stride, length, digest = fields[-4], int(fields[-3]), int(fields[-2]), fields[-1]
    if data[first + 1 : second].decode() != alphabet:
        raise ValueError("made for another alphabet")
    if typecode != _typecode(alphabet) or stride != len(alphabet) + 2 + LOOKAHEAD:
        raise ValueError("made with another layout")
    table = array(typecode)
    payload = data[second + 1 :]
    if len(payload) != table.itemsize * length or not length or length % stride:
        raise ValueError(f"{len(payload)} bytes of table, the header says {table.itemsize * length}")
    if hashlib.sha256(payload).hexdigest() != digest:
        raise ValueError("the table does not match its checksum")
    table.frombytes(payload)
    if sys.byteorder != "little":
        table.byteswap()
    return Dawg(alphabet, table.tolist())
