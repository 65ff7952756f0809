"""The third game's stored form: its state is the rules' board as JSON, of version :data:`FORMAT`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .rules import Board

FORMAT = 1


def read_state(data: Mapping[str, Any]) -> Board:
    """The board stored as ``data``."""
    return Board.from_dict(data)


def replay(state: Mapping[str, Any]) -> Mapping[str, Any]:
    """``state`` read and written again."""
    return read_state(state).to_dict()
