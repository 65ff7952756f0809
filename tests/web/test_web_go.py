"""Go on the web board, over the protocol: the same envelope as Scrabble's with the game's kind in
``welcome``, Go's state in the grid form (docs/protocol.md, "Grid games"), clicks that play and mark
dead stones, pass, undo by consent, the count, and spectators who follow it live."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from service_fakes import GUILD

from bot.games.go.commands import GoCommands
from bot.games.go.options import GoNewGame
from bot.web.links import Role
from tests.web.web_harness import ALICE, BOB, CHANNEL, MakeWeb, Web, WsClient


async def _go(make_web: MakeWeb, size: int = 5) -> tuple[Web, GoCommands]:
    """Alice (Black) against Bob (White) on a ``size`` board, over the web server."""
    web = await make_web(users=())
    assert web.harness.host is not None
    go: GoCommands = web.harness.host.commands["go"]
    await go.new_game(GUILD, CHANNEL, ALICE, GoNewGame(size=size, colour="black"))
    await go.join(CHANNEL, BOB)
    return web, go


async def _until(client: WsClient, check: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The state of the next event whose state passes ``check``."""
    while True:
        event = await client.recv()
        if "state" in event and check(event["state"]):
            state: dict[str, Any] = event["state"]
            return state


def _cells(state: dict[str, Any]) -> list[str]:
    cells: list[str] = state["grid"]["cells"]
    return cells


async def test_a_go_game_is_played_by_clicks_and_followed_live(make_web: MakeWeb) -> None:
    web, _ = await _go(make_web)
    alice, bob = await web.seat(0), await web.seat(1)
    watcher, welcome = await web.connect(web.signer.token(web.game_id(), Role.SPECTATOR))
    assert welcome["kind"] == "go"
    state = welcome["state"]
    assert _cells(state) == [".....", ".....", ".....", ".....", "....."]
    assert state["grid"]["col_labels"] == ["A", "B", "C", "D", "E"]
    assert state["grid"]["row_labels"] == ["5", "4", "3", "2", "1"]
    assert (state["current"], state["click"], state["actions"]) == (0, None, [])
    assert [player["colour"] for player in state["players"]] == ["Black", "White"]

    reply = await alice.call("play", row=2, col=2, turn=state["turn"])
    assert reply["result"] == {"message": "You played C3."}
    event = await watcher.until("move")
    assert event["events"] == [{"player": 0, "move": "C3", "captured": 0}]
    assert _cells(event["state"]) == [".....", ".....", "..X..", ".....", "....."]
    assert event["state"]["grid"]["last"] == [[2, 2]]
    assert event["state"]["current"] == 1

    refused = await bob.call("play", row=2, col=2)
    assert refused["ok"] is False
    assert refused["error"]["message"] == "C3 is already occupied"
    off = await bob.call("play", row=5, col=0)
    assert off["error"] == {"code": "bad_message", "message": "row and col must be whole numbers from 0 to 4"}
    stale = await bob.call("play", row=0, col=0, turn=state["turn"])
    assert stale["ok"] is False and stale["error"]["code"] == "stale_turn"

    bob_state = (await bob.until("move"))["state"]
    assert bob_state["click"] == "play"
    assert [action["type"] for action in bob_state["actions"]] == ["pass", "undo", "resign"]
    assert (await bob.call("play", row=4, col=0, turn=bob_state["turn"]))["ok"]
    assert (await alice.call("undo"))["ok"]
    asked = await bob.until("state")
    assert "Alice asks to take back their last move." in asked["state"]["info"]
    assert [action["type"] for action in asked["state"]["actions"]] == [
        "undo_accept",
        "undo_refuse",
        "resign",
    ]
    assert (await bob.call("undo_accept", turn=asked["state"]["turn"]))["ok"]
    await watcher.until("state")  # the question
    taken = await watcher.until("state")
    assert _cells(taken["state"]) == [".....", ".....", ".....", ".....", "....."]


async def test_the_dead_stones_are_marked_by_clicks_and_the_count_ends_the_game(make_web: MakeWeb) -> None:
    web, go = await _go(make_web)
    await go.play(CHANNEL, ALICE.id, "C3")
    await go.play(CHANNEL, BOB.id, "A1")
    await go.pass_turn(CHANNEL, ALICE.id)
    await go.pass_turn(CHANNEL, BOB.id)
    await go.idle()
    alice, bob = await web.seat(0), await web.seat(1)
    watcher = await web.spectator()
    welcome = alice.log[0]
    state = welcome["state"]
    assert state["phase"] == "scoring"
    assert state["click"] == "dead"
    assert [action["type"] for action in state["actions"]] == ["accept", "resume", "undo", "resign"]
    proposed = _cells(state)[4]
    assert (await alice.call("dead", row=4, col=0))["ok"]
    marked = (await watcher.until("state"))["state"]
    assert _cells(marked)[4][0] != proposed[0], "the click toggles the group"
    if _cells(marked)[4][0] != "o":
        assert (await alice.call("dead", row=4, col=0))["ok"]
        marked = (await watcher.until("state"))["state"]
    assert _cells(marked)[4] == "obbbb"
    assert (await alice.call("accept", turn=marked["turn"]))["ok"]
    accepted = await _until(bob, lambda state: "Accepted by: Black" in state["info"])
    assert (await bob.call("accept", turn=accepted["turn"]))["ok"]
    over = await watcher.until("game_over")
    assert over["final"]["result"] == "B+17.5"
    assert over["final"]["text"] == (
        "Game over: Alice (Black) wins against Bob (White) by 17.5 points.\n"
        "Black 25 (stones 1 + territory 24), White 7.5 (stones 0 + territory 0 + komi 7.5): Black wins by 17.5"
    )
    assert over["state"]["over"] is True and over["state"]["winners"] == [0]


async def test_play_resumes_from_the_dead_stone_phase_and_spectators_cannot_act(make_web: MakeWeb) -> None:
    web, go = await _go(make_web)
    await go.play(CHANNEL, ALICE.id, "C3")
    await go.pass_turn(CHANNEL, BOB.id)
    await go.pass_turn(CHANNEL, ALICE.id)
    await go.idle()
    bob, watcher = await web.seat(1), await web.spectator()
    state = bob.log[0]["state"]
    assert state["phase"] == "scoring" and state["current"] is None
    refused = await watcher.call("resume")
    assert refused["error"]["code"] == "not_seated"
    assert (await bob.call("resume", turn=state["turn"]))["result"] == {"message": "You resumed play."}
    resumed = await _until(watcher, lambda state: state["phase"] == "play")
    assert resumed["current"] == 1
    assert resumed["actions"] == [] and resumed["click"] is None, "a spectator's"
    mine = await _until(bob, lambda state: state["phase"] == "play")
    assert mine["click"] == "play"
    assert [action["label"] for action in mine["actions"]] == ["Pass", "Undo", "Resign"]


async def test_a_finished_go_games_links_show_its_end_with_the_sgf(make_web: MakeWeb) -> None:
    web, go = await _go(make_web)
    game_id = web.game_id()
    await go.play(CHANNEL, ALICE.id, "C3")
    await go.resign(CHANNEL, BOB.id)
    for token in (web.signer.token(game_id, Role.PLAYER, 0), web.signer.token(game_id, Role.SPECTATOR)):
        client, welcome = await web.connect(token)
        assert welcome["type"] == "welcome" and welcome["kind"] == "go", welcome
        state, final = welcome["state"], welcome["final"]
        assert state["over"] is True and state["winners"] == [0] and state["actions"] == []
        assert _cells(state)[2] == "..X.."
        assert final["result"] == "B+R"
        assert final["text"] == "Game over: Alice (Black) wins against Bob (White, resigned)."
        assert final["sgf"].startswith("(;") and "RE[B+R]" in final["sgf"] and ";B[cc]" in final["sgf"]
        assert "PB[Alice]" in final["sgf"] and "PW[Bob]" in final["sgf"]
        assert await client.closed() == 1000
