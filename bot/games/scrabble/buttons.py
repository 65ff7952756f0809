"""The buttons of Scrabble's messages (:attr:`bot.host.messages.Message.buttons`): each names its
action in the game's namespace, as its custom id on Discord begins (``scrabble:play``); pressing one
calls the command of that action on the message's game (:mod:`bot.games.scrabble.discord.views`)."""

from __future__ import annotations

import enum


class ScrabbleButton(enum.StrEnum):
    """A button of a Scrabble message. ``PLAY`` and ``EXCHANGE`` first ask for the move or the tiles."""

    JOIN = "scrabble:join"
    ADD_AI = "scrabble:add-ai"
    ADD_BOT = "scrabble:add-bot"
    START = "scrabble:start"
    CANCEL = "scrabble:cancel"
    PLAY = "scrabble:play"
    EXCHANGE = "scrabble:exchange"
    PASS = "scrabble:pass"
    HINT = "scrabble:hint"
    SHOW_RACK = "scrabble:rack"
    CHALLENGE = "scrabble:challenge"
    ACCEPT = "scrabble:accept"
    NO_CHALLENGE = "scrabble:no-challenge"
    NEW_LINK = "scrabble:new-link"
