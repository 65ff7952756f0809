"""Every error code of the protocol, over real websockets: the code, the engine's or the service's
message, the extra fields, and that nothing changed."""

from __future__ import annotations

import random
from typing import Any

import pytest
from service_fakes import CHANNEL, play_turn

from bot.host.errors import StaleTurnError
from bot.web.links import Role
from tests.web.web_harness import ALICE, BOB, MakeWeb, Web, WsClient

# Seed 7 deals Alice (seat 0) ABEILPT.
FIRST_MOVE_ERRORS = [
    ({"move": "8H"}, "invalid_move", {}),
    ({"move": "A1 BE"}, "start_square", {"square": "H8"}),
    ({"tiles": [{"row": 7, "col": 7, "letter": "B", "blank": False}]}, "first_move_too_short", {}),
    ({"move": "8H ZZ"}, "tile_not_on_rack", {"missing": "ZZ"}),
    ({"move": "8N BEAT"}, "off_board", {"square": "P8"}),
    ({"move": "8G .BE"}, "empty_square", {"square": "G8"}),
    (
        {"tiles": [{"row": 7, "col": 7, "letter": "B", "blank": False}, {"row": 8, "col": 8, "letter": "E"}]},
        "not_in_line",
        {},
    ),
    (
        {"tiles": [{"row": 7, "col": 7, "letter": "B", "blank": False}, {"row": 7, "col": 9, "letter": "E"}]},
        "gap",
        {"square": "I8"},
    ),
    ({"tiles": []}, "no_tiles", {}),
    ({"move": "8H BE"}, "unknown_words", {"words": ["BE"]}),
]


async def state_of(web: Web) -> Any:
    return web.harness.svc.game(CHANNEL).to_dict()


@pytest.mark.parametrize(
    ("fields", "code", "extra"), FIRST_MOVE_ERRORS, ids=[c for _, c, _ in FIRST_MOVE_ERRORS]
)
async def test_a_refused_play_gets_the_engine_error_code_and_changes_nothing(
    make_web: MakeWeb, fields: dict[str, Any], code: str, extra: dict[str, Any]
) -> None:
    web = await make_web((ALICE, BOB), phonies=("BE",))
    alice, watcher = await web.seat(0), await web.spectator()
    before = await state_of(web)
    # A preview never looks words up: a phony previews fine and is refused when played.
    kinds = ("play",) if code == "unknown_words" else ("preview", "play")
    for kind in kinds:
        reply = await alice.call(kind, turn=0, **fields)
        assert reply["ok"] is False
        error = reply["error"]
        assert error["code"] == code, error
        assert {key: error[key] for key in extra} == extra
    assert await state_of(web) == before
    pong = await watcher.call("ping")
    assert pong["ok"] and [m["type"] for m in watcher.log] == ["welcome", "reply"]


async def test_messages_of_the_engine_reach_the_player_as_they_are(make_web: MakeWeb) -> None:
    web = await make_web((ALICE, BOB), phonies=("BE", "PA"), seed=7)  # seat 0 (Bob, who drew first): ABEILPT
    alice = await web.seat(0)
    reply = await alice.call("play", turn=0, move="8H ZZ")
    assert reply["error"]["message"] == "you don't have two Zs on your rack"
    reply = await alice.call("play", turn=0, move="H8 PA")
    assert reply["error"]["message"] == "PA is not in the dictionary"
    assert (await alice.call("preview", move="8h bE"))["result"] == {"move": "8H BE", "score": 8}


async def test_turn_errors_after_the_first_move(make_web: MakeWeb) -> None:
    web = await make_web((ALICE, BOB))
    alice, bob = await web.seat(0), await web.seat(1)
    assert (await bob.call("pass", turn=0))["error"]["code"] == "not_your_turn"
    assert (await alice.call("pass", turn=3))["error"] == {
        "code": "stale_turn",
        "message": str(StaleTurnError()),
    }
    assert (await alice.call("challenge", turn=0))["error"]["code"] == "challenge"
    assert (await alice.call("play", turn=0, move="8H BE"))["ok"]
    rack = (await bob.until("move"))["state"]["rack"]
    before = await state_of(web)
    occupied = await bob.call("play", turn=1, tiles=[{"row": 7, "col": 7, "letter": rack[0], "blank": False}])
    assert occupied["error"] == {
        "code": "square_occupied",
        "message": "H8 is already taken by B",
        "square": "H8",
    }
    far = [{"row": 0, "col": i, "letter": rack[i], "blank": False} for i in range(2)]
    assert (await bob.call("play", turn=1, tiles=far))["error"]["code"] == "not_connected"
    assert (await alice.call("play", turn=0, move="9H AB"))["error"]["code"] == "stale_turn"
    assert await state_of(web) == before


async def test_an_exchange_with_too_few_tiles_in_the_bag(make_web: MakeWeb) -> None:
    web = await make_web((ALICE, BOB))
    while len(web.harness.svc.game(CHANNEL).bag) >= 7:
        await play_turn(web.harness, [ALICE, BOB])
    game = web.harness.svc.game(CHANNEL)
    client = await web.seat(game.current)
    reply = await client.call("exchange", turn=len(game.history), tiles=game.players[game.current].rack[:1])
    assert reply["error"]["code"] == "exchange_not_allowed"


async def test_service_errors(make_web: MakeWeb) -> None:
    web = await make_web((ALICE, BOB), hints=0)
    watcher, alice = await web.spectator(), await web.seat(0)
    assert (await watcher.call("pass", turn=0))["error"] == {
        "code": "not_seated",
        "message": "You are not playing in this game",
    }
    assert (await alice.call("hint"))["error"] == {
        "code": "hint",
        "message": "Hints are disabled in this game",
    }
    _, refused = await web.connect(web.signer.token(999, Role.SPECTATOR))
    assert refused["error"] == {"code": "no_game", "message": "That game is over"}


async def test_a_lobby_is_not_started(make_web: MakeWeb) -> None:
    web = await make_web((ALICE, BOB), start=False)
    await web.harness.svc.new_game(1000, CHANNEL, ALICE)
    alice = await web.seat(0)
    assert (await alice.call("pass", turn=0))["error"]["code"] == "game_not_started"


async def hello_reply(web: Web, message: Any) -> tuple[dict[str, Any], int | None]:
    client = WsClient(await web.raw())
    web.clients.append(client)
    await client.send(message)
    reply = await client.recv()
    return reply, await client.closed()


async def test_refused_hellos_close_the_connection(make_web: MakeWeb) -> None:
    web = await make_web((ALICE, BOB))
    token = web.signer.token(web.game_id(), Role.PLAYER, 0)
    cases = [
        ({"type": "hello", "protocol": 2, "token": token}, "unsupported_protocol"),
        ({"type": "hello", "protocol": 1, "token": token[:-1] + "x"}, "unauthorized"),
        ({"type": "hello", "protocol": 1, "token": "junk"}, "unauthorized"),
        ({"type": "hello", "protocol": 1}, "unauthorized"),
        ({"type": "play", "id": 4, "move": "8H BE"}, "bad_message"),
        ({"type": "hello", "protocol": 1, "token": token, "last_seq": "x"}, "bad_message"),
    ]
    for message, code in cases:
        reply, close_code = await hello_reply(web, message)
        assert (reply["type"], reply["ok"], reply["error"]["code"]) == ("reply", False, code)
        assert close_code == 4000
    renewed = web.signer.renew(web.game_id(), Role.PLAYER, 0)
    reply, _ = await hello_reply(web, {"type": "hello", "protocol": 1, "token": token})
    assert reply["error"] == {"code": "unauthorized", "message": "this link was renewed: use the newest one"}
    _, welcome = await web.connect(renewed)
    assert welcome["type"] == "welcome" and welcome["you"] == {"role": "player", "seat": 0, "name": "Alice"}


async def test_malformed_messages_get_an_error_reply_and_the_connection_goes_on(make_web: MakeWeb) -> None:
    web = await make_web((ALICE, BOB))
    alice = await web.seat(0)
    before = await state_of(web)
    for raw, code in [
        ("not json", "bad_message"),
        ("[1, 2]", "bad_message"),
        ('{"type": "play", "id": 1}', "bad_message"),
        ('{"type": "play", "id": 2, "move": 5}', "bad_message"),
        ('{"type": "play", "id": 3, "tiles": [{"row": "a", "col": 1, "letter": "B"}]}', "bad_message"),
        ('{"type": "play", "id": 4, "tiles": "AB"}', "bad_message"),
        ('{"type": "pass", "id": 5, "turn": "zero"}', "bad_message"),
        ('{"type": "pass", "id": [1]}', "bad_message"),
        ('{"type": "hello", "id": 7, "protocol": 1, "token": "x"}', "bad_message"),
        ('{"type": "dance", "id": 8}', "unknown_type"),
    ]:
        await alice.ws.send_str(raw)
        reply = await alice.recv()
        assert (reply["type"], reply["ok"], reply["error"]["code"]) == ("reply", False, code), raw
    await alice.ws.send_bytes(b"\x00\x01")
    assert (await alice.recv())["error"]["code"] == "bad_message"
    assert await state_of(web) == before
    assert (await alice.call("ping"))["ok"]


async def test_a_server_bug_is_an_internal_error_reply(
    make_web: MakeWeb, monkeypatch: pytest.MonkeyPatch
) -> None:
    web = await make_web((ALICE, BOB))
    alice = await web.seat(0)

    async def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("boom: a secret detail")

    monkeypatch.setattr(web.harness.svc, "pass_turn", broken)
    reply = await alice.call("pass", turn=0)
    assert reply["error"] == {"code": "internal", "message": "the server failed to handle that message"}
    assert (await alice.call("ping"))["ok"]


def garbage(rng: random.Random, depth: int = 0) -> Any:
    """A random JSON value: the field values a careless or hostile client might send."""
    kinds = ["int", "str", "none", "bool", "float"] + (["list", "dict"] if depth < 2 else [])
    kind = rng.choice(kinds)
    if kind == "int":
        return rng.choice([0, -1, 7, 2**63, -(2**70)])
    if kind == "str":
        return "".join(rng.choice("8HQUIZ?. \\u0000é<>\"'") for _ in range(rng.randrange(0, 12)))
    if kind == "float":
        return rng.choice([0.5, -1e300, 1e308])
    if kind == "list":
        return [garbage(rng, depth + 1) for _ in range(rng.randrange(0, 4))]
    if kind == "dict":
        keys = ["row", "col", "letter", "blank", "x"]
        return {rng.choice(keys): garbage(rng, depth + 1) for _ in range(rng.randrange(0, 4))}
    return None if kind == "none" else rng.choice([True, False])


async def test_random_messages_get_replies_and_change_nothing(make_web: MakeWeb) -> None:
    web = await make_web((ALICE, BOB))
    alice, watcher = await web.seat(0), await web.spectator()
    before = await state_of(web)
    rng = random.Random(10)
    kinds = ["play", "preview", "exchange", "challenge", "accept", "hint", "ping", "hello", "nope", 5, None]
    codes = set()
    for number in range(300):
        message: dict[str, Any] = {"id": number, "type": rng.choice(kinds)}
        for field in rng.sample(["move", "tiles", "turn", "token", "last_seq"], rng.randrange(0, 4)):
            message[field] = garbage(rng)
        if message["type"] in ("play", "preview", "exchange") and rng.random() < 0.5:
            message["turn"] = 0
        client = rng.choice([alice, watcher])
        await client.send(message)
        reply = await client.until("reply")
        assert reply["id"] == number
        if not reply["ok"]:
            codes.add(reply["error"]["code"])
            assert 0 < len(reply["error"]["message"]) <= 300
    assert await state_of(web) == before
    assert {"bad_message", "unknown_type", "not_seated", "invalid_move"} <= codes, codes
