"""Moves as people read them: the whole word, where it goes and which way, and its blanks said in words.

Engine notation (``6F QAI.``, ``L2 KORUN?AS``) is for typing moves, for GCG records and for the board
protocol's fields; a person reading a move wants the word: ``QAiD at 6F (across)``. Here:

- the whole main word, with the letters of the tiles it goes through (``.`` in notation) read off the
  board;
- a blank as its letter in lowercase (as on the board and in GCG), and said in words: ``with a blank
  for the I``; a letter-set tile as its letter, said likewise: ``with the A/E tile for the E``;
- the word's first square and its direction: ``6F (across)``, ``H8 (down)``, and on an infinite board
  the square's signed coordinate, ``-3,5 (across)``.

An exchange is said by its tiles (``exchange DEO and a blank``), a pass as ``pass``. Every front end
(Discord, the web board, the terminal) writes moves with these functions.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from scrabble_core.board import Board
from scrabble_core.move import PLAYED_THROUGH, Exchange, Move, Pass, Play, move_from_gcg
from scrabble_core.squares import signed_square_name
from scrabble_core.tiles import is_set_tile, letter_of, rack_tile
from scrabble_core.variant import BLANK, Variant

__all__ = [
    "PlayInWords",
    "move_in_words",
    "play_in_words",
    "rack_in_words",
    "scored_in_words",
    "tiles_in_words",
]


@dataclass(frozen=True, slots=True)
class PlayInWords:
    """A play as people read it: ``word`` (blanks lowercase, set tiles as their letter), ``position``
    (``6F (across)``) and ``tiles``, what its special tiles stood for (``with a blank for the I``, or
    empty)."""

    word: str
    position: str
    tiles: str = ""

    @property
    def placed(self) -> str:
        """The word and where it goes: ``QAiD at 6F (across)``."""
        return f"{self.word} at {self.position}"

    def __str__(self) -> str:
        """The word, where it goes and its special tiles: ``QAiD at 6F (across), with a blank for the I``."""
        return f"{self.placed}, {self.tiles}" if self.tiles else self.placed


def play_in_words(play: Play, board: Board) -> PlayInWords:
    """``play`` in words. ``board`` holds the tiles the play goes through (the board just before the play
    or any board since: a tile once played through stays on the board); a square of the word that is empty
    on it is left out of the word.
    """
    variant = board.variant
    letters = []
    for square, letter in zip(play.squares(), play.letters, strict=True):
        tile = board[square] if letter == PLAYED_THROUGH else letter
        if tile is not None:
            letters.append(_shown(tile))
    new = [letter for letter in play.letters if letter != PLAYED_THROUGH]
    return PlayInWords("".join(letters), _position(play, variant), _special(new, variant))


def move_in_words(move: Move | str, board: Board) -> str:
    """Any move in words (a move written in notation is read first): a play as :func:`play_in_words`
    says it, an exchange by its tiles (``exchange DEO and a blank``), a pass as ``pass``.

    Raises:
        InvalidMoveError: ``move`` is a text that is no move in notation.
    """
    if isinstance(move, str):
        move = move_from_gcg(move)
    match move:
        case Play():
            return str(play_in_words(move, board))
        case Exchange(tiles):
            return f"exchange {tiles_in_words(tiles, board.variant)}"
        case Pass():
            return "pass"


def scored_in_words(said: str, points: int | str) -> str:
    """A play as ``str(PlayInWords)`` says it, with its points (a score, or a score and its breakdown)
    before its special tiles: ``aXING at 1K (across) for 60, with a blank for the A``."""
    placed, with_, tiles = said.partition(", with ")
    return f"{placed} for {points}{', with ' + tiles if with_ else ''}"


def tiles_in_words(tiles: str, variant: Variant | None = None, *, grouped: bool = False) -> str:
    """Rack tiles in words: the letters, then the blanks and set tiles named (``DEO and a blank``,
    ``AE, 2 blanks and the A/E tile``); ``nothing`` for none. ``grouped``: sorted, a space between
    different letters, so a long list can be counted (``AAA B EE and 2 blanks``)."""
    plain = [tile for tile in tiles if tile != BLANK and not _is_set_symbol(tile, variant)]
    if grouped:
        letters = " ".join("".join(run) for _, run in itertools.groupby(sorted(plain)))
    else:
        letters = "".join(plain)
    named = []
    blanks = tiles.count(BLANK)
    if blanks:
        named.append("a blank" if blanks == 1 else f"{blanks} blanks")
    for symbol in sorted({tile for tile in tiles if _is_set_symbol(tile, variant)}):
        count = tiles.count(symbol)
        name = _set_name(symbol, variant)
        named.append(f"the {name} tile" if count == 1 else f"{count} {name} tiles")
    parts = ([letters] if letters else []) + named
    if not parts:
        return "nothing"
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


def rack_in_words(rack: str, variant: Variant | None = None) -> str:
    """A rack in words (:func:`tiles_in_words`), ``empty`` when it holds no tile."""
    return tiles_in_words(rack, variant) if rack else "empty"


def _position(play: Play, variant: Variant) -> str:
    """Where the word starts and which way it goes: ``6F (across)``, ``-3,5 (down)``."""
    direction = "across" if play.across else "down"
    if variant.infinite:
        return f"{signed_square_name(play.start)} ({direction})"
    return f"{play.coordinate} ({direction})"


def _special(new: Sequence[str], variant: Variant) -> str:
    """What the blanks and set tiles among the tiles ``new`` stood for: ``with a blank for the I``,
    ``with blanks for the I and the S``, ``with the A/E tile for the E``; empty if there is none."""
    blanks = [letter.upper() for letter in new if not is_set_tile(letter) and letter.islower()]
    phrases = []
    if blanks:
        kind = "a blank" if len(blanks) == 1 else "blanks"
        phrases.append(f"{kind} for {_the(blanks)}")
    by_set: dict[str, list[str]] = {}
    for letter in new:
        if is_set_tile(letter):
            by_set.setdefault(rack_tile(letter), []).append(letter_of(letter))
    for symbol, letters in sorted(by_set.items()):
        name = _set_name(symbol, variant)
        kind = f"the {name} tile" if len(letters) == 1 else f"{name} tiles"
        phrases.append(f"{kind} for {_the(letters)}")
    return f"with {' and '.join(phrases)}" if phrases else ""


def _the(letters: Sequence[str]) -> str:
    """``the I``, ``the I and the S``, ``the A, the E and the S``."""
    named = [f"the {letter}" for letter in letters]
    return named[0] if len(named) == 1 else f"{', '.join(named[:-1])} and {named[-1]}"


def _shown(tile: str) -> str:
    """A tile of the board or a move as the word shows it: its letter, lowercase for a blank."""
    return letter_of(tile) if is_set_tile(tile) else tile


def _is_set_symbol(tile: str, variant: Variant | None) -> bool:
    return variant is not None and variant.tile_set(tile) is not None


def _set_name(symbol: str, variant: Variant | None) -> str:
    """A set tile's name: its letters, ``A/E`` (its rack symbol when the variant is not known)."""
    tile_set = None if variant is None else variant.tile_set(symbol)
    if tile_set is None:
        return f"set {symbol}"
    return "/".join(letter for letter, _ in tile_set.letters)
