"""Announcements go out behind the answer: a command answers once its change is committed, while the
channel's delivery task renders and sends what it announces, in order, marking the outbox entry sent
after it went out; a delivery cut short is delivered once at the next start. Also the delivery queue
itself (:class:`bot.host.delivery.Deliveries`)."""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from service_fakes import (
    ALICE,
    BOB,
    CHANNEL,
    OTHER_CHANNEL,
    RecordingNotifier,
    find_play,
    first_post_started,
    gated,
    open_harness,
    settle,
    started_game,
    typed,
)

import bot.host.delivery
import bot.host.drawing
from bot.games.scrabble.protocols import BoardHeader
from bot.games.scrabble.text import rack_text
from bot.host.delivery import Deliveries


async def test_a_play_is_answered_before_its_announcement_goes_out(tmp_path: Path) -> None:
    harness = await open_harness(tmp_path)
    notifier = await gated(harness)
    try:
        await started_game(harness)
        notifier.hold()
        before = len(notifier.posts)
        play = find_play(harness.svc.game(CHANNEL), 0)
        assert play is not None
        ack = await harness.svc.play(CHANNEL, ALICE.id, typed(play))
        assert ack.text.startswith("You played ")
        assert harness.svc.game(CHANNEL).current == 1  # committed and answered...
        assert harness.store is not None
        (pending,) = await harness.store.pending_outbox()  # ...its announcement durable, not yet sent
        assert pending.data["move"] == 1
        await first_post_started(notifier)
        assert len(notifier.posts) == before
        notifier.gate.set()
        await harness.svc.idle()
        assert notifier.texts()[before:] == [notifier.texts()[-1]]
        assert notifier.texts()[-1].startswith("Alice played ")
        assert await harness.store.pending_outbox() == []
    finally:
        await harness.close()


async def test_a_busy_channels_announcements_keep_their_order_and_coalesce(tmp_path: Path) -> None:
    harness = await open_harness(tmp_path)
    notifier = await gated(harness)
    try:
        await started_game(harness)
        notifier.hold()
        before, dms_before = len(notifier.posts), len(notifier.dms)
        for seat, user in ((0, ALICE), (1, BOB), (0, ALICE)):
            play = find_play(harness.svc.game(CHANNEL), seat)
            assert play is not None
            # Played from the web board: no answer shows the mover's rack, so each is owed a DM.
            await harness.svc.play(CHANNEL, user.id, typed(play), answered=False)
            await first_post_started(notifier)  # the first is drawn and waits to be posted
        assert notifier.started == 1  # one post at a time: the first waits, the others are queued
        assert harness.store is not None
        assert [entry.data["move"] for entry in await harness.store.pending_outbox()] == [1, 2, 3]
        notifier.gate.set()
        await harness.svc.idle()
        posts = [message for _, message in notifier.posts[before:]]
        # The first was drawn before the others came; the second, with a newer one behind it, is
        # said as its text alone at the top of the newest's post, which shows the board and buttons.
        assert [message.turn for message in posts] == [1, 3]
        assert [len(message.attachments) for message in posts] == [1, 1]
        said, newest = posts[1].text.split("\n\n")
        assert said.startswith("Bob played ") and "\n" not in said
        assert newest.startswith("Alice played ") and posts[1].buttons != ()
        # The racks the first and second were to DM (Alice's, Bob's) go with the third, after it, as
        # they are then: the first had newer announcements behind it once posted. Each rack once.
        game = harness.svc.game(CHANNEL)
        assert [(user, message.text) for user, message in notifier.dms[dms_before:]] == [
            (ALICE.id, rack_text(game.players[0].rack, game.variant, CHANNEL)),
            (BOB.id, rack_text(game.players[1].rack, game.variant, CHANNEL)),
        ]
        assert await harness.store.pending_outbox() == []
    finally:
        await harness.close()


async def test_a_board_still_being_drawn_when_a_newer_turn_comes_is_given_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    harness = await open_harness(tmp_path)
    try:
        await started_game(harness)
        await harness.svc.idle()
        runner = harness.svc.plugin
        drawn: list[int] = []  # the scores in each board's header, as each drawing starts
        gate = threading.Event()

        def board(board: object, last_move: object, header: BoardHeader) -> bytes:
            drawn.append(sum(player.score for player in header.players))
            gate.wait(10)  # the drawing thread is busy with the first board meanwhile
            return b"board"

        monkeypatch.setattr(runner.renderer, "board", board)
        notifier = harness.notifier
        before = len(notifier.posts)
        for seat, user in ((0, ALICE), (1, BOB)):
            play = find_play(harness.svc.game(CHANNEL), seat)
            assert play is not None
            await harness.svc.play(CHANNEL, user.id, typed(play), answered=False)
            while not drawn:  # the first board is being drawn before the second turn comes
                await asyncio.sleep(0.01)
        await settle()
        gate.set()
        await harness.svc.idle()
        posts = [message for _, message in notifier.posts[before:]]
        # Alice's, given up while drawn, is said at the top of Bob's post, which shows the board.
        assert [(message.turn, len(message.attachments)) for message in posts] == [(2, 1)]
        said, newest = posts[0].text.split("\n\n")
        assert said.startswith("Alice played ") and newest.startswith("Bob played ")
        game = harness.svc.game(CHANNEL)
        assert drawn == [game.players[0].score, sum(player.score for player in game.players)]
    finally:
        await harness.close()


async def test_a_turns_board_is_drawn_while_the_channels_earlier_message_goes_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The board of an announcement is drawn from the moment it is queued: Bob's while Alice's turn
    message, drawn and waiting to be posted, still holds the channel. Both then go out whole."""
    harness = await open_harness(tmp_path)
    notifier = await gated(harness)
    try:
        await started_game(harness)
        await harness.svc.idle()
        drawn: list[int] = []  # the scores in each board's header, as each is drawn
        quick = harness.svc.plugin.renderer.board

        def board(board: object, last_move: object, header: BoardHeader) -> bytes:
            drawn.append(sum(player.score for player in header.players))
            return quick(board, last_move, header)  # type: ignore[arg-type]

        monkeypatch.setattr(harness.svc.plugin.renderer, "board", board)
        notifier.hold()
        before = len(notifier.posts)
        for seat, user in ((0, ALICE), (1, BOB)):
            play = find_play(harness.svc.game(CHANNEL), seat)
            assert play is not None
            await harness.svc.play(CHANNEL, user.id, typed(play))
            await first_post_started(notifier)
        for _ in range(500):
            if len(drawn) == 2:
                break
            await asyncio.sleep(0.01)
        game = harness.svc.game(CHANNEL)
        assert drawn == [game.players[0].score, sum(player.score for player in game.players)]
        assert (notifier.started, len(notifier.posts)) == (1, before)  # Alice's still waits
        notifier.gate.set()
        await harness.svc.idle()
        posts = [message for _, message in notifier.posts[before:]]
        assert [text.split(" ")[0] for text in notifier.texts()[before:]] == ["Alice", "Bob"]
        assert [(message.turn, len(message.attachments)) for message in posts] == [(1, 1), (2, 1)]
    finally:
        await harness.close()


async def test_a_rack_dmed_after_an_announcement_is_drawn_ahead_of_the_boards_waiting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The channel's next announcements wait for the DM of a rack after a post: its rack is drawn
    urgently, the announcement's board in turn."""
    harness = await open_harness(tmp_path)
    try:
        await started_game(harness)
        await harness.svc.idle()
        drawn: list[tuple[str, bool]] = []
        draw = bot.host.drawing.DRAWING.draw

        async def recording(render: Callable[..., bytes], *args: object, urgent: bool = False) -> bytes:
            drawn.append((render.__name__, urgent))
            return await draw(render, *args, urgent=urgent)

        monkeypatch.setattr(bot.host.drawing.DRAWING, "draw", recording)
        play = find_play(harness.svc.game(CHANNEL), 0)
        assert play is not None
        await harness.svc.play(CHANNEL, ALICE.id, typed(play), answered=False)  # a web play: rack by DM
        await harness.svc.idle()
        assert drawn == [("board", False), ("rack", True)]
        assert harness.notifier.dms[-1][0] == ALICE.id
    finally:
        await harness.close()


async def test_an_announcement_cut_short_at_close_is_delivered_once_at_the_next_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bot.host.delivery, "CLOSE_GRACE_SECONDS", 0.05)
    harness = await open_harness(tmp_path)
    stuck = await gated(harness)
    await started_game(harness)
    stuck.hold()  # Discord never answers
    play = find_play(harness.svc.game(CHANNEL), 0)
    assert play is not None
    await harness.svc.play(CHANNEL, ALICE.id, typed(play), answered=False)
    await first_post_started(stuck)
    assert stuck.started == 1
    await harness.close()  # the delivery is cancelled after the grace: its entry stays unsent
    assert stuck.texts()[-1].startswith("The game has started.")

    harness.notifier = RecordingNotifier()
    await harness.open()
    assert [text.split(" ")[:2] for text in harness.notifier.texts()] == [["Alice", "played"]]
    assert [user for user, _ in harness.notifier.dms] == [ALICE.id]
    await harness.restart()
    assert len(harness.notifier.posts) == 1  # delivered once: not again
    await harness.close()


async def test_racks_left_to_a_newer_announcement_that_a_close_cut_short_go_out_at_the_next_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bot.host.delivery, "CLOSE_GRACE_SECONDS", 0.05)
    harness = await open_harness(tmp_path)
    notifier = await gated(harness)
    await started_game(harness)
    notifier.hold()
    before, dms_before = len(notifier.posts), len(notifier.dms)
    for seat, user in ((0, ALICE), (1, BOB)):
        play = find_play(harness.svc.game(CHANNEL), seat)
        assert play is not None
        await harness.svc.play(CHANNEL, user.id, typed(play), answered=False)
        await first_post_started(notifier)  # Alice's is drawn and waits to be posted
    notifier.gate.set()
    while len(notifier.posts) == before:  # Alice's goes out, with Bob's queued behind it...
        await asyncio.sleep(0)
    notifier.gate.clear()  # ...which Discord never answers
    assert notifier.texts()[-1].startswith("Alice played ") and notifier.dms[dms_before:] == []
    assert harness.store is not None
    assert [entry.data["move"] for entry in await harness.store.pending_outbox()] == [1, 2]
    assert [entry.posted for entry in await harness.store.pending_outbox()] == [True, False]
    await harness.close()  # Alice's rack was left to Bob's announcement: her entry is posted, not sent

    harness.notifier = RecordingNotifier()
    await harness.open()
    game = harness.svc.game(CHANNEL)
    assert [text.split(" ")[:2] for text in harness.notifier.texts()] == [
        ["Bob", "played"]
    ]  # Alice's not again
    assert [(user, message.text) for user, message in harness.notifier.dms] == [
        (ALICE.id, rack_text(game.players[0].rack, game.variant, CHANNEL)),
        (BOB.id, rack_text(game.players[1].rack, game.variant, CHANNEL)),
    ]
    assert await harness.store.pending_outbox() == []
    await harness.close()


# The queue ------------------------------------------------------------------------------------------


async def test_each_channels_jobs_run_in_order_and_a_stuck_channel_holds_no_other() -> None:
    deliveries = Deliveries()
    done: list[str] = []
    stuck = asyncio.Event()

    def job(name: str, wait: asyncio.Event | None = None) -> bot.host.delivery.Job:
        async def run() -> None:
            if wait is not None:
                await wait.wait()
            await asyncio.sleep(0)
            done.append(name)

        return run

    deliveries.send(CHANNEL, job("a1", stuck))
    deliveries.send(CHANNEL, job("a2"))
    deliveries.send(OTHER_CHANNEL, job("b1"))
    deliveries.send(OTHER_CHANNEL, job("b2"))
    await settle()
    assert done == ["b1", "b2"]
    stuck.set()
    await deliveries.idle()
    assert done == ["b1", "b2", "a1", "a2"]


async def test_a_failing_job_is_logged_and_the_next_runs(caplog: pytest.LogCaptureFixture) -> None:
    deliveries = Deliveries()
    done: list[int] = []

    async def fails() -> None:
        raise RuntimeError("Discord is down")

    async def queues_another() -> None:
        done.append(1)
        deliveries.send(CHANNEL, works)

    async def works() -> None:
        done.append(2)

    deliveries.send(CHANNEL, fails)
    deliveries.send(CHANNEL, queues_another)
    with caplog.at_level(logging.ERROR, "bot.host"):
        await deliveries.idle()  # the job queued while the channel's task ran included
    assert done == [1, 2]
    assert f"a delivery in channel {CHANNEL} failed" in caplog.text
    assert "RuntimeError: Discord is down" in caplog.text


async def test_close_waits_for_quick_jobs_and_cancels_stuck_ones(caplog: pytest.LogCaptureFixture) -> None:
    deliveries = Deliveries()
    done: list[str] = []
    cancelled = asyncio.Event()

    async def quick() -> None:
        await asyncio.sleep(0.01)
        done.append("quick")

    async def stuck() -> None:
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            cancelled.set()
            raise

    deliveries.send(CHANNEL, quick)
    deliveries.send(OTHER_CHANNEL, stuck)
    with caplog.at_level(logging.WARNING, "bot.host"):
        await deliveries.close(0.2)
    assert done == ["quick"]
    assert cancelled.is_set()
    assert "1 channels' deliveries cancelled at close" in caplog.text
    await deliveries.idle()  # nothing left
