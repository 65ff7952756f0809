"""Every game command and button through the discord layer: Discord-shaped payloads dispatched through
the bot's real command tree and view store, the real game service over a SQLite file, and every REST
request (channel messages, DMs, interaction callbacks and followups) captured by the fake Discord API.

The service's AI, hints and images are its quick test stand-ins (``service_fakes``), and its lexicon
accepts every word, except in the whole-game test, which plays ENABLE with the real move generator.
"""

from __future__ import annotations

import asyncio
import copy
import json
import logging
import random
import re
from pathlib import Path
from typing import Any

import pytest
from discord_fake import (
    DEFAULT_PERMISSIONS,
    EPHEMERAL,
    MANAGE_MESSAGES,
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
from service_fakes import AnyWord, find_play, typed

import bot.discord.delivery
import bot.discord.notifier
from bot.config import Config, DiscordLimits
from bot.discord.notifier import DiscordNotifier
from bot.games.scrabble import text
from bot.games.scrabble.advisor import GeneratorAdvisor
from bot.games.scrabble.buttons import ScrabbleButton as Button
from bot.games.scrabble.commands import ScrabbleCommands
from bot.games.scrabble.rules import TOPICS
from bot.games.scrabble.settings import ScrabbleSettings
from bot.host.errors import NoGameError
from bot.host.messages import Attachment, Message
from scrabble_core.ai import Level, choose_move, seat_view
from scrabble_core.game import EventKind, Game
from scrabble_core.lexicon import load_enable
from scrabble_core.move import Move, Play
from scrabble_core.move_words import play_in_words, rack_in_words
from scrabble_core.movegen import MoveGenerator, load_move_generator
from scrabble_core.variant import assets_dir

APOLOGY = re.compile(r"Sorry, something went wrong \(error id ([0-9a-f]{6})\)\.")
CHANNEL_MESSAGE = 4
DEFERRED = 5
DEFERRED_UPDATE = 6
AUTOCOMPLETE_RESULT = 8
MODAL = 9

ALICE = 700_000_000_000_000_001  # the payloads' default user, named "alice"
BOB = 700_000_000_000_000_002
CAROL = 700_000_000_000_000_003
NO_GAME = "There is no game in this channel: start one with /scrabble new"
NOT_SEATED = "You are not playing in this game"
NOT_YOUR_TURN = "it is Alice's turn, not User700000000000000002's"
LOBBY_BUTTONS = ["join", "add-ai", "start", "cancel"]
TURN_BUTTONS = ["play", "exchange", "pass", "hint", "rack"]
RACK_TEXT = re.compile(r"Your rack in <#[0-9]+>: ([A-Z?]+|\(empty\))")


# -- helpers ------------------------------------------------------------------------------------------


def channel(h: BotHarness) -> int:
    """The channel the payloads come from."""
    return h.payloads.channel_id


async def slash(h: BotHarness, name: str, *options: dict[str, Any], **kwargs: Any) -> RecordedRequest:
    """Run ``/scrabble name`` and return the message it is answered with."""
    return await h.reply(h.payloads.slash(name, options, **kwargs))


async def answered_at_once(h: BotHarness, payload: dict[str, Any]) -> RecordedRequest:
    """Send ``payload`` and return its answer, which must be the interaction's response itself (a
    quick command is not deferred)."""
    callback = await h.ack(payload)
    assert callback.json["type"] == CHANNEL_MESSAGE
    return callback


async def click(
    h: BotHarness, action: str, *, user_id: int | None = None, permissions: str = DEFAULT_PERMISSIONS
) -> RecordedRequest:
    """Click ``action`` on the newest message of the channel that has it; return the answer."""
    message = h.fake.last_with_button(channel(h), f"scrabble:{action}:{game_id(h)}")
    payload = h.payloads.component(
        message, f"scrabble:{action}:{game_id(h)}", user_id=user_id, permissions=permissions
    )
    return await h.reply(payload)


def game_id(h: BotHarness) -> int:
    """The id of the newest game with buttons in the channel."""
    for message in reversed(h.fake.channel_messages(channel(h))):
        for custom_id in custom_ids(message):
            if match := re.fullmatch(r"scrabble:[a-z-]+:([0-9]+)(?::[0-9]+)?", custom_id):
                return int(match[1])
    raise AssertionError("no game message in the channel")


def buttons(message: dict[str, Any]) -> list[str]:
    """The actions of a stored message's buttons, in order."""
    return [custom_id.split(":")[1] for custom_id in custom_ids(message)]


def last_post(h: BotHarness) -> RecordedRequest:
    """The newest message posted in the channel."""
    return h.fake.find("POST", f"/channels/{channel(h)}/messages")[-1]


def posts(h: BotHarness) -> list[RecordedRequest]:
    """Every message posted in the channel."""
    return h.fake.find("POST", f"/channels/{channel(h)}/messages")


def assert_private(reply: RecordedRequest, content: str | None = None) -> None:
    """``reply`` is ephemeral (and says ``content``, if given)."""
    assert reply.ephemeral, reply.json
    if content is not None:
        assert reply.content == content


async def lobby(h: BotHarness, *options: dict[str, Any]) -> None:
    """Alice opens a lobby in the channel and Bob joins."""
    await slash(h, "new", *options)
    await slash(h, "join", user_id=BOB)


async def started(h: BotHarness, *options: dict[str, Any]) -> Game:
    """Alice and Bob's game, started; returns its state (Alice plays first)."""
    await lobby(h, *options)
    await slash(h, "start")
    await h.service.idle()
    return h.service.game(channel(h))


USERS_BY_NAME = {"Alice": ALICE, "User700000000000000002": BOB, "User700000000000000003": CAROL}


def turn_user(h: BotHarness) -> tuple[int, int]:
    """The user whose turn it is in the channel's game, and the next one."""
    game = h.service.game(channel(h))
    names = [p.name for p in game.players]
    current = names[game.current]
    following = names[(game.current + 1) % len(names)]
    return USERS_BY_NAME[current], USERS_BY_NAME[following]


def racks_sent(fake: FakeDiscord) -> set[str]:
    """Every rack sent by DM or ephemerally."""
    racks = set()
    for request in fake.requests:
        if match := RACK_TEXT.search(request.content):
            racks.add(match[1])
    return racks


SEAT_LINK = re.compile(r"#t=[0-9]+\.[pb][0-9]")
"""A board link that plays a seat (private: see :class:`StubLinks`)."""


class StubLinks:
    """Board links shaped like the web server's (:class:`bot.web.server.ServerLinks`)."""

    activity = False

    def spectator(self, game_id: int) -> str:
        return f"https://board.example/game#t={game_id}.s.0.{'s' * 22}"

    def seat(self, game_id: int, seat: int, *, renew: bool = False) -> str:
        return f"https://board.example/game#t={game_id}.p{seat}.{int(renew)}.{'p' * 22}"

    def program(self, game_id: int, user_id: int) -> tuple[str, str]:
        return "wss://board.example/ws", f"{game_id}.b{-1 - user_id}.0.{'b' * 22}"


def link_urls(request: RecordedRequest) -> list[str]:
    """The URLs of the link buttons of a request's message."""
    rows = request.body.get("components") or [] if isinstance(request.body, dict) else []
    return [c["url"] for row in rows for c in row.get("components", []) if "url" in c]


def assert_no_rack_in_public(
    fake: FakeDiscord, start: int = 0, until: int | None = None, allowed: set[str] | None = None
) -> int:
    """No public request (of ``fake.requests[start:until]``) shows a rack: no rack image, no rack or
    hint text, none of the racks sent privately (of 5 tiles or more, so that a short one is not mistaken
    for a word), except those ``allowed``; and no link that plays a seat. Returns how many public
    requests were checked."""
    racks = {rack for rack in racks_sent(fake) if len(rack) >= 5} - (allowed or set())
    checked = 0
    public = {id(r) for r in fake.public_requests()}
    for request in fake.requests[start:until]:
        if id(request) not in public:
            continue
        checked += 1
        assert "rack.png" not in request.filenames, request.route
        assert "Your rack" not in request.content
        assert "for your rack" not in request.content
        assert not SEAT_LINK.search(request.content), request
        assert not any(SEAT_LINK.search(url) for url in link_urls(request)), request
        for rack in racks:
            assert not re.search(rf"(?<![A-Z?]){re.escape(rack)}(?![A-Z?])", request.content), (rack, request)
    return checked


# -- no game, DMs, threads ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "options"),
    [
        ("join", ()),
        ("leave", ()),
        ("start", ()),
        ("cancel", ()),
        ("play", (string_option("move", "8H QUIZ"),)),
        ("exchange", (string_option("tiles", "Q"),)),
        ("pass", ()),
        ("resign", ()),
        ("challenge", ()),
        ("accept", ()),
        ("rack", ()),
        ("hint", ()),
        ("score", ()),
        ("bag", ()),
        ("check", (string_option("word", "QUIZ"),)),
    ],
)
async def test_game_commands_without_a_game_say_how_to_start_one(
    harness: BotHarness, command: str, options: tuple[dict[str, Any], ...]
) -> None:
    reply = await slash(harness, command, *options)
    assert_private(reply, NO_GAME)
    assert posts(harness) == []


async def test_a_quick_refusal_is_the_private_response_itself_without_a_public_thinking(
    harness: BotHarness,
) -> None:
    payload = harness.payloads.slash("board")
    assert_private(await answered_at_once(harness, payload), NO_GAME)
    assert harness.fake.find("DELETE", "/webhooks/") == []
    assert harness.fake.find("POST", "/webhooks/") == []


async def test_a_slow_board_refused_after_its_public_deferral_is_refused_privately(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bot.discord.delivery, "DEFER_AFTER", 0.01)

    async def slow_refusal(*args: object, **kwargs: object) -> Message:
        await asyncio.sleep(0.1)
        raise NoGameError(NO_GAME)

    monkeypatch.setattr(ScrabbleCommands, "board", slow_refusal)
    payload = harness.payloads.slash("board", [bool_option("public", True)])  # a board for the channel
    deferred = await harness.ack(payload)
    assert deferred.json == {"type": DEFERRED}  # public "thinking"
    (followup,) = await harness.fake.followups_for(payload)
    assert_private(followup, NO_GAME)
    (delete,) = harness.fake.find("DELETE", "/webhooks/")
    assert delete.path == f"/webhooks/{harness.fake.application_id}/{payload['token']}/messages/@original"
    assert harness.fake.requests.index(delete) < harness.fake.requests.index(followup)


async def test_history_without_any_game_says_so(harness: BotHarness) -> None:
    reply = await slash(harness, "history")
    assert_private(reply, "No game has ended in this channel yet: start one with /scrabble new")


@pytest.mark.parametrize("command", ["new", "join", "play", "stats", "leaderboard", "board"])
async def test_game_commands_are_refused_in_dms(harness: BotHarness, command: str) -> None:
    options = [string_option("move", "8H QUIZ")] if command == "play" else []
    callback = await harness.ack(harness.payloads.slash(command, options, dm=True))
    assert callback.json["type"] == CHANNEL_MESSAGE
    assert callback.json["data"] == {
        "content": "Scrabble games are played in server channels: use this command in a server.",
        "flags": EPHEMERAL,
        "tts": False,
        "allowed_mentions": {"parse": []},
    }


async def test_a_thread_has_its_own_game(harness: BotHarness) -> None:
    payloads = harness.payloads
    thread = thread_channel_payload(harness.fake.next_id(), payloads.guild_id, payloads.channel_id, ALICE)
    await slash(harness, "new", channel=thread)
    (lobby_post,) = harness.fake.find("POST", f"/channels/{thread['id']}/messages")
    assert lobby_post.content.startswith("New standard game by <@700000000000000001>")
    assert_private(await slash(harness, "join", user_id=BOB), NO_GAME)  # not in the parent channel
    reply = await slash(harness, "new")
    assert reply.content == "Your game is open: the others press Join, then you press Start."
    assert len(posts(harness)) == 1


# -- the lobby ----------------------------------------------------------------------------------------


async def test_new_defers_posts_the_lobby_with_its_buttons_and_acknowledges_privately(
    harness: BotHarness,
) -> None:
    payload = harness.payloads.slash("new")
    followup = await answered_at_once(harness, payload)
    await harness.service.idle()
    (post,) = posts(harness)
    gid = game_id(harness)
    assert followup.body["content"] == "Your game is open: the others press Join, then you press Start."
    assert followup.body["flags"] == EPHEMERAL
    assert post.json["content"] == (
        "New standard game by <@700000000000000001>: void challenges, no time limit, 3 hints each.\n"
        "Players (1/4): Alice (<@700000000000000001>)"
    )
    assert post.json["allowed_mentions"] == {"parse": [], "users": [ALICE]}
    stored = harness.fake.channel_messages(channel(harness))[-1]
    assert custom_ids(stored) == [f"scrabble:{a}:{gid}" for a in LOBBY_BUTTONS]
    labels = [c["label"] for row in stored["components"] for c in row["components"]]
    assert labels == ["Join", "Add AI", "Start", "Cancel"]


async def test_new_takes_its_options(harness: BotHarness) -> None:
    await slash(
        harness,
        "new",
        string_option("variant", "super"),
        string_option("challenges", "double"),
        integer_option("time_limit", 90),
        integer_option("ai_opponents", 2),
        string_option("ai_level", "easy"),
        integer_option("hints", 0),
    )
    assert last_post(harness).content == (
        "New super game by <@700000000000000001>: double challenges, 90 s per turn, no hints.\n"
        "Players (3/4): Alice (<@700000000000000001>), AI, AI 2"
    )


async def test_a_second_game_in_the_channel_is_refused(harness: BotHarness) -> None:
    await slash(harness, "new")
    reply = await slash(harness, "new", user_id=BOB)
    assert_private(reply, "This channel already has a game: finish or cancel it first (/scrabble cancel)")


async def test_join_and_leave_edit_the_lobby(harness: BotHarness) -> None:
    await slash(harness, "new")
    assert_private(await slash(harness, "join", user_id=BOB), "You joined the game.")
    assert len(posts(harness)) == 1  # the lobby, edited in place, not posted again
    (edit,) = harness.fake.find("PATCH", f"/channels/{channel(harness)}/messages/")
    assert "Players (2/4): Alice (<@700000000000000001>), User700000000000000002" in edit.content
    assert edit.json["allowed_mentions"] == {"parse": [], "users": [ALICE, BOB]}
    assert_private(await slash(harness, "join", user_id=BOB), "You have already joined this game")
    assert_private(
        await slash(harness, "leave"), "You created this game: cancel it with /scrabble cancel instead"
    )
    assert_private(await slash(harness, "leave", user_id=BOB), "You left the game.")
    assert (
        "Players (1/4)" in harness.fake.find("PATCH", f"/channels/{channel(harness)}/messages/")[-1].content
    )


async def test_lobby_buttons_join_add_ai_and_start(harness: BotHarness) -> None:
    await slash(harness, "new")
    assert_private(await click(harness, "join", user_id=BOB), "You joined the game.")
    assert_private(
        await click(harness, "add-ai", user_id=BOB), "Only the game's creator can add AI opponents"
    )
    assert_private(await click(harness, "add-ai"), "AI (expert) joined the game.")
    assert (
        "Players (3/4): Alice (<@700000000000000001>), User700000000000000002 (<@700000000000000002>), AI"
        in harness.fake.channel_messages(channel(harness))[-1]["content"]
    )
    assert_private(await click(harness, "start", user_id=BOB), "Only the game's creator can start it")
    reply = await click(harness, "start")
    await harness.service.idle()
    game = harness.service.game(channel(harness))
    assert_private(
        reply, f"The game has started.\nYour rack in <#{channel(harness)}>: {game.players[0].rack}"
    )
    assert [p.name for p in game.players] == ["Alice", "User700000000000000002", "AI"]


async def test_start_posts_the_board_with_the_turn_buttons_and_shows_or_dms_each_rack(
    harness: BotHarness,
) -> None:
    await lobby(harness)
    assert_private(await slash(harness, "start", user_id=BOB), "Only the game's creator can start it")
    reply = await slash(harness, "start")
    game = harness.service.game(channel(harness))
    assert_private(
        reply, f"The game has started.\nYour rack in <#{channel(harness)}>: {game.players[0].rack}"
    )
    assert reply.filenames == ["rack.png"]  # the starter's rack in the answer, the others' by DM
    turn = next(p for p in posts(harness) if p.content.startswith("The game has started."))
    assert turn.filenames == ["board.png"]
    assert turn.json["attachments"] == [{"id": 0, "filename": "board.png"}]
    assert turn.content.endswith("Next: Alice (<@700000000000000001>). 86 tiles in the bag.")
    assert turn.json["allowed_mentions"] == {"parse": [], "users": [ALICE]}
    stored = harness.fake.last_with_button(channel(harness), f"scrabble:play:{game_id(harness)}")
    assert buttons(stored) == TURN_BUTTONS
    assert [c["label"] for row in stored["components"] for c in row["components"]] == [
        "Play",
        "Exchange",
        "Pass",
        "Hint",
        "Show my rack",
    ]
    assert harness.fake.dms_to(ALICE) == []
    (dm,) = harness.fake.dms_to(BOB)
    assert dm.content == f"Your rack in <#{channel(harness)}>: {game.players[1].rack}"
    assert dm.filenames == ["rack.png"]
    assert dm.json["allowed_mentions"] == {"parse": []}
    (create_bob,) = harness.fake.find("POST", "/users/@me/channels")
    assert create_bob.json == {"recipient_id": BOB}


async def test_the_draw_for_the_first_turn_is_announced_and_decides_who_plays(
    make_harness: MakeHarness,
) -> None:
    harness = await make_harness(seed=7)  # Bob draws first
    await started(harness)
    turn = next(p for p in posts(harness) if p.content.startswith("The game has started."))
    assert turn.content.splitlines()[1] == (
        "Draw for the first turn: Alice drew T, User700000000000000002 drew S. User700000000000000002 plays first."
    )
    assert turn.json["allowed_mentions"] == {"parse": [], "users": [BOB]}
    assert_private(await click(harness, "pass"), "it is User700000000000000002's turn, not Alice's")
    assert_private(await click(harness, "pass", user_id=BOB), "You passed.")


async def test_cancel_by_the_creator_or_a_moderator_only(harness: BotHarness) -> None:
    await lobby(harness)
    assert_private(
        await slash(harness, "cancel", user_id=BOB), "Only the game's creator or a moderator can cancel it"
    )
    moderator = str(int(DEFAULT_PERMISSIONS) | MANAGE_MESSAGES)
    reply = await slash(harness, "cancel", user_id=CAROL, permissions=moderator)
    assert_private(reply, "You cancelled the game.")
    assert last_post(harness).content == "<@700000000000000003> cancelled the game."
    assert_private(await slash(harness, "board"), NO_GAME)


async def test_cancel_button_and_buttons_of_a_closed_game(harness: BotHarness) -> None:
    await lobby(harness)
    old = game_id(harness)
    assert_private(
        await click(harness, "cancel", user_id=BOB), "Only the game's creator or a moderator can cancel it"
    )
    stale = copy.deepcopy(harness.fake.last_with_button(channel(harness), f"scrabble:join:{old}"))
    assert_private(await click(harness, "cancel"), "You cancelled the game.")
    with pytest.raises(AssertionError):  # the cancellation took the lobby's buttons away
        harness.fake.last_with_button(channel(harness), f"scrabble:join:{old}")
    await slash(harness, "new", user_id=BOB)  # a new game in the same channel
    reply = await harness.reply(harness.payloads.component(stale, f"scrabble:join:{old}", user_id=CAROL))
    assert_private(reply, "That game is over")
    assert "Players (1/4)" in last_post(harness).content  # no one joined the new game


# -- turns --------------------------------------------------------------------------------------------


async def test_play_command_plays_the_move_and_dms_the_new_rack(harness: BotHarness) -> None:
    game = await started(harness)
    play = find_play(game, 0)
    assert play is not None
    payload = harness.payloads.slash("play", [string_option("move", typed(play).lower())])
    followup = await answered_at_once(harness, payload)
    after = harness.service.game(channel(harness))
    event = after.history[-1]
    said = text.play_text(event.move, event.score, event.detail, after.board)
    assert followup.body["content"] == (
        f"You played {said}.\nYour rack in <#{channel(harness)}>: {after.players[0].rack}"
    )
    assert followup.body["flags"] == EPHEMERAL
    assert followup.filenames == ["rack.png"]
    await harness.service.idle()
    turn = last_post(harness)
    assert turn.content.startswith(f"Alice played {said}.")
    assert turn.json["allowed_mentions"] == {"parse": [], "users": [BOB]}
    assert harness.fake.dms_to(ALICE) == []  # the answer showed the new rack


async def test_refusals_of_turn_commands_are_private_with_the_engines_text(harness: BotHarness) -> None:
    await started(harness)
    before = len(posts(harness))
    reply = await slash(harness, "play", string_option("move", "8H QUIZ"), user_id=BOB)
    assert_private(reply, NOT_YOUR_TURN)
    assert_private(await slash(harness, "pass", user_id=CAROL), NOT_SEATED)
    reply = await slash(harness, "play", string_option("move", "hello world"))
    assert_private(
        reply,
        "'hello' is not a coordinate: write the row then the column for a word across (8H), "
        "or the column then the row for a word down (H8)",
    )
    assert len(posts(harness)) == before


async def test_exchange_pass_and_resign(harness: BotHarness) -> None:
    game = await started(harness)
    gid = game_id(harness)
    tiles = game.players[0].rack[:3]
    reply = await slash(harness, "exchange", string_option("tiles", tiles))
    after = harness.service.game(channel(harness))
    assert_private(
        reply, f"You exchanged {tiles}.\nYour rack in <#{channel(harness)}>: {after.players[0].rack}"
    )
    assert last_post(harness).content.startswith("Alice exchanged 3 tiles.\n")
    assert tiles not in last_post(harness).content.split("\n")[0]
    assert harness.fake.dms_to(ALICE) == []
    assert_private(await slash(harness, "pass", user_id=BOB), "You passed.")
    assert last_post(harness).content.startswith("User700000000000000002 passed.\n")
    assert_private(await slash(harness, "resign", user_id=BOB), "You resigned.")
    final = last_post(harness)
    assert "User700000000000000002 resigned.\nGame over: Alice (<@700000000000000001>) wins." in final.content
    assert "(resigned)" in final.content
    assert final.filenames == ["board.png", "scores.png", f"game-{gid}.gcg"]
    assert final.json["allowed_mentions"] == {"parse": [], "users": [ALICE]}


async def test_challenge_and_the_challenge_button(make_harness: MakeHarness) -> None:
    lexicon = AnyWord()
    harness = await make_harness(lexicon=lexicon)
    game = await started(harness, string_option("challenges", "single"))
    assert_private(await slash(harness, "challenge", user_id=BOB), "there is no play to challenge")
    play = find_play(game, 0)
    assert play is not None
    lexicon.phonies.add(play.letters.upper())
    await slash(harness, "play", string_option("move", typed(play)))
    assert buttons(harness.fake.channel_messages(channel(harness))[-1]) == [*TURN_BUTTONS, "challenge"]
    assert_private(await click(harness, "challenge", user_id=CAROL), NOT_SEATED)
    reply = await click(harness, "challenge", user_id=BOB)
    assert_private(reply, "Your challenge was upheld: the play came off the board.")
    assert "The challenge was upheld" in last_post(harness).content


async def test_accept_and_challenge_refusals_give_the_engines_text(harness: BotHarness) -> None:
    await started(harness)  # void challenges: words are checked as they are played
    assert_private(await slash(harness, "accept"), "there is no final play to accept")
    assert_private(await slash(harness, "accept", user_id=BOB), NOT_YOUR_TURN)
    assert_private(
        await slash(harness, "challenge", user_id=BOB),
        "this game checks words as they are played, so there are no challenges",
    )


async def test_turn_buttons_after_a_restart(make_harness: MakeHarness, fake_discord: FakeDiscord) -> None:
    first = await make_harness()
    await started(first)
    old_turn = first.fake.last_with_button(channel(first), f"scrabble:pass:{game_id(first)}")
    gid = game_id(first)
    await first.bot.close()

    harness = await make_harness()  # a new process on the same database: nothing but the classes registered
    rack = await harness.reply(harness.payloads.component(old_turn, f"scrabble:rack:{gid}"))
    assert_private(rack)
    assert rack.filenames == ["rack.png"]
    assert RACK_TEXT.fullmatch(rack.content)
    wrong = await harness.reply(harness.payloads.component(old_turn, f"scrabble:pass:{gid}", user_id=BOB))
    assert_private(wrong, NOT_YOUR_TURN)
    payload = harness.payloads.component(old_turn, f"scrabble:pass:{gid}")
    callback = await harness.ack(payload)  # a turn pressed on a message: a deferred update, then the answer
    assert callback.json == {"type": DEFERRED_UPDATE}
    (passed,) = await harness.fake.followups_for(payload)
    assert_private(passed, "You passed.")
    await harness.service.idle()
    assert last_post(harness).content.startswith("Alice passed.")
    assert harness.service.game(channel(harness)).current == 1


async def test_hint_button_and_command(harness: BotHarness) -> None:
    game = await started(harness)
    reply = await click(harness, "hint")
    assert_private(reply)
    assert reply.content.startswith(f"Hint 1 of 3, for your rack {game.players[0].rack}:\n1. ")
    reply = await slash(harness, "hint", user_id=BOB)
    assert reply.content.startswith("Hint 1 of 3")
    assert_private(await click(harness, "hint", user_id=CAROL), NOT_SEATED)


async def test_games_without_hints_have_no_hint_button_and_refuse_hints(harness: BotHarness) -> None:
    await started(harness, integer_option("hints", 0))
    stored = harness.fake.last_with_button(channel(harness), f"scrabble:play:{game_id(harness)}")
    assert buttons(stored) == ["play", "exchange", "pass", "rack"]
    assert_private(await slash(harness, "hint"), "Hints are disabled in this game")


@pytest.mark.parametrize("via", ["command", "button"])
async def test_rack_is_ephemeral_with_its_image(harness: BotHarness, via: str) -> None:
    game = await started(harness)
    if via == "command":
        payload = harness.payloads.slash("rack", user_id=BOB)
    else:
        message = harness.fake.last_with_button(channel(harness), f"scrabble:rack:{game_id(harness)}")
        payload = harness.payloads.component(message, f"scrabble:rack:{game_id(harness)}", user_id=BOB)
    # A command is answered at once; a button pressed on a message by a deferred update, then the answer.
    followup = await harness.reply(payload)
    callback = await harness.fake.callback_for(payload)
    assert callback.json["type"] == (CHANNEL_MESSAGE if via == "command" else DEFERRED_UPDATE)
    assert (
        followup.body["content"]
        == f"Your rack in <#{channel(harness)}>: {rack_in_words(game.players[1].rack)}"
    )
    assert followup.body["flags"] == EPHEMERAL
    assert followup.body["attachments"] == [{"id": 0, "filename": "rack.png"}]
    assert [(f.filename, f.data) for f in followup.files] == [("rack.png", b"rack")]


async def test_play_modal_from_the_button(harness: BotHarness) -> None:
    game = await started(harness)
    gid = game_id(harness)
    message = harness.fake.last_with_button(channel(harness), f"scrabble:play:{gid}")
    click_payload = harness.payloads.component(message, f"scrabble:play:{gid}")
    opened = await harness.ack(click_payload)
    assert opened.json["type"] == MODAL
    modal = opened.json["data"]
    assert modal["custom_id"] == f"scrabble:play-form:{gid}:0:{click_payload['id']}"  # move number 0
    assert modal["title"] == "Play a word"
    play = find_play(game, 0)
    assert play is not None
    submit = harness.payloads.modal_submit(modal["custom_id"], {"move": typed(play)})
    followup = await answered_at_once(harness, submit)
    assert followup.content.startswith("You played ")
    assert harness.service.game(channel(harness)).current == 1


async def open_play_form(h: BotHarness, user_id: int) -> tuple[str, str]:
    """Click Play as ``user_id``: the custom id of the form it opens and its move's placeholder."""
    gid = game_id(h)
    message = h.fake.last_with_button(channel(h), f"scrabble:play:{gid}")
    opened = await h.ack(h.payloads.component(message, f"scrabble:play:{gid}", user_id=user_id))
    assert opened.json["type"] == MODAL
    (row,) = opened.json["data"]["components"]
    return opened.json["data"]["custom_id"], row["components"][0]["placeholder"]


async def test_an_infinite_board_takes_signed_coordinates_by_command_and_form(harness: BotHarness) -> None:
    game = await started(harness, string_option("variant", "infinite"))
    assert [player.rack for player in game.players] == ["ABCEKTX", "AEGIRSV"]
    played = await slash(harness, "play", string_option("move", "-1,0 across AB"))
    assert (
        played.content
        == f"You played AB at -1,0 (across) for 8.\nYour rack in <#{channel(harness)}>: CEEKNTX"
    )
    await harness.service.idle()
    assert last_post(harness).content.startswith("Alice played AB at -1,0 (across) for 8.\n")
    board = harness.service.game(channel(harness)).board
    assert (board[(0, -1)], board[(0, 0)]) == ("A", "B")
    form, placeholder = await open_play_form(harness, BOB)
    assert placeholder == "-3,5 across QUIZ or 0,0 down QUIZ; ?E is a blank as E"
    submit = harness.payloads.modal_submit(form, {"move": "(0, 0) down .a"}, user_id=BOB)
    followup = await answered_at_once(harness, submit)
    # A signed coordinate, though 0,0 is also A1.
    assert followup.content.split("\n")[0] == "You played BA at 0,0 (down) for 4."
    assert harness.service.game(channel(harness)).board[(1, 0)] == "A"


async def test_set_tiles_are_played_in_brackets_by_command_and_form(make_harness: MakeHarness) -> None:
    harness = await make_harness(seed=5)  # Alice draws first, with set tiles 2 [IOU] and 3 [SZ]
    game = await started(harness, string_option("variant", "letter-sets"))
    assert [player.rack for player in game.players] == ["23ILUVY", "2AAEHOR"]
    played = await slash(harness, "play", string_option("move", "8H [2o][3Z]"))
    assert (
        played.content.split("\n")[0]
        == "You played OZ at 8H (across) for 22, with the I/O/U tile for the O and the S/Z tile for the Z."
    )
    await harness.service.idle()
    form, placeholder = await open_play_form(harness, BOB)
    assert placeholder == "8H QUIZ (across) or H8 QUIZ (down); ?E is a blank as E; [1E] set tile 1 as E"
    submit = harness.payloads.modal_submit(form, {"move": "H8 .[2U]"}, user_id=BOB)
    followup = await answered_at_once(harness, submit)
    assert (
        followup.content.split("\n")[0] == "You played OU at H8 (down) for 2, with the I/O/U tile for the U."
    )


async def test_exchange_modal_shows_the_rack_privately(harness: BotHarness) -> None:
    game = await started(harness)
    gid = game_id(harness)
    message = harness.fake.last_with_button(channel(harness), f"scrabble:exchange:{gid}")
    click_payload = harness.payloads.component(message, f"scrabble:exchange:{gid}")
    opened = await harness.ack(click_payload)
    modal = opened.json["data"]
    (row,) = modal["components"]
    rack = game.players[0].rack
    assert row["components"][0]["placeholder"] == f"Your rack: {rack} (? is a blank)"
    submit = harness.payloads.modal_submit(modal["custom_id"], {"tiles": rack[:2]})
    reply = await harness.reply(submit)
    assert_private(reply)
    assert reply.content.startswith(f"You exchanged {rack[:2]}.\nYour rack in ")


async def test_play_modal_engine_error_is_a_private_followup(harness: BotHarness) -> None:
    await started(harness)
    gid = game_id(harness)
    message = harness.fake.last_with_button(channel(harness), f"scrabble:play:{gid}")
    opened = await harness.ack(harness.payloads.component(message, f"scrabble:play:{gid}", user_id=BOB))
    submit = harness.payloads.modal_submit(opened.json["data"]["custom_id"], {"move": "8H QUIZ"}, user_id=BOB)
    assert_private(await harness.reply(submit), NOT_YOUR_TURN)


async def open_form(h: BotHarness, action: str, *, user_id: int | None = None) -> str:
    """Click the Play or Exchange button (``action``) and return the custom id of the modal it opens."""
    gid = game_id(h)
    message = h.fake.last_with_button(channel(h), f"scrabble:{action}:{gid}")
    opened = await h.ack(h.payloads.component(message, f"scrabble:{action}:{gid}", user_id=user_id))
    assert opened.json["type"] == MODAL
    custom_id: str = opened.json["data"]["custom_id"]
    return custom_id


async def assert_answered_once(h: BotHarness, payload: dict[str, Any]) -> None:
    """``payload`` got exactly one answer, the interaction's response (no followup), once everything
    has settled."""
    await h.service.idle()
    await asyncio.sleep(0.05)
    path = f"/interactions/{payload['id']}/{payload['token']}/callback"
    assert [r.json["type"] for r in h.fake.requests if r.path == path] == [CHANNEL_MESSAGE]
    assert h.fake.find("POST", f"/webhooks/{h.fake.application_id}/{payload['token']}") == []


@pytest.mark.parametrize("restart", [False, True], ids=["same-process", "after-restart"])
async def test_play_form_is_answered_once_even_after_a_restart(
    make_harness: MakeHarness, restart: bool
) -> None:
    harness = await make_harness()
    game = await started(harness)
    play = find_play(game, 0)
    assert play is not None
    form = await open_form(harness, "play")
    assert form.startswith(f"scrabble:play-form:{game_id(harness)}:")
    if restart:
        await harness.bot.close()
        harness = await make_harness()  # a new process: discord.py's modal store is empty
    submit = harness.payloads.modal_submit(form, {"move": typed(play)})
    followup = await answered_at_once(harness, submit)
    assert_private(followup)
    assert followup.content.startswith("You played ")
    await assert_answered_once(harness, submit)
    assert harness.service.game(channel(harness)).current == 1
    assert len([p for p in posts(harness) if p.content.startswith("Alice played ")]) == 1


@pytest.mark.parametrize("restart", [False, True], ids=["same-process", "after-restart"])
async def test_exchange_form_is_answered_once_even_after_a_restart(
    make_harness: MakeHarness, restart: bool
) -> None:
    harness = await make_harness()
    game = await started(harness)
    rack = game.players[0].rack
    form = await open_form(harness, "exchange")
    assert form.startswith(f"scrabble:exchange-form:{game_id(harness)}:")
    if restart:
        await harness.bot.close()
        harness = await make_harness()
    submit = harness.payloads.modal_submit(form, {"tiles": rack[:2]})
    reply = await harness.reply(submit)
    assert_private(reply)
    assert reply.content.startswith(f"You exchanged {rack[:2]}.\nYour rack in ")
    await assert_answered_once(harness, submit)
    assert harness.service.game(channel(harness)).current == 1


async def test_a_form_opened_before_a_restart_still_checks_the_turn(make_harness: MakeHarness) -> None:
    first = await make_harness()
    await started(first)
    form = await open_form(first, "play", user_id=BOB)
    await first.bot.close()
    harness = await make_harness()
    submit = harness.payloads.modal_submit(form, {"move": "8H QUIZ"}, user_id=BOB)
    assert_private(await harness.reply(submit), NOT_YOUR_TURN)
    assert harness.service.game(channel(harness)).current == 0


STALE_TURN = "The game has moved on since that turn: nothing was done, look at the board again"


async def test_a_form_opened_under_an_older_turn_is_refused(harness: BotHarness) -> None:
    await started(harness)
    first, other = turn_user(harness)
    form = await open_form(harness, "play", user_id=other)  # under the turn message of move 0
    assert form.startswith(f"scrabble:play-form:{game_id(harness)}:0:")
    exchange = await open_form(harness, "exchange", user_id=other)
    await click(harness, "pass", user_id=first)  # now it is the other player's turn: move 1
    game = harness.service.game(channel(harness))
    play = find_play(game, game.current)
    assert play is not None
    sent = len(posts(harness))
    submit = harness.payloads.modal_submit(form, {"move": typed(play)}, user_id=other)
    assert_private(await harness.reply(submit), STALE_TURN)  # they never saw the pass
    submit = harness.payloads.modal_submit(
        exchange, {"tiles": game.players[game.current].rack[:2]}, user_id=other
    )
    assert_private(await harness.reply(submit), STALE_TURN)
    assert [e.kind.value for e in harness.service.game(channel(harness)).history] == ["pass"]
    assert len(posts(harness)) == sent
    form = await open_form(harness, "play", user_id=other)  # under the newest turn message
    submit = harness.payloads.modal_submit(form, {"move": typed(play)}, user_id=other)
    assert (await harness.reply(submit)).content.startswith("You played ")


async def test_a_challenge_button_under_an_older_play_is_refused(make_harness: MakeHarness) -> None:
    lexicon = AnyWord()
    harness = await make_harness(lexicon=lexicon)
    await slash(harness, "new", string_option("challenges", "single"))
    await slash(harness, "join", user_id=BOB)
    await slash(harness, "join", user_id=CAROL)
    await slash(harness, "start")
    gid = game_id(harness)
    played = []
    shown = []  # each play's message as it was posted (a newer one then takes its buttons away)
    for _ in range(2):
        user, _ = turn_user(harness)
        game = harness.service.game(channel(harness))
        play = find_play(game, game.current)
        assert play is not None
        await slash(harness, "play", string_option("move", typed(play)), user_id=user)
        played.append(user)
        shown.append(json.loads(json.dumps(harness.fake.channel_messages(channel(harness))[-1])))
    lexicon.phonies.update(harness.service.game(channel(harness)).challengeable_words())  # move 2: a phony
    (challenger,) = {ALICE, BOB, CAROL} - set(played)
    first_play = shown[0]
    assert f"scrabble:challenge:{gid}:1" in custom_ids(first_play)
    assert custom_ids(harness.fake.channel_messages(channel(harness))[-2]) == []  # its buttons are gone
    sent = len(posts(harness))
    click_old = harness.payloads.component(first_play, f"scrabble:challenge:{gid}:1", user_id=challenger)
    assert_private(await harness.reply(click_old), "That play can no longer be challenged")
    assert len(harness.service.game(channel(harness)).history) == 2  # the phony was not challenged
    assert len(posts(harness)) == sent
    newest = harness.fake.last_with_button(channel(harness), f"scrabble:challenge:{gid}:2")
    click_new = harness.payloads.component(newest, f"scrabble:challenge:{gid}:2", user_id=challenger)
    assert_private(await harness.reply(click_new), "Your challenge was upheld: the play came off the board.")


async def test_turn_buttons_sent_before_turns_were_carried_act_on_the_current_turn(
    harness: BotHarness,
) -> None:
    await started(harness)
    first, _ = turn_user(harness)
    message = harness.fake.last_with_button(channel(harness), f"scrabble:pass:{game_id(harness)}")
    old_id = f"scrabble:pass:{game_id(harness)}"  # the custom id an older bot gave the button
    old_message = json.loads(json.dumps(message).replace(f'"{old_id}:0"', f'"{old_id}"'))
    assert old_id in custom_ids(old_message)
    legacy = harness.payloads.component(old_message, old_id, user_id=first)
    assert_private(await harness.reply(legacy), "You passed.")


UNKNOWN_FORM = "This form is not one the bot knows: use the game's buttons again."


@pytest.mark.parametrize(
    ("custom_id", "values"),
    [
        ("scrabble:play-form:{gid}", {"move": "8H QUIZ"}),
        ("scrabble:play-form:{gid}:1:2:3", {"move": "8H QUIZ"}),
        ("scrabble:play-form:x{gid}:1", {"move": "8H QUIZ"}),
        ("scrabble:pass:{gid}", {"move": "8H QUIZ"}),
        ("scrabble:resign-form:{gid}:1", {"move": "8H QUIZ"}),
        ("scrabble:play-form:{gid}:1", {"tiles": "AB"}),
        ("scrabble:exchange-form:{gid}:1", {"tiles": "ABCDEFGH"}),
        ("scrabble:play-form:{gid}:1", {"move": "8H " + "Q" * 200}),
    ],
    ids=[
        "no-click",
        "extra-part",
        "bad-game",
        "button-id",
        "unknown-form",
        "wrong-input",
        "too-long",
        "too-long-move",
    ],
)
async def test_forged_forms_are_refused_privately(
    harness: BotHarness, custom_id: str, values: dict[str, str]
) -> None:
    await started(harness)
    submit = harness.payloads.modal_submit(custom_id.format(gid=game_id(harness)), values)
    reply = await harness.ack(submit)
    assert reply.json["type"] == CHANNEL_MESSAGE
    assert_private(reply, UNKNOWN_FORM)
    assert harness.service.game(channel(harness)).current == 0


async def test_a_form_of_an_unknown_game_says_the_game_is_over(harness: BotHarness) -> None:
    await started(harness)
    submit = harness.payloads.modal_submit("scrabble:play-form:987654321:1", {"move": "8H QUIZ"})
    assert_private(await harness.reply(submit), "That game is over")


async def test_forms_outside_the_namespace_are_ignored(harness: BotHarness) -> None:
    await started(harness)
    submit = harness.payloads.modal_submit("someone-else:form:1", {"move": "8H QUIZ"})
    harness.dispatch(submit)
    await asyncio.sleep(0.05)
    assert not [r for r in harness.fake.requests if str(submit["id"]) in r.path]
    assert harness.service.game(channel(harness)).current == 0


# -- questions ----------------------------------------------------------------------------------------


async def test_board_is_private_or_reposted_publicly_with_the_turn_buttons(harness: BotHarness) -> None:
    await started(harness)
    private = await answered_at_once(harness, harness.payloads.slash("board", user_id=BOB))
    assert_private(private)
    assert private.filenames == ["board.png"]
    assert private.body.get("components", []) == []  # its buttons stay on the turn's post
    payload = harness.payloads.slash("board", [bool_option("public", True)], user_id=BOB)
    followup = await answered_at_once(harness, payload)
    assert not followup.ephemeral
    assert followup.filenames == ["board.png"]
    assert followup.content.startswith("Scores: Alice 0")
    assert f"Next: Alice (<@{ALICE}>)." in followup.content
    assert followup.body["allowed_mentions"] == {"parse": []}  # names Alice but does not ping her again
    stored = harness.fake.messages[max(harness.fake.messages)]
    assert buttons(stored) == TURN_BUTTONS


async def test_score_is_public_and_bag_history_check_are_private(harness: BotHarness) -> None:
    await started(harness)
    score = await harness.ack(harness.payloads.slash("score"))
    assert score.json == {
        "type": CHANNEL_MESSAGE,
        "data": {
            "tts": False,
            "content": "Scores: Alice 0 · User700000000000000002 0\n86 tiles in the bag.",
            "flags": EPHEMERAL,
            "allowed_mentions": {"parse": []},
        },
    }
    bag = await slash(harness, "bag")
    assert_private(bag)
    assert bag.content.startswith("86 tiles in the bag.\nUnseen tiles (93): ")
    assert_private(await slash(harness, "bag", user_id=CAROL), NOT_SEATED)
    assert_private(await slash(harness, "history"), "No move yet.")
    await slash(harness, "pass")
    assert_private(await slash(harness, "history"), "1. Alice passed.")
    assert_private(await slash(harness, "check", string_option("word", " quiz ")), "QUIZ is in TESTWORDS.")
    assert_private(
        await slash(harness, "check", string_option("word", "q")), "Give a word of 2 to 15 letters to check"
    )


async def test_long_history_is_split_into_messages_under_the_limit(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    await started(harness)
    for _ in range(5):  # six scoreless turns would end the game
        user, _ = turn_user(harness)
        await slash(harness, "pass", user_id=user)
    long_text = "\n".join(f"{i}. " + "x" * 120 for i in range(40))
    monkeypatch.setattr(ScrabbleCommands, "history", _returning(Message(long_text, private=True)))
    payload = harness.payloads.slash("history")
    first = await answered_at_once(harness, payload)
    followups = await harness.fake.followups_for(payload, count=2)
    pieces = [first.content, *(f.content for f in followups)]
    assert all(piece.ephemeral for piece in (first, *followups))
    assert "\n".join(pieces) == long_text
    assert all(len(piece) <= 2000 for piece in pieces)
    assert all(f.json["flags"] == EPHEMERAL for f in followups)


def _returning(message: Message) -> Any:
    async def answer(*args: object, **kwargs: object) -> Message:
        return message

    return answer


async def test_a_command_slower_than_a_second_is_deferred_then_followed_up(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bot.discord.delivery, "DEFER_AFTER", 0.05)
    finish = asyncio.Event()

    async def slow_history(*args: object, **kwargs: object) -> Message:
        await finish.wait()
        return Message("Game 1: Alice 300, Bob 250", private=True)

    monkeypatch.setattr(ScrabbleCommands, "history", slow_history)
    payload = harness.payloads.slash("history")
    deferred = await harness.ack(payload)
    assert deferred.json == {"type": DEFERRED, "data": {"flags": EPHEMERAL}}  # the ephemeral "thinking"
    finish.set()
    (followup,) = await harness.fake.followups_for(payload)
    assert_private(followup, "Game 1: Alice 300, Bob 250")
    quick = harness.payloads.slash("history")
    monkeypatch.setattr(ScrabbleCommands, "history", _returning(Message("No game yet", private=True)))
    assert_private(await answered_at_once(harness, quick), "No game yet")
    assert harness.fake.find("POST", f"/webhooks/{harness.fake.application_id}/{quick['token']}") == []


async def test_a_command_whose_deferral_fails_still_runs_to_its_end(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bot.discord.delivery, "DEFER_AFTER", 0.0)
    await started(harness)
    payload = harness.payloads.slash("pass")
    harness.fake.expired_interactions.add(payload["id"])
    harness.dispatch(payload)
    await harness.fake.wait_for(lambda r: r.content.startswith("Alice passed."))
    assert harness.service.game(channel(harness)).history[-1].kind is EventKind.PASS  # committed whole
    callbacks = harness.fake.find("POST", f"/interactions/{payload['id']}/")
    assert [r.json["type"] for r in callbacks] == [DEFERRED, CHANNEL_MESSAGE]  # both refused: expired


async def test_stats_and_leaderboard(harness: BotHarness) -> None:
    await started(harness)
    await slash(harness, "resign", user_id=BOB)
    reply = await slash(harness, "stats")
    assert_private(reply)
    assert reply.content.startswith("Alice: 1 game, 1 win, average score 0.0")
    option, resolved = user_option("user", BOB, harness.payloads.guild_id)
    reply = await slash(harness, "stats", option, resolved=resolved)
    assert reply.content.startswith("User700000000000000002: 1 game, 0 wins")
    option, resolved = user_option("user", CAROL, harness.payloads.guild_id)
    reply = await slash(harness, "stats", option, resolved=resolved)
    assert_private(reply, "<@700000000000000003> has not finished a game in this server yet.")
    board = await slash(harness, "leaderboard")
    assert_private(board)
    assert board.content.splitlines()[1] == "1. Alice: 3.4 (1 rated game, provisional), 1 win, average 0.0"


async def test_history_attaches_the_gcg_file_without_racks_until_the_game_ends(harness: BotHarness) -> None:
    await started(harness)
    during = await slash(harness, "history")
    assert_private(during, "No move yet.")
    gid = game_id(harness)
    assert during.filenames == [f"game-{gid}.gcg"]
    assert ">" not in during.files[0].data.decode()  # no event yet, so no rack either
    await slash(harness, "resign")
    reply = await slash(harness, "history", user_id=CAROL)
    assert_private(reply)
    assert reply.content.startswith(f"The last game here (game {gid} for /scrabble analyze):\n1. ")
    assert reply.filenames == [f"game-{gid}.gcg"]
    assert reply.files[0].data.decode().startswith("#")


# -- autocomplete -------------------------------------------------------------------------------------


async def test_exchange_autocomplete_suggests_from_the_callers_rack(harness: BotHarness) -> None:
    game = await started(harness)
    rack = game.players[0].rack
    callback = await harness.ack(harness.payloads.autocomplete("exchange", "tiles", ""))
    assert callback.json["type"] == AUTOCOMPLETE_RESULT
    values = [c["value"] for c in callback.json["data"]["choices"]]
    assert values == [*sorted(set(rack)), rack]
    typed_tiles = rack[:2].lower()
    callback = await harness.ack(harness.payloads.autocomplete("exchange", "tiles", typed_tiles))
    choices = callback.json["data"]["choices"]
    assert choices[0]["value"] == rack[:2]
    assert choices[0]["name"].startswith(f"{rack[:2]} (keep ")
    assert choices[-1]["value"] == rack
    assert choices[-1]["name"] == f"{rack} (keep nothing)"
    other = await harness.ack(harness.payloads.autocomplete("exchange", "tiles", "", user_id=CAROL))
    assert other.json["data"]["choices"] == []


def points(play: Play, game: Game) -> int:
    """The score of a first play of two tiles across the start square (a double word; blanks score 0)."""
    values = {tile.letter: tile.value for tile in game.variant.tiles}
    assert game.board.is_empty() and len(play.letters) == 2
    return 2 * sum(values[letter] if letter.isupper() else 0 for letter in play.letters)


async def play_preview(h: BotHarness, move: str, user_id: int | None = None) -> list[dict[str, Any]]:
    """The choices of ``/scrabble play``'s autocompletion while ``user_id`` types ``move``."""
    callback = await h.ack(h.payloads.autocomplete("play", "move", move, user_id=user_id))
    assert callback.json["type"] == AUTOCOMPLETE_RESULT
    choices: list[dict[str, Any]] = callback.json["data"]["choices"]
    return choices


async def test_play_autocomplete_previews_the_typed_play_without_using_a_hint(harness: BotHarness) -> None:
    game = await started(harness)
    sent = len(harness.fake.requests)
    play = find_play(game, 0)
    assert play is not None
    move = typed(play)
    assert await play_preview(harness, f" {move} ") == [
        {"name": f"{move} → {play_in_words(play, game.board)}: {points(play, game)} points", "value": move}
    ]
    elsewhere = typed(Play(0, 0, True, play.letters))  # 1A: misses the start square
    assert await play_preview(harness, elsewhere) == [
        {"name": f"{elsewhere} → the first word must cover the start square H8", "value": elsewhere}
    ]
    assert await play_preview(harness, "8H") == [
        {
            "name": "8H → write a play as a coordinate and a word: 8H QUIZ goes across from H8, H8 QUIZ goes down",
            "value": "8H",
        }
    ]
    long = "8H " + "A" * 97
    (choice,) = await play_preview(harness, long)
    assert choice["value"] == long
    assert len(choice["name"]) == 100
    assert choice["name"] == f"{long} → "[:99] + "…"
    assert await play_preview(harness, "") == []
    assert await play_preview(harness, move, user_id=BOB) != []  # Bob previews on his own rack
    assert await play_preview(harness, move, user_id=CAROL) == []  # not seated
    # Previews are free: no hint used, nothing sent but the autocomplete answers, every hint left.
    (row,) = await harness.store.open_games()
    assert [seat.hints_used for seat in row.seats] == [0, 0]
    answers = harness.fake.requests[sent:]
    assert len(answers) == 7
    assert all(r.json["type"] == AUTOCOMPLETE_RESULT for r in answers)
    hint = await click(harness, "hint")
    assert_private(hint)
    assert hint.content.startswith("Hint 1 of ")


async def test_play_autocomplete_never_says_whether_a_word_is_in_the_dictionary(
    make_harness: MakeHarness,
) -> None:
    lexicon = AnyWord()
    harness = await make_harness(lexicon=lexicon)
    game = await started(harness, string_option("challenges", "single"))
    play = find_play(game, 0)
    assert play is not None
    lexicon.phonies.add(play.letters.upper())
    move = typed(play)
    assert await play_preview(harness, move) == [
        {"name": f"{move} → {play_in_words(play, game.board)}: {points(play, game)} points", "value": move}
    ]
    await slash(harness, "play", string_option("move", move))
    taken = f"{play.coordinate} {'Z' * len(play.letters)}"
    assert await play_preview(harness, taken, user_id=BOB) == [
        {"name": f"{taken} → H8 is already taken by {play.letters[0].upper()}", "value": taken}
    ]
    assert_private(
        await slash(harness, "challenge", user_id=BOB),
        "Your challenge was upheld: the play came off the board.",
    )


# -- errors and DMs -----------------------------------------------------------------------------------


async def test_unexpected_service_error_is_logged_and_apologised_for(
    harness: BotHarness, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    await started(harness)

    async def broken(*args: object, **kwargs: object) -> Message:
        raise RuntimeError("database on fire")

    monkeypatch.setattr(ScrabbleCommands, "score", broken)
    monkeypatch.setattr(ScrabbleCommands, "pass_turn", broken)
    with caplog.at_level(logging.ERROR, logger="bot.discord.errors"):
        reply = await slash(harness, "score")
        button = await click(harness, "pass")
    for answer in (reply, button):
        assert answer.ephemeral
        match = APOLOGY.fullmatch(answer.content)
        assert match is not None
        assert match[1] in caplog.text
    assert "RuntimeError: database on fire" in caplog.text
    assert "/scrabble score" in caplog.text
    assert f"scrabble:pass:{game_id(harness)}" in caplog.text


async def test_closed_dms_are_reported_in_the_channel_without_the_rack(harness: BotHarness) -> None:
    harness.fake.closed_dm_user_ids.add(BOB)
    game = await started(harness)
    notice = next(p for p in posts(harness) if "could not send you your rack" in p.content)
    assert notice.content == (
        "<@700000000000000002>, I could not send you your rack by DM (are your DMs closed?): "
        "press Show my rack."
    )
    assert notice.files == ()
    assert notice.json["allowed_mentions"] == {"parse": [], "users": [BOB]}
    stored = harness.fake.last_with_button(channel(harness), f"scrabble:rack:{game_id(harness)}")
    assert buttons(stored) == ["rack"]
    reply = await harness.reply(
        harness.payloads.component(stored, f"scrabble:rack:{game_id(harness)}", user_id=BOB)
    )
    assert_private(reply, f"Your rack in <#{channel(harness)}>: {game.players[1].rack}")
    (refused,) = harness.fake.dms_to(BOB)  # the one attempt, refused with 50007
    assert refused.filenames == ["rack.png"]
    assert (
        len(harness.fake.find("POST", "/users/@me/channels")) == 1
    )  # Bob's only: Alice's rack is in her answer
    assert assert_no_rack_in_public(harness.fake) > 0


async def test_old_game_buttons_say_the_game_is_over(harness: BotHarness) -> None:
    await started(harness)
    gid = game_id(harness)
    message = copy.deepcopy(harness.fake.last_with_button(channel(harness), f"scrabble:hint:{gid}"))
    await slash(harness, "resign")
    reply = await harness.reply(harness.payloads.component(message, f"scrabble:hint:{gid}"))
    assert_private(reply, "That game is over")
    with pytest.raises(NoGameError):
        harness.service.channel_of(gid)


# -- a whole game -------------------------------------------------------------------------------------


async def test_whole_game_against_the_ai_keeps_racks_private_and_exports(
    make_harness: MakeHarness, tmp_path: Path
) -> None:
    lexicon = load_enable()
    generator = load_move_generator(lexicon)
    advisor = GeneratorAdvisor(generator)
    harness = await make_harness(
        # No challenge window: the humans here never challenge, and the AI plays at once.
        Config(
            database=tmp_path / "games.sqlite3",
            games={"scrabble": ScrabbleSettings(hints_per_player=100, challenge_window_seconds=0)},
        ),
        lexicon=lexicon,
        ai=GreedyAi(generator),
        advisor=advisor,
    )
    fake = harness.fake
    harness.host.use_links(StubLinks())
    await slash(harness, "new", integer_option("ai_opponents", 1), string_option("challenges", "single"))
    await click(harness, "join", user_id=BOB)
    await slash(harness, "start")
    await harness.service.idle()
    users = {"Alice": ALICE, "User700000000000000002": BOB}
    turns = 0
    last_action = 0
    while True:
        try:
            game = harness.service.game(channel(harness))
        except NoGameError:
            break
        last_action = len(fake.requests)
        turns += 1
        assert turns < 200
        user = users[game.players[game.current].name]
        if game.awaiting_final_challenge:
            assert_private(await click(harness, "accept", user_id=user), "You accepted the last play.")
        elif turns % 2:
            suggestions = await advisor.top_moves(game, game.current, 1)
            if suggestions:
                move, score = suggestions[0].move, suggestions[0].score
                choices = await harness.ack(harness.payloads.autocomplete("play", "move", move, user_id=user))
                (choice,) = choices.json["data"]["choices"]
                assert choice["value"] == move
                assert choice["name"].startswith(f"{move} → ")
                assert choice["name"].endswith(f": {score} point{'' if score == 1 else 's'}")
                reply = await slash(harness, "play", string_option("move", move), user_id=user)
                assert reply.content.startswith("You played "), reply.content
            else:
                assert_private(await slash(harness, "pass", user_id=user), "You passed.")
        else:
            await play_with_the_modal(harness, advisor, user)
        await harness.service.idle()
    # Until the game ended, no public message showed a rack; its last messages show only the tiles
    # left on the racks at the end (as the record does).
    checked = assert_no_rack_in_public(fake, until=last_action)
    assert checked > 30
    assert len(racks_sent(fake)) > 10
    assert sum(1 for r in fake.requests if any(SEAT_LINK.search(url) for url in link_urls(r))) > 10
    row = await harness.store.last_finished_game(channel(harness), "scrabble")
    assert row is not None and row.state is not None
    final_racks = {player.rack for player in Game.from_dict(row.state).players}
    assert assert_no_rack_in_public(fake, start=last_action, allowed=final_racks) >= 2
    assert not [p for p in posts(harness) if p.content == "AI is thinking…"]  # a quick AI just plays
    assert harness.fake.find("POST", f"/channels/{channel(harness)}/typing") == []  # nor typing
    ai_moves = [p for p in posts(harness) if "AI played" in p.content]
    assert ai_moves
    export = await slash(harness, "history")
    assert_private(export)
    (gcg,) = export.files
    assert gcg.filename.endswith(".gcg")
    record = gcg.data.decode()
    assert "#player1 Alice" in record or "Alice" in record
    assert ">AI:" in record


async def play_with_the_modal(harness: BotHarness, advisor: GeneratorAdvisor, user: int) -> None:
    """``user`` plays their best move through the Play button's modal, or passes with the button."""
    game = harness.service.game(channel(harness))
    suggestions = [s.move for s in await advisor.top_moves(game, game.current, 1)]
    if not suggestions:
        assert_private(await click(harness, "pass", user_id=user), "You passed.")
        return
    gid = game_id(harness)
    message = harness.fake.last_with_button(channel(harness), f"scrabble:play:{gid}")
    opened = await harness.ack(harness.payloads.component(message, f"scrabble:play:{gid}", user_id=user))
    submit = harness.payloads.modal_submit(
        opened.json["data"]["custom_id"], {"move": suggestions[0]}, user_id=user
    )
    reply = await harness.reply(submit)
    assert reply.content.startswith("You played "), reply.content


class GreedyAi:
    """The real AI's choice (:func:`scrabble_core.ai.choose_move`, greedy level) in this process."""

    def __init__(self, generator: MoveGenerator) -> None:
        self.generator = generator

    async def choose(self, game: Game, seat: int, level: str, seed: int) -> Move:
        return choose_move(seat_view(game, seat), self.generator, Level.GREEDY, random.Random(seed))


async def test_a_moderator_cancels_with_the_button(harness: BotHarness) -> None:
    await lobby(harness)
    moderator = str(int(DEFAULT_PERMISSIONS) | MANAGE_MESSAGES)
    message = harness.fake.channel_messages(channel(harness))[0]  # the lobby message
    payload = harness.payloads.component(
        message, f"scrabble:cancel:{game_id(harness)}", user_id=CAROL, permissions=moderator
    )
    assert_private(await harness.reply(payload), "You cancelled the game.")
    assert last_post(harness).content == "<@700000000000000003> cancelled the game."


async def test_notifier_splits_long_posts_with_files_and_buttons_on_the_last(harness: BotHarness) -> None:
    text = "\n".join(f"{i}. " + "y" * 150 for i in range(30))
    message = Message(
        text,
        (Attachment("board.png", b"png"),),
        mentions=(BOB,),
        buttons=(Button.SHOW_RACK,),
        game=41,
    )
    await DiscordNotifier(harness.bot).post(channel(harness), message)
    first, second, third = posts(harness)
    assert "\n".join(p.content for p in (first, second, third)) == text
    assert all(len(p.content) <= 2000 for p in (first, second, third))
    assert (first.files, second.files, third.filenames) == ((), (), ["board.png"])
    assert first.json.get("components", []) == second.json.get("components", []) == []
    assert third.json["components"][0]["components"][0]["custom_id"] == "scrabble:rack:41"
    assert all(p.json["allowed_mentions"] == {"parse": [], "users": [BOB]} for p in (first, second, third))


async def test_notifier_direct_reports_closed_dms(harness: BotHarness) -> None:
    harness.fake.closed_dm_user_ids.add(CAROL)
    notifier = DiscordNotifier(harness.bot)
    assert await notifier.direct(BOB, Message("hi", private=True)) is True
    assert await notifier.direct(CAROL, Message("hi", private=True)) is False
    (sent,) = harness.fake.dms_to(BOB)
    assert sent.content == "hi"


async def test_each_users_dm_channel_is_asked_for_once_beyond_discord_pys_128(
    harness: BotHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """discord.py keeps the DM channels of the last 128 users only; the notifier keeps their ids
    (up to DM_CHANNELS_KEPT, here 150), so 140 players' racks cost one DM channel request each. (Without
    rate limits: 152 DM channel requests, 5 every 5 seconds, would take minutes.)"""
    monkeypatch.setattr(bot.discord.notifier, "DM_CHANNELS_KEPT", 150)
    harness.fake.rate_limits = None
    notifier = DiscordNotifier(harness.bot, DiscordLimits(requests_per_second=10_000, channel_requests=1000))
    users = [BOB + index for index in range(140)]
    for round_ in ("first", "second"):
        for user in users:
            assert await notifier.direct(user, Message(f"{round_} rack", private=True)) is True
    assert len(harness.fake.find("POST", "/users/@me/channels")) == 140
    assert [sent.content for sent in harness.fake.dms_to(users[0])] == ["first rack", "second rack"]
    for user in range(BOB + 140, BOB + 151):  # eleven more: the least recently DMed is forgotten
        await notifier.direct(user, Message("rack", private=True))
    await notifier.direct(users[10], Message("third rack", private=True))
    assert len(harness.fake.find("POST", "/users/@me/channels")) == 151
    await notifier.direct(users[0], Message("third rack", private=True))
    assert len(harness.fake.find("POST", "/users/@me/channels")) == 152


HOSTILE = {"6000 characters": "x" * 6000, "500 NUL bytes": "\x00" * 500}
STRING_OPTIONS = [
    (
        "new",
        "variant",
        "Unknown variant {}: choose one of standard, super, diamond, infinite, letter-sets, standard-program",
    ),
    ("new", "challenges", "Unknown challenge mode {}: choose one of void, single, double, five-point"),
    ("new", "ai_level", "Unknown AI level {}: choose one of easy, medium, hard, greedy, expert"),
    ("play", "move", "that is far too long to be a play"),
    ("exchange", "tiles", None),
    ("check", "word", "Give a word of 2 to 15 letters to check"),
    ("rules", "topic", "There is no rules topic called {}. Topics: {}."),
]


@pytest.mark.parametrize("value", HOSTILE.values(), ids=HOSTILE.keys())
@pytest.mark.parametrize(("command", "option", "expected"), STRING_OPTIONS)
async def test_every_string_option_refuses_hostile_text_with_a_short_specific_error(
    harness: BotHarness, command: str, option: str, expected: str | None, value: str
) -> None:
    await started(harness)
    before = (harness.service.game(channel(harness)).to_dict(), len(posts(harness)))
    reply = await slash(harness, command, string_option(option, value))
    assert_private(reply)
    assert APOLOGY.fullmatch(reply.content) is None
    assert len(reply.content) <= 200
    if expected is not None:
        echo = repr(value[:41])[:39] + "…"
        assert reply.content == expected.format(echo, ", ".join(TOPICS))
    assert (harness.service.game(channel(harness)).to_dict(), len(posts(harness))) == before
    assert not [r for r in harness.fake.requests if r.json and len(str(r.body.get("content") or "")) > 2000]


async def test_the_one_sender_caps_a_huge_text_at_five_messages(harness: BotHarness) -> None:
    await DiscordNotifier(harness.bot).post(channel(harness), Message("z" * 100_000))
    sent = posts(harness)
    assert len(sent) == 5
    assert all(len(p.content) == 2000 for p in sent)
    assert sent[-1].content.endswith("z… (cut)")


async def test_variant_files_of_the_config_are_offered_by_new(
    make_harness: MakeHarness, tmp_path: Path
) -> None:
    standard = (assets_dir() / "variants" / "standard.toml").read_text(encoding="utf-8")
    club = tmp_path / "club.toml"
    club.write_text(standard.replace('name = "standard"', 'name = "club"'), encoding="utf-8")
    settings = ScrabbleSettings(variant_files=(club,))
    harness = await make_harness(Config(database=tmp_path / "games.sqlite3", games={"scrabble": settings}))
    callback = await harness.ack(harness.payloads.autocomplete("new", "variant", ""))
    assert [c["value"] for c in callback.json["data"]["choices"]] == [
        "standard",
        "super",
        "diamond",
        "infinite",
        "letter-sets",
        "standard-program",
        "club",
    ]
    await slash(harness, "new", string_option("variant", "club"))
    assert last_post(harness).content.startswith("New club game by <@700000000000000001>")
    await slash(harness, "join", user_id=BOB)
    await slash(harness, "start")
    assert harness.service.game(channel(harness)).variant.name == "club"


async def test_the_no_challenge_button_lets_the_ai_play_at_once(harness: BotHarness) -> None:
    await slash(harness, "new", integer_option("ai_opponents", 1), string_option("challenges", "single"))
    await slash(harness, "join", user_id=BOB)
    await slash(harness, "start")
    gid = game_id(harness)
    game = harness.service.game(channel(harness))
    play = find_play(game, 0)
    assert play is not None
    await slash(harness, "play", string_option("move", typed(play)))
    window = last_post(harness)  # the play's own post says how long the AI waits
    assert window.content.startswith("Alice played ")
    assert window.content.endswith(
        "AI plays in 15 seconds, or as soon as everyone else has pressed No challenge: press Challenge if "
        "you doubt the last play."
    )
    stored = harness.fake.last_with_button(channel(harness), f"scrabble:no-challenge:{gid}:1")
    assert custom_ids(stored)[-2:] == [f"scrabble:challenge:{gid}:1", f"scrabble:no-challenge:{gid}:1"]
    assert len(harness.service.game(channel(harness)).history) == 1
    assert_private(await click(harness, "no-challenge", user_id=BOB), "You let the play stand.")
    await asyncio.wait_for(harness.service.idle(), 5)  # not 15 seconds: Bob was the only other human
    assert [e.player for e in harness.service.game(channel(harness)).history] == [0, 1]
