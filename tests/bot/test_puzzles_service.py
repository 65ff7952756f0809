"""Daily puzzles through the puzzle service: a real SQLite file, real board images, a clock the test moves."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from analysis_fakes import InlinePool, known_game, store_finished
from PIL import Image
from service_fakes import ALICE, BOB, CAROL, FakeClock, typed

from bot.games.scrabble.images.renderer import PngRenderer
from bot.games.scrabble.puzzles import PuzzleError, PuzzleService, find_puzzle
from bot.host.errors import FeatureOffError
from bot.host.store import Store
from scrabble_core.ai import default_leave_model
from scrabble_core.lexicon import Lexicon
from scrabble_core.move import Play
from scrabble_core.move_words import move_in_words
from scrabble_core.movegen import MoveGenerator, load_move_generator
from scrabble_core.puzzles import Puzzle, grade

GUILD = 1000
DAY = 86_400.0
"""START_TIME (1_700_000_000) is 2023-11-14 22:13 UTC."""


@pytest.fixture(scope="module")
def generator(enable_lexicon: Lexicon, tmp_path_factory: pytest.TempPathFactory) -> MoveGenerator:
    return load_move_generator(enable_lexicon, tmp_path_factory.mktemp("movegen"))


class Puzzles:
    def __init__(self, store: Store, service: PuzzleService, pool: InlinePool, clock: FakeClock) -> None:
        self.store, self.service, self.pool, self.clock = store, service, pool, clock

    async def current(self) -> Puzzle:
        stored = await self.store.puzzle(GUILD, self.service.today().isoformat())
        assert stored is not None
        return Puzzle.from_dict(dict(stored))


@pytest.fixture
async def puzzles(
    store_database: Path | str, enable_lexicon: Lexicon, generator: MoveGenerator
) -> AsyncIterator[Puzzles]:
    store = await Store.open(store_database)
    clock = FakeClock()
    service = PuzzleService(store, enable_lexicon, clock, PngRenderer(), "standard")
    pool = InlinePool(generator)
    service.use_pool(pool)
    yield Puzzles(store, service, pool, clock)
    await store.close()


async def test_a_guild_without_games_gets_a_self_play_puzzle_fixed_for_the_day(puzzles: Puzzles) -> None:
    message = await puzzles.service.puzzle(GUILD)
    puzzle = await puzzles.current()
    assert not message.private
    assert message.text.startswith(
        f"**Puzzle of 2023-11-14** (UTC), from a self-play game: your rack is **{puzzle.view.rack}**, "
        f"{puzzle.view.bag_size} tiles in the bag. Find the best play by equity"
    )
    assert "The best play earns 3 points, a play within 2 points of equity of it 2." in message.text
    assert message.text.endswith("Puzzle leaderboard: nobody has answered a puzzle yet.")
    (board,) = message.attachments
    assert board.filename == "puzzle-2023-11-14.png"
    assert Image.open(io.BytesIO(board.data)).format == "PNG"
    assert [call[0] for call in puzzles.pool.calls] == [find_puzzle]
    again = await puzzles.service.puzzle(GUILD)
    assert again.text == message.text and len(puzzles.pool.calls) == 1  # stored: chosen once a day


async def test_the_puzzle_comes_from_the_guilds_games_and_its_seed(
    puzzles: Puzzles, enable_lexicon: Lexicon, generator: MoveGenerator
) -> None:
    row = await store_finished(puzzles.store, known_game(enable_lexicon), GUILD, 1)
    await puzzles.service.puzzle(GUILD)
    puzzle = await puzzles.current()
    assert puzzle.source.startswith(f"game {row.id}, turn ")
    (call,) = puzzles.pool.calls
    assert find_puzzle(generator, call[1]) == puzzle.to_dict()  # reproducible


async def test_answers_are_graded_privately_once_a_day(puzzles: Puzzles, enable_lexicon: Lexicon) -> None:
    await puzzles.service.puzzle(GUILD)
    puzzle = await puzzles.current()
    best = puzzle.answer
    with pytest.raises(PuzzleError, match=r"^That is not a play on the puzzle's board: "):
        await puzzles.service.solve(GUILD, ALICE, "QQ")
    reply = await puzzles.service.solve(GUILD, ALICE, _typed(puzzle))
    assert reply.private
    assert (best.move, best.score, f"{best.equity:.1f}") == ("E4 PIT....T", 52, "48.3")
    assert reply.text == (
        "PITHIEST at E4 (down) scores 52, equity 48.3: the best play! +3 points. Streak: 1 day. "
        "The answer comes with tomorrow's puzzle."
    )
    with pytest.raises(PuzzleError) as refused:
        await puzzles.service.solve(GUILD, ALICE, "anything")
    assert str(refused.value) == (
        "You already answered today's puzzle (PITHIEST at E4 (down), 3 points): one try a day. "
        "The answer comes with tomorrow's puzzle."
    )
    worse = puzzle.best[-1]
    graded = grade(puzzle, worse.move, default_leave_model(), enable_lexicon)
    assert graded.loss > 2
    bob = await puzzles.service.solve(GUILD, BOB, worse.move)
    assert bob.text == (
        f"{move_in_words(worse.move, puzzle.view.board)} scores {worse.score}, equity {worse.equity:.1f}: "
        f"{graded.loss:.1f} below the best: not solved, 0 points. Streak: 0 days. "
        "The answer comes with tomorrow's puzzle."
    )
    answers = await puzzles.store.puzzle_answers(GUILD)
    assert [(a.user_id, a.answer, a.points, a.solved) for a in answers] == [
        (ALICE.id, best.move, 3, True),
        (BOB.id, worse.move, 0, False),
    ]


async def test_the_next_day_reveals_the_answer_and_streaks_count_days_in_a_row(puzzles: Puzzles) -> None:
    await puzzles.service.puzzle(GUILD)
    first = await puzzles.current()
    await puzzles.service.solve(GUILD, ALICE, _typed(first))
    await puzzles.service.solve(GUILD, BOB, first.best[-1].move)
    await puzzles.clock.advance(DAY)
    message = await puzzles.service.puzzle(GUILD)
    second = await puzzles.current()
    assert second != first
    assert first.answer.move == "E4 PIT....T"
    assert (
        "Yesterday's answer: **PITHIEST at E4 (down)** for 52 (equity 48.3); 1 of 2 players solved it."
        in (message.text)
    )
    assert [a.filename for a in message.attachments] == ["puzzle-2023-11-15.png", "answer-2023-11-14.png"]
    assert message.text.endswith(
        "Puzzle leaderboard:\n1. Alice: 3 points, 1 solved, streak 1\n2. Bob: 0 points, 0 solved, streak 0"
    )
    day_two = await puzzles.service.solve(GUILD, ALICE, _typed(second))
    assert "+3 points. Streak: 2 days." in day_two.text
    await puzzles.service.solve(GUILD, CAROL, _typed(second))
    await puzzles.clock.advance(DAY)  # day three: no answer yet, the streak still counts to yesterday
    third = await puzzles.service.puzzle(GUILD)
    assert "1. Alice: 6 points, 2 solved, streak 2\n2. Carol: 3 points, 1 solved, streak 1" in third.text
    await puzzles.clock.advance(DAY)  # day four: a day missed breaks it
    fourth = await puzzles.service.puzzle(GUILD)
    assert "1. Alice: 6 points, 2 solved, streak 0\n" in fourth.text
    assert "Yesterday's answer:" in fourth.text and "0 of 0 players solved it." in fourth.text


async def test_without_a_pool_there_is_no_puzzle(tmp_path: Path, enable_lexicon: Lexicon) -> None:
    store = await Store.open(tmp_path / "games.sqlite3")
    try:
        service = PuzzleService(store, enable_lexicon, FakeClock(), PngRenderer(), "standard")
        with pytest.raises(PuzzleError, match=r"^Puzzles are not available on this bot$"):
            await service.puzzle(GUILD)
        with pytest.raises(PuzzleError, match=r"^Puzzles are not available on this bot$"):
            await service.solve(GUILD, ALICE, "8H QUIZ")
        assert await store.puzzle(GUILD, "2023-11-14") is None
    finally:
        await store.close()


def _typed(puzzle: Puzzle) -> str:
    """The puzzle's best play as a player types it (``?E`` for a blank, ``.`` for a tile on the board)."""
    return typed(Play.from_gcg(puzzle.answer.move))


async def test_a_guild_that_turned_puzzles_off_is_refused(puzzles: Puzzles) -> None:
    await puzzles.store.set_feature(GUILD, "puzzles", False)
    off = r"^The puzzles feature is turned off in this server: "
    with pytest.raises(FeatureOffError, match=off):
        await puzzles.service.puzzle(GUILD)
    with pytest.raises(FeatureOffError, match=off):
        await puzzles.service.solve(GUILD, ALICE, "8H QUIZ")
    assert await puzzles.store.puzzle(GUILD, puzzles.service.today().isoformat()) is None
    assert puzzles.pool.calls == []
