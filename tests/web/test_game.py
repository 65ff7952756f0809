"""Whole games over the protocol with real websockets: two seats and a spectator, reconnects with
catch-up, and the privacy of racks over every message."""

from __future__ import annotations

from typing import Any

from conftest import ALICE, BOB, MakeWeb, Web, WsClient
from service_fakes import CHANNEL, find_play, typed

from bot.store import GameStatus
from scrabble_core.game import Game


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
        if web.harness.svc._runner.tables.get(CHANNEL) is None:
            break
        replies.append(await play_over_ws(web, clients, by_tiles={1}))
    assert all(reply["ok"] for reply in replies), [r for r in replies if not r["ok"]][:1]
    over = await watcher.until("game_over")
    assert await watcher.closed() == 1000
    row = await web.harness.store.last_finished_game(CHANNEL)  # type: ignore[union-attr]
    assert row is not None and row.status is GameStatus.FINISHED
    game = Game.from_dict(row.state)  # type: ignore[arg-type]
    assert over["final"]["scores"] == [p.score for p in game.players]
    assert over["final"]["winners"] == game.winners()
    assert over["final"]["gcg"].startswith("#")
    seqs = [m["seq"] for m in watcher.log if m["type"] in ("move", "state", "game_over")]
    assert seqs == list(range(1, len(seqs) + 1))
    moves = [e for m in watcher.log if m["type"] in ("move", "game_over") for e in m["events"]]
    assert [e["move"] for e in moves] == [e.move for e in game.history]
    assert [e["total"] for e in moves] == [e.total for e in game.history]
    assert over["state"]["history"] == moves
