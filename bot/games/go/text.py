"""The texts of Go's messages (pure functions of the game and its seats)."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from bot.games.go.options import GoOptions
from bot.games.go.table import colour_of
from bot.host.messages import mention
from bot.host.seats import shown
from bot.host.store import SeatRow
from go_core import Color, Game, Point, format_move
from go_core.game import ON_TIME, RESIGNED, Move


def seat_label(seat: SeatRow) -> str:
    """``Alice (Black)``."""
    return f"{shown(seat.name)} ({colour_of(seat.seat).title})"


def settings_text(options: GoOptions) -> str:
    """``19×19, komi 7.5, area scoring, no time limit`` (and the handicap when there is one)."""
    parts = [f"{options.size}×{options.size}", f"komi {options.komi:g}"]
    if options.handicap:
        parts.append(f"handicap {options.handicap}")
    parts.append(f"{options.method} scoring")
    parts.append(f"{options.turn_seconds} seconds a move" if options.turn_seconds else "no time limit")
    return ", ".join(parts)


def lobby_text(options: GoOptions, creator: SeatRow, creator_id: int) -> str:
    """The lobby: who opened what, and who may join as which colour (its Join button says how)."""
    colour = Color.WHITE if options.creator_black else Color.BLACK
    head = f"{mention(creator_id)} opened a Go game ({settings_text(options)}) and plays {colour.opponent.title}."
    if options.opponent is not None:
        return f"{head}\n{mention(options.opponent)} is invited to play {colour.title}."
    return f"{head}\nAnyone may join to play {colour.title}."


def points_text(points: Collection[Point]) -> str:
    """``C3, D4`` in board order (bottom row first), or ``none``."""
    if not points:
        return "none"
    return ", ".join(str(point) for point in sorted(points, key=lambda p: (p.row, p.col)))


def move_line(seat: SeatRow, move: Move) -> str:
    """``Alice (Black) played D4, capturing 2 stones.`` or ``... passed.``"""
    if move.point is None:
        return f"{seat_label(seat)} passed."
    taken = len(move.captured)
    capture = "" if not taken else f", capturing {taken} stone{'s' if taken != 1 else ''}"
    return f"{seat_label(seat)} played {move.point}{capture}."


def players_line(game: Game, seats: Sequence[SeatRow]) -> str:
    """``Black: Alice (captured 2) · White: Bob (captured 0)``."""
    black, white = seats
    return (
        f"Black: {shown(black.name)} (captured {game.captures(Color.BLACK)}) · "
        f"White: {shown(white.name)} (captured {game.captures(Color.WHITE)})"
    )


def to_move_line(seat: SeatRow, seconds: int) -> str:
    """Who plays next: a ping for a person (with the time they have), the AI's name."""
    if seat.user_id is None:
        return f"Next: {seat_label(seat)}."
    limit = f" ({seconds} seconds)" if seconds else ""
    return f"{mention(seat.user_id)}, your move as {colour_of(seat.seat).title}{limit}."


def scoring_text(game: Game, proposer: str, proposal: Collection[Point], accepted: Collection[Color]) -> str:
    """The dead-stone phase: the marked stones (``proposer``'s ``proposal``, or changed from it), what to
    do, the count as marked, who accepted."""
    origin = (
        f"{proposer} proposed them"
        if set(game.dead) == set(proposal)
        else f"changed from {proposer}'s proposal"
    )
    lines = [
        f"Both players passed. Dead stones marked ({origin}): {points_text(game.dead)}.",
        "Mark or unmark a group with /go dead <point>, then accept the count once it is right, or resume play.",
        f"Count as marked: {game.score().breakdown()}",
    ]
    if accepted:
        lines.append(
            "Accepted by: "
            + ", ".join(color.title for color in sorted(accepted, key=lambda c: c.value))
            + "."
        )
    return "\n".join(lines)


def result_text(game: Game, seats: Sequence[SeatRow]) -> str:
    """The result, the winner first and the loser marked if they resigned or ran out of time: ``Game
    over: Bob (White) wins against Alice (Black) by 8.5 points.``, ``... against Alice (Black,
    resigned).``; a draw; with the count when it was counted."""
    result = game.result
    assert result is not None
    winner = game.winner
    if winner is None:
        black, white = (seat_label(seat) for seat in seats)
        return f"Game over: a draw between {black} and {white}.\n{game.score().breakdown()}"
    won = seats[0 if winner is Color.BLACK else 1]
    lost = seats[1 - won.seat]
    loser = f"{shown(lost.name)} ({colour_of(lost.seat).title}"
    how = result.partition("+")[2]
    if how == RESIGNED:
        return f"Game over: {seat_label(won)} wins against {loser}, resigned)."
    if how == ON_TIME:
        return f"Game over: {seat_label(won)} wins against {loser}, timed out)."
    points = f"{how} point{'s' if how != '1' else ''}"
    return f"Game over: {seat_label(won)} wins against {loser}) by {points}.\n{game.score().breakdown()}"


def moves_text(moves: Sequence[Move]) -> str:
    """``Black's D4 and White's pass``."""
    return " and ".join(f"{move.color.title}'s {format_move(move.point)}" for move in moves)


def undo_request_text(asker: SeatRow, other: SeatRow, moves: Sequence[Move]) -> str:
    """The question to the opponent (pinged) of a request to take ``moves`` back (in order)."""
    taken = moves_text(moves)
    assert other.user_id is not None
    return f"{mention(other.user_id)}, {shown(asker.name)} asked to take back {taken}: do you accept?"


def stats_text(name: str, games: int, wins: int, draws: int) -> str:
    """A player's Go record in the guild."""
    if not games:
        return f"{shown(name)} has not finished a Go game in this server yet."
    losses = games - wins - draws
    return (
        f"Go in this server, {shown(name)}: {games} game{'s' if games != 1 else ''}, {wins} won, "
        f"{losses} lost, {draws} drawn."
    )
