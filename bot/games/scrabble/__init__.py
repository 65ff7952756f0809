"""Scrabble, the host's first game, around the pure engine :mod:`scrabble_core`: its plugin
(:mod:`~bot.games.scrabble.plugin`: rules, announcements, AI and results for the host), its commands
(:mod:`~bot.games.scrabble.commands`), options, texts and rules, hints, analyses and puzzles, its images
(:mod:`~bot.games.scrabble.images`), its Discord commands and buttons (:mod:`~bot.games.scrabble.discord`)
and its terminal game (:mod:`~bot.games.scrabble.console`). :data:`GAME` registers it."""

from bot.games.scrabble.kind import KIND
from bot.host.registry import GameModule, TerminalGame
from scrabble_core.errors import ScrabbleError

GAME = GameModule(
    kind=KIND,
    title="Scrabble",
    parts="bot.games.scrabble.setup",
    codec="bot.games.scrabble.codec",
    refusals=(ScrabbleError,),
    settings="bot.games.scrabble.settings",
    discord="bot.games.scrabble.discord",
    worker="bot.games.scrabble.worker",
    web="bot.games.scrabble.web",
    terminal=TerminalGame(
        "play", "bot.games.scrabble.console.cli", "play Scrabble in the terminal, against the AI or hot-seat"
    ),
    features={
        "ratings": "/scrabble stats and /scrabble leaderboard",
        "analysis": "/scrabble analyze",
        "puzzles": "/scrabble puzzle, /scrabble solve",
    },
    settings_command="/scrabble-settings",
)
