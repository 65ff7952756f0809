"""What a Scrabble game's changes leave behind besides its row: the log entries of engine events, the log
lines the host writes about them, the stats a finished game adds and its result for the ratings."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.scrabble import text
from bot.games.scrabble.kind import KIND
from bot.games.scrabble.table import ScrabbleTable
from bot.host.rating_model import RatedSeat, ai_key, ai_name, human_key
from bot.host.seats import is_program
from bot.host.store import GameRow, LogEntry, SeatRow, StatsDelta
from scrabble_core.board import Board
from scrabble_core.game import Event, EventKind, Game
from scrabble_core.move import Play
from scrabble_core.move_words import play_in_words


def event_entries(events: Sequence[Event], now: float) -> list[LogEntry]:
    """The event log's rows for engine events that happened at ``now``."""
    return [LogEntry(event.kind.value, event.player, event.to_dict(), now) for event in events]


def log_line(event: Event, seats: Sequence[SeatRow], board: Board) -> str:
    """A log line for an event, without the rack (exchanges by their count); ``board`` holds the tiles
    a play went through."""
    said = text.event_line(event, seats, board)
    return f"seat {event.player} ({seats[event.player].name}): {said} total {event.total}"


def stats_deltas(row: GameRow, game: Game) -> list[StatsDelta]:
    """What a finished game adds to its human players' stats: a game, a win for the winners, the
    final score and the best play in words (a withdrawn phony does not count)."""
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
                KIND,
                seat.user_id,
                seat.name,
                seat.seat in winners,
                score=game.players[seat.seat].score,
                best_score=None if best is None else best.score,
                best_move=None if best is None else str(play_in_words(Play.from_gcg(best.move), game.board)),
            )
        )
    return deltas


def result(table: ScrabbleTable) -> tuple[RatedSeat, ...]:
    """Who the finished game ``table`` rates and in which places: nobody when it was created unrated or
    rates fewer than two players.

    Places follow the engine's standings (score, resigned seats last); equal scores (or two resigned
    seats) share a place. People and AI seats are rated, programs are not; when several seats play at
    one AI level, the level is rated by its best-placed seat.
    """
    game = table.game
    if not table.options.rated or game is None:
        return ()
    players = game.players
    seats: list[RatedSeat] = []
    taken: set[str] = set()
    place, previous = 0, None
    for index, seat_number in enumerate(game.standings()):
        standing = (players[seat_number].resigned, players[seat_number].score)
        if standing != previous:
            place, previous = index + 1, standing
        seat = table.row.seats[seat_number]
        if seat.user_id is not None:
            if is_program(seat.user_id):
                continue
            player, name = human_key(seat.user_id), seat.name
        elif seat.ai_level is not None:
            player, name = ai_key(seat.ai_level), ai_name(seat.ai_level)
        else:
            continue
        if player not in taken:
            taken.add(player)
            seats.append(RatedSeat(player, name, place))
    return tuple(seats) if len(seats) >= 2 else ()
