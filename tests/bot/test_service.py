"""The game service over a real SQLite file: lobby, turns, privacy of racks, restarts, concurrency,
transactions, hints and questions, stats."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from service_fakes import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    CREATOR_FIRST_SEED,
    DAVE,
    EVE,
    GUILD,
    OTHER_CHANNEL,
    Harness,
    delivered,
    find_play,
    make_config,
    on_turn,
    open_harness,
    play_to_end,
    play_turn,
    seat_users,
    settle,
    started_game,
    typed,
)

from bot.games.scrabble.buttons import ScrabbleButton as Button
from bot.games.scrabble.commands import NewGame, User
from bot.games.scrabble.errors import HintError, WordError
from bot.games.scrabble.first_draw import draw_first
from bot.games.scrabble.images.renderer import PngRenderer
from bot.games.scrabble.settings import AI_LEVELS
from bot.games.scrabble.text import event_line
from bot.host.errors import (
    AlreadySeatedError,
    GameExistsError,
    GameNotStartedError,
    GameStartedError,
    LobbyError,
    LobbyFullError,
    NoGameError,
    NotAllowedError,
    NotEnoughPlayersError,
    NotSeatedError,
    OptionError,
    StaleTurnError,
    StorageFailedError,
)
from bot.host.messages import Message
from bot.host.runner import THINKING_NOTICE_AFTER
from bot.host.store import GameStatus
from scrabble_core.ai import Level
from scrabble_core.errors import ChallengeError, NotYourTurnError
from scrabble_core.game import ChallengeMode, Game
from scrabble_core.move_words import rack_in_words
from scrabble_core.variant import get_variant
from tests.pg_cluster import query

NO_GAME = "There is no game in this channel: start one with /scrabble new"


@pytest.fixture
async def harness(tmp_path: Path, store_database: Path | str) -> AsyncIterator[Harness]:
    """A harness on each backend in turn (see tests/pg_cluster.py)."""
    opened = await open_harness(tmp_path, database=store_database)
    yield opened
    await opened.close()


async def game_row_state(harness: Harness) -> object:
    assert harness.store is not None
    rows = await harness.store.open_games()
    return [(row.status, row.state, row.seats, row.deadline, row.reminded) for row in rows]


# Lobby -------------------------------------------------------------------------------------------


async def test_lobby_start_deals_and_dms_each_rack_to_its_owner(harness: Harness) -> None:
    service = harness.svc
    ack = await service.new_game(GUILD, CHANNEL, ALICE, NewGame(seed=3, turn_seconds=0, hints=2))
    assert ack.private
    await service.idle()
    assert harness.notifier.texts()[-1] == (
        "New standard game by <@11>: void challenges, no time limit, 2 hints each.\n"
        "Players (1/4): Alice (<@11>)"
    )
    lobby = harness.notifier.posts[-1][1]
    assert lobby.buttons == (Button.JOIN, Button.ADD_AI, Button.START, Button.CANCEL)
    assert lobby.game is not None
    await service.join(CHANNEL, BOB)
    await service.idle()
    assert "Players (2/4): Alice (<@11>), Bob (<@12>)" in harness.notifier.texts()[-1]
    answer = await service.start_game(CHANNEL, ALICE.id)
    await service.idle()
    game = service.game(CHANNEL)
    # Alice started the game: her answer carries her rack; Bob's comes by DM.
    assert answer.private
    assert answer.text == f"The game has started.\nYour rack in <#{CHANNEL}>: {game.players[0].rack}"
    assert [a.filename for a in answer.attachments] == ["rack.png"]
    start = harness.notifier.posts[-1][1]
    assert start.text == (
        "The game has started.\nDraw for the first turn: Alice drew A, Bob drew Q. Alice plays first.\n"
        "Scores: Alice 0 · Bob 0\nNext: Alice (<@11>). 86 tiles in the bag."
    )
    assert start.mentions == (ALICE.id,)
    assert [a.filename for a in start.attachments] == ["board.png"]
    assert [(user, message.text) for user, message in harness.notifier.dms] == [
        (BOB.id, f"Your rack in <#{CHANNEL}>: {game.players[1].rack}"),
    ]
    assert all(
        message.private and message.attachments[0].filename == "rack.png"
        for _, message in harness.notifier.dms
    )


async def test_who_plays_first_is_drawn_from_the_seed_and_announced(harness: Harness) -> None:
    users = (ALICE, BOB, CAROL, DAVE)
    await started_game(harness, users, seed=7)
    start = harness.notifier.posts[-1][1]
    assert start.text.splitlines()[:2] == [
        "The game has started.",
        "Draw for the first turn: Alice drew T, Bob drew S, Carol drew Y, Dave drew R. Dave plays first.",
    ]
    assert start.mentions == (DAVE.id,)
    # Turns go round in joining order from the player who drew first.
    assert [p.name for p in harness.svc.game(CHANNEL).players] == ["Dave", "Alice", "Bob", "Carol"]
    assert harness.store is not None
    (row,) = await harness.store.open_games()
    assert [(seat.seat, seat.user_id) for seat in row.seats] == [
        (0, DAVE.id),
        (1, ALICE.id),
        (2, BOB.id),
        (3, CAROL.id),
    ]
    assert [(e.kind, e.data) for e in await harness.store.log(row.id)][-1] == ("started", {"first": "Dave"})
    with pytest.raises(NotYourTurnError, match="it is Dave's turn, not Alice's"):
        await harness.svc.pass_turn(CHANNEL, ALICE.id)
    await harness.svc.cancel(CHANNEL, ALICE.id, can_manage=False)
    # Tied players draw again; the same seed always draws the same way.
    await started_game(harness, (ALICE, BOB), seed=10)
    assert harness.notifier.posts[-1][1].text.splitlines()[1] == (
        "Draw for the first turn: Alice drew T, Bob drew T; again: Alice drew R, Bob drew R; "
        "again: Alice drew A, Bob drew E. Alice plays first."
    )


@pytest.mark.parametrize(
    ("seed", "line"),
    [
        (0, "Ann drew N, Bob drew set tile 3 [SZ]. Ann plays first."),
        (26, "Ann drew set tile 2 [IOU], Bob drew F. Bob plays first."),
        (
            84,
            "Ann drew set tile 2 [IOU], Bob drew I; again: Ann drew a blank, Bob drew A. Ann plays first.",
        ),
    ],
)
def test_a_set_tile_drawn_for_first_ranks_as_the_first_of_its_letters(seed: int, line: str) -> None:
    drawn = draw_first(["Ann", "Bob"], get_variant("letter-sets"), random.Random(seed))
    assert drawn.line == f"Draw for the first turn: {line}"
    assert drawn.first == (1 if "Bob plays" in line else 0)


async def test_add_ai_seats_an_ai_at_the_games_level_for_the_creator_only(harness: Harness) -> None:
    service = harness.svc
    with pytest.raises(NoGameError):
        await service.add_ai(CHANNEL, ALICE.id)
    await service.new_game(GUILD, CHANNEL, ALICE, NewGame(ai_level="hard", ai_opponents=1, seed=5))
    with pytest.raises(NotAllowedError, match="Only the game's creator can add AI opponents"):
        await service.add_ai(CHANNEL, BOB.id)
    ack = await service.add_ai(CHANNEL, ALICE.id)
    assert ack == Message("AI 2 (hard) joined the game.", private=True)
    await service.idle()
    assert "Players (3/4): Alice (<@11>), AI, AI 2" in harness.notifier.texts()[-1]
    await service.add_ai(CHANNEL, ALICE.id)
    with pytest.raises(LobbyFullError):
        await service.add_ai(CHANNEL, ALICE.id)
    assert harness.store is not None
    (row,) = await harness.store.open_games()
    assert [(seat.user_id, seat.ai_level) for seat in row.seats] == [
        (ALICE.id, None),
        (None, "hard"),
        (None, "hard"),
        (None, "hard"),
    ]
    assert [entry.kind for entry in await harness.store.log(row.id)] == ["created", "ai_added", "ai_added"]
    await service.start_game(CHANNEL, ALICE.id)
    await service.idle()
    with pytest.raises(GameStartedError):
        await service.add_ai(CHANNEL, ALICE.id)


async def test_lobby_refusals(harness: Harness) -> None:
    service = harness.svc
    with pytest.raises(
        NoGameError, match=r"^There is no game in this channel: start one with /scrabble new$"
    ):
        await service.join(CHANNEL, BOB)
    await service.new_game(GUILD, CHANNEL, ALICE, NewGame(seed=CREATOR_FIRST_SEED))
    with pytest.raises(GameExistsError):
        await service.new_game(GUILD, CHANNEL, BOB)
    with pytest.raises(AlreadySeatedError):
        await service.join(CHANNEL, ALICE)
    with pytest.raises(NotEnoughPlayersError):
        await service.start_game(CHANNEL, ALICE.id)
    for user in (BOB, CAROL, DAVE):
        await service.join(CHANNEL, user)
    with pytest.raises(LobbyFullError, match="full"):
        await service.join(CHANNEL, EVE)
    with pytest.raises(NotAllowedError, match="Only the game's creator can start it"):
        await service.start_game(CHANNEL, BOB.id)
    with pytest.raises(NotAllowedError, match="cancel it with /scrabble cancel"):
        await service.leave(CHANNEL, ALICE.id)
    with pytest.raises(NotSeatedError):
        await service.leave(CHANNEL, EVE.id)
    with pytest.raises(GameNotStartedError):
        await service.play(CHANNEL, ALICE.id, "8H AB")
    await service.leave(CHANNEL, CAROL.id)
    await service.join(CHANNEL, EVE)
    await service.start_game(CHANNEL, ALICE.id)
    assert [p.name for p in service.game(CHANNEL).players] == ["Alice", "Bob", "Dave", "Eve"]
    with pytest.raises(GameStartedError):
        await service.join(CHANNEL, CAROL)
    with pytest.raises(LobbyError, match="resign"):
        await service.leave(CHANNEL, BOB.id)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (NewGame(variant="nope"), "Unknown variant"),
        (NewGame(challenge_mode="triple"), "Unknown challenge mode"),
        (NewGame(ai_level="godlike"), "Unknown AI level"),
        (NewGame(turn_seconds=-1), "turn time limit"),
        (NewGame(hints=101), "hints"),
        (NewGame(ai_opponents=4), "at most 3 AI"),
    ],
)
async def test_new_game_options_are_checked(harness: Harness, options: NewGame, message: str) -> None:
    with pytest.raises(OptionError, match=message):
        await harness.svc.new_game(GUILD, CHANNEL, ALICE, options)
    assert await game_row_state(harness) == []


async def test_same_display_names_get_distinct_seat_names(harness: Harness) -> None:
    await harness.svc.new_game(
        GUILD, CHANNEL, User(1, "Sam"), NewGame(ai_opponents=1, seed=CREATOR_FIRST_SEED)
    )
    await harness.svc.join(CHANNEL, User(2, "Sam"))
    await harness.svc.join(CHANNEL, User(3, "  \x00 "))
    await harness.svc.start_game(CHANNEL, 1)
    await harness.svc.idle()
    assert [p.name for p in harness.svc.game(CHANNEL).players] == ["Sam", "AI", "Sam 2", "Player"]


async def test_cancel_by_creator_or_moderator_only(harness: Harness) -> None:
    await started_game(harness)
    with pytest.raises(NotAllowedError, match="Only the game's creator or a moderator can cancel it"):
        await harness.svc.cancel(CHANNEL, BOB.id, can_manage=False)
    answer = await harness.svc.cancel(CHANNEL, CAROL.id, can_manage=True)
    assert (answer.text, answer.private) == ("You cancelled the game.", True)
    await harness.svc.idle()
    assert harness.notifier.texts()[-1] == "<@13> cancelled the game."
    with pytest.raises(NoGameError, match=NO_GAME):
        await harness.svc.board(CHANNEL)
    assert harness.store is not None
    assert (await harness.store.game(1)).status is GameStatus.CANCELLED  # type: ignore[union-attr]
    await harness.svc.new_game(GUILD, CHANNEL, BOB)  # the channel is free again


# Turns -------------------------------------------------------------------------------------------


async def test_turn_message_and_refusals(harness: Harness) -> None:
    await started_game(harness)
    service = harness.svc
    with pytest.raises(NotYourTurnError, match="it is Alice's turn, not Bob's"):
        await service.pass_turn(CHANNEL, BOB.id)
    with pytest.raises(NotSeatedError, match="You are not playing in this game"):
        await service.pass_turn(CHANNEL, CAROL.id)
    with pytest.raises(NoGameError, match=NO_GAME):
        await service.pass_turn(OTHER_CHANNEL, ALICE.id)
    with pytest.raises(NoGameError, match="That game is over"):
        await service.pass_turn(CHANNEL, ALICE.id, game_id=99)
    game = service.game(CHANNEL)
    play = find_play(game, 0)
    assert play is not None
    ack = await service.play(CHANNEL, ALICE.id, typed(play))
    await service.idle()
    after = service.game(CHANNEL)
    event = after.history[-1]
    # The answer says the play in words and carries Alice's new rack: no DM follows.
    assert (event.move, event.score, after.players[0].rack) == ("8H AB", 8, "CEEKNTX")
    assert ack.text == f"You played AB at 8H (across) for 8.\nYour rack in <#{CHANNEL}>: CEEKNTX"
    assert ack.private
    assert [a.filename for a in ack.attachments] == ["rack.png"]
    message = harness.notifier.posts[-1][1]
    assert message.text == (
        "Alice played AB at 8H (across) for 8.\nScores: Alice 8 · Bob 0\nNext: Bob (<@12>). 84 tiles in the bag."
    )
    assert message.mentions == (BOB.id,)
    assert message.buttons == (Button.PLAY, Button.EXCHANGE, Button.PASS, Button.HINT, Button.SHOW_RACK)
    dms = len(harness.notifier.dms)
    assert [user for user, _ in harness.notifier.dms] == [BOB.id]  # the start's DM, Alice started it
    answer = await service.exchange(CHANNEL, BOB.id, after.players[1].rack[:3])
    await service.idle()
    assert harness.notifier.texts()[-1].startswith("Bob exchanged 3 tiles.\n")
    assert answer.text.startswith(f"You exchanged {after.players[1].rack[:3]}.\nYour rack in <#{CHANNEL}>: ")
    assert len(harness.notifier.dms) == dms


async def test_closed_dms_are_reported_in_the_channel_without_the_rack(harness: Harness) -> None:
    harness.notifier.closed.add(BOB.id)
    await started_game(harness)
    notice = harness.notifier.posts[-1][1]
    assert (
        notice.text
        == "<@12>, I could not send you your rack by DM (are your DMs closed?): press Show my rack."
    )
    assert notice.buttons == (Button.SHOW_RACK,)
    assert notice.attachments == ()
    rack = await harness.svc.rack(CHANNEL, BOB.id)
    assert rack.private
    assert harness.svc.game(CHANNEL).players[1].rack in rack.text


def assert_private_racks(
    harness: Harness, replies: list[Message], answers: Sequence[tuple[int, Message]] = ()
) -> None:
    """No public message (or non-private reply) shows a rack dealt in the game, as text or image,
    before the game ended; every rack went privately to the player whose rack it shows (by DM, or in
    ``answers``, the answers to each user's own commands)."""
    private = [*harness.notifier.dms, *((user, m) for user, m in answers if m.attachments)]
    assert all(message.private for _, message in private)
    said = {message.text.rpartition(": ")[2] for _, message in private}  # "AEIRST and a blank"
    racks = {letters for rack in said if (letters := rack.split()[0].rstrip(",")).isupper()}
    rack_images = {a.data for _, message in private for a in message.attachments}
    public = [message for _, message in harness.notifier.posts] + [m for m in replies if not m.private]
    before_end = public[: next((i for i, m in enumerate(public) if "Game over: " in m.text), len(public))]
    for message in public:
        assert not any(a.filename.startswith("rack") for a in message.attachments), message
        assert not any(a.data in rack_images for a in message.attachments), message
    for message in before_end:
        for rack in racks:
            if len(rack) >= 5:
                assert rack not in message.text, (rack, message.text)


@pytest.mark.parametrize(
    ("users", "ai"),
    [((ALICE, BOB), 0), ((ALICE,), 1), ((ALICE, BOB, CAROL), 0), ((ALICE, BOB), 2)],
)
async def test_whole_games_never_show_a_rack_publicly(
    harness: Harness, users: tuple[User, ...], ai: int
) -> None:
    service = harness.svc
    await service.new_game(GUILD, CHANNEL, users[0], NewGame(ai_opponents=ai, seed=12))
    for user in users[1:]:
        await service.join(CHANNEL, user)
    # Each user's racks in order: the DMs and the answers to their own commands (which carry the rack).
    answers = [(users[0].id, await service.start_game(CHANNEL, users[0].id))]
    await service.idle()
    replies: list[Message] = []
    seats = seat_users(users, ai)
    turn = 0
    while True:
        try:
            game = service.game(CHANNEL)
        except NoGameError:
            break
        replies.append(await service.board(CHANNEL))
        replies.append(await service.score(CHANNEL))
        user = seats[game.current]
        # The last rack each player was sent, by DM or in an answer, is their current rack.
        for seat, player in enumerate(game.players):
            if seats[seat].id:
                racks = [
                    m
                    for uid, m in harness.notifier.dms + answers
                    if uid == seats[seat].id and "Your rack in" in m.text
                ]
                assert racks[-1].text.endswith(f": {rack_in_words(player.rack, game.variant)}")
        turn += 1
        play = find_play(game, game.current)
        if turn % 7 == 0 and len(game.bag) >= 7:
            answer = await service.exchange(CHANNEL, user.id, game.players[game.current].rack[:2])
        elif game.awaiting_final_challenge:
            answer = await service.accept(CHANNEL, user.id)
        elif play is None:
            answer = await service.pass_turn(CHANNEL, user.id)
        else:
            answer = await service.play(CHANNEL, user.id, typed(play))
        answers.append((user.id, answer))
        await service.idle()
    # The last move's post says the result: the winner first, then the standings from first to last.
    final = harness.notifier.posts[-1][1].text.splitlines()
    over = next(i for i, line in enumerate(final) if line.startswith("Game over: "))
    assert final[over + 1].startswith("1. ") and final[-1] == "The record (GCG) is attached."
    attachments = harness.notifier.posts[-1][1].attachments
    assert [a.filename for a in attachments] == ["board.png", "scores.png", "game-1.gcg"]
    assert_private_racks(harness, replies, answers)


async def test_real_renderer_game_keeps_racks_private(tmp_path: Path) -> None:
    harness = await open_harness(tmp_path)
    harness.svc.plugin.renderer = PngRenderer()  # the real images, once
    try:
        await started_game(harness, (ALICE,), ai=1, seed=5)
        await play_to_end(harness, (ALICE,))
        assert_private_racks(harness, [])
        final = harness.notifier.posts[-1][1]
        board, scores, record = final.attachments
        assert board.data.startswith(b"\x89PNG") and scores.data.startswith(b"\x89PNG")
        assert record.data.decode().startswith(
            "#character-encoding UTF-8\n#lexicon TESTWORDS\n#variant standard\n#player1 Alice Alice"
        )
    finally:
        await harness.close()


async def test_single_challenge_withdraws_a_phony_and_redeals_by_dm(tmp_path: Path) -> None:
    harness = await open_harness(tmp_path, phonies=set())
    try:
        await started_game(harness, seed=5, challenge_mode="single")
        game = harness.svc.game(CHANNEL)
        play = find_play(game, 0)
        assert play is not None
        word = play.letters.upper()
        harness.lexicon.phonies.add(word)
        with pytest.raises(ChallengeError, match="there is no play to challenge"):
            await harness.svc.challenge(CHANNEL, BOB.id)
        await harness.svc.play(CHANNEL, ALICE.id, typed(play))
        await harness.svc.idle()
        assert harness.notifier.posts[-1][1].buttons == (
            Button.PLAY,
            Button.EXCHANGE,
            Button.PASS,
            Button.HINT,
            Button.SHOW_RACK,
            Button.CHALLENGE,
        )
        ack = await harness.svc.challenge(CHANNEL, BOB.id)
        assert ack.text == "Your challenge was upheld: the play came off the board."
        await harness.svc.idle()
        after = harness.svc.game(CHANNEL)
        assert after.board.is_empty()
        assert after.players[0].rack == game.players[0].rack
        assert harness.notifier.texts()[-1] == (
            "Bob challenged the last play.\nThe challenge was upheld: Alice's play came off the board (-20).\n"
            "Scores: Alice 0 · Bob 0\nNext: Bob (<@12>). 86 tiles in the bag."
        )
        assert harness.notifier.dms[-1] == (ALICE.id, harness.notifier.dms[-1][1])
        assert harness.notifier.dms[-1][1].text.endswith(game.players[0].rack)
    finally:
        await harness.close()


async def test_failed_single_challenge_is_announced(tmp_path: Path) -> None:
    harness = await open_harness(tmp_path)
    try:
        await started_game(harness, seed=5, challenge_mode="single")
        await play_turn(harness, (ALICE, BOB))
        assert (
            await harness.svc.challenge(CHANNEL, BOB.id)
        ).text == "Your challenge failed: the play stands."
        await harness.svc.idle()
        assert harness.notifier.texts()[-1].startswith(
            "Bob challenged the last play.\nThe challenge failed: the play stands.\nScores:"
        )
    finally:
        await harness.close()


async def test_failed_double_challenge_by_a_player_not_on_turn_says_they_lose_their_next_turn(
    harness: Harness,
) -> None:
    users = (ALICE, BOB, CAROL)
    await started_game(harness, users, challenge_mode="double")
    await play_turn(harness, users)  # Alice plays a good word: Bob's turn
    ack = await harness.svc.challenge(CHANNEL, CAROL.id)
    assert ack.text == "Your challenge failed: you lose your next turn."
    await harness.svc.idle()
    assert harness.notifier.texts()[-1].startswith(
        "Carol challenged the last play.\nThe challenge failed: Carol will lose their next turn.\nScores: "
    )
    await play_turn(harness, users)  # Bob plays; Carol's turn is skipped
    assert harness.notifier.texts()[-1].startswith("Bob played AA at H7 (down) for 2.\nCarol lost a turn.\n")
    assert harness.svc.game(CHANNEL).current == 0


async def test_a_challenge_names_the_play_it_challenges(tmp_path: Path) -> None:
    harness = await open_harness(tmp_path)
    users = (ALICE, BOB, CAROL)
    try:
        await started_game(harness, users, challenge_mode="single")
        first = on_turn(harness, users)
        await play_turn(harness, users)  # move 1: the first play, shown with Challenge buttons
        assert harness.notifier.posts[-1][1].turn == 1
        second = on_turn(harness, users)
        game = harness.svc.game(CHANNEL)
        play = find_play(game, game.current)
        assert play is not None
        await harness.svc.play(CHANNEL, second.id, typed(play), turn=1)  # move 2: a phony
        await harness.svc.idle()
        harness.lexicon.phonies.update(harness.svc.game(CHANNEL).challengeable_words())
        assert harness.notifier.posts[-1][1].turn == 2
        challenger = next(user for user in users if user not in (first, second))
        before = (
            await game_row_state(harness),
            harness.svc.game(CHANNEL).to_dict(),
            len(harness.notifier.posts),
        )
        # The third player presses Challenge under the first play: it is not the last play any more.
        with pytest.raises(StaleTurnError, match=r"^That play can no longer be challenged$"):
            await harness.svc.challenge(CHANNEL, challenger.id, turn=1)
        after = (
            await game_row_state(harness),
            harness.svc.game(CHANNEL).to_dict(),
            len(harness.notifier.posts),
        )
        assert after == before  # the phony still stands: the challenge was not applied to it
        ack = await harness.svc.challenge(CHANNEL, challenger.id, turn=2)  # the phony's own message
        assert ack.text == "Your challenge was upheld: the play came off the board."
    finally:
        await harness.close()


async def test_a_move_is_accepted_only_for_the_turn_it_was_made_for(harness: Harness) -> None:
    users = (ALICE, BOB)
    await started_game(harness, users)
    first = on_turn(harness, users)
    other = BOB if first == ALICE else ALICE
    game = harness.svc.game(CHANNEL)
    # The other player opens the Play form under the turn message of move 0 (not their turn yet)...
    await harness.svc.pass_turn(CHANNEL, first.id, turn=0)
    await delivered(harness)  # the pass's announcement goes out behind its answer
    before = await game_row_state(harness), len(harness.notifier.posts), len(harness.notifier.dms)
    play = find_play(game, 1 - game.current)
    assert play is not None
    # ... and submits it once the first player has passed: they never saw that pass.
    for move in (
        harness.svc.play(CHANNEL, other.id, typed(play), turn=0),
        harness.svc.exchange(CHANNEL, other.id, game.players[1 - game.current].rack[:2], turn=0),
        harness.svc.pass_turn(CHANNEL, other.id, turn=0),
        harness.svc.hint(CHANNEL, other.id, turn=0),
        harness.svc.accept(CHANNEL, other.id, turn=0),
        harness.svc.resign(CHANNEL, other.id, turn=0),
    ):
        with pytest.raises(
            StaleTurnError,
            match=r"^The game has moved on since that turn: nothing was done, look at the board again$",
        ):
            await move
    assert (await game_row_state(harness), len(harness.notifier.posts), len(harness.notifier.dms)) == before
    await harness.svc.play(CHANNEL, other.id, typed(play), turn=1)  # made for the current turn
    await harness.svc.pass_turn(CHANNEL, first.id)  # typed now, without a turn: the current one
    assert [e.kind.value for e in harness.svc.game(CHANNEL).history] == ["pass", "play", "pass"]


# Restarts ----------------------------------------------------------------------------------------


async def final_state(
    tmp_path: Path, name: str, users: tuple[User, ...], ai: int, restart_every: int
) -> object:
    harness = await open_harness(tmp_path / name if False else tmp_path.joinpath(name))
    try:
        await started_game(harness, users, ai=ai, seed=21)
        turns = 0
        while True:
            try:
                harness.svc.game(CHANNEL)
            except NoGameError:
                break
            await play_turn(harness, users)
            turns += 1
            if restart_every and turns % restart_every == 0:
                await harness.restart()
        assert harness.store is not None
        row = await harness.store.game(1)
        assert row is not None
        return row.state, harness.ai.calls
    finally:
        await harness.close()


@pytest.mark.parametrize(("users", "ai"), [((ALICE, BOB), 0), ((ALICE,), 1)])
async def test_restarts_mid_game_continue_identically(
    tmp_path: Path, users: tuple[User, ...], ai: int
) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    reference = await final_state(tmp_path, "a", users, ai, restart_every=0)
    restarted = await final_state(tmp_path, "b", users, ai, restart_every=3)
    assert restarted == reference


async def test_restart_mid_ai_turn_reruns_it(tmp_path: Path) -> None:
    (tmp_path / "ref").mkdir()
    reference = await open_harness(tmp_path / "ref")
    await started_game(reference, (ALICE,), ai=1, seed=8)
    await play_turn(reference, (ALICE,))
    expected = reference.svc.game(CHANNEL).to_dict()
    await reference.close()

    harness = await open_harness(tmp_path)
    await started_game(harness, (ALICE,), ai=1, seed=8)
    harness.ai.gate = asyncio.Event()
    game = harness.svc.game(CHANNEL)
    play = find_play(game, 0)
    assert play is not None
    await harness.svc.idle()
    posts = len(harness.notifier.posts)
    await harness.svc.play(CHANNEL, ALICE.id, typed(play))
    await settle()
    await harness.clock.advance(THINKING_NOTICE_AFTER)
    assert harness.notifier.typings == [CHANNEL]  # the channel sees the bot typing
    assert len(harness.notifier.posts) == posts  # Alice's play waits for the AI's move
    assert len(harness.ai.calls) == 1
    await harness.restart()  # the blocked AI turn is cancelled, and re-run at start-up
    harness.ai.gate.set()
    await harness.svc.idle()
    assert harness.ai.calls[0] == harness.ai.calls[1]
    assert harness.svc.game(CHANNEL).to_dict() == expected
    # Alice's play, cut short at the restart, goes out at the start (before the AI's re-run turn
    # began); then the AI's move. Each once.
    assert [text.split(" ")[:2] for text in harness.notifier.texts()[posts:]] == [
        ["Alice", "played"],
        ["AI", "played"],
    ]
    await harness.close()


async def test_the_ai_thinks_again_when_the_turn_moves_on_while_it_thinks(harness: Harness) -> None:
    await started_game(harness, (ALICE, BOB, CAROL), ai=1)  # seats: Alice, AI, Bob, Carol
    harness.ai.gate = asyncio.Event()
    play = find_play(harness.svc.game(CHANNEL), 0)
    assert play is not None
    await harness.svc.idle()
    posts = len(harness.notifier.posts)
    await harness.svc.play(CHANNEL, ALICE.id, typed(play))
    await settle()
    assert len(harness.ai.calls) == 1  # the AI is thinking
    await harness.svc.resign(CHANNEL, CAROL.id)  # the history moves on: that thought is stale
    await harness.clock.advance(THINKING_NOTICE_AFTER)
    assert harness.notifier.typings == []  # not for a stale turn
    harness.ai.gate.set()
    await harness.svc.idle()
    game = harness.svc.game(CHANNEL)
    assert [(e.player, e.kind.value) for e in game.history] == [(0, "play"), (3, "resign"), (1, "play")]
    assert game.current == 2
    assert len(harness.ai.calls) == 2
    # The play, the resignation and the AI's move, each said once and in order (the AI's move joins
    # their post or follows it, as the stale thought's turn ends before or after it goes out).
    said = "\n\n".join(harness.notifier.texts()[posts:])
    heads = [part.split("\n")[0].split(" ")[:2] for part in said.split("\n\n")]
    assert heads == [["Alice", "played"], ["Carol", "resigned."], ["AI", "played"]]


# Timers ------------------------------------------------------------------------------------------


async def timed_harness(tmp_path: Path, **turn: object) -> Harness:
    harness = await open_harness(tmp_path, make_config(time_limit=60, **turn))
    await started_game(harness, seed=2)
    return harness


async def test_reminder_then_auto_pass(tmp_path: Path) -> None:
    harness = await timed_harness(tmp_path)
    try:
        await harness.clock.advance(44)
        await harness.svc.idle()
        assert "seconds left" not in harness.notifier.texts()[-1]
        await harness.clock.advance(1)
        await harness.svc.idle()
        assert harness.notifier.texts()[-1] == "<@11>, it is your turn: 15 seconds left."
        await harness.clock.advance(15)
        await harness.svc.idle()
        assert harness.notifier.texts()[-1] == (
            "Alice ran out of time.\nAlice passed.\nScores: Alice 0 · Bob 0\nNext: Bob (<@12>). 86 tiles in the bag."
        )
        assert harness.svc.game(CHANNEL).current == 1
        assert harness.store is not None
        log = [entry.kind for entry in await harness.store.log(1)]
        assert log[-3:] == ["reminder", "timeout", "pass"]
    finally:
        await harness.close()


async def test_a_jump_past_the_reminder_reminds_at_its_time_then_times_out_with_slow_saves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each save takes real time (as under load): one advance past the reminder and the deadline still
    reminds with the time left then, and the timeout is done when :meth:`idle` returns."""
    harness = await timed_harness(tmp_path)
    assert harness.store is not None
    save = harness.store.save

    async def slow_save(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(0.05)
        return await save(*args, **kwargs)

    monkeypatch.setattr(harness.store, "save", slow_save)
    try:
        await harness.clock.advance(60)
        await harness.svc.idle()
        assert harness.notifier.texts()[-2:] == [
            "<@11>, it is your turn: 15 seconds left.",
            "Alice ran out of time.\nAlice passed.\nScores: Alice 0 · Bob 0\nNext: Bob (<@12>). 86 tiles in the bag.",
        ]
    finally:
        await harness.close()


async def test_consecutive_timeouts_forfeit_and_acting_resets_the_count(tmp_path: Path) -> None:
    harness = await timed_harness(tmp_path, max_timeouts=2)
    try:
        await harness.clock.advance(60)  # Alice times out (1)
        await harness.svc.idle()
        await harness.svc.pass_turn(CHANNEL, BOB.id)
        await harness.svc.delivered()  # out long before the minute is up
        await harness.clock.advance(60)  # Alice times out (2): forfeit
        await harness.svc.idle()
        assert harness.notifier.texts()[-1] == (
            "Alice ran out of time.\nAlice forfeited.\nGame over: Bob (<@12>) wins.\n1. Bob 0\n"
            "2. Alice 0 (forfeited)\nThe record (GCG) is attached."
        )
        with pytest.raises(NoGameError):
            harness.svc.game(CHANNEL)
    finally:
        await harness.close()

    (tmp_path / "again").mkdir()
    harness = await open_harness(tmp_path / "again", make_config(time_limit=60, max_timeouts=2))
    try:
        await started_game(harness, seed=2)
        await harness.clock.advance(60)  # Alice times out (1)
        await harness.svc.idle()
        await harness.svc.pass_turn(CHANNEL, BOB.id)
        await harness.svc.pass_turn(CHANNEL, ALICE.id)  # acting resets her count
        await harness.svc.pass_turn(CHANNEL, BOB.id)
        await harness.svc.delivered()
        await harness.clock.advance(60)  # Alice times out (1 again)
        await harness.svc.idle()
        assert harness.svc.game(CHANNEL).players[0].resigned is False
    finally:
        await harness.close()


async def test_pending_timer_survives_a_restart(tmp_path: Path) -> None:
    harness = await timed_harness(tmp_path)
    try:
        await harness.clock.advance(30)
        await harness.restart()
        await harness.clock.advance(15)  # the reminder, 15 s before the stored deadline
        await harness.svc.idle()
        assert harness.notifier.texts()[-1] == "<@11>, it is your turn: 15 seconds left."
        await harness.restart()  # reminded already: not again
        await harness.clock.advance(15)
        await harness.svc.idle()
        texts = harness.notifier.texts()
        assert texts[-1].startswith("Alice ran out of time.\nAlice passed.")
        assert sum(text.endswith("seconds left.") for text in texts) == 1
    finally:
        await harness.close()


async def test_deadline_that_passed_while_down_acts_at_start(tmp_path: Path) -> None:
    harness = await timed_harness(tmp_path)
    try:
        await harness.close()
        harness.clock._now += 3600  # time passes while the bot is down
        await harness.open()
        await harness.clock.advance(0)
        await harness.svc.idle()
        assert harness.notifier.texts()[-1].startswith("Alice ran out of time.\nAlice passed.")
    finally:
        await harness.close()


# Concurrency and transactions --------------------------------------------------------------------


async def test_double_click_is_applied_once(harness: Harness) -> None:
    await started_game(harness)
    play = find_play(harness.svc.game(CHANNEL), 0)
    assert play is not None
    results = await asyncio.gather(
        harness.svc.play(CHANNEL, ALICE.id, typed(play)),
        harness.svc.play(CHANNEL, ALICE.id, typed(play)),
        return_exceptions=True,
    )
    assert isinstance(results[0], Message)
    assert isinstance(results[1], NotYourTurnError)
    assert [e.kind.value for e in harness.svc.game(CHANNEL).history] == ["play"]


async def test_two_players_at_once_are_applied_in_order(harness: Harness) -> None:
    await started_game(harness)
    game = harness.svc.game(CHANNEL)
    play = find_play(game, 0)
    assert play is not None
    await asyncio.gather(
        harness.svc.play(CHANNEL, ALICE.id, typed(play)),
        harness.svc.exchange(CHANNEL, BOB.id, game.players[1].rack[:2]),
    )
    history = harness.svc.game(CHANNEL).history
    assert [(e.player, e.kind.value) for e in history] == [(0, "play"), (1, "exchange")]
    assert harness.store is not None
    assert [entry.kind for entry in await harness.store.log(1)][-2:] == ["play", "exchange"]


async def test_a_failed_write_changes_nothing(harness: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    await started_game(harness)
    assert harness.store is not None
    before_db = await game_row_state(harness)
    before_game = harness.svc.game(CHANNEL).to_dict()
    posts, dms = len(harness.notifier.posts), len(harness.notifier.dms)

    def failing_commit(connection: object) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(harness.store.backend, "_commit", failing_commit)
    play = find_play(harness.svc.game(CHANNEL), 0)
    assert play is not None
    with pytest.raises(StorageFailedError, match=r"^The game could not be saved, so nothing was changed"):
        await harness.svc.play(CHANNEL, ALICE.id, typed(play))
    with pytest.raises(StorageFailedError):
        await harness.svc.cancel(CHANNEL, ALICE.id, can_manage=False)
    assert harness.svc.game(CHANNEL).to_dict() == before_game
    assert (len(harness.notifier.posts), len(harness.notifier.dms)) == (posts, dms)
    monkeypatch.undo()
    assert await game_row_state(harness) == before_db
    await harness.svc.play(CHANNEL, ALICE.id, typed(play))  # and it works once the disk is back
    assert harness.svc.game(CHANNEL).current == 1


async def test_actions_in_many_channels_at_once_all_succeed(harness: Harness) -> None:
    service = harness.svc
    channels = [5000 + i for i in range(20)]
    await asyncio.gather(
        *(service.new_game(GUILD, channel, ALICE, NewGame(seed=i)) for i, channel in enumerate(channels))
    )
    started = channels[:6]
    await asyncio.gather(*(service.join(channel, BOB) for channel in started))
    await asyncio.gather(*(service.start_game(channel, ALICE.id) for channel in started))

    async def play(channel: int) -> Message:
        game = service.game(channel)
        move = find_play(game, 0)
        assert move is not None
        first = ALICE if game.players[0].name == ALICE.name else BOB  # whoever drew first
        return await service.play(channel, first.id, typed(move))

    await asyncio.gather(*(play(channel) for channel in started))
    assert harness.store is not None
    rows = {row.channel_id: row for row in await harness.store.open_games()}
    assert sorted(rows) == channels
    for channel in started:
        game = service.game(channel)
        assert [(e.player, e.kind.value) for e in game.history] == [(0, "play")]
        assert rows[channel].state == game.to_dict()
    for channel in channels[6:]:
        assert (rows[channel].status, len(rows[channel].seats)) == (GameStatus.LOBBY, 1)


class BrokenRenderer:
    """A renderer that fails every image."""

    def board(self, *args: object) -> bytes:
        raise RuntimeError("no fonts")

    rack = chart = board


async def test_a_failing_renderer_still_announces_replies_and_schedules(tmp_path: Path) -> None:
    harness = await open_harness(tmp_path, make_config(time_limit=60))
    harness.svc.plugin.renderer = BrokenRenderer()
    try:
        await harness.svc.new_game(GUILD, CHANNEL, ALICE, NewGame(ai_opponents=1, seed=5))
        answer = await harness.svc.start_game(CHANNEL, ALICE.id)
        await harness.svc.idle()
        start = harness.notifier.posts[-1][1]
        assert start.text.startswith("The game has started.\n")
        assert start.attachments == ()  # the text, without the board
        rack = rack_in_words(harness.svc.game(CHANNEL).players[0].rack)
        assert answer.text.endswith(f": {rack}") and answer.attachments == ()  # the rack, without its image
        play = find_play(harness.svc.game(CHANNEL), 0)
        assert play is not None
        ack = await harness.svc.play(CHANNEL, ALICE.id, typed(play))
        assert ack.text.startswith("You played ")
        await harness.svc.idle()
        game = harness.svc.game(CHANNEL)
        assert [e.player for e in game.history] == [0, 1]  # the AI's turn was scheduled
        assert ack.text.endswith(f": {rack_in_words(game.players[0].rack)}") and ack.attachments == ()
        assert harness.notifier.dms == []
        await harness.clock.advance(60)  # and Alice's timer was armed
        await harness.svc.idle()
        assert any(t.startswith("Alice ran out of time.\nAlice passed.") for t in harness.notifier.texts())
        await harness.svc.resign(CHANNEL, ALICE.id)
        await harness.svc.idle()
        final = harness.notifier.posts[-1][1]
        # The winner first, though with fewer points: Alice resigned.
        assert final.text == (
            "Alice resigned.\nGame over: AI wins.\n1. AI 7\n2. Alice 20 (resigned)\nThe record (GCG) is attached."
        )
        assert [a.filename for a in final.attachments] == ["game-1.gcg"]  # no chart, still the record
    finally:
        await harness.close()


async def test_a_failed_announcement_still_replies_and_schedules(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    harness = await open_harness(tmp_path, make_config(time_limit=60))
    try:
        await started_game(harness, (ALICE,), ai=1, seed=5)

        async def broken(*args: object) -> Message:
            raise RuntimeError("a bug in the turn message")

        monkeypatch.setattr(harness.games, "message_of", broken)
        play = find_play(harness.svc.game(CHANNEL), 0)
        assert play is not None
        posts = len(harness.notifier.posts)
        ack = await harness.svc.play(CHANNEL, ALICE.id, typed(play))  # saved: the normal reply
        assert ack.text.startswith("You played ")
        await harness.svc.idle()
        game = harness.svc.game(CHANNEL)
        assert [e.player for e in game.history] == [0, 1]  # the AI's turn still came
        seats = harness.games.tables[CHANNEL].row.seats
        # Each turn's text at least, in one post: Alice's play waited for the AI's.
        assert harness.notifier.texts()[posts:] == [
            event_line(game.history[0], seats, game.board)
            + "\n\n"
            + event_line(game.history[1], seats, game.board)
        ]
        assert ack.text.endswith(f": {rack_in_words(game.players[0].rack)}")  # the rack still went
        await harness.clock.advance(60)  # and Alice's timer was armed
        await harness.svc.idle()
        timed_out = harness.svc.game(CHANNEL).history[2]
        assert (timed_out.player, timed_out.kind.value) == (0, "pass")
    finally:
        await harness.close()


# Questions ---------------------------------------------------------------------------------------


async def test_hints_count_and_can_be_disabled(harness: Harness) -> None:
    await started_game(harness, hints=1)
    hint = await harness.svc.hint(CHANNEL, ALICE.id)
    rack = harness.svc.game(CHANNEL).players[0].rack
    assert hint.private
    # The move in words (the test's advisor scores its play 1 and keeps nothing).
    assert (rack, hint.text) == (
        "ABCEKTX",
        "Hint 1 of 1, for your rack ABCEKTX:\n1. AB at 8H (across): 1 point, keeping nothing",
    )
    with pytest.raises(HintError, match=r"^You have used all 1 of your hints in this game$"):
        await harness.svc.hint(CHANNEL, ALICE.id)
    await harness.svc.cancel(CHANNEL, ALICE.id, can_manage=False)
    await started_game(harness, hints=0)
    with pytest.raises(HintError, match=r"^Hints are disabled in this game$"):
        await harness.svc.hint(CHANNEL, ALICE.id)


async def test_preview_play_scores_the_callers_play_or_says_why_it_is_illegal(harness: Harness) -> None:
    await started_game(harness, hints=1, seed=7)  # Bob draws first
    service = harness.svc
    assert service.game(CHANNEL).players[0].name == "Bob"
    assert service.game(CHANNEL).players[0].rack == "ABEILPT"
    assert service.game(CHANNEL).players[1].rack == "AACEKOR"
    before = await game_row_state(harness)
    posts, dms = len(harness.notifier.posts), len(harness.notifier.dms)
    assert await service.preview_play(CHANNEL, BOB.id, "8h  bait ") == "BAIT at 8H (across): 12 points"
    assert await service.preview_play(CHANNEL, BOB.id, "h4 plait") == "PLAIT at H4 (down): 20 points"
    assert await service.preview_play(CHANNEL, BOB.id, "8D ABEILPT") == "ABEILPT at 8D (across): 74 points"
    assert await service.preview_play(CHANNEL, BOB.id, "8H QUIZ") == "you don't have Q, U and Z on your rack"
    assert await service.preview_play(CHANNEL, BOB.id, "A1 AB") == (
        "the first word must cover the start square H8"
    )
    assert (await service.preview_play(CHANNEL, BOB.id, "8H")).startswith("write a play as a coordinate")
    assert (
        await service.preview_play(CHANNEL, ALICE.id, "8H CAKE") == "CAKE at 8H (across): 20 points"
    )  # not her turn
    # Nothing to preview: nothing typed, not seated.
    assert await service.preview_play(CHANNEL, BOB.id, "  ") == ""
    assert await service.preview_play(CHANNEL, CAROL.id, "8H BAIT") == ""
    assert await service.preview_play(OTHER_CHANNEL, BOB.id, "8H BAIT") == ""
    # No hint used, nothing written, nothing sent.
    assert await game_row_state(harness) == before
    assert (len(harness.notifier.posts), len(harness.notifier.dms)) == (posts, dms)
    assert (await service.hint(CHANNEL, BOB.id)).text.startswith("Hint 1 of 1,")
    await service.play(CHANNEL, BOB.id, "8H BAIT")
    assert await service.preview_play(CHANNEL, ALICE.id, "8H CAKE") == "H8 is already taken by B"
    assert await service.preview_play(CHANNEL, ALICE.id, "H9 OAK") == "BOAK at H8 (down): 10 points"
    await service.resign(CHANNEL, ALICE.id)
    assert await service.preview_play(CHANNEL, BOB.id, "8H BAIT") == ""  # the game is over


async def test_preview_play_never_says_whether_a_word_is_in_the_dictionary(tmp_path: Path) -> None:
    harness = await open_harness(tmp_path, phonies={"BLIPAT"})
    try:
        await started_game(harness, challenge_mode="single", seed=7)  # Bob draws first
        service = harness.svc
        assert await service.preview_play(CHANNEL, BOB.id, "8D BLIPAT") == "BLIPAT at 8D (across): 26 points"
        assert await service.preview_play(CHANNEL, BOB.id, "8D PLAIT") == "PLAIT at 8D (across): 20 points"
        await service.play(CHANNEL, BOB.id, "8D BLIPAT")
        ack = await service.challenge(CHANNEL, ALICE.id)
        assert ack.text == "Your challenge was upheld: the play came off the board."  # it was a phony
    finally:
        await harness.close()


async def test_questions(harness: Harness) -> None:
    await started_game(harness)
    service = harness.svc
    game = service.game(CHANNEL)
    assert await service.rack_letters(CHANNEL, ALICE.id) == game.players[0].rack
    assert await service.rack_letters(CHANNEL, CAROL.id) == ""
    bag = await service.bag(CHANNEL, BOB.id)
    assert bag.private
    assert bag.text == (
        "86 tiles in the bag.\nUnseen tiles (93): "
        "AAAAAAAA BB CC DDDD EEEEEEEEEEE FF GG HH IIIIIIII J K LLLL MM NNNNNN OOOOOOOO PP Q RRRRR SSS "
        "TTTTTT UUUU V WW X YY Z and 2 blanks"
    )
    assert (await service.check(CHANNEL, " quiz ")) == Message("QUIZ is in TESTWORDS.", private=True)
    with pytest.raises(WordError, match="2 to 15 letters"):
        await service.check(CHANNEL, "Q1")
    assert (await service.history(CHANNEL)).text == "No move yet."
    await play_turn(harness, (ALICE, BOB))
    await service.exchange(CHANNEL, BOB.id, service.game(CHANNEL).players[1].rack[:4])
    history = await service.history(CHANNEL)
    lines = history.text.splitlines()
    assert lines[0] == "1. Alice played AB at 8H (across) for 8."
    assert lines[1] == "2. Bob exchanged 4 tiles."
    (record,) = history.attachments  # while the game goes on, its record shows no rack
    gcg = record.data.decode().splitlines()
    assert record.filename == "game-1.gcg"
    assert gcg[-2].startswith(">Alice:  8H AB ") and gcg[-1] == ">Bob:  -4 +0 0"  # notation stays in GCG
    assert history.private and not (await service.history(CHANNEL, public=True)).private
    score = await service.score(CHANNEL)
    assert score.text.startswith("Scores: Alice ") and score.private
    assert not (await service.score(CHANNEL, public=True)).private
    assert (await service.board(CHANNEL)).private
    board = await service.board(CHANNEL, public=True)
    assert not board.private
    assert board.text.endswith("Next: Alice (<@11>). 84 tiles in the bag.")
    assert board.mentions == ()  # a repost names the player to move but does not ping them again


async def test_export_stats_and_leaderboard_after_games(harness: Harness) -> None:
    service = harness.svc
    assert (await service.stats(GUILD, ALICE.id)).text == "<@11> has not finished a game in this server yet."
    assert (await service.leaderboard(GUILD)).text == "No finished game in this server yet."
    with pytest.raises(NoGameError, match="No game has ended in this channel yet"):
        await service.history(CHANNEL)
    for seed in (1, 2, 3):
        await started_game(harness, seed=seed)
        await play_to_end(harness, (ALICE, BOB))
    export = await service.history(CHANNEL)  # no game going on: the last one, racks shown
    assert export.private
    assert export.text.startswith(
        "The last game here (game 3 for /scrabble analyze):\n1. Alice played DF at 8H (across) for 12.\n"
    )
    assert export.attachments[0].filename == "game-3.gcg"
    assert (
        export.attachments[0]
        .data.decode()
        .startswith(
            "#character-encoding UTF-8\n#lexicon TESTWORDS\n#variant standard\n#player1 Alice Alice\n"
        )
    )
    assert harness.store is not None
    rows = await harness.store.leaderboard(GUILD, "scrabble", 10)
    assert sorted(row.user_id for row in rows) == [ALICE.id, BOB.id]
    assert sum(row.wins for row in rows) >= 3
    assert all(row.games == 3 for row in rows)
    first = rows[0]
    assert (first.wins, first.average) >= (rows[1].wins, rows[1].average)
    await service.set_feature(GUILD, "ratings", False)  # the board of wins (rated: see test_ratings.py)
    board = (await service.leaderboard(GUILD)).text.splitlines()
    assert board[0] == "Leaderboard:"
    assert board[1].startswith(f"1. {first.name}: {first.wins} wins in 3 games, average ")
    stats = (await service.stats(GUILD, ALICE.id)).text
    assert stats.startswith("Alice: 3 games, ") and ", best move " in stats


async def test_generator_advisor_suggests_typed_plays(enable_lexicon: object) -> None:
    from bot.games.scrabble.advisor import GeneratorAdvisor
    from scrabble_core.movegen import load_move_generator
    from scrabble_core.variant import get_variant

    advisor = GeneratorAdvisor(load_move_generator(enable_lexicon))  # type: ignore[arg-type]
    game = Game(get_variant("standard"), ["A", "B"], rng=random.Random(1), lexicon=enable_lexicon)  # type: ignore[arg-type]
    suggestions = await advisor.top_moves(game, 0, 3)
    assert 1 <= len(suggestions) <= 3
    best = suggestions[0]
    assert game.play(0, best.move)[0].score == best.score


# Options, enums, names, locks -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (NewGame(seed=2**63), "The seed must be a whole number from 0 to 4611686018427387903"),
        (NewGame(seed=-1), "The seed must be a whole number from 0 to 4611686018427387903"),
        (NewGame(hints="3"), "The number of hints must be a whole number, not str"),  # type: ignore[arg-type]
        (NewGame(turn_seconds=True), "The turn time limit must be a whole number, not bool"),
        (NewGame(ai_opponents=1.5), "The number of AI opponents must be a whole number, not float"),  # type: ignore[arg-type]
        (NewGame(variant=5), "The variant must be a name, not int"),  # type: ignore[arg-type]
        (
            NewGame(variant="x" * 100_000),
            "Unknown variant 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…: choose one of standard, super, diamond, infinite, letter-sets, standard-program",
        ),
        (
            NewGame(challenge_mode="\x00" * 500),
            "Unknown challenge mode '\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x…: choose one of void, single, double, five-point",
        ),
        (
            NewGame(ai_level="z" * 6000),
            "Unknown AI level 'zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz…: choose one of easy, medium, hard, greedy, expert",
        ),
    ],
)
async def test_option_values_are_bounded_typed_and_echoed_cut(
    harness: Harness, options: NewGame, message: str
) -> None:
    with pytest.raises(OptionError) as refused:
        await harness.svc.new_game(GUILD, CHANNEL, ALICE, options)
    assert str(refused.value) == message
    assert await game_row_state(harness) == []
    assert harness.notifier.posts == []


async def test_ai_levels_and_challenge_modes_are_the_engines_enums_end_to_end(harness: Harness) -> None:
    assert tuple(Level) == AI_LEVELS
    await started_game(harness, (ALICE,), ai=1, ai_level="hard", challenge_mode="double")
    assert harness.store is not None
    (stored,) = await harness.store.open_games()
    row = harness.svc.plugin.restore(stored)  # as Scrabble reads its stored options and seats
    assert row.options.challenge_mode is ChallengeMode.DOUBLE
    assert row.options.ai_level is Level.HARD
    assert row.row.seats[1].ai_level is Level.HARD
    assert harness.svc.game(CHANNEL).challenge_mode is ChallengeMode.DOUBLE
    await play_turn(harness, (ALICE,))
    assert harness.ai.calls and all(level is Level.HARD for _, level, _ in harness.ai.calls)
    # Stored as the plain strings of before: old rows load, new rows read the same.
    ((options,),) = query(harness.database, "SELECT options FROM games")
    ((level,),) = query(harness.database, "SELECT ai_level FROM seats WHERE seat = 1")
    assert isinstance(options, str)
    assert '"challenge_mode": "double"' in options and '"ai_level": "hard"' in options
    assert level == "hard"
    await harness.restart()
    (stored,) = await harness.store.open_games()
    row = harness.svc.plugin.restore(stored)
    assert (row.options.challenge_mode, row.row.seats[1].ai_level) == (ChallengeMode.DOUBLE, Level.HARD)


async def test_display_names_are_shown_as_text(harness: Harness) -> None:
    mallory = User(66, "**x** <@123> [x](u) @everyone")
    await harness.svc.new_game(GUILD, CHANNEL, mallory, NewGame(seed=CREATOR_FIRST_SEED))
    await harness.svc.idle()
    shown = r"\*\*x\*\* \<\@123\> \[x\]\(u\) \@everyone"
    lobby = harness.notifier.posts[-1][1]
    assert f"Players (1/4): {shown} (<@66>)" in lobby.text
    assert lobby.mentions == (66,)  # only the player is pinged: never 123 nor everyone
    await harness.svc.join(CHANNEL, BOB)
    await harness.svc.start_game(CHANNEL, mallory.id)
    await harness.svc.idle()
    start = harness.notifier.posts[-1][1]
    assert f"Scores: {shown} 0 · Bob 0\nNext: {shown} (<@66>)." in start.text
    assert harness.svc.game(CHANNEL).players[0].name == mallory.name  # stored as it is


async def test_channel_locks_and_the_game_index_follow_the_open_games(harness: Harness) -> None:
    runner = harness.games
    channels = [5000 + i for i in range(10)]
    for channel in channels:
        await harness.svc.new_game(GUILD, channel, ALICE, NewGame(seed=CREATOR_FIRST_SEED))
    assert [harness.svc.channel_of(game_id) for game_id in range(1, 11)] == channels
    assert len(runner.locks) == 0  # no lock is kept for a channel nobody is acting in
    await asyncio.gather(*(harness.svc.cancel(channel, ALICE.id, can_manage=False) for channel in channels))
    assert len(runner.locks) == 0
    for game_id in range(1, 11):
        with pytest.raises(NoGameError, match=r"^That game is over$"):
            harness.svc.channel_of(game_id)


def test_the_service_never_imports_pillow() -> None:
    """The renderer is injected (``bot.games.scrabble.images.renderer.PngRenderer`` by the bot): the service and its
    builder load no image library."""
    code = (
        "import sys, bot.games.scrabble.commands, bot.host.assembly; "
        "sys.exit(sorted(m for m in sys.modules if m == 'PIL' or m.startswith('bot.render')) or 0)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], check=False, capture_output=True, text=True, timeout=60
    )
    assert (done.returncode, done.stderr) == (0, "")


# Challenge windows -------------------------------------------------------------------------------

WINDOW_TEXT = (
    "AI plays in {} seconds, or as soon as everyone else has pressed No challenge: press Challenge if you "
    "doubt the last play."
)
PLAY_TEXT = (
    "Alice played AB at 8H (across) for 8.\nScores: Alice 8 · AI 0 · Bob 0\nNext: AI. 77 tiles in the bag."
)


async def window_game(harness: Harness, mode: str = "single") -> tuple[int, ...]:
    """Alice, the AI and Bob (seats 0, 1, 2); Alice plays, so the AI's window opens. Returns the
    history's kinds before the AI plays."""
    await started_game(harness, (ALICE, BOB), ai=1, challenge_mode=mode)
    play = find_play(harness.svc.game(CHANNEL), 0)
    assert play is not None
    await harness.svc.play(CHANNEL, ALICE.id, typed(play))
    await delivered(harness)
    await settle()
    return tuple(e.player for e in harness.svc.game(CHANNEL).history)


async def test_an_ai_waits_a_challenge_window_after_a_humans_play(harness: Harness) -> None:
    assert await window_game(harness) == (0,)
    window = harness.notifier.posts[-1][1]  # the play's post says the window
    assert window.text == PLAY_TEXT + "\n" + WINDOW_TEXT.format(15)
    assert (window.buttons, window.turn) == ((Button.SHOW_RACK, Button.CHALLENGE, Button.NO_CHALLENGE), 1)
    assert harness.ai.calls == []
    await harness.clock.advance(14)
    assert len(harness.svc.game(CHANNEL).history) == 1  # still waiting
    await harness.clock.advance(1)
    await harness.svc.idle()
    assert [e.player for e in harness.svc.game(CHANNEL).history] == [0, 1]


async def test_the_window_ends_when_every_other_human_lets_the_play_stand(harness: Harness) -> None:
    await window_game(harness)
    with pytest.raises(StaleTurnError, match=r"^That play can no longer be challenged$"):
        await harness.svc.no_challenge(CHANNEL, BOB.id, turn=0)
    assert (await harness.svc.no_challenge(CHANNEL, BOB.id, turn=1)).text == "You let the play stand."
    await harness.svc.idle()  # no time passed: Bob was the only other human
    assert [e.player for e in harness.svc.game(CHANNEL).history] == [0, 1]
    with pytest.raises(StaleTurnError, match=r"^That play can no longer be challenged$"):
        await harness.svc.no_challenge(CHANNEL, BOB.id)  # no window open any more


async def test_a_challenge_in_the_window_is_judged_before_the_ai_plays(harness: Harness) -> None:
    await window_game(harness)
    harness.lexicon.phonies.update(harness.svc.game(CHANNEL).challengeable_words())
    ack = await harness.svc.challenge(CHANNEL, BOB.id, turn=1)
    assert ack.text == "Your challenge was upheld: the play came off the board."
    await harness.svc.idle()  # the AI plays at once after the verdict
    kinds = [(e.kind.value, e.player) for e in harness.svc.game(CHANNEL).history]
    assert kinds == [("play", 0), ("withdrawn", 0), ("play", 1)]


async def test_the_window_survives_a_restart(harness: Harness) -> None:
    await window_game(harness)
    posts = harness.notifier.texts()
    assert posts[-1] == PLAY_TEXT + "\n" + WINDOW_TEXT.format(15)
    await harness.clock.advance(10)
    await harness.restart()
    await settle()
    assert harness.notifier.texts() == posts  # the post that says the window went out before
    await harness.clock.advance(4)
    assert len(harness.svc.game(CHANNEL).history) == 1  # its stored deadline: still waiting
    await harness.clock.advance(1)
    await harness.svc.idle()
    assert [e.player for e in harness.svc.game(CHANNEL).history] == [0, 1]


async def test_no_window_in_void_games_or_with_one_human(tmp_path: Path) -> None:
    for mode, users in (("void", (ALICE, BOB)), ("single", (ALICE,))):
        (tmp_path / mode).mkdir()
        harness = await open_harness(tmp_path / mode)
        try:
            await started_game(harness, users, ai=1, challenge_mode=mode)
            await play_turn(harness, users)  # idle() returns: the AI played at once
            assert [e.player for e in harness.svc.game(CHANNEL).history] == [0, 1]
            assert not any(Button.NO_CHALLENGE in message.buttons for _, message in harness.notifier.posts)
        finally:
            await harness.close()
