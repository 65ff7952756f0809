"""Go as a game of the host: :class:`~bot.games.go.commands.GoService` over the same store, locks,
outbox and AI worker pool as Scrabble's service, with Go's own rules adapter (:mod:`go_core`), options
and messages. See /docs or ``GoService`` for the commands."""

from bot.games.go.commands import GoService
from bot.games.go.options import GoNewGame, GoOptions

__all__ = ["GoNewGame", "GoOptions", "GoService"]
