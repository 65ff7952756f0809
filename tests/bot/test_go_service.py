"""The Go service over a real SQLite file: lobby, play, refusals, undo with consent, the dead-stone
phase, the result with its breakdown, stats, SGF, timers and the AI's turns."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from go_fakes import GO_CHANNEL, GoHarness, ScriptedGoAi
from service_fakes import ALICE, BOB, CAROL, GUILD, settle

from bot.games.go.buttons import GoButton
from bot.games.go.errors import GoMoveError, UndoError
from bot.games.go.options import GoNewGame
from bot.games.go.sgf import import_sgf
from bot.host.errors import (
    AlreadySeatedError,
    GameNotStartedError,
    GameStartedError,
    NoGameError,
    NotAllowedError,
    NotSeatedError,
    OptionError,
    StaleTurnError,
)
from bot.host.runner import THINKING_NOTICE_AFTER
from go_core import Phase
from go_core.handicap import handicap_points, max_handicap

PLAYERS = (ALICE, BOB)
TURN_BUTTONS = (GoButton.PLAY, GoButton.PASS, GoButton.UNDO, GoButton.RESIGN)
SCORING_BUTTONS = (GoButton.ACCEPT_SCORE, GoButton.RESUME, GoButton.UNDO, GoButton.RESIGN)


@pytest.fixture
async def harness(tmp_path: Path) -> AsyncIterator[GoHarness]:
    harness = GoHarness(tmp_path / "games.sqlite3")
    await harness.open()
    yield harness
    await harness.close()


async def test_a_game_between_members_starts_when_the_invited_member_joins(harness: GoHarness) -> None:
    ack = await harness.go.new_game(GUILD, GO_CHANNEL, ALICE, GoNewGame(size=5, komi=0.5, opponent=BOB.id))
    assert ack.private
    assert ack.text == "Your Go game is open: it starts when the member you invited presses Join."
    await harness.go.delivered()
    _, lobby = harness.notifier.posts[-1]
    assert lobby.text == (
        "<@11> opened a Go game (5×5, komi 0.5, area scoring, no time limit) and plays Black.\n"
        "<@12> is invited to play White."
    )
    assert (lobby.buttons, lobby.game, lobby.mentions) == ((GoButton.JOIN, GoButton.CANCEL), 1, (11, 12))
    with pytest.raises(NotAllowedError, match=r"^This game waits for <@12>: only they can join it$"):
        await harness.go.join(GO_CHANNEL, CAROL)
    with pytest.raises(AlreadySeatedError):
        await harness.go.join(GO_CHANNEL, ALICE)
    with pytest.raises(
        GameNotStartedError,
        match=r"^The Go game has not started yet: it starts when an opponent joins with /go join$",
    ):
        await harness.go.play(GO_CHANNEL, ALICE.id, "C3")
    assert (await harness.go.join(GO_CHANNEL, BOB)).text == "You joined the game."
    await harness.go.delivered()
    _, started = harness.notifier.posts[-1]
    assert started.text == (
        "<@12> joined.\nBlack: Alice (captured 0) · White: Bob (captured 0)\n<@11>, your move as Black."
    )
    assert (started.buttons, started.turn, started.mentions) == (TURN_BUTTONS, 1, (11,))
    assert [a.filename for a in started.attachments] == ["go-1-1.png"]
    assert started.attachments[0].data == b"Alice-Bob-0"


async def test_a_game_between_members_is_counted_after_the_dead_stones_are_agreed(harness: GoHarness) -> None:
    harness.ai.dead = ["E5"]
    await harness.new(ALICE, size=5, komi=0.5, opponent=BOB.id)
    await harness.go.join(GO_CHANNEL, BOB)
    await harness.moves(PLAYERS, "C3", "A1", "A2", "E5", "B1")
    await harness.go.delivered()
    assert harness.texts()[-1] == (
        "Alice (Black) played B1, capturing 1 stone.\n"
        "Black: Alice (captured 1) · White: Bob (captured 0)\n"
        "<@12>, your move as White."
    )
    await harness.go.pass_turn(GO_CHANNEL, BOB.id)
    await harness.go.delivered()
    assert harness.texts()[-1].startswith("Bob (White) passed.\n")
    await harness.go.play(GO_CHANNEL, ALICE.id, "pass")
    await harness.go.delivered()
    _, scoring = harness.notifier.posts[-1]
    assert scoring.text == (
        "Alice (Black) passed.\n"
        "Black: Alice (captured 1) · White: Bob (captured 0)\n"
        "Both players passed. Dead stones marked (the test AI proposed them): E5.\n"
        "Mark or unmark a group with /go dead <point>, then accept the count once it is right, or resume play.\n"
        "Count as marked: Black 25 (stones 3 + territory 22), White 0.5 (stones 0 + territory 0 + komi 0.5): "
        "Black wins by 24.5"
    )
    assert scoring.buttons == SCORING_BUTTONS
    with pytest.raises(
        GoMoveError, match=r"^Both players passed: accept the dead stones, mark groups, or resume"
    ):
        await harness.go.play(GO_CHANNEL, BOB.id, "D4")

    await harness.go.toggle_dead(GO_CHANNEL, BOB.id, "e5")
    await harness.go.delivered()
    assert harness.texts()[-1].startswith(
        "Bob (White) marked the group at E5 (1 stone) alive.\n"
        "Black: Alice (captured 1) · White: Bob (captured 0)\n"
        "Both players passed. Dead stones marked (changed from the test AI's proposal): none.\n"
    )
    await harness.go.accept_score(GO_CHANNEL, BOB.id)
    await harness.go.delivered()
    assert harness.texts()[-1].endswith("\nAccepted by: White.")
    await harness.go.toggle_dead(GO_CHANNEL, ALICE.id, "E5")  # withdraws White's acceptance
    await harness.go.delivered()
    assert harness.texts()[-1].endswith(  # back to the proposal; White's acceptance withdrawn
        "Both players passed. Dead stones marked (the test AI proposed them): E5.\n"
        "Mark or unmark a group with /go dead <point>, then accept the count once it is right, or resume play.\n"
        "Count as marked: Black 25 (stones 3 + territory 22), White 0.5 (stones 0 + territory 0 + komi 0.5): "
        "Black wins by 24.5"
    )
    version = harness.notifier.posts[-1][1].turn
    await harness.go.accept_score(GO_CHANNEL, ALICE.id, turn=version)
    await harness.go.accept_score(GO_CHANNEL, BOB.id)
    await harness.go.delivered()
    _, final = harness.notifier.posts[-1]
    assert final.text.split("\n\n")[-1] == (
        "Bob (White) accepted the count.\n"
        "Black: Alice (captured 1) · White: Bob (captured 0)\n"
        "Game over: Alice (Black) wins against Bob (White) by 24.5 points.\n"
        "Black 25 (stones 3 + territory 22), White 0.5 (stones 0 + territory 0 + komi 0.5): Black wins by 24.5"
    )
    assert final.buttons == ()
    assert not harness.go.has_game(GO_CHANNEL)
    row = await harness.db.last_finished_game(GO_CHANNEL, "go")
    assert row is not None and row.state is not None
    assert row.state["game"]["dead"] == ["E5"]
    log = await harness.db.log(row.id)
    assert [(entry.kind, entry.seat) for entry in log] == [
        ("created", 0), ("started", 1),
        ("play", 0), ("play", 1), ("play", 0), ("play", 1), ("play", 0), ("pass", 1), ("pass", 0),
        ("dead", 1), ("accept", 1), ("dead", 0), ("accept", 0), ("accept", 1),
    ]  # fmt: skip
    assert log[-1].data == {"version": 13, "lines": ["Bob (White) accepted the count."]}
    alice = await harness.db.stats(GUILD, "go", ALICE.id)
    bob = await harness.db.stats(GUILD, "go", BOB.id)
    assert alice is not None and (alice.games, alice.wins, alice.draws) == (1, 1, 0)
    assert bob is not None and (bob.games, bob.wins, bob.draws) == (1, 0, 0)
    stats = await harness.go.stats(GUILD, BOB)
    assert stats.text.startswith("Go in this server, Bob: 1 game, 0 won, 1 lost, 0 drawn.\nGo: Rating -1.8 ")
    record = await harness.go.export_sgf(GO_CHANNEL)  # the last game that ended here
    assert record.private and record.attachments[0].filename == "go-1.sgf"
    imported = import_sgf(record.attachments[0].data.decode())
    assert (imported.black, imported.white) == ("Alice", "Bob")
    assert [str(move) for move in imported.game.moves] == [
        "B C3", "W A1", "B A2", "W E5", "B B1", "W pass", "B pass",
    ]  # fmt: skip


async def test_the_engine_refuses_with_its_message_and_nothing_changes(harness: GoHarness) -> None:
    await harness.new(ALICE, size=5, opponent=BOB.id)
    await harness.go.join(GO_CHANNEL, BOB)
    await harness.moves(PLAYERS, "C3", "D4")
    before = harness.go.game(GO_CHANNEL).to_dict()
    log = await harness.db.log(1)
    await harness.go.delivered()
    posts = len(harness.notifier.posts)
    refusals = [
        (ALICE, "C3", r"^C3 is already occupied$"),
        (BOB, "B2", r"^It is Black's turn$"),
        (ALICE, "F1", r"^F1 is off the board: this board is 5×5$"),
        (ALICE, "hello", r"'hello'"),
    ]
    for user, point, message in refusals:
        with pytest.raises(GoMoveError, match=message):
            await harness.go.play(GO_CHANNEL, user.id, point)
    with pytest.raises(NotSeatedError):
        await harness.go.play(GO_CHANNEL, CAROL.id, "D4")
    with pytest.raises(StaleTurnError):
        await harness.go.play(GO_CHANNEL, ALICE.id, "D4", turn=1)
    with pytest.raises(NoGameError, match=r"^That game is over$"):
        await harness.go.play(GO_CHANNEL, ALICE.id, "D4", game_id=99)
    assert harness.go.game(GO_CHANNEL).to_dict() == before
    assert await harness.db.log(1) == log
    await harness.go.delivered()
    assert len(harness.notifier.posts) == posts


async def test_self_capture_and_ko_are_refused(harness: GoHarness) -> None:
    await harness.new(ALICE, size=5, opponent=BOB.id)
    await harness.go.join(GO_CHANNEL, BOB)
    await harness.moves(PLAYERS, "A1", "B1", "B2", "C2", "E5", "D1", "C1")  # Black C1 takes B1
    await harness.go.delivered()
    assert harness.texts()[-1].startswith("Alice (Black) played C1, capturing 1 stone.\n")
    with pytest.raises(
        GoMoveError,
        match=r"^B1 is not allowed by the ko: retaking at once repeats the position, play elsewhere first$",
    ):
        await harness.go.play(GO_CHANNEL, BOB.id, "B1")
    await harness.go.play(GO_CHANNEL, BOB.id, "E2")
    with pytest.raises(GoMoveError, match=r"^E1 is self-capture: the stone would have no liberties$"):
        await harness.go.play(GO_CHANNEL, ALICE.id, "E1")
    game = harness.go.game(GO_CHANNEL)
    assert (game.phase, len(game.moves), game.to_move.title) == (Phase.PLAY, 8, "Black")


async def test_undo_needs_the_opponents_consent(harness: GoHarness) -> None:
    await harness.new(ALICE, size=5, opponent=BOB.id)
    await harness.go.join(GO_CHANNEL, BOB)
    await harness.moves(PLAYERS, "C3", "D4")
    with pytest.raises(UndoError, match=r"^Nobody asked to take back a move$"):
        await harness.go.answer_undo(GO_CHANNEL, ALICE.id, True)
    ack = await harness.go.request_undo(GO_CHANNEL, ALICE.id)
    assert ack.text == "You asked to take back your move: your opponent answers."
    await harness.go.delivered()
    _, question = harness.notifier.posts[-1]
    assert question.text.split("\n\n")[-1] == (
        "Black: Alice (captured 0) · White: Bob (captured 0)\n"
        "<@12>, Alice asked to take back Black's C3 and White's D4: do you accept?"
    )
    assert (question.buttons, question.mentions) == ((GoButton.UNDO_ACCEPT, GoButton.UNDO_REFUSE), (12,))
    with pytest.raises(UndoError, match=r"^Your opponent answers your request, not you$"):
        await harness.go.answer_undo(GO_CHANNEL, ALICE.id, True)
    with pytest.raises(UndoError, match=r"^A request to take back a move is already waiting for an answer$"):
        await harness.go.request_undo(GO_CHANNEL, ALICE.id)
    await harness.go.answer_undo(GO_CHANNEL, BOB.id, False, turn=question.turn)
    await harness.go.delivered()
    assert harness.texts()[-1].startswith("Bob (White) refused to take back the move.\n")
    assert len(harness.go.game(GO_CHANNEL).moves) == 2

    await harness.go.request_undo(GO_CHANNEL, BOB.id)  # White's last move only
    await harness.go.answer_undo(GO_CHANNEL, ALICE.id, True)
    await harness.go.delivered()
    assert harness.texts()[-1] == (
        "Alice (Black) accepted: White's D4 taken back.\n"
        "Black: Alice (captured 0) · White: Bob (captured 0)\n"
        "<@12>, your move as White."
    )
    assert [str(move) for move in harness.go.game(GO_CHANNEL).moves] == ["B C3"]
    with pytest.raises(UndoError, match=r"^You have no move to take back$"):
        await harness.go.request_undo(GO_CHANNEL, BOB.id)


async def test_a_question_to_undo_is_dropped_by_the_next_move(harness: GoHarness) -> None:
    await harness.new(ALICE, size=5, opponent=BOB.id)
    await harness.go.join(GO_CHANNEL, BOB)
    await harness.moves(PLAYERS, "C3")
    await harness.go.request_undo(GO_CHANNEL, ALICE.id)
    await harness.go.delivered()
    question = harness.notifier.posts[-1][1]
    await harness.go.play(GO_CHANNEL, BOB.id, "D4")  # plays on instead of answering
    with pytest.raises(StaleTurnError):
        await harness.go.answer_undo(GO_CHANNEL, BOB.id, True, turn=question.turn)
    with pytest.raises(UndoError, match=r"^Nobody asked to take back a move$"):
        await harness.go.answer_undo(GO_CHANNEL, BOB.id, True)


async def test_against_the_ai(harness: GoHarness) -> None:
    harness.ai.moves = ["D4", "resign"]
    ack = await harness.go.new_game(GUILD, GO_CHANNEL, ALICE, GoNewGame(size=9, ai_level="hard", seed=5))
    assert ack.text == "Your game against the AI (hard) has started."
    await harness.go.delivered()
    assert harness.texts()[-1] == (
        "<@11> plays the AI (hard).\n"
        "Black: Alice (captured 0) · White: AI (captured 0)\n"
        "<@11>, your move as Black."
    )
    harness.ai.gate = asyncio.Event()  # the AI thinks until told
    posts = len(harness.notifier.posts)
    await harness.go.play(GO_CHANNEL, ALICE.id, "E5")
    await settle()
    await harness.clock.advance(THINKING_NOTICE_AFTER)
    assert harness.notifier.typings == [GO_CHANNEL]  # the channel sees the bot typing
    assert len(harness.notifier.posts) == posts  # Alice's move waits for the AI's
    harness.ai.gate.set()
    await harness.go.idle()
    ((_, both),) = harness.notifier.posts[posts:]  # one post says both moves
    assert both.text == (
        "Alice (Black) played E5.\n\n"
        "AI (White) played D4.\n"
        "Black: Alice (captured 0) · White: AI (captured 0)\n"
        "<@11>, your move as Black."
    )
    assert (both.buttons, both.turn) == (TURN_BUTTONS, 3)
    await harness.go.request_undo(GO_CHANNEL, ALICE.id)  # the AI agrees at once
    await harness.go.delivered()
    assert harness.texts()[-1].startswith("Alice (Black) took back White's D4 and Black's E5.\n")
    assert harness.go.game(GO_CHANNEL).moves == ()
    await harness.go.play(GO_CHANNEL, ALICE.id, "C3")
    await harness.go.idle()
    assert harness.texts()[-1] == (
        "AI (White) resigned.\n"
        "Black: Alice (captured 0) · White: AI (captured 0)\n"
        "Game over: Alice (Black) wins against AI (White, resigned)."
    )
    levels = {level for level, _ in harness.ai.calls}
    assert [str(level) for level in levels] == ["hard"]
    assert len({seed for _, seed in harness.ai.calls}) == 2  # a seed per version
    alice = await harness.db.stats(GUILD, "go", ALICE.id)
    assert alice is not None and (alice.games, alice.wins) == (1, 1)


async def test_the_ai_accepts_only_its_own_proposal(harness: GoHarness) -> None:
    harness.ai.dead = []
    await harness.new(ALICE, size=5, ai_level="easy")
    await harness.go.pass_turn(GO_CHANNEL, ALICE.id)
    await harness.go.idle()  # the AI passes too
    assert harness.texts()[-1].endswith("\nAccepted by: White.")
    await harness.go.accept_score(GO_CHANNEL, ALICE.id)
    await harness.go.delivered()
    assert harness.texts()[-1].endswith(
        "Game over: AI (White) wins against Alice (Black) by 7.5 points.\n"
        "Black 0 (stones 0 + territory 0), White 7.5 (stones 0 + territory 0 + komi 7.5): White wins by 7.5"
    )


async def test_resume_play_after_the_passes(harness: GoHarness) -> None:
    await harness.new(ALICE, size=5, opponent=BOB.id)
    await harness.go.join(GO_CHANNEL, BOB)
    await harness.go.pass_turn(GO_CHANNEL, ALICE.id)
    await harness.go.pass_turn(GO_CHANNEL, BOB.id)
    await harness.go.resume(GO_CHANNEL, BOB.id)
    await harness.go.delivered()
    assert harness.texts()[-1] == (
        "Bob (White) resumed play.\n"
        "Black: Alice (captured 0) · White: Bob (captured 0)\n"
        "<@11>, your move as Black."
    )
    with pytest.raises(GoMoveError, match=r"^Dead stones are marked after both players pass$"):
        await harness.go.toggle_dead(GO_CHANNEL, BOB.id, "C3")


async def test_the_last_pass_can_be_taken_back_with_consent(harness: GoHarness) -> None:
    await harness.new(ALICE, size=5, opponent=BOB.id)
    await harness.go.join(GO_CHANNEL, BOB)
    await harness.moves(PLAYERS, "C3")
    await harness.go.pass_turn(GO_CHANNEL, BOB.id)
    await harness.go.pass_turn(GO_CHANNEL, ALICE.id)
    await harness.go.request_undo(GO_CHANNEL, ALICE.id)
    await harness.go.answer_undo(GO_CHANNEL, BOB.id, True)
    await harness.go.delivered()
    assert harness.texts()[-1] == (
        "Bob (White) accepted: Black's pass taken back.\n"
        "Black: Alice (captured 0) · White: Bob (captured 0)\n"
        "<@11>, your move as Black."
    )
    game = harness.go.game(GO_CHANNEL)
    assert (game.phase, game.passes, [str(move) for move in game.moves]) == (
        Phase.PLAY,
        1,
        ["B C3", "W pass"],
    )


async def test_a_move_that_runs_out_of_time_loses_even_across_a_restart(harness: GoHarness) -> None:
    await harness.new(ALICE, size=9, opponent=BOB.id, time_limit=60)
    await harness.go.join(GO_CHANNEL, BOB)
    await harness.go.delivered()
    assert harness.texts()[-1].endswith("<@11>, your move as Black (60 seconds).")
    await harness.clock.advance(50)
    await harness.go.play(GO_CHANNEL, ALICE.id, "E5")  # a move re-arms the timer
    await harness.go.delivered()
    await harness.clock.advance(50)
    assert harness.go.has_game(GO_CHANNEL)
    await harness.restart()
    await harness.clock.advance(20)  # 70 seconds into White's move
    await harness.go.idle()
    assert harness.texts()[-1] == (
        "Bob (White) ran out of time.\n"
        "Black: Alice (captured 0) · White: Bob (captured 0)\n"
        "Game over: Alice (Black) wins against Bob (White, timed out)."
    )
    assert not harness.go.has_game(GO_CHANNEL)
    assert [entry.kind for entry in await harness.db.log(1)][-1] == "timeout"


async def test_the_player_to_move_is_reminded_once_before_the_deadline(harness: GoHarness) -> None:
    harness.reminder_left = 0.25
    await harness.restart()
    await harness.new(ALICE, size=9, opponent=BOB.id, time_limit=100)
    await harness.go.join(GO_CHANNEL, BOB)
    await harness.clock.advance(74)
    await harness.go.delivered()
    assert harness.texts()[-1] == (  # no reminder yet
        "<@12> joined.\nBlack: Alice (captured 0) · White: Bob (captured 0)\n<@11>, your move as Black (100 seconds)."
    )
    await harness.clock.advance(1)
    await harness.go.idle()
    _, reminder = harness.notifier.posts[-1]
    assert (reminder.text, reminder.mentions) == ("<@11>, it is your move: 25 seconds left.", (11,))
    await harness.restart()  # reminded already: not again
    await harness.clock.advance(24)
    await harness.go.delivered()
    assert harness.texts()[-1] == "<@11>, it is your move: 25 seconds left."
    await harness.clock.advance(1)
    await harness.go.idle()
    assert harness.texts()[-1].endswith("Game over: Bob (White) wins against Alice (Black, timed out).")
    assert [entry.kind for entry in await harness.db.log(1)][-2:] == ["reminder", "timeout"]


async def test_a_restart_resumes_the_game_exactly(harness: GoHarness) -> None:
    await harness.new(ALICE, size=9, opponent=BOB.id, komi=6.5, handicap=2)
    await harness.go.join(GO_CHANNEL, BOB)
    await harness.moves(PLAYERS, "E5", "D4", "F5")  # White moves first with a handicap
    before = harness.go.game(GO_CHANNEL).to_dict()
    await harness.go.delivered()
    version = harness.notifier.posts[-1][1].turn
    await harness.restart()
    assert harness.go.game(GO_CHANNEL).to_dict() == before
    message = await harness.go.board(GO_CHANNEL, public=True)
    assert (message.turn, message.mentions, message.private) == (version, (), False)
    await harness.go.play(GO_CHANNEL, ALICE.id, "B2", turn=version)
    assert len(harness.go.game(GO_CHANNEL).moves) == 4


async def test_an_announcement_a_crash_left_unsent_goes_out_at_start(
    harness: GoHarness, tmp_path: Path
) -> None:
    class NoMarks(type(harness.db)):  # type: ignore[misc]
        async def mark_sent(self, entry_id: int, at: float) -> None:
            raise OSError("the process died before marking it sent")

    await harness.restart(NoMarks)
    await harness.new(ALICE, size=5, opponent=BOB.id)
    await harness.go.join(GO_CHANNEL, BOB)
    await harness.go.play(GO_CHANNEL, ALICE.id, "C3")
    await harness.go.delivered()
    posted = harness.texts()[-1]
    key = harness.notifier.posts[-1][1].key
    count = len(harness.notifier.posts)
    await harness.restart()
    # The start and the move were never marked sent: the start, which the game moved on from, is coalesced
    # with the move into one post as every game's announcements are (what happened, then the move in
    # full), under the move's key (Discord makes no second message of it).
    await harness.go.delivered()
    assert len(harness.notifier.posts) == count + 1
    assert harness.texts()[-2:] == ["<@12> joined.", posted]
    assert harness.notifier.posts[-1][1].key == key
    assert await harness.db.pending_outbox() == []
    await harness.restart()
    assert len(harness.notifier.posts) == count + 1


async def test_cancel_and_resign(harness: GoHarness) -> None:
    await harness.new(ALICE, size=9)
    with pytest.raises(NotAllowedError, match=r"^Only the game's creator \(or a moderator\) can cancel it$"):
        await harness.go.cancel(GO_CHANNEL, BOB.id)
    assert (await harness.go.cancel(GO_CHANNEL, ALICE.id)).text == "You cancelled the game."
    await harness.go.delivered()
    assert harness.texts()[-1] == "<@11> cancelled the Go game."
    with pytest.raises(NoGameError, match=r"^There is no Go game in this channel: start one with /go new$"):
        await harness.go.board(GO_CHANNEL)
    await harness.new(ALICE, size=9)
    await harness.go.join(GO_CHANNEL, CAROL)  # an open game: anyone joins
    with pytest.raises(GameStartedError, match=r"^This game has already started: use /go resign to end it$"):
        await harness.go.cancel(GO_CHANNEL, ALICE.id)
    await harness.go.resign(GO_CHANNEL, CAROL.id)
    await harness.go.delivered()
    assert harness.texts()[-1].endswith("Game over: Alice (Black) wins against Carol (White, resigned).")
    carol = await harness.db.stats(GUILD, "go", CAROL.id)
    assert carol is not None and (carol.games, carol.wins) == (1, 0)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (GoNewGame(size=1), "^The board size must be between 2 and 25$"),
        (GoNewGame(size=7, handicap=5), "^A handicap on 7×7 is 2 to 4 stones, not 5$"),
        (GoNewGame(size=5, handicap=2), "^A 5×5 board takes no handicap stones: they go on boards from 7×7$"),
        (GoNewGame(komi=0.3), "^The komi must be a whole or half number of points, at most 1000 either way$"),
        (GoNewGame(opponent=ALICE.id), "^You cannot invite yourself"),
        (
            GoNewGame(opponent=BOB.id, ai_level="easy"),
            "^Choose a member or the AI as your opponent, not both$",
        ),
        (GoNewGame(ai_level="genius"), "^Unknown AI level 'genius': choose one of easy, medium, hard$"),
        (GoNewGame(colour="red"), "^Unknown colour 'red': choose one of black, white, random$"),
        (GoNewGame(time_limit=-1), "^The time limit must be between 0 \\(none\\) and"),
        (GoNewGame(size="9"), "^The board size must be a whole number, not str$"),  # type: ignore[arg-type]
    ],
)
async def test_bad_options_are_refused(harness: GoHarness, options: GoNewGame, message: str) -> None:
    with pytest.raises(OptionError, match=message):
        await harness.go.new_game(GUILD, GO_CHANNEL, ALICE, options)
    assert not harness.go.has_game(GO_CHANNEL)
    await harness.go.delivered()
    assert harness.notifier.posts == []


@pytest.mark.parametrize("size", [7, 8, 10, 12, 15])
async def test_a_handicap_is_taken_on_every_board_the_engine_takes_one(harness: GoHarness, size: int) -> None:
    most = max_handicap(size)
    await harness.new(ALICE, size=size, opponent=BOB.id, handicap=most)
    await harness.go.join(GO_CHANNEL, BOB)
    game = harness.go.game(GO_CHANNEL)
    assert game.handicap_stones == tuple(handicap_points(size, most))
    with pytest.raises(
        OptionError, match=f"^A handicap on {size}×{size} is 2 to {most} stones, not {most + 1}$"
    ):
        await harness.go.new_game(GUILD, GO_CHANNEL + 1, ALICE, GoNewGame(size=size, handicap=most + 1))


async def test_a_random_colour_is_drawn_from_the_seed(harness: GoHarness) -> None:
    colours = []
    for seed in (1, 2, 3, 4, 5, 6, 1):
        await harness.go.new_game(GUILD, GO_CHANNEL, ALICE, GoNewGame(colour="random", seed=seed))
        await harness.go.delivered()
        colours.append(harness.texts()[-1].split(" and plays ")[1][:5])
        await harness.go.cancel(GO_CHANNEL, ALICE.id)
    assert set(colours) == {"Black", "White"}
    assert colours[-1] == colours[0]  # the same seed, the same colour


async def test_export_of_an_open_game(harness: GoHarness) -> None:
    harness.ai = ScriptedGoAi()
    await harness.new(ALICE, size=9, opponent=BOB.id, colour="white")
    await harness.go.join(GO_CHANNEL, BOB)
    await harness.moves((BOB, ALICE), "E5", "C3")
    record = await harness.go.export_sgf(GO_CHANNEL)
    assert (
        record.text
        == "The record of the Go game Bob (Black) vs Alice (White) (9×9, komi 7.5, area scoring, no time limit)."
    )
    imported = import_sgf(record.attachments[0].data.decode())
    assert (imported.black, imported.white) == ("Bob", "Alice")
    assert imported.game.to_dict() == harness.go.game(GO_CHANNEL).to_dict()
    score = await harness.go.score(GO_CHANNEL)
    assert score.text == (
        "Black: Bob (captured 0) · White: Alice (captured 0)\n"
        "Count if the game ended now, no stone dead: "
        "Black 1 (stones 1 + territory 0), White 8.5 (stones 1 + territory 0 + komi 7.5): White wins by 7.5"
    )


async def test_a_go_game_that_cannot_be_read_is_quarantined_and_the_others_start(harness: GoHarness) -> None:
    await harness.new(ALICE, size=9, opponent=BOB.id)
    await harness.go.join(GO_CHANNEL, BOB)
    await harness.go.new_game(GUILD, GO_CHANNEL + 1, BOB, GoNewGame(size=9))
    await harness.close()
    with sqlite3.connect(harness.path) as db:
        state = json.loads(db.execute("SELECT state FROM games WHERE id = 1").fetchone()[0])
        state["game"]["actions"] = ["B E5", "W E5"]  # an occupied point
        db.execute("UPDATE games SET state = ? WHERE id = 1", (json.dumps(state),))
    await harness.open()
    assert not harness.go.has_game(GO_CHANNEL)
    assert harness.go.has_game(GO_CHANNEL + 1)
    with sqlite3.connect(harness.path) as db:
        assert db.execute("SELECT quarantined FROM games WHERE id = 1").fetchone() == (
            "OccupiedError: E5 is already occupied",
        )
    await harness.new(CAROL, size=9)  # its channel is free
    assert harness.go.has_game(GO_CHANNEL)


async def test_an_ai_playing_black_moves_first_and_again_after_a_restart(harness: GoHarness) -> None:
    harness.ai.moves = ["E5", "D4"]
    harness.ai.gate = asyncio.Event()
    await harness.go.new_game(GUILD, GO_CHANNEL, ALICE, GoNewGame(size=9, ai_level="medium", colour="white"))
    await settle()
    assert harness.notifier.posts == []  # the start waits for the AI's first move
    assert len(harness.ai.calls) == 1
    await harness.restart()  # the AI was thinking: it thinks again after the restart
    harness.ai.gate.set()
    await harness.go.idle()
    assert [str(move) for move in harness.go.game(GO_CHANNEL).moves] == ["B E5"]
    await harness.go.delivered()
    # The start, cut short by the restart, went out alone at the start; then the AI's move.
    assert harness.texts() == [
        "<@11> plays the AI (medium).\nBlack: AI (captured 0) · White: Alice (captured 0)\nNext: AI (Black).",
        "AI (Black) played E5.\nBlack: AI (captured 0) · White: Alice (captured 0)\n<@11>, your move as White.",
    ]
    assert len(harness.ai.calls) == 2
    assert harness.ai.calls[0] == harness.ai.calls[1]  # the same level and seed: the same move
