"""Announcements a crash left unsent, of a game that has moved on since: each still goes out once, in
order, as its text (its board is no longer the game's), and every seat whose rack it was to DM gets
its current rack once (found by issue 14's combined fault test: the start of a game killed with its
first moves unsent was dropped, and the second player never got a rack)."""

from __future__ import annotations

import sqlite3
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


async def test_an_announcement_posted_before_a_crash_is_not_posted_again_and_its_racks_go_out_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Found by issue 15's kill -9 test: a restart posted the start of a game a second time, as its text,
    # when its post had gone out and the racks it left to the next announcement had not.
    monkeypatch.setattr(bot.service.delivery, "CLOSE_GRACE_SECONDS", 0.05)
    harness = await open_harness(tmp_path)
    stuck = await gated(harness)
    await harness.svc.new_game(GUILD, CHANNEL, ALICE, NewGame(seed=CREATOR_FIRST_SEED))
    await harness.svc.join(CHANNEL, BOB)
    await harness.svc.idle()
    lobby = len(stuck.posts)
    stuck.hold(passing=1)  # the start goes out, then Discord stops answering: the play stays unposted
    await harness.svc.start_game(CHANNEL, ALICE.id)
    play = find_play(harness.svc.game(CHANNEL), 0)
    assert play is not None
    await harness.svc.play(CHANNEL, ALICE.id, typed(play))
    await first_post_started(stuck, 2)
    await harness.close()
    assert [message.text.split("\n")[0] for _, message in stuck.posts[lobby:]] == ["The game begins!"]
    assert stuck.dms == []  # the start left its racks to the play
    with sqlite3.connect(harness.path) as db:
        outbox = db.execute(
            "SELECT posted_at IS NOT NULL, sent_at IS NOT NULL FROM outbox ORDER BY id"
        ).fetchall()
    assert outbox == [(1, 0), (0, 0)]  # the start posted, the play not; neither sent

    harness.notifier = RecordingNotifier()
    await harness.open()
    await harness.svc.idle()
    [(_, turn)] = harness.notifier.posts  # the play only: the start is not posted again
    assert turn.text.startswith("Alice played ") and turn.attachments != ()
    assert sorted(user for user, _ in harness.notifier.dms) == sorted([ALICE.id, BOB.id])  # once each
    assert harness.store is not None
    assert await harness.store.pending_outbox() == []
    await harness.restart()
    assert len(harness.notifier.posts) == 1 and len(harness.notifier.dms) == 2  # not again
    await harness.close()


async def test_a_posted_announcement_that_is_the_games_newest_dms_its_racks_after_a_restart(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bot.service.delivery, "CLOSE_GRACE_SECONDS", 0.05)
    harness = await open_harness(tmp_path)
    await harness.svc.new_game(GUILD, CHANNEL, ALICE, NewGame(seed=CREATOR_FIRST_SEED))
    await harness.svc.join(CHANNEL, BOB)
    await harness.svc.start_game(CHANNEL, ALICE.id)
    await harness.svc.idle()
    assert harness.store is not None
    game = harness.svc.game(CHANNEL)
    play = find_play(game, 0)
    assert play is not None
    await harness.svc.play(CHANNEL, ALICE.id, typed(play))
    await harness.svc.idle()
    posts, dms = len(harness.notifier.posts), len(harness.notifier.dms)
    with sqlite3.connect(harness.path) as db:  # as a crash after the play's post and before its DM left it
        db.execute("UPDATE outbox SET sent_at = NULL WHERE id = (SELECT MAX(id) FROM outbox)")
    await harness.restart()
    await harness.svc.idle()
    assert len(harness.notifier.posts) == posts  # not posted again
    [(user, rack)] = harness.notifier.dms[dms:]
    assert user == ALICE.id and rack.text.startswith("Your rack")
    assert await harness.store.pending_outbox() == []
    await harness.close()
