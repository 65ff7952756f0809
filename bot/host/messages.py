"""The messages the host and the games' commands produce, as plain data: text, files, who may see them.

The host knows nothing of Discord. Public announcements go to a channel through the notifier
(:class:`bot.host.protocols.Notifier`); answers to a command are returned to the caller, who shows
``private`` ones to the asker only (ephemerally). Mentions are written ``<@user_id>`` in the text and
listed in :attr:`Message.mentions`, so the sender can allow exactly those pings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final


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
    may see it (``private``: a DM, or an ephemeral reply). ``game`` is the id of the game it is about
    (required with buttons: the game they act on); a game's newer public message takes the buttons
    of its older ones away, where the front end can. ``turn`` is the game's move number (the length of
    its history) when the message was made, so that its turn buttons act on that turn only (``None``:
    whatever the turn). ``update``: the message is a new version of the game's newest message (its
    lobby as players join), which the front end edits in place where it can. ``links`` open pages (the
    web board); a private link is refused in a public message. ``key`` names the post
    (:func:`bot.host.outbox.post_key`): a post with the key of one the channel already got (an
    announcement posted again after a crash) is not made twice where the front end can tell (on
    Discord, for a few minutes: the key is the message's nonce)."""

    text: str
    attachments: tuple[Attachment, ...] = ()
    private: bool = False
    mentions: tuple[int, ...] = ()
    buttons: tuple[str, ...] = ()
    game: int | None = None
    turn: int | None = None
    links: tuple[Link, ...] = ()
    key: str | None = None
    update: bool = False

    def __post_init__(self) -> None:
        if self.key is not None and not 0 < len(self.key) <= MAX_KEY:
            raise ValueError(f"a message's key has 1 to {MAX_KEY} characters")
        if self.buttons and self.game is None:
            raise ValueError("a message with buttons names the game they act on")
        if not self.private and any(link.private for link in self.links):
            raise ValueError("a private link never goes in a public message")


def shorten(text: str, limit: int) -> str:
    """``text``, cut to ``limit`` characters with an ellipsis if it is longer."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def mention(user_id: int) -> str:
    """How a message text mentions a user."""
    return f"<@{user_id}>"


def channel_link(channel_id: int) -> str:
    """How a message text names a channel."""
    return f"<#{channel_id}>"
