"""The bot's budget of REST requests (:class:`~bot.discord.budget.RestBudget`): a request keeps its place
while it is under way and counts from its answer, so that requests slow to reach Discord never put the
bot over a limit; through the notifier against the fake Discord, every message arrives once, in order,
with no 429.
"""

from __future__ import annotations

import asyncio
import contextlib

from discord_fake import BotHarness, RateLimits

from bot.config import DiscordLimits
from bot.discord.budget import RestBudget
from bot.discord.notifier import DiscordNotifier
from bot.games.scrabble.buttons import ScrabbleButton as Button
from bot.host.messages import Attachment, Message


class Clock:
    """A monotonic clock that moves only when the budget sleeps (or a test sets it)."""

    def __init__(self) -> None:
        self.now = 100.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(round(seconds, 6))
        self.now += seconds
        await asyncio.sleep(0)


async def settle() -> None:
    """Let every task run as far as it can without the clock moving."""
    for _ in range(10):
        await asyncio.sleep(0)


def budget_of(clock: Clock, **limits: int | float) -> RestBudget:
    return RestBudget(DiscordLimits(**limits), clock=clock, sleep=clock.sleep)  # type: ignore[arg-type]


async def test_a_request_under_way_keeps_its_place_and_counts_from_its_answer() -> None:
    """Two requests a second: while two are under way a third waits for an answer (not a time), then
    one second from that answer, however long ago the first was let go."""
    clock = Clock()
    budget = budget_of(clock, requests_per_second=2)
    let_go: list[float] = []

    async def third() -> None:
        async with budget.request("c"):
            let_go.append(clock.now)

    async with contextlib.AsyncExitStack() as under_way:
        await under_way.enter_async_context(budget.request("a"))
        await under_way.enter_async_context(budget.request("b"))
        waiting = asyncio.create_task(third())
        await settle()
        assert (let_go, clock.slept) == ([], [])
        clock.now = 103.0
    await settle()  # "a" and "b" answered at 103.0
    await waiting
    assert let_go == [104.0]
    assert clock.slept == [1.0]


async def test_ready_waits_for_a_place_without_taking_it() -> None:
    """One request a second: ``ready`` returns once a request would fit, and takes no place, so the
    request that follows it goes at once, and only the one after that waits its second."""
    clock = Clock()
    budget = budget_of(clock, requests_per_second=1)
    async with budget.request("a"):
        pass
    await budget.ready("b")
    assert (clock.now, clock.slept) == (101.0, [1.0])
    await budget.ready("b")
    async with budget.request("b"):
        assert clock.now == 101.0
    async with budget.request("c"):
        assert clock.now == 102.0


async def test_a_buckets_requests_wait_for_its_window_and_others_go_at_once() -> None:
    """Two requests per five seconds in a bucket: its third waits until five seconds after the first's
    answer, a failed request counting like an answered one; another bucket's goes meanwhile."""
    clock = Clock()
    budget = budget_of(clock, channel_requests=2, channel_seconds=5.0)
    with contextlib.suppress(ConnectionError):
        async with budget.request(("post", 1)):
            clock.now = 101.0
            raise ConnectionError  # refused or lost on the way: it counts from 101.0
    clock.now = 102.0
    async with budget.request(("post", 1)):
        pass
    async with budget.request(("post", 2)):
        assert clock.now == 102.0
    async with budget.request(("post", 1)):
        assert clock.now == 106.0
    assert clock.slept == [4.0]


async def test_slow_uploads_never_meet_a_429_and_every_message_arrives_once_in_order(
    harness: BotHarness,
) -> None:
    """Eight channels each get a turn with its board, whose upload takes 0.4 s, then a line of text
    and a second turn, under a limit of four requests a second in all: the fake counts an upload
    when it has arrived, and the bot never goes over (no 429), every message once and in order."""
    fake = harness.fake
    fake.rate_limits = RateLimits(global_limit=4, global_window=1.0)
    fake.upload_seconds = 0.4
    notifier = DiscordNotifier(harness.bot, DiscordLimits(requests_per_second=4))
    channels = [800 + n for n in range(8)]
    await asyncio.sleep(fake.rate_limits.global_window)  # the bot's login out of the fake's window

    def turn(channel_id: int, number: int) -> Message:
        return Message(
            f"Turn {number} in {channel_id}",
            attachments=(Attachment("board.png", f"board {channel_id} {number}".encode()),),
            buttons=(Button.PLAY,),
            game=channel_id,
            turn=number,
        )

    async def announce(channel_id: int) -> None:
        await notifier.post(channel_id, turn(channel_id, 1))
        await notifier.post(channel_id, Message(f"A note in {channel_id}"))
        await notifier.post(channel_id, turn(channel_id, 2))

    await asyncio.gather(*(announce(channel_id) for channel_id in channels))
    assert fake.rate_limited == []
    for channel_id in channels:
        sent = [r for r in fake.requests if r.path == f"/channels/{channel_id}/messages"]
        assert [(r.method, r.content, [f.data for f in r.files]) for r in sent] == [
            ("POST", f"Turn 1 in {channel_id}", [f"board {channel_id} 1".encode()]),
            ("POST", f"A note in {channel_id}", []),
            ("POST", f"Turn 2 in {channel_id}", [f"board {channel_id} 2".encode()]),
        ]
        (edit,) = [r for r in fake.requests if r.method == "PATCH" and f"/channels/{channel_id}/" in r.path]
        assert edit.json["components"] == []  # the first turn's Play button taken away
