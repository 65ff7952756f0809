"""The expert level in the service: the default opponent, and the "thinking" line during its longer turns."""

from __future__ import annotations

import asyncio
from pathlib import Path

from service_fakes import ALICE, CHANNEL, delivered, find_play, open_harness, started_game, typed

from bot.host.runner import THINKING_NOTICE_AFTER


async def test_an_ai_added_without_a_level_is_the_expert_and_shows_that_it_thinks(tmp_path: Path) -> None:
    harness = await open_harness(tmp_path)
    await started_game(harness, (ALICE,), ai=1)  # no level chosen; Alice draws first
    assert harness.store is not None
    (row,) = await harness.store.open_games()
    assert [seat.ai_level for seat in row.seats] == [None, "expert"]
    harness.ai.gate = asyncio.Event()  # the expert thinks until the gate opens
    play = find_play(harness.svc.game(CHANNEL), 0)
    assert play is not None
    await harness.svc.play(CHANNEL, ALICE.id, typed(play))
    await asyncio.sleep(0)  # the AI's turn starts
    await delivered(harness)
    assert "AI is thinking…" not in harness.notifier.texts()  # not yet
    await harness.clock.advance(THINKING_NOTICE_AFTER)
    await delivered(harness)
    assert harness.notifier.texts()[-1] == "AI is thinking…"
    assert [level for _, level, _ in harness.ai.calls] == ["expert"]
    harness.ai.gate.set()
    await harness.svc.idle()
    assert harness.notifier.texts()[-1] != "AI is thinking…"
    assert harness.svc.game(CHANNEL).current == 0  # the expert played: Alice's turn again
    await harness.close()
