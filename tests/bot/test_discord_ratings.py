"""Ratings and server settings through the discord layer: ``/scrabble stats`` with its chart,
``/scrabble leaderboard``, the ``rated`` option of ``/scrabble new`` and the ``/scrabble-settings`` group
(its permission default on the synced payload, the toggles, a refusal while a feature is off), with
Discord-shaped payloads through the bot's real command tree and the fake Discord API."""

from __future__ import annotations

import io
from typing import Any

from discord_fake import (
    BotHarness,
    FakeDiscord,
    MakeHarness,
    RecordedRequest,
    string_option,
    user_option,
)
from PIL import Image

from bot.games.scrabble.images.renderer import PngRenderer

BOB = 700_000_000_000_000_002
MANAGE_GUILD = 1 << 5
SETTINGS = "scrabble-settings"


async def slash(
    h: BotHarness, name: str, *options: dict[str, Any], group: str = "scrabble", **kwargs: Any
) -> RecordedRequest:
    """Run ``/group name`` and return the message it is answered with."""
    return await h.reply(h.payloads.slash(name, options, group=group, **kwargs))


async def won_by_alice(h: BotHarness, *options: dict[str, Any]) -> RecordedRequest:
    """Alice opens a game (with ``options``), Bob joins, it starts and Bob resigns; the new game's answer."""
    created = await slash(h, "new", *options)
    await slash(h, "join", user_id=BOB)
    await slash(h, "start")
    await h.service.idle()
    await slash(h, "resign", user_id=BOB)
    await h.service.idle()
    return created


async def test_settings_group_is_synced_for_server_managers_only(
    make_harness: MakeHarness, fake_discord: FakeDiscord
) -> None:
    await make_harness(sync_commands=True)
    (put,) = fake_discord.find("PUT", "/applications/")
    scrabble, settings, _go = put.json
    assert settings["name"] == SETTINGS
    assert settings["default_member_permissions"] == MANAGE_GUILD
    assert settings["contexts"] == [0]  # guilds only, never DMs
    commands = {c["name"]: c for c in settings["options"]}
    assert list(commands) == ["features", "enable", "disable", "rebuild-ratings"]
    for name in ("enable", "disable"):
        (feature,) = commands[name]["options"]
        assert (feature["name"], feature["required"]) == ("feature", True)
        assert [c["value"] for c in feature["choices"]] == ["ratings", "analysis", "puzzles"]
    new = {o["name"]: o for o in next(c for c in scrabble["options"] if c["name"] == "new")["options"]}
    assert (new["rated"]["type"], new["rated"]["required"]) == (5, False)  # a boolean, rated by default
    assert scrabble["default_member_permissions"] is None  # the game commands stay for everyone


async def test_stats_and_leaderboard_show_ratings_and_a_chart(harness: BotHarness) -> None:
    harness.service.plugin.renderer = PngRenderer()  # the real chart
    await won_by_alice(harness)
    reply = await slash(harness, "stats")
    assert reply.ephemeral
    assert reply.content.splitlines() == [
        "Alice: 1 game, 1 win, average score 0.0, best move none yet.",
        "Rating 3.4 (μ 27.64, σ 8.07; rating = μ − 3σ: the skill estimate μ less three times its uncertainty σ), "
        "rank 1 of 2 in this server, provisional (1 of 5 rated games).",
        "Record in rated games (won-lost-drawn):",
        "vs User700000000000000002: 1-0-0",
    ]
    (chart,) = reply.files
    assert chart.filename == "rating.png"
    image = Image.open(io.BytesIO(chart.data))
    assert (image.format, image.size, image.mode) == ("PNG", (960, 540), "P")
    option, resolved = user_option("user", BOB, harness.payloads.guild_id)
    bob = await slash(harness, "stats", option, resolved=resolved)
    assert bob.content.splitlines()[1].startswith("Rating -1.8 (μ 22.36, σ 8.07; ")
    board = await slash(harness, "leaderboard")
    assert board.ephemeral
    assert board.content.splitlines() == [
        "Leaderboard (rating = μ − 3σ: the skill estimate μ less three times its uncertainty σ):",
        "1. Alice: 3.4 (1 rated game, provisional), 1 win, average 0.0",
        "2. User700000000000000002: -1.8 (1 rated game, provisional), 0 wins, average 0.0",
        "Provisional: fewer than 5 rated games in this server.",
    ]


async def test_an_unrated_game_changes_no_rating(harness: BotHarness) -> None:
    created = await won_by_alice(harness, {"name": "rated", "type": 5, "value": False})
    assert created.content.endswith("It is unrated: it changes no rating.")
    assert await harness.store.ratings(harness.payloads.guild_id, "scrabble") == []
    reply = await slash(harness, "stats")
    assert reply.content.splitlines()[1] == "Not rated yet: none of their finished games here was rated."
    assert reply.files == ()


async def test_settings_toggle_features_and_refuse_what_is_off(harness: BotHarness) -> None:
    features = await slash(harness, "features", group=SETTINGS)
    assert features.ephemeral
    assert features.content.splitlines()[1:] == [
        "ratings: on (ratings in /scrabble stats and /scrabble leaderboard, /go stats)",
        "analysis: on (post-game analysis (/scrabble analyze))",
        "puzzles: on (daily puzzles (/scrabble puzzle, /scrabble solve))",
    ]
    off = await slash(harness, "disable", string_option("feature", "ratings"), group=SETTINGS)
    assert (off.ephemeral, off.content) == (True, "The ratings feature is now off in this server.")
    await won_by_alice(harness)
    stats = await slash(harness, "stats")
    assert (stats.content, stats.files) == (
        "Alice: 1 game, 1 win, average score 0.0, best move none yet.",
        (),
    )
    board = await slash(harness, "leaderboard")
    assert board.content.startswith("Leaderboard:\n1. Alice: 1 wins in 1 games, average 0.0")
    refused = await slash(harness, "rebuild-ratings", group=SETTINGS)
    assert refused.ephemeral
    assert refused.content == (
        "The ratings feature is turned off in this server: someone who can manage the server can turn it on "
        "with /scrabble-settings enable ratings"
    )
    on = await slash(harness, "enable", string_option("feature", "ratings"), group=SETTINGS)
    assert on.content == "The ratings feature is now on in this server."
    rebuilt = await slash(harness, "rebuild-ratings", group=SETTINGS)
    assert (rebuilt.ephemeral, rebuilt.content) == (True, "Ratings rebuilt from 1 rated game.")
    # The game finished while ratings were off was rated all the same.
    assert (await slash(harness, "stats")).content.splitlines()[1].startswith("Rating 3.4 ")
    unknown = await slash(harness, "enable", string_option("feature", "chess"), group=SETTINGS)
    assert unknown.content == "Unknown feature 'chess': choose one of ratings, analysis, puzzles"
