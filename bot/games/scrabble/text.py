"""The wording of Scrabble's messages, as pure functions of the game.

Nothing here may put a rack in a public text: the only rack-revealing texts are :func:`rack_text`,
:func:`hint_text` and :func:`bag_text`, which the commands send privately. Exchanges are announced by
their number of tiles; the tiles left on the racks are shown once the game is over (as in the record).
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.scrabble.options import ScrabbleOptions
from bot.games.scrabble.protocols import Suggestion
from bot.host.messages import channel_link, mention
from bot.host.seats import is_program, shown
from bot.host.store import SeatRow, StatsRow
from scrabble_core.game import MAX_PLAYERS, Event, EventKind, Game
from scrabble_core.variant import Variant


def seat_label(seat: SeatRow) -> str:
    """A seat as public texts name it: a mention for a human, the name for an AI."""
    if seat.user_id is None or is_program(seat.user_id):
        return shown(seat.name)
    return f"{shown(seat.name)} ({mention(seat.user_id)})"


def event_line(event: Event, seats: Sequence[SeatRow]) -> str:
    """One line telling what ``event`` did, safe to show publicly."""
    name = shown(seats[event.player].name)
    kind = event.kind
    if kind is EventKind.PLAY:
        return f"{name} played {event.move} for {event.score} ({event.detail})."
    if kind is EventKind.EXCHANGE:
        count = len(event.move) - 1
        return f"{name} exchanged {count} tile{'s' if count != 1 else ''}."
    if kind is EventKind.PASS:
        return f"{name} passed."
    if kind is EventKind.PHONY_WITHDRAWN:
        return f"Challenge upheld: {name}'s play comes off the board ({event.score:+d})."
    if kind is EventKind.CHALLENGE_BONUS:
        return f"Challenge failed: {name} gets {event.score} points."
    if kind is EventKind.LOST_TURN:
        return f"{name} loses a turn."
    if kind is EventKind.RESIGN:
        return f"{name} resigned."
    if kind is EventKind.END_RACK:
        if not event.rack:
            return f"{name} {event.score:+d} for the tiles left on the other racks {event.move}."
        return f"{name} {event.score:+d} for the tiles left on their rack {event.move}."
    return f"{name}: {event.move} {event.score:+d}."


def failed_challenge_line(game: Game, challenger: int | None, seats: Sequence[SeatRow]) -> str:
    """The line for a failed challenge that caused no event: the play stands, and in double-challenge
    mode a challenger who is not on turn owes their next turn (recorded when it comes)."""
    if challenger is not None and challenger in game.owed_lost_turns:
        return f"The challenge failed: {shown(seats[challenger].name)} loses their next turn."
    return "The challenge failed: the play stands."


def ai_challenge_line(name: str, phonies: Sequence[str]) -> str:
    """The line for an AI's challenge of a play with ``phonies``; the outcome follows in the lines of
    the challenge's events (:func:`event_line`: the play comes off the board)."""
    if len(phonies) == 1:
        return f"{shown(name)} challenges {phonies[0]}: it is not in the dictionary."
    words = ", ".join(phonies[:-1]) + f" and {phonies[-1]}"
    return f"{shown(name)} challenges {words}: they are not in the dictionary."


def scores_line(game: Game) -> str:
    """The scores in turn order, e.g. ``"Scores: Ann 42 · Bob 17"``."""
    return "Scores: " + " · ".join(
        f"{shown(p.name)} {p.score}" + (" (resigned)" if p.resigned else "") for p in game.players
    )


def bag_line(game: Game) -> str:
    """How many tiles are left in the bag."""
    count = len(game.bag)
    return f"{count} tile{'s' if count != 1 else ''} in the bag."


def next_line(game: Game, seats: Sequence[SeatRow]) -> str:
    """Whose turn it is (mentioned), and what they must do if a play that went out awaits its verdict."""
    seat = seats[game.current]
    if game.awaiting_final_challenge and game.challengeable is not None:
        out = shown(seats[game.challengeable].name)
        return f"{out} went out: {seat_label(seat)}, challenge the last play or accept it."
    return f"Next: {seat_label(seat)}."


def window_text(seats: Sequence[SeatRow], game: Game, seconds: int) -> str:
    """The challenge window an AI waits before it plays after a human's play."""
    ai = shown(seats[game.current].name)
    return (
        f"{ai} plays in {seconds} seconds: challenge the last play now if you doubt it, or press No "
        "challenge (once everyone else has, it plays at once)."
    )


def lobby_text(seats: Sequence[SeatRow], options: ScrabbleOptions, creator_id: int) -> str:
    """The lobby: its options and who has joined."""
    limit = f"{options.turn_seconds} s per turn" if options.turn_seconds else "no time limit"
    hints = f"{options.hints} hints each" if options.hints else "no hints"
    unrated = "" if options.rated else ", unrated"
    players = ", ".join(seat_label(seat) for seat in seats)
    return (
        f"New {options.variant} game by {mention(creator_id)}: {options.challenge_mode} challenges, {limit}, "
        f"{hints}{unrated}.\nPlayers ({len(seats)}/{MAX_PLAYERS}): {players}\nJoin with /scrabble join; the creator starts it with "
        "/scrabble start."
    )


def final_text(game: Game, seats: Sequence[SeatRow]) -> str:
    """The final standings and the winner(s)."""
    ranking = " · ".join(
        f"{rank}. {shown(game.players[seat].name)} {game.players[seat].score}"
        for rank, seat in enumerate(game.standings(), 1)
    )
    winners = [seat_label(seats[seat]) for seat in game.winners()]
    verdict = f"Winner: {winners[0]}" if len(winners) == 1 else "Tie between " + " and ".join(winners)
    return f"Game over! Final scores: {ranking}\n{verdict}. The record (GCG) is attached."


def rack_text(rack: str, channel_id: int) -> str:
    """The private rack message."""
    return f"Your rack in {channel_link(channel_id)}: {rack or '(empty)'}"


def rack_with_sets(variant: Variant, rack: str) -> str:
    """A rack as text: its tiles as they are typed (letters, ``?`` a blank, a set tile's number), then
    what each set tile on it may be played as: ``AEIN12? (set tiles: 1 [AE], 2 [IOU])``."""
    sets = [
        f"{symbol} {tile_set.text}"
        for symbol in dict.fromkeys(rack)
        if (tile_set := variant.tile_set(symbol))
    ]
    return f"{rack} (set tiles: {', '.join(sets)})" if sets else rack


def hint_text(rack: str, suggestions: Sequence[Suggestion], used: int, allowed: int) -> str:
    """The private answer to a hint."""
    if not suggestions:
        lines = ["No play found for your rack: consider an exchange or a pass."]
    else:
        lines = [
            f"{rank}. {s.move}: {s.score} points, keeping {s.leave or 'nothing'}"
            for rank, s in enumerate(suggestions, 1)
        ]
    return f"Hint {used} of {allowed}, for your rack {rack}:\n" + "\n".join(lines)


def bag_text(game: Game, seat: int) -> str:
    """The private bag answer: the bag's count and the tiles ``seat`` has not seen."""
    unseen = game.unseen_tiles(seat)
    return f"{bag_line(game)}\nUnseen tiles ({len(unseen)}): {' '.join(unseen) or 'none'}"


def history_text(game: Game, seats: Sequence[SeatRow]) -> str:
    """Every event of the game so far, one line each, safe to show publicly."""
    if not game.history:
        return "No move yet."
    return "\n".join(f"{number}. {event_line(event, seats)}" for number, event in enumerate(game.history, 1))


def stats_text(row: StatsRow) -> str:
    """A player's stats in a guild."""
    best = f"{row.best_move} for {row.best_score}" if row.best_move is not None else "none yet"
    return (
        f"{shown(row.name)}: {row.games} game{'s' if row.games != 1 else ''}, {row.wins} win{'s' if row.wins != 1 else ''}, "
        f"average score {row.average:.1f}, best move {best}."
    )


def leaderboard_text(rows: Sequence[StatsRow]) -> str:
    """The guild's leaderboard."""
    if not rows:
        return "No finished game in this server yet."
    return "Leaderboard:\n" + "\n".join(
        f"{rank}. {shown(row.name)}: {row.wins} wins in {row.games} games, average {row.average:.1f}"
        for rank, row in enumerate(rows, 1)
    )
