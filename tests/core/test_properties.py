"""Property-based tests: random legal games, under every challenge mode and with 2 to 4 players, keep
the engine's invariants at every step.

- the tiles are all there: bag + racks + board == the variant's tile count;
- every player's score is the sum of the scores of their events;
- to_dict -> JSON -> from_dict -> to_dict is exact;
- a copy (``Game.copy``) goes on apart from the game, and exactly alike under the same action;
- the GCG export, read back and replayed, reproduces every move, rack, score and total.

The moves come from a simple move finder written here: one to three tiles of the rack put in a line
from an empty square next to the board (the start square on the first move), kept when
``check_play`` accepts them. Words are checked against a lexicon of every two- and three-letter word
that has a vowel, so real plays are common and longer words are phonies to challenge.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable, Sequence
from typing import TypeVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scrabble_core.errors import IllegalMoveError
from scrabble_core.game import ChallengeMode, Event, EventKind, Game
from scrabble_core.gcg import export_gcg, parse_gcg, replay
from scrabble_core.lexicon import ENGLISH_ALPHABET, Lexicon
from scrabble_core.move import Play
from scrabble_core.squares import Square
from scrabble_core.validation import check_play, play_from_tiles
from scrabble_core.variant import Variant, get_variant

VOWELS = "AEIOU"
LEXICON = Lexicon.from_words(
    [
        "".join(letters)
        for size in (2, 3)
        for letters in itertools.product(ENGLISH_ALPHABET, repeat=size)
        if any(letter in VOWELS for letter in letters)
    ],
    ENGLISH_ALPHABET,
)
NEIGHBOURS = ((0, 1), (1, 0), (0, -1), (-1, 0))
MAX_ANCHORS = 6
MAX_STEPS = 250

Action = Callable[[Game], list[Event]]
T = TypeVar("T")


def find_plays(game: Game, seat: int, rng: random.Random, *, check_words: bool) -> list[Play]:
    """Legal plays of one to three of ``seat``'s tiles from empty squares next to the board, the tiles
    in a random order, blanks as a random letter; words checked in :data:`LEXICON` when asked."""
    board, rack, variant = game.board, game.players[seat].rack, game.variant
    if board.is_empty():
        anchors: list[Square] = [variant.start]
    else:
        anchors = [
            (row, col)
            for row, col in variant.squares()
            if board[(row, col)] is None
            and any(board.occupied((row + dr, col + dc)) for dr, dc in NEIGHBOURS)
        ]
        rng.shuffle(anchors)
    plays: dict[str, Play] = {}
    for row, col in anchors[:MAX_ANCHORS]:
        for d_row, d_col in ((0, 1), (1, 0)):
            # The empty squares from the anchor on, skipping tiles on the board.
            squares: list[Square] = []
            square = (row, col)
            while len(squares) < 3 and variant.on_board(square):
                if board[square] is None:
                    squares.append(square)
                square = (square[0] + d_row, square[1] + d_col)
            tiles = list(rack)
            rng.shuffle(tiles)
            tiles = [rng.choice(variant.alphabet).lower() if tile == "?" else tile for tile in tiles]
            for count in range(1, min(len(squares), len(tiles)) + 1):
                try:
                    play = play_from_tiles(board, list(zip(squares[:count], tiles[:count], strict=True)))
                    check_play(board, play, rack=rack, lexicon=LEXICON if check_words else None)
                except IllegalMoveError:
                    continue
                plays[play.gcg()] = play
    return sorted(plays.values(), key=Play.gcg)


class Chooser:
    """Where the random choices come from: Hypothesis (which can shrink a failing game) or a seeded
    ``random.Random`` (for fixed games of every mode and player count)."""

    def __init__(self, data: st.DataObject | None = None, rng: random.Random | None = None) -> None:
        self.data = data
        self.rng = rng or random.Random(0)

    def integer(self, low: int, high: int, label: str) -> int:
        if self.data is not None:
            return self.data.draw(st.integers(low, high), label=label)
        return self.rng.randint(low, high)

    def pick(self, items: Sequence[T], label: str) -> T:
        return items[self.integer(0, len(items) - 1, label)]


def choose_action(game: Game, chooser: Chooser, rng: random.Random) -> Action:
    """A legal action: mostly plays, and exchanges, passes, challenges, phonies, accepts and now and
    then a resignation."""
    players = game.players
    active = [i for i, p in enumerate(players) if not p.resigned]
    pending = game.challengeable
    challengers = [i for i in active if i != pending] if pending is not None else []
    seat = game.current
    if game.awaiting_final_challenge:
        if chooser.integer(0, 1, "accept") == 1:
            return lambda g: g.accept(seat)
        challenger = chooser.pick(challengers, "challenger")
        return lambda g: g.challenge(challenger)
    roll = 999 - chooser.integer(0, 999, "roll")  # Hypothesis shrinks towards plays
    if roll < 120 and challengers:
        challenger = chooser.pick(challengers, "challenger")
        return lambda g: g.challenge(challenger)
    if roll < 200 and len(game.bag) >= game.variant.exchange_min_bag:
        rack = players[seat].rack
        size = chooser.integer(1, len(rack), "exchange size")
        tiles = "".join(rng.sample(rack, size))
        return lambda g: g.exchange(seat, tiles)
    if roll < 260:
        return lambda g: g.pass_turn(seat)
    if roll < 263:
        resigner = chooser.pick(active, "resigner")
        return lambda g: g.resign(resigner)
    phony = roll < 350 and game.challenge_mode is not ChallengeMode.VOID
    plays = find_plays(game, seat, rng, check_words=not phony)
    if not plays:
        return lambda g: g.pass_turn(seat)
    play = chooser.pick(plays, "play")
    return lambda g: g.play(seat, play)


def check_invariants(game: Game, variant: Variant) -> None:
    board_tiles = sum(1 for _ in game.board.tiles())
    assert len(game.bag) + sum(len(p.rack) for p in game.players) + board_tiles == variant.tile_count
    for seat, player in enumerate(game.players):
        assert player.score == sum(e.score for e in game.history if e.player == seat)
    data = game.to_dict()
    restored = Game.from_dict(json.loads(json.dumps(data)), lexicon=game.lexicon)
    assert restored.to_dict() == data
    history = [e for e in game.history if e.kind is not EventKind.RESIGN]
    record = parse_gcg(export_gcg(game))
    assert [(e.move, e.rack, e.score, e.total) for e in record.events] == [
        (e.move, e.rack, e.score, e.total) for e in history
    ]
    replayed = replay(record, variant)
    assert [(r.score, r.total) for r in replayed] == [(e.score, e.total) for e in history]


def play_random_game(chooser: Chooser, mode: ChallengeMode, players: int, variant: Variant) -> Game:
    """Play a game of random legal actions to its end (or :data:`MAX_STEPS`), checking the invariants
    after every action."""
    seed = chooser.integer(0, 2**32 - 1, "seed")
    rng = random.Random(seed)
    names = ["Ann", "Bob", "Cid", "Dee"][:players]
    game = Game(variant, names, rng=random.Random(seed), lexicon=LEXICON, challenge_mode=mode)
    check_invariants(game, variant)
    for _ in range(MAX_STEPS):
        if game.is_over:
            break
        action = choose_action(game, chooser, rng)
        before, twin = game.to_dict(), game.copy()
        twin_events = action(twin)
        assert game.to_dict() == before  # a copy goes on apart...
        events = action(game)
        assert twin_events == events and twin.to_dict() == game.to_dict()  # ...exactly alike
        assert list(game.history[len(game.history) - len(events) :]) == events
        check_invariants(game, variant)
    return game


MODES = st.sampled_from(list(ChallengeMode))
PLAYERS = st.integers(2, 4)


@pytest.mark.parametrize("mode", list(ChallengeMode))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_whole_game_of_every_mode_and_player_count(mode: ChallengeMode, players: int) -> None:
    game = play_random_game(
        Chooser(rng=random.Random(f"{mode}-{players}")), mode, players, get_variant("standard")
    )
    assert game.is_over


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), mode=MODES, players=PLAYERS)
def test_random_games_keep_the_invariants(data: st.DataObject, mode: ChallengeMode, players: int) -> None:
    play_random_game(Chooser(data=data), mode, players, get_variant("standard"))


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), mode=MODES, players=PLAYERS)
def test_random_games_keep_the_invariants_long_run(
    data: st.DataObject, mode: ChallengeMode, players: int
) -> None:
    play_random_game(Chooser(data=data), mode, players, get_variant("standard"))


@pytest.mark.slow
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), mode=MODES, players=PLAYERS)
def test_random_games_on_super_long_run(data: st.DataObject, mode: ChallengeMode, players: int) -> None:
    play_random_game(Chooser(data=data), mode, players, get_variant("super"))
