"""The discord layer's foundation end to end: real discord.py objects from Discord-shaped payloads,
dispatched through the bot's real command tree, every REST request captured by the fake Discord API.
Here: rules and help, command sync, the error handler, the fake's DMs and the acknowledgement time. The
game commands and buttons are in ``test_discord_game.py``."""

from __future__ import annotations

import io
import json
import logging
import re
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands
from discord_fake import (
    ACK_TIMES,
    EPHEMERAL,
    TEST_TOKEN,
    BotHarness,
    FakeDiscord,
    MakeHarness,
    RecordedRequest,
    string_option,
    thread_channel_payload,
)

from bot.config import ActivityConfig, Config
from bot.discord.buttons import input_values
from bot.discord.delivery import split_text
from bot.games.scrabble.discord.views import FORM_PATTERN, form_custom_id
from bot.games.scrabble.rules import TOPICS, rules_text
from scrabble_core.errors import GameOverError
from scrabble_core.variant import get_variant

APOLOGY = re.compile(r"Sorry, something went wrong \(error id ([0-9a-f]{6})\)\.")

# Discord's interaction callback types.
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
AUTOCOMPLETE_RESULT = 8
MODAL = 9


def assert_ephemeral_message(callback: RecordedRequest, content: str) -> None:
    """``callback`` answers with an ephemeral message whose text is ``content``."""
    assert callback.method == "POST"
    assert re.fullmatch(r"/interactions/[0-9]+/[^/]+/callback", callback.path)
    assert callback.json["type"] == CHANNEL_MESSAGE
    assert callback.json["data"]["flags"] == EPHEMERAL
    assert callback.json["data"]["content"] == content


# -- rules and help -------------------------------------------------------------------------------


async def test_rules_answers_ephemerally_with_every_section(harness: BotHarness) -> None:
    payload = harness.payloads.slash("rules")
    callback = await harness.ack(payload)
    assert callback.path == f"/interactions/{payload['id']}/{payload['token']}/callback"
    assert_ephemeral_message(callback, rules_text(get_variant("standard")))
    content = callback.json["data"]["content"]
    assert len(content) <= 2000
    for fact in (
        "100 tiles, 2 of them blanks",
        "Each player holds 7 tiles",
        "all 7 of your tiles in one move scores 50 extra points",
        "at least 7 tiles",
        "15×15 squares",
        "3 rounds of consecutive scoreless turns are played (passes, exchanges, withdrawn plays: 6 turns "
        "with two players, 12 with four)",
    ):
        assert fact in content
    for mode in ("*void*", "*single*", "*double*", "*five-point*"):
        assert mode in content
    for notation in ("`8H QUIZ`", "`H8 QUIZ`", "`?E`"):
        assert notation in content
    assert callback.authorization is None  # interaction callbacks are authorised by their token alone


async def test_rules_topic_shows_that_section_only(harness: BotHarness) -> None:
    callback = await harness.ack(harness.payloads.slash("rules", [string_option("topic", "Challenges")]))
    assert_ephemeral_message(callback, rules_text(get_variant("standard"), None, "challenges"))
    assert callback.json["data"]["content"].startswith("**Challenges** (set per game): *void*: ")


async def test_rules_come_from_the_channels_game(harness: BotHarness) -> None:
    await harness.reply(
        harness.payloads.slash(
            "new", [string_option("variant", "super"), {"name": "ai_opponents", "type": 4, "value": 3}]
        )
    )
    callback = await harness.ack(harness.payloads.slash("rules"))
    content = callback.json["data"]["content"]
    assert content.startswith(
        "**Scrabble rules as this bot plays them (tournament rules)**\n\n**Tiles**: 200 tiles, 4 of them blanks"
    )
    assert "**Tiles**: 200 tiles, 4 of them blanks" in content
    assert "21×21 squares" in content
    assert "or 12 consecutive turns score nothing" in content  # four players
    assert len(content) <= 2000


@pytest.mark.parametrize("topic", ["x" * 6000, "\x00" * 500])
async def test_rules_with_a_hostile_topic_is_a_capped_error(harness: BotHarness, topic: str) -> None:
    callback = await harness.ack(harness.payloads.slash("rules", [string_option("topic", topic)]))
    content = callback.json["data"]["content"]
    assert callback.json["data"]["flags"] == EPHEMERAL
    assert content.startswith("There is no rules topic called '")
    assert content.endswith("…. Topics: tiles, board, turns, bingo, exchange, end, challenges, notation.")
    assert len(content) < 200


async def test_rules_unknown_topic_lists_the_topics(harness: BotHarness) -> None:
    callback = await harness.ack(harness.payloads.slash("rules", [string_option("topic", "openings")]))
    assert_ephemeral_message(
        callback,
        "There is no rules topic called 'openings'. Topics: tiles, board, turns, bingo, exchange, end, challenges, notation.",
    )


async def test_rules_topic_autocomplete_round_trip(harness: BotHarness) -> None:
    callback = await harness.ack(harness.payloads.autocomplete("rules", "topic", "EX"))
    assert callback.json == {
        "type": AUTOCOMPLETE_RESULT,
        "data": {"choices": [{"name": "exchange", "value": "exchange"}]},
    }


async def test_rules_topic_autocomplete_empty_input_offers_every_topic(harness: BotHarness) -> None:
    callback = await harness.ack(harness.payloads.autocomplete("rules", "topic", ""))
    assert [c["value"] for c in callback.json["data"]["choices"]] == list(TOPICS)


COMMANDS = [
    "new",
    "join",
    "leave",
    "start",
    "cancel",
    "play",
    "exchange",
    "pass",
    "resign",
    "challenge",
    "accept",
    "rack",
    "hint",
    "board",
    "score",
    "bag",
    "history",
    "analyze",
    "puzzle",
    "solve",
    "check",
    "stats",
    "leaderboard",
    "rules",
    "help",
]


async def test_help_lists_every_command(harness: BotHarness) -> None:
    callback = await harness.ack(harness.payloads.slash("help"))
    assert callback.json["type"] == CHANNEL_MESSAGE
    assert callback.json["data"]["flags"] == EPHEMERAL
    lines = callback.json["data"]["content"].split("\n")
    assert lines[0] == "**Scrabble commands**"
    assert [line.split()[0].removeprefix("`/scrabble") for line in lines[1:]] == [""] * len(COMMANDS)
    assert [line.split("`")[1].split()[1] for line in lines[1:]] == COMMANDS
    assert "`/scrabble play <move>`: Play a word: 8H QUIZ goes across, H8 QUIZ down, ?E is a blank" in lines
    assert (
        "`/scrabble new [variant] [challenges] [time_limit] [ai_opponents] [ai_level] [hints] [bot_seats] [rated]`: "
        "Open a new game in this channel: others join, then you start it"
    ) in lines
    assert "`/scrabble stats [user] [public]`: Show a player's results in this server" in lines
    assert lines[-2:] == [
        "`/scrabble rules [topic]`: Show the rules of the game as this bot plays them",
        "`/scrabble help`: List the Scrabble commands",
    ]


async def test_commands_work_in_threads_and_dms(harness: BotHarness) -> None:
    payloads = harness.payloads
    thread = thread_channel_payload(
        harness.fake.next_id(), payloads.guild_id, payloads.channel_id, payloads.user_id
    )
    in_thread = await harness.ack(payloads.slash("help", channel=thread))
    in_dm = await harness.ack(payloads.slash("help", dm=True))
    assert in_thread.json == in_dm.json
    assert in_dm.json["data"]["flags"] == EPHEMERAL


# -- command sync ---------------------------------------------------------------------------------


def assert_described(command: dict[str, Any]) -> None:
    """A command or option and all its options have a name and a non-empty description."""
    assert command["name"]
    assert command["description"].strip(), command["name"]
    for option in command.get("options", []):
        assert_described(option)


async def test_global_sync_sends_the_scrabble_group_with_descriptions(
    make_harness: MakeHarness, fake_discord: FakeDiscord
) -> None:
    await make_harness(sync_commands=True)
    (put,) = fake_discord.find("PUT", "/applications/")
    assert put.path == f"/applications/{fake_discord.application_id}/commands"
    group, _, _ = put.json  # and /scrabble-settings (test_discord_ratings.py), /go (test_discord_go.py)
    assert group["name"] == "scrabble"
    assert group["type"] == 1
    assert [c["name"] for c in group["options"]] == COMMANDS
    assert all(c["type"] == 1 for c in group["options"])  # subcommands
    commands = {c["name"]: c for c in group["options"]}
    rules = commands["rules"]
    assert rules["options"] == [
        {
            "name": "topic",
            "description": "Show only one part of the rules (tiles, bingo, challenges, notation...)",
            "type": 3,
            "required": False,
            "autocomplete": True,
        }
    ]
    assert_described(group)
    new = {o["name"]: o for o in commands["new"]["options"]}
    assert new["variant"]["autocomplete"] is True  # the bundled variants and the config's files
    assert [c["value"] for c in new["challenges"]["choices"]] == ["void", "single", "double", "five-point"]
    assert [c["value"] for c in new["ai_level"]["choices"]] == ["easy", "medium", "hard", "greedy", "expert"]
    assert (
        new["ai_opponents"]["type"],
        new["ai_opponents"]["min_value"],
        new["ai_opponents"]["max_value"],
    ) == (
        4,
        0,
        3,
    )
    assert (new["time_limit"]["min_value"], new["time_limit"]["max_value"]) == (0, 7 * 24 * 3600)
    assert not any(o["required"] for o in new.values())
    (move,) = commands["play"]["options"]
    assert (move["name"], move["required"], move["autocomplete"]) == ("move", True, True)
    (tiles,) = commands["exchange"]["options"]
    assert (tiles["name"], tiles["required"], tiles["autocomplete"]) == ("tiles", True, True)
    (user, public) = commands["stats"]["options"]
    assert (user["name"], user["type"], user["required"]) == ("user", 6, False)
    assert (public["name"], public["type"], public["required"]) == ("public", 5, False)
    assert len(json.dumps(group)) < 8000  # Discord's limit on a command's total text


def assert_short_descriptions(command: dict[str, Any]) -> None:
    """Discord refuses descriptions over 100 characters."""
    assert len(command["description"]) <= 100, command["name"]
    for option in command.get("options", []):
        assert_short_descriptions(option)


async def test_descriptions_fit_discords_limits(make_harness: MakeHarness, fake_discord: FakeDiscord) -> None:
    await make_harness(sync_commands=True)
    (put,) = fake_discord.find("PUT", "/applications/")
    assert_short_descriptions(put.json[0])


async def test_dev_guild_sync_copies_the_global_commands_to_the_guild(
    make_harness: MakeHarness, fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    await make_harness(Config(database=tmp_path / "games.sqlite3", dev_guild_id=4242), sync_commands=True)
    (put,) = fake_discord.find("PUT", "/applications/")
    assert put.path == f"/applications/{fake_discord.application_id}/guilds/4242/commands"
    assert [c["name"] for c in put.json] == ["scrabble", "scrabble-settings", "go"]
    assert_described(put.json[0])


async def test_with_the_activity_the_global_sync_keeps_the_entry_point_command(
    make_harness: MakeHarness, fake_discord: FakeDiscord, tmp_path: Path
) -> None:
    entry_point = {
        "id": "1300000000000000001",
        "application_id": str(fake_discord.application_id),
        "version": "1300000000000000002",
        "type": 4,
        "name": "launch",
        "description": "",
        "handler": 2,
        "contexts": [0, 1, 2],
        "integration_types": [0, 1],
    }
    fake_discord.commands[None] = [entry_point]
    activity = ActivityConfig(fake_discord.application_id, fake_discord.client_secret)
    await make_harness(Config(database=tmp_path / "games.sqlite3", activity=activity), sync_commands=True)
    (put,) = fake_discord.find("PUT", "/applications/")
    assert put.path == f"/applications/{fake_discord.application_id}/commands"
    assert [c["name"] for c in put.json] == ["scrabble", "scrabble-settings", "go", "launch"]
    assert put.json[-1] == {
        key: entry_point[key]
        for key in ("id", "type", "name", "description", "handler", "contexts", "integration_types")
    }


async def test_no_sync_when_disabled(harness: BotHarness) -> None:
    assert harness.fake.find("PUT", "/applications/") == []
    assert [r.route for r in harness.fake.requests] == ["GET /users/@me", "GET /oauth2/applications/@me"]
    assert harness.fake.requests[0].authorization == f"Bot {TEST_TOKEN}"


# -- the error handler ----------------------------------------------------------------------------


def add_failing_commands(harness: BotHarness) -> None:
    """A test-only ``/test`` group whose commands raise, before or after deferring."""
    group = app_commands.Group(name="test", description="Test-only commands")

    @group.command(name="engine-error", description="Raise an engine error")
    async def engine_error(interaction: discord.Interaction[Any]) -> None:
        raise GameOverError

    @group.command(name="bug", description="Raise an unexpected error")
    async def bug(interaction: discord.Interaction[Any]) -> None:
        raise KeyError("unexpected")

    @group.command(name="deferred-bug", description="Defer, then raise an unexpected error")
    async def deferred_bug(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        raise ZeroDivisionError("deferred")

    @group.command(name="deferred-engine-error", description="Defer, then raise an engine error")
    async def deferred_engine_error(interaction: discord.Interaction[Any]) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        raise GameOverError

    harness.bot.tree.add_command(group)


async def test_engine_error_becomes_an_ephemeral_message(harness: BotHarness) -> None:
    add_failing_commands(harness)
    callback = await harness.ack(harness.payloads.slash("engine-error", group="test"))
    assert_ephemeral_message(callback, "the game is over")


async def test_unexpected_error_is_logged_with_an_id_and_the_user_gets_an_apology(
    harness: BotHarness, caplog: pytest.LogCaptureFixture
) -> None:
    add_failing_commands(harness)
    with caplog.at_level(logging.ERROR, logger="bot.discord.errors"):
        callback = await harness.ack(harness.payloads.slash("bug", group="test"))
    assert callback.json["type"] == CHANNEL_MESSAGE
    assert callback.json["data"]["flags"] == EPHEMERAL
    match = APOLOGY.fullmatch(callback.json["data"]["content"])
    assert match is not None
    (record,) = [r for r in caplog.records if r.name == "bot.discord.errors"]
    assert record.levelno == logging.ERROR
    assert match[1] in record.getMessage()
    assert "/test bug" in record.getMessage()
    assert record.exc_info is not None
    assert record.exc_info[0] is KeyError
    assert "KeyError: 'unexpected'" in caplog.text  # the traceback is in the log


async def test_error_after_deferral_is_a_followup(
    harness: BotHarness, caplog: pytest.LogCaptureFixture
) -> None:
    add_failing_commands(harness)
    payload = harness.payloads.slash("deferred-bug", group="test")
    with caplog.at_level(logging.ERROR, logger="bot.discord.errors"):
        callback = await harness.ack(payload)
        (followup,) = await harness.fake.followups_for(payload)
    assert callback.json == {"type": DEFERRED_CHANNEL_MESSAGE, "data": {"flags": EPHEMERAL}}
    assert followup.path == f"/webhooks/{harness.fake.application_id}/{payload['token']}"
    assert followup.json["flags"] == EPHEMERAL
    match = APOLOGY.fullmatch(followup.json["content"])
    assert match is not None
    assert match[1] in caplog.text
    assert "ZeroDivisionError: deferred" in caplog.text


async def test_engine_error_after_deferral_is_a_followup(harness: BotHarness) -> None:
    add_failing_commands(harness)
    payload = harness.payloads.slash("deferred-engine-error", group="test")
    await harness.ack(payload)
    (followup,) = await harness.fake.followups_for(payload)
    assert followup.json["content"] == "the game is over"
    assert followup.json["flags"] == EPHEMERAL


# -- the fake itself: DMs -----------------------------------------------------------------------------


async def test_dm_goes_to_the_user_and_closed_dms_are_refused(harness: BotHarness) -> None:
    fake = harness.fake
    fake.closed_dm_user_ids.add(666)
    open_dm = await harness.bot.create_dm(discord.Object(id=555))
    await open_dm.send("your rack", file=discord.File(io.BytesIO(b"img"), "rack.png"))
    (create,) = fake.find("POST", "/users/@me/channels")
    assert create.json == {"recipient_id": 555}
    (sent,) = fake.find("POST", f"/channels/{open_dm.id}/messages")
    assert fake.dm_recipients[open_dm.id] == 555
    assert sent.json["content"] == "your rack"
    assert [(f.filename, f.data) for f in sent.files] == [("rack.png", b"img")]

    closed_dm = await harness.bot.create_dm(discord.Object(id=666))
    with pytest.raises(discord.Forbidden) as refused:
        await closed_dm.send("hello")
    assert refused.value.code == 50007


# -- acknowledgement time -------------------------------------------------------------------------------


async def test_every_interaction_is_acknowledged_once_and_timed(harness: BotHarness) -> None:
    """Fifty /scrabble rules in a row: each answered by its own callback, each acknowledgement timed
    (the session's median and p95 are reported by conftest.py's ``pytest_terminal_summary``)."""
    runs, before = 50, len(ACK_TIMES)
    paths = set()
    for _ in range(runs):
        payload = harness.payloads.slash("rules")
        callback = await harness.ack(payload)
        assert_ephemeral_message(callback, rules_text(get_variant("standard")))
        paths.add(callback.path)
    assert len(paths) == runs
    times = ACK_TIMES[before:]
    assert len(times) == runs and all(time >= 0 for time in times)


# -- splitting long texts ---------------------------------------------------------------------------------


def test_split_text_cuts_between_lines_within_the_limit() -> None:
    text = "\n".join(f"line {i:04d} " + "x" * 90 for i in range(60))
    pieces = split_text(text)
    assert all(len(piece) <= 2000 for piece in pieces)
    assert "\n".join(pieces) == text
    assert len(pieces) == 4


def test_split_text_cuts_a_long_line_and_keeps_short_texts_whole() -> None:
    assert split_text("hello\n\nworld") == ["hello\n\nworld"]
    assert split_text("") == [""]
    assert split_text("a" * 4000) == ["a" * 2000, "a" * 2000]
    assert split_text("b\n" + "a" * 2001, limit=2000) == ["b", "a" * 2000, "a"]


def test_form_ids_parse_back_and_inputs_are_read_from_rows_and_labels() -> None:
    match = FORM_PATTERN.fullmatch(form_custom_id("play-form", 42, 17, 123456789012345678))
    assert match is not None
    assert (match["form"], match["game_id"], match["turn"], match["opened_by"]) == (
        "play-form",
        "42",
        "17",
        "123456789012345678",
    )
    # A form opened before turns were carried in custom ids: no move number.
    old = FORM_PATTERN.fullmatch(form_custom_id("play-form", 42, None, 123456789012345678))
    assert old is not None and old.group(0) == "scrabble:play-form:42:123456789012345678"
    assert (old["game_id"], old["turn"], old["opened_by"]) == ("42", None, "123456789012345678")
    components = [
        {"type": 1, "components": [{"type": 4, "custom_id": "move", "value": "8H QUIZ"}]},
        {"type": 18, "component": {"type": 4, "custom_id": "tiles", "value": "QV"}},
        {"type": 10, "content": "text, not an input"},
    ]
    assert input_values(components) == {"move": "8H QUIZ", "tiles": "QV"}
