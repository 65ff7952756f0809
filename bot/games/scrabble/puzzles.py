"""``/scrabble puzzle`` and ``/scrabble solve``: a daily puzzle per guild, answers, a leaderboard and streaks.

A guild's puzzle of a UTC day (:mod:`scrabble_core.puzzles`) is chosen the first time it is asked for, from
the turns of the guild's last :data:`SOURCE_GAMES` finished games (or a self-play game when none makes a
puzzle), with the seed of the guild and the day, in the AI worker pool; it is stored, so it stays the same
all day (and after a restart). Each member answers once a day, privately; the answer is graded against the
best play by equity (:func:`scrabble_core.puzzles.grade`). The next day's puzzle message shows the answer of
the day before, publicly, on its board, and the puzzle leaderboard: points, puzzles solved and the current
streak (consecutive days solved, up to today or, before today's answer, yesterday).
"""

from __future__ import annotations

import asyncio
import datetime
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from bot.games.scrabble.analysis import Pool
from bot.games.scrabble.kind import KIND
from bot.games.scrabble.protocols import BoardHeader, PlayerLine, Renderer
from bot.host.errors import ServiceError
from bot.host.features import Feature, require_on
from bot.host.messages import Attachment, Message
from bot.host.protocols import Clock
from bot.host.seats import User, shown
from bot.host.store import PuzzleAnswer, Store
from scrabble_core.ai import MoveSource, default_leave_model
from scrabble_core.analysis import Position, game_positions
from scrabble_core.board import Board
from scrabble_core.errors import ScrabbleError
from scrabble_core.game import Game
from scrabble_core.lexicon import WordList
from scrabble_core.move import Play
from scrabble_core.move_words import move_in_words, rack_in_words
from scrabble_core.puzzles import (
    BEST_POINTS,
    CLOSE_POINTS,
    TOLERANCE,
    Puzzle,
    choose_puzzle,
    grade,
    puzzle_seed,
    selfplay_positions,
)
from scrabble_core.variant import get_variant, variant_from_dict, variant_to_dict

SOURCE_GAMES: Final = 20
"""The guild's latest finished games a puzzle is drawn from."""
SELFPLAY_TRIES: Final = 3
"""Self-play games tried (seed, seed + 1, ...) when no position of the guild's games makes a puzzle."""
PUZZLE_TIMEOUT: Final = 60.0
"""Seconds the pool may take to choose a puzzle."""
LEADERBOARD_SIZE: Final = 10


class PuzzleError(ServiceError):
    """A puzzle or an answer refused (no worker pool, no puzzle found, an answer that is not a play, a
    second answer)."""


def find_puzzle(generator: MoveSource, argument: Mapping[str, Any]) -> dict[str, Any] | None:
    """Choose a puzzle in a worker, with the bundled leave model: ``argument`` holds the positions
    (``[source, Position.to_dict()]``), the seed and the variant for self-play; the answer is
    :meth:`Puzzle.to_dict`, or ``None``."""
    leaves = default_leave_model()
    seed = argument["seed"]
    positions = [(source, Position.from_dict(data)) for source, data in argument["positions"]]
    puzzle = choose_puzzle(positions, generator, leaves, seed)
    variant = variant_from_dict(argument["variant"], "puzzle variant")
    for attempt in range(SELFPLAY_TRIES):
        if puzzle is not None:
            break
        played = selfplay_positions(variant, None, generator, leaves, seed + attempt)
        puzzle = choose_puzzle(played, generator, leaves, seed + attempt)
    return None if puzzle is None else puzzle.to_dict()


@dataclass(frozen=True, slots=True)
class Standing:
    """A member's puzzle record in a guild: name, points, puzzles solved and the current streak."""

    user_id: int
    name: str
    points: int
    solved: int
    streak: int


def standings(answers: Sequence[PuzzleAnswer], today: datetime.date) -> list[Standing]:
    """Each member's :class:`Standing` from the guild's answers, best first (points, then solved, then
    streak)."""
    by_user: dict[int, list[PuzzleAnswer]] = {}
    for answer in answers:
        by_user.setdefault(answer.user_id, []).append(answer)
    rows = []
    for user_id, own in by_user.items():
        solved_days = {datetime.date.fromisoformat(a.day) for a in own if a.solved}
        rows.append(
            Standing(
                user_id,
                own[-1].name,
                sum(a.points for a in own),
                len(solved_days),
                streak(solved_days, today),
            )
        )
    rows.sort(key=lambda row: (-row.points, -row.solved, -row.streak, row.user_id))
    return rows


def streak(solved_days: set[datetime.date], today: datetime.date) -> int:
    """Consecutive days solved up to ``today``, or up to yesterday when today is not solved (yet)."""
    day = today if today in solved_days else today - datetime.timedelta(days=1)
    count = 0
    while day in solved_days:
        count += 1
        day -= datetime.timedelta(days=1)
    return count


class PuzzleService:
    """The guilds' daily puzzles over the store; puzzles are chosen in a :class:`Pool` (:meth:`use_pool`)."""

    def __init__(
        self, store: Store, lexicon: WordList, clock: Clock, renderer: Renderer, variant: str
    ) -> None:
        """Puzzles of the games in ``store``; answers checked against ``lexicon``; the self-play game of a
        guild without games is played on the ``variant`` of that name."""
        self._store = store
        self._lexicon = lexicon
        self._clock = clock
        self._renderer = renderer
        self._variant = variant
        self._pool: Pool | None = None
        self._locks: dict[int, asyncio.Lock] = {}

    def use_pool(self, pool: Pool) -> None:
        """Choose the puzzles in ``pool`` from now on."""
        self._pool = pool

    def today(self) -> datetime.date:
        """The current UTC day."""
        return datetime.datetime.fromtimestamp(self._clock.now(), datetime.UTC).date()

    async def puzzle(self, guild_id: int) -> Message:
        """Today's puzzle of the guild (public): its board and rack, how answers are scored, yesterday's
        answer on its board (if there was a puzzle yesterday) and the puzzle leaderboard.

        Raises:
            FeatureOffError: the guild turned puzzles off.
            PuzzleError: no worker pool to choose it, or no position makes a puzzle.
        """
        require_on(await self._store.features(guild_id), Feature.PUZZLES)
        today = self.today()
        puzzle = await self._puzzle(guild_id, today)
        view = puzzle.view
        files = [Attachment(f"puzzle-{today}.png", await self._board(puzzle, None))]
        lines = [
            f"**Puzzle of {today}** (UTC), from {puzzle.source}: your rack is "
            f"**{rack_in_words(view.rack, view.variant)}**, {view.bag_size} tiles in the bag. Find the best "
            "play by equity (its score plus the value of the tiles you keep), and answer with /scrabble solve, "
            f"typed as for /scrabble play (only you see it): one try a day. The best play earns {BEST_POINTS} "
            f"points, a play within {TOLERANCE:.0f} points of equity of it {CLOSE_POINTS}. The answer comes "
            "with tomorrow's puzzle.",
        ]
        yesterday = today - datetime.timedelta(days=1)
        stored = await self._store.puzzle(guild_id, yesterday.isoformat())
        if stored is not None:
            previous = Puzzle.from_dict(dict(stored))
            best = previous.answer
            answers = [
                a for a in await self._store.puzzle_answers(guild_id) if a.day == yesterday.isoformat()
            ]
            solvers = sum(a.solved for a in answers)
            said = move_in_words(best.move, previous.view.board)
            lines.append(
                f"Yesterday's answer: **{said}** for {best.score} (equity {best.equity:.1f}); "
                f"{solvers} of {len(answers)} {'player' if len(answers) == 1 else 'players'} solved it."
            )
            files.append(Attachment(f"answer-{yesterday}.png", await self._board(previous, best.move)))
        lines.append(self._leaderboard(await self._store.puzzle_answers(guild_id), today))
        return Message("\n".join(lines), tuple(files))

    async def solve(self, guild_id: int, user: User, answer: str) -> Message:
        """Grade ``user``'s answer to today's puzzle (private) and record it: one answer a day.

        Raises:
            FeatureOffError: the guild turned puzzles off.
            PuzzleError: a second answer today; an answer that is not a legal play in the position (the
                message says why: nothing is recorded, so it may be typed again); no puzzle (see
                :meth:`puzzle`).
        """
        require_on(await self._store.features(guild_id), Feature.PUZZLES)
        today = self.today()
        day = today.isoformat()
        puzzle = await self._puzzle(guild_id, today)
        board = puzzle.view.board
        earlier = await self._store.puzzle_answer(guild_id, day, user.id)
        if earlier is not None:
            raise PuzzleError(_already(earlier, board))
        try:
            graded = grade(puzzle, answer, default_leave_model(), self._lexicon)
        except ScrabbleError as error:
            raise PuzzleError(f"That is not a play on the puzzle's board: {error}") from None
        row = PuzzleAnswer(
            guild_id, day, user.id, user.name, graded.move, graded.points, graded.solved, self._clock.now()
        )
        if not await self._store.add_puzzle_answer(row):  # answered meanwhile, from another click
            earlier = await self._store.puzzle_answer(guild_id, day, user.id)
            assert earlier is not None
            raise PuzzleError(_already(earlier, board))
        mine = await self._store.puzzle_answers(guild_id, user.id)
        run = streak({datetime.date.fromisoformat(a.day) for a in mine if a.solved}, today)
        said = f"{move_in_words(graded.move, board)} scores {graded.score}, equity {graded.equity:.1f}: "
        if graded.points == BEST_POINTS:
            verdict = f"the best play! +{graded.points} points."
        elif graded.solved:
            verdict = (
                f"{graded.loss:.1f} below the best, within {TOLERANCE:.0f}: solved, +{graded.points} points."
            )
        else:
            verdict = f"{graded.loss:.1f} below the best: not solved, 0 points."
        return Message(
            f"{said}{verdict} Streak: {run} {'day' if run == 1 else 'days'}. The answer comes with tomorrow's puzzle.",
            private=True,
        )

    async def _puzzle(self, guild_id: int, today: datetime.date) -> Puzzle:
        """The guild's puzzle of ``today``: stored, or chosen in the pool and stored."""
        day = today.isoformat()
        lock = self._locks.setdefault(guild_id, asyncio.Lock())
        async with lock:
            stored = await self._store.puzzle(guild_id, day)
            if stored is None:
                data = await self._choose(guild_id, day)
                stored = await self._store.add_puzzle(guild_id, day, data, self._clock.now())
        return Puzzle.from_dict(dict(stored))

    async def _choose(self, guild_id: int, day: str) -> dict[str, Any]:
        pool = self._pool
        if pool is None:
            raise PuzzleError("Puzzles are not available on this bot")
        rows = await self._store.finished_games(guild_id, KIND, SOURCE_GAMES)
        positions: list[list[Any]] = []
        for row in rows:
            assert row.state is not None  # finished_games selects games with a state
            game = Game.from_dict(row.state)
            found = await asyncio.to_thread(game_positions, game)
            positions.extend([f"game {row.id}, turn {p.number}", p.to_dict()] for p in found)
        argument = {
            "positions": positions,
            "seed": puzzle_seed(guild_id, day),
            "variant": variant_to_dict(get_variant(self._variant)),
        }
        try:
            data = await pool.call(KIND, find_puzzle, argument, timeout=PUZZLE_TIMEOUT)
        except (TimeoutError, RuntimeError) as error:
            raise PuzzleError(
                f"Today's puzzle could not be chosen ({type(error).__name__}): try again later"
            ) from error
        if data is None:
            raise PuzzleError("No position makes a good puzzle today: try again tomorrow")
        result: dict[str, Any] = data
        return result

    async def _board(self, puzzle: Puzzle, move: str | None) -> bytes:
        """The puzzle's board as a PNG; with ``move``, that play placed and highlighted."""
        view = puzzle.view
        board = view.board.copy()
        squares = []
        if move is not None:
            play = Play.from_gcg(move)
            placed = [(square, tile) for square, tile in play.placements() if board[square] is None]
            board.place(placed)
            squares = [square for square, _ in placed]
        players = [
            PlayerLine("You" if seat == view.seat else "Opponent", score, seat == view.seat)
            for seat, score in enumerate(view.scores)
        ]
        return await asyncio.to_thread(
            self._renderer.board, board, squares, BoardHeader(players, view.bag_size)
        )

    @staticmethod
    def _leaderboard(answers: Sequence[PuzzleAnswer], today: datetime.date) -> str:
        rows = standings(answers, today)[:LEADERBOARD_SIZE]
        if not rows:
            return "Puzzle leaderboard: nobody has answered a puzzle yet."
        return "Puzzle leaderboard:\n" + "\n".join(
            f"{rank}. {shown(row.name)}: {row.points} points, {row.solved} solved, streak {row.streak}"
            for rank, row in enumerate(rows, 1)
        )


def _already(earlier: PuzzleAnswer, board: Board) -> str:
    """The refusal of a second answer today (``board``: the puzzle's, for the first answer in words)."""
    return (
        f"You already answered today's puzzle ({move_in_words(earlier.answer, board)}, {earlier.points} "
        "points): one try a day. The answer comes with tomorrow's puzzle."
    )
