"""Tests of challenges under each mode: void, single, double and five-point, the challenge window, and
the challenge of a play that went out."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scrabble_core.errors import (
    ChallengeError,
    IllegalMoveError,
    NotYourTurnError,
    UnknownWordsError,
)
from scrabble_core.game import ChallengeMode, Event, EventKind, Game
from scrabble_core.lexicon import ENGLISH_ALPHABET, Lexicon
from scrabble_core.variant import get_variant

MakeGame = Callable[..., Game]

# QUIZ is left out on purpose: it is the phony of these tests.
LEXICON = Lexicon.from_words(
    ["QI", "QIS", "ZA", "ZAX", "AX", "XI", "TA", "AT", "EAT", "TEA"], ENGLISH_ALPHABET
)
DRAWS = "RSTLNEAEIOUDGBCM"
SINGLE, DOUBLE, FIVE = ChallengeMode.SINGLE, ChallengeMode.DOUBLE, ChallengeMode.FIVE_POINT


def game_in(mode: ChallengeMode, make_game: MakeGame, players: int = 2, draws: str = DRAWS) -> Game:
    racks = ["AEIQTUZ", "AEIOSTX", "ADEILNR", "EEIORST"][:players]
    return make_game(racks, draws=draws, lexicon=LEXICON, challenge_mode=mode, scores=[100] * players)


# --- Void ----------------------------------------------------------------------------------------------


def test_void_refuses_a_phony_and_changes_nothing(make_game: MakeGame) -> None:
    game = game_in(ChallengeMode.VOID, make_game)
    before = game.to_dict()
    with pytest.raises(UnknownWordsError) as info:
        game.play(0, "8h quiz")
    assert str(info.value) == "QUIZ is not in the dictionary"
    assert game.to_dict() == before
    events = game.play(0, "8h qi")
    assert events[0].score == 22
    with pytest.raises(ChallengeError) as challenge:
        game.challenge(1)
    assert str(challenge.value) == "this game checks words as they are played, so there are no challenges"


# --- Single --------------------------------------------------------------------------------------------


def test_single_phony_comes_off_and_scores_nothing(make_game: MakeGame) -> None:
    game = game_in(SINGLE, make_game)
    before = game.to_dict()
    events = game.play(0, "8h quiz")  # not checked on play
    assert events == [Event(EventKind.PLAY, 0, "AEIQTUZ", "8H QUIZ", 44, 144, "QUIZ 44")]
    assert game.players[0].rack == "AELRSTT"
    assert game.challengeable == 0
    assert game.current == 1
    events = game.challenge(1)
    assert events == [Event(EventKind.PHONY_WITHDRAWN, 0, "AEIQTUZ", "--", -44, 100)]
    # The tiles are back on the rack, the tiles drawn back in the bag (mixed, see below), the board as
    # it was; the player's turn is lost.
    assert game.board.is_empty()
    assert game.players[0].rack == "AEIQTUZ"
    assert game.players[0].score == 100
    assert sorted(game.bag) == sorted(before["bag"])
    assert game.current == 1
    assert game.challengeable is None
    assert game.scoreless_turns == 1


def test_the_opponent_does_not_draw_the_withdrawn_players_tiles(make_game: MakeGame) -> None:
    # Ann draws R, S, T, L for her phony; everyone saw nothing of them, but before the bag was mixed
    # Bob's next draw was exactly those four tiles, back on top of the bag.
    game = game_in(SINGLE, make_game)
    game.play(0, "8h quiz")
    assert game.players[0].rack == "AELRSTT"
    game.challenge(1)
    game.play(1, "8g taxi")  # Bob keeps EOS and draws four tiles
    assert game.players[1].rack != "ELORSST"
    assert game.players[1].rack == "BEELORS"


def test_a_withdrawal_replays_identically_with_the_same_seed(make_game: MakeGame) -> None:
    racks = []
    for _ in range(2):
        game = game_in(SINGLE, make_game)
        game.play(0, "8h quiz")
        game.challenge(1)
        game.play(1, "8g taxi")
        racks.append((list(game.bag), game.players[1].rack))
    assert racks[0] == racks[1]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_the_bag_is_mixed_after_every_withdrawal(seed: int) -> None:
    # A real game's bag (86 tiles) before and after a withdrawn phony: the same tiles, in another order.
    game = Game(
        get_variant("standard"),
        ["Ann", "Bob"],
        rng=random.Random(seed),
        lexicon=LEXICON,
        challenge_mode=SINGLE,
    )
    data = game.to_dict()
    data["players"][0]["rack"] = "AEIQTUZ"
    game = Game.from_dict(data, lexicon=LEXICON)
    bag_before = list(game.bag)
    game.play(0, "8h quiz")
    game.challenge(1)
    assert sorted(game.bag) == sorted(bag_before)
    assert list(game.bag) != bag_before
    assert list(game.bag)[-4:] != bag_before[-4:]


def test_a_phony_cross_word_is_enough(make_game: MakeGame) -> None:
    game = game_in(SINGLE, make_game)
    game.play(0, "8h qi")
    # AX is a word, but QA and IX, down through QI, are not.
    game.play(1, "9h ax")
    events = game.challenge(0)
    assert [e.kind for e in events] == [EventKind.PHONY_WITHDRAWN]


def test_single_failed_challenge_costs_nothing(make_game: MakeGame) -> None:
    game = game_in(SINGLE, make_game)
    game.play(0, "8h qi")
    before = game.to_dict()
    assert game.challenge(1) == []
    after = game.to_dict()
    assert after["pending"] is None
    before["pending"] = None
    assert after == before
    assert game.current == 1
    game.pass_turn(1)


def test_without_a_lexicon_challenges_always_fail(make_game: MakeGame) -> None:
    game = make_game(["AEIQTUZ", "AEIOSTX"], draws=DRAWS, challenge_mode=FIVE)
    game.play(0, "8h quiz")
    events = game.challenge(1)
    assert [(e.kind, e.score) for e in events] == [(EventKind.CHALLENGE_BONUS, 5)]


# --- Double --------------------------------------------------------------------------------------------


def test_double_failed_challenge_loses_the_challengers_next_turn(make_game: MakeGame) -> None:
    game = game_in(DOUBLE, make_game)
    game.play(0, "8h qi")
    events = game.challenge(1)
    assert events == [Event(EventKind.LOST_TURN, 1, "AEIOSTX", "-", 0, 100)]
    assert game.current == 0
    assert game.scoreless_turns == 1
    game.pass_turn(0)


def test_double_phony_comes_off(make_game: MakeGame) -> None:
    game = game_in(DOUBLE, make_game)
    game.play(0, "8h quiz")
    events = game.challenge(1)
    assert [(e.kind, e.score, e.total) for e in events] == [(EventKind.PHONY_WITHDRAWN, -44, 100)]
    assert game.current == 1


def test_double_challenger_not_on_turn_loses_the_next_turn(make_game: MakeGame) -> None:
    game = game_in(DOUBLE, make_game, players=3)
    game.play(0, "8h qi")
    # Cid challenges while it is Bob's turn: the turn Cid loses is the next one.
    assert game.owed_lost_turns == frozenset()
    assert game.challenge(2) == []
    assert game.owed_lost_turns == {2}
    assert game.current == 1
    events = game.pass_turn(1)
    assert [(e.kind, e.player) for e in events] == [(EventKind.PASS, 1), (EventKind.LOST_TURN, 2)]
    assert game.owed_lost_turns == frozenset()
    assert game.current == 0
    assert game.scoreless_turns == 2


def test_a_lost_turn_recorded_before_a_withdrawal_still_counts(make_game: MakeGame) -> None:
    game = game_in(DOUBLE, make_game, players=3)
    game.play(0, "8h qi")
    game.challenge(2)  # fails: Cid owes a turn
    # Bob's phony: the turn passes over Cid, who loses it, to Ann.
    events = game.play(1, "i7 t.")  # TI
    assert [e.kind for e in events] == [EventKind.PLAY, EventKind.LOST_TURN]
    assert game.current == 0
    events = game.challenge(0)
    assert [e.kind for e in events] == [EventKind.PHONY_WITHDRAWN]
    # Two scoreless turns since QI: Cid's lost turn and Bob's withdrawn phony.
    assert game.scoreless_turns == 2


# --- Five-point ----------------------------------------------------------------------------------------


def test_five_point_failed_challenge_gives_the_player_five(make_game: MakeGame) -> None:
    game = game_in(FIVE, make_game)
    game.play(0, "8h qi")
    events = game.challenge(1)
    assert events == [Event(EventKind.CHALLENGE_BONUS, 0, "AERSTUZ", "(challenge)", 5, 127)]
    assert game.players[0].score == 127
    assert game.current == 1
    assert game.scoreless_turns == 0


def test_five_point_phony_comes_off(make_game: MakeGame) -> None:
    game = game_in(FIVE, make_game)
    game.play(0, "8h quiz")
    events = game.challenge(1)
    assert [(e.kind, e.score, e.total) for e in events] == [(EventKind.PHONY_WITHDRAWN, -44, 100)]


# --- Who may challenge, and when ------------------------------------------------------------------------


def test_challenge_errors(make_game: MakeGame) -> None:
    game = game_in(SINGLE, make_game, players=3)
    with pytest.raises(ChallengeError) as info:
        game.challenge(1)
    assert str(info.value) == "there is no play to challenge"
    game.play(0, "8h qi")
    with pytest.raises(ChallengeError) as info:
        game.challenge(0)
    assert str(info.value) == "you cannot challenge your own play"
    with pytest.raises(ChallengeError) as info:
        game.challenge(3)
    assert str(info.value) == "only a player still in the game can challenge"
    game.resign(2)
    with pytest.raises(ChallengeError) as info:
        game.challenge(2)
    assert str(info.value) == "only a player still in the game can challenge"


@pytest.mark.parametrize("action", ["play", "exchange", "pass"])
def test_challenge_window_closes_when_the_next_player_acts(make_game: MakeGame, action: str) -> None:
    game = game_in(SINGLE, make_game, players=3)
    game.play(0, "8h quiz")
    if action == "play":
        game.play(1, "h7 x.")
    elif action == "exchange":
        game.exchange(1, "x")
    else:
        game.pass_turn(1)
    # Ann's phony can no longer be challenged: it stays.
    assert game.board[(7, 7)] == "Q"
    if action == "play":
        assert game.challengeable == 1
    else:
        assert game.challengeable is None
        with pytest.raises(ChallengeError):
            game.challenge(2)
    assert game.players[0].score == 144


def test_any_other_player_may_challenge(make_game: MakeGame) -> None:
    game = game_in(SINGLE, make_game, players=3)
    game.play(0, "8h quiz")
    events = game.challenge(2)
    assert [e.kind for e in events] == [EventKind.PHONY_WITHDRAWN]
    assert game.current == 1


# --- A play that went out ------------------------------------------------------------------------------


def out_game(mode: ChallengeMode, make_game: MakeGame, players: int = 2) -> Game:
    """Ann can go out with QI (22) or the phony QIZ; the bag is empty."""
    racks = ["IQ", "AEX", "BCD"][:players]
    return make_game(racks, lexicon=LEXICON, challenge_mode=mode, scores=[100] * players)


@pytest.mark.parametrize("mode", [SINGLE, DOUBLE, FIVE])
def test_going_out_waits_for_accept(make_game: MakeGame, mode: ChallengeMode) -> None:
    game = out_game(mode, make_game)
    events = game.play(0, "8h qi")
    assert [e.kind for e in events] == [EventKind.PLAY]
    assert not game.is_over
    assert game.awaiting_final_challenge
    assert game.current == 1
    actions: tuple[Callable[[], object], ...] = (
        lambda: game.pass_turn(1),
        lambda: game.play(1, "9h ax"),
        lambda: game.exchange(1, "a"),
    )
    for action in actions:
        with pytest.raises(IllegalMoveError) as info:
            action()
        assert str(info.value) == "Ann went out: challenge the last play or accept it"
    with pytest.raises(NotYourTurnError):
        game.accept(0)
    events = game.accept(1)
    assert events == [Event(EventKind.END_RACK, 0, "", "(AEX)", 20, 142)]
    assert game.is_over
    assert not game.awaiting_final_challenge


def test_accept_with_nothing_to_accept(make_game: MakeGame) -> None:
    game = game_in(SINGLE, make_game)
    with pytest.raises(ChallengeError) as info:
        game.accept(0)
    assert str(info.value) == "there is no final play to accept"
    game.play(0, "8h qi")
    with pytest.raises(ChallengeError):
        game.accept(1)


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        (SINGLE, [(EventKind.END_RACK, 0, 20, 142)]),
        (FIVE, [(EventKind.CHALLENGE_BONUS, 0, 5, 127), (EventKind.END_RACK, 0, 20, 147)]),
        # Judgment call of the engine: the lost turn is recorded, then the game ends.
        (DOUBLE, [(EventKind.LOST_TURN, 1, 0, 100), (EventKind.END_RACK, 0, 20, 142)]),
    ],
)
def test_failed_challenge_of_a_play_that_went_out_ends_the_game(
    make_game: MakeGame, mode: ChallengeMode, expected: list[tuple[EventKind, int, int, int]]
) -> None:
    game = out_game(mode, make_game)
    game.play(0, "8h qi")
    events = game.challenge(1)
    assert [(e.kind, e.player, e.score, e.total) for e in events] == expected
    assert game.is_over


@pytest.mark.parametrize("mode", [SINGLE, DOUBLE, FIVE])
def test_successful_challenge_of_a_play_that_went_out_lets_the_game_go_on(
    make_game: MakeGame, mode: ChallengeMode
) -> None:
    game = make_game(["IQZ", "AEX"], lexicon=LEXICON, challenge_mode=mode)
    game.play(0, "8h qiz")
    assert game.awaiting_final_challenge
    events = game.challenge(1)
    assert [e.kind for e in events] == [EventKind.PHONY_WITHDRAWN]
    assert not game.is_over
    assert not game.awaiting_final_challenge
    assert game.players[0].rack == "IQZ"
    assert game.current == 1
    game.pass_turn(1)
    assert game.current == 0


def test_resigning_on_turn_leaves_the_final_play_open_to_the_next_player(make_game: MakeGame) -> None:
    game = make_game(["IQZ", "AEX", "BCD"], lexicon=LEXICON, challenge_mode=SINGLE)
    game.play(0, "8h qiz")
    assert game.current == 1
    events = game.resign(1)
    assert [e.kind for e in events] == [EventKind.RESIGN]
    assert not game.is_over
    assert game.awaiting_final_challenge
    assert game.current == 2
    events = game.challenge(2)
    assert [e.kind for e in events] == [EventKind.PHONY_WITHDRAWN]
    assert game.players[0].rack == "IQZ"
    assert not game.is_over


def test_three_players_going_out(make_game: MakeGame) -> None:
    game = out_game(SINGLE, make_game, players=3)
    game.play(0, "8h qi")
    # Cid, not on turn, may challenge; only Bob, on turn, may accept.
    with pytest.raises(NotYourTurnError):
        game.accept(2)
    events = game.accept(1)
    assert [(e.player, e.move, e.score) for e in events] == [
        (1, "(AEX)", -10),
        (2, "(BCD)", -8),
        (0, "(ABCDEX)", 18),
    ]


def test_lost_turn_at_the_end_cannot_end_the_game_twice(
    make_game: MakeGame, monkeypatch: pytest.MonkeyPatch
) -> None:
    # With a limit of one scoreless turn (no variant has so few), the turn lost to a failed double
    # challenge of a play that went out must not also end the game by scoreless turns: the game ends
    # once, by going out.
    monkeypatch.setattr(Game, "scoreless_turn_limit", property(lambda _: 1))
    game = make_game(["IQ", "AEX"], lexicon=LEXICON, challenge_mode=DOUBLE)
    game.play(0, "8h qi")
    events = game.challenge(1)
    assert [(e.kind, e.player, e.score) for e in events] == [
        (EventKind.LOST_TURN, 1, 0),
        (EventKind.END_RACK, 0, 20),
    ]
    assert [p.score for p in game.players] == [42, 0]
