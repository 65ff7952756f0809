"""Go on the web board in real Chromium (Playwright, as ``test_browser.py``): the page takes the grid
view when the welcome names a grid game; two players click points to play, pass, take a move back by
consent, mark the dead stones and accept the count while a spectator follows; resigning asks first;
the board fits desktop and phone screens."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from service_fakes import ALICE, BOB, CHANNEL, GUILD, open_harness

from bot.games.go.options import GoNewGame
from bot.host.seats import User
from bot.web.links import LinkSigner
from bot.web.server import WebServer
from tests.web import test_browser as scrabble_page
from tests.web.test_browser import LiveGame, Viewer

pytest.importorskip("playwright.sync_api")
from playwright.sync_api import Page, expect

browser = scrabble_page.browser
open_page = scrabble_page.open_page
"""The Scrabble page tests' fixtures: Chromium, and a page in a new browser context."""


class LiveHost(LiveGame):
    """The web server over a host with every registered game, and the game :meth:`open_game` starts."""

    async def _start(self, tmp_path: Path, users: Sequence[User], options: dict[str, Any]) -> None:
        self.harness = await open_harness(tmp_path)
        self.server = WebServer(
            self.harness.svc, LinkSigner(b"k" * 32), host="127.0.0.1", port=0, now=self.harness.clock.now
        )
        await self.server.start()
        await self.open_game(users, options)

    async def open_game(self, users: Sequence[User], options: dict[str, Any]) -> None:
        """Start the game of ``users`` in CHANNEL."""
        raise NotImplementedError


class LiveGo(LiveHost):
    """A Go game (Alice Black, Bob White) and the web server over the host."""

    async def open_game(self, users: Sequence[User], options: dict[str, Any]) -> None:
        go = self.harness.svc.host.commands["go"]
        await go.new_game(GUILD, CHANNEL, users[0], GoNewGame(colour="black", **options))
        await go.join(CHANNEL, users[1])


@pytest.fixture
def live_go(tmp_path: Path) -> Iterator[Callable[..., LiveGo]]:
    games: list[LiveGo] = []

    def make(size: int = 5, **options: Any) -> LiveGo:
        games.append(LiveGo(tmp_path, (ALICE, BOB), {"size": size, **options}))
        return games[-1]

    yield make
    for game in games:
        game.close()


def point(viewer: Viewer, row: int, col: int) -> Any:
    return viewer.page.locator(f'.grid-cell[data-row="{row}"][data-col="{col}"]')


def cells(page: Page, size: int) -> list[str]:
    """The board as the page draws it: per row, X/O for stones, x/o dead, . otherwise."""
    found: list[str] = page.evaluate(
        """(size) => {
            const rows = [];
            for (let row = 0; row < size; row += 1) {
                let line = "";
                for (let col = 0; col < size; col += 1) {
                    const cell = document.querySelector(`.grid-cell[data-row="${row}"][data-col="${col}"]`);
                    const dead = cell.classList.contains("cell-dead");
                    if (cell.classList.contains("cell-black")) line += dead ? "x" : "X";
                    else if (cell.classList.contains("cell-white")) line += dead ? "o" : "O";
                    else line += ".";
                }
                rows.push(line);
            }
            return rows;
        }""",
        size,
    )
    return found


def test_two_players_play_go_by_clicks_while_a_spectator_watches(
    live_go: Callable[..., LiveGo], open_page: Callable[..., Viewer]
) -> None:
    server = live_go()
    alice, bob, watcher = open_page(server.link(0)), open_page(server.link(1)), open_page(server.link(None))
    expect(alice.page.locator("#grid-turn")).to_have_text("Your move")
    expect(bob.page.locator("#grid-turn")).to_have_text("Alice to move")
    expect(watcher.page.locator("#grid-actions button")).to_have_count(0)
    expect(alice.page.locator(".topbar h1")).to_have_text("Go 5×5")
    assert alice.page.title() == "Go 5×5"

    point(alice, 2, 2).click()
    expect(watcher.page.locator("#grid-history li")).to_have_text(["Alice: C3"])
    expect(point(watcher, 2, 2)).to_have_class("grid-cell cell-black cell-last")
    point(alice, 2, 3).click()  # not Alice's move: nothing is sent
    point(bob, 2, 2).click()
    expect(bob.page.locator("#grid-feedback")).to_have_text("C3 is already occupied")
    point(bob, 4, 0).click()
    expect(watcher.page.locator("#grid-history li")).to_have_text(["Alice: C3", "Bob: A1"])

    alice.page.locator('#grid-actions [data-action="undo"]').click()
    expect(bob.page.locator("#grid-info")).to_contain_text("Alice asks to take back their last move.")
    bob.page.locator('#grid-actions [data-action="undo_accept"]').click()
    expect(watcher.page.locator(".grid-cell.cell-black")).to_have_count(0)
    expect(alice.page.locator("#grid-turn")).to_have_text("Your move")

    point(alice, 2, 2).click()
    expect(point(bob, 2, 2)).to_have_class("grid-cell cell-black cell-last")
    point(bob, 4, 0).click()
    expect(alice.page.locator('#grid-actions [data-action="pass"]')).to_be_visible()
    alice.page.locator('#grid-actions [data-action="pass"]').click()
    bob.page.locator('#grid-actions [data-action="pass"]').click()
    expect(watcher.page.locator("#grid-turn")).to_have_text("Marking the dead stones")
    expect(alice.page.locator("#grid-info")).to_contain_text("click a group to mark it dead or alive")
    if cells(alice.page, 5)[4][0] != "o":  # the proposal may leave the white stone alive
        point(alice, 4, 0).click()
    expect(point(watcher, 4, 0)).to_have_class("grid-cell cell-white cell-dead edge-bottom edge-left")
    alice.page.locator('#grid-actions [data-action="accept"]').click()
    expect(bob.page.locator("#grid-info")).to_contain_text("Accepted by: Black")
    bob.page.locator('#grid-actions [data-action="accept"]').click()
    for viewer in (alice, bob, watcher):
        expect(viewer.page.locator("#grid-turn")).to_have_text("Game over")
        expect(viewer.page.locator("#grid-final")).to_contain_text(
            "Game over: Alice (Black) wins against Bob (White) by 17.5 points."
        )
        expect(viewer.page.locator("#grid-actions button")).to_have_count(0)
        assert viewer.errors == []


def test_resigning_asks_first_and_ends_the_game(
    live_go: Callable[..., LiveGo], open_page: Callable[..., Viewer]
) -> None:
    server = live_go(9)
    alice, bob = open_page(server.link(0)), open_page(server.link(1))
    resign = bob.page.locator('#grid-actions [data-action="resign"]')
    resign.click()
    expect(resign).to_have_text("Really resign?")
    expect(alice.page.locator("#grid-turn")).to_have_text("Your move")
    resign.click()
    expect(alice.page.locator("#grid-final")).to_have_text(
        "Game over: Alice (Black) wins against Bob (White, resigned)."
    )
    assert alice.errors == [] and bob.errors == []


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (360, 740)])
def test_a_19_board_fits_desktop_and_phone_screens(
    live_go: Callable[..., LiveGo], open_page: Callable[..., Viewer], width: int, height: int
) -> None:
    server = live_go(19)
    alice = open_page(server.link(0), width, height)
    expect(alice.page.locator(".grid-cell")).to_have_count(361)
    expect(alice.page.locator(".grid-cell.cell-star")).to_have_count(9)
    overflow = alice.page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0
    box = alice.page.locator("#grid").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    first, second = (point(alice, 0, col).bounding_box() for col in (0, 1))
    assert first is not None and second is not None
    assert second["x"] - first["x"] >= (12 if width < 500 else 24), "points big enough to tap or click"
    point(alice, 3, 3).click()
    expect(point(alice, 3, 3)).to_have_class("grid-cell cell-black cell-last")
    assert alice.errors == []


def test_a_page_opened_mid_game_shows_the_moves_so_far_and_the_clock(
    live_go: Callable[..., LiveGo], open_page: Callable[..., Viewer]
) -> None:
    server = live_go(9, time_limit=300)
    go = server.harness.svc.host.commands["go"]
    server.run(go.play(CHANNEL, ALICE.id, "E5"))
    server.run(go.play(CHANNEL, BOB.id, "C3"))
    watcher = open_page(server.link(None))
    expect(watcher.page.locator("#grid-history li")).to_have_text(["Alice: E5", "Bob: C3"])
    expect(watcher.page.locator("#grid-timer")).to_have_text(re.compile(r"^[45]:\d\d$"))
    assert watcher.errors == []
