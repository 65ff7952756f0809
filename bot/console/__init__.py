"""Play without Discord: the console front end over the bot's game service (``scrabble-bot play``).

Modules: :mod:`~bot.console.cli` (options and wiring), :mod:`~bot.console.app` (the game loop),
:mod:`~bot.console.commands` (what players type), :mod:`~bot.console.screen` (the service's notifier and
renderer in a terminal), :mod:`~bot.console.terminal_board` (the board as text),
:mod:`~bot.console.terminal` (the input/output seam).
"""

from bot.console.cli import main

__all__ = ["main"]
