"""The expert level in the service: the default opponent, and the typing indicator during its longer turns."""

from __future__ import annotations

import asyncio
from pathlib import Path

from service_fakes import ALICE, CHANNEL, find_play, open_harness, started_game, typed

from bot.host.runner import THINKING_NOTICE_AFTER, TYPING_AGAIN_AFTER


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
    posts = len(harness.notifier.posts)
    assert harness.notifier.typings == []  # not yet
    await harness.clock.advance(THINKING_NOTICE_AFTER)
    assert harness.notifier.typings == [CHANNEL]  # the channel sees the bot typing, no post
    await harness.clock.advance(TYPING_AGAIN_AFTER)
    assert harness.notifier.typings == [CHANNEL, CHANNEL]  # again while it still thinks
    assert len(harness.notifier.posts) == posts  # Alice's play waits for the AI's move
    assert [level for _, level, _ in harness.ai.calls] == ["expert"]
    harness.ai.gate.set()
    await harness.svc.idle()
    (post,) = harness.notifier.posts[posts:]  # Alice's play and the AI's move in one post
    assert post[1].text.startswith("Alice played ")
    assert (
        "\nAI played " in post[1].text or "\nAI exchanged " in post[1].text or "\nAI passed" in post[1].text
    )
    assert harness.notifier.typings == [CHANNEL, CHANNEL]
    assert harness.svc.game(CHANNEL).current == 0  # the expert played: Alice's turn again
    await harness.close()
