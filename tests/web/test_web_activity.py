"""The board as a Discord Activity, on the server's side: the sign-in (a Discord OAuth2 code exchanged at
the fake Discord API, the user read from ``/users/@me``, their seat in the channel's game), the page's
headers (framed by Discord's clients on the Activity's route only), and the hosts and origins of
Discord's proxy."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any

import aiohttp
import pytest
from discord_fake import TEST_TOKEN, FakeDiscord
from service_fakes import CAROL, GUILD, OTHER_CHANNEL

from bot.config import ActivityConfig
from bot.games.go.commands import GoCommands
from bot.host.seats import User
from bot.web.perimeter import CSP
from tests.web.web_harness import ALICE, BOB, CHANNEL, FAST, MakeWeb, Web, WsClient

FAKE_CLIENT = "http://localhost:3333"
"""The origin of the fake Discord client frame (one the SDK accepts messages from)."""


@pytest.fixture
async def fake_discord() -> AsyncIterator[FakeDiscord]:
    fake = FakeDiscord()
    await fake.start()
    yield fake
    await fake.close()


def activity_of(fake: FakeDiscord) -> ActivityConfig:
    """The Activity's settings for ``fake``'s application."""
    return ActivityConfig(fake.application_id, fake.client_secret, api=fake.api_base, clients=(FAKE_CLIENT,))


async def sign_in(
    web: Web,
    fake: FakeDiscord,
    code: str,
    user: User = ALICE,
    channel: int = CHANNEL,
    guild: int = GUILD,
    *,
    joined: bool = True,
) -> tuple[int, Any]:
    """POST the page's sign-in of ``user`` with ``code``, from the Activity's instance in ``channel`` of
    ``guild`` (which ``user`` joined, unless not ``joined``): its status and JSON answer."""
    instance = f"i-{guild}-{channel}"
    if joined:
        fake.join_activity(instance, channel, guild, user.id)
    body = {"code": code, "instance_id": instance}
    async with web.session.post(web.test_server.make_url("/activity/session"), json=body) as response:
        assert response.headers["Cache-Control"] == "no-store"
        return response.status, await response.json()


async def hello(web: Web, token: str) -> tuple[WsClient, dict[str, Any]]:
    return await web.connect(token)


async def test_each_discord_user_plays_their_own_seat_and_the_others_spectate(
    make_web: MakeWeb, fake_discord: FakeDiscord
) -> None:
    web = await make_web(activity=activity_of(fake_discord))
    status, alice = await sign_in(web, fake_discord, fake_discord.authorize(ALICE.id, "alice"), ALICE)
    assert status == 200, alice
    assert alice["role"] == "player"
    assert alice["user"] == {"id": str(ALICE.id), "name": "Alice"}
    assert alice["game"] == {"id": web.game_id(), "kind": "scrabble"}
    assert alice["access_token"] == fake_discord.access_token_of(ALICE.id)
    assert alice["token"] == web.signer.token(web.game_id(), "player", 0)  # type: ignore[arg-type]
    _, welcome = await hello(web, alice["token"])
    assert welcome["you"] == {"role": "player", "seat": 0, "name": "Alice"}
    assert len(welcome["state"]["rack"]) == 7

    _, bob = await sign_in(web, fake_discord, fake_discord.authorize(BOB.id, "bob"), BOB)
    _, welcome = await hello(web, bob["token"])
    assert welcome["you"] == {"role": "player", "seat": 1, "name": "Bob"}

    status, carol = await sign_in(web, fake_discord, fake_discord.authorize(CAROL.id, "carol"), CAROL)
    assert status == 200 and carol["role"] == "spectator"
    client, welcome = await hello(web, carol["token"])
    assert welcome["you"] == {"role": "spectator", "seat": None, "name": None}
    assert "rack" not in welcome["state"]
    refused = await client.call("pass", turn=0)
    assert refused["error"]["code"] == "not_seated"
    # The exchange sent the application's id and secret to Discord's token endpoint, nothing else.
    (exchange, *_) = fake_discord.find("POST", "/oauth2/token")
    assert exchange.json == {
        "client_id": str(fake_discord.application_id),
        "client_secret": fake_discord.client_secret,
        "grant_type": "authorization_code",
        "code": exchange.json["code"],
    }
    (me, *_) = fake_discord.find("GET", "/users/@me")
    assert me.authorization == f"Bearer {alice['access_token']}"


async def test_a_replayed_code_is_refused_and_so_is_a_forged_one(
    make_web: MakeWeb, fake_discord: FakeDiscord, caplog: pytest.LogCaptureFixture
) -> None:
    web = await make_web(activity=activity_of(fake_discord))
    caplog.set_level(logging.DEBUG)
    code = fake_discord.authorize(ALICE.id, "alice")
    status, first = await sign_in(web, fake_discord, code)
    assert status == 200
    status, again = await sign_in(web, fake_discord, code)
    assert (status, again) == (
        401,
        {
            "ok": False,
            "error": {
                "code": "unauthorized",
                "message": "this sign-in was used already: close the board and open it again",
            },
        },
    )
    assert len(fake_discord.find("POST", "/oauth2/token")) == 1  # refused before Discord was asked
    status, forged = await sign_in(web, fake_discord, "f0rgedc0de" * 3)
    assert (status, forged["error"]) == (
        401,
        {
            "code": "unauthorized",
            "message": "Discord did not accept this sign-in: close the board and open it again",
        },
    )
    status, bad = await sign_in(web, fake_discord, "not a code!")
    assert (status, bad["error"]["code"]) == (400, "bad_message")
    assert len(fake_discord.find("POST", "/oauth2/token")) == 2
    # Neither the secret, nor a code, nor a token is logged.
    logged = caplog.text
    for secret in (fake_discord.client_secret, TEST_TOKEN, code, first["access_token"], first["token"]):
        assert secret not in logged
    assert "a sign-in code was replayed" in logged


async def test_a_sign_in_with_a_wrong_secret_is_refused(make_web: MakeWeb, fake_discord: FakeDiscord) -> None:
    activity = ActivityConfig(fake_discord.application_id, "not-the-secret", api=fake_discord.api_base)
    web = await make_web(activity=activity)
    status, body = await sign_in(web, fake_discord, fake_discord.authorize(ALICE.id, "alice"), ALICE)
    assert (status, body["error"]["code"]) == (401, "unauthorized")


async def test_no_game_in_the_channel_or_another_guilds_game(
    make_web: MakeWeb, fake_discord: FakeDiscord
) -> None:
    web = await make_web(activity=activity_of(fake_discord))
    no_game = {
        "ok": False,
        "error": {
            "code": "no_game",
            "message": "No game here: start one with /scrabble new or /go new, then open the board again.",
        },
    }
    assert await sign_in(
        web, fake_discord, fake_discord.authorize(ALICE.id, "alice"), ALICE, channel=OTHER_CHANNEL
    ) == (
        404,
        no_game,
    )
    assert await sign_in(
        web, fake_discord, fake_discord.authorize(ALICE.id, "alice"), ALICE, guild=GUILD + 1
    ) == (404, no_game)


async def test_only_a_user_in_a_running_instance_signs_in(
    make_web: MakeWeb, fake_discord: FakeDiscord
) -> None:
    web = await make_web(activity=activity_of(fake_discord))
    code = fake_discord.authorize(CAROL.id, "carol")
    status, body = await sign_in(web, fake_discord, code, CAROL, joined=False)
    assert (status, body["error"]) == (
        401,
        {"code": "unauthorized", "message": "this board is not open in Discord: open it from Discord again"},
    )
    fake_discord.join_activity(f"i-{GUILD}-{CHANNEL}", CHANNEL, GUILD, ALICE.id)
    status, body = await sign_in(
        web, fake_discord, fake_discord.authorize(CAROL.id, "carol"), CAROL, joined=False
    )
    assert (status, body["error"]) == (
        401,
        {
            "code": "unauthorized",
            "message": "you are not in this Activity: join it in Discord, then open the board",
        },
    )
    (lookup, *_) = fake_discord.find("GET", "/applications/")
    assert (
        lookup.path == f"/applications/{fake_discord.application_id}/activity-instances/i-{GUILD}-{CHANNEL}"
    )
    assert lookup.authorization == f"Bot {TEST_TOKEN}"


async def test_a_player_spectates_the_lobby_where_seats_still_move(
    make_web: MakeWeb, fake_discord: FakeDiscord
) -> None:
    web = await make_web(activity=activity_of(fake_discord), start=False)
    await web.harness.svc.new_game(GUILD, CHANNEL, ALICE)
    status, alice = await sign_in(web, fake_discord, fake_discord.authorize(ALICE.id, "alice"), ALICE)
    assert (status, alice["role"], alice["seat_on_start"]) == (200, "spectator", True)
    status, carol = await sign_in(web, fake_discord, fake_discord.authorize(CAROL.id, "carol"), CAROL)
    assert (status, carol["role"], carol["seat_on_start"]) == (200, "spectator", False)


async def test_a_game_without_a_board_says_so(
    make_web: MakeWeb, fake_discord: FakeDiscord, monkeypatch: pytest.MonkeyPatch
) -> None:
    web = await make_web(activity=activity_of(fake_discord), start=False)
    go: GoCommands = web.harness.svc.host.commands["go"]
    monkeypatch.setattr(type(go.plugin), "board_links", False)
    await go.new_game(GUILD, CHANNEL, ALICE)
    status, body = await sign_in(web, fake_discord, fake_discord.authorize(ALICE.id, "alice"), ALICE)
    assert (status, body["error"]) == (
        404,
        {
            "code": "no_game",
            "message": "This channel's Go game has no board here: play it with its commands.",
        },
    )


async def test_discord_down_is_said(make_web: MakeWeb, fake_discord: FakeDiscord) -> None:
    web = await make_web(activity=activity_of(fake_discord))
    code = fake_discord.authorize(ALICE.id, "alice")
    await fake_discord.close()
    status, body = await sign_in(web, fake_discord, code)
    assert (status, body["error"]) == (
        503,
        {"code": "discord_unavailable", "message": "Discord did not answer: try again in a moment"},
    )


async def test_sign_ins_are_rate_limited_per_address(make_web: MakeWeb, fake_discord: FakeDiscord) -> None:
    web = await make_web(
        activity=activity_of(fake_discord), limits=replace(FAST, sign_in_rate=0.01, sign_in_burst=3)
    )
    statuses = [(await sign_in(web, fake_discord, f"code{n}"))[0] for n in range(5)]
    assert statuses == [401] * 3 + [429] * 2
    _, refused = await sign_in(web, fake_discord, "code9")
    assert refused["error"] == {
        "code": "rate_limited",
        "message": "too many sign-ins: wait a minute and open the board again",
    }


async def test_only_the_activitys_page_may_be_framed_and_only_by_discord(
    make_web: MakeWeb, fake_discord: FakeDiscord
) -> None:
    web = await make_web(activity=activity_of(fake_discord))
    async with web.session.get(web.test_server.make_url("/")) as page:
        assert page.status == 200
        assert "<title>Scrabble</title>" in await page.text()
        policy = page.headers["Content-Security-Policy"]
        assert policy.endswith(f"; frame-ancestors {FAKE_CLIENT}")
        assert policy.removesuffix(f"; frame-ancestors {FAKE_CLIENT}") == CSP.removesuffix(
            "; frame-ancestors 'none'"
        )
        assert "X-Frame-Options" not in page.headers
    async with web.session.get(web.test_server.make_url("/game")) as page:
        assert page.headers["Content-Security-Policy"] == CSP
        assert "frame-ancestors 'none'" in CSP
        assert page.headers["X-Frame-Options"] == "DENY"
    async with web.session.post(web.test_server.make_url("/activity/session"), data=b"x") as refused:
        assert refused.headers["X-Frame-Options"] == "DENY"


async def test_without_the_activity_there_is_no_activity_page_nor_proxy(
    make_web: MakeWeb, fake_discord: FakeDiscord
) -> None:
    web = await make_web()
    async with web.session.get(web.test_server.make_url("/")) as missing:
        assert missing.status == 404
        assert missing.headers["X-Frame-Options"] == "DENY"
    async with web.session.post(web.test_server.make_url("/activity/session"), json={}) as missing:
        assert missing.status == 404
    proxy = f"{fake_discord.application_id}.discordsays.com"
    async with web.session.get(web.test_server.make_url("/healthz"), headers={"Host": proxy}) as response:
        assert response.status == 421


async def test_discords_proxy_is_admitted_as_configured_and_nothing_else(
    make_web: MakeWeb, fake_discord: FakeDiscord
) -> None:
    web = await make_web(activity=activity_of(fake_discord))
    proxy = f"{fake_discord.application_id}.discordsays.com"

    async def status(path: str, headers: dict[str, str]) -> int:
        async with web.session.get(web.test_server.make_url(path), headers=headers) as response:
            return response.status

    assert await status("/healthz", {"Host": proxy}) == 200
    assert await status("/healthz", {"Host": "123.discordsays.com"}) == 421
    assert await status("/healthz", {"Origin": f"https://{proxy}"}) == 200
    assert await status("/healthz", {"Origin": f"http://{proxy}"}) == 403
    assert await status("/healthz", {"Origin": f"http://{proxy}:443"}) == 403
    assert await status("/healthz", {"Origin": f"https://{proxy}:8443"}) == 403
    assert await status("/healthz", {"Origin": "https://123.discordsays.com"}) == 403
    socket = await web.session.ws_connect(
        web.test_server.make_url("/ws"), headers={"Origin": f"https://{proxy}"}
    )
    await socket.close()
    with pytest.raises(aiohttp.WSServerHandshakeError):
        await web.session.ws_connect(
            web.test_server.make_url("/ws"), headers={"Origin": "https://1.discordsays.com"}
        )
