"""What a committed change still has to announce, :class:`Announcement`: stored in the store's outbox
in the change's own transaction, marked sent once delivered, and delivered again at start-up if a crash
came in between. It holds what rebuilds the messages from the stored game, never the messages."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

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
