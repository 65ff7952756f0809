"""``/scrabble puzzle`` and ``/scrabble solve`` through discord.py against the fake Discord."""

from __future__ import annotations

import datetime

import pytest
from analysis_fakes import InlinePool
from discord_fake import BotHarness, MakeHarness, string_option
from service_fakes import DayClock, typed

from scrabble_core.lexicon import Lexicon
from scrabble_core.move import Play
from scrabble_core.movegen import MoveGenerator, load_move_generator
from scrabble_core.puzzles import Puzzle

DEFERRED = 5
EPHEMERAL = 64
BOB = 700000000000000002


@pytest.fixture(scope="module")
def generator(enable_lexicon: Lexicon, tmp_path_factory: pytest.TempPathFactory) -> MoveGenerator:
    return load_move_generator(enable_lexicon, tmp_path_factory.mktemp("movegen"))


PUZZLE_DAY = datetime.date(2026, 11, 27)
"""The day the tests play on: the guild's puzzle is that day's, whose best play is HUMMER."""


async def puzzle_harness(make_harness: MakeHarness, generator: MoveGenerator) -> BotHarness:
    harness = await make_harness(clock=DayClock(PUZZLE_DAY))
    harness.service.use_pool(InlinePool(generator))
    return harness


async def todays(harness: BotHarness) -> Puzzle:
    day = harness.service.puzzles.today().isoformat()
    stored = await harness.store.puzzle(harness.payloads.guild_id, day)
    assert stored is not None
    return Puzzle.from_dict(dict(stored))


async def test_the_puzzle_is_posted_publicly_with_its_board(
    make_harness: MakeHarness, generator: MoveGenerator
) -> None:
    harness = await puzzle_harness(make_harness, generator)
    payload = harness.payloads.slash("puzzle")
    callback = await harness.ack(payload)
    assert callback.json == {"type": DEFERRED}  # public "thinking"
    (reply,) = await harness.fake.followups_for(payload, timeout=30)
    assert not reply.ephemeral
    day = harness.service.puzzles.today().isoformat()
    puzzle = await todays(harness)
    assert reply.content.startswith(
        f"**Puzzle of {day}** (UTC), from a self-play game: your rack is **{puzzle.view.rack}**"
    )
    assert reply.filenames == [f"puzzle-{day}.png"]


async def test_solve_answers_privately_and_once_a_day(
    make_harness: MakeHarness, generator: MoveGenerator
) -> None:
    harness = await puzzle_harness(make_harness, generator)
    await harness.reply(harness.payloads.slash("puzzle"), timeout=30)
    puzzle = await todays(harness)
    best = puzzle.answer
    bad = await harness.reply(harness.payloads.slash("solve", [string_option("move", "8H")]))
    assert bad.ephemeral
    assert bad.content == (
        "That is not a play on the puzzle's board: write a play as a coordinate and a word: "
        "8H QUIZ goes across from H8, H8 QUIZ goes down"
    )
    answer = typed(Play.from_gcg(best.move))
    first = await harness.reply(harness.payloads.slash("solve", [string_option("move", answer)]))
    assert first.ephemeral
    assert (best.move, best.score, f"{best.equity:.1f}") == ("A7 HUMMER", 53, "53.3")
    assert first.content == (
        "HUMMER at A7 (down) scores 53, equity 53.3: the best play! +3 points. Streak: 1 day. "
        "The answer comes with tomorrow's puzzle."
    )
    second = await harness.reply(harness.payloads.slash("solve", [string_option("move", answer)]))
    assert second.ephemeral
    assert second.content == (
        "You already answered today's puzzle (HUMMER at A7 (down), 3 points): one try a day. "
        "The answer comes with tomorrow's puzzle."
    )
    other = await harness.reply(harness.payloads.slash("solve", [string_option("move", answer)], user_id=BOB))
    assert "+3 points. Streak: 1 day." in other.content
    board = await harness.reply(harness.payloads.slash("puzzle"))
    standings = board.content.split("Puzzle leaderboard:\n", 1)[1].splitlines()
    assert [line.split(": ", 1)[1] for line in standings] == ["3 points, 1 solved, streak 1"] * 2
    assert harness.fake.channel_messages(harness.payloads.channel_id) == []  # answers never go public
