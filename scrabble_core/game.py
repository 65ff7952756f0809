"""The game: players, bag, racks, turns, challenges and the end of the game, under tournament rules.

A :class:`Game` is a state machine. Each action (:meth:`Game.play`, :meth:`~Game.exchange`,
:meth:`~Game.pass_turn`, :meth:`~Game.challenge`, :meth:`~Game.accept`, :meth:`~Game.resign`) is
checked in full before anything changes: it either raises a :class:`~scrabble_core.errors.ScrabbleError`
and leaves the game exactly as it was, or it is applied and recorded as :class:`Event`\\ s in
:attr:`Game.history`, from which the GCG record is written. Randomness comes only from the
``random.Random`` passed in, whose state is saved by :meth:`Game.to_dict`, so a game replays identically.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from scrabble_core.board import Board
from scrabble_core.errors import (
    ChallengeError,
    ExchangeNotAllowedError,
    GameOverError,
    GameSetupError,
    IllegalMoveError,
    NotYourTurnError,
    ScrabbleError,
    cut,
)
from scrabble_core.lexicon import WordList
from scrabble_core.move import Exchange, Move, Pass, Play
from scrabble_core.notation import parse_player_play, parse_tiles
from scrabble_core.validation import (
    canonical_play,
    check_play,
    check_rack,
    formed_words,
    remove_tiles,
)
from scrabble_core.variant import BLANK, Variant, variant_from_dict, variant_to_dict

SCHEMA_VERSION: Final = 2
"""Version 2: the variant counts scoreless rounds (``scoreless_rounds``) instead of turns."""
MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 4
FIVE_POINT_BONUS: Final = 5


class ChallengeMode(enum.StrEnum):
    """How phonies are handled. ``void``: words are checked on play. Otherwise plays stand unless
    challenged; a failed challenge costs nothing (``single``), the challenger's next turn (``double``)
    or gives the player who made the play 5 points (``five-point``)."""

    VOID = "void"
    SINGLE = "single"
    DOUBLE = "double"
    FIVE_POINT = "five-point"


CHALLENGE_MODES: Final[tuple[ChallengeMode, ...]] = tuple(ChallengeMode)
"""Every challenge mode: the choices a configuration offers (each is its own string value)."""


class EventKind(enum.StrEnum):
    """What an entry of the game's history records."""

    PLAY = "play"
    EXCHANGE = "exchange"
    PASS = "pass"
    PHONY_WITHDRAWN = "withdrawn"
    CHALLENGE_BONUS = "challenge-bonus"
    LOST_TURN = "lost-turn"
    RESIGN = "resign"
    END_RACK = "end-rack"
    TIME_PENALTY = "time-penalty"


TURN_KINDS: Final[frozenset[EventKind]] = frozenset(
    {EventKind.PLAY, EventKind.EXCHANGE, EventKind.PASS, EventKind.PHONY_WITHDRAWN, EventKind.LOST_TURN}
)
"""The kinds of event that are a seat's turn: a play, an exchange, a pass, a withdrawn phony, a lost turn."""


@dataclass(frozen=True, slots=True)
class Event:
    """One entry of the history, as a GCG line records it.

    ``rack`` is the player's rack before the event (``?`` for blanks), ``move`` the GCG notation
    (``8H QUIZ``, ``-AEI``, ``-``, ``--``, ``(challenge)``, ``(AEI)``), ``score`` the points it gave
    (negative for a withdrawn phony or a rack penalty), ``total`` the player's score after it, and
    ``detail`` a line for players (the score breakdown of a play).
    """

    kind: EventKind
    player: int
    rack: str
    move: str
    score: int
    total: int
    detail: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The event as JSON-compatible data."""
        return {
            "kind": self.kind.value,
            "player": self.player,
            "rack": self.rack,
            "move": self.move,
            "score": self.score,
            "total": self.total,
            "detail": self.detail,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Event:
        """The event saved by :meth:`to_dict`."""
        return cls(
            EventKind(data["kind"]),
            data["player"],
            data["rack"],
            data["move"],
            data["score"],
            data["total"],
            data["detail"],
        )


@dataclass(slots=True)
class Player:
    """A seat: its name, rack (``?`` for blanks), score and whether it resigned."""

    name: str
    rack: str = ""
    score: int = 0
    resigned: bool = False


@dataclass(slots=True)
class _Pending:
    """The last play, while it can still be challenged."""

    player: int
    play: Play
    score: int
    drawn: str
    rack_before: str
    scoreless_before: int
    went_out: bool


@dataclass(slots=True)
class _State:
    """Everything that changes during a game, copied before an action so a failure changes nothing."""

    board: Board
    bag: list[str]
    players: list[Player]
    current: int = 0
    scoreless: int = 0
    over: bool = False
    history: list[Event] = field(default_factory=list)
    pending: _Pending | None = None
    owes_lost_turn: set[int] = field(default_factory=set)

    def copy(self) -> _State:
        """A copy that an action may change, leaving this one as it is (the events and the pending
        play are never changed once made: they are shared)."""
        return _State(
            board=self.board.copy(),
            bag=list(self.bag),
            players=[Player(p.name, p.rack, p.score, p.resigned) for p in self.players],
            current=self.current,
            scoreless=self.scoreless,
            over=self.over,
            history=list(self.history),
            pending=self.pending,
            owes_lost_turn=set(self.owes_lost_turn),
        )


class Game:
    """A game of 2 to 4 players on one variant, under one challenge mode.

    ``lexicon`` checks words (on play in ``void`` mode, on challenge otherwise); without one, every word
    is accepted and challenges always fail (useful to replay records made with another dictionary).
    """

    def __init__(
        self,
        variant: Variant,
        names: Sequence[str],
        *,
        rng: random.Random,
        lexicon: WordList | None = None,
        challenge_mode: ChallengeMode = ChallengeMode.VOID,
    ) -> None:
        """Set up a new game: fill and shuffle the bag, deal the racks in seat order.

        Raises:
            GameSetupError: fewer than 2 or more than 4 players, an empty or repeated name, or a bag too
                small for the racks.
        """
        if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
            raise GameSetupError(f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(names)}")
        if any(not name.strip() for name in names) or len(set(names)) != len(names):
            raise GameSetupError("every player needs a name of their own")
        if variant.tile_count < len(names) * variant.rack_size:
            raise GameSetupError(f"the {variant.name} tile set cannot fill {len(names)} racks")
        self.variant = variant
        self.lexicon = lexicon
        self.challenge_mode = challenge_mode
        self._rng = rng
        bag = variant.full_bag()
        rng.shuffle(bag)
        state = _State(Board(variant), bag, [Player(name) for name in names])
        for player in state.players:
            player.rack = _sorted_rack(self._draw(state, variant.rack_size))
        self._state = state

    # Reading the game ---------------------------------------------------------------------------

    @property
    def board(self) -> Board:
        """The board (do not change it: act through the game's methods)."""
        return self._state.board

    @property
    def players(self) -> Sequence[Player]:
        """The seats, in turn order."""
        return self._state.players

    @property
    def bag(self) -> Sequence[str]:
        """The tiles in the bag, in drawing order (the last is drawn first). Secret to every player."""
        return self._state.bag

    @property
    def current(self) -> int:
        """The seat whose turn it is."""
        return self._state.current

    @property
    def history(self) -> Sequence[Event]:
        """Every event so far, in order."""
        return self._state.history

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self._state.over

    @property
    def scoreless_turns(self) -> int:
        """Consecutive scoreless turns so far (the game ends at :attr:`scoreless_turn_limit`)."""
        return self._state.scoreless

    @property
    def scoreless_turn_limit(self) -> int:
        """How many consecutive scoreless turns end the game: the variant's rounds times the seats (six
        with two players, twelve with four, under the bundled variants' three rounds)."""
        return self.variant.scoreless_turn_limit(len(self._state.players))

    @property
    def challengeable(self) -> int | None:
        """The seat whose last play may still be challenged, if any."""
        pending = self._state.pending
        return pending.player if pending is not None else None

    @property
    def owed_lost_turns(self) -> frozenset[int]:
        """Seats that lost a double challenge while not on turn: their next turn will be skipped."""
        return frozenset(self._state.owes_lost_turn)

    @property
    def awaiting_final_challenge(self) -> bool:
        """Whether a player went out and the game ends once that play is accepted or challenged."""
        pending = self._state.pending
        return pending is not None and pending.went_out and not self._state.over

    def challengeable_words(self) -> list[str]:
        """The words formed by the play that may still be challenged, as they stand on the board
        (uppercase, blanks as their letter, each once, main word first); empty when no play can be.
        Public knowledge: what any player sees on the board."""
        pending = self._state.pending
        if pending is None or self._state.over:
            return []
        return _words_of(self._state.board, pending.play)

    def unseen_tiles(self, seat: int) -> str:
        """The tiles ``seat`` cannot see (bag and other racks), sorted: what a player may know."""
        tiles = list(self._state.bag)
        for index, player in enumerate(self._state.players):
            if index != seat:
                tiles.extend(player.rack)
        return _sorted_rack("".join(tiles))

    def standings(self) -> list[int]:
        """Seats from first to last: by score, resigned players last (ties keep seat order)."""
        players = self._state.players
        return sorted(range(len(players)), key=lambda i: (players[i].resigned, -players[i].score))

    def winners(self) -> list[int]:
        """The seats sharing first place (empty while the game goes on)."""
        if not self._state.over:
            return []
        order = self.standings()
        best = self._state.players[order[0]]
        return [
            i
            for i in order
            if not self._state.players[i].resigned and self._state.players[i].score == best.score
        ]

    # Actions ------------------------------------------------------------------------------------

    def push(self, seat: int, move: Move) -> list[Event]:
        """``seat`` makes ``move``, whatever its kind: a :class:`Play`, an :class:`Exchange` or a
        :class:`Pass` (see :meth:`play`, :meth:`exchange`, :meth:`pass_turn`). Returns the events it
        caused, the move's own first.

        Raises:
            ScrabbleError: what the move's method raises; the game is left as it was.
        """
        match move:
            case Play():
                return self.play(seat, move)
            case Exchange(tiles):
                return self.exchange(seat, tiles)
            case Pass():
                return self.pass_turn(seat)

    def play(self, seat: int, move: Play | str) -> list[Event]:
        """``seat`` plays tiles. A string is read as player input (see :mod:`scrabble_core.notation`).

        In ``void`` mode the words are checked; otherwise they stand until challenged. Returns the
        events it caused: the play, then any lost turn or end-of-game adjustment that followed.

        Raises:
            GameOverError, NotYourTurnError, InvalidMoveError, IllegalMoveError (any rule of a play).
        """
        state = self._begin_turn(seat)
        player = state.players[seat]
        rack = player.rack
        play = parse_player_play(move, state.board, rack) if isinstance(move, str) else move
        void = self.challenge_mode is ChallengeMode.VOID
        breakdown = check_play(state.board, play, rack=rack, lexicon=self.lexicon if void else None)
        play = canonical_play(state.board, play)
        state.board.place(play.placements())
        drawn = self._draw(state, len(play.rack_tiles()))
        player.rack = _sorted_rack(remove_tiles(rack, play.rack_tiles()) + drawn)
        player.score += breakdown.total
        went_out = not player.rack
        scoreless_before = state.scoreless
        state.scoreless = 0
        state.history.append(
            Event(
                EventKind.PLAY,
                seat,
                rack,
                play.record_text(self.variant.infinite),
                breakdown.total,
                player.score,
                breakdown.describe(),
            )
        )
        if void:
            state.pending = None
            if went_out:
                self._finish_out(state, seat)
            else:
                self._advance(state)
        else:
            state.pending = _Pending(seat, play, breakdown.total, drawn, rack, scoreless_before, went_out)
            self._advance(state)
        return self._commit(state)

    def exchange(self, seat: int, tiles: str) -> list[Event]:
        """``seat`` puts ``tiles`` (typed as by a player, ``?`` a blank) back for as many new ones.

        Returns the events it caused (the exchange, and the end of the game if it was the last of the
        scoreless turns allowed).

        Raises:
            GameOverError, NotYourTurnError; InvalidMoveError for unreadable tiles;
            ExchangeNotAllowedError when the bag holds fewer tiles than the variant's limit, or fewer
            than the tiles to exchange; TileNotOnRackError when the rack lacks some of the tiles.
        """
        state = self._begin_turn(seat)
        wanted = parse_tiles(tiles, self.variant.alphabet, self.variant.set_symbols)
        limit = self.variant.exchange_min_bag
        if len(state.bag) < limit:
            raise ExchangeNotAllowedError(
                f"you can only exchange while at least {limit} tiles are in the bag ({len(state.bag)} left)"
            )
        player = state.players[seat]
        rack = player.rack
        check_rack(rack, wanted)
        if len(state.bag) < len(wanted):
            raise ExchangeNotAllowedError(
                f"the bag has only {len(state.bag)} tiles left: you cannot exchange {len(wanted)}"
            )
        drawn = self._draw(state, len(wanted))
        state.bag.extend(wanted)
        self._rng.shuffle(state.bag)
        player.rack = _sorted_rack(remove_tiles(rack, wanted) + drawn)
        event = Event(EventKind.EXCHANGE, seat, rack, f"-{_sorted_rack(wanted)}", 0, player.score)
        self._scoreless_turn(state, event)
        return self._commit(state)

    def pass_turn(self, seat: int) -> list[Event]:
        """``seat`` passes. Returns the events it caused (the pass, and the end of the game if it was
        the last of the scoreless turns allowed).

        Raises:
            GameOverError, NotYourTurnError.
        """
        state = self._begin_turn(seat)
        player = state.players[seat]
        self._scoreless_turn(state, Event(EventKind.PASS, seat, player.rack, "-", 0, player.score))
        return self._commit(state)

    def challenge(self, challenger: int) -> list[Event]:
        """``challenger`` challenges the last play: a phony comes off and scores nothing; otherwise the
        mode's penalty applies. Returns the events it caused (none for a failed single challenge of a
        play that did not go out).

        Raises:
            GameOverError; ChallengeError when the mode has no challenges, there is no play to
            challenge, or the challenger made it or is not playing.
        """
        state = self._begin(None)
        if self.challenge_mode is ChallengeMode.VOID:
            raise ChallengeError("this game checks words as they are played, so there are no challenges")
        pending = state.pending
        if pending is None:
            raise ChallengeError("there is no play to challenge")
        if not 0 <= challenger < len(state.players) or state.players[challenger].resigned:
            raise ChallengeError("only a player still in the game can challenge")
        if challenger == pending.player:
            raise ChallengeError("you cannot challenge your own play")
        state.pending = None
        if self._phony_words(state.board, pending.play):
            self._withdraw(state, pending)
        else:
            self._challenge_failed(state, pending, challenger)
        return self._commit(state)

    def accept(self, seat: int) -> list[Event]:
        """``seat``, whose turn it is, accepts the play that went out: the game ends. Returns the
        end-of-game events.

        Raises:
            GameOverError; NotYourTurnError; ChallengeError when no play that went out is waiting.
        """
        state = self._begin(seat)
        pending = state.pending
        if pending is None or not pending.went_out:
            raise ChallengeError("there is no final play to accept")
        state.pending = None
        self._finish_out(state, pending.player)
        return self._commit(state)

    def resign(self, seat: int) -> list[Event]:
        """``seat`` leaves the game and ranks last, whatever their score; with one player left the game
        ends. Any seat may resign at any time. Returns the events it caused.

        Raises:
            GameOverError; GameSetupError for a seat that is not playing.
        """
        state = self._begin(None)
        if not 0 <= seat < len(state.players) or state.players[seat].resigned:
            raise GameSetupError("that seat is not playing")
        player = state.players[seat]
        player.resigned = True
        state.history.append(Event(EventKind.RESIGN, seat, player.rack, "(resigned)", 0, player.score))
        if state.pending is not None and state.pending.player == seat:
            state.pending = None
        if sum(not p.resigned for p in state.players) == 1:
            state.over = True
            state.pending = None
        elif state.current == seat:
            self._advance(state)
        return self._commit(state)

    # Persistence --------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The whole game as JSON-compatible data; :meth:`from_dict` restores it exactly."""
        state = self._state
        pending = state.pending
        version, internal, gauss = self._rng.getstate()
        return {
            "schema": SCHEMA_VERSION,
            "variant": variant_to_dict(self.variant),
            "challenge_mode": self.challenge_mode.value,
            "board": state.board.rows_text(),
            "bag": "".join(state.bag),
            "players": [
                {"name": p.name, "rack": p.rack, "score": p.score, "resigned": p.resigned}
                for p in state.players
            ],
            "current": state.current,
            "scoreless": state.scoreless,
            "over": state.over,
            "history": [event.to_dict() for event in state.history],
            "pending": None
            if pending is None
            else {
                "player": pending.player,
                "play": pending.play.gcg(),
                "score": pending.score,
                "drawn": pending.drawn,
                "rack_before": pending.rack_before,
                "scoreless_before": pending.scoreless_before,
                "went_out": pending.went_out,
            },
            "owes_lost_turn": sorted(state.owes_lost_turn),
            "rng": [version, list(internal), gauss],
        }

    def copy(self) -> Game:
        """A game that goes on apart from this one from the same point: the same board, racks, bag,
        history and random generator's state (it draws the same tiles), sharing the variant and
        lexicon, which never change. Equal to ``Game.from_dict(game.to_dict(), lexicon=game.lexicon)``,
        without the cost of going through the saved form."""
        game = Game.__new__(Game)
        game.variant = self.variant
        game.lexicon = self.lexicon
        game.challenge_mode = self.challenge_mode
        game._rng = random.Random(0)  # any seed: setstate replaces it (no system entropy read)
        game._rng.setstate(self._rng.getstate())
        game._state = self._state.copy()
        return game

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, lexicon: WordList | None = None) -> Game:
        """Restore a game saved by :meth:`to_dict`.

        Raises:
            ScrabbleError: the data is of another schema version or is not a saved game.
        """
        if data.get("schema") not in (1, SCHEMA_VERSION):
            raise ScrabbleError(
                f"saved game of schema {cut(repr(data.get('schema')))}, expected {SCHEMA_VERSION}"
            )
        try:
            variant = variant_from_dict(_upgraded_variant(data), "saved game")
            game = cls.__new__(cls)
            game.variant = variant
            game.lexicon = lexicon
            game.challenge_mode = ChallengeMode(data["challenge_mode"])
            version, internal, gauss = data["rng"]
            game._rng = random.Random(0)  # any seed: setstate replaces it (no system entropy read)
            game._rng.setstate((version, tuple(internal), gauss))
            saved = data["pending"]
            pending = None
            if saved is not None:
                pending = _Pending(
                    saved["player"],
                    Play.from_gcg(saved["play"]),
                    saved["score"],
                    saved["drawn"],
                    saved["rack_before"],
                    saved["scoreless_before"],
                    saved["went_out"],
                )
            game._state = _State(
                board=Board.from_rows(variant, data["board"]),
                bag=list(data["bag"]),
                players=[Player(p["name"], p["rack"], p["score"], p["resigned"]) for p in data["players"]],
                current=data["current"],
                scoreless=data["scoreless"],
                over=data["over"],
                history=[Event.from_dict(event) for event in data["history"]],
                pending=pending,
                owes_lost_turn=set(data["owes_lost_turn"]),
            )
        except (KeyError, TypeError, ValueError) as error:
            if isinstance(error, ScrabbleError):
                raise
            raise ScrabbleError(f"not a saved game: {cut(repr(error), 200)}") from None
        return game

    # Internals ------------------------------------------------------------------------------------

    def _begin(self, seat: int | None) -> _State:
        """A working copy of the state for an action; :meth:`_commit` makes it the game's state.

        With a ``seat``, the action must be that seat's turn.
        """
        state = self._state
        if state.over:
            raise GameOverError
        if seat is not None:
            if not 0 <= seat < len(state.players) or state.players[seat].resigned:
                raise GameSetupError("that seat is not playing")
            if seat != state.current:
                raise NotYourTurnError(state.players[seat].name, state.players[state.current].name)
        return state.copy()

    def _begin_turn(self, seat: int) -> _State:
        """:meth:`_begin` for a turn's move, refused while a play that went out awaits its verdict."""
        state = self._begin(seat)
        pending = state.pending
        if pending is not None and pending.went_out:
            raise IllegalMoveError(
                f"{state.players[pending.player].name} went out: challenge the last play or accept it"
            )
        return state

    def _commit(self, state: _State) -> list[Event]:
        before = len(self._state.history)
        self._state = state
        return list(state.history[before:])

    @staticmethod
    def _draw(state: _State, count: int) -> str:
        bag = state.bag
        return "".join(bag.pop() for _ in range(min(count, len(bag))))

    def _scoreless_turn(self, state: _State, event: Event) -> None:
        state.pending = None
        state.history.append(event)
        state.scoreless += 1
        if state.scoreless >= self.scoreless_turn_limit:
            self._finish_scoreless(state)
        else:
            self._advance(state)

    def _advance(self, state: _State) -> None:
        """Give the turn to the next seat still playing, recording any lost turn it owes."""
        count = len(state.players)
        while not state.over:
            state.current = (state.current + 1) % count
            player = state.players[state.current]
            if player.resigned:
                continue
            if state.current not in state.owes_lost_turn:
                return
            state.owes_lost_turn.discard(state.current)
            self._lose_turn(state, state.current)

    def _lose_turn(self, state: _State, seat: int) -> None:
        player = state.players[seat]
        state.history.append(Event(EventKind.LOST_TURN, seat, player.rack, "-", 0, player.score))
        state.scoreless += 1
        if state.scoreless >= self.scoreless_turn_limit:
            self._finish_scoreless(state)

    def _phony_words(self, board: Board, play: Play) -> list[str]:
        """The words of ``play``, which stands on ``board``, that the lexicon lacks."""
        if self.lexicon is None:
            return []
        lexicon = self.lexicon
        return [word for word in _words_of(board, play) if word not in lexicon]

    def _withdraw(self, state: _State, pending: _Pending) -> None:
        """Take a phony off the board: its tiles back on the rack, the tiles drawn back in the bag, which
        is mixed so that no one knows what the next player draws."""
        state.board.remove(square for square, _ in pending.play.placements())
        player = state.players[pending.player]
        state.bag.extend(pending.drawn)
        self._rng.shuffle(state.bag)
        player.rack = pending.rack_before
        player.score -= pending.score
        state.history.append(
            Event(
                EventKind.PHONY_WITHDRAWN,
                pending.player,
                pending.rack_before,
                "--",
                -pending.score,
                player.score,
            )
        )
        # The play had reset the count; any turn lost since (double challenge) still counts.
        state.scoreless = pending.scoreless_before + 1 + state.scoreless
        if state.scoreless >= self.scoreless_turn_limit:
            self._finish_scoreless(state)

    def _challenge_failed(self, state: _State, pending: _Pending, challenger: int) -> None:
        if self.challenge_mode is ChallengeMode.FIVE_POINT:
            player = state.players[pending.player]
            player.score += FIVE_POINT_BONUS
            state.history.append(
                Event(
                    EventKind.CHALLENGE_BONUS,
                    pending.player,
                    player.rack,
                    "(challenge)",
                    FIVE_POINT_BONUS,
                    player.score,
                )
            )
        if pending.went_out:
            if self.challenge_mode is ChallengeMode.DOUBLE:
                # Recorded, but the game ends here by going out, not by scoreless turns.
                player = state.players[challenger]
                state.history.append(
                    Event(EventKind.LOST_TURN, challenger, player.rack, "-", 0, player.score)
                )
            self._finish_out(state, pending.player)
        elif self.challenge_mode is ChallengeMode.DOUBLE:
            if challenger == state.current:
                self._lose_turn(state, challenger)
                self._advance(state)
            else:
                state.owes_lost_turn.add(challenger)

    def _finish_out(self, state: _State, seat: int) -> None:
        """``seat`` went out: rack adjustments (2 players: twice the opponent's rack; more: each other
        player loses their rack, the one who went out gains the sum), then the game ends."""
        state.over = True
        state.pending = None
        others = [i for i, p in enumerate(state.players) if i != seat and not p.resigned]
        out = state.players[seat]
        if len(state.players) == 2:
            (other,) = others
            rack = state.players[other].rack
            bonus = 2 * self.variant.rack_value(rack)
            out.score += bonus
            state.history.append(Event(EventKind.END_RACK, seat, "", f"({rack})", bonus, out.score))
            return
        gained = ""
        for index in others:
            player = state.players[index]
            value = self.variant.rack_value(player.rack)
            player.score -= value
            gained += player.rack
            state.history.append(
                Event(EventKind.END_RACK, index, player.rack, f"({player.rack})", -value, player.score)
            )
        bonus = self.variant.rack_value(gained)
        out.score += bonus
        state.history.append(
            Event(EventKind.END_RACK, seat, "", f"({_sorted_rack(gained)})", bonus, out.score)
        )

    def _finish_scoreless(self, state: _State) -> None:
        """Too many scoreless turns in a row: each player still in loses their own rack's value."""
        state.over = True
        state.pending = None
        for index, player in enumerate(state.players):
            if player.resigned:
                continue
            value = self.variant.rack_value(player.rack)
            player.score -= value
            state.history.append(
                Event(EventKind.END_RACK, index, player.rack, f"({player.rack})", -value, player.score)
            )


def _upgraded_variant(data: Mapping[str, Any]) -> Mapping[str, Any]:
    """The variant of a saved game. Schema 1 saved a limit of scoreless turns meant for two players (six
    in the bundled variants): it becomes half as many rounds."""
    variant: Mapping[str, Any] = data["variant"]
    if data["schema"] != 1:
        return variant
    upgraded = {key: value for key, value in variant.items() if key != "scoreless_turn_limit"}
    upgraded["scoreless_rounds"] = max(1, variant.get("scoreless_turn_limit", 6) // 2)
    return upgraded


def _words_of(board: Board, play: Play) -> list[str]:
    """The words formed by ``play``, which stands on ``board`` (read on a copy without its tiles)."""
    placements = play.placements()
    before = board.copy()
    before.remove(square for square, _ in placements)
    return formed_words(before, placements, play.across)


def _sorted_rack(tiles: str) -> str:
    """Tiles in rack order: letters alphabetically, blanks last."""
    return "".join(sorted(tiles, key=lambda tile: (tile == BLANK, tile)))
