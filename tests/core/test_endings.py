"""Tests of the end of a game: a player going out (2 players and 3-4 players) and too many scoreless
turns in a row, with the exact rack adjustments."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from scrabble_core.errors import GameOverError
from scrabble_core.game import ChallengeMode, Event, EventKind, Game
from scrabble_core.lexicon import ENGLISH_ALPHABET, Lexicon
from scrabble_core.variant import Variant

MakeGame = Callable[..., Game]

LEXICON = Lexicon.from_words(["QI", "ZA", "AX", "XI", "QAT", "TA", "AT"], ENGLISH_ALPHABET)
FULL_BAG = "AEIOUAEIOURSTLN"


def kinds(events: list[Event]) -> list[EventKind]:
    return [event.kind for event in events]


# --- Going out ---------------------------------------------------------------------------------------


def test_two_players_out_gains_twice_the_opponents_rack(make_game: MakeGame) -> None:
    game = make_game(["IQ", "AEZ"], scores=[100, 120])
    events = game.play(0, "8h qi")
    assert events == [
        Event(EventKind.PLAY, 0, "IQ", "8H QI", 22, 122, "QI 22"),
        Event(EventKind.END_RACK, 0, "", "(AEZ)", 24, 146),
    ]
    assert game.is_over
    assert [p.score for p in game.players] == [146, 120]
    assert [p.rack for p in game.players] == ["", "AEZ"]
    assert game.winners() == [0]
    with pytest.raises(GameOverError):
        game.pass_turn(1)


def test_using_the_whole_rack_is_not_going_out_while_the_bag_has_tiles(make_game: MakeGame) -> None:
    game = make_game(["IQ", "AEZ"], draws="E")
    game.play(0, "8h qi")
    assert not game.is_over
    assert game.players[0].rack == "E"


def test_three_players_each_loses_own_rack_and_the_one_out_gains_the_sum(make_game: MakeGame) -> None:
    game = make_game(["IQ", "QZ", "AE?"], scores=[10, 20, 30])
    events = game.play(0, "8h qi")
    assert events == [
        Event(EventKind.PLAY, 0, "IQ", "8H QI", 22, 32, "QI 22"),
        Event(EventKind.END_RACK, 1, "QZ", "(QZ)", -20, 0),
        Event(EventKind.END_RACK, 2, "AE?", "(AE?)", -2, 28),
        Event(EventKind.END_RACK, 0, "", "(AEQZ?)", 22, 54),
    ]
    assert [p.score for p in game.players] == [54, 0, 28]
    assert game.winners() == [0]


def test_four_players_out(make_game: MakeGame) -> None:
    game = make_game(["IQ", "B", "CC", "??"], current=0)
    events = game.play(0, "8h qi")
    assert [(e.player, e.move, e.score, e.total) for e in events[1:]] == [
        (1, "(B)", -3, -3),
        (2, "(CC)", -6, -6),
        (3, "(??)", 0, 0),
        (0, "(BCC??)", 9, 31),
    ]
    assert game.standings() == [0, 3, 1, 2]


def test_three_players_out_after_a_resignation(make_game: MakeGame) -> None:
    # Judgment call: a resigned player's rack is left out of the end-of-game adjustments, and with two
    # players left of three the 3-4 player rule still applies.
    game = make_game(["IQ", "QZ", "AE"], current=1)
    game.resign(2)
    game.pass_turn(1)
    events = game.play(0, "8h qi")
    assert [(e.player, e.move, e.score) for e in events[1:]] == [(1, "(QZ)", -20), (0, "(QZ)", 20)]


def test_a_play_scoring_zero_can_go_out(make_game: MakeGame) -> None:
    game = make_game(["??", "AEZ"])
    events = game.play(0, "8h qi")
    assert [(e.kind, e.score) for e in events] == [(EventKind.PLAY, 0), (EventKind.END_RACK, 24)]


# --- Too many scoreless turns ----------------------------------------------------------------------------


def test_six_scoreless_turns_each_player_loses_own_rack(make_game: MakeGame) -> None:
    game = make_game(["AEQ", "BCZ"], draws=FULL_BAG, scores=[50, 40])
    for turn in range(5):
        events = game.pass_turn(turn % 2)
        assert kinds(events) == [EventKind.PASS]
        assert game.scoreless_turns == turn + 1
    events = game.pass_turn(1)
    assert events == [
        Event(EventKind.PASS, 1, "BCZ", "-", 0, 40),
        Event(EventKind.END_RACK, 0, "AEQ", "(AEQ)", -12, 38),
        Event(EventKind.END_RACK, 1, "BCZ", "(BCZ)", -16, 24),
    ]
    assert game.is_over
    assert game.winners() == [0]


def test_three_players_scoreless_ending(make_game: MakeGame) -> None:
    game = make_game(["AEQ", "BCZ", "?"], draws=FULL_BAG)
    assert game.scoreless_turn_limit == 9
    for turn in range(9):
        assert not game.is_over
        events = game.pass_turn(turn % 3)
    assert [(e.player, e.move, e.score) for e in events[1:]] == [
        (0, "(AEQ)", -12),
        (1, "(BCZ)", -16),
        (2, "(?)", 0),
    ]
    assert game.winners() == [2]


def test_four_players_end_after_three_rounds_of_scoreless_turns(make_game: MakeGame) -> None:
    # Three rounds: twelve turns with four players; after six, two of them have passed only once.
    game = make_game(["AEQ", "BCZ", "?", "E"], draws=FULL_BAG)
    assert game.scoreless_turn_limit == 12
    for turn in range(11):
        assert kinds(game.pass_turn(turn % 4)) == [EventKind.PASS]
    assert game.scoreless_turns == 11
    assert not game.is_over
    events = game.pass_turn(3)
    assert kinds(events) == [EventKind.PASS] + [EventKind.END_RACK] * 4
    assert game.is_over


def test_exchanges_count_as_scoreless_turns(make_game: MakeGame) -> None:
    game = make_game(["AEIOQUZ", "AEIOSTU"], draws=FULL_BAG * 2)
    game.exchange(0, "q")
    game.pass_turn(1)
    game.exchange(0, "z")
    game.pass_turn(1)
    game.pass_turn(0)
    assert game.scoreless_turns == 5
    events = game.exchange(1, "e")
    assert kinds(events) == [EventKind.EXCHANGE, EventKind.END_RACK, EventKind.END_RACK]
    assert game.is_over


def test_a_tile_play_scoring_zero_is_not_scoreless(make_game: MakeGame) -> None:
    game = make_game(["AEIOQUZ", "AEIOU??"], draws=FULL_BAG)
    for turn in range(5):
        game.pass_turn(turn % 2)
    assert game.scoreless_turns == 5
    events = game.play(1, "8h ?q?i")  # two blanks: 0 points
    assert events[0].score == 0
    assert game.scoreless_turns == 0
    assert not game.is_over
    for turn in range(5):
        game.pass_turn(turn % 2)
    assert not game.is_over
    game.pass_turn(1)
    assert game.is_over


def test_a_withdrawn_phony_counts_as_scoreless(make_game: MakeGame) -> None:
    game = make_game(
        ["AEIOQUZ", "AEIOSTU"], draws=FULL_BAG, lexicon=LEXICON, challenge_mode=ChallengeMode.SINGLE
    )
    game.pass_turn(0)
    game.pass_turn(1)
    game.play(0, "8h quiz")
    assert game.scoreless_turns == 0
    events = game.challenge(1)
    assert kinds(events) == [EventKind.PHONY_WITHDRAWN]
    assert game.scoreless_turns == 3
    game.pass_turn(1)
    game.pass_turn(0)
    events = game.pass_turn(1)
    assert kinds(events) == [EventKind.PASS, EventKind.END_RACK, EventKind.END_RACK]


def test_a_withdrawn_phony_can_end_the_game(make_game: MakeGame) -> None:
    game = make_game(
        ["AEIOSTU", "AEIOQUZ"], draws=FULL_BAG, lexicon=LEXICON, challenge_mode=ChallengeMode.SINGLE
    )
    for turn in range(5):
        game.pass_turn(turn % 2)
    game.play(1, "8h quiz")
    events = game.challenge(0)
    assert kinds(events) == [EventKind.PHONY_WITHDRAWN, EventKind.END_RACK, EventKind.END_RACK]
    assert game.is_over
    # The phony's tiles are back on the rack and count against the player.
    assert events[1:] == [
        Event(EventKind.END_RACK, 0, "AEIOSTU", "(AEIOSTU)", -7, -7),
        Event(EventKind.END_RACK, 1, "AEIOQUZ", "(AEIOQUZ)", -25, -25),
    ]


def test_a_lost_turn_counts_as_scoreless(make_game: MakeGame) -> None:
    game = make_game(
        ["AEIOQUZ", "AEIOSTU"], draws=FULL_BAG, lexicon=LEXICON, challenge_mode=ChallengeMode.DOUBLE
    )
    game.play(0, "8h qi")
    events = game.challenge(1)
    assert kinds(events) == [EventKind.LOST_TURN]
    assert game.scoreless_turns == 1
    assert game.current == 0
    for turn in range(4):
        game.pass_turn(turn % 2)
    events = game.pass_turn(0)
    assert kinds(events) == [EventKind.PASS, EventKind.END_RACK, EventKind.END_RACK]


def test_custom_scoreless_limit(make_game: MakeGame, tiny_variant: Variant) -> None:
    game = make_game(["AB", "ÄE"], variant=tiny_variant, draws="RSTLN")
    for turn in range(3):
        game.pass_turn(turn % 2)
    events = game.pass_turn(1)
    assert [(e.kind, e.score) for e in events] == [
        (EventKind.PASS, 0),
        (EventKind.END_RACK, -4),
        (EventKind.END_RACK, -4),
    ]
