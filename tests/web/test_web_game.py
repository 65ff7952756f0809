"""Whole games over the protocol with real websockets: two seats and a spectator, reconnects with
catch-up, and the privacy of racks over every message."""

from __future__ import annotations

from typing import Any

import pytest
from service_fakes import CHANNEL, find_play, play_turn, typed

from bot.host.store import GameStatus
from bot.web import hub
from bot.web.links import Role
from scrabble_core.game import EventKind, Game
from tests.web.web_harness import ALICE, BOB, MakeWeb, Web, WsClient


def tiles_of(play: Any) -> list[dict[str, Any]]:
    """The new tiles of an engine play as the page sends them."""
    return [
        {"row": row, "col": col, "letter": letter.upper(), "blank": letter.islower()}
        for (row, col), letter in play.placements()
    ]


async def play_over_ws(web: Web, clients: dict[int, WsClient], *, by_tiles: set[int]) -> dict[str, Any]:
    """The seat to move plays find_play (as tiles for seats in ``by_tiles``), or passes; returns the reply."""
    game = web.harness.svc.game(CHANNEL)
    seat = game.current
    client = clients[seat]
    turn = len(game.history)
    play = find_play(game, seat)
    if play is None:
        return await client.call("pass", turn=turn)
    if seat in by_tiles:
        return await client.call("play", turn=turn, tiles=tiles_of(play))
    return await client.call("play", turn=turn, move=typed(play))


async def test_whole_game_between_two_seats_with_a_spectator(make_web: MakeWeb) -> None:
    web = await make_web((ALICE, BOB))
    alice, bob, watcher = await web.seat(0), await web.seat(1), await web.spectator()
    clients = {0: alice, 1: bob}
    replies = []
    for _ in range(300):
        if web.harness.svc.host.tables.get(CHANNEL) is None:
            break
        replies.append(await play_over_ws(web, clients, by_tiles={1}))
    assert all(reply["ok"] for reply in replies), [r for r in replies if not r["ok"]][:1]
    over = await watcher.until("game_over")
    assert await watcher.closed() == 1000
    assert web.harness.store is not None
    row = await web.harness.store.last_finished_game(CHANNEL, "scrabble")
    assert row is not None and row.status is GameStatus.FINISHED and row.state is not None
    game = Game.from_dict(row.state)
    assert over["final"]["scores"] == [p.score for p in game.players]
    assert over["final"]["winners"] == game.winners()
    assert over["final"]["gcg"].startswith("#")
    seqs = [m["seq"] for m in watcher.log if m["type"] in ("move", "state", "game_over")]
    assert seqs == list(range(1, len(seqs) + 1))
    moves = [e for m in watcher.log if m["type"] in ("move", "game_over") for e in m["events"]]
    assert [e["move"] for e in moves] == [e.move for e in game.history]
    assert [e["total"] for e in moves] == [e.total for e in game.history]
    assert over["state"]["history"] == moves


async def test_a_reconnecting_client_gets_what_it_missed(make_web: MakeWeb) -> None:
    web = await make_web((ALICE, BOB))
    watcher = await web.spectator()
    seen = watcher.log[0]["seq"]
    await watcher.ws.close()
    for _ in range(2):
        await play_turn(web.harness, [ALICE, BOB])
    game = web.harness.svc.game(CHANNEL)
    token = web.signer.token(web.game_id(), Role.SPECTATOR)
    _, welcome = await web.connect(token, last_seq=seen)
    assert [m["seq"] for m in welcome["missed"]] == [seen + 1, seen + 2]
    assert [m["type"] for m in welcome["missed"]] == ["move", "move"]
    assert [m["events"][0]["move"] for m in welcome["missed"]] == [e.move for e in game.history[-2:]]
    assert all("state" not in m for m in welcome["missed"])
    assert welcome["seq"] == seen + 2
    assert welcome["state"]["board"] == game.board.rows_text()
    _, up_to_date = await web.connect(token, last_seq=seen + 2)
    assert up_to_date["missed"] == []
    _, ahead = await web.connect(token, last_seq=seen + 9)  # a counter from before a restart
    assert ahead["missed"] is None


async def test_a_client_too_far_behind_gets_the_full_state_only(
    make_web: MakeWeb, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hub, "BUFFERED_EVENTS", 2)
    web = await make_web((ALICE, BOB))
    watcher = await web.spectator()
    for _ in range(3):
        await play_turn(web.harness, [ALICE, BOB])
    assert [m["seq"] for m in [await watcher.recv() for _ in range(3)]] == [1, 2, 3]
    _, welcome = await web.connect(web.signer.token(web.game_id(), Role.SPECTATOR), last_seq=0)
    assert welcome["missed"] is None and welcome["seq"] == 3
    assert welcome["state"]["turn"] == 3


PRIVATE_KEYS = {"rack", "unseen", "hints_left"}


def keys_anywhere(value: Any, path: str = "") -> list[str]:
    """Every key path in a JSON value (``state.rack``, ``events[].kind``...)."""
    if isinstance(value, dict):
        return [
            p for key, item in value.items() for p in [f"{path}.{key}", *keys_anywhere(item, f"{path}.{key}")]
        ]
    if isinstance(value, list):
        return [p for item in value for p in keys_anywhere(item, f"{path}[]")]
    return []


def states_in(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [message["state"]] if "state" in message else []


async def test_racks_never_reach_anyone_but_their_seat(make_web: MakeWeb) -> None:
    """A whole game of a person against the AI, with exchanges, watched by a spectator: over every
    message, the spectator never gets a rack or unseen tiles, the seat only its own rack, and the AI's
    rack goes nowhere."""
    web = await make_web((ALICE,), ai=1)
    alice, watcher = await web.seat(0), await web.spectator()
    for number in range(400):
        table = web.harness.svc.host.tables.get(CHANNEL)
        if table is None:
            break
        game = web.harness.svc.game(CHANNEL)
        turn, rack = len(game.history), game.players[0].rack
        play = find_play(game, 0)
        if number % 3 == 1 and len(game.bag) >= 7:
            reply = await alice.call("exchange", turn=turn, tiles=rack[:2])
        elif play is None:
            reply = await alice.call("pass", turn=turn)
        else:
            reply = await alice.call("play", turn=turn, tiles=tiles_of(play))
        assert reply["ok"], reply
        await web.harness.svc.idle()
    await watcher.until("game_over")
    await alice.until("game_over")
    assert web.harness.store is not None
    row = await web.harness.store.last_finished_game(CHANNEL, "scrabble")
    assert row is not None and row.state is not None
    history = Game.from_dict(row.state).history
    assert any(event.kind is EventKind.EXCHANGE for event in history)
    for message in watcher.log:
        assert not [p for p in keys_anywhere(message) if p.rsplit(".", 1)[-1] in PRIVATE_KEYS], message
    checked = 0
    for message in alice.log:
        private = [p for p in keys_anywhere(message) if p.rsplit(".", 1)[-1] in PRIVATE_KEYS]
        assert set(private) <= {".state.rack", ".state.unseen", ".state.hints_left"}, private
        for state in states_in(message):
            turn = state["turn"]
            if state["current"] == 0 and turn < len(history) and history[turn].player == 0:
                assert state["rack"] == history[turn].rack
                checked += 1
    assert checked > 10
    for message in [*watcher.log, *alice.log]:
        entries = [*message.get("events", []), *message.get("state", {}).get("history", [])]
        for entry in entries:
            assert set(entry) == {"kind", "player", "move", "score", "total", "detail", "words", "text"}
            if entry["kind"] == "exchange":
                assert entry["move"] in {"-1", "-2"}


async def test_the_other_human_lets_the_play_stand_and_the_ai_plays_at_once(make_web: MakeWeb) -> None:
    web = await make_web((ALICE, BOB), ai=1, challenge_mode="single")  # Alice, the AI, Bob
    service = web.harness.svc
    alice, bob = await web.seat(0), await web.seat(2)
    play = find_play(service.game(CHANNEL), 0)
    assert play is not None
    assert (await alice.call("play", turn=0, move=typed(play)))["ok"]
    state = (await bob.until("move"))["state"]
    words = service.game(CHANNEL).challengeable_words()
    assert state["challenge"] == {"seat": 0, "words": words, "final": False, "window": True}
    assert state["deadline"] == web.harness.clock.now() + 15
    assert (await bob.call("no_challenge", turn=0))["error"]["code"] == "stale_turn"
    assert (await bob.call("no_challenge", turn=1))["result"] == {"message": "You let the play stand."}
    await service.idle()
    assert [e.player for e in service.game(CHANNEL).history] == [0, 1]
    assert (await bob.call("no_challenge", turn=2))["error"]["code"] == "stale_turn"


async def test_no_window_between_two_humans(make_web: MakeWeb) -> None:
    web = await make_web((ALICE, BOB), challenge_mode="single")
    alice, bob = await web.seat(0), await web.seat(1)
    play = find_play(web.harness.svc.game(CHANNEL), 0)
    assert play is not None
    assert (await alice.call("play", turn=0, move=typed(play)))["ok"]
    assert (await bob.until("move"))["state"]["challenge"]["window"] is False
    assert (await bob.call("no_challenge", turn=1))["error"]["code"] == "stale_turn"


async def test_a_finished_games_links_show_its_end_and_close(make_web: MakeWeb) -> None:
    """After the game, a player's and a spectator's link get a welcome with the final state and the
    game's ``final`` (the GCG included), then the close that ends a game (1000); nothing joins it."""
    web = await make_web((ALICE, BOB))
    service = web.harness.svc
    game_id = web.game_id()
    play = find_play(service.game(CHANNEL), 0)
    assert play is not None
    await service.play(CHANNEL, ALICE.id, typed(play))
    await service.resign(CHANNEL, BOB.id)
    for token in (web.signer.token(game_id, Role.PLAYER, 1), web.signer.token(game_id, Role.SPECTATOR)):
        client, welcome = await web.connect(token)
        assert welcome["type"] == "welcome", welcome
        assert welcome["game_id"] == game_id and welcome["seq"] == 0 and welcome["missed"] is None
        state, final = welcome["state"], welcome["final"]
        assert state["over"] is True and state["status"] == "finished" and state["winners"] == [0]
        assert [player["resigned"] for player in state["players"]] == [False, True]
        assert [entry["kind"] for entry in state["history"]] == ["play", "resign"]
        assert final["winners"] == [0] and final["cancelled"] is False
        assert final["scores"] == [state["players"][0]["score"], 0]
        assert final["gcg"].startswith("#character-encoding UTF-8")
        assert ("rack" in state) is (welcome["you"]["seat"] == 1)
        assert await client.closed() == 1000
    assert web.server.hub.connections(game_id) == 0


async def test_a_cancelled_games_link_shows_it_cancelled(make_web: MakeWeb) -> None:
    web = await make_web((ALICE, BOB))
    game_id = web.game_id()
    await web.harness.svc.cancel(CHANNEL, ALICE.id, can_manage=True)
    client, welcome = await web.connect(web.signer.token(game_id, Role.SPECTATOR))
    assert welcome["type"] == "welcome", welcome
    assert welcome["state"]["over"] is True and welcome["state"]["status"] == "cancelled"
    assert welcome["final"] == {
        "scores": [0, 0],
        "winners": [],
        "cancelled": True,
        "gcg": "",
        "standings": [
            {"seat": 0, "name": "Alice", "score": 0, "left": None},
            {"seat": 1, "name": "Bob", "score": 0, "left": None},
        ],
        "ending": [],
    }
    assert await client.closed() == 1000
    _, refused = await web.connect(web.signer.token(game_id + 1, Role.SPECTATOR))
    assert refused["error"] == {"code": "no_game", "message": "That game is over"}
