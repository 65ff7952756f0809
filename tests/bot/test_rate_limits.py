"""Discord's rate limits: the fake Discord API enforces them, and announcements survive them.

The fake answers 429 as Discord does (per-route buckets, a global limit, ``retry_after``); discord.py
waits and sends the same request again. The tests check that a channel's messages all arrive once and
in order, that messages waiting for a busy channel merge (every text kept, only the newest board
image), that a lost answer does not make a message twice, and that interaction acknowledgements never
wait behind channel messages.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace
from typing import Any

import aiohttp
import pytest
from discord_fake import BotHarness, FakeDiscord, RateLimits

from bot.config import DiscordLimits
from bot.discord.budget import RestBudget
from bot.discord.delivery import MAX_CONTENT, MAX_FILES, capped_pieces, merged
from bot.discord.notifier import DiscordNotifier
from bot.games.scrabble.buttons import ScrabbleButton as Button
from bot.host.messages import MAX_KEY, Attachment, Link, Message

ALICE = 700_000_000_000_000_001
BOB = 700_000_000_000_000_002
GAME = 7
BOARD_LINK = Link("Open board", "https://board.example/game#t=7.s.0.x")


def turn(number: int, *, game: int = GAME) -> Message:
    """The announcement of turn ``number``: its text, its board image, its turn buttons and link."""
    return Message(
        f"Turn {number}: Alice played WORD{number} for {number} points.",
        attachments=(Attachment("board.png", f"board {number}".encode()),),
        mentions=(ALICE if number % 2 else BOB,),
        buttons=(Button.PLAY, Button.PASS),
        game=game,
        turn=number,
        links=(BOARD_LINK,),
    )


def texts(fake: FakeDiscord, channel_id: int) -> list[str]:
    """The texts of the messages in ``channel_id``, oldest first."""
    return [message["content"] for message in fake.channel_messages(channel_id)]


async def raw_post(
    session: aiohttp.ClientSession, fake: FakeDiscord, path: str, body: Any
) -> aiohttp.ClientResponse:
    async with session.post(fake.api_base + path, json=body) as response:
        await response.read()
        return response


# -- the fake's rate limits -------------------------------------------------------------------------------


async def test_fake_answers_429_with_retry_after_over_a_route_limit(fake_discord: FakeDiscord) -> None:
    fake_discord.rate_limits = RateLimits(per_route=2, route_window=30.0)
    async with aiohttp.ClientSession() as session:
        first, second, third = [
            await raw_post(session, fake_discord, "/channels/1/messages", {"content": str(n)})
            for n in range(3)
        ]
        other_channel = await raw_post(session, fake_discord, "/channels/2/messages", {"content": "x"})
        async with session.post(
            fake_discord.api_base + "/channels/1/messages", json={"content": "4"}
        ) as fourth:
            refusal = await fourth.json()
    assert [first.status, second.status, third.status, other_channel.status] == [200, 200, 429, 200]
    assert first.headers["X-RateLimit-Limit"] == "2"
    assert [first.headers["X-RateLimit-Remaining"], second.headers["X-RateLimit-Remaining"]] == ["1", "0"]
    assert first.headers["X-RateLimit-Bucket"] == other_channel.headers["X-RateLimit-Bucket"]
    assert 29.0 < float(second.headers["X-RateLimit-Reset-After"]) <= 30.0
    assert third.headers["X-RateLimit-Scope"] == "user" and "X-RateLimit-Global" not in third.headers
    assert third.headers["Via"] and float(third.headers["Retry-After"]) > 29.0
    assert refusal["message"] == "You are being rate limited." and refusal["global"] is False
    assert 29.0 < refusal["retry_after"] <= 30.0
    assert texts(fake_discord, 1) == ["0", "1"]
    assert [r.content for r in fake_discord.rate_limited] == ["2", "4"]


async def test_fake_global_limit_spares_interaction_endpoints(fake_discord: FakeDiscord) -> None:
    fake_discord.rate_limits = RateLimits(global_limit=2, global_window=30.0)
    callback = {"type": 4, "data": {"content": "ack"}}
    async with aiohttp.ClientSession() as session:
        statuses = [
            (await raw_post(session, fake_discord, f"/channels/{n}/messages", {"content": str(n)})).status
            for n in range(3)
        ]
        refused = await raw_post(session, fake_discord, "/channels/9/messages", {"content": "9"})
        acked = await raw_post(session, fake_discord, "/interactions/5/token/callback", callback)
        followup = await raw_post(session, fake_discord, "/webhooks/1/token", {"content": "f"})
    assert statuses == [200, 200, 429]
    assert refused.status == 429
    assert (
        refused.headers["X-RateLimit-Global"] == "true" and refused.headers["X-RateLimit-Scope"] == "global"
    )
    assert (acked.status, followup.status) == (200, 200)


async def test_fake_creates_a_message_once_per_nonce(fake_discord: FakeDiscord) -> None:
    body = {"content": "once", "nonce": "42", "enforce_nonce": True}
    async with aiohttp.ClientSession() as session:
        async with session.post(fake_discord.api_base + "/channels/1/messages", json=body) as first:
            created = await first.json()
        async with session.post(fake_discord.api_base + "/channels/1/messages", json=body) as again:
            repeated = await again.json()
    assert repeated == created and created["nonce"] == "42"
    assert texts(fake_discord, 1) == ["once"]
    assert fake_discord.swallowed == []
    other = {**body, "content": "another"}
    url = fake_discord.api_base + "/channels/1/messages"
    async with aiohttp.ClientSession() as session, session.post(url, json=other) as swallowed:
        assert await swallowed.json() == created  # as Discord does: "another" appears nowhere
    assert [request.json["content"] for request in fake_discord.swallowed] == ["another"]
    fake_discord.swallowed.clear()  # expected here: the fixture fails a test that leaves any


# -- merging ------------------------------------------------------------------------------------------------


def test_merged_keeps_every_text_and_only_the_newest_board() -> None:
    chart = Attachment("scores.png", b"chart")
    first = Message(turn(1).text, attachments=(*turn(1).attachments, chart), mentions=(ALICE,))
    both = merged(first, turn(2))
    assert both == Message(
        f"{turn(1).text}\n\n{turn(2).text}",
        attachments=(chart, Attachment("board.png", b"board 2")),
        mentions=(ALICE, BOB),
        buttons=turn(2).buttons,
        game=GAME,
        turn=2,
        links=(BOARD_LINK,),
    )
    text_only = Message("Bob ran out of time.")
    assert merged(turn(1), text_only) is None  # its turn buttons are not superseded
    assert merged(text_only, turn(2)) == Message(
        f"Bob ran out of time.\n\n{turn(2).text}",
        attachments=turn(2).attachments,
        mentions=turn(2).mentions,
        buttons=turn(2).buttons,
        game=GAME,
        turn=2,
        links=(BOARD_LINK,),
    )


@pytest.mark.parametrize(
    ("earlier", "later"),
    [
        pytest.param(Message("a", private=True), Message("b"), id="private"),
        pytest.param(Message("a"), Message("b", private=True), id="private later"),
        pytest.param(Message("a" * 1000), Message("b" * (MAX_CONTENT - 1001)), id="too long together"),
        pytest.param(Message("lobby", buttons=(Button.JOIN,), game=GAME), turn(2), id="buttons for any turn"),
        pytest.param(turn(1, game=GAME), turn(2, game=GAME + 1), id="another game"),
        pytest.param(Message("a", links=(Link("Open board", "https://other"),)), turn(2), id="other links"),
        pytest.param(
            Message("a", attachments=tuple(Attachment(f"{n}.gcg", b"") for n in range(MAX_FILES))),
            turn(2),
            id="too many files",
        ),
        pytest.param(Message("a", key="k"), turn(2), id="a keyed message"),
        pytest.param(Message("a"), replace(turn(2), key="k"), id="a keyed message later"),
    ],
)
def test_messages_that_must_go_separately(earlier: Message, later: Message) -> None:
    assert merged(earlier, later) is None


def test_texts_that_just_fit_merge() -> None:
    assert merged(Message("a" * 1000), Message("b" * (MAX_CONTENT - 1002))) is not None


@pytest.mark.parametrize("key", ["", "k" * (MAX_KEY + 1)])
def test_a_key_has_1_to_20_characters(key: str) -> None:
    with pytest.raises(ValueError, match=r"^a message's key has 1 to 20 characters$"):
        Message("a", key=key)


# -- through discord.py -------------------------------------------------------------------------------------


async def test_sequential_posts_under_429s_arrive_once_in_order(harness: BotHarness) -> None:
    """Three channels, four turns each, posted one after the other per channel as the service does
    (each new turn's post, then the edit that takes the buttons off the one before), against a global
    limit of three requests per half second: discord.py meets 429s and retries; every message arrives
    once, in order, with its own board. (One request at a time per channel and no more channels than
    the global limit, so a retry seldom meets another 429: with more channels than the limit,
    discord.py's five tries of one request could all meet 429s on a loaded machine.)"""
    fake = harness.fake
    fake.rate_limits = RateLimits(per_route=2, route_window=0.5, global_limit=3, global_window=0.5)
    notifier = DiscordNotifier(harness.bot)
    channels = [101, 102, 103]

    async def announce(channel_id: int) -> None:
        for number in range(1, 5):
            await notifier.post(channel_id, turn(number))

    await asyncio.gather(*(announce(channel_id) for channel_id in channels))
    assert fake.rate_limited, "no 429 was met"
    for channel_id in channels:
        assert texts(fake, channel_id) == [turn(n).text for n in range(1, 5)]
        boards = [m["attachments"][0]["filename"] for m in fake.channel_messages(channel_id)]
        assert boards == ["board.png"] * 4
    sent = [r for r in fake.requests if r.path == "/channels/101/messages"]
    assert [r.files[0].data for r in sent] == [f"board {n}".encode() for n in range(1, 5)]


async def test_waiting_messages_of_a_busy_channel_merge_in_order(harness: BotHarness) -> None:
    """While the channel's first message waits out a rate limit, the next ones arrive: they go out as
    few messages as can hold them, every text in order, only the newest board image; a lobby message
    (buttons for any turn) is never merged with what is around it."""
    fake = harness.fake
    fake.rate_limits = RateLimits(per_route=1, route_window=0.6)
    notifier = DiscordNotifier(harness.bot)
    lobby = Message("Lobby", buttons=(Button.JOIN,), game=GAME + 1)
    await notifier.post(200, Message("first"))  # the channel's bucket is now empty for 0.6 s
    posts = [notifier.post(200, message) for message in (turn(1), turn(2), lobby, turn(3), turn(4), turn(5))]
    await asyncio.gather(*posts)
    assert texts(fake, 200) == [
        "first",
        f"{turn(1).text}\n\n{turn(2).text}",
        "Lobby",
        f"{turn(3).text}\n\n{turn(4).text}\n\n{turn(5).text}",
    ]
    sent = [r for r in fake.requests if r.path == "/channels/200/messages"]
    assert [[f.data for f in r.files] for r in sent] == [[], [b"board 2"], [], [b"board 5"]]
    assert sent[1].json["allowed_mentions"]["users"] == [ALICE, BOB]
    assert [c["custom_id"] for c in sent[3].json["components"][0]["components"][:2]] == [
        f"scrabble:play:{GAME}:5",
        f"scrabble:pass:{GAME}:5",
    ]


async def test_a_refused_merged_message_fails_every_post_it_holds(harness: BotHarness) -> None:
    fake = harness.fake
    fake.rate_limits = RateLimits(per_route=1, route_window=0.5)
    notifier = DiscordNotifier(harness.bot)
    await notifier.post(300, Message("first"))
    fake.closed_dm_user_ids.add(0)
    fake.dm_recipients[300] = 0  # the channel now refuses messages (403), as a closed DM does
    results = await asyncio.gather(
        notifier.post(300, turn(1)), notifier.post(300, turn(2)), return_exceptions=True
    )
    assert [type(result).__name__ for result in results] == ["Forbidden", "Forbidden"]
    assert texts(fake, 300) == ["first"]


async def test_a_lost_answer_does_not_send_a_message_twice(harness: BotHarness) -> None:
    """Discord creates the message but its answer is lost (a 500): discord.py sends the request again
    with the same nonce, and the message exists once."""
    harness.fake.failures_after_create = 1
    await DiscordNotifier(harness.bot).post(400, turn(1))
    sent = [r for r in harness.fake.requests if r.path == "/channels/400/messages"]
    assert len(sent) == 2 and sent[0].json["nonce"] == sent[1].json["nonce"]
    assert texts(harness.fake, 400) == [turn(1).text]


async def test_a_keyed_message_posted_again_is_made_once_each_piece_by_its_own_nonce(
    harness: BotHarness,
) -> None:
    """An announcement posted again by a restart (its outbox entry was not marked in time) has the same
    key: Discord makes none of its messages twice. Another key, or none, makes new messages."""
    notifier = DiscordNotifier(harness.bot)
    key = "0123456789abcdef0123"
    long = replace(turn(1), text=f"{'word ' * 450}end", key=key)
    pieces = capped_pieces(long.text)
    assert len(pieces) == 2
    for message in [long, long, replace(long, key="another"), Message("plain"), Message("plain")]:
        await notifier.post(600, message)
    sent = [r.json for r in harness.fake.requests if r.path == "/channels/600/messages"]
    assert [body["nonce"] for body in sent[:6]] == [key, f"{key}.1"] * 2 + ["another", "another.1"]
    assert all(body["enforce_nonce"] for body in sent)
    assert sent[6]["nonce"] != sent[7]["nonce"]  # discord.py's own, one per message
    assert texts(harness.fake, 600) == [*pieces, *pieces, "plain", "plain"]


async def test_acknowledgements_never_wait_behind_rate_limited_posts(harness: BotHarness) -> None:
    """The bot is over the global limit, its channel messages wait for seconds; an interaction is still
    acknowledged at once (interaction endpoints are outside the global limit, and discord.py sends
    them apart from the waiting requests)."""
    fake = harness.fake
    fake.rate_limits = RateLimits(global_limit=1, global_window=2.0)
    notifier = DiscordNotifier(harness.bot)
    waiting = asyncio.gather(*(notifier.post(500 + n, Message(f"post {n}")) for n in range(3)))
    while not fake.rate_limited:
        await asyncio.sleep(0.01)
    started = time.perf_counter()
    callback = await harness.ack(harness.payloads.slash("rules"))
    assert time.perf_counter() - started < 0.5
    assert callback.json["type"] == 4
    assert not waiting.done()
    await waiting
    assert sorted(texts(fake, 500) + texts(fake, 501) + texts(fake, 502)) == ["post 0", "post 1", "post 2"]


# -- a game ---------------------------------------------------------------------------------------------------


async def test_a_game_under_rate_limits_announces_every_turn_once_in_order(harness: BotHarness) -> None:
    """Alice and Bob pass in turn while Discord limits the bot: every turn's announcement is in the
    channel once, in order, and the outbox has nothing left to send."""
    fake = harness.fake
    channel_id = harness.payloads.channel_id
    await harness.reply(harness.payloads.slash("new"))
    await harness.reply(harness.payloads.slash("join", user_id=BOB))
    fake.rate_limits = RateLimits(per_route=5, route_window=5.0, global_limit=1, global_window=0.5)
    await harness.reply(harness.payloads.slash("start"))
    await harness.service.idle()
    for user_id in (ALICE, BOB, ALICE, BOB):
        reply = await harness.reply(harness.payloads.slash("pass", user_id=user_id), timeout=15.0)
        assert reply.content == "You passed."
    await harness.service.idle()
    passes = [text.split("\n")[0] for text in texts(fake, channel_id) if " passed." in text.split("\n")[0]]
    assert passes == [
        "Alice passed.",
        "User700000000000000002 passed.",
        "Alice passed.",
        "User700000000000000002 passed.",
    ]
    assert fake.rate_limited, "no 429 was met"
    assert await harness.store.pending_outbox() == []


async def start_a_game(harness: BotHarness) -> None:
    """Alice's game with Bob, started, its announcements out."""
    await harness.reply(harness.payloads.slash("new"))
    await harness.reply(harness.payloads.slash("join", user_id=BOB))
    await harness.reply(harness.payloads.slash("start"))
    await harness.service.idle()


async def test_a_deferral_is_not_delayed_by_the_channels_waiting_announcement(harness: BotHarness) -> None:
    """Bob's pass is announced while another client of the same token has used the global limit up:
    Discord answers 429 and discord.py waits about two seconds with the post. Alice's next command is
    still answered at once (by the interaction's response, type 4, which the global limit does not
    hold); every pass is announced once, in order (Alice's may go in its own post: Bob's is already on
    its way, which the bot's own budget could not foresee)."""
    fake = harness.fake
    channel_id = harness.payloads.channel_id
    await start_a_game(harness)
    await harness.reply(harness.payloads.slash("pass", user_id=ALICE))
    fake.rate_limits = RateLimits(global_limit=1, global_window=2.0)
    await DiscordNotifier(harness.bot).post(999, Message("fills the global window"))
    bobs_pass = harness.payloads.slash("pass", user_id=BOB)
    harness.dispatch(bobs_pass)
    while not fake.rate_limited:
        await asyncio.sleep(0.01)
    alices_pass = harness.payloads.slash("pass", user_id=ALICE)
    started = time.perf_counter()
    answer = await harness.ack(alices_pass)
    assert time.perf_counter() - started < 0.5
    assert (answer.json["type"], answer.content) == (4, "You passed.")
    assert not any("User700000000000000002 passed." in text for text in texts(fake, channel_id))
    await harness.service.idle()
    passes = [
        line for text in texts(fake, channel_id) for line in text.split("\n") if line.endswith(" passed.")
    ]
    assert passes == ["Alice passed.", "User700000000000000002 passed.", "Alice passed."]


async def test_a_pass_made_while_the_budget_holds_the_channels_announcement_merges_into_it(
    harness: BotHarness,
) -> None:
    """One post per five seconds in a channel, by the bot's own budget: Bob's pass, announced right
    after Alice's, waits for the channel's window (Discord never answers 429). The passes made
    meanwhile are answered at once, and their announcements, waiting together behind it, go out in one
    post after it, in order."""
    fake = harness.fake
    channel_id = harness.payloads.channel_id
    await start_a_game(harness)
    harness.bot.notifier.budget = RestBudget(DiscordLimits(channel_requests=1, channel_seconds=5.0))
    await harness.reply(harness.payloads.slash("pass", user_id=ALICE))
    await harness.ack(harness.payloads.slash("pass", user_id=BOB))
    # Bob's post waits for the window in the notifier (drawn: a pass announced while it was being
    # drawn would join it before it got there).
    while not harness.bot.notifier._waiting.get(channel_id):
        await asyncio.sleep(0.01)
    started = time.perf_counter()
    answers = [await harness.ack(harness.payloads.slash("pass", user_id=user)) for user in (ALICE, BOB)]
    assert time.perf_counter() - started < 1.0
    assert [(answer.json["type"], answer.content) for answer in answers] == [(4, "You passed.")] * 2
    await harness.service.idle()
    passes = [
        [line for line in text.split("\n") if line.endswith(" passed.")] for text in texts(fake, channel_id)
    ]
    assert [said for said in passes if said] == [
        ["Alice passed."],
        ["User700000000000000002 passed."],
        ["Alice passed.", "User700000000000000002 passed."],
    ]
    assert fake.rate_limited == []
