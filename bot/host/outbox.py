"""What a committed change still has to announce, :class:`Announcement`: stored in the store's outbox
in the change's own transaction, marked sent once delivered, and delivered again at start-up if a crash
came in between. It holds what rebuilds the messages from the stored game, never the messages."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from bot.host.messages import MAX_KEY, Message
from bot.host.store.games import GameRow, GoRow
from scrabble_core.game import Event


@dataclass(frozen=True, slots=True)
class Announcement:
    """The announcement of a change that left the game at move ``move`` (its history's length): the
    opening ``lines`` and ``events`` of the turn message, and the ``racks`` (seat numbers) to DM. The
    end of the game is announced when the stored game is over."""

    move: int
    events: tuple[Event, ...]
    lines: tuple[str, ...]
    racks: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        """The announcement as JSON-compatible data."""
        return {
            "move": self.move,
            "events": [event.to_dict() for event in self.events],
            "lines": list(self.lines),
            "racks": list(self.racks),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Announcement:
        """The announcement saved by :meth:`to_dict`.

        Raises:
            KeyError, TypeError, ValueError: it is not one.
        """
        return cls(
            int(data["move"]),
            tuple(Event.from_dict(event) for event in data["events"]),
            tuple(str(line) for line in data["lines"]),
            tuple(int(seat) for seat in data["racks"]),
        )


def post_key(game_id: int, created_at: float, entry_id: int, part: str) -> str:
    """The key (:attr:`bot.host.messages.Message.key`) of the post ``part`` (``"turn"``, ``"end"``...) of
    outbox entry ``entry_id``, of game ``game_id`` created at ``created_at``: the same at every try of
    that post, a restart's included, and unlike any other post's, a new database's too (its ids start
    again, but not its games' creation times)."""
    name = f"{game_id}:{created_at!r}:{entry_id}:{part}"
    return hashlib.blake2b(name.encode(), digest_size=MAX_KEY // 2).hexdigest()


def keyed(message: Message, row: GameRow | GoRow, entry_id: int | None, part: str) -> Message:
    """``message``, the post ``part`` of outbox entry ``entry_id`` of the game ``row``, with its
    :func:`post_key`; as it is when it belongs to no entry."""
    if entry_id is None:
        return message
    return replace(message, key=post_key(row.id, row.created_at, entry_id, part))
