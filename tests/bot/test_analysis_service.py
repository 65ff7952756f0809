"""``/scrabble analyze`` through the game service: a real SQLite file, the analysis in a stand-in pool."""

from __future__ import annotations

import io
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from analysis_fakes import InlinePool, known_game, store_finished
from PIL import Image
from service_fakes import CHANNEL, GUILD, OTHER_CHANNEL, Harness, open_harness

from bot.games.scrabble.analysis import ITERATIONS, LEVEL, MOVE_TIMEOUT, AnalysisError, analyse_turn
from bot.games.scrabble.images.analysis_chart import render_loss_chart
from bot.host.ai.executor import AiExecutor, WorkerConfig
from bot.host.errors import FeatureOffError, NoGameError
from scrabble_core.ai import default_leave_model
from scrabble_core.analysis import GameAnalysis, analyse_position, game_positions, summarise
from scrabble_core.lexicon import Lexicon
from scrabble_core.movegen import MoveGenerator, load_move_generator


@pytest.fixture(scope="module")
def generator(enable_lexicon: Lexicon, tmp_path_factory: pytest.TempPathFactory) -> MoveGenerator:
    return load_move_generator(enable_lexicon, tmp_path_factory.mktemp("movegen"))


@pytest.fixture
async def harness(tmp_path: Path, store_database: Path | str) -> AsyncIterator[Harness]:
    """A harness on each backend in turn (see tests/pg_cluster.py)."""
    opened = await open_harness(tmp_path, database=store_database)
    yield opened
    await opened.close()


async def finished(harness: Harness, lexicon: Lexicon, channel: int = CHANNEL, guild: int = GUILD) -> int:
    assert harness.store is not None
    row = await store_finished(harness.store, known_game(lexicon), guild, channel)
    return row.id


@pytest.fixture(scope="module")
def computed() -> dict[int, GameAnalysis]:
    """The analyses :func:`expected` computed, by game id (each backend's empty store gives the game the
    same id: its analysis is computed once)."""
    return {}


def expected(
    lexicon: Lexicon, generator: MoveGenerator, game_id: int, computed: dict[int, GameAnalysis]
) -> GameAnalysis:
    """The analysis computed directly, as the service asks the pool for it."""
    if game_id not in computed:
        model = default_leave_model()
        found = game_positions(known_game(lexicon))
        moves = [
            analyse_position(
                p, generator, model, level=LEVEL, seed=game_id * 1000 + p.number, iterations=ITERATIONS
            )
            for p in found
        ]
        computed[game_id] = summarise(["Ann", "Bob"], moves, LEVEL.value)
    return computed[game_id]


async def test_the_analysis_runs_turn_by_turn_in_the_pool_shows_progress_and_is_stored(
    harness: Harness,
    enable_lexicon: Lexicon,
    generator: MoveGenerator,
    computed: dict[int, GameAnalysis],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The exact figures below are those of a search that runs to its end; a loaded machine would cut
    # the turns' searches at the bot's budget, so the test gives them all the time they need.
    monkeypatch.setattr("bot.games.scrabble.analysis.MOVE_BUDGET", MOVE_TIMEOUT)
    game_id = await finished(harness, enable_lexicon)
    pool = InlinePool(generator)
    harness.svc.use_pool(pool, render_loss_chart)
    shown: list[str] = []

    async def progress(text: str) -> None:
        shown.append(text)

    reply = await harness.svc.analysis.analyze(GUILD, CHANNEL, progress=progress)
    assert shown == [*(f"Analysing move {n}/22…" for n in range(1, 23)), "Analysed 22 moves."]
    assert [(call[0], call[2]) for call in pool.calls] == [(analyse_turn, MOVE_TIMEOUT)] * 22
    assert reply.private
    assert reply.text.startswith(
        f"Analysis of game {game_id} (Ann vs Bob) at the expert level:\n```\n"
        "Ann: 4 of 11 turns within 1 point of the best play, 99.8 points lost in all (counting the tiles kept)\n"
        "  1 missed bingo\n"
        "  Turn 7, with EEHINNR: played ERRHINE at 13C (across) for 30; the best was INHERENT at L1 (down) "
        "for 74: 44 points more, 43.7 better counting the tiles kept\n"
    )
    assert (
        "\n  Turn 16, with DGIUUX and a blank: played aXING at 1K (across) for 60, with a blank for the A; "
        "the best was XU at 10A (across) for 17: 43 points less, 24.0 better counting the tiles kept\n"
    ) in reply.text
    chart, report = reply.attachments
    assert (chart.filename, report.filename) == (f"analysis-{game_id}.png", f"analysis-{game_id}.txt")
    assert Image.open(io.BytesIO(chart.data)).size == (960, 540)
    assert harness.store is not None
    stored = await harness.store.analysis(game_id)
    assert stored is not None
    analysis = GameAnalysis.from_dict(stored)
    assert analysis == expected(enable_lexicon, generator, game_id, computed)
    assert analysis.moves[6].best == "L1 INHEREN." and "missed bingo" in analysis.moves[6].marks
    assert report.data.decode().startswith(
        "Analysis (expert):\n  1. Ann, with ABEILPT: played PIBAL at 8D (across) for 24; the best play\n"
    )


async def test_asking_again_is_instant_even_after_a_restart(
    harness: Harness, enable_lexicon: Lexicon, generator: MoveGenerator
) -> None:
    game_id = await finished(harness, enable_lexicon)
    pool = InlinePool(generator)
    harness.svc.use_pool(pool)
    first = await harness.svc.analysis.analyze(GUILD, CHANNEL)
    await harness.restart()
    again_pool = InlinePool(generator)
    harness.svc.use_pool(again_pool)
    shown: list[str] = []

    async def progress(text: str) -> None:
        shown.append(text)

    again = await harness.svc.analysis.analyze(
        GUILD, OTHER_CHANNEL, game_id, private=False, progress=progress
    )
    assert (again_pool.calls, shown) == ([], [])
    assert again.text == first.text and not again.private
    assert [a.filename for a in again.attachments] == [f"analysis-{game_id}.txt"]  # no chart drawer given


async def test_the_history_record_carries_the_analysis_as_notes(
    harness: Harness, enable_lexicon: Lexicon, generator: MoveGenerator
) -> None:
    await finished(harness, enable_lexicon)
    (before,) = (await harness.svc.history(CHANNEL)).attachments
    assert "#note" not in before.data.decode()
    harness.svc.use_pool(InlinePool(generator))
    await harness.svc.analysis.analyze(GUILD, CHANNEL)
    (after,) = (await harness.svc.history(CHANNEL)).attachments
    lines = after.data.decode().splitlines()
    at = lines.index(">Ann: EEHINNR 13C E.RHINE +30 124")
    assert re.fullmatch(
        r"#note the best was INHERENT at L1 \(down\) for 74: 44 points more, \d+\.\d better counting the "
        r"tiles kept; missed bingo",
        lines[at + 1],
    )
    assert sum(line.startswith("#note ") for line in lines) == 22


async def test_a_game_must_be_finished_and_of_this_server(
    harness: Harness, enable_lexicon: Lexicon, generator: MoveGenerator
) -> None:
    harness.svc.use_pool(InlinePool(generator))
    with pytest.raises(
        NoGameError, match=r"^No game has ended in this channel yet: give a game id, or play one first$"
    ):
        await harness.svc.analysis.analyze(GUILD, CHANNEL)
    elsewhere = await finished(harness, enable_lexicon, guild=GUILD + 1)
    with pytest.raises(NoGameError, match=rf"^No finished game {elsewhere} in this server$"):
        await harness.svc.analysis.analyze(GUILD, CHANNEL, elsewhere)
    with pytest.raises(NoGameError, match=r"^No finished game 99 in this server$"):
        await harness.svc.analysis.analyze(GUILD, CHANNEL, 99)


async def test_without_a_pool_or_when_a_turn_fails_nothing_is_stored(
    harness: Harness, enable_lexicon: Lexicon, generator: MoveGenerator
) -> None:
    game_id = await finished(harness, enable_lexicon)
    with pytest.raises(AnalysisError, match=r"^Game analysis is not available on this bot$"):
        await harness.svc.analysis.analyze(GUILD, CHANNEL)
    pool = InlinePool(generator, fail_at=3)
    harness.svc.use_pool(pool)
    with pytest.raises(
        AnalysisError, match=r"^Move 3 could not be analysed \(TimeoutError\): try again later$"
    ):
        await harness.svc.analysis.analyze(GUILD, CHANNEL)
    assert harness.store is not None
    assert await harness.store.analysis(game_id) is None
    assert len(pool.calls) == 3


@pytest.mark.slow
async def test_the_real_worker_pool_analyses_a_turn(
    enable_lexicon: Lexicon, generator: MoveGenerator
) -> None:
    position = game_positions(known_game(enable_lexicon))[6]
    argument = {"position": position.to_dict(), "level": "hard", "seed": 1, "iterations": 1, "budget": 5.0}
    async with AiExecutor(WorkerConfig()) as executor:
        result = await executor.call("scrabble", analyse_turn, argument, timeout=30.0)
        with pytest.raises(RuntimeError, match=r"^the AI worker failed: KeyError: 'position'$"):
            await executor.call("scrabble", analyse_turn, {}, timeout=30.0)
    direct = analyse_turn(generator, argument)
    assert result == direct
    assert (result["best"], result["best_score"]) == ("L1 INHEREN.", 74)


async def test_a_guild_that_turned_analysis_off_is_refused(
    harness: Harness, enable_lexicon: Lexicon, generator: MoveGenerator
) -> None:
    await finished(harness, enable_lexicon)
    pool = InlinePool(generator)
    harness.svc.use_pool(pool)
    await harness.svc.set_feature(GUILD, "analysis", False)
    with pytest.raises(FeatureOffError, match=r"^The analysis feature is turned off in this server: "):
        await harness.svc.analysis.analyze(GUILD, CHANNEL)
    assert pool.calls == []
    await harness.svc.set_feature(GUILD, "analysis", True)
    assert (await harness.svc.analysis.analyze(GUILD, CHANNEL)).text.startswith("Analysis of game ")
