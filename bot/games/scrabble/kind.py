"""Scrabble's kind: its name in the store, its buttons' ids and its AI jobs (never changed once games are
stored)."""

from typing import Final

KIND: Final = "scrabble"
