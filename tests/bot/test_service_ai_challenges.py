"""The AI challenges phonies in the modes with challenges: a human's phony is challenged and comes off
before the AI plays, a valid play is let stand, and a play that went out is challenged or accepted."""

from __future__ import annotations

import asyncio
import random
from dataclasses import replace
from pathlib import Path

import pytest
from service_fakes import (
    ALICE,
    CHANNEL,
    CREATOR_FIRST_SEED,
    Harness,
    find_play,
    open_harness,
    started_game,
    typed,
)

from bot.host.errors import NoGameError
from bot.host.seeds import turn_seed
from bot.host.store import GameStatus
from scrabble_core.ai import Level, should_challenge
from scrabble_core.game import EventKind, Game
from scrabble_core.move import Play

MODES = ["single", "double", "five-point"]


async def ai_game(harness: Harness, mode: str, level: str = "hard", seed: int = CREATOR_FIRST_SEED) -> None:
    """Alice (seat 0, on turn) against one AI (seat 1) in ``mode``."""
    await started_game(harness, (ALICE,), ai=1, seed=seed, challenge_mode=mode, ai_level=level)


async def alice_plays(harness: Harness, phony: bool) -> tuple[Game, Play]:
    """Alice plays :func:`find_play`, made a phony first if asked; returns the game before it and the play."""
    game = harness.svc.game(CHANNEL)
    assert game.current == 0
    play = find_play(game, 0)
    assert play is not None
    if phony:
        harness.lexicon.phonies.add(play.letters.upper())
    await harness.svc.play(CHANNEL, ALICE.id, typed(play))
    await harness.svc.idle()
    return game, play


async def set_endgame(harness: Harness, alice_rack: str) -> None:
    """Empty the bag and give Alice ``alice_rack`` (the game must be on Alice's first turn), then
    restart the service on the changed row."""
    assert harness.store is not None
    (row,) = await harness.store.open_games()
    assert row.state is not None
    state = dict(row.state)
    state["bag"] = ""
    state["players"] = [dict(p) for p in state["players"]]
    state["players"][0]["rack"] = alice_rack
    await harness.store.save(replace(row, state=state), [])
    await harness.restart()


def kinds(harness: Harness) -> list[tuple[EventKind, int]]:
    return [(event.kind, event.player) for event in harness.svc.game(CHANNEL).history]


@pytest.mark.parametrize("mode", MODES)
async def test_the_ai_challenges_a_phony_then_plays(tmp_path: Path, mode: str) -> None:
    harness = await open_harness(tmp_path)
    try:
        await ai_game(harness, mode)
        before, play = await alice_plays(harness, phony=True)
        word = play.letters.upper()
        assert kinds(harness) == [
            (EventKind.PLAY, 0),
            (EventKind.PHONY_WITHDRAWN, 0),
            (EventKind.PLAY, 1),
        ]
        game = harness.svc.game(CHANNEL)
        assert game.players[0].rack == before.players[0].rack  # Alice has her tiles back
        assert game.players[0].score == 0
        assert game.current == 0
        assert len(harness.ai.calls) == 1  # the challenge needs no move: one move chosen, after it
        # One post: Alice's play, the AI's challenge and the AI's move, said in order.
        assert word == "AB"
        assert harness.notifier.texts()[-1] == (
            "Alice played AB at 8H (across) for 8.\n\n"
            "AI challenged AB: it is not in the dictionary.\n"
            "The challenge was upheld: Alice's play came off the board (-8).\n\n"
            "AI played AE at 8H (across) for 4.\nScores: Alice 0 · AI 4\nNext: Alice (<@11>). 84 tiles in the bag."
        )
        # Each state change was one committed action, logged in order.
        assert harness.store is not None
        log = [entry.kind for entry in await harness.store.log(1)]
        assert log[-3:] == ["play", "withdrawn", "play"]
    finally:
        await harness.close()


@pytest.mark.parametrize("mode", MODES)
async def test_the_ai_lets_a_valid_play_stand(tmp_path: Path, mode: str) -> None:
    harness = await open_harness(tmp_path)
    try:
        await ai_game(harness, mode)
        await alice_plays(harness, phony=False)
        assert kinds(harness) == [(EventKind.PLAY, 0), (EventKind.PLAY, 1)]
        assert not any("AI challenged" in t for t in harness.notifier.texts())
    finally:
        await harness.close()


async def test_no_challenge_in_void_mode(tmp_path: Path) -> None:
    harness = await open_harness(tmp_path)
    try:
        await ai_game(harness, "void")
        _, play = await alice_plays(harness, phony=False)
        harness.lexicon.phonies.add(play.letters.upper())  # too late to matter: words are checked on play
        assert kinds(harness) == [(EventKind.PLAY, 0), (EventKind.PLAY, 1)]
    finally:
        await harness.close()


@pytest.mark.parametrize("mode", MODES)
async def test_the_ai_challenges_a_phony_that_went_out(tmp_path: Path, mode: str) -> None:
    harness = await open_harness(tmp_path, phonies={"ZX"})
    try:
        await ai_game(harness, mode)
        await set_endgame(harness, "XZ")
        await harness.svc.play(CHANNEL, ALICE.id, "8H ZX")
        await harness.svc.idle()
        assert kinds(harness) == [
            (EventKind.PLAY, 0),
            (EventKind.PHONY_WITHDRAWN, 0),
            (EventKind.PLAY, 1),
        ]
        game = harness.svc.game(CHANNEL)
        assert not game.is_over
        assert game.players[0].rack == "XZ"
        assert any(
            "\nAI challenged ZX: it is not in the dictionary.\n" in t for t in harness.notifier.texts()
        )
    finally:
        await harness.close()


@pytest.mark.parametrize("mode", MODES)
async def test_the_ai_accepts_a_valid_play_that_went_out(tmp_path: Path, mode: str) -> None:
    harness = await open_harness(tmp_path)
    try:
        await ai_game(harness, mode)
        await set_endgame(harness, "IQ")
        await harness.svc.play(CHANNEL, ALICE.id, "8H QI")
        await harness.svc.idle()
        with pytest.raises(NoGameError):
            harness.svc.game(CHANNEL)
        assert harness.store is not None
        row = await harness.store.last_finished_game(CHANNEL, "scrabble")
        assert row is not None and row.status is GameStatus.FINISHED and row.state is not None
        history = Game.from_dict(row.state).history
        assert [(e.kind, e.player) for e in history] == [(EventKind.PLAY, 0), (EventKind.END_RACK, 0)]
        assert harness.ai.calls == []
        assert not any("AI challenged" in t for t in harness.notifier.texts())
        assert harness.notifier.texts()[-1] == (
            "Alice played QI at 8H (across) for 22.\n\n"
            "Alice went out and gets the 11 points left on AI's rack (AEGIRSV), twice: +22.\n"
            "Game over: Alice (<@11>) wins.\n1. Alice 44\n2. AI 0\nThe record (GCG) is attached."
        )
    finally:
        await harness.close()


async def test_a_restart_between_the_challenge_and_the_move_goes_on_identically(
    tmp_path: Path, store_database: Path | str
) -> None:
    (tmp_path / "ref").mkdir()
    reference = await open_harness(tmp_path / "ref")
    try:
        await ai_game(reference, "single")
        await alice_plays(reference, phony=True)
        expected = reference.svc.game(CHANNEL).to_dict()
    finally:
        await reference.close()

    harness = await open_harness(tmp_path, database=store_database)
    try:
        await ai_game(harness, "single")
        harness.ai.gate = asyncio.Event()
        game = harness.svc.game(CHANNEL)
        play = find_play(game, 0)
        assert play is not None
        harness.lexicon.phonies.add(play.letters.upper())
        await harness.svc.play(CHANNEL, ALICE.id, typed(play))
        for _ in range(500):  # until the AI asks for its move (the saves run in SQLite's thread)
            if harness.ai.calls:
                break
            await asyncio.sleep(0.01)
        # The challenge is saved; the AI's move waits at the gate.
        assert [e.kind for e in harness.svc.game(CHANNEL).history] == [
            EventKind.PLAY,
            EventKind.PHONY_WITHDRAWN,
        ]
        assert len(harness.ai.calls) == 1
        await harness.restart()  # the blocked move is cancelled, and re-run at start-up
        harness.ai.gate.set()
        await harness.svc.idle()
        assert harness.ai.calls[0] == harness.ai.calls[1]
        assert harness.svc.game(CHANNEL).to_dict() == expected
    finally:
        await harness.close()


@pytest.mark.parametrize("level", ["easy", "medium"])
async def test_weaker_levels_decide_with_the_turn_seed(tmp_path: Path, level: str) -> None:
    outcomes = set()
    for seed in (1, 2, 3, 5, 8, 12, 15, 16):  # seeds with which Alice draws first
        (tmp_path / str(seed)).mkdir()
        harness = await open_harness(tmp_path / str(seed))
        try:
            await ai_game(harness, "single", level=level, seed=seed)
            _, play = await alice_plays(harness, phony=True)
            rng = random.Random(turn_seed(seed, 1))  # the AI's seed of the turn after Alice's play
            expected = should_challenge([play.letters.upper()], Level(level), harness.lexicon, rng)
            withdrawn = (EventKind.PHONY_WITHDRAWN, 0) in kinds(harness)
            assert withdrawn is expected
            assert kinds(harness)[-1] == (EventKind.PLAY, 1)
            outcomes.add(withdrawn)
        finally:
            await harness.close()
    assert outcomes == {True, False}  # weaker players miss some phonies
