"""The page after the game and on a phone, in real Chromium (Playwright, as ``test_browser.py``): a
finished game's links (a player's, a spectator's) show the final board, the scores with the winner
first and the resignation marked, and the record to download, with no "Disconnected" and no empty
panel, for Scrabble and Go, at desktop and phone sizes; a phone has the Scrabble actions on its first
screen; the blank on the rack shows ``?``; a hint is shown in its panel only.

``SCRABBLE_SCREENSHOTS=dir`` keeps the finished games' screenshots there."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from service_fakes import ALICE, BOB, CHANNEL, find_play, typed

from bot.host.seats import User
from tests.web import test_browser as scrabble_page
from tests.web import test_browser_go as go_page
from tests.web.test_browser import LiveGame, Viewer, drawn_box
from tests.web.test_browser_go import LiveGo

pytest.importorskip("playwright.sync_api")
from playwright.sync_api import Page, expect

browser = scrabble_page.browser
open_page = scrabble_page.open_page
live = scrabble_page.live
live_go = go_page.live_go
"""The page tests' fixtures: Chromium, a page in a new browser context, a live Scrabble or Go game."""

SIZES = pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])


def screenshot(page: Page, live: LiveGame, name: str, *, full_page: bool = True) -> None:
    shots = Path(os.environ.get("SCRABBLE_SCREENSHOTS", str(live.harness.path.parent)))
    shots.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(shots / name), full_page=full_page)


def no_empty_panel(page: Page) -> None:
    """Every panel the page shows holds some text, and nothing says the connection failed."""
    panels = page.locator(".panel:visible")
    assert panels.count() >= 3
    for index in range(panels.count()):
        assert panels.nth(index).inner_text().strip(), panels.nth(index).get_attribute("aria-label")
    expect(page.locator("#fatal")).to_be_hidden()
    expect(page.locator("#connection")).to_have_text("Game over")


@SIZES
def test_a_finished_scrabble_games_links_show_the_end(
    live: Callable[..., LiveGame], open_page: Callable[..., Viewer], width: int, height: int
) -> None:
    game_server = live()
    game = game_server.game()
    play = find_play(game, 0)
    assert play is not None
    player_link, spectator_link = game_server.link(1), game_server.link(None)

    async def play_then_resign() -> None:
        await game_server.harness.svc.play(CHANNEL, ALICE.id, typed(play))
        await game_server.harness.svc.resign(CHANNEL, BOB.id)

    game_server.run(play_then_resign())
    assert game_server.call(lambda: game_server.harness.svc.host.tables.get(CHANNEL)) is None
    tiles = len(list(play.placements()))
    for who, link in (("player", player_link), ("spectator", spectator_link)):
        viewer = open_page(link, width, height, status="Game over")
        page = viewer.page
        expect(page.locator("#board .tile")).to_have_count(tiles)
        expect(page.locator("#final")).to_be_visible()
        expect(page.locator("#final-scores .name")).to_have_text(["Alice", "Bob (resigned)"])
        expect(page.locator("#final-scores .winner .name")).to_have_text(["Alice"])
        expect(page.locator("#turn")).to_have_text("Game over: Alice wins")
        expect(page.locator("#history li")).to_have_count(2)
        expect(page.locator("#play-panel")).to_be_hidden()
        no_empty_panel(page)
        page.wait_for_timeout(300)  # the server's close (1000) came: the page still says Game over
        expect(page.locator("#connection")).to_have_text("Game over")
        screenshot(page, game_server, f"scrabble-over-{who}-{width}x{height}.png")
        with page.expect_download() as download:
            page.locator("#gcg").click()
        assert download.value.suggested_filename.endswith(".gcg")
        record = Path(download.value.path()).read_text()
        assert record.startswith("#character-encoding UTF-8") and typed(play).split()[1] in record
        assert viewer.errors == []


@SIZES
def test_a_finished_go_games_links_show_the_end(
    live_go: Callable[..., LiveGo], open_page: Callable[..., Viewer], width: int, height: int
) -> None:
    server = live_go(9)
    go = server.harness.svc.host.commands["go"]
    player_link, spectator_link = server.link(1), server.link(None)

    async def play_then_resign() -> None:
        await go.play(CHANNEL, ALICE.id, "E5")
        await go.play(CHANNEL, BOB.id, "C3")
        await go.resign(CHANNEL, BOB.id)

    server.run(play_then_resign())
    for who, link in (("player", player_link), ("spectator", spectator_link)):
        viewer = open_page(link, width, height, status="Game over")
        page = viewer.page
        expect(page.locator(".grid-cell.cell-black")).to_have_count(1)
        expect(page.locator(".grid-cell.cell-white")).to_have_count(1)
        expect(page.locator("#grid-final")).to_have_text(
            "Game over: Alice (Black) wins against Bob (White, resigned)."
        )
        assert page.locator("#grid-layout").inner_text().count("(White, resigned)") == 1
        expect(page.locator("#grid-players .name")).to_have_text(["Alice", "Bob"])
        expect(page.locator("#grid-players .winner .name")).to_have_text(["Alice"])
        expect(page.locator("#grid-turn")).to_have_text("Game over")
        expect(page.locator("#grid-history li")).to_have_count(2)
        expect(page.locator("#grid-actions button")).to_have_count(0)
        no_empty_panel(page)
        screenshot(page, server, f"go-over-{who}-{width}x{height}.png")
        with page.expect_download() as download:
            page.locator("#grid-record").click()
        assert download.value.suggested_filename.endswith(".sgf")
        record = Path(download.value.path()).read_text()
        assert record.startswith("(;") and "RE[B+R]" in record and ";B[ee]" in record
        assert viewer.errors == []


def test_a_phone_has_the_actions_on_its_first_screen(
    live: Callable[..., LiveGame], open_page: Callable[..., Viewer]
) -> None:
    """At 390x844, with four players, the clock and a play open to challenge (the tallest panels above
    the board), Play, Exchange, Pass and Challenge are on the first screen, as is the rack."""
    users = (ALICE, BOB, User(3, "Carol"), User(4, "Dave"))
    game_server = live(users=users, turn_seconds=300, hints=2, challenge_mode="single")
    play = find_play(game_server.game(), 0)
    assert play is not None
    game_server.run(game_server.harness.svc.play(CHANNEL, ALICE.id, typed(play)))
    page = open_page(game_server.link(1), 390, 844).page
    expect(page.locator("#turn")).to_have_text("Your turn")
    expect(page.locator("#challenge-window")).to_contain_text("Alice's play can be challenged")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    for name in ("Play", "Exchange", "Pass", "Challenge"):
        box = drawn_box(page.get_by_role("button", name=name, exact=True))
        assert box["y"] >= 0 and box["y"] + box["height"] <= 844, (name, box)
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, (name, box)
        assert box["height"] >= 34, (name, box)
    tiles = page.locator("#rack .rack-tile")
    for index in range(tiles.count()):
        assert drawn_box(tiles.nth(index))["y"] + drawn_box(tiles.nth(index))["height"] <= 844
    screenshot(page, game_server, "scrabble-phone-390x844.png", full_page=False)


def test_the_blank_on_the_rack_shows_a_question_mark(
    live: Callable[..., LiveGame], open_page: Callable[..., Viewer]
) -> None:
    game_server = live(seed=10)
    assert "?" in game_server.game().players[0].rack
    alice = open_page(game_server.link(0))
    blank = alice.rack_tile("?")
    expect(blank.locator(".tile.blank .letter")).to_have_text("?")
    expect(blank.locator(".value")).to_have_count(0)
    expect(blank).to_have_attribute("aria-label", "tile blank, 0 points")


def test_a_hint_is_shown_once_in_its_panel(
    live: Callable[..., LiveGame], open_page: Callable[..., Viewer]
) -> None:
    game_server = live(hints=2)
    page = open_page(game_server.link(0)).page
    page.get_by_role("button", name="Hint, 2 left").click()
    expect(page.locator("#hint-text")).to_contain_text("Hint 1 of 2, for your rack")
    expect(page.get_by_role("button", name="Hint, 1 left")).to_be_visible()
    expect(page.locator("#feedback")).not_to_contain_text("Hint")
    assert page.locator("#layout").inner_text().count("Hint 1 of 2") == 1
