"""Fixtures for the discord layer: a fake Discord REST API on loopback and bots logged in against it,
each with the real game service over a real SQLite file.

``discord_fake.py`` (next to this file) holds the fake and the payload factories, ``service_fakes.py``
the service's quick stand-ins (AI, advisor, renderer, lexicon); they are imported by putting this
directory on ``sys.path`` (the tests directory has no ``__init__.py``).
"""

from __future__ import annotations

import statistics
import sys
from collections.abc import AsyncIterator, Iterator, Sequence
from pathlib import Path
from typing import Any

import discord.http
import pytest

sys.path.insert(0, str(Path(__file__).parent))

from discord_fake import ACK_TIMES, TEST_TOKEN, BotHarness, FakeDiscord, MakeHarness, Payloads
from service_fakes import CREATOR_FIRST_SEED, AnyWord, SimpleAdvisor, SimpleAi, games_host

from bot.config import Config
from bot.discord.client import GameBot
from bot.games.go.board_image import render_go_board
from bot.games.go.protocols import GoAi
from bot.games.scrabble.protocols import Advisor, AiPlayer
from bot.host.ai import jobs
from bot.host.protocols import Clock, Notifier
from bot.host.runner import Host
from bot.host.store import Store


@pytest.fixture
async def fake_discord(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    """The fake REST API, with ``discord.http.Route.BASE`` pointed at it (which also covers the webhook
    adapter that sends interaction callbacks and followups); a test in which it answered a message with
    another of the same nonce (:attr:`FakeDiscord.swallowed`) fails."""
    fake = FakeDiscord()
    await fake.start()
    monkeypatch.setattr(discord.http.Route, "BASE", fake.api_base)
    yield fake
    await fake.close()
    fake.check_nothing_swallowed()


@pytest.fixture
async def make_harness(fake_discord: FakeDiscord, tmp_path: Path) -> AsyncIterator[MakeHarness]:
    """``await make_harness(config=Config(), sync_commands=False, lexicon=..., ai=..., advisor=..., seed=...)``: a
        fresh :class:`GameBot` logged in against the fake (``login`` runs ``setup_hook``, which starts
        the service; no gateway), with the host over ``tmp_path/games.sqlite3``, closed at
        teardown. By default the lexicon accepts every word and the AI and hints use
        :func:`service_fakes.find_play`, and every game has the seed ``seed`` (by default one with which the
    creator draws first: :data:`service_fakes.CREATOR_FIRST_SEED`). It hosts Go too (``service.go``:
        real board images, the built-in Go AI in a thread unless ``go_ai`` is given), on ``clock`` (default: the
        real one). Each call is a new bot process as far as discord.py is concerned,
        on the same database: a restart."""
    opened: list[tuple[GameBot, Store]] = []

    async def make(
        config: Config | None = None,
        *,
        sync_commands: bool = False,
        lexicon: Any = None,
        ai: AiPlayer | None = None,
        advisor: Advisor | None = None,
        seed: int = CREATOR_FIRST_SEED,
        go_ai: GoAi | None = None,
        clock: Clock | None = None,
    ) -> BotHarness:
        settings = config or Config(database=tmp_path / "games.sqlite3")
        for _, previous in opened:  # a restart: the previous process has ended, and its lock with it
            await previous.close()
        store = await Store.open(tmp_path / "games.sqlite3")

        async def make_host(notifier: Notifier) -> Host:
            return await games_host(
                settings,
                store,
                notifier,
                lexicon if lexicon is not None else AnyWord(),
                ai or SimpleAi(),
                advisor or SimpleAdvisor(),
                new_seed=lambda: seed,
                go_ai=go_ai,
                go_renderer=render_go_board,
                clock=clock,
            )

        bot = GameBot(settings, make_host, sync_commands=sync_commands)
        opened.append((bot, store))
        await bot.login(TEST_TOKEN)
        return BotHarness(bot, fake_discord, Payloads(application_id=fake_discord.application_id), store)

    yield make
    for bot, store in opened:
        await bot.close()
        await store.close()


@pytest.fixture
async def harness(make_harness: MakeHarness) -> BotHarness:
    """A bot logged in against the fake, without command sync."""
    return await make_harness()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Report the time from dispatching an interaction to its acknowledgement reaching the fake."""
    if not ACK_TIMES:
        return
    times_ms = sorted(t * 1000 for t in ACK_TIMES)
    p95 = times_ms[min(len(times_ms) - 1, round(0.95 * (len(times_ms) - 1)))]
    terminalreporter.write_sep("-", "discord interaction acknowledgement time")
    terminalreporter.write_line(
        f"{len(times_ms)} interactions: median {statistics.median(times_ms):.2f} ms, "
        f"p95 {p95:.2f} ms, max {times_ms[-1]:.2f} ms (dispatch to callback at the fake REST API)"
    )


@pytest.fixture
def merged(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[list[str]]]:
    """The share texts of each merge the executor asks for, in order (the merge itself runs as it
    would)."""
    calls: list[list[str]] = []
    merge = jobs.merge

    def recording(kind: str, data: Any, shares: Sequence[str]) -> str:
        calls.append(list(shares))
        return merge(kind, data, shares)

    monkeypatch.setattr(jobs, "merge", recording)
    yield calls
