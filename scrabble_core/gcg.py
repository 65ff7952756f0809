"""GCG, the record format of tournament Scrabble: export a game, read a record, replay it.

A record is a header of ``#pragma`` lines (``#player1 nick Full Name``) and one line per event::

    >nick: RACK 8H QUIZ +48 48        a play (lowercase letters are blanks, . a tile on the board)
    >nick: RACK -AEI +0 48            an exchange
    >nick: RACK - +0 48               a pass (or a turn lost to a failed double challenge)
    >nick: RACK -- -48 0              the player's last play withdrawn after a challenge
    >nick: RACK (challenge) +5 53     the bonus for a failed challenge of the player's play
    >nick:  (OPEG) +14 345            end of game: the opponents' tiles (twice their value with two players)
    >nick: AEI (AEI) -3 340           end of game: the tiles left on the player's own rack
    >nick: RACK (time) -10 330        a time penalty

A ``#note text`` line after an event is a comment on it (the post-game analysis writes one per turn).

Infinite boards (an extension of GCG, whose coordinates cannot name a negative square): a play's
coordinate is the signed square of its first letter and the direction in one token, ``x,y`` then ``a``
for across or ``d`` for down (``>nick: RACK -3,5a QUIZ +48 48``); the ``#variant`` pragma names the
infinite variant. Other programs reading GCG will not read these records; :func:`replay` does.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Final

from scrabble_core.board import Board
from scrabble_core.errors import GcgError, ScrabbleError, cut, echo
from scrabble_core.game import EventKind, Game
from scrabble_core.lexicon import WordList
from scrabble_core.move import Play
from scrabble_core.validation import check_play, check_rack
from scrabble_core.variant import Variant

_EVENT = re.compile(r"^>(?P<nick>[^:\s]+):(?P<rest>.*)$")
_SCORE = re.compile(r"^[+-]\d+$")
_TOTAL = re.compile(r"^-?\d+$")
_PLAYER = re.compile(r"^#player(?P<number>[1-4])\s+(?P<nick>\S+)(?:\s+(?P<name>.*))?$")


@dataclass(frozen=True, slots=True)
class GcgEvent:
    """One event line of a record, with the line number it was read from (0 for one not read)."""

    nick: str
    rack: str
    kind: EventKind
    move: str
    score: int
    total: int
    line_number: int = 0

    def line(self) -> str:
        """The event as a GCG line."""
        return f">{self.nick}: {self.rack} {self.move} {self.score:+d} {self.total}"


@dataclass(frozen=True, slots=True)
class GcgRecord:
    """A whole record: the players (nickname, full name) in seat order, the events and the notes on
    them (by the event's index in ``events``)."""

    players: tuple[tuple[str, str], ...]
    events: tuple[GcgEvent, ...]
    pragmas: dict[str, str] = field(default_factory=dict)
    notes: Mapping[int, str] = field(default_factory=dict)

    def text(self) -> str:
        """The record as GCG text: the encoding, the pragmas (``#lexicon``, ``#variant``), the players
        and the events, each followed by its ``#note`` line if it has one (on one line)."""
        lines = ["#character-encoding UTF-8"]
        lines += [f"#{key} {value}" for key, value in self.pragmas.items() if key != "character-encoding"]
        lines += [f"#player{i} {nick} {name}" for i, (nick, name) in enumerate(self.players, 1)]
        for index, event in enumerate(self.events):
            lines.append(event.line())
            if note := self.notes.get(index):
                lines.append(f"{NOTE_PRAGMA} {' '.join(note.split())}")
        return "\n".join(lines) + "\n"


def nicknames(names: Sequence[str]) -> list[str]:
    """GCG nicknames for player names: no spaces or colons, each different."""
    nicks: list[str] = []
    for name in names:
        base = re.sub(r"[\s:]+", "_", name.strip()) or "player"
        nick, suffix = base, 2
        while nick in nicks:
            nick, suffix = f"{base}{suffix}", suffix + 1
        nicks.append(nick)
    return nicks


LEXICON_PRAGMA: Final = "lexicon"
"""``#lexicon NAME``: the dictionary the game was played with (as Woogles and Macondo write it)."""
VARIANT_PRAGMA: Final = "variant"
"""``#variant NAME``: the variant (board and tile set) the game was played on."""
NOTE_PRAGMA: Final = "#note"
"""``#note TEXT`` after an event: a comment on it."""


def record_of(game: Game, notes: Mapping[int, str] | None = None) -> GcgRecord:
    """The GCG record of ``game`` so far, with its lexicon (if any) and variant as pragmas, and
    ``notes`` (by index in ``game.history``) as ``#note`` lines. Resignations have no GCG line and are
    left out."""
    names = [player.name for player in game.players]
    nicks = nicknames(names)
    kept = [(index, event) for index, event in enumerate(game.history) if event.kind is not EventKind.RESIGN]
    events = tuple(
        GcgEvent(
            nicks[event.player],
            event.rack,
            event.kind,
            event.move,
            event.score,
            event.total,
        )
        for _, event in kept
    )
    given = notes or {}
    record_notes = {line: given[index] for line, (index, _) in enumerate(kept) if index in given}
    pragmas = {} if game.lexicon is None else {LEXICON_PRAGMA: game.lexicon.name}
    pragmas[VARIANT_PRAGMA] = game.variant.name
    return GcgRecord(tuple(zip(nicks, names, strict=True)), events, pragmas, record_notes)


def export_gcg(game: Game, notes: Mapping[int, str] | None = None) -> str:
    """The GCG text of ``game`` so far, with ``notes`` on its events (by index in ``game.history``)."""
    return record_of(game, notes).text()


def without_racks(record: GcgRecord) -> GcgRecord:
    """``record`` as it may be shown while its game goes on: no racks, and exchanges as a count of tiles
    (``-3``)."""
    events = tuple(
        replace(
            event, rack="", move=f"-{len(event.move) - 1}" if event.kind is EventKind.EXCHANGE else event.move
        )
        for event in record.events
    )
    return replace(record, events=events)


def parse_gcg(text: str) -> GcgRecord:
    """Read a GCG record (a ``#note`` line is kept as the note of the event before it).

    Raises:
        GcgError: a line that is not GCG, or an event of a player the header does not name.
    """
    players: dict[int, tuple[str, str]] = {}
    pragmas: dict[str, str] = {}
    notes: dict[int, str] = {}
    events: list[GcgEvent] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip().lstrip("\ufeff")
        if not line:
            continue
        if line.startswith("#"):
            if line.startswith(NOTE_PRAGMA + " ") and events:
                notes[len(events) - 1] = line[len(NOTE_PRAGMA) :].strip()
            elif match := _PLAYER.match(line):
                players[int(match["number"])] = (match["nick"], (match["name"] or match["nick"]).strip())
            else:
                key, _, value = line[1:].partition(" ")
                pragmas.setdefault(key, value.strip())
            continue
        match = _EVENT.match(line)
        if match is None:
            raise GcgError(number, f"not a GCG line: {echo(line)}")
        nicks = {nick for nick, _ in players.values()}
        if match["nick"] not in nicks:
            raise GcgError(number, f"{echo(match['nick'])} is not one of the players in the header")
        events.append(_parse_event(match["nick"], match["rest"], number))
    if len(players) < 2 or sorted(players) != list(range(1, len(players) + 1)):
        raise GcgError(1, "the header must name the players as #player1, #player2 (up to #player4)")
    return GcgRecord(tuple(players[i] for i in sorted(players)), tuple(events), pragmas, notes)


def _parse_event(nick: str, rest: str, number: int) -> GcgEvent:
    tokens = rest.split()
    if len(tokens) < 3 or not _SCORE.match(tokens[-2]) or not _TOTAL.match(tokens[-1]):
        raise GcgError(number, "an event ends with a score (+N or -N) and the total")
    score, total = int(tokens[-2]), int(tokens[-1])
    body = tokens[:-2]
    rack = ""
    # Before a move that is no play (it starts with - or "("), the rack, which may hold set tiles' numbers;
    # a coordinate has a digit, a rack of letters none.
    if len(body) == 3 or (
        len(body) == 2 and (body[1][:1] in ("-", "(") or not any(ch.isdigit() for ch in body[0]))
    ):
        rack, body = body[0], body[1:]
    if len(body) == 2:
        return GcgEvent(nick, rack, EventKind.PLAY, f"{body[0]} {body[1]}", score, total, number)
    if len(body) != 1:
        raise GcgError(number, f"cannot read the move in {echo(rest.strip())}")
    move = body[0]
    kind: EventKind
    if move == "-":
        kind = EventKind.PASS
    elif move == "--":
        kind = EventKind.PHONY_WITHDRAWN
    elif move.startswith("-"):
        kind = EventKind.EXCHANGE
    elif move == "(challenge)":
        kind = EventKind.CHALLENGE_BONUS
    elif move == "(time)":
        kind = EventKind.TIME_PENALTY
    elif move.startswith("(") and move.endswith(")"):
        kind = EventKind.END_RACK
    else:
        raise GcgError(number, f"cannot read the move {echo(move)}")
    return GcgEvent(nick, rack, kind, move, score, total, number)


@dataclass(frozen=True, slots=True)
class ReplayedEvent:
    """An event of a record with the score and total the engine computed for it."""

    event: GcgEvent
    score: int
    total: int
    detail: str = ""


def replay(record: GcgRecord, variant: Variant, lexicon: WordList | None = None) -> list[ReplayedEvent]:
    """Replay ``record`` through the engine, checking every score and total.

    Plays are validated (placement, tiles on the rack shown, and words when ``lexicon`` is given, except
    plays the record withdraws); exchanges must be of tiles on the rack shown; turns must go round the
    table in seat order (with three or four players, a player who never moves again has left; a turn
    lost for challenging the play that went out comes when it is lost, while a turn owed since an earlier
    one is lost when it comes, even after the play that went out); every
    challenge bonus must be the same (the game's); end-of-game lines are scored from their tiles: a
    player with no rack left gains them (twice with two players), and must have gone out with the last
    play; a player holding them loses their value.

    Raises:
        GcgError: naming the line, when a move is impossible or a score or total differs from the record.
    """
    board = Board(variant)
    totals = {nick: 0 for nick, _ in record.players}
    last_play: dict[str, tuple[Play, int]] = {}
    replayed: list[ReplayedEvent] = []
    events = record.events
    turns = _TurnOrder(record)
    bonus: GcgEvent | None = None
    went_out: str | None = None
    for index, event in enumerate(events):
        detail = ""
        number = event.line_number
        if event.kind is EventKind.PASS and went_out is not None:
            turns.check_after_going_out(index, event)
        elif event.kind in _TURNS:
            turns.check(index, event)
        if event.kind is EventKind.PLAY:
            withdrawn = _next_of(events, index, event.nick) is EventKind.PHONY_WITHDRAWN
            try:
                play = Play.from_gcg(event.move)
                breakdown = check_play(
                    board,
                    play,
                    rack=event.rack or None,
                    lexicon=None if withdrawn else lexicon,
                )
            except ScrabbleError as error:
                raise GcgError(number, f"{cut(event.move)}: {error}") from None
            score, detail = breakdown.total, breakdown.describe()
            board.place(play.placements())
            last_play[event.nick] = (play, score)
            went_out = event.nick if len(play.rack_tiles()) == len(event.rack) else None
        elif event.kind is EventKind.PHONY_WITHDRAWN:
            if event.nick not in last_play:
                raise GcgError(number, "a play is withdrawn, but this player has no play to withdraw")
            play, played_score = last_play.pop(event.nick)
            board.remove(square for square, _ in play.placements())
            score = -played_score
            went_out = None
        elif event.kind is EventKind.EXCHANGE:
            _check_exchange(event)
            score = 0
        elif event.kind is EventKind.END_RACK:
            value = variant.rack_value(event.move[1:-1])
            if event.rack:
                score = -value
            else:
                if went_out != event.nick:
                    raise GcgError(
                        number, f"{cut(event.nick)} gains the tiles left on the racks, but did not go out"
                    )
                score = 2 * value if len(record.players) == 2 else value
        elif event.kind is EventKind.CHALLENGE_BONUS:
            if bonus is not None and event.score != bonus.score:
                raise GcgError(
                    number,
                    f"a challenge bonus of {event.score:+d}, but this game's is {bonus.score:+d} "
                    f"(line {bonus.line_number})",
                )
            bonus = bonus or event
            score = event.score
        elif event.kind is EventKind.TIME_PENALTY:
            score = event.score
        else:
            score = 0
        totals[event.nick] += score
        if score != event.score:
            raise GcgError(
                number, f"{cut(event.move)} scores {score:+d} by the engine, the record says {event.score:+d}"
            )
        if totals[event.nick] != event.total:
            raise GcgError(
                number,
                f"{cut(event.nick)}'s total is {totals[event.nick]} by the engine, the record says {event.total}",
            )
        replayed.append(ReplayedEvent(event, score, totals[event.nick], detail))
    return replayed


_TURNS: Final = frozenset({EventKind.PLAY, EventKind.EXCHANGE, EventKind.PASS})
"""The events that are a player's turn (a lost turn is written as a pass)."""


class _TurnOrder:
    """Who may move next: the seats in order, without those who left (3-4 players: never moved again)."""

    def __init__(self, record: GcgRecord) -> None:
        self._events = record.events
        self._seats = [nick for nick, _ in record.players]
        self._next: int | None = None  # index in _seats; anyone may open the game

    def check(self, index: int, event: GcgEvent) -> None:
        """Accept ``events[index]``, a turn, or raise :class:`GcgError` if it is not its player's turn."""
        expected = self._expected(index, event.nick)
        if expected is not None and expected != event.nick:
            raise GcgError(event.line_number, f"it is {cut(expected)}'s turn, not {cut(event.nick)}'s")
        self._next = (self._seats.index(event.nick) + 1) % len(self._seats)

    def check_after_going_out(self, index: int, event: GcgEvent) -> None:
        """Accept ``events[index]``, a pass written after the play that went out: the turn of the next
        player (a turn owed since an earlier failed double challenge, lost as the turn comes), or a turn
        lost for challenging that play, written when it is lost, in no seat's order."""
        if self._expected(index, event.nick) in (None, event.nick):
            self.check(index, event)

    def _expected(self, index: int, nick: str) -> str | None:
        """Whose turn ``events[index]``, by ``nick``, should be (``None`` before the first turn), dropping
        the seats met on the way whose players have left."""
        if self._next is None:
            return None
        seats = self._seats
        while seats[self._next] != nick and self._left(index, seats[self._next]):
            del seats[self._next]
            self._next %= len(seats)
        return seats[self._next]

    def _left(self, index: int, nick: str) -> bool:
        if len(self._seats) <= 2:
            return False
        return not any(later.nick == nick and later.kind in _TURNS for later in self._events[index:])


def _check_exchange(event: GcgEvent) -> None:
    """An exchange must give back tiles of the rack shown (a record may hide them as a count, ``-3``)."""
    tiles = event.move[1:]
    if not event.rack or tiles.isdigit():
        return
    try:
        check_rack(event.rack.upper(), tiles.upper())
    except ScrabbleError as error:
        raise GcgError(event.line_number, f"{cut(event.move)}: {error}") from None


def _next_of(events: Sequence[GcgEvent], index: int, nick: str) -> EventKind | None:
    """The kind of the next event of ``nick`` after ``events[index]``."""
    for later in events[index + 1 :]:
        if later.nick == nick:
            return later.kind
    return None
