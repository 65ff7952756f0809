"""Go opponents for the front ends: GNU Go over GTP in a subprocess when it is installed, the built-in
AI of :mod:`go_core.ai` otherwise (or when GNU Go fails or runs out of time).

Both answer in the turn's time: GNU Go is killed when it does not answer in ``seconds`` (and the built-in
AI, given a tenth of that, plays instead); the built-in AI returns its best move so far at its deadline.
The levels are the same names for both: GNU Go's ``--level``, or the built-in AI's playouts a move.
"""

from __future__ import annotations

import enum
import logging
import os
import random
import shutil
from pathlib import Path
from typing import Final, Literal, Protocol

from bot.games.go.gtp_client import GtpClient, GtpError, GtpTimeoutError
from go_core import Color, Game, Phase, Point, format_move, parse_move
from go_core import ai as engine_ai
from go_core.ai import LEVEL_PLAYOUTS, STATUS_BUDGET, Budget, Decision, Thinker
from go_core.errors import GoError

log = logging.getLogger(__name__)

GNUGO_ENV: Final = "SCRABBLE_GNUGO"
"""Names the GNU Go program when it is not ``gnugo`` on the PATH nor Debian's ``/usr/games/gnugo``."""
DEBIAN_GNUGO: Final = Path("/usr/games/gnugo")
RESIGN: Final[Literal["resign"]] = engine_ai.RESIGN

Engine = Literal["auto", "gnugo", "builtin"]
"""Which AI: GNU Go when installed (``auto``), GNU Go only, or the built-in one."""
ENGINES: Final[dict[str, Engine]] = {"auto": "auto", "gnugo": "gnugo", "builtin": "builtin"}

AIMove = Decision
"""A point to play, ``None`` to pass, or :data:`RESIGN`."""


class Level(enum.StrEnum):
    """How strong the AI plays: GNU Go's ``--level`` 1, 5 or 10, or the built-in AI's playouts a move
    (:data:`go_core.ai.LEVEL_PLAYOUTS`)."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"


GNUGO_LEVELS: Final = {Level.EASY: 1, Level.MEDIUM: 5, Level.HARD: 10}


class GoAI(Protocol):
    """An opponent: a move for the player to move, and the dead stones once both passed."""

    @property
    def name(self) -> str:
        """What players see, e.g. ``GNU Go (level 5)``."""
        ...

    def choose(self, game: Game, color: Color | None = None) -> AIMove:
        """The move for ``color`` (default: the player to move; GTP may ask for either) in ``game``
        (not changed), within the AI's time."""
        ...

    def dead_stones(self, game: Game) -> frozenset[Point]:
        """The stones the AI takes to be dead in ``game`` (after two passes)."""
        ...

    def seki_stones(self, game: Game) -> frozenset[Point]:
        """The stones the AI takes to be alive in seki in ``game`` (after two passes)."""
        ...

    def close(self) -> None:
        """Free the AI's resources (its subprocess)."""
        ...


class BuiltinAI:
    """:mod:`go_core.ai`, seeded, with a budget per move; its search tree is kept from move to move."""

    def __init__(
        self,
        level: Level = Level.MEDIUM,
        *,
        seed: int | None = None,
        seconds: float = 10.0,
        playouts: int | None = None,
    ) -> None:
        """Think at most ``seconds`` and the level's playouts (or ``playouts``) a move (with time to
        spare, the moves depend on the seed only)."""
        self.level = level
        self._rng = random.Random(seed)
        self._seconds = seconds
        self._playouts = LEVEL_PLAYOUTS[level.value] if playouts is None else playouts
        self._thinker = Thinker()

    @property
    def name(self) -> str:
        return f"built-in AI ({self.level})"

    def choose(self, game: Game, color: Color | None = None) -> AIMove:
        """See :meth:`go_core.ai.Thinker.choose` (play resumes first in the dead-stone phase)."""
        budget = Budget(seconds=self._seconds, playouts=self._playouts)
        return self._thinker.choose(playing(game), self._rng, budget, color)

    def dead_stones(self, game: Game) -> frozenset[Point]:
        """See :meth:`go_core.ai.Thinker.statuses`."""
        return self._thinker.statuses(game, self._rng, self._status_budget()).dead

    def seki_stones(self, game: Game) -> frozenset[Point]:
        """See :meth:`go_core.ai.Thinker.statuses`."""
        return self._thinker.statuses(game, self._rng, self._status_budget()).seki

    def _status_budget(self) -> Budget:
        return Budget(seconds=min(self._seconds, STATUS_BUDGET.seconds), playouts=STATUS_BUDGET.playouts)

    def close(self) -> None:
        """Nothing to free."""


class GnuGoAI:
    """GNU Go in GTP mode in a subprocess, started on first use and kept; the game is sent again when
    it is not a continuation of what GNU Go has seen."""

    def __init__(
        self, program: Path, level: Level = Level.MEDIUM, *, seed: int | None = None, seconds: float = 30.0
    ) -> None:
        self.program = program
        self.level = level
        self._seed = 0 if seed is None else seed
        self._seconds = seconds
        self._fallback = BuiltinAI(level, seed=seed, seconds=max(seconds / 10, 0.05))
        self._client: GtpClient | None = None
        self._sent: list[str] = []

    @property
    def name(self) -> str:
        return f"GNU Go (level {GNUGO_LEVELS[self.level]})"

    def choose(self, game: Game, color: Color | None = None) -> AIMove:
        """GNU Go's ``genmove``; the built-in AI's move if GNU Go fails or takes longer than the budget,
        or answers a move the engine refuses (GNU Go does not know positional superko)."""
        game = playing(game)
        color = game.to_move if color is None else color
        try:
            self._sync(game)
            answer = self._gtp(f"genmove {color.value}")
        except (GtpError, OSError) as error:
            log.warning("GNU Go failed (%s): the built-in AI plays this move", error)
            return self._fallback.choose(game, color)
        if answer.lower() == RESIGN:
            return RESIGN
        try:
            point = parse_move(answer, game.size)
            if point is not None:
                game.check(point, color)
        except GoError as error:
            log.warning("GNU Go's move %r is refused (%s): the built-in AI plays this move", answer, error)
            self._sent = []
            return self._fallback.choose(game, color)
        self._sent.append(f"play {color.value} {format_move(point)}")
        return point

    def dead_stones(self, game: Game) -> frozenset[Point]:
        """GNU Go's ``final_status_list dead``, the stones still on the board; the built-in AI's
        proposal if GNU Go fails."""
        dead = self._status_list(game, "dead")
        return self._fallback.dead_stones(game) if dead is None else dead

    def seki_stones(self, game: Game) -> frozenset[Point]:
        """GNU Go's ``final_status_list seki``; the built-in AI's if GNU Go fails."""
        seki = self._status_list(game, "seki")
        return self._fallback.seki_stones(game) if seki is None else seki

    def _status_list(self, game: Game, status: str) -> frozenset[Point] | None:
        """GNU Go's ``final_status_list`` of ``status``, the stones still on the board; ``None`` if
        GNU Go fails."""
        try:
            self._sync(game)
            answer = self._gtp(f"final_status_list {status}")
        except (GtpError, OSError) as error:
            log.warning("GNU Go failed (%s): the built-in AI gives the %s stones", error, status)
            return None
        points = {Point.parse(word, game.size) for word in answer.split()}
        return frozenset(point for point in points if game[point] is not None)

    def close(self) -> None:
        """Stop GNU Go."""
        if self._client is not None:
            self._client.close()
            self._client = None

    def _gtp(self, command: str, timeout: float | None = None) -> str:
        if self._client is None:
            argv = [str(self.program), "--mode", "gtp", "--level", str(GNUGO_LEVELS[self.level])]
            self._client = GtpClient([*argv, "--seed", str(self._seed)])
            self._sent = []
        try:
            return self._client.send(command, self._seconds if timeout is None else timeout)
        except GtpTimeoutError:
            self.close()  # killed: a new process next time
            raise

    def _sync(self, game: Game) -> None:
        """Make GNU Go's position the game's, sending only the new moves when it can."""
        commands = [f"boardsize {game.size}", "clear_board", f"komi {game.komi:g}"]
        if game.handicap_stones:
            commands.append("set_free_handicap " + " ".join(map(str, game.handicap_stones)))
        commands += [f"play {move.color.value} {format_move(move.point)}" for move in game.moves]
        if self._client is None or self._sent != commands[: len(self._sent)]:
            self.close()
            self._gtp("protocol_version")
            done: list[str] = []
        else:
            done = self._sent
        self._sent = []  # unknown until every command is through
        for command in commands[len(done) :]:
            self._gtp(command)
        self._sent = commands


def find_gnugo() -> Path | None:
    """GNU Go's program: ``$SCRABBLE_GNUGO``, else ``gnugo`` on the PATH, else ``/usr/games/gnugo``;
    ``None`` when none is there."""
    named = os.environ.get(GNUGO_ENV)
    if named:
        return Path(named) if Path(named).is_file() else None
    found = shutil.which("gnugo")
    if found:
        return Path(found)
    return DEBIAN_GNUGO if DEBIAN_GNUGO.is_file() else None


def make_ai(
    level: Level = Level.MEDIUM,
    *,
    engine: Engine = "auto",
    seed: int | None = None,
    seconds: float = 30.0,
) -> GoAI:
    """GNU Go when ``engine`` is ``auto`` or ``gnugo`` and it is installed, else the built-in AI.

    Raises:
        FileNotFoundError: ``engine`` is ``gnugo`` and GNU Go is not installed.
    """
    program = None if engine == "builtin" else find_gnugo()
    if program is None:
        if engine == "gnugo":
            raise FileNotFoundError(f"GNU Go is not installed (apt-get install gnugo, or set ${GNUGO_ENV})")
        return BuiltinAI(level, seed=seed, seconds=seconds)
    return GnuGoAI(program, level, seed=seed, seconds=seconds)


def playing(game: Game) -> Game:
    """``game``, or a copy with play resumed when it is in the dead-stone phase (an AI asked to move
    after two passes plays on)."""
    if game.phase is not Phase.SCORING:
        return game
    resumed = game.copy()
    resumed.resume()
    return resumed
