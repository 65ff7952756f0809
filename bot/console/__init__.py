"""The terminal front end, what every game's console shares: the input/output seam
(:mod:`~bot.console.terminal`), the reader of typed commands (:mod:`~bot.console.commands`), the saved
games (:mod:`~bot.console.saved`: ``--list``, ``--resume``, one database for every game) and the
command line's session (:mod:`~bot.console.cli`), and Scrabble's board as text
(:mod:`~bot.console.terminal_board`). ``scrabble-bot play`` is Scrabble's console
(:mod:`bot.games.scrabble.console`), ``scrabble-bot go`` Go's (:mod:`bot.games.go.console`)."""

from __future__ import annotations

from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """``scrabble-bot play ARGS``: Scrabble's console (:func:`bot.games.scrabble.console.cli.main`)."""
    from bot.games.scrabble.console.cli import main as play

    return play(argv)
