"""Go through the discord layer: ``/go`` payloads dispatched through the bot's real command tree and
view store, the real Go service over a SQLite file and real board images, every REST request captured
by the fake Discord API. The AI is scripted (:class:`go_fakes.ScriptedGoAi`) so that games are exact.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
import re
from typing import Any

import pytest
from discord_fake import (
    BotHarness,
    FakeDiscord,
    MakeHarness,
    RecordedRequest,
    bool_option,
    custom_ids,
    integer_option,
    string_option,
    thread_channel_payload,
    user_option,
)
from go_fakes import ScriptedGoAi
from PIL import Image

from bot.games.go.board_image import image_size
from bot.games.go.commands import GoCommands
from bot.games.go.engines import Level
from bot.games.go.sgf import import_sgf

ALICE = 700_000_000_000_000_001  # the payloads' default user, named "alice"
BOB = 700_000_000_000_000_002
CAROL = 700_000_000_000_000_003
CHANNEL_MESSAGE = 4
AUTOCOMPLETE_RESULT = 8
MODAL = 9
GO_BUTTON = re.compile(r"go:(?P<action>[a-z-]+):(?P<game>[0-9]+)(?::(?P<turn>[0-9]+))?")


# -- helpers ------------------------------------------------------------------------------------------


def channel(h: BotHarness) -> int:
    return h.payloads.channel_id


async def go(h: BotHarness, name: str, *options: dict[str, Any], **kwargs: Any) -> RecordedRequest:
    """Run ``/go name`` and return the message it is answered with."""
    return await h.reply(h.payloads.slash(name, options, group="go", **kwargs))


def go_of(h: BotHarness) -> GoCommands:
    """The bot's Go commands."""
    return h.go


def posts(h: BotHarness) -> list[RecordedRequest]:
    """Every message posted in the channel."""
    return h.fake.find("POST", f"/channels/{channel(h)}/messages")


def last_post(h: BotHarness) -> RecordedRequest:
    return posts(h)[-1]


def go_buttons(message: dict[str, Any]) -> list[str]:
    """The actions of a stored message's Go buttons, in order."""
    return [match["action"] for cid in custom_ids(message) if (match := GO_BUTTON.fullmatch(cid))]


def newest_with(h: BotHarness, action: str) -> tuple[dict[str, Any], str]:
    """The newest channel message with the Go button ``action``, and that button's custom id."""
    for message in reversed(h.fake.channel_messages(channel(h))):
        for custom_id in custom_ids(message):
            match = GO_BUTTON.fullmatch(custom_id)
            if match and match["action"] == action:
                return message, custom_id
    raise AssertionError(f"no message has the button {action}")


async def click(h: BotHarness, action: str, *, user_id: int | None = None) -> RecordedRequest:
    """Click ``action`` on the newest message that has it; return the answer."""
    message, custom_id = newest_with(h, action)
    return await h.reply(h.payloads.component(message, custom_id, user_id=user_id))


async def two_players(h: BotHarness, *options: dict[str, Any]) -> None:
    """Alice opens a Go game (Black) and Bob joins (White): the game starts."""
    await go(h, "new", *options)
    await go(h, "join", user_id=BOB)
    await h.service.idle()


async def moves(h: BotHarness, *points: str) -> None:
    """Alice and Bob play ``points`` in turn with ``/go play``, Alice first."""
    for index, point in enumerate(points):
        reply = await go(h, "play", string_option("point", point), user_id=BOB if index % 2 else None)
        assert reply.content == ("You passed." if point == "pass" else f"You played {point}."), reply.content


def png_size(data: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "PNG"
        return image.size


def invite(h: BotHarness, user_id: int) -> dict[str, Any]:
    """The keyword arguments of ``/go new`` that invite ``user_id`` (its option and resolved data)."""
    option, resolved = user_option("opponent", user_id, h.payloads.guild_id)
    return {"options": option, "resolved": resolved}


BOB_NAME = "User700000000000000002"
PLAYERS_LINE = f"Black: Alice (captured 0) · White: {BOB_NAME} (captured 0)"
WALL = ("C1", "D1", "C2", "D2", "C3", "D3", "C4", "D4", "C5", "D5")
"""Black's wall on column C, White's on D, of a 5×5 board."""


# -- whole games --------------------------------------------------------------------------------------


async def test_two_players_play_to_the_end_with_dead_stones_accepted_and_the_result_posted(
    make_harness: MakeHarness,
) -> None:
    h = await make_harness(go_ai=ScriptedGoAi())
    invited = invite(h, BOB)
    created = await go(h, "new", integer_option("size", 5), invited["options"], resolved=invited["resolved"])
    assert created.ephemeral
    assert created.content == "Your Go game is open: it starts when the member you invited presses Join."
    (lobby,) = posts(h)
    assert lobby.content == (
        f"<@{ALICE}> opened a Go game (5×5, komi 7.5, area scoring, no time limit) and plays Black.\n"
        f"<@{BOB}> is invited to play White."
    )
    assert go_buttons(lobby.json) == ["go-join", "go-cancel"]
    assert lobby.json["allowed_mentions"]["users"] == [ALICE, BOB]

    refused = await click(h, "go-join", user_id=CAROL)
    assert refused.ephemeral
    assert refused.content == f"This game waits for <@{BOB}>: only they can join it"
    joined = await click(h, "go-join", user_id=BOB)
    assert joined.content == "You joined the game."
    start = last_post(h)
    assert start.content == (f"<@{BOB}> joined.\n{PLAYERS_LINE}\n<@{ALICE}>, your move as Black.")
    assert go_buttons(start.json) == ["go-play", "go-pass", "go-undo", "go-resign"]

    await moves(h, *WALL)
    assert (await click(h, "go-pass")).content == "You passed."
    # White plays A1 through the Play button's form, inside Black's area
    message, custom_id = newest_with(h, "go-play")
    form = await h.ack(h.payloads.component(message, custom_id, user_id=BOB))
    assert form.json["type"] == MODAL
    played = await h.reply(
        h.payloads.modal_submit(form.json["data"]["custom_id"], {"point": "a1"}, user_id=BOB)
    )
    assert played.content == "You played A1."
    await go(h, "pass")
    await click(h, "go-pass", user_id=BOB)

    scoring = last_post(h)
    assert scoring.content.splitlines()[2:] == [
        "Both players passed. Dead stones marked (the test AI proposed them): none.",
        "Mark or unmark a group with /go dead <point>, then accept the count once it is right, or resume play.",
        "Count as marked: Black 5 (stones 5 + territory 0), White 18.5 (stones 6 + territory 5 + komi 7.5): "
        "White wins by 13.5",
    ]
    assert go_buttons(scoring.json) == ["go-accept-score", "go-resume", "go-undo", "go-resign"]
    marked = await go(h, "dead", string_option("point", "A1"))
    assert marked.content == "You marked the group at A1 (1 stone) dead."
    assert last_post(h).content.startswith("Alice (Black) marked the group at A1 (1 stone) dead.\n")
    assert (await click(h, "go-accept-score")).content == "You accepted the count."
    assert (await click(h, "go-accept-score", user_id=BOB)).content == "You accepted the count."

    result = last_post(h)
    assert result.content == (
        f"{BOB_NAME} (White) accepted the count.\n{PLAYERS_LINE}\n"
        f"Game over: {BOB_NAME} (White) wins against Alice (Black) by 2.5 points.\n"
        "Black 15 (stones 5 + territory 10), White 17.5 (stones 5 + territory 5 + komi 7.5): White wins by 2.5"
    )
    assert go_buttons(result.json) == []
    (board,) = result.files
    assert board.filename == f"go-1-{len(posts(h)) - 1}.png"
    assert png_size(board.data) == image_size(5)
    assert not go_of(h).has_game(channel(h))
    stats = await go(
        h, "stats", user_option("user", BOB, h.payloads.guild_id)[0], resolved=invited["resolved"]
    )
    assert stats.ephemeral  # for the asker alone unless shared
    assert stats.content.splitlines() == [
        f"Go in this server, {BOB_NAME}: 1 game, 1 won, 0 lost, 0 drawn.",
        "Go: Rating 3.4 (μ 27.64, σ 8.07; rating = μ − 3σ: the skill estimate μ less three times its "
        "uncertainty σ), rank 1 of 2 in this server, provisional (1 of 5 rated games).",
    ]


async def test_a_game_against_the_ai_to_the_end(make_harness: MakeHarness) -> None:
    ai = ScriptedGoAi(["D1", "D1", "D2", "D3", "D4", "D5"])
    h = await make_harness(go_ai=ai)
    created = await go(h, "new", integer_option("size", 5), string_option("ai_level", "hard"))
    assert created.content == "Your game against the AI (hard) has started."
    (start,) = posts(h)
    assert start.content == (
        f"<@{ALICE}> plays the AI (hard).\nBlack: Alice (captured 0) · White: AI (captured 0)\n"
        f"<@{ALICE}>, your move as Black."
    )
    await go(h, "play", string_option("point", "C1"))
    await h.service.idle()
    played, ai_played = last_post(h).content.split("\n\n")  # the AI's move in the same post
    assert played == "Alice (Black) played C1."
    assert ai_played.splitlines()[0] == "AI (White) played D1."

    taken = await go(h, "undo")  # the AI consents at once
    assert taken.content == "Your move was taken back."
    assert last_post(h).content.splitlines()[0] == "Alice (Black) took back White's D1 and Black's C1."
    assert go_of(h).game(channel(h)).moves == ()

    for point in ("C1", "C2", "C3", "C4", "C5"):
        await go(h, "play", string_option("point", point))
        await h.service.idle()
    await go(h, "pass")
    await h.service.idle()  # the AI passes too: it accepts its own proposal
    scoring = last_post(h)
    assert scoring.content.startswith("Alice (Black) passed.\n\nAI (White) passed.\n")
    assert scoring.content.splitlines()[-1] == "Accepted by: White."
    await click(h, "go-accept-score")
    assert last_post(h).content.splitlines()[2:] == [
        "Game over: AI (White) wins against Alice (Black) by 2.5 points.",
        "Black 15 (stones 5 + territory 10), White 17.5 (stones 5 + territory 5 + komi 7.5): White wins by 2.5",
    ]
    assert {level for level, _ in ai.calls} == {Level.HARD}
    assert not go_of(h).has_game(channel(h))


# -- one game per channel -----------------------------------------------------------------------------


async def test_a_channel_with_a_scrabble_game_refuses_go_new_and_vice_versa(harness: BotHarness) -> None:
    h = harness
    await h.reply(h.payloads.slash("new"))  # /scrabble new
    before = len(posts(h))
    refused = await go(h, "new")
    assert refused.ephemeral
    assert refused.content == (
        "This channel already has a Scrabble game: finish or cancel it first, or use another channel or a thread"
    )
    assert len(posts(h)) == before
    assert not go_of(h).has_game(channel(h))

    await h.reply(h.payloads.slash("cancel"))
    assert (await go(h, "new")).content == "Your Go game is open: it starts when someone presses Join."
    before = len(posts(h))
    refused = await h.reply(h.payloads.slash("new"))
    assert refused.ephemeral
    assert refused.content == (
        "This channel already has a Go game: finish or cancel it first, or use another channel or a thread"
    )
    assert len(posts(h)) == before


# -- undo, buttons, errors ----------------------------------------------------------------------------


async def test_undo_needs_the_opponents_consent(harness: BotHarness) -> None:
    h = harness
    await two_players(h, integer_option("size", 5))
    await moves(h, "C3", "D3")
    asked = await go(h, "undo")
    assert asked.content == "You asked to take back your move: your opponent answers."
    question = last_post(h)
    assert question.content.splitlines()[-1] == (
        f"<@{BOB}>, Alice asked to take back Black's C3 and White's D3: do you accept?"
    )
    assert go_buttons(question.json) == ["go-undo-accept", "go-undo-refuse"]
    assert question.json["allowed_mentions"]["users"] == [BOB]

    own = await click(h, "go-undo-accept")
    assert own.ephemeral
    assert own.content == "Your opponent answers your request, not you"
    stranger = await click(h, "go-undo-accept", user_id=CAROL)
    assert stranger.content == "You are not playing in this game"
    assert len(go_of(h).game(channel(h)).moves) == 2

    accepted = await click(h, "go-undo-accept", user_id=BOB)
    assert accepted.content == "You accepted: the moves were taken back."
    assert last_post(h).content.splitlines()[0] == (
        f"{BOB_NAME} (White) accepted: White's D3 and Black's C3 taken back."
    )
    assert go_of(h).game(channel(h)).moves == ()

    await moves(h, "C3")
    await go(h, "undo")
    assert (await click(h, "go-undo-refuse", user_id=BOB)).content == "You refused."
    assert last_post(h).content.splitlines()[0] == f"{BOB_NAME} (White) refused to take back the move."
    assert [str(move) for move in go_of(h).game(channel(h)).moves] == ["B C3"]


async def test_buttons_refuse_whoever_may_not_press_them_and_change_nothing(harness: BotHarness) -> None:
    h = harness
    await two_players(h, integer_option("size", 5))
    before = len(posts(h))
    stranger = await click(h, "go-pass", user_id=CAROL)
    assert stranger.ephemeral
    assert stranger.content == "You are not playing in this game"
    not_yet = await click(h, "go-pass", user_id=BOB)
    assert not_yet.ephemeral
    assert not_yet.content == "It is Black's turn"
    resign = await click(h, "go-resign", user_id=CAROL)
    assert resign.content == "You are not playing in this game"
    assert len(posts(h)) == before
    assert go_of(h).game(channel(h)).moves == ()

    old_message, old_pass = newest_with(h, "go-pass")
    await moves(h, "C3", "D3")  # Alice's Pass button above is two moves old
    stale = await h.reply(h.payloads.component(old_message, old_pass))
    assert stale.content == "The game has moved on since that turn: nothing was done, look at the board again"
    assert len(go_of(h).game(channel(h)).moves) == 2


async def test_moves_are_checked_with_clear_short_errors(harness: BotHarness) -> None:
    h = harness
    await two_players(h, integer_option("size", 5))
    await moves(h, "C3")
    cases = {
        "C3": "C3 is already occupied",
        "I3": "'I3' is not a point: Go coordinates skip I (… H, J …)",
        "Z9": "Z9 is off the board: this board is 5×5",
        "x" * 300: f"'{'x' * 40}…' is not a point: type a column letter and a row number, e.g. D4",
    }
    for point, error in cases.items():
        reply = await go(h, "play", string_option("point", point), user_id=BOB)
        assert reply.ephemeral
        assert reply.content == error
    not_yours = await go(h, "play", string_option("point", "d4"))
    assert not_yours.content == "It is White's turn"
    assert [str(move) for move in go_of(h).game(channel(h)).moves] == ["B C3"]


async def test_go_commands_need_a_go_game_and_a_server(harness: BotHarness) -> None:
    h = harness
    assert (await go(h, "pass")).content == "There is no Go game in this channel: start one with /go new"
    in_dm = await go(h, "play", string_option("point", "D4"), dm=True)
    assert in_dm.ephemeral
    assert in_dm.content == "Go games are played in server channels: use this command in a server."
    export = await go(h, "export")
    assert export.content == "No Go game has ended in this channel yet: start one with /go new"


async def test_export_sends_the_sgf_record_privately(harness: BotHarness) -> None:
    h = harness
    await two_players(h, integer_option("size", 5))
    await moves(h, "C3", "D3")
    record = await go(h, "export")
    assert record.ephemeral
    assert record.content == (
        f"The record of the Go game Alice (Black) vs {BOB_NAME} (White) (5×5, komi 7.5, area scoring, no time limit)."
    )
    (sgf,) = record.files
    assert sgf.filename == "go-1.sgf"
    assert sgf.data == (
        b"(;FF[4]AP[scrabble-host Go:1]CA[UTF-8]GM[1]KM[7.5]PB[Alice]\n"
        b"PW[User700000000000000002]RU[Chinese]SZ[5];B[cc];W[dc])\n"
    )
    replayed = import_sgf(sgf.data.decode())
    assert replayed.game == go_of(h).game(channel(h))


# -- suggestions, questions, restarts -----------------------------------------------------------------


def suggested(callback: RecordedRequest) -> list[tuple[str, Any]]:
    """The (name, value) of the choices an autocomplete callback sends."""
    assert callback.json["type"] == AUTOCOMPLETE_RESULT
    return [(choice["name"], choice["value"]) for choice in callback.json["data"]["choices"]]


async def test_play_suggests_the_legal_points_and_says_why_one_is_not(harness: BotHarness) -> None:
    h = harness
    await two_players(h, integer_option("size", 5))
    await moves(h, "B2", "A2", "C1", "B1", "A3")  # Black A1 would capture White's B1 (A2 is taken)

    typed_c = await h.ack(h.payloads.autocomplete("play", "point", "c", group="go", user_id=BOB))
    assert suggested(typed_c) == [("C2", "C2"), ("C3", "C3"), ("C4", "C4"), ("C5", "C5")]
    await go(h, "play", string_option("point", "D5"), user_id=BOB)
    typed_a = await h.ack(h.payloads.autocomplete("play", "point", "a", group="go"))
    assert suggested(typed_a) == [("A1 (captures 2)", "A1"), ("A4", "A4"), ("A5", "A5")]
    taken = await h.ack(h.payloads.autocomplete("play", "point", "b2", group="go"))
    assert suggested(taken) == [("B2: B2 is already occupied", "B2")]
    nothing = await h.ack(h.payloads.autocomplete("play", "point", "", group="go"))
    names = [name for name, _ in suggested(nothing)]
    assert names[:3] == ["pass", "A1 (captures 2)", "A4"]
    assert len(names) == 1 + 25 - 6  # pass, and every empty point: all are legal


async def test_new_suggests_board_sizes(harness: BotHarness) -> None:
    h = harness
    every = await h.ack(h.payloads.autocomplete("new", "size", "", group="go"))
    assert [value for _, value in suggested(every)][:5] == [19, 13, 9, 2, 3]
    assert len(suggested(every)) == 24
    ones = await h.ack(h.payloads.autocomplete("new", "size", "1", group="go"))
    assert suggested(ones) == [
        ("19×19", 19),
        ("13×13", 13),
        *((f"{size}×{size}", size) for size in (10, 11, 12, 14, 15, 16, 17, 18)),
    ]


async def test_board_and_score_are_private_or_shared_and_ping_nobody(harness: BotHarness) -> None:
    h = harness
    await two_players(h, integer_option("size", 9))
    await moves(h, "E5")
    private = await h.ack(h.payloads.slash("board", group="go", user_id=CAROL))
    assert private.ephemeral  # for the asker alone unless shared
    payload = h.payloads.slash("board", [bool_option("public", True)], group="go", user_id=CAROL)
    board = await h.ack(payload)
    assert board.json["type"] == CHANNEL_MESSAGE  # answered at once: not deferred
    assert not board.ephemeral
    assert board.content == (
        f"Black: Alice (captured 0) · White: {BOB_NAME} (captured 0)\n<@{BOB}>, your move as White."
    )
    assert board.body["allowed_mentions"] == {"parse": []}  # no one pinged
    assert go_buttons(board.body) == ["go-play", "go-pass", "go-undo", "go-resign"]
    (image,) = board.files
    assert png_size(image.data) == image_size(9)
    score = await go(h, "score", bool_option("public", True), user_id=CAROL)
    assert not score.ephemeral
    assert score.content.splitlines()[1] == (
        "Count if the game ended now, no stone dead: Black 81 (stones 1 + territory 80), "
        "White 7.5 (stones 0 + territory 0 + komi 7.5): Black wins by 73.5"
    )


async def test_buttons_and_forms_still_work_after_a_restart(make_harness: MakeHarness) -> None:
    h = await make_harness()
    await two_players(h, integer_option("size", 5))
    message, play = newest_with(h, "go-play")
    form = await h.ack(h.payloads.component(message, play))
    restarted = await make_harness()  # a new bot process on the same database
    submitted = await restarted.reply(
        restarted.payloads.modal_submit(form.json["data"]["custom_id"], {"point": "C3"})
    )
    assert submitted.content == "You played C3."
    assert (await click(restarted, "go-pass", user_id=BOB)).content == "You passed."
    assert [str(move) for move in go_of(restarted).game(channel(h)).moves] == ["B C3", "W pass"]


async def test_a_go_form_that_is_not_one_of_the_bots_is_refused(harness: BotHarness) -> None:
    h = harness
    await two_players(h, integer_option("size", 5))
    unknown = await h.reply(h.payloads.modal_submit("go:go-hack:1:1:1", {"point": "C3"}))
    assert unknown.ephemeral
    assert unknown.content == "This form is not one the bot knows: use the game's buttons again."
    too_long = await h.reply(h.payloads.modal_submit("go:go-play-form:1:1:1", {"point": "C3C3C"}))
    assert too_long.content == "This form is not one the bot knows: use the game's buttons again."
    assert go_of(h).game(channel(h)).moves == ()


async def test_the_lobby_is_cancelled_by_its_creator_only(harness: BotHarness) -> None:
    h = harness
    await go(h, "new")
    no_board_yet = await h.ack(h.payloads.autocomplete("play", "point", "", group="go"))
    assert suggested(no_board_yet) == []
    refused = await click(h, "go-cancel", user_id=BOB)
    assert refused.content == "Only the game's creator (or a moderator) can cancel it"
    assert (await click(h, "go-cancel")).content == "You cancelled the game."
    assert last_post(h).content == f"<@{ALICE}> cancelled the Go game."
    assert not go_of(h).has_game(channel(h))


async def test_dead_suggests_the_stones_marked_dead_or_alive(make_harness: MakeHarness) -> None:
    h = await make_harness(go_ai=ScriptedGoAi(dead=["A1"]))
    await two_players(h, integer_option("size", 5))
    await moves(h, *WALL, "pass", "A1", "pass", "pass")
    proposed = await h.ack(h.payloads.autocomplete("dead", "point", "a", group="go"))
    assert suggested(proposed) == [("A1 (marked dead)", "A1")]
    await go(h, "dead", string_option("point", "a1"), user_id=BOB)
    after = await h.ack(h.payloads.autocomplete("dead", "point", "", group="go"))
    assert suggested(after)[:2] == [("A1 (alive)", "A1"), ("C1 (alive)", "C1")]
    assert len(suggested(after)) == 11
    none_to_play = await h.ack(h.payloads.autocomplete("play", "point", "b", group="go"))
    assert suggested(none_to_play) == []


async def test_the_go_group_is_synced_with_its_options(
    make_harness: MakeHarness, fake_discord: FakeDiscord
) -> None:
    await make_harness(sync_commands=True)
    (put,) = fake_discord.find("PUT", "/applications/")
    (group,) = [command for command in put.json if command["name"] == "go"]
    assert [c["name"] for c in group["options"]] == [
        "new", "join", "cancel", "play", "pass", "resign", "undo", "dead", "accept", "resume",
        "board", "score", "export", "stats", "help",
    ]  # fmt: skip
    commands = {c["name"]: c for c in group["options"]}
    new = {o["name"]: o for o in commands["new"]["options"]}
    assert (new["size"]["type"], new["size"]["min_value"], new["size"]["max_value"]) == (4, 2, 25)
    assert new["size"]["autocomplete"] is True
    assert (new["komi"]["type"], new["komi"]["min_value"], new["komi"]["max_value"]) == (10, -1000, 1000)
    assert (new["handicap"]["min_value"], new["handicap"]["max_value"]) == (0, 9)
    assert new["opponent"]["type"] == 6
    assert [c["value"] for c in new["ai_level"]["choices"]] == ["easy", "medium", "hard"]
    assert [c["value"] for c in new["colour"]["choices"]] == ["black", "white", "random"]
    assert [c["value"] for c in new["scoring"]["choices"]] == ["area", "stones"]
    assert not any(o["required"] for o in new.values())
    for name in ("play", "dead"):
        (point,) = commands[name]["options"]
        assert (point["name"], point["required"], point["autocomplete"]) == ("point", True, True)

    def check(command: dict[str, Any]) -> None:
        assert 0 < len(command["description"].strip()) <= 100, command["name"]
        for option in command.get("options", []):
            check(option)

    check(group)
    assert len(json.dumps(group)) < 8000  # Discord's limit on a command's total text


async def test_help_lists_the_go_commands(harness: BotHarness) -> None:
    reply = await go(harness, "help", dm=True)
    assert reply.ephemeral
    lines = reply.content.splitlines()
    assert lines[0] == "**Go commands**"
    assert "`/go play <point>`: Play a stone, e.g. D4 (columns skip I), or pass" in lines
    assert len(lines) == 16


async def test_a_handicap_game_starts_with_whites_move(harness: BotHarness) -> None:
    h = harness
    await two_players(h, integer_option("size", 9), integer_option("handicap", 2))
    start = last_post(h)
    assert start.content.splitlines()[-1] == f"<@{BOB}>, your move as White."
    assert posts(h)[0].content.startswith(
        f"<@{ALICE}> opened a Go game (9×9, komi 0.5, handicap 2, area scoring, no time limit)"
    )
    refused = await go(h, "new", user_id=CAROL)
    assert refused.content == (
        "This channel already has a Go game: finish or cancel it first, or use another channel or a thread"
    )


async def test_a_player_out_of_time_loses_and_the_channel_is_told(harness: BotHarness) -> None:
    h = harness
    await two_players(h, integer_option("size", 5), integer_option("time_limit", 1))
    assert last_post(h).content.endswith("your move as Black (1 seconds).")
    (lost,) = await h.fake.wait_for(
        lambda r: r.path == f"/channels/{channel(h)}/messages" and "ran out of time" in r.content
    )
    assert lost.content.splitlines()[0] == "Alice (Black) ran out of time."
    assert (
        lost.content.splitlines()[2]
        == f"Game over: {BOB_NAME} (White) wins against Alice (Black, timed out)."
    )
    assert go_buttons(lost.json) == []


async def test_resume_plays_on_and_resign_ends_the_game(harness: BotHarness) -> None:
    h = harness
    await two_players(h, integer_option("size", 5))
    await moves(h, "C3", "pass", "pass")
    scoring_message, accept = newest_with(h, "go-accept-score")
    assert (await click(h, "go-resume", user_id=BOB)).content == "You resumed play."
    assert last_post(h).content.splitlines()[0] == f"{BOB_NAME} (White) resumed play."
    assert go_buttons(last_post(h).json) == ["go-play", "go-pass", "go-undo", "go-resign"]
    late = await h.reply(h.payloads.component(scoring_message, accept))
    assert late.content == "The game has moved on since that turn: nothing was done, look at the board again"

    assert (await click(h, "go-resign")).content == "You resigned."
    result = last_post(h)
    assert result.content.splitlines()[0] == "Alice (Black) resigned."
    assert (
        result.content.splitlines()[2]
        == f"Game over: {BOB_NAME} (White) wins against Alice (Black, resigned)."
    )
    assert go_buttons(result.json) == []
    over = await h.reply(h.payloads.component(scoring_message, accept))
    assert over.content == "That game is over"


async def test_a_thread_holds_its_own_go_game_beside_the_channels_scrabble_game(harness: BotHarness) -> None:
    h = harness
    await h.reply(h.payloads.slash("new"))  # /scrabble new in the channel
    thread = thread_channel_payload(h.payloads.channel_id + 1000, h.payloads.guild_id, channel(h), ALICE)
    created = await go(h, "new", integer_option("size", 9), channel=thread)
    assert created.content == "Your Go game is open: it starts when someone presses Join."
    (lobby,) = h.fake.find("POST", f"/channels/{thread['id']}/messages")
    assert go_buttons(lobby.json) == ["go-join", "go-cancel"]


async def test_new_refuses_options_that_do_not_go_together(harness: BotHarness) -> None:
    h = harness
    invited = invite(h, BOB)
    both = await go(
        h, "new", invited["options"], string_option("ai_level", "easy"), resolved=invited["resolved"]
    )
    assert both.ephemeral
    assert both.content == "Choose a member or the AI as your opponent, not both"
    small = await go(h, "new", integer_option("size", 5), integer_option("handicap", 3))
    assert small.content == "A 5×5 board takes no handicap stones: they go on boards from 7×7"
    assert posts(h) == []


async def test_new_refuses_to_invite_a_bot(harness: BotHarness) -> None:
    h = harness
    option, resolved = user_option("opponent", h.fake.bot_user_id, h.payloads.guild_id)
    resolved["users"][str(h.fake.bot_user_id)]["bot"] = True
    refused = await go(h, "new", option, resolved=resolved)
    assert refused.ephemeral
    assert refused.content == "Bots do not join games: to play the bot's AI, choose an ai_level instead."
    assert posts(h) == []
    assert not go_of(h).has_game(channel(h))


async def test_a_go_action_under_scrabbles_namespace_is_no_scrabble_button(
    harness: BotHarness, caplog: pytest.LogCaptureFixture
) -> None:
    h = harness
    await two_players(h, integer_option("size", 5))
    message, custom_id = newest_with(h, "go-pass")
    forged = custom_id.replace("go:", "scrabble:", 1)
    message["components"][0]["components"][1]["custom_id"] = forged
    h.dispatch(h.payloads.component(message, forged))
    await asyncio.sleep(0.2)
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert go_of(h).game(channel(h)).moves == ()
