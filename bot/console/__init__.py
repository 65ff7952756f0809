"""The terminal front end: the input/output seam every game's console uses (:mod:`~bot.console.terminal`)
and the board as text (:mod:`~bot.console.terminal_board`); ``scrabble-bot play`` is Scrabble's console,
:mod:`bot.games.scrabble.console`."""

from __future__ import annotations

from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """``scrabble-bot play ARGS``: Scrabble's console (:func:`bot.games.scrabble.console.cli.main`)."""
    from bot.games.scrabble.console.cli import main as play

    return play(argv)
