"""What a game's changes leave behind besides its row: the log entries of engine events, the log lines
the service writes about them, and the stats a finished game adds."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.scrabble import text
from bot.host.seats import is_program
from bot.host.store.games import GameRow, LogEntry, SeatRow, StatsDelta
from scrabble_core.game import Event, EventKind, Game


def event_entries(events: Sequence[Event], now: float) -> list[LogEntry]:
    """The event log's rows for engine events that happened at ``now``."""
    return [LogEntry(event.kind.value, event.player, event.to_dict(), now) for event in events]


def log_line(event: Event, seats: Sequence[SeatRow]) -> str:
    """A log line for an event, without the rack (exchanges by their count)."""
    return f"seat {event.player} ({seats[event.player].name}): {text.event_line(event, seats)} total {event.total}"


def stats_deltas(row: GameRow, game: Game) -> list[StatsDelta]:
    """What a finished game adds to its human players' stats: a game, a win for the winners, the
    final score and the best play (a withdrawn phony does not count)."""
    plays: dict[int, list[Event]] = {}
    for event in game.history:
        if event.kind is EventKind.PLAY:
            plays.setdefault(event.player, []).append(event)
        elif event.kind is EventKind.PHONY_WITHDRAWN and plays.get(event.player):
            plays[event.player].pop()
    winners = set(game.winners())
    deltas = []
    for seat in row.seats:
        if seat.user_id is None or is_program(seat.user_id):  # an AI or a program: no stats
            continue
        best = max(plays.get(seat.seat, []), key=lambda event: event.score, default=None)
        deltas.append(
            StatsDelta(
                row.guild_id,
                seat.user_id,
                seat.name,
                seat.seat in winners,
                game.players[seat.seat].score,
                None if best is None else best.score,
                None if best is None else best.move,
            )
        )
    return deltas
