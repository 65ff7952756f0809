"""Announcements a crash left unsent, of a game that has moved on since: each still goes out once, in
order, as its text (its board is no longer the game's), and every seat whose rack it was to DM gets
its current rack once (found by issue 14's combined fault test: the start of a game killed with its
first moves unsent was dropped, and the second player never got a rack)."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest
from service_fakes import (
    ALICE,
    BOB,
    CHANNEL,
    CREATOR_FIRST_SEED,
    GUILD,
    GatedNotifier,
    Harness,
    RecordingNotifier,
    find_play,
    first_post_started,
    gated,
    lose_outbox_marks,
    open_harness,
    settle,
    typed,
)

import bot.host.delivery
from bot.games.scrabble.commands import NewGame
from bot.games.scrabble.text import rack_text
from bot.host.messages import Message
from bot.host.outbox import post_key


async def start_and_play_held(harness: Harness) -> tuple[GatedNotifier, int]:
    """Alice's game with Bob, started and her first play made while Discord stops answering posts:
    the gated notifier (the start's post waiting at its gate) and the number of lobby posts before."""
    stuck = await gated(harness)
    await harness.svc.new_game(GUILD, CHANNEL, ALICE, NewGame(seed=CREATOR_FIRST_SEED))
    await harness.svc.join(CHANNEL, BOB)
    await harness.svc.idle()
    lobby = len(stuck.posts)
    stuck.hold()
    await harness.svc.start_game(CHANNEL, ALICE.id)
    await first_post_started(stuck)  # drawn: a play queued while it was drawn would supersede it
    play = find_play(harness.svc.game(CHANNEL), 0)
    assert play is not None
    await harness.svc.play(CHANNEL, ALICE.id, typed(play), answered=False)  # from the web: rack by DM
    await settle()
    return stuck, lobby


def outbox_marks(harness: Harness) -> list[tuple[int, int]]:
    """Whether each outbox entry, oldest first, is marked posted and sent (1 or 0), read from the file."""
    with sqlite3.connect(harness.path) as db:
        return db.execute(
            "SELECT posted_at IS NOT NULL, sent_at IS NOT NULL FROM outbox ORDER BY id"
        ).fetchall()


async def test_out_of_date_announcements_go_out_as_text_and_every_owed_rack_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bot.host.delivery, "CLOSE_GRACE_SECONDS", 0.05)
    harness = await open_harness(tmp_path)
    stuck, lobby = await start_and_play_held(harness)  # the start and the play stay unsent
    await harness.close()
    assert len(stuck.posts) == lobby and stuck.dms == []

    harness.notifier = RecordingNotifier()
    await harness.open()
    await harness.svc.idle()
    # The start, whose board is no longer the game's, is said as its text at the top of the play's post.
    [(_, turn)] = harness.notifier.posts
    start, play = turn.text.split("\n\n")
    assert start.startswith("The game has started.\nDraw for the first turn: ") and "Scores" not in start
    assert play.startswith("Alice played ") and turn.attachments != () and turn.buttons != ()
    assert sorted(user for user, _ in harness.notifier.dms) == sorted([ALICE.id, BOB.id])  # once each
    assert harness.store is not None
    assert await harness.store.pending_outbox() == []
    await harness.restart()
    assert len(harness.notifier.posts) == 1  # delivered once: not again
    await harness.close()


async def test_an_announcement_posted_before_a_crash_is_not_posted_again_and_its_racks_go_out_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Found by issue 15's kill -9 test: a restart posted the start of a game a second time, as its text,
    # when its post had gone out and the racks it left to the next announcement had not.
    monkeypatch.setattr(bot.host.delivery, "CLOSE_GRACE_SECONDS", 0.05)
    harness = await open_harness(tmp_path)
    stuck, lobby = await start_and_play_held(harness)  # the start waits to be posted, the play behind it
    stuck.gate.set()
    while len(stuck.posts) == lobby:
        await asyncio.sleep(0)
    stuck.gate.clear()  # the start went out; Discord never answers the play's post
    await first_post_started(stuck, 2)
    await harness.close()
    assert [message.text.split("\n")[0] for _, message in stuck.posts[lobby:]] == ["The game has started."]
    assert stuck.dms == []  # the start left its racks to the play
    outbox = outbox_marks(harness)
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
    monkeypatch.setattr(bot.host.delivery, "CLOSE_GRACE_SECONDS", 0.05)
    harness = await open_harness(tmp_path)
    await harness.svc.new_game(GUILD, CHANNEL, ALICE, NewGame(seed=CREATOR_FIRST_SEED))
    await harness.svc.join(CHANNEL, BOB)
    await harness.svc.start_game(CHANNEL, ALICE.id)
    await harness.svc.idle()
    assert harness.store is not None
    game = harness.svc.game(CHANNEL)
    play = find_play(game, 0)
    assert play is not None
    await harness.svc.play(CHANNEL, ALICE.id, typed(play), answered=False)  # from the web: rack by DM
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


class HeldDms(GatedNotifier):
    """A :class:`GatedNotifier` whose DMs wait at :attr:`dm_gate` (set: they go through)."""

    def __init__(self) -> None:
        super().__init__()
        self.dm_gate = asyncio.Event()
        self.dm_gate.set()
        self.dms_started = 0

    async def direct(self, user_id: int, message: Message) -> bool:
        self.dms_started += 1
        await self.dm_gate.wait()
        return await super().direct(user_id, message)


async def test_racks_owed_to_an_announcement_with_none_of_its_own_survive_a_crash_during_their_dm(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Found in review: Bob's pass (no rack of its own) was marked sent before it DMed the rack Alice's
    # play left to it, so a crash then made the restart take Alice's entry for one that went out.
    monkeypatch.setattr(bot.host.delivery, "CLOSE_GRACE_SECONDS", 0.05)
    harness = await open_harness(tmp_path)
    held = HeldDms()
    harness.notifier = held
    await harness.restart()
    await harness.svc.new_game(GUILD, CHANNEL, ALICE, NewGame(seed=CREATOR_FIRST_SEED))
    await harness.svc.join(CHANNEL, BOB)
    await harness.svc.start_game(CHANNEL, ALICE.id)
    await harness.svc.idle()
    posts = len(held.posts)
    held.hold()
    held.dm_gate.clear()
    held.dms_started = 0
    play = find_play(harness.svc.game(CHANNEL), 0)
    assert play is not None
    await harness.svc.play(CHANNEL, ALICE.id, typed(play), answered=False)  # from the web: rack by DM
    # Bob passes once Alice's play waits to be posted: queued while her board was still being drawn,
    # his pass would supersede her play, and both would go out in one post.
    await first_post_started(held)
    await harness.svc.pass_turn(CHANNEL, BOB.id)
    held.gate.set()
    for _ in range(2000):  # both go out; then Alice's rack is DMed, and never arrives
        if held.dms_started:
            break
        await asyncio.sleep(0.01)
    assert [message.text.split("\n")[0] for _, message in held.posts[posts:]] == [
        held.posts[posts][1].text.split("\n")[0],
        "Bob passed.",
    ]
    assert held.posts[posts][1].text.startswith("Alice played ")
    await harness.close()
    outbox = outbox_marks(harness)
    assert outbox[-2:] == [(1, 0), (1, 0)]  # both posted, neither sent: the rack is still owed

    harness.notifier = RecordingNotifier()
    await harness.open()
    await harness.svc.idle()
    assert harness.notifier.posts == []  # nothing is posted again
    game = harness.svc.game(CHANNEL)
    assert [(user, message.text) for user, message in harness.notifier.dms] == [
        (ALICE.id, rack_text(game.players[0].rack, game.variant, CHANNEL))
    ]
    assert harness.store is not None
    assert await harness.store.pending_outbox() == []
    await harness.close()


@pytest.mark.parametrize("move", ["play", "resign"])
async def test_an_announcement_posted_again_after_a_crash_has_the_key_of_its_first_post(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, move: str
) -> None:
    """The process dies between an announcement's posts and the mark of its entry (a kill -9 there): the
    next start posts them again, each with the key of its first post (on Discord its nonce: the message
    is not made twice); each post has a key of its own. Posted again together, the start is said at the
    top of the newer post, which has that post's key (Discord keeps the message it made first)."""
    harness = await open_harness(tmp_path)
    try:
        await harness.svc.new_game(GUILD, CHANNEL, ALICE, NewGame(seed=CREATOR_FIRST_SEED))
        await harness.svc.join(CHANNEL, BOB)
        await harness.svc.idle()
        lobby = len(harness.notifier.posts)
        assert harness.store is not None
        lose_outbox_marks(monkeypatch, harness.store)
        await harness.svc.start_game(CHANNEL, ALICE.id)
        await harness.svc.delivered()  # posted before the move: it would otherwise join the move's post
        if move == "play":
            play = find_play(harness.svc.game(CHANNEL), 0)
            assert play is not None
            await harness.svc.play(CHANNEL, ALICE.id, typed(play))
            openings = ["The game has started.", "Alice played"]
        else:
            await harness.svc.resign(CHANNEL, ALICE.id)
            openings = ["The game has started.", "Alice resigned.\nGame over: Bob (<@12>) wins."]
        await harness.svc.idle()
        first = [message for _, message in harness.notifier.posts[lobby:]]
        assert [
            message.text[: len(opening)] for message, opening in zip(first, openings, strict=True)
        ] == openings
        assert outbox_marks(harness) == [(0, 0), (0, 0)]

        await harness.restart()
        await harness.svc.idle()
        [again] = [message for _, message in harness.notifier.posts[lobby + len(first) :]]
        start, newest = again.text.split("\n\n")
        assert start.startswith(openings[0]) and newest == first[1].text
        keys = [message.key for message in first]
        assert again.key == keys[1]
        assert None not in keys and len(set(keys)) == len(keys)
        assert [sent for _, sent in outbox_marks(harness)] == [1, 1]
    finally:
        await harness.close()


def test_a_posts_key_is_stable_and_names_its_game_its_entry_and_its_part() -> None:
    key = post_key(1, 1.5, 3, "turn")
    assert key == "beb167557c18d6f453cf"  # the keys of posts made before an upgrade stay the same
    others = [post_key(2, 1.5, 3, "turn"), post_key(1, 1.25, 3, "turn"), post_key(1, 1.5, 4, "turn")]
    others.append(post_key(1, 1.5, 3, "end"))  # a new database's game 1, created at another time, too
    assert len({key, *others}) == 5
