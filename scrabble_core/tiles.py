"""Tiles as a rack holds them and as the board and moves write them: letters, blanks and letter-set tiles.

A tile is a set of letters, each with its points. A letter tile is a set of one letter; the blank is the
set of every letter at 0 points; a variant's ``[[tile_sets]]`` add tiles of a few letters each (a tile
played as A or E, worth 1 either way). Each kind is written as one character:

- on a rack: the letter (``E``), ``?`` for a blank, and the set's number, ``1`` to ``8`` in the order of
  the variant's ``[[tile_sets]]``, for a set tile;
- on the board and in a move's letters: the letter in uppercase for a letter tile, in lowercase for a
  blank, and for a set tile one character that holds its set and the letter it stands for
  (:func:`set_tile`), read back by :func:`letter_of` and :func:`rack_tile`;
- in text (records, and what players type): a set tile is its set's number and its letter in brackets,
  ``[1E]`` (as ``?E`` is a blank standing for E): ``8H Q[1U]IZ`` plays set tile 1 as U. Players may
  leave out the brackets (``Q1UIZ``) where the variant has that set.

The characters of placed set tiles are private-use code points: ``0xF0000 + set * 0x2000 + the letter's
code point``, so a set's letters must be below U+2000 (Latin, Greek, Cyrillic and more).
"""

from __future__ import annotations

from typing import Final

SET_BASE: Final = 0xF0000
SET_BLOCK: Final = 0x2000
MAX_TILE_SETS: Final = 8
SET_SYMBOLS: Final = "12345678"
"""The rack symbol of each set tile, in the order of the variant's ``[[tile_sets]]``."""


def set_tile(symbol: str, letter: str) -> str:
    """The character of a tile of the set ``symbol`` placed as ``letter`` (uppercase, below U+2000)."""
    return chr(SET_BASE + SET_SYMBOLS.index(symbol) * SET_BLOCK + ord(letter))


def is_set_tile(char: str) -> bool:
    """Whether ``char`` is a set tile placed on the board (see :func:`set_tile`)."""
    return ord(char) >= SET_BASE


def letter_of(char: str) -> str:
    """The letter, uppercase, that a tile on the board or in a move's letters stands for."""
    code = ord(char)
    if code >= SET_BASE:
        return chr((code - SET_BASE) % SET_BLOCK)
    return char.upper()


def rack_tile(char: str) -> str:
    """The rack symbol of the tile a board or move character is: its letter, ``?`` for a blank, the set's
    number for a set tile."""
    code = ord(char)
    if code >= SET_BASE:
        return SET_SYMBOLS[(code - SET_BASE) // SET_BLOCK]
    return "?" if char.islower() else char


def tile_text(char: str) -> str:
    """A tile on the board or in a move as text writes it: the letter, lowercase for a blank, ``[1E]`` for
    a set tile."""
    if ord(char) >= SET_BASE:
        return f"[{rack_tile(char)}{letter_of(char)}]"
    return char


_FIRST_SET_CHAR: Final = chr(SET_BASE)


def has_set_tile(letters: str) -> bool:
    """Whether ``letters`` (as the board and moves write them) hold a set tile."""
    return bool(letters) and max(letters) >= _FIRST_SET_CHAR


def word_text(letters: str) -> str:
    """:func:`tile_text` of each of ``letters``."""
    return "".join(map(tile_text, letters)) if has_set_tile(letters) else letters
