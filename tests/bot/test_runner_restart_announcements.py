"""Announcements a crash left unsent, of a game that has moved on since: each still goes out once, in
order, as its text (its board is no longer the game's), and every seat whose rack it was to DM gets
its current rack once (found by issue 14's combined fault test: the start of a game killed with its
first moves unsent was dropped, and the second player never got a rack)."""

from __future__ import annotations

from pathlib import Path

import pytest
from service_fakes import (
    ALICE,
    BOB,
    CHANNEL,
    CREATOR_FIRST_SEED,
    GUILD,
    RecordingNotifier,
    find_play,
    first_post_started,
    gated,
    open_harness,
    typed,
)

import bot.service.delivery
from bot.service.game_service import NewGame


async def test_out_of_date_announcements_go_out_as_text_and_every_owed_rack_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bot.service.delivery, "CLOSE_GRACE_SECONDS", 0.05)
    harness = await open_harness(tmp_path)
    stuck = await gated(harness)
    await harness.svc.new_game(GUILD, CHANNEL, ALICE, NewGame(seed=CREATOR_FIRST_SEED))
    await harness.svc.join(CHANNEL, BOB)
    await harness.svc.idle()
    lobby = len(stuck.posts)
    stuck.hold()  # Discord stops answering: the start and the play stay unsent
    await harness.svc.start_game(CHANNEL, ALICE.id)
    play = find_play(harness.svc.game(CHANNEL), 0)
    assert play is not None
    await harness.svc.play(CHANNEL, ALICE.id, typed(play))
    await first_post_started(stuck)
    await harness.close()
    assert len(stuck.posts) == lobby and stuck.dms == []

    harness.notifier = RecordingNotifier()
    await harness.open()
    await harness.svc.idle()
    texts = harness.notifier.texts()
    assert [text.split("\n")[0] for text in texts] == ["The game begins!", texts[1].split("\n")[0]]
    assert texts[1].startswith("Alice played ")
    start, turn = (message for _, message in harness.notifier.posts)
    assert start.attachments == () and start.buttons == ()  # the start's board is no longer the game's
    assert turn.attachments != ()
    assert sorted(user for user, _ in harness.notifier.dms) == sorted([ALICE.id, BOB.id])  # once each
    assert harness.store is not None
    assert await harness.store.pending_outbox() == []
    await harness.restart()
    assert len(harness.notifier.posts) == 2  # delivered once: not again
    await harness.close()
