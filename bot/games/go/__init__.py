"""Go, the host's second game, around the pure engine :mod:`go_core`: its plugin
(:mod:`~bot.games.go.plugin`: rules, announcements, AI and results for the host), its commands
(:mod:`~bot.games.go.commands`), options and texts, its AIs (:mod:`~bot.games.go.engines`: GNU Go over
:mod:`~bot.games.go.gtp_client`, or the built-in one; :mod:`~bot.games.go.ai_turns`: the AI's turns in
the host), its board image (:mod:`~bot.games.go.board_image`), SGF records (:mod:`~bot.games.go.sgf`),
its Discord commands and buttons (:mod:`~bot.games.go.discord`), the terminal game
(:mod:`~bot.games.go.console`: ``scrabble-bot go``) and the GTP server (:mod:`~bot.games.go.gtp`).
:data:`GAME` registers it."""

from bot.games.go.kind import KIND
from bot.host.registry import GameModule, TerminalGame

GAME = GameModule(
    kind=KIND,
    title="Go",
    parts="bot.games.go.setup",
    codec="bot.games.go.codec",
    settings="bot.games.go.settings",
    discord="bot.games.go.discord",
    worker="bot.games.go.worker",
    web="bot.games.go.web",
    terminal=TerminalGame("go", "bot.games.go.console.cli", "play Go in the terminal, or speak GTP (--gtp)"),
    features={"ratings": "/go stats"},
)
