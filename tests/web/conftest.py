"""Fixtures for the web board: the real game service over a real SQLite file (the service tests'
harness) and the real web server on aiohttp's test server (``web_harness``).
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp.test_utils import TestServer

sys.path.insert(0, str(Path(__file__).parent.parent / "bot"))

from discord_fake import TEST_TOKEN
from service_fakes import make_config, open_harness, started_game

from bot.config import ActivityConfig, Config
from bot.host.seats import User
from bot.web.links import LinkSigner
from bot.web.server import Limits, WebServer
from tests.web.web_harness import ALICE, BOB, FAST, MakeWeb, Web


@pytest.fixture
async def make_web(tmp_path: Path) -> AsyncIterator[MakeWeb]:
    """``await make_web(users=(ALICE, BOB), ai=0, limits=..., phonies=(), activity=None, **options)``: a
    started game in CHANNEL (no game with ``users=()``) and the web server over its service (serving
    the board as the ``activity`` too, if given). The limits default to the protocol's, but for a
    message rate fast tests can use."""
    opened: list[Web] = []

    async def make(
        users: Sequence[User] = (ALICE, BOB),
        *,
        ai: int = 0,
        limits: Limits = FAST,
        phonies: Sequence[str] = (),
        config: Config | None = None,
        start: bool = True,
        activity: ActivityConfig | None = None,
        **options: Any,
    ) -> Web:
        harness = await open_harness(tmp_path, config or make_config(), phonies)
        server = WebServer(
            harness.svc,
            LinkSigner(b"k" * 32),
            limits=limits,
            now=harness.clock.now,
            activity=activity,
            bot_token=TEST_TOKEN if activity else None,
        )
        test_server = TestServer(server.app())
        await test_server.start_server()
        web = Web(harness, server, test_server, aiohttp.ClientSession())
        opened.append(web)
        if users and start:
            await started_game(harness, users, ai=ai, **options)
        return web

    yield make
    for web in opened:
        for client in web.clients:
            await client.ws.close()
        await web.server.close()
        await web.session.close()
        await web.test_server.close()
        await web.harness.close()
