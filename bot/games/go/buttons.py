"""The buttons of Go's messages (:attr:`bot.host.messages.Message.buttons`): each names its action in
the game's namespace, as its custom id on Discord begins (``go:go-pass``); pressing one calls the
command of that action on the message's game (:mod:`bot.games.go.discord.views`)."""

from __future__ import annotations

import enum


class GoButton(enum.StrEnum):
    """A button of a Go message; ``PLAY`` first asks for the point."""

    JOIN = "go:go-join"
    CANCEL = "go:go-cancel"
    PLAY = "go:go-play"
    PASS = "go:go-pass"
    UNDO = "go:go-undo"
    RESIGN = "go:go-resign"
    UNDO_ACCEPT = "go:go-undo-accept"
    UNDO_REFUSE = "go:go-undo-refuse"
    ACCEPT_SCORE = "go:go-accept-score"
    RESUME = "go:go-resume"
