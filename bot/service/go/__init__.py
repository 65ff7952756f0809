"""Go as a game of the host: :class:`~bot.service.go.service.GoService` over the same store, locks,
outbox and AI worker pool as Scrabble's service, with Go's own rules adapter (:mod:`go_core`), options
and messages. See /docs or ``GoService`` for the commands."""

from bot.service.go.options import GoNewGame, GoOptions
from bot.service.go.service import GoService

__all__ = ["GoNewGame", "GoOptions", "GoService"]
