"""The wording of Scrabble's messages, as pure functions of the game.

Nothing here may put a rack in a public text: the only rack-revealing texts are :func:`rack_text`,
:func:`hint_text` and :func:`bag_text`, which the commands send privately. Exchanges are announced by
their number of tiles; the tiles left on the racks are shown once the game is over (as in the record).
Moves are written in words (:mod:`scrabble_core.move_words`): the whole word, where it goes and which
way, never the engine's notation. What happened is told in the past tense, by whoever did it.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.scrabble.options import ScrabbleOptions
from bot.games.scrabble.protocols import Suggestion
from bot.host.messages import channel_link, mention
from bot.host.seats import is_program, shown
from bot.host.store import SeatRow, StatsRow
from scrabble_core.board import Board
from scrabble_core.game import MAX_PLAYERS, Event, EventKind, Game
from scrabble_core.move import Play
from scrabble_core.move_words import (
    move_in_words,
    play_in_words,
    rack_in_words,
    scored_in_words,
    tiles_in_words,
)
from scrabble_core.variant import Variant


def seat_label(seat: SeatRow) -> str:
    """A seat as public texts name it: a mention for a human, the name for an AI."""
    if seat.user_id is None or is_program(seat.user_id):
        return shown(seat.name)
    return f"{shown(seat.name)} ({mention(seat.user_id)})"


def play_text(move: str, score: int, detail: str, board: Board) -> str:
    """A play (engine notation ``move``) as a sentence's end: the word where it went, its score, its
    cross-words and bonus when it has any (``detail``, the engine's breakdown), what its blanks stood
    for: ``QAiD at 6F (across) for 39 (QAID 34 + AD 5), with a blank for the I``."""
    parts = detail.rsplit(" = ", 1)[0]
    breakdown = f" ({parts})" if " + " in parts else ""
    return scored_in_words(str(play_in_words(Play.from_gcg(move), board)), f"{score}{breakdown}")


def event_line(event: Event, seats: Sequence[SeatRow], board: Board) -> str:
    """One line telling what ``event`` did, safe to show publicly. ``board`` holds the tiles a play went
    through (the game's board then or since). The end of the game's rack bonuses are told by
    :func:`end_lines`."""
    name = shown(seats[event.player].name)
    kind = event.kind
    if kind is EventKind.PLAY:
        return f"{name} played {play_text(event.move, event.score, event.detail, board)}."
    if kind is EventKind.EXCHANGE:
        count = len(event.move) - 1
        return f"{name} exchanged {count} tile{'s' if count != 1 else ''}."
    if kind is EventKind.PASS:
        return f"{name} passed."
    if kind is EventKind.PHONY_WITHDRAWN:
        return f"The challenge was upheld: {name}'s play came off the board ({event.score:+d})."
    if kind is EventKind.CHALLENGE_BONUS:
        return f"The challenge failed: {name} got {event.score} points."
    if kind is EventKind.LOST_TURN:
        return f"{name} lost a turn."
    if kind is EventKind.RESIGN:  # a seat that timed out once too often forfeits (see left_the_game)
        return f"{name} {'forfeited' if seats[event.player].timeouts > 0 else 'resigned'}."
    if kind is EventKind.END_RACK:
        return _rack_line(event, seats, board.variant)
    if kind is EventKind.TIME_PENALTY:
        lost = -event.score
        return f"{name} lost {lost} point{'s' if lost != 1 else ''} for going over their time."
    return f"{name}: {event.score:+d} points."


def events_lines(events: Sequence[Event], seats: Sequence[SeatRow], board: Board) -> list[str]:
    """The lines of ``events`` in order (:func:`event_line`), the end of the game's rack bonuses
    explained together (:func:`end_lines`)."""
    ends = [event for event in events if event.kind is EventKind.END_RACK]
    lines = [event_line(event, seats, board) for event in events if event.kind is not EventKind.END_RACK]
    return lines + end_lines(ends, seats, board.variant)


def end_lines(events: Sequence[Event], seats: Sequence[SeatRow], variant: Variant) -> list[str]:
    """The end of the game's adjustments in words: the player who went out gets the tiles left on the
    other racks (twice their points with two players: ``Grace went out and gets the 1 point left on
    Frank's rack (L), twice: +2.``), each other player loses those of their own rack; after too many
    scoreless turns each player loses the points left on their rack."""
    if not events:
        return []
    lines = []
    if all(event.rack for event in events):
        lines.append(
            "The game ended after too many scoreless turns in a row: each player loses what is left on "
            "their rack."
        )
    ordered = sorted(events, key=lambda event: not event.rack)  # the one who went out last
    return lines + [_rack_line(event, seats, variant) for event in ordered]


def _rack_line(event: Event, seats: Sequence[SeatRow], variant: Variant) -> str:
    """One end-of-game adjustment in words (see :func:`end_lines`)."""
    name = shown(seats[event.player].name)
    tiles = event.move.strip("()")
    points = variant.rack_value(tiles)
    counted = f"{points} point{'s' if points != 1 else ''}"
    left = tiles_in_words(tiles, variant)
    if event.rack:
        return f"{name} loses the {counted} left on their rack ({left}): {event.score:+d}."
    if len(seats) == 2:  # two players: the other rack's points, twice
        other = seats[1 - event.player]
        return (
            f"{name} went out and gets the {counted} left on {shown(other.name)}'s rack ({left}), "
            f"twice: {event.score:+d}."
        )
    return f"{name} went out and gets the {counted} left on the other racks: {event.score:+d}."


def failed_challenge_line(game: Game, challenger: int | None, seats: Sequence[SeatRow]) -> str:
    """The line for a failed challenge that caused no event: the play stands, and in double-challenge
    mode a challenger who is not on turn owes their next turn (recorded when it comes)."""
    if challenger is not None and challenger in game.owed_lost_turns:
        return f"The challenge failed: {shown(seats[challenger].name)} will lose their next turn."
    return "The challenge failed: the play stands."


def challenge_line(name: str) -> str:
    """The line that opens a person's challenge; what it did follows (:func:`event_line`)."""
    return f"{shown(name)} challenged the last play."


def ai_challenge_line(name: str, phonies: Sequence[str]) -> str:
    """The line for an AI's challenge of a play with ``phonies``; the outcome follows in the lines of
    the challenge's events (:func:`event_line`: the play comes off the board)."""
    if len(phonies) == 1:
        return f"{shown(name)} challenged {phonies[0]}: it is not in the dictionary."
    words = ", ".join(phonies[:-1]) + f" and {phonies[-1]}"
    return f"{shown(name)} challenged {words}: they are not in the dictionary."


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
    """The challenge window an AI waits before it plays after a person's play."""
    ai = shown(seats[game.current].name)
    return (
        f"{ai} plays in {seconds} seconds, or as soon as everyone else has pressed No challenge: press "
        "Challenge if you doubt the last play."
    )


def lobby_text(seats: Sequence[SeatRow], options: ScrabbleOptions, creator_id: int) -> str:
    """The lobby: its options and who has joined (its buttons say how to join and start)."""
    limit = f"{options.turn_seconds} s per turn" if options.turn_seconds else "no time limit"
    hints = f"{options.hints} hints each" if options.hints else "no hints"
    unrated = "" if options.rated else ", unrated"
    players = ", ".join(seat_label(seat) for seat in seats)
    return (
        f"New {options.variant} game by {mention(creator_id)}: {options.challenge_mode} challenges, {limit}, "
        f"{hints}{unrated}.\nPlayers ({len(seats)}/{MAX_PLAYERS}): {players}"
    )


def started_text(seats: Sequence[SeatRow]) -> str:
    """The lobby once its game has started (its buttons gone)."""
    players = ", ".join(seat_label(seat) for seat in seats)
    return f"The game has started. Players: {players}"


def left_the_game(seat: SeatRow, game: Game) -> str:
    """How ``seat`` left the game, if it did: ``resigned``, or ``forfeited`` when its time ran out (once
    too often: the seat's timeouts in a row count it); empty for a seat still playing."""
    if not game.players[seat.seat].resigned:
        return ""
    return "forfeited" if seat.timeouts > 0 else "resigned"


def final_text(game: Game, seats: Sequence[SeatRow]) -> str:
    """The result: the winner (or the tie) first, then the standings (:func:`standing_lines`), then
    that the record is attached."""
    return "\n".join(
        [winner_line(game, seats), *standing_lines(game, seats), "The record (GCG) is attached."]
    )


def standing_lines(game: Game, seats: Sequence[SeatRow]) -> list[str]:
    """Every player from first to last with their score, a player who left the game marked so
    (``(resigned)``, ``(forfeited)``: a seat that timed out too often)."""
    lines = []
    for rank, seat in enumerate(game.standings(), 1):
        player = game.players[seat]
        left = left_the_game(seats[seat], game)
        lines.append(f"{rank}. {shown(player.name)} {player.score}" + (f" ({left})" if left else ""))
    return lines


def winner_line(game: Game, seats: Sequence[SeatRow]) -> str:
    """``Game over: Alice wins.`` (mentioned), or the tie."""
    winners = [seat_label(seats[seat]) for seat in game.winners()]
    if len(winners) == 1:
        return f"Game over: {winners[0]} wins."
    return "Game over: a tie between " + " and ".join(winners) + "."


def rack_text(rack: str, variant: Variant, channel_id: int) -> str:
    """The private rack message: the rack in words, and what its set tiles may be played as."""
    note = set_tiles_note(variant, rack)
    words = rack_in_words(rack, variant)
    return f"Your rack in {channel_link(channel_id)}: {words}" + (f" ({note})" if note else "")


def set_tiles_note(variant: Variant, rack: str) -> str:
    """What each set tile on ``rack`` may be played as, by the number a player types for it:
    ``set tiles: 1 [AE], 2 [IOU]``; empty for a rack without set tiles."""
    sets = [
        f"{symbol} {tile_set.text}"
        for symbol in dict.fromkeys(rack)
        if (tile_set := variant.tile_set(symbol))
    ]
    return f"set tiles: {', '.join(sets)}" if sets else ""


def hint_text(rack: str, board: Board, suggestions: Sequence[Suggestion], used: int, allowed: int) -> str:
    """The private answer to a hint: each suggestion in words (``1. QUIZ at 8H (across): 48 points,
    keeping AE``)."""
    variant = board.variant
    if not suggestions:
        lines = ["No play found for your rack: consider an exchange or a pass."]
    else:
        lines = [
            f"{rank}. {move_in_words(s.move, board)}: {s.score} point{'s' if s.score != 1 else ''}, "
            f"keeping {tiles_in_words(s.leave, variant)}"
            for rank, s in enumerate(suggestions, 1)
        ]
    return f"Hint {used} of {allowed}, for your rack {rack_in_words(rack, variant)}:\n" + "\n".join(lines)


def bag_text(game: Game, seat: int) -> str:
    """The private bag answer: the bag's count and the tiles ``seat`` has not seen."""
    unseen = game.unseen_tiles(seat)
    return f"{bag_line(game)}\nUnseen tiles ({len(unseen)}): {tiles_in_words(unseen, game.variant, grouped=True) if unseen else 'none'}"


def history_text(game: Game, seats: Sequence[SeatRow]) -> str:
    """Every event of the game so far, one line each, safe to show publicly."""
    if not game.history:
        return "No move yet."
    return "\n".join(
        f"{number}. {event_line(event, seats, game.board)}" for number, event in enumerate(game.history, 1)
    )


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
