"""Storage failures reach Discord users as private refusals: the service's StorageError through the
bot's one error translator, over the fake Discord API and a real SQLite file; an announcement whose
mark failed (a crash after its post) is posted again at the next start without being made twice."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from discord_fake import MakeHarness, string_option
from service_fakes import lose_outbox_marks

import bot.host.store.opening

BOB = 700_000_000_000_000_002


async def test_a_busy_database_is_told_privately_and_nothing_changes(
    make_harness: MakeHarness, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bot.host.store.opening, "DEFAULT_BUSY_TIMEOUT", 0.05)
    h = await make_harness()
    await h.reply(h.payloads.slash("new", ()))
    await h.reply(h.payloads.slash("join", (), user_id=BOB))
    await h.reply(h.payloads.slash("start", ()))
    await h.service.idle()
    channel = h.payloads.channel_id
    before = h.service.game(channel).to_dict()
    posted = len(h.fake.find("POST", f"/channels/{channel}/messages"))
    blocker = sqlite3.connect(tmp_path / "games.sqlite3", isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    try:
        reply = await h.reply(h.payloads.slash("pass", ()))
        assert reply.ephemeral
        assert reply.content == "The database is busy, try again in a moment (nothing was changed)"
        reply = await h.reply(h.payloads.slash("check", (string_option("word", "QI"),)))
        assert reply.ephemeral  # reading still works
    finally:
        blocker.rollback()
        blocker.close()
    assert h.service.game(channel).to_dict() == before
    assert len(h.fake.find("POST", f"/channels/{channel}/messages")) == posted
    reply = await h.reply(h.payloads.slash("pass", ()))
    assert reply.content == "You passed."


async def test_a_restart_does_not_make_twice_a_message_posted_before_its_entry_was_marked(
    make_harness: MakeHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The process dies between the start's post and the mark of its outbox entry (a kill -9 there):
    the next process posts it again with the same nonce, and Discord answers with the message it made
    instead of making a second one."""
    h = await make_harness()
    await h.reply(h.payloads.slash("new", ()))
    await h.reply(h.payloads.slash("join", (), user_id=BOB))
    await h.service.idle()
    lose_outbox_marks(monkeypatch, h.store)
    await h.reply(h.payloads.slash("start", ()))
    await h.service.idle()
    channel = h.payloads.channel_id
    messages = h.fake.channel_messages(channel)
    [start] = [m for m in messages if m["content"].startswith("The game has started.")]
    posts = h.fake.find("POST", f"/channels/{channel}/messages")
    await h.bot.close()

    restarted = await make_harness()
    await restarted.service.idle()
    again = h.fake.find("POST", f"/channels/{channel}/messages")[len(posts) :]
    assert [post.json["nonce"] for post in again] == [start["nonce"]]  # posted again...
    assert h.fake.channel_messages(channel) == messages  # ...and not made twice
    assert await restarted.store.pending_outbox() == []
