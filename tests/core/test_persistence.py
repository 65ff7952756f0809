"""Tests of saving and restoring games: to_dict -> JSON -> from_dict is exact at every step, and a
restored game goes on exactly as the original (same draws, same shuffles)."""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from scrabble_core.errors import IllegalMoveError, ScrabbleError
from scrabble_core.game import ChallengeMode, Event, EventKind, Game
from scrabble_core.lexicon import ENGLISH_ALPHABET, Lexicon
from scrabble_core.move import Play
from scrabble_core.squares import Square
from scrabble_core.validation import check_play, play_from_tiles
from scrabble_core.variant import get_variant

Action = Callable[[Game], list[Event]]
VOWELS = "AEIOU"
# Every word of two or three letters with a vowel: plays are common, and longer words are phonies.
LEXICON = Lexicon.from_words(
    [
        "".join(letters)
        for size in (2, 3)
        for letters in itertools.product(ENGLISH_ALPHABET, repeat=size)
        if any(letter in VOWELS for letter in letters)
    ],
    ENGLISH_ALPHABET,
)


def json_round_trip(game: Game) -> Game:
    data = json.loads(json.dumps(game.to_dict()))
    return Game.from_dict(data, lexicon=game.lexicon)


def candidate_plays(game: Game, seat: int, lexicon: Lexicon | None) -> list[Play]:
    """Plays of one or two tiles of ``seat``'s rack on empty squares next to the board (or on the
    start square), blanks as E, that the rules accept, words checked in ``lexicon`` when given."""
    board, rack = game.board, game.players[seat].rack
    variant = game.variant
    if board.is_empty():
        anchors: list[Square] = [variant.start]
    else:
        anchors = [
            square
            for square in variant.squares()
            if board[square] is None
            and any(
                board.occupied((square[0] + dr, square[1] + dc))
                for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))
            )
        ]
    tiles = ["e" if tile == "?" else tile for tile in rack]
    plays = []
    for row, col in anchors:
        for d_row, d_col in ((0, 1), (1, 0)):
            for count in (2, 1):
                second = (row + d_row, col + d_col)
                squares = [(row, col), second][:count]
                if len(tiles) < count or (count == 2 and not variant.on_board(second)):
                    continue
                try:
                    play = play_from_tiles(board, list(zip(squares, tiles, strict=False)))
                    check_play(board, play, rack=rack, lexicon=lexicon)
                except IllegalMoveError:
                    continue
                plays.append(play)
    return plays


def choose_action(game: Game, chooser: random.Random) -> Action:
    """A legal action for the game as it stands, chosen by ``chooser``: mostly real words, now and
    then a phony (when the mode allows one), an exchange, a pass or a challenge."""
    if game.awaiting_final_challenge:
        challenger = game.current
        return (
            (lambda g: g.challenge(challenger))
            if chooser.random() < 0.5
            else (lambda g: g.accept(challenger))
        )
    pending = game.challengeable
    if pending is not None and chooser.random() < 0.3:
        others = [i for i, p in enumerate(game.players) if i != pending and not p.resigned]
        challenger = chooser.choice(others)
        return lambda g: g.challenge(challenger)
    seat = game.current
    roll = chooser.random()
    if roll < 0.05 and len(game.bag) >= game.variant.exchange_min_bag:
        tiles = game.players[seat].rack[: chooser.randint(1, 3)]
        return lambda g: g.exchange(seat, tiles)
    if roll < 0.08:
        return lambda g: g.pass_turn(seat)
    phony = roll < 0.15 and game.challenge_mode is not ChallengeMode.VOID
    plays = candidate_plays(game, seat, None if phony else LEXICON)
    if not plays:
        return lambda g: g.pass_turn(seat)
    play = chooser.choice(plays)
    return lambda g: g.play(seat, play)


def new_game(mode: ChallengeMode, players: int, seed: int) -> Game:
    names = ["Ann", "Bob", "Cid", "Dee"][:players]
    return Game(get_variant("standard"), names, rng=random.Random(seed), lexicon=LEXICON, challenge_mode=mode)


@pytest.mark.parametrize(
    ("mode", "players", "seed"),
    [
        (ChallengeMode.VOID, 2, 2),  # goes out
        (ChallengeMode.VOID, 2, 1),  # ends on scoreless turns
        (ChallengeMode.SINGLE, 3, 2),
        (ChallengeMode.DOUBLE, 3, 3),
        (ChallengeMode.FIVE_POINT, 4, 4),
    ],
)
def test_round_trip_at_every_step_and_restored_game_goes_on_identically(
    mode: ChallengeMode, players: int, seed: int
) -> None:
    game = new_game(mode, players, seed)
    chooser = random.Random(seed)
    copies: list[Game] = []
    steps = 0
    while not game.is_over and steps < 400:
        restored = json_round_trip(game)
        assert restored.to_dict() == game.to_dict()
        if steps % 10 == 0:
            copies.append(restored)  # goes on from here with the same actions as the original
        action = choose_action(game, chooser)
        events = action(game)
        for copy in copies:
            assert action(copy) == events
            assert copy.to_dict() == game.to_dict()
        steps += 1
    assert game.is_over
    assert json_round_trip(game).to_dict() == game.to_dict()
    assert copies[-1].to_dict() == game.to_dict()


def test_restored_game_draws_the_same_tiles() -> None:
    game = new_game(ChallengeMode.SINGLE, 2, 9)
    game.exchange(0, game.players[0].rack[:3])
    restored = json_round_trip(game)
    game.exchange(1, game.players[1].rack[:4])
    restored.exchange(1, restored.players[1].rack[:4])
    assert list(restored.bag) == list(game.bag)
    assert [p.rack for p in restored.players] == [p.rack for p in game.players]


def test_restoring_reads_no_system_entropy(monkeypatch: pytest.MonkeyPatch) -> None:
    """The restored random source takes the saved state whole: seeding it from the system first (a
    read of os.urandom at every restore) would be wasted."""
    saved = Game(get_variant("standard"), ["Ann", "Bob"], rng=random.Random(3)).to_dict()
    seeds: list[object] = []
    seed = random.Random.seed

    def recording(self: random.Random, a: object = None, version: int = 2) -> None:
        seeds.append(a)
        seed(self, a, version)  # type: ignore[arg-type]

    monkeypatch.setattr(random.Random, "seed", recording)
    restored = Game.from_dict(saved)
    assert None not in seeds
    assert restored.to_dict() == saved


def test_saved_state_holds_every_part_of_the_game(make_game: Callable[..., Game]) -> None:
    game = make_game(
        ["AEIQTUZ", "AEIOSTX", "ADEILNR"], draws="RSTLNEAEIO", challenge_mode=ChallengeMode.DOUBLE
    )
    game.play(0, "8h qi")
    game.challenge(2)  # fails: Cid owes a turn
    game.play(1, "9h ax")  # pending; Cid's lost turn is recorded as the turn passes him
    data = game.to_dict()
    assert data["schema"] == 2
    assert data["challenge_mode"] == "double"
    assert data["current"] == 0
    assert data["pending"] == {
        "player": 1,
        "play": "9H AX",
        "score": data["history"][1]["score"],
        "drawn": "TL",
        "rack_before": "AEIOSTX",
        "scoreless_before": 0,
        "went_out": False,
    }
    assert data["owes_lost_turn"] == []
    assert data["scoreless"] == 1
    assert [event["kind"] for event in data["history"]] == ["play", "play", "lost-turn"]
    assert data["board"][8] == ".......AX......"
    restored = json_round_trip(game)
    assert restored.challengeable == 1
    # The restored game carries out the challenge as the original does.
    assert restored.challenge(0) == game.challenge(0)
    assert restored.to_dict() == game.to_dict()


def test_owed_lost_turn_survives_a_save(make_game: Callable[..., Game]) -> None:
    game = make_game(
        ["AEIQTUZ", "AEIOSTX", "ADEILNR"], draws="RSTLNEAEIO", challenge_mode=ChallengeMode.DOUBLE
    )
    game.play(0, "8h qi")
    game.challenge(2)
    assert game.to_dict()["owes_lost_turn"] == [2]
    restored = json_round_trip(game)
    assert [e.kind for e in restored.pass_turn(1)] == [EventKind.PASS, EventKind.LOST_TURN]


def test_event_round_trip() -> None:
    event = Event(EventKind.PLAY, 1, "AEIQTUZ", "8H QUIZ", 44, 60, "QUIZ 44")
    assert event.to_dict() == {
        "kind": "play",
        "player": 1,
        "rack": "AEIQTUZ",
        "move": "8H QUIZ",
        "score": 44,
        "total": 60,
        "detail": "QUIZ 44",
    }
    assert Event.from_dict(event.to_dict()) == event


def test_custom_variant_is_saved_with_the_game(tiny_variant: Any) -> None:
    game = Game(tiny_variant, ["Ann", "Bob"], rng=random.Random(5))
    restored = json_round_trip(game)
    assert restored.variant == tiny_variant
    assert restored.to_dict() == game.to_dict()


def test_a_game_saved_with_a_limit_of_scoreless_turns_is_restored_with_rounds() -> None:
    # Schema 1 saved the variant's limit of six turns, which ended four players' games after six.
    game = new_game(ChallengeMode.VOID, 4, 0)
    data = game.to_dict()
    data["schema"] = 1
    del data["variant"]["scoreless_rounds"]
    data["variant"]["scoreless_turn_limit"] = 6
    restored = Game.from_dict(data)
    assert restored.variant == game.variant
    assert restored.scoreless_turn_limit == 12
    assert restored.to_dict() == game.to_dict()


def test_lexicon_is_given_on_restore(make_game: Callable[..., Game]) -> None:
    game = make_game(["AEIQTUZ", "AEIOSTX"], draws="RSTLNEAEIO", lexicon=LEXICON)
    restored = Game.from_dict(game.to_dict(), lexicon=LEXICON)
    assert restored.lexicon is LEXICON
    assert Game.from_dict(game.to_dict()).lexicon is None


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(schema=3), "saved game of schema 3, expected 2"),
        (lambda d: d.pop("schema"), "saved game of schema None, expected 2"),
        (lambda d: d.pop("bag"), "not a saved game: KeyError('bag')"),
        (lambda d: d.update(challenge_mode="triple"), "not a saved game: ValueError(\"'triple' is not a valid ChallengeMode\")"),
    ],
)  # fmt: skip
def test_not_a_saved_game(change: Callable[[dict[str, Any]], object], message: str) -> None:
    data = new_game(ChallengeMode.VOID, 2, 0).to_dict()
    change(data)
    with pytest.raises(ScrabbleError) as info:
        Game.from_dict(data)
    assert str(info.value) == message


def test_bad_board_in_a_saved_game() -> None:
    data = new_game(ChallengeMode.VOID, 2, 0).to_dict()
    data["board"] = data["board"][:3]
    with pytest.raises(ScrabbleError) as info:
        Game.from_dict(data)
    assert str(info.value) == "the board has 15 rows, the text has 3"
