"""The protocol's boards written as programs (``docs/protocol.md``, "State"): an infinite board sent as
the window of squares any play could reach, growing as the game grows; program squares and their
rules; set tiles on the board, on the rack and played by placed tiles."""

from __future__ import annotations

from typing import Any

from service_fakes import CHANNEL

from tests.web.web_harness import ALICE, BOB, MakeWeb


async def test_an_infinite_board_is_sent_as_the_window_around_its_tiles(make_web: MakeWeb) -> None:
    web = await make_web((ALICE, BOB), variant="infinite")
    alice = await web.seat(0)
    state = alice.log[0]["state"]
    variant = state["variant"]
    assert (variant["infinite"], variant["origin"], variant["rows"], variant["cols"]) == (
        True,
        [-8, -8],
        16,
        16,
    )
    assert variant["start"] == [0, 0] and variant["programs"] == {} and variant["tile_sets"] == []
    assert variant["premiums"][8][16:18] == "2W"  # 0,0: square (8, 8) of the window
    assert variant["premiums"][4][8:10] == "3W"  # -4,-4
    assert state["board"] == ["." * 16] * 16 and state["set_tiles"] == []
    assert state["rack"] == "ABCEKTX"
    tiles = [{"row": 0, "col": col, "letter": letter, "blank": False} for col, letter in ((0, "A"), (1, "B"))]
    preview = await alice.call("preview", tiles=tiles)
    assert preview["result"] == {"move": "0,0a AB", "score": 8}  # never A1 AB
    reply = await alice.call("play", turn=0, tiles=tiles)
    assert reply["result"]["message"] == "You played AB at 0,0 (across) for 8."
    state = (await alice.until("move"))["state"]
    variant = state["variant"]
    assert (variant["origin"], variant["rows"], variant["cols"]) == ([-8, -8], 16, 20)  # x from -8 to 11
    assert state["board"][8][8:10] == "AB" and len(state["board"][8]) == 20
    assert state["last_move"] == [[0, 0], [0, 1]]
    assert [entry["move"] for entry in state["history"]] == ["0,0a AB"]


async def test_program_squares_carry_their_rule(make_web: MakeWeb) -> None:
    web = await make_web((ALICE, BOB), variant="diamond")
    variant = (await web.spectator()).log[0]["state"]["variant"]
    assert (variant["infinite"], variant["origin"], variant["rows"], variant["cols"]) == (
        False,
        [0, 0],
        15,
        15,
    )
    assert variant["programs"] == {
        "P0": {
            "label": "P4",
            "rule": "0 = if (isVowel(charValue(_pos_))) then { _result_ := _acc_ + 3 * pointValue(_pos_) } "
            "else { _result_ := _acc_ + pointValue(_pos_) }",
        }
    }
    assert variant["premiums"][6] == "##--2L------P0--P0------2L--##"  # vowel squares by the centre
    assert variant["premiums"][0] == "##" * 7 + "3W" + "##" * 7


def set_tiles_at_h8(first: str, second: str) -> list[dict[str, Any]]:
    """Set tile 3 as ``first`` on H8 and set tile 2 as ``second`` on I8, as placed tiles."""
    return [
        {"row": 7, "col": 7, "letter": first, "blank": False, "set": "3"},
        {"row": 7, "col": 8, "letter": second, "blank": False, "set": "2"},
    ]


async def test_set_tiles_on_the_rack_and_played_by_placed_tiles(make_web: MakeWeb) -> None:
    web = await make_web((ALICE, BOB), variant="letter-sets", seed=5)
    alice = await web.seat(0)
    state = alice.log[0]["state"]
    assert state["rack"] == "23ILUVY"
    assert state["variant"]["tile_sets"] == [
        {"symbol": "1", "count": 4, "letters": {"A": 1, "E": 1}},
        {"symbol": "2", "count": 3, "letters": {"I": 1, "O": 1, "U": 1}},
        {"symbol": "3", "count": 2, "letters": {"S": 1, "Z": 10}},
    ]
    wrong = await alice.call("play", turn=0, tiles=set_tiles_at_h8("A", "O"))
    assert wrong["error"] == {"code": "invalid_move", "message": "set tile 3 [SZ] cannot be played as 'A'"}
    missing = await alice.call(
        "preview", tiles=[{"row": 7, "col": 7, "letter": "A", "blank": False, "set": "9"}]
    )
    assert missing["error"] == {"code": "invalid_move", "message": "this game has no set tile '9'"}
    played = await alice.call("play", turn=0, tiles=set_tiles_at_h8("Z", "O"))
    assert played["result"]["message"] == (
        "You played ZO at 8H (across) for 22, with the I/O/U tile for the O and the S/Z tile for the Z."
    )
    state = (await alice.until("move"))["state"]
    assert state["board"][7][7:9] == "ZO"
    assert state["set_tiles"] == [[7, 7, "3"], [7, 8, "2"]]
    assert [entry["move"] for entry in state["history"]] == ["8H [3Z][2O]"]
    assert web.harness.svc.game(CHANNEL).players[0].score == 22
