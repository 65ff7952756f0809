"""Tests of scrabble_core.gcg: exporting games, reading records, replaying them through the engine."""

from __future__ import annotations

import os
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from scrabble_core.errors import GcgError
from scrabble_core.game import ChallengeMode, EventKind, Game
from scrabble_core.gcg import GcgEvent, GcgRecord, export_gcg, nicknames, parse_gcg, record_of, replay
from scrabble_core.lexicon import ENGLISH_ALPHABET, Lexicon
from scrabble_core.variant import get_variant

MakeGame = Callable[..., Game]
STANDARD = get_variant("standard")
LEXICON = Lexicon.from_words(
    ["QI", "XI", "XE", "AX", "TA", "AT", "ZA", "EAT", "TEA", "SAT"], ENGLISH_ALPHABET
)
SHARED_DIR = os.environ.get("SCRABBLE_SHARED_DIR")


# --- Export ----------------------------------------------------------------------------------------------

FIVE_POINT_GAME = """\
#character-encoding UTF-8
#lexicon custom
#variant standard
#player1 Ann_Lee Ann Lee
#player2 Bob Bob
>Ann_Lee: AEIQTUZ 8H QI +22 22
>Bob: AEIOSTX I7 X. +17 17
>Bob: AEIOSTT (challenge) +5 22
>Ann_Lee: AERSTUZ 8H ..Z +21 43
>Ann_Lee: AERSTUZ -- -21 22
>Bob: AEIOSTT -AE +0 22
>Ann_Lee: AERSTUZ - +0 22
>Bob: CEIOSTT - +0 22
>Ann_Lee: AERSTUZ - +0 22
>Bob: CEIOSTT - +0 22
>Ann_Lee: AERSTUZ (AERSTUZ) -16 6
>Bob: CEIOSTT (CEIOSTT) -9 13
"""

DOUBLE_GAME = """\
#character-encoding UTF-8
#lexicon custom
#variant standard
#player1 Ann Ann
#player2 Bob Bob
#player3 Cid Cid
>Ann: EIQ 8H QI +22 22
>Bob: AEX I7 X. +17 17
>Cid: BCT - +0 0
>Ann: E 7I .E +9 31
>Bob: AE (AE) -2 15
>Cid: BCT (BCT) -7 -7
>Ann:  (ABCET) +9 40
"""


def five_point_game(make_game: MakeGame) -> Game:
    """Plays, a failed challenge (+5), a withdrawn phony, an exchange, passes, and the end after six
    scoreless turns."""
    game = make_game(
        ["AEIQTUZ", "AEIOSTX"],
        draws="RSTLNEAEIOUDGBCM",
        lexicon=LEXICON,
        challenge_mode=ChallengeMode.FIVE_POINT,
    )
    data = game.to_dict()
    data["players"][0]["name"] = "Ann Lee"
    game = Game.from_dict(data, lexicon=LEXICON)
    game.play(0, "8h qi")
    game.play(1, "i7 x.")
    game.challenge(0)  # XI is good: +5 for Bob
    game.play(0, "8j z")  # QIZ
    game.challenge(1)  # phony: withdrawn
    game.exchange(1, "ae")
    for turn in range(4):
        game.pass_turn(turn % 2)
    assert game.is_over
    return game


def double_game(make_game: MakeGame) -> Game:
    """Three players: a failed double challenge (a lost turn), a player going out, accepted."""
    game = make_game(["EIQ", "AEX", "BCT"], lexicon=LEXICON, challenge_mode=ChallengeMode.DOUBLE)
    game.play(0, "8h qi")
    game.challenge(2)
    game.play(1, "i7 x.")
    game.play(0, "7j e")
    game.accept(1)
    assert game.is_over
    return game


def test_export_golden_five_point_game(make_game: MakeGame) -> None:
    assert export_gcg(five_point_game(make_game)) == FIVE_POINT_GAME


def test_export_golden_double_game(make_game: MakeGame) -> None:
    assert export_gcg(double_game(make_game)) == DOUBLE_GAME


def test_export_leaves_out_resignations(make_game: MakeGame) -> None:
    game = make_game(["EIQ", "AEX", "BCT"], draws="ABCDEFG")
    game.play(0, "8h qi")
    game.resign(2)
    assert [e.kind for e in game.history] == [EventKind.PLAY, EventKind.RESIGN]
    assert export_gcg(game).splitlines()[-1] == ">Ann: EIQ 8H QI +22 22"
    assert len(record_of(game).events) == 1


def test_export_of_a_new_game() -> None:
    game = Game(STANDARD, ["Ann", "Bob"], rng=random.Random(0))
    assert (
        export_gcg(game)
        == "#character-encoding UTF-8\n#variant standard\n#player1 Ann Ann\n#player2 Bob Bob\n"
    )


def test_nicknames() -> None:
    assert nicknames(["Ann Lee", "a:b", "Ann_Lee", " "]) == ["Ann_Lee", "a_b", "Ann_Lee2", "player"]
    assert nicknames(["x", "x ", " x"]) == ["x", "x2", "x3"]


# --- Reading records --------------------------------------------------------------------------------------

HAND_WRITTEN = """\
#character-encoding UTF-8
#description A record written by hand with every kind of line
#player1 ann Ann Lee
#player2 bob Bob

>ann: AEIQTUZ 8H QI +22 22
>bob: AEIOSTX -OX +0 0
>ann: AERSTUZ 8J Z +21 43
>ann: AERSTUZ -- -21 22
>bob: AEINSTT 9G TA +14 14
>bob: AEINSTT (challenge) +5 19
>ann: AERSTUZ - +0 22
>bob: AT 7G AT +15 34
>ann: AERSTUZ (time) -10 12
>bob:  (AERSTUZ) +32 66
"""


def test_parse_every_kind_of_line() -> None:
    record = parse_gcg(HAND_WRITTEN)
    assert record.players == (("ann", "Ann Lee"), ("bob", "Bob"))
    assert record.pragmas == {
        "character-encoding": "UTF-8",
        "description": "A record written by hand with every kind of line",
    }
    assert record.events == (
        GcgEvent("ann", "AEIQTUZ", EventKind.PLAY, "8H QI", 22, 22, 6),
        GcgEvent("bob", "AEIOSTX", EventKind.EXCHANGE, "-OX", 0, 0, 7),
        GcgEvent("ann", "AERSTUZ", EventKind.PLAY, "8J Z", 21, 43, 8),
        GcgEvent("ann", "AERSTUZ", EventKind.PHONY_WITHDRAWN, "--", -21, 22, 9),
        GcgEvent("bob", "AEINSTT", EventKind.PLAY, "9G TA", 14, 14, 10),
        GcgEvent("bob", "AEINSTT", EventKind.CHALLENGE_BONUS, "(challenge)", 5, 19, 11),
        GcgEvent("ann", "AERSTUZ", EventKind.PASS, "-", 0, 22, 12),
        GcgEvent("bob", "AT", EventKind.PLAY, "7G AT", 15, 34, 13),
        GcgEvent("ann", "AERSTUZ", EventKind.TIME_PENALTY, "(time)", -10, 12, 14),
        GcgEvent("bob", "", EventKind.END_RACK, "(AERSTUZ)", 32, 66, 15),
    )
    assert record.events[0].line() == ">ann: AEIQTUZ 8H QI +22 22"
    assert record.events[-1].line() == ">bob:  (AERSTUZ) +32 66"


def test_replay_the_hand_written_record() -> None:
    replayed = replay(parse_gcg(HAND_WRITTEN), STANDARD)
    assert [(r.score, r.total) for r in replayed] == [
        (22, 22), (0, 0), (21, 43), (-21, 22), (14, 14), (5, 19), (0, 22), (15, 34), (-10, 12), (32, 66)
    ]  # fmt: skip
    # T on G9 (2L): TA 3, and QA down through the old Q (its 2W no longer counts) 11.
    assert replayed[4].detail == "TA 3 + QA 11 = 14"
    assert replayed[7].detail == "AT 3 + TQA 12 = 15"
    assert replayed[0].detail == "QI 22"


def test_parse_lines_without_rack_and_with_end_rack_of_own_tiles() -> None:
    record = parse_gcg(
        "#player1 a\n#player2 b\n#player3 c\n"
        ">a: 8H QI +22 22\n"
        ">b: -AB +0 0\n"
        ">c: - +0 0\n"
        ">b: AB (AB) -4 -4\n"
        ">c: (C) -3 -3\n"
    )
    assert record.players == (("a", "a"), ("b", "b"), ("c", "c"))
    assert [(e.rack, e.kind, e.move) for e in record.events] == [
        ("", EventKind.PLAY, "8H QI"),
        ("", EventKind.EXCHANGE, "-AB"),
        ("", EventKind.PASS, "-"),
        ("AB", EventKind.END_RACK, "(AB)"),
        ("", EventKind.END_RACK, "(C)"),
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("#player1 a\n#player2 b\nhello\n", "line 3: not a GCG line: 'hello'"),
        ("#player1 a\n#player2 b\n>c: - +0 0\n", "line 3: 'c' is not one of the players in the header"),
        ("#player1 a\n#player2 b\n>a: 8H QI 22 22\n", "line 3: an event ends with a score (+N or -N) and the total"),
        ("#player1 a\n#player2 b\n>a: +22 22\n", "line 3: an event ends with a score (+N or -N) and the total"),
        ("#player1 a\n#player2 b\n>a: X Y 8H QI +22 22\n", "line 3: cannot read the move in 'X Y 8H QI +22 22'"),
        ("#player1 a\n#player2 b\n>a: ABC QI +22 22\n", "line 3: cannot read the move 'QI'"),
        ("#player1 a\n>a: - +0 0\n", "line 1: the header must name the players as #player1, #player2 (up to #player4)"),
        ("#player1 a\n#player3 b\n", "line 1: the header must name the players as #player1, #player2 (up to #player4)"),
    ],
)  # fmt: skip
def test_parse_errors_name_the_line(text: str, message: str) -> None:
    with pytest.raises(GcgError) as info:
        parse_gcg(text)
    assert str(info.value) == message


# --- Replaying ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("build", [five_point_game, double_game])
def test_replay_a_constructed_game(make_game: MakeGame, build: Callable[[MakeGame], Game]) -> None:
    game = build(make_game)
    record = parse_gcg(export_gcg(game))
    replayed = replay(record, STANDARD)
    history = [e for e in game.history if e.kind is not EventKind.RESIGN]
    assert [(r.event.move, r.event.rack, r.score, r.total) for r in replayed] == [
        (e.move, e.rack, e.score, e.total) for e in history
    ]
    # With the game's lexicon too: the withdrawn phony is not checked.
    assert len(replay(record, STANDARD, LEXICON)) == len(history)


def test_replay_checks_words_when_given_a_lexicon() -> None:
    record = parse_gcg("#player1 a\n#player2 b\n>a: AEIQTUZ 8H QUIZ +44 44\n")
    assert replay(record, STANDARD)[0].score == 44
    with pytest.raises(GcgError) as info:
        replay(record, STANDARD, LEXICON)
    assert str(info.value) == "line 3: 8H QUIZ: QUIZ is not in the dictionary"


def test_replay_wrong_score_names_the_line() -> None:
    text = HAND_WRITTEN.replace(">bob: AEINSTT 9G TA +14 14", ">bob: AEINSTT 9G TA +12 12")
    with pytest.raises(GcgError) as info:
        replay(parse_gcg(text), STANDARD)
    assert str(info.value) == "line 10: 9G TA scores +14 by the engine, the record says +12"
    assert info.value.line_number == 10
    text = HAND_WRITTEN.replace(">bob:  (AERSTUZ) +32 66", ">bob:  (AERSTUZ) +16 50")
    with pytest.raises(GcgError) as info:
        replay(parse_gcg(text), STANDARD)
    assert str(info.value) == "line 15: (AERSTUZ) scores +32 by the engine, the record says +16"


def test_replay_wrong_total_names_the_line() -> None:
    text = HAND_WRITTEN.replace(">ann: AERSTUZ - +0 22", ">ann: AERSTUZ - +0 23")
    with pytest.raises(GcgError) as info:
        replay(parse_gcg(text), STANDARD)
    assert str(info.value) == "line 12: ann's total is 22 by the engine, the record says 23"
    assert info.value.problem == "ann's total is 22 by the engine, the record says 23"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (">b: AEIQTUZ 8H QUIZ +44 44", "line 4: 8H QUIZ: H8 is already taken by Q"),
        (">b: AEIOST 9H AX +0 0", "line 4: 9H AX: you don't have X on your rack"),
        (">b: AEIOSTX 2B AX +0 0", "line 4: 2B AX: the word must touch a tile already on the board"),
        (">b: AEIOSTX 9H AX4 +0 0", "line 4: 9H AX4: 'AX4' is not a word: use letters, lowercase for blanks, "
         "'.' for tiles on the board"),
        (">b: AEIOSTX -- +0 0", "line 4: a play is withdrawn, but this player has no play to withdraw"),
    ],
)  # fmt: skip
def test_replay_illegal_moves_name_the_line(line: str, message: str) -> None:
    text = f"#player1 a\n#player2 b\n>a: AEIQTUZ 8H QI +22 22\n{line}\n"
    with pytest.raises(GcgError) as info:
        replay(parse_gcg(text), STANDARD)
    assert str(info.value) == message


def test_record_text_round_trip() -> None:
    record = parse_gcg(HAND_WRITTEN)
    again = parse_gcg(record.text())
    assert again.players == record.players
    assert [(e.nick, e.rack, e.kind, e.move, e.score, e.total) for e in again.events] == [
        (e.nick, e.rack, e.kind, e.move, e.score, e.total) for e in record.events
    ]
    assert (
        GcgRecord((("a", "A"), ("b", "B")), ()).text()
        == "#character-encoding UTF-8\n#player1 a A\n#player2 b B\n"
    )


# --- Real games --------------------------------------------------------------------------------------------


def _reference_records() -> list[Path]:
    assert SHARED_DIR is not None
    return sorted((Path(SHARED_DIR) / "reference" / "gcg").glob("*.gcg"))


@pytest.mark.skipif(not SHARED_DIR, reason="SCRABBLE_SHARED_DIR is not set")
def test_reference_records_replay(capsys: pytest.CaptureFixture[str]) -> None:
    paths = _reference_records()
    assert paths, "no *.gcg file in $SCRABBLE_SHARED_DIR/reference/gcg"
    for path in paths:
        record = parse_gcg(path.read_text(encoding="utf-8"))
        replayed = replay(record, STANDARD, lexicon=None)
        assert len(replayed) == len(record.events), path.name
        for event, result in zip(record.events, replayed, strict=True):
            assert (result.score, result.total) == (event.score, event.total), (
                f"{path.name}:{event.line_number}"
            )
    captured = capsys.readouterr()
    assert captured.out == captured.err == ""


# --- Impossible records -------------------------------------------------------------------------------------

TWO_BONUSES = """\
#player1 a A
#player2 b B
>a: AEIQTUZ 8H QI +22 22
>b: AEIOSTX I7 X. +17 17
>b: AEIOSTT (challenge) +5 22
>a: AERSTUZ - +0 22
>b: AEIOSTT 9G TA +14 36
>b: AEIOST (challenge) +10 46
"""


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (HAND_WRITTEN.replace(">bob: AEIOSTX -OX +0 0", ">bob: AEIOSTX -OZ +0 0"),
         "line 7: -OZ: you don't have Z on your rack"),
        (HAND_WRITTEN.replace(">ann: AEIQTUZ 8H QI +22 22", ">ann: AEQTUZZ 8H QI +22 22"),
         "line 6: 8H QI: you don't have I on your rack"),
        (HAND_WRITTEN.replace(">bob: AEIOSTX -OX +0 0", ">ann: AEIOSTX -OX +0 22"),
         "line 7: it is bob's turn, not ann's"),
        (HAND_WRITTEN.replace(">bob: AT 7G AT +15 34", ">bob: AEINST 7G AT +15 34"),
         "line 15: bob gains the tiles left on the racks, but did not go out"),
        (TWO_BONUSES, "line 8: a challenge bonus of +10, but this game's is +5 (line 5)"),
    ],
)  # fmt: skip
def test_replay_refuses_impossible_records(text: str, message: str) -> None:
    with pytest.raises(GcgError) as info:
        replay(parse_gcg(text), STANDARD)
    assert str(info.value) == message


def test_a_player_who_resigned_leaves_the_turn_order(make_game: MakeGame) -> None:
    game = make_game(["EIQ", "AEX", "BCT"], draws="ABCDEFGHIJKL")
    game.play(0, "8h qi")
    game.resign(1)
    game.pass_turn(2)
    game.pass_turn(0)
    game.pass_turn(2)
    record = parse_gcg(export_gcg(game))
    assert [item.event.nick for item in replay(record, STANDARD)] == ["Ann", "Cid", "Ann", "Cid"]
    # Bob never moves again: he left. Ann moving twice in a row is still out of turn.
    lines = export_gcg(game).splitlines()
    assert lines[-3] == ">Cid: BCT - +0 0"
    with pytest.raises(GcgError) as info:
        replay(parse_gcg("\n".join(lines[:-3] + lines[-2:])), STANDARD)
    assert str(info.value) == "line 7: it is Cid's turn, not Ann's"


def test_a_turn_lost_for_challenging_the_last_play_replays(make_game: MakeGame) -> None:
    # Ann goes out; Cid, whose turn it is not, challenges and loses his next turn at once.
    game = make_game(["EIQ", "AEX", "BCT"], lexicon=LEXICON, challenge_mode=ChallengeMode.DOUBLE)
    game.play(0, "8h qi")
    game.play(1, "i7 x.")
    game.pass_turn(2)
    game.play(0, "7j e")
    game.challenge(2)
    assert [(e.kind, e.player) for e in game.history[-5:]] == [
        (EventKind.PLAY, 0),
        (EventKind.LOST_TURN, 2),
        (EventKind.END_RACK, 1),
        (EventKind.END_RACK, 2),
        (EventKind.END_RACK, 0),
    ]
    replayed = replay(parse_gcg(export_gcg(game)), STANDARD)
    assert [item.event.nick for item in replayed][-5:] == ["Ann", "Cid", "Bob", "Cid", "Ann"]


def test_a_turn_owed_from_an_earlier_challenge_is_lost_in_order_after_a_phony_that_went_out(
    make_game: MakeGame,
) -> None:
    # Cid challenges Ann's good play out of turn and owes a turn. Bob goes out with a phony; Cid's turn
    # comes and is lost; Ann then challenges the phony off, and play goes on from Ann.
    game = make_game(["EIQ", "XA", "BCT"], lexicon=LEXICON, challenge_mode=ChallengeMode.DOUBLE)
    game.play(0, "8h qi")
    game.challenge(2)
    game.play(1, "i7 x.a")
    game.challenge(0)
    game.pass_turn(0)
    game.pass_turn(1)
    game.pass_turn(2)
    assert [(e.kind, e.player) for e in game.history] == [
        (EventKind.PLAY, 0),
        (EventKind.PLAY, 1),
        (EventKind.LOST_TURN, 2),
        (EventKind.PHONY_WITHDRAWN, 1),
        (EventKind.PASS, 0),
        (EventKind.PASS, 1),
        (EventKind.PASS, 2),
    ]
    replayed = replay(parse_gcg(export_gcg(game)), STANDARD, LEXICON)
    assert [item.event.nick for item in replayed] == ["Ann", "Bob", "Cid", "Bob", "Ann", "Bob", "Cid"]


def test_an_export_names_its_lexicon_and_variant(make_game: MakeGame) -> None:
    game = make_game(["AEIQTUZ", "AEIOSTX"], variant=get_variant("super"), lexicon=LEXICON)
    record = parse_gcg(export_gcg(game))
    assert record.pragmas == {"character-encoding": "UTF-8", "lexicon": "custom", "variant": "super"}
