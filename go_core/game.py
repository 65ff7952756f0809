"""A game of Go: turns, positional superko, passing, resigning, the dead-stone phase, the result, undo,
stones set up by hand (as game records have them), and a dict form to store it.

A game goes through three phases. In :attr:`Phase.PLAY` the players take turns to play a stone or pass;
two passes in a row start :attr:`Phase.SCORING`, where the players mark the dead groups
(:meth:`Game.toggle_dead`), then either both accept the count (:meth:`Game.accept`) or play resumes
(:meth:`Game.resume`). A resignation, a loss on time, or both acceptances end the game:
:attr:`Phase.OVER`.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from go_core.board import Board
from go_core.errors import (
    GameOverError,
    GoError,
    HandicapError,
    IllegalMoveError,
    KoError,
    KomiError,
    NothingToUndoError,
    NotYourTurnError,
    OffBoardError,
    PhaseError,
    echo,
)
from go_core.handicap import handicap_points
from go_core.points import Color, Point, check_size, format_move, parse_move
from go_core.scoring import DEFAULT_KOMI, Score, ScoringMethod, count

FORMAT_VERSION: Final = 1
"""The version of :meth:`Game.to_dict`'s form."""
RESUME: Final = "resume"
"""The action in :meth:`Game.to_dict`'s list that resumes play after the dead-stone phase."""
MAX_KOMI: Final = 1000.0
RESIGNED: Final = "R"
ON_TIME: Final = "T"
SETUP: Final = "setup"
"""The first word of a setup's action in :meth:`Game.to_dict`'s list (see :class:`Setup`)."""


class Phase(enum.StrEnum):
    """Where a game is: playing, marking dead stones after two passes, or over."""

    PLAY = "play"
    SCORING = "scoring"
    OVER = "over"

    def __repr__(self) -> str:
        return f"Phase.{self.name}"


@dataclass(frozen=True, slots=True)
class Move:
    """A stone played by ``color`` on ``point`` and the stones it ``captured``, or a pass
    (``point`` is ``None``)."""

    color: Color
    point: Point | None
    captured: tuple[Point, ...] = ()

    @property
    def is_pass(self) -> bool:
        """Whether the move is a pass."""
        return self.point is None

    def __str__(self) -> str:
        """``B D4``, ``W pass``."""
        return f"{self.color.value} {format_move(self.point)}"


@dataclass(frozen=True, slots=True)
class Setup:
    """Stones put on the board (``black``, ``white``) or taken off it (``empty``) by hand, as a game
    record's setup (SGF's ``AB``, ``AW``, ``AE``): nothing is captured, nothing is checked but the
    points; and the colour to move next (SGF's ``PL``), when it says."""

    black: tuple[Point, ...] = ()
    white: tuple[Point, ...] = ()
    empty: tuple[Point, ...] = ()
    to_move: Color | None = None

    def __str__(self) -> str:
        """``setup B:D4,Q16 W:C3 E:E5 PL:W``, the parts it has (its action in :meth:`Game.to_dict`)."""
        parts = [SETUP]
        for key, points in (("B", self.black), ("W", self.white), ("E", self.empty)):
            if points:
                parts.append(f"{key}:{','.join(map(str, points))}")
        if self.to_move is not None:
            parts.append(f"PL:{self.to_move.value}")
        return " ".join(parts)

    @classmethod
    def parse(cls, text: str, size: int) -> Setup:
        """The setup :meth:`__str__` wrote for a board of ``size``.

        Raises:
            GoError: ``text`` is not a setup's action.
        """
        words = text.split()
        if words[:1] != [SETUP]:
            raise GoError(f"{echo(text)} is not a setup")
        lists: dict[str, tuple[Point, ...]] = {"B": (), "W": (), "E": ()}
        to_move = None
        for word in words[1:]:
            key, _, value = word.partition(":")
            if key == "PL":
                to_move = Color(value)
            elif key in lists and value:
                lists[key] = tuple(Point.parse(point, size) for point in value.split(","))
            else:
                raise GoError(f"{echo(word)} is not part of a setup")
        return cls(lists["B"], lists["W"], lists["E"], to_move)


class Game:
    """A game of Go between Black and White on one board, from its first move to its result."""

    def __init__(
        self,
        size: int = 19,
        *,
        komi: float = DEFAULT_KOMI,
        handicap: int = 0,
        free_handicap: Sequence[Point] = (),
        method: ScoringMethod = ScoringMethod.AREA,
    ) -> None:
        """A new game on an empty ``size``×``size`` board, or with ``handicap`` black stones placed as
        GNU Go places them (:func:`~go_core.handicap.handicap_points`), or with black stones on the
        ``free_handicap`` points (placed by the players, on any board); White then moves first. White
        gets ``komi`` points; the game is counted by ``method``.

        Raises:
            BoardSizeError: ``size`` is not 2 to 25.
            KomiError: ``komi`` is not a finite number of at most 1000 points either way.
            HandicapError: a handicap other than 0 or 2 to what the board takes
                (:func:`~go_core.handicap.max_handicap`: none below 7×7); a free handicap of fewer than 2
                points, with a point twice, or filling the board; both.
        """
        self._size = check_size(size)
        if isinstance(komi, bool) or not isinstance(komi, int | float) or not math.isfinite(komi):
            raise KomiError(f"{echo(str(komi))} is not a komi: give a number of points such as 7.5")
        if abs(komi) > MAX_KOMI:
            raise KomiError(f"A komi is at most {MAX_KOMI:g} points either way, not {komi:g}")
        self._komi = float(komi)
        self._method = ScoringMethod(method)
        self._board = Board(size)
        self._handicap = _handicap_stones(size, handicap, free_handicap)
        self._board.place(Color.BLACK, self._handicap)
        self._to_move = Color.WHITE if self._handicap else Color.BLACK
        self._moves: list[Move] = []
        self._turns: list[Color] = []
        """Whose turn it was before each action (moves and resumptions), for undo."""
        self._resumed_at: list[int] = []
        """The number of moves made when play was resumed, once per resumption."""
        self._setups: list[tuple[int, Setup, tuple[tuple[Point, Color | None], ...], set[bytes]]] = []
        """Each setup, after how many moves it came, and what its points held and the positions before
        it (for undo). At a number of moves, the resumptions come first (a setup is made in play)."""
        self._positions: set[bytes] = {self._board.key()}
        self._captures = {Color.BLACK: 0, Color.WHITE: 0}
        self._dead: frozenset[Point] = frozenset()
        self._accepted: set[Color] = set()
        self._result: str | None = None
        self._forfeit_by: tuple[Color, str] | None = None
        """The colour that resigned or lost on time, and how (:data:`RESIGNED`, :data:`ON_TIME`)."""

    # Reading -------------------------------------------------------------------------------------

    @property
    def size(self) -> int:
        """The board's width and height."""
        return self._size

    @property
    def komi(self) -> float:
        """White's compensation in points."""
        return self._komi

    @property
    def method(self) -> ScoringMethod:
        """How the game is counted."""
        return self._method

    @property
    def handicap(self) -> int:
        """The number of handicap stones (0 for none)."""
        return len(self._handicap)

    @property
    def handicap_stones(self) -> tuple[Point, ...]:
        """The handicap stones, in the order they were placed."""
        return self._handicap

    @property
    def board(self) -> Board:
        """A copy of the board now (the dead stones are still on it)."""
        return self._board.copy()

    def __getitem__(self, point: Point) -> Color | None:
        """The stone on ``point``, or ``None``."""
        return self._board[point]

    @property
    def to_move(self) -> Color:
        """Whose turn it is (during the dead-stone phase: who moves if play resumes)."""
        return self._to_move

    @property
    def phase(self) -> Phase:
        """Playing, marking dead stones, or over."""
        if self._result is not None:
            return Phase.OVER
        return Phase.SCORING if self.passes >= 2 else Phase.PLAY

    @property
    def moves(self) -> tuple[Move, ...]:
        """Every move made, passes included, in order."""
        return tuple(self._moves)

    @property
    def last_move(self) -> Move | None:
        """The last move made, or ``None`` before the first."""
        return self._moves[-1] if self._moves else None

    @property
    def setups(self) -> tuple[tuple[int, Setup], ...]:
        """Every setup, with the number of moves made before it, in order."""
        return tuple((at, setup) for at, setup, _, _ in self._setups)

    @property
    def passes(self) -> int:
        """The passes in a row at the end of the game (since play last resumed, or stones were set up)."""
        start = max(
            self._resumed_at[-1] if self._resumed_at else 0, self._setups[-1][0] if self._setups else 0
        )
        passes = 0
        for move in reversed(self._moves[start:]):
            if not move.is_pass:
                break
            passes += 1
        return passes

    def captures(self, color: Color) -> int:
        """How many stones ``color`` has captured."""
        return self._captures[color]

    @property
    def dead(self) -> frozenset[Point]:
        """The stones marked dead in the dead-stone phase (kept once the game is counted)."""
        return self._dead

    @property
    def accepted(self) -> frozenset[Color]:
        """The colours that accepted the dead stones as they are marked now."""
        return frozenset(self._accepted)

    @property
    def result(self) -> str | None:
        """``B+R``, ``W+3.5``, ``0`` (a draw) once the game is over; ``None`` before."""
        return self._result

    @property
    def winner(self) -> Color | None:
        """The colour that won, once the game is over; ``None`` before or for a draw."""
        if self._result is None or self._result == "0":
            return None
        return Color(self._result[0])

    def score(self, dead: Collection[Point] | None = None) -> Score:
        """The count of the board now without the stones marked dead (or without ``dead`` if given): see
        :func:`go_core.scoring.count`. Under area scoring White also gets a point per handicap stone
        (the Chinese rule, and GNU Go's count)."""
        return count(
            self._board,
            self._dead if dead is None else dead,
            komi=self._komi,
            method=self._method,
            handicap=self.handicap if self._method is ScoringMethod.AREA else 0,
        )

    def check(self, point: Point, color: Color | None = None) -> list[Point]:
        """The stones a ``color`` (default: the player to move) stone on ``point`` would capture, if the
        rules allow it now; nothing changes.

        Raises:
            IllegalMoveError: the game is over or counting (:class:`~go_core.errors.GameOverError`,
                :class:`~go_core.errors.PhaseError`), the point is occupied
                (:class:`~go_core.errors.OccupiedError`), self-capture
                (:class:`~go_core.errors.SuicideError`) or it repeats a position
                (:class:`~go_core.errors.KoError`).
        """
        self._check_playing()
        color = self._to_move if color is None else color
        trial = self._board.copy()
        captured = trial.play(color, point)
        key = trial.key()
        if key in self._positions:
            raise KoError(str(point), simple=len(captured) == 1 and self._is_previous(key))
        return captured

    def is_legal(self, point: Point, color: Color | None = None) -> bool:
        """Whether ``color`` (default: the player to move) may play ``point`` now (see :meth:`check`)."""
        try:
            self.check(point, color)
        except IllegalMoveError:
            return False
        return True

    def legal_points(self, color: Color | None = None) -> list[Point]:
        """Every point ``color`` (default: the player to move) may play now."""
        if self.phase is not Phase.PLAY:
            return []
        return [point for point in self._board.points() if self.is_legal(point, color)]

    # Playing -------------------------------------------------------------------------------------

    def play(self, point: Point | str, color: Color | None = None, *, any_turn: bool = False) -> Move:
        """Play a stone of ``color`` (default: the player to move) on ``point`` (a :class:`Point` or its
        text, ``D4``) and take the groups it captures. With ``any_turn`` (GTP's ``play``) either colour
        may move; the other colour moves next. Nothing changes when it raises.

        Raises:
            InvalidPointError: ``point`` is text that names no point of this board.
            NotYourTurnError: ``color`` is not the player to move (without ``any_turn``).
            IllegalMoveError: see :meth:`check`.
        """
        if isinstance(point, str):
            point = self.parse_point(point)
        color = self._turn(color, any_turn=any_turn)
        captured = self.check(point, color)
        self._board.play(color, point)
        self._positions.add(self._board.key())
        self._captures[color] += len(captured)
        return self._record(Move(color, point, tuple(captured)))

    def pass_turn(self, color: Color | None = None, *, any_turn: bool = False) -> Move:
        """Pass for ``color`` (default: the player to move); the second pass in a row starts the
        dead-stone phase.

        Raises:
            NotYourTurnError, GameOverError, PhaseError: as for :meth:`play`.
        """
        color = self._turn(color, any_turn=any_turn)
        self._check_playing()
        return self._record(Move(color, None))

    def resign(self, color: Color) -> str:
        """``color`` resigns, in any phase and on any turn; returns the result (``W+R`` when Black resigns).

        Raises:
            GameOverError: the game is already over.
        """
        return self._forfeit(color, RESIGNED)

    def lose_on_time(self, color: Color) -> str:
        """``color`` ran out of time (a front end's turn timer); returns the result (``W+T`` for Black).

        Raises:
            GameOverError: the game is already over.
        """
        return self._forfeit(color, ON_TIME)

    def setup(
        self,
        black: Collection[Point] = (),
        white: Collection[Point] = (),
        empty: Collection[Point] = (),
        to_move: Color | None = None,
    ) -> Setup:
        """Put black and white stones on points and take the stones off others, by hand, and say who
        moves next (see :class:`Setup`). The position set up starts the game's history afresh: the
        positions before it no longer count for superko (a record may set a stone up, take it off and
        play it).

        Raises:
            GameOverError, PhaseError: the game is over, or counting.
            OffBoardError: a point is off this board.
            GoError: a point is named twice, or nothing is set up.
        """
        self._check_playing()
        setup = Setup(tuple(black), tuple(white), tuple(empty), to_move)
        points = [*setup.black, *setup.white, *setup.empty]
        for point in points:
            if not (0 <= point.col < self._size and 0 <= point.row < self._size):
                raise OffBoardError(str(point), self._size)
        if len(set(points)) != len(points):
            raise GoError("A setup names a point twice")
        if not points and to_move is None:
            raise GoError("A setup puts or takes off stones, or says who moves next")
        before = tuple((point, self._board[point]) for point in points)
        self._board.place(Color.BLACK, setup.black)
        self._board.place(Color.WHITE, setup.white)
        self._board.place(None, setup.empty)
        self._turns.append(self._to_move)
        self._setups.append((len(self._moves), setup, before, self._positions))
        self._positions = {self._board.key()}
        if to_move is not None:
            self._to_move = to_move
        return setup

    def undo(self) -> Move | None:
        """Take back the last action: a move (a pass ends the dead-stone phase it started, and the dead
        marks are dropped), a resumption of play (back to the dead-stone phase) or a setup; returns the
        move taken back (``None`` for a resumption or a setup).

        Raises:
            GameOverError: the game is over.
            NothingToUndoError: nothing was played yet.
        """
        if self._result is not None:
            raise GameOverError
        if not self._turns:
            raise NothingToUndoError
        self._to_move = self._turns.pop()
        self._dead, self._accepted = frozenset(), set()
        if self._setups and self._setups[-1][0] == len(self._moves):
            _, _, before, self._positions = self._setups.pop()
            for point, color in before:
                self._board.place(color, [point])
            return None
        if self._resumed_at and self._resumed_at[-1] == len(self._moves):
            self._resumed_at.pop()
            return None
        move = self._moves.pop()
        if move.point is not None:
            self._positions.discard(self._board.key())
            self._board.place(None, [move.point])
            self._board.place(move.color.opponent, move.captured)
            self._captures[move.color] -= len(move.captured)
        return move

    # The dead-stone phase ------------------------------------------------------------------------

    def toggle_dead(self, point: Point | str) -> frozenset[Point]:
        """Mark the group on ``point`` dead, or alive again if it is all marked dead; returns the group.
        Any acceptance is withdrawn (the count changed).

        Raises:
            PhaseError: not in the dead-stone phase.
            GoError: ``point`` names no point of this board or holds no stone.
        """
        self._check_scoring()
        if isinstance(point, str):
            point = self.parse_point(point)
        group = self._board.group(point)
        if not group:
            raise GoError(f"{point} is empty: mark a group by one of its stones")
        self._dead = self._dead - group if group <= self._dead else self._dead | group
        self._accepted.clear()
        return group

    def set_dead(self, points: Collection[Point]) -> None:
        """Mark exactly the stones on ``points`` dead (a proposal, e.g. an engine's); acceptances are
        withdrawn.

        Raises:
            PhaseError: not in the dead-stone phase.
            GoError: a point holds no stone.
        """
        self._check_scoring()
        empty = sorted(str(point) for point in points if self._board[point] is None)
        if empty:
            raise GoError(f"{', '.join(empty[:5])} holds no stone to mark dead")
        self._dead = frozenset(points)
        self._accepted.clear()

    def accept(self, color: Color) -> bool:
        """``color`` accepts the dead stones as marked; once both colours have, the game is over and
        counted. Returns whether the game is over.

        Raises:
            PhaseError: not in the dead-stone phase.
        """
        self._check_scoring()
        self._accepted.add(color)
        if len(self._accepted) == 2:
            self._result = self.score().result
        return self._result is not None

    def resume(self) -> None:
        """Leave the dead-stone phase and play on (the marks are dropped); the player to move is the
        one who would have moved after the two passes.

        Raises:
            PhaseError: not in the dead-stone phase.
        """
        self._check_scoring()
        self._turns.append(self._to_move)
        self._resumed_at.append(len(self._moves))
        self._dead, self._accepted = frozenset(), set()

    # Storing -------------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """The game as JSON-ready data that :meth:`from_dict` reads back into an equal game."""
        actions: list[str] = []
        resumptions = list(self._resumed_at)
        setups = list(self.setups)
        for index in range(len(self._moves) + 1):
            while resumptions and resumptions[0] == index:
                actions.append(RESUME)
                resumptions.pop(0)
            while setups and setups[0][0] == index:
                actions.append(str(setups.pop(0)[1]))
            if index < len(self._moves):
                actions.append(str(self._moves[index]))
        loser, how = self._forfeit_by or (None, "")
        return {
            "format": FORMAT_VERSION,
            "size": self._size,
            "komi": self._komi,
            "handicap": self.handicap,
            "free_handicap": [] if self._is_fixed_handicap() else [str(point) for point in self._handicap],
            "method": self._method.value,
            "actions": actions,
            "dead": sorted(str(point) for point in self._dead),
            "accepted": sorted(color.value for color in self._accepted),
            "resigned": loser.value if loser is not None and how == RESIGNED else None,
            "timed_out": loser.value if loser is not None and how == ON_TIME else None,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Game:
        """The game :meth:`to_dict` wrote, its actions replayed (every rule checked again).

        Raises:
            GoError: the data is not a game's, or one of its actions breaks the rules.
        """
        try:
            if data["format"] != FORMAT_VERSION:
                raise GoError(f"unknown Go game format {echo(str(data['format']))}")
            free = [Point.parse(point, data["size"]) for point in data.get("free_handicap", [])]
            handicap = 0 if free else data["handicap"]
            game = cls(
                data["size"], komi=data["komi"], handicap=handicap, free_handicap=free, method=data["method"]
            )
            for action in data["actions"]:
                game._replay(action)
            if data["dead"]:
                game.set_dead([game.parse_point(point) for point in data["dead"]])
            for color in data["accepted"]:
                game.accept(Color(color))
            if data["resigned"] is not None:
                game.resign(Color(data["resigned"]))
            if data.get("timed_out") is not None:
                game.lose_on_time(Color(data["timed_out"]))
        except KeyError as error:
            raise GoError(f"not a stored Go game: {echo(str(error.args[0]))} is missing") from None
        except GoError:
            raise
        except (TypeError, ValueError) as error:
            raise GoError(f"not a stored Go game: {echo(str(error))}") from None
        return game

    def copy(self) -> Game:
        """An independent game in the same state."""
        return Game.from_dict(self.to_dict())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"Game.from_dict({self.to_dict()!r})"

    def parse_point(self, text: str) -> Point:
        """The point ``text`` names on this board (see :meth:`Point.parse`)."""
        return Point.parse(text, self._size)

    # Inside --------------------------------------------------------------------------------------

    def _replay(self, action: str) -> None:
        if action == RESUME:
            self.resume()
            return
        if action.startswith(SETUP):
            setup = Setup.parse(action, self._size)
            self.setup(setup.black, setup.white, setup.empty, setup.to_move)
            return
        color_text, _, move_text = action.partition(" ")
        point = parse_move(move_text, self._size)
        color = Color(color_text)
        if point is None:
            self.pass_turn(color, any_turn=True)
        else:
            self.play(point, color, any_turn=True)

    def _is_fixed_handicap(self) -> bool:
        stones = self._handicap
        try:
            return not stones or tuple(handicap_points(self._size, len(stones))) == stones
        except HandicapError:
            return False

    def _forfeit(self, color: Color, how: str) -> str:
        if self._result is not None:
            raise GameOverError
        self._forfeit_by = (color, how)
        self._result = f"{color.opponent.value}+{how}"
        return self._result

    def _turn(self, color: Color | None, *, any_turn: bool) -> Color:
        if self._result is not None:
            raise GameOverError
        if color is None:
            return self._to_move
        if color is not self._to_move and not any_turn:
            raise NotYourTurnError(self._to_move.title)
        return color

    def _record(self, move: Move) -> Move:
        self._turns.append(self._to_move)
        self._moves.append(move)
        self._to_move = move.color.opponent
        return move

    def _is_previous(self, key: bytes) -> bool:
        """Whether ``key`` is the position before the last stone played (a simple ko; never when stones
        were set up since)."""
        trial = self._board.copy()
        for index in range(len(self._moves) - 1, -1, -1):
            move = self._moves[index]
            if self._setups and self._setups[-1][0] > index:
                return False
            if move.point is not None:
                trial.place(None, [move.point])
                trial.place(move.color.opponent, move.captured)
                return trial.key() == key
        return False

    def _check_playing(self) -> None:
        phase = self.phase
        if phase is Phase.OVER:
            raise GameOverError
        if phase is Phase.SCORING:
            raise PhaseError("Both players passed: accept the dead stones, mark groups, or resume play")

    def _check_scoring(self) -> None:
        phase = self.phase
        if phase is Phase.OVER:
            raise GameOverError
        if phase is Phase.PLAY:
            raise PhaseError("Dead stones are marked after both players pass")


def _handicap_stones(size: int, handicap: int, free: Sequence[Point]) -> tuple[Point, ...]:
    """The handicap stones of a new game (see :class:`Game`)."""
    if not free:
        return tuple(handicap_points(size, handicap)) if handicap else ()
    if handicap:
        raise HandicapError("Give a handicap as a number of stones or as points, not both")
    points = tuple(free)
    for point in points:
        if not (0 <= point.col < size and 0 <= point.row < size):
            raise HandicapError(f"A handicap stone is off the {size}×{size} board")
    if len(set(points)) != len(points):
        raise HandicapError("A handicap stone is placed twice on the same point")
    if not 2 <= len(points) < size * size:
        raise HandicapError(f"A free handicap is 2 to {size * size - 1} stones, not {len(points)}")
    return points
