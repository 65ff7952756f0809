"""The third game (the test-only plugin of ``tests/bot/test_third_game.py``, named only there) on the
web board in real Chromium: the page knows nothing of it and draws it through the grid view from its
state alone (its web part is in its own package: no edit outside it and the host)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from service_fakes import ALICE, BOB, CHANNEL, GUILD
from test_third_game import PACKAGE

from bot.host import registry
from bot.host.seats import User
from tests.web import test_browser as scrabble_page
from tests.web.test_browser import Viewer
from tests.web.test_browser_go import LiveHost

pytest.importorskip("playwright.sync_api")
from playwright.sync_api import expect

browser = scrabble_page.browser
open_page = scrabble_page.open_page
"""The Scrabble page tests' fixtures: Chromium, and a page in a new browser context."""


class LiveFour(LiveHost):
    """A game of the third game, Alice (Red) against Bob (Yellow), and the web server over the host."""

    async def open_game(self, users: Sequence[User], options: dict[str, Any]) -> None:
        four = self.harness.svc.host.commands[registry.register(PACKAGE).kind]
        await four.new_game(GUILD, CHANNEL, users[0])
        await four.join(CHANNEL, users[1])


@pytest.fixture
def live_four(tmp_path: Path) -> Iterator[Callable[[], LiveFour]]:
    kind = registry.register(PACKAGE).kind
    games: list[LiveFour] = []

    def make() -> LiveFour:
        games.append(LiveFour(tmp_path, (ALICE, BOB), {}))
        return games[-1]

    yield make
    for game in games:
        game.close()
    registry.unregister(kind)


def test_the_third_game_is_played_on_the_grid_view(
    live_four: Callable[[], LiveFour], open_page: Callable[..., Viewer]
) -> None:
    server = live_four()
    alice, bob, watcher = open_page(server.link(0)), open_page(server.link(1)), open_page(server.link(None))
    expect(alice.page.locator(".topbar h1")).to_have_text(registry.register(PACKAGE).title)
    expect(alice.page.locator(".grid-cell")).to_have_count(42)
    expect(bob.page.locator("#grid-turn")).to_have_text("Alice to move")
    for number, column in enumerate((0, 1, 0, 1, 0, 1, 0)):
        viewer = (alice, bob)[number % 2]
        expect(viewer.page.locator("#grid-turn")).to_have_text("Your move")
        viewer.page.locator(f'.grid-cell[data-row="0"][data-col="{column}"]').click()
        expect(watcher.page.locator(".grid-cell.cell-red, .grid-cell.cell-yellow")).to_have_count(number + 1)
    expect(watcher.page.locator(".grid-cell.cell-red")).to_have_count(4)
    expect(watcher.page.locator('.grid-cell[data-row="2"][data-col="0"]')).to_have_class(
        "grid-cell cell-red edge-left"
    )
    for viewer in (alice, bob, watcher):
        expect(viewer.page.locator("#grid-final")).to_have_text("Game over: Alice wins.")
        expect(viewer.page.locator("#grid-turn")).to_have_text("Game over")
        assert viewer.errors == []
