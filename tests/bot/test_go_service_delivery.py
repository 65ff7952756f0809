"""Go's announcements go out behind the answer, through the host's delivery tasks: a Go command answers
once its change is committed while the channel's task renders and sends its announcement, in order,
marking the outbox entry sent after it went out; a delivery cut short at close goes out once at the next
start."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from go_fakes import GO_CHANNEL, GoHarness
from service_fakes import ALICE, BOB, GatedNotifier, RecordingNotifier, first_post_started

import bot.host.delivery
from bot.host.outbox import post_key

PLAYERS = (ALICE, BOB)


@pytest.fixture
async def gated(tmp_path: Path) -> AsyncIterator[GoHarness]:
    """A Go game of Alice (Black) and Bob on a 9×9 board, announced through a gated notifier."""
    harness = GoHarness(tmp_path / "games.sqlite3", notifier=GatedNotifier())
    await harness.open()
    await harness.new(ALICE, size=9, opponent=BOB.id)
    await harness.go.join(GO_CHANNEL, BOB)
    await harness.go.idle()
    yield harness
    await harness.close()


def gate(harness: GoHarness) -> GatedNotifier:
    assert isinstance(harness.notifier, GatedNotifier)
    return harness.notifier


async def test_a_go_play_is_answered_before_its_announcement_goes_out(gated: GoHarness) -> None:
    notifier = gate(gated)
    notifier.gate.clear()
    notifier.started = 0
    before = len(notifier.posts)
    ack = await gated.go.play(GO_CHANNEL, ALICE.id, "E5")
    assert ack.text == "You played E5."
    assert [str(move) for move in gated.go.game(GO_CHANNEL).moves] == ["B E5"]  # committed and answered...
    (pending,) = await gated.db.pending_outbox()  # ...its announcement durable, not yet sent
    assert pending.data == {"kind": "go", "version": 2, "lines": ["Alice (Black) played E5."]}
    await first_post_started(notifier)
    assert (notifier.started, len(notifier.posts)) == (1, before)
    notifier.gate.set()
    await gated.go.idle()
    assert gated.texts()[before:] == [
        "Alice (Black) played E5.\n"
        "Black: Alice (captured 0) · White: Bob (captured 0)\n"
        "<@12>, your move as White."
    ]
    assert await gated.db.pending_outbox() == []


async def test_go_announcements_behind_their_answers_keep_their_order(gated: GoHarness) -> None:
    notifier = gate(gated)
    notifier.gate.clear()
    notifier.started = 0
    before = len(notifier.posts)
    await gated.moves(PLAYERS, "E5", "D4", "C3")
    await gated.go.request_undo(GO_CHANNEL, ALICE.id)
    await first_post_started(notifier)
    assert notifier.started == 1  # one post at a time: the first waits, the others are queued
    pending = await gated.db.pending_outbox()
    assert [entry.data["version"] for entry in pending] == [2, 3, 4, 5]
    notifier.gate.set()
    await gated.go.idle()
    assert [text.split("\n")[0] for text in gated.texts()[before:]] == [
        "Alice (Black) played E5.",
        "Bob (White) played D4.",
        "Alice (Black) played C3.",
        "Black: Alice (captured 0) · White: Bob (captured 0)",  # the undo question opens with no line
    ]
    # The announcements that waited behind the gated post went out as one post, the newest's. The gated
    # post is the first move's, or a later one's that the first joined, had it been drawn after the next
    # came: all of them, or some first ones, whichever were queued while the first was drawn.
    posts = [message for _, message in notifier.posts[before:]]
    turns = [message.turn or 0 for message in posts]
    assert turns[-1] == 5 and len(turns) <= 2 and turns == sorted(set(turns))
    row = await gated.db.game(pending[0].game_id)
    assert row is not None  # each post has its entry's key: a restart's second try is not made twice
    keys = {entry.data["version"]: post_key(row.id, row.created_at, entry.id, "state") for entry in pending}
    assert [message.key for message in posts] == [keys[message.turn] for message in posts]
    assert await gated.db.pending_outbox() == []


async def test_a_go_announcement_cut_short_at_close_is_delivered_once_at_the_next_start(
    gated: GoHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bot.host.delivery, "CLOSE_GRACE_SECONDS", 0.05)
    notifier = gate(gated)
    notifier.gate.clear()  # Discord never answers
    notifier.started = 0
    await gated.go.play(GO_CHANNEL, ALICE.id, "E5")
    await first_post_started(notifier)
    assert notifier.started == 1
    await gated.close()  # the delivery is cancelled after the grace: its entry stays unsent
    assert gated.texts()[-1].startswith("<@12> joined.\n")

    gated.notifier = RecordingNotifier()
    await gated.open()
    assert gated.texts() == [
        "Alice (Black) played E5.\n"
        "Black: Alice (captured 0) · White: Bob (captured 0)\n"
        "<@12>, your move as White."
    ]
    assert await gated.db.pending_outbox() == []
    await gated.restart()
    assert len(gated.notifier.posts) == 1  # delivered once: not again
