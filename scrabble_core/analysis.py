"""Post-game analysis: each turn of a finished game set against the best move of its position.

:func:`positions` replays a game's history (a :class:`~scrabble_core.game.Game`'s events, or a GCG
record's) on a board and gives, for every turn that had a rack, a :class:`Position`: what the seat saw
(board, rack, unseen tiles, bag size, scores) and the move made. :func:`analyse_position` evaluates one
position; it is pure and its input and output are plain data, so each position can run in a worker
process. :func:`summarise` gathers the results in a :class:`GameAnalysis` and :func:`report_text` writes it.

The evaluation is the AI's:

- ``hard`` (static): every play ranked by equity (score plus the leave's value; with the bag empty the
  endgame rule of :func:`scrabble_core.ai.move_equity`), and every exchange by the leave it keeps.
- ``expert``: the same, then (bag not empty, two players) the best candidates are simulated
  (:func:`scrabble_core.simulation.simulate`) for ``iterations`` iterations within an optional deadline. When
  the simulation clearly prefers another move, that move is the best and the losses are read on the
  simulation's scale: a simulated move's own mean, and for a move not simulated the static choice's mean
  less its static shortfall. With the bag empty the static endgame rule stands.

The *equity lost* by a move is the best move's equity less the move's, never below 0 (0 when it is the
best move). Marks: a missed bingo (a play using the whole rack existed and was not made), a phony (a
word of the play is not in the lexicon), and a phony let stand (the previous player's phony stayed on
the board: marked on the next turn of the player after it, the first who could have challenged).

*Accuracy* is the share of a player's turns that lost at most :data:`ACCURATE_WITHIN` points of equity, in
percent. Given the same seed, positions and budget in iterations, the analysis is the same (a deadline
that cuts a simulation short can change it).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final

from scrabble_core.ai import Level, MoveSource, SeatView, exchange_options, move_equity
from scrabble_core.board import Board
from scrabble_core.game import TURN_KINDS, Event, EventKind, Game
from scrabble_core.gcg import GcgRecord
from scrabble_core.leaves import LeaveModel
from scrabble_core.lexicon import WordList
from scrabble_core.move import Exchange, Move, Pass, Play, move_from_gcg
from scrabble_core.move_words import move_in_words, scored_in_words, tiles_in_words
from scrabble_core.simulation import simulate
from scrabble_core.squares import Square
from scrabble_core.tiles import is_set_tile, letter_of
from scrabble_core.validation import canonical_play, check_play, formed_words, remove_tiles
from scrabble_core.variant import BLANK, Variant

ACCURATE_WITHIN: Final = 1.0
"""A turn that loses at most this much equity counts as accurate."""
BIGGEST_MISSES: Final = 3
"""How many of a player's biggest misses the summary shows."""
DEFAULT_ITERATIONS: Final = 8
"""Simulation iterations per move at the ``expert`` level."""
SNIPPET_MARGIN: Final = 2
"""Rows and columns of board shown around the best move in a snippet."""

ANALYSIS_LEVELS: Final = (Level.HARD, Level.EXPERT)
"""The levels an analysis can use."""


class Mark:
    """The marks a turn can get (plain strings, stored as such)."""

    MISSED_BINGO: Final = "missed bingo"
    PHONY: Final = "phony"
    PHONY_LET_STAND: Final = "phony not challenged"


@dataclass(frozen=True, slots=True)
class Position:
    """One turn to analyse: its number (from 1, over the analysed turns), the index of its event in the
    history, the seat and its name, what the seat saw and the move made (GCG notation: ``8H QUIZ``,
    ``-AEI``, ``-``), whether a word of it was not in the lexicon (``phony``), whether it came off the
    board after a challenge (``withdrawn``) and whether the previous player's phony stood before it
    (``phony_before``)."""

    number: int
    event_index: int
    seat: int
    name: str
    view: SeatView
    move: str
    score: int
    phony: bool = False
    withdrawn: bool = False
    phony_before: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The position as plain data; :meth:`from_dict` restores it."""
        return {
            "number": self.number,
            "event_index": self.event_index,
            "seat": self.seat,
            "name": self.name,
            "view": self.view.to_dict(),
            "move": self.move,
            "score": self.score,
            "phony": self.phony,
            "withdrawn": self.withdrawn,
            "phony_before": self.phony_before,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Position:
        """The position saved by :meth:`to_dict`."""
        return cls(
            data["number"],
            data["event_index"],
            data["seat"],
            data["name"],
            SeatView.from_dict(data["view"]),
            data["move"],
            data["score"],
            data["phony"],
            data["withdrawn"],
            data["phony_before"],
        )


@dataclass(frozen=True, slots=True)
class MoveAnalysis:
    """One analysed turn: the position's facts, the best move (GCG) with its score and equity, the move
    made with its equity, the equity lost, the marks, a text snippet of the board around the best
    move (``best`` placed, its new tiles in brackets), and both moves in words as people read them
    (:func:`scrabble_core.move_words.move_in_words`: ``QUIZ at 8H (across)``; empty in analyses stored
    without them, which :func:`with_words` fills)."""

    number: int
    event_index: int
    seat: int
    name: str
    rack: str
    move: str
    score: int
    equity: float
    best: str
    best_score: int
    best_equity: float
    loss: float
    marks: tuple[str, ...] = ()
    snippet: str = ""
    move_words: str = ""
    best_words: str = ""

    @property
    def found(self) -> bool:
        """Whether the move made was the best (or as good)."""
        return self.loss == 0

    def note(self) -> str:
        """One line on the turn in words, as a GCG note or a report line: ``the best play``, or the best
        move and what it was worth more (``the best was QUIZ at 8H (across) for 48: 26 points more,
        10.0 better counting the tiles kept``), then the marks."""
        verdict = "the best play" if self.found else self.best_said()
        marks = "".join(f"; {mark}" for mark in self.marks)
        return f"{verdict}{marks}"

    def best_said(self) -> str:
        """The best move and how much better it was than the move made, in words."""
        best = self.best_words or self.best
        if best.startswith(("exchange", "pass")):
            said = f"the best was to {best}"
        else:
            said = f"the best was {scored_in_words(best, self.best_score)}"
        more = self.best_score - self.score
        points = f"{abs(more)} point{'s' if abs(more) != 1 else ''}"
        than = f"{points} more" if more > 0 else f"{points} less" if more < 0 else "as many points"
        return f"{said}: {than}, {self.loss:.1f} better counting the tiles kept"

    def made_said(self) -> str:
        """The move made, in words: ``played ZA at 5E (across) for 22``, ``exchanged AEI``, ``passed``."""
        made = self.move_words or self.move
        if made.startswith("exchange "):
            return f"exchanged {made.removeprefix('exchange ')}"
        if made == "pass":
            return "passed"
        return f"played {scored_in_words(made, self.score)}"

    def to_dict(self) -> dict[str, Any]:
        """The analysis as JSON-compatible data; :meth:`from_dict` restores it."""
        return {
            "number": self.number,
            "event_index": self.event_index,
            "seat": self.seat,
            "name": self.name,
            "rack": self.rack,
            "move": self.move,
            "score": self.score,
            "equity": self.equity,
            "best": self.best,
            "best_score": self.best_score,
            "best_equity": self.best_equity,
            "loss": self.loss,
            "marks": list(self.marks),
            "snippet": self.snippet,
            "move_words": self.move_words,
            "best_words": self.best_words,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> MoveAnalysis:
        """The analysis saved by :meth:`to_dict` (one saved without its moves in words has them
        empty)."""
        fields = dict(data)
        fields["marks"] = tuple(fields["marks"])
        return cls(**fields)


@dataclass(frozen=True, slots=True)
class PlayerSummary:
    """A player's summary: turns analysed, total equity lost, accuracy (percent, see the module
    docstring), missed bingos, phonies played and let stand, and the biggest misses (worst first)."""

    seat: int
    name: str
    turns: int
    equity_lost: float
    accuracy: float
    missed_bingos: int
    phonies: int
    phonies_let_stand: int
    biggest: tuple[MoveAnalysis, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    """A whole game's analysis: the level it used, every analysed turn in order and each player's
    summary in seat order."""

    level: str
    moves: tuple[MoveAnalysis, ...]
    players: tuple[PlayerSummary, ...]

    def to_dict(self) -> dict[str, Any]:
        """The analysis as JSON-compatible data (the summaries are rebuilt by :meth:`from_dict`)."""
        return {
            "level": self.level,
            "names": [player.name for player in self.players],
            "moves": [move.to_dict() for move in self.moves],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameAnalysis:
        """The analysis saved by :meth:`to_dict`."""
        moves = [MoveAnalysis.from_dict(move) for move in data["moves"]]
        return summarise(data["names"], moves, data["level"])

    def notes(self) -> dict[int, str]:
        """A note per analysed event, by its index in the game's history (for GCG ``#note`` lines)."""
        return {move.event_index: move.note() for move in self.moves}


# Positions ----------------------------------------------------------------------------------------


def game_positions(game: Game, lexicon: WordList | None = None) -> list[Position]:
    """The positions of ``game``'s turns (see :func:`positions`); ``lexicon`` defaults to the game's."""
    names = [player.name for player in game.players]
    return positions(game.variant, names, game.history, lexicon if lexicon is not None else game.lexicon)


def record_positions(record: GcgRecord, variant: Variant, lexicon: WordList | None = None) -> list[Position]:
    """The positions of a GCG record's turns (see :func:`positions`); events without a rack are skipped.

    Raises:
        ScrabbleError: a play of the record cannot be read or placed.
    """
    seats = {nick: seat for seat, (nick, _) in enumerate(record.players)}
    events = [
        Event(event.kind, seats[event.nick], event.rack, event.move, event.score, event.total)
        for event in record.events
    ]
    return positions(variant, [name for _, name in record.players], events, lexicon)


def positions(
    variant: Variant, names: Sequence[str], history: Sequence[Event], lexicon: WordList | None = None
) -> list[Position]:
    """Replay ``history`` on an empty board and return a :class:`Position` per play, exchange or pass
    whose rack is known. The bag's size and each seat's unseen tiles are worked out from the tiles
    drawn; with ``lexicon``, plays whose words it lacks are marked phonies.

    Raises:
        ScrabbleError: a play of the history cannot be read or placed.
    """
    tracker = _Tracker(variant, len(names))
    found: list[Position] = []
    phony_standing = False
    for index, event in enumerate(history):
        if event.kind is EventKind.PLAY:
            play = Play.from_gcg(event.move)
            withdrawn = _next_kind(history, index, event.player) is EventKind.PHONY_WITHDRAWN
            phony = lexicon is not None and any(
                word not in lexicon for word in formed_words(tracker.board, play.placements(), play.across)
            )
            if event.rack:
                found.append(
                    _position(tracker, names, index, event, len(found) + 1, phony, withdrawn, phony_standing)
                )
            tracker.play(event.player, play)
            phony_standing = phony and not withdrawn
        elif event.kind is EventKind.PHONY_WITHDRAWN:
            tracker.withdraw(event.player)
        elif event.kind in (EventKind.EXCHANGE, EventKind.PASS):
            if event.rack:
                found.append(
                    _position(tracker, names, index, event, len(found) + 1, False, False, phony_standing)
                )
            phony_standing = False
        if event.kind in TURN_KINDS:
            tracker.last_turns[event.player] = event.move if event.kind is EventKind.PLAY else ""
        tracker.score(event.player, event.score)
    return found


def _position(
    tracker: _Tracker,
    names: Sequence[str],
    index: int,
    event: Event,
    number: int,
    phony: bool,
    withdrawn: bool,
    phony_before: bool,
) -> Position:
    view = tracker.view(event.player, event.rack.upper())
    return Position(
        number,
        index,
        event.player,
        names[event.player],
        view,
        event.move,
        event.score,
        phony,
        withdrawn,
        phony_before,
    )


def _next_kind(history: Sequence[Event], index: int, seat: int) -> EventKind | None:
    for later in history[index + 1 :]:
        if later.player == seat:
            return later.kind
    return None


class _Tracker:
    """The board, the bag's size, the racks' sizes and the scores while a history is replayed."""

    def __init__(self, variant: Variant, players: int) -> None:
        self.variant = variant
        self.board = Board(variant)
        self.sizes = [variant.rack_size] * players
        self.bag = max(variant.tile_count - players * variant.rack_size, 0)
        self.scores = [0] * players
        self._last: dict[int, tuple[Play, int]] = {}
        self.last_turns: dict[int, str] = {}  # each seat's last turn: its play (GCG), or "" for another move

    def play(self, seat: int, play: Play) -> None:
        self.board.place(play.placements())
        used = len(play.rack_tiles())
        drawn = min(used, self.bag)
        self.bag -= drawn
        self.sizes[seat] = max(self.sizes[seat] - used, 0) + drawn
        self._last[seat] = (play, drawn)

    def withdraw(self, seat: int) -> None:
        if seat not in self._last:
            return
        play, drawn = self._last.pop(seat)
        self.board.remove(square for square, _ in play.placements())
        self.bag += drawn
        self.sizes[seat] += len(play.rack_tiles()) - drawn

    def score(self, seat: int, points: int) -> None:
        self.scores[seat] += points

    def view(self, seat: int, rack: str) -> SeatView:
        unseen = Counter(self.variant.full_bag())
        unseen.subtract(BLANK if tile.islower() else tile for _, tile in self.board.tiles())
        unseen.subtract(rack)
        tiles = "".join(sorted((+unseen).elements(), key=lambda tile: (tile == BLANK, tile)))
        others = sum(size for other, size in enumerate(self.sizes) if other != seat)
        bag = max(min(self.bag, len(tiles) - others), 0)
        last = self.last_turns.get(1 - seat, "") if len(self.scores) == 2 else ""
        return SeatView(self.variant, self.board.copy(), rack, tiles, bag, tuple(self.scores), seat, last)


# One position -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Option:
    """A candidate as :func:`scrabble_core.ai.move_equity` reads it."""

    play: Play
    score: int
    leave: str


def analyse_position(
    position: Position,
    generator: MoveSource,
    model: LeaveModel,
    *,
    level: Level = Level.HARD,
    seed: int = 0,
    iterations: int = DEFAULT_ITERATIONS,
    deadline: float | None = None,
    clock: Callable[[], float] | None = None,
) -> MoveAnalysis:
    """The analysis of one position at ``level`` (``hard`` or ``expert``: see the module docstring).
    The simulation draws from ``random.Random(seed)``; ``deadline`` (a ``clock()`` value, default
    :func:`time.monotonic`) cuts it short.

    Raises:
        ValueError: a level other than ``hard`` or ``expert``.
        ScrabbleError: the move made cannot be read or is not legal in the position.
    """
    if level not in ANALYSIS_LEVELS:
        raise ValueError(f"an analysis runs at {' or '.join(ANALYSIS_LEVELS)}, not {level}")
    view = position.view
    plays = generator.generate(view.board, view.rack)
    ranked: list[tuple[float, int, str, Move, int]] = [
        (move_equity(view, option, model), 0, option.play.gcg(), option.play, option.score)
        for option in plays
    ]
    if view.bag_size > 0:
        ranked += [
            (value, 1, exchange.gcg(), exchange, 0) for value, exchange in exchange_options(view, model)
        ]
    ranked.sort(key=lambda option: (-option[0], option[1], option[2]))
    made, made_equity = _made(position, model)
    if ranked:
        best_equity, _, _, best, best_score = ranked[0]
    else:
        best, best_score, best_equity = Pass(), 0, _keep_all(view, model)
    loss = max(best_equity - made_equity, 0.0)
    if level is Level.EXPERT and view.bag_size > 0 and view.players == 2 and len(ranked) > 1:
        best, best_score, loss = _simulated(
            position, generator, model, seed, iterations, deadline, clock, ranked, made, made_equity, loss
        )
        best_equity = next((value for value, _, _, move, _ in ranked if move == best), best_equity)
    if made.gcg() == best.gcg():
        loss = 0.0
    marks = []
    bingo = view.variant.rack_size
    if len(made.rack_tiles()) < bingo <= len(view.rack) and any(
        len(view.rack) - len(p.leave) >= bingo for p in plays
    ):
        marks.append(Mark.MISSED_BINGO)
    if position.phony:
        marks.append(Mark.PHONY)
    if position.phony_before:
        marks.append(Mark.PHONY_LET_STAND)
    return MoveAnalysis(
        number=position.number,
        event_index=position.event_index,
        seat=position.seat,
        name=position.name,
        rack=view.rack,
        move=made.gcg(),
        score=position.score,
        equity=round(made_equity, 1),
        best=best.gcg(),
        best_score=best_score,
        best_equity=round(best_equity, 1),
        loss=round(loss, 1),
        marks=tuple(marks),
        snippet=board_snippet(view.board, best) if isinstance(best, Play) else "",
        move_words=move_in_words(made, view.board),
        best_words=move_in_words(best, view.board),
    )


def _made(position: Position, model: LeaveModel) -> tuple[Move, float]:
    """The move made (plays in canonical notation) and its static equity; a withdrawn phony counts as a
    pass (it scored nothing and the tiles came back).

    Raises:
        ScrabbleError: the move cannot be read or placed.
    """
    view = position.view
    move = move_from_gcg(position.move)
    if isinstance(move, Play):
        play = canonical_play(view.board, move)
        if position.withdrawn:
            return play, _keep_all(view, model)
        score = check_play(view.board, play, rack=view.rack).total
        leave = remove_tiles(view.rack, play.rack_tiles())
        return play, move_equity(view, _Option(play, score, leave), model)
    if isinstance(move, Exchange):
        tiles = move.tiles if not move.tiles.isdigit() else ""
        return move, move_equity(
            view, _Option(Play(0, 0, True, ""), 0, remove_tiles(view.rack, tiles)), model
        )
    return move, _keep_all(view, model)


def _keep_all(view: SeatView, model: LeaveModel) -> float:
    """The equity of a move that plays nothing and keeps the whole rack."""
    return move_equity(view, _Option(Play(0, 0, True, ""), 0, view.rack), model)


def _simulated(
    position: Position,
    generator: MoveSource,
    model: LeaveModel,
    seed: int,
    iterations: int,
    deadline: float | None,
    clock: Callable[[], float] | None,
    ranked: Sequence[tuple[float, int, str, Move, int]],
    made: Move,
    made_equity: float,
    static_loss: float,
) -> tuple[Move, int, float]:
    """The best move by simulation, its score and the loss of ``made`` on the simulation's scale (see
    the module docstring); the static best and loss when the simulation keeps the static choice."""
    extra = {} if clock is None else {"clock": clock}
    result = simulate(
        position.view, generator, model, random.Random(seed), deadline, max_iterations=iterations, **extra
    )
    static_equity, _, _, static, static_score = ranked[0]
    if result.move.gcg() == static.gcg() or not result.means:
        return static, static_score, static_loss
    means = {move.gcg(): mean for move, mean in result.means}
    best_value = means[result.move.gcg()]
    made_value = means.get(made.gcg(), means[static.gcg()] - (static_equity - made_equity))
    score = next((points for _, _, _, move, points in ranked if move == result.move), 0)
    return result.move, score, max(best_value - made_value, 0.0)


# The board snippet --------------------------------------------------------------------------------


def board_snippet(board: Board, play: Play, margin: int = SNIPPET_MARGIN) -> str:
    """The rows and columns of ``board`` around ``play`` (``margin`` more on each side), with ``play``
    placed and its new tiles in brackets; columns lettered, rows numbered as on the board (on an infinite
    board, both numbered by their coordinates)."""
    new = {square: tile for square, tile in play.placements() if board[square] is None}
    squares = play.squares()
    variant = board.variant
    top = min(r for r, _ in squares) - margin
    bottom = max(r for r, _ in squares) + margin
    left = min(c for _, c in squares) - margin
    right = max(c for _, c in squares) + margin
    if not variant.infinite:
        top, bottom = max(top, 0), min(bottom, variant.rows - 1)
        left, right = max(left, 0), min(right, variant.cols - 1)
    # An infinite board's columns and rows are numbered by their signed coordinates.
    names = [
        f"{col:^3}" if variant.infinite else f" {chr(ord('A') + col)} " for col in range(left, right + 1)
    ]
    lines = [("    " + "".join(names)).rstrip()]
    for row in range(top, bottom + 1):
        cells = [_cell(board, new, (row, col)) for col in range(left, right + 1)]
        lines.append(f"{row if variant.infinite else row + 1:>3} " + "".join(cells))
    return "\n".join(line.rstrip() for line in lines)


def _cell(board: Board, new: Mapping[Square, str], square: Square) -> str:
    if square in new:
        return f"[{_shown(new[square])}]"
    tile = board[square]
    return f" {_shown(tile)} " if tile is not None else " . "


def _shown(tile: str) -> str:
    """A tile as the snippet shows it: a set tile as its letter."""
    return letter_of(tile) if is_set_tile(tile) else tile


# The whole game -----------------------------------------------------------------------------------


def analyse_game(
    found: Sequence[Position],
    names: Sequence[str],
    generator: MoveSource,
    model: LeaveModel,
    *,
    level: Level = Level.HARD,
    seed: int = 0,
    iterations: int = DEFAULT_ITERATIONS,
) -> GameAnalysis:
    """Every position analysed in this process, in order (turn ``n`` draws from seed ``seed + n``).

    Raises:
        As :func:`analyse_position`.
    """
    moves = [
        analyse_position(
            position, generator, model, level=level, seed=seed + position.number, iterations=iterations
        )
        for position in found
    ]
    return summarise(names, moves, level.value)


def summarise(names: Sequence[str], moves: Sequence[MoveAnalysis], level: str) -> GameAnalysis:
    """The :class:`GameAnalysis` of ``moves``, with a summary per seat of ``names``."""
    players = []
    for seat, name in enumerate(names):
        own = [move for move in moves if move.seat == seat]
        accurate = sum(move.loss <= ACCURATE_WITHIN for move in own)
        misses = sorted((move for move in own if move.loss > 0), key=lambda move: (-move.loss, move.number))
        players.append(
            PlayerSummary(
                seat=seat,
                name=name,
                turns=len(own),
                equity_lost=round(sum(move.loss for move in own), 1),
                accuracy=round(100 * accurate / len(own), 1) if own else 100.0,
                missed_bingos=sum(Mark.MISSED_BINGO in move.marks for move in own),
                phonies=sum(Mark.PHONY in move.marks for move in own),
                phonies_let_stand=sum(Mark.PHONY_LET_STAND in move.marks for move in own),
                biggest=tuple(misses[:BIGGEST_MISSES]),
            )
        )
    return GameAnalysis(level, tuple(moves), tuple(players))


def summary_text(analysis: GameAnalysis) -> str:
    """Each player's summary in plain words: the turns within :data:`ACCURATE_WITHIN` point of the best
    play, the equity lost, the marks, and the biggest misses (``Turn 5, with AEIRST and a blank: played
    ZA at 5E (across) for 22; the best was QUIZ at 8H (across) for 48: 26 points more, 10.0 better
    counting the tiles kept``) with their board snippets."""
    blocks = []
    for player in analysis.players:
        accurate = round(player.accuracy * player.turns / 100)
        lines = [
            f"{player.name}: {accurate} of {player.turns} turn{'s' if player.turns != 1 else ''} within "
            f"{ACCURATE_WITHIN:.0f} point of the best play, {player.equity_lost:.1f} points lost in all "
            "(counting the tiles kept)",
        ]
        counts = [
            (player.missed_bingos, "missed bingo", "missed bingos"),
            (player.phonies, "phony played", "phonies played"),
            (player.phonies_let_stand, "phony not challenged", "phonies not challenged"),
        ]
        marked = [f"{count} {one if count == 1 else many}" for count, one, many in counts if count]
        if marked:
            lines.append("  " + ", ".join(marked))
        for miss in player.biggest:
            lines.append(
                f"  Turn {miss.number}, with {tiles_in_words(miss.rack)}: {miss.made_said()}; {miss.best_said()}"
            )
            if miss.snippet:
                lines.extend("    " + line for line in miss.snippet.splitlines())
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def report_text(analysis: GameAnalysis) -> str:
    """The whole report: one line per turn in words, then :func:`summary_text`."""
    lines = [f"Analysis ({analysis.level}):"]
    for move in analysis.moves:
        lines.append(
            f"{move.number:>3}. {move.name}, with {tiles_in_words(move.rack)}: {move.made_said()}; {move.note()}"
        )
    return "\n".join(lines) + "\n\n" + summary_text(analysis)


def with_words(analysis: GameAnalysis, found: Sequence[Position]) -> GameAnalysis:
    """``analysis`` with its moves in words, from the positions of its game (``found``, by their event
    index), for an analysis stored without them."""
    boards = {position.event_index: position.view.board for position in found}
    moves = [
        move
        if move.move_words or (board := boards.get(move.event_index)) is None
        else replace(
            move, move_words=move_in_words(move.move, board), best_words=move_in_words(move.best, board)
        )
        for move in analysis.moves
    ]
    return summarise([player.name for player in analysis.players], moves, analysis.level)
