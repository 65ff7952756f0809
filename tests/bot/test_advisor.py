"""Hints: computed in the AI worker processes, the same as computed in the bot's own process, with a
fallback when no worker answers; the count of hints used survives a restart."""

from __future__ import annotations

import asyncio
import logging
import random
from collections import Counter
from pathlib import Path

import pytest
from service_fakes import ALICE, CHANNEL, open_harness, started_game

from bot.games.scrabble.advisor import GeneratorAdvisor, expert_suggestions, suggestions, view_suggestions
from bot.games.scrabble.ai_turns import ScrabblePool
from bot.host.ai.executor import AiExecutor, WorkerConfig
from scrabble_core.ai import DEFAULT_BUDGET, Level, SeatView, choose_move, seat_view
from scrabble_core.board import Board
from scrabble_core.game import Game
from scrabble_core.hints import hints
from scrabble_core.lexicon import Lexicon
from scrabble_core.move import Exchange, Play, move_from_gcg
from scrabble_core.movegen import MoveGenerator, load_move_generator
from scrabble_core.notation import player_notation
from scrabble_core.validation import check_play
from scrabble_core.variant import get_variant


class NoGenerator:
    """A move generator that must not be used: the hint comes from the workers."""

    def __getattr__(self, name: str) -> object:
        raise AssertionError(f"the bot's own generator was used ({name})")


@pytest.fixture
def config(enable_lexicon: Lexicon) -> WorkerConfig:
    assert enable_lexicon.trie_path is not None
    return WorkerConfig(cache_dir=str(enable_lexicon.trie_path.parent))


def positions(lexicon: Lexicon, generator: MoveGenerator, count: int) -> list[Game]:
    """``count`` positions of a game between two best-move players, copies taken before each move."""
    game = Game(get_variant("standard"), ["a", "b"], rng=random.Random(5), lexicon=lexicon)
    found: list[Game] = []
    while len(found) < count and not game.is_over:
        found.append(Game.from_dict(game.to_dict(), lexicon=lexicon))
        best = generator.best(game.board, game.players[game.current].rack)
        if best is None:
            game.pass_turn(game.current)
        else:
            game.play(game.current, player_notation(best.play))
    return found


async def test_hints_from_the_workers_are_the_hints_computed_here(
    config: WorkerConfig, enable_lexicon: Lexicon
) -> None:
    generator = load_move_generator(enable_lexicon)
    local = GeneratorAdvisor(generator)
    async with AiExecutor(config) as executor:
        pooled = GeneratorAdvisor(NoGenerator(), executor, timeout=10.0)  # type: ignore[arg-type]
        for game in positions(enable_lexicon, generator, 12):
            seat = game.current
            expected = hints(game.board, game.players[seat].rack, generator, 3).moves
            from_pool = await pooled.top_moves(game, seat, 3)
            assert from_pool == await local.top_moves(game, seat, 3)
            assert [(s.move, s.score, s.leave) for s in from_pool] == [
                (hint.play.gcg(), hint.score, hint.leave) for hint in expected
            ]
            assert len(from_pool) == 3


async def test_without_a_free_worker_the_hint_is_computed_here(
    config: WorkerConfig, enable_lexicon: Lexicon, caplog: pytest.LogCaptureFixture
) -> None:
    generator = load_move_generator(enable_lexicon)
    (game,) = positions(enable_lexicon, generator, 1)
    async with AiExecutor(config) as executor:
        busy = asyncio.create_task(
            ScrabblePool(executor).choose(seat_view(game, 0), Level.MEDIUM, 1, timeout=5.0, debug_delay=3.0)
        )
        await asyncio.sleep(0.1)
        advisor = GeneratorAdvisor(generator, executor, timeout=0.2)
        with caplog.at_level(logging.WARNING, "bot.games.scrabble.advisor"):
            found = await advisor.top_moves(game, 0, 3)
        assert found == await GeneratorAdvisor(generator).top_moves(game, 0, 3)
        assert [r.getMessage() for r in caplog.records] == [
            "hint not computed by the AI workers (TimeoutError): computing it here"
        ]
        await busy


async def test_the_count_of_hints_used_survives_a_restart(tmp_path: Path) -> None:
    harness = await open_harness(tmp_path)
    await started_game(harness, hints=3)
    first = await harness.svc.hint(CHANNEL, ALICE.id)
    assert first.text.startswith("Hint 1 of 3, for your rack")
    await harness.restart()
    assert harness.store is not None
    (row,) = await harness.store.open_games()
    assert [seat.hints_used for seat in row.seats] == [1, 0]
    second = await harness.svc.hint(CHANNEL, ALICE.id)
    assert second.text.startswith("Hint 2 of 3, for your rack")
    await harness.close()


def refuse(generator: object, rack: str) -> None:
    """A function for the workers that fails."""
    raise ValueError(f"no such rack {rack}")


async def test_a_function_failing_in_a_worker_is_reported_and_the_worker_kept(
    config: WorkerConfig, enable_lexicon: Lexicon
) -> None:
    generator = load_move_generator(enable_lexicon)
    (game,) = positions(enable_lexicon, generator, 1)
    async with AiExecutor(config) as executor:
        with pytest.raises(RuntimeError, match=r"^the AI worker failed: ValueError: no such rack QQ$"):
            await executor.call("scrabble", refuse, "QQ", timeout=5.0)
        assert executor.replaced == 0
        view = seat_view(game, 0).to_dict()
        found = await executor.call("scrabble", view_suggestions, view, 2, timeout=5.0)
        assert found == suggestions(game.board, game.players[0].rack, generator, 2)


def test_an_expert_hint_leads_with_the_experts_own_move(enable_lexicon: Lexicon) -> None:
    generator = load_move_generator(enable_lexicon)
    kinds: list[str] = []
    for number, game in enumerate(positions(enable_lexicon, generator, 8)):
        view = seat_view(game, game.current)
        expert = choose_move(view, generator, Level.EXPERT, random.Random(number), budget=DEFAULT_BUDGET)
        found = expert_suggestions(generator, view.to_dict(), 3, None, number)
        by_score = suggestions(game.board, view.rack, generator, 3)
        if isinstance(expert, Exchange):
            kept = Counter(view.rack) - Counter(expert.tiles)
            assert found[0] == (expert.gcg(), 0, "".join(sorted(kept.elements())))
        else:
            assert isinstance(expert, Play)
            every = hints(game.board, view.rack, generator, 1000).moves
            assert found[0] == next(
                (hint.play.gcg(), hint.score, hint.leave) for hint in every if hint.play == expert
            )
        assert found[1:] == [s for s in by_score if s[0] != found[0][0]][:2]
        kinds.append(type(expert).__name__ if found[0] != by_score[0] else "top score")
    # seeded: the expert's choice is not the highest-scoring play at six turns (one an exchange)
    assert kinds == ["Play", "top score", "Play", "Exchange", "Play", "Play", "Play", "top score"]
    # a rack with no play on an empty board: the expert exchanges, and the hint says so
    view = SeatView(
        get_variant("standard"), Board(get_variant("standard")), "IIUUVVW", "AEINRST" * 3, 40, (0, 0), 0
    )
    expert = choose_move(view, generator, Level.EXPERT, random.Random(0), budget=DEFAULT_BUDGET)
    assert isinstance(expert, Exchange)
    kept = Counter(view.rack) - Counter(expert.tiles)
    assert expert_suggestions(generator, view.to_dict(), 3, None, 0)[0] == (
        f"-{expert.tiles}",
        0,
        "".join(sorted(kept.elements())),
    )


async def test_expert_hints_are_searched_in_the_workers_within_their_time(
    config: WorkerConfig, enable_lexicon: Lexicon
) -> None:
    generator = load_move_generator(enable_lexicon)
    game = positions(enable_lexicon, generator, 4)[-1]
    seat = game.current
    async with AiExecutor(config) as executor:
        advisor = GeneratorAdvisor(NoGenerator(), executor, timeout=30.0, expert_seconds=0.5)  # type: ignore[arg-type]
        found = await advisor.top_moves(game, seat, 3)
        assert executor.replaced == 0
    by_score = suggestions(game.board, game.players[seat].rack, generator, 3)
    assert len(found) == 3
    assert [(s.move, s.score, s.leave) for s in found[1:]] == [s for s in by_score if s[0] != found[0].move][
        :2
    ]
    rack = game.players[seat].rack
    first = move_from_gcg(found[0].move)
    if isinstance(first, Exchange):  # a search cut short (a loaded machine) may end on one
        tiles = Counter(first.tiles)
        assert not tiles - Counter(rack)
        assert (found[0].score, Counter(found[0].leave)) == (0, Counter(rack) - tiles)
    else:
        assert isinstance(first, Play)
        check_play(game.board, first, rack=rack, lexicon=enable_lexicon)


def test_hints_on_an_infinite_board_name_their_squares_signed(enable_lexicon: Lexicon) -> None:
    """Each hint, the expert's move first, reads back as the play it names: ``0,0d`` (never ``A1``)
    even where a square also has a letter and a number."""
    game = Game(get_variant("infinite"), ["a", "b"], rng=random.Random(3), lexicon=enable_lexicon)
    generator = load_move_generator(enable_lexicon)
    view = seat_view(game, 0)
    found = expert_suggestions(generator, view.to_dict(), 5, None, 1)
    found = [
        *(hint for hint in found if not hint[0].startswith("-")),
        *suggestions(game.board, view.rack, generator, 40),
    ]
    starts = {text.split(" ")[0] for text, _, _ in found}
    assert starts & {"0,0a", "0,0d"}  # a square also named A1 on a finite board
    for text, score, _ in found:
        play = move_from_gcg(text)
        assert isinstance(play, Play)
        assert check_play(game.board, play, rack=view.rack).total == score
        assert text == play.record_text(True)
