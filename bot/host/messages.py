"""The messages the game service produces, as plain data: text, files, who may see them.

The service knows nothing of discord. Public announcements go to a channel through the notifier
(:class:`bot.host.protocols.Notifier`); answers to a command are returned to the caller, who shows
``private`` ones to the asker only (ephemerally). Mentions are written ``<@user_id>`` in the text and
listed in :attr:`Message.mentions`, so the sender can allow exactly those pings.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final


class Button(enum.StrEnum):
    """A button the discord layer shows under a message of a game (:attr:`Message.game`); pressing it
    calls the service's method for that action on that game (``PLAY`` and ``EXCHANGE`` first ask for
    the move or the tiles). The value names the action in the button's custom id."""

    JOIN = "join"
    ADD_AI = "add-ai"
    ADD_BOT = "add-bot"
    START = "start"
    CANCEL = "cancel"
    PLAY = "play"
    EXCHANGE = "exchange"
    PASS = "pass"
    HINT = "hint"
    SHOW_RACK = "rack"
    CHALLENGE = "challenge"
    ACCEPT = "accept"
    NO_CHALLENGE = "no-challenge"
    NEW_LINK = "new-link"
    # Go (bot.games.go): the same ``game`` and ``turn`` rules; ``turn`` is the Go game's version.
    GO_JOIN = "go-join"
    GO_CANCEL = "go-cancel"
    GO_PLAY = "go-play"
    GO_PASS = "go-pass"
    GO_UNDO = "go-undo"
    GO_RESIGN = "go-resign"
    GO_UNDO_ACCEPT = "go-undo-accept"
    GO_UNDO_REFUSE = "go-undo-refuse"
    GO_ACCEPT_SCORE = "go-accept-score"
    GO_RESUME = "go-resume"


@dataclass(frozen=True, slots=True)
class Attachment:
    """A file attached to a message: a PNG image or a GCG record."""

    filename: str
    data: bytes = field(repr=False)


@dataclass(frozen=True, slots=True)
class Link:
    """A link shown under a message (a link button on Discord): its label and URL. A ``private`` link
    opens a seat (it plays for that player): it only ever goes in a private message."""

    label: str
    url: str
    private: bool = False


MAX_KEY: Final = 20
"""The longest :attr:`Message.key` (Discord takes nonces of up to 25 characters: a message split in
several takes its key and a piece number)."""


@dataclass(frozen=True, slots=True)
class Message:
    """One message: its text, files, buttons, the users it mentions, and whether only its recipient
    may see it (``private``: a DM, or an ephemeral reply). ``game`` is the id of the game its buttons
    act on (required with buttons); ``turn`` the game's move number (the length of its history) when
    the message was made, so that its turn buttons act on that turn only (``None``: whatever the turn).
    ``links`` open pages (the web board); a private link is refused in a public message. ``key`` names
    the post (:func:`bot.host.outbox.post_key`): a post with the key of one the channel already got
    (an announcement posted again after a crash) is not made twice where the front end can tell (on
    Discord, for a few minutes: the key is the message's nonce)."""

    text: str
    attachments: tuple[Attachment, ...] = ()
    private: bool = False
    mentions: tuple[int, ...] = ()
    buttons: tuple[Button, ...] = ()
    game: int | None = None
    turn: int | None = None
    links: tuple[Link, ...] = ()
    key: str | None = None

    def __post_init__(self) -> None:
        if self.key is not None and not 0 < len(self.key) <= MAX_KEY:
            raise ValueError(f"a message's key has 1 to {MAX_KEY} characters")
        if self.buttons and self.game is None:
            raise ValueError("a message with buttons names the game they act on")
        if not self.private and any(link.private for link in self.links):
            raise ValueError("a private link never goes in a public message")


@dataclass(frozen=True)
class PlayerLine:
    """One player in the header of a board image: name, score, and whether it is their turn."""

    name: str
    score: int
    to_move: bool


@dataclass(frozen=True)
class BoardHeader:
    """The strip above a board image: the players in turn order and the number of tiles left in the
    bag (data for the :class:`~bot.host.protocols.Renderer`)."""

    players: Sequence[PlayerLine]
    bag: int


def shorten(text: str, limit: int) -> str:
    """``text``, cut to ``limit`` characters with an ellipsis if it is longer."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def mention(user_id: int) -> str:
    """How a message text mentions a user."""
    return f"<@{user_id}>"


def channel_link(channel_id: int) -> str:
    """How a message text names a channel."""
    return f"<#{channel_id}>"
