"""Which characters are letters of the game, and what to tell a player who typed another one.

Players type on any keyboard, so input is checked character by character: a letter of the game is a
letter of the variant's alphabet, in either case. Characters that only look like one (a Cyrillic ``А``),
that only fold to one (``ſ`` for S, dotless ``ı`` for I) or digits of other scripts (``٨``, ``𝟏``) are
refused with a message naming the character.
"""

from __future__ import annotations

import unicodedata

from scrabble_core.errors import InvalidMoveError, character_name


def is_game_letter(ch: str, alphabet: str) -> bool:
    """Whether ``ch`` is a letter of ``alphabet`` (uppercase letters) written in upper or lower case."""
    upper = ch.upper()
    return upper in alphabet and len(upper) == 1 and (ch == upper or ch == upper.lower())


def is_letter_or_foreign_digit(ch: str) -> bool:
    """Whether ``ch`` is a letter of any script or a digit other than 0-9: what
    :func:`foreign_character` names (other characters are simply not part of a word)."""
    return ch.isalpha() or (ch.isnumeric() and not ch.isascii())


def foreign_character(ch: str, alphabet: str, expected: str) -> InvalidMoveError:
    """The error for ``ch``, which is not what the input needed (``expected``, e.g. ``"a letter of this
    game"``): it names the character, and the Latin letter or the digits it may be mistaken for.

    ``А (Cyrillic capital letter A) is not the Latin letter A``, ``٨ (Arabic-indic digit eight) is not
    one of the digits 0-9``, ``ſ (Latin small letter long S) is not a letter of this game``.
    """
    name = character_name(ch)
    if ch.isnumeric():
        return InvalidMoveError(f"{name} is not one of the digits 0-9")
    unicode_name = unicodedata.name(ch, "")
    lookalike = unicode_name.rsplit(" ", 1)[-1]
    if len(lookalike) == 1 and lookalike in alphabet and "LATIN" not in unicode_name:
        return InvalidMoveError(f"{name} is not the Latin letter {lookalike}")
    return InvalidMoveError(f"{name} is not {expected}")
