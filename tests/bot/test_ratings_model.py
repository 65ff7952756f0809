"""The rating model: OpenSkill Plackett-Luce updates, places from a finished game, who is rated, the
provisional rule and the conservative rating."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace

import pytest
from service_fakes import scrabble_row, with_result

from bot.games.scrabble.options import ScrabbleOptions
from bot.host.rating_model import (
    INITIAL,
    PROVISIONAL_GAMES,
    RatedGame,
    RatedSeat,
    Rating,
    ai_key,
    human_key,
    is_provisional,
    rate,
    rate_game,
    user_of,
)
from bot.host.store import GameRow, GameStatus, SeatRow
from bot.host.store.ratings import rated
from scrabble_core.ai import Level
from scrabble_core.game import ChallengeMode, Game
from scrabble_core.variant import get_variant

OPTIONS = ScrabbleOptions("standard", ChallengeMode.VOID, 0, 0, Level.HARD)


def finished_row(
    seats: Sequence[SeatRow],
    scores: Sequence[int],
    resigned: Sequence[bool] = (),
    *,
    game_id: int = 1,
    guild_id: int = 5,
    rated: bool = True,
    at: float = 100.0,
) -> GameRow:
    """A finished game of ``seats`` with these final ``scores`` (and resignations)."""
    state = Game(get_variant("standard"), [s.name for s in seats], rng=random.Random(1)).to_dict()
    for index, player in enumerate(state["players"]):
        player["score"] = scores[index]
        player["resigned"] = bool(resigned and resigned[index])
    state["over"] = True
    options = ScrabbleOptions("standard", ChallengeMode.VOID, 0, 0, Level.HARD, rated)
    return scrabble_row(
        game_id, guild_id, 9, 7, GameStatus.FINISHED, options, 1, state, tuple(seats), None, False, 0, at
    )


def rated_game(row: GameRow) -> RatedGame | None:
    """What the finished Scrabble game ``row`` gives the ratings: its result (Scrabble's plugin's), as
    the store rates it."""
    return rated(with_result(row))


def humans(*names: str) -> list[SeatRow]:
    return [SeatRow(i, 100 + i, name) for i, name in enumerate(names)]


def test_two_players_the_winner_goes_up_the_loser_down_by_as_much() -> None:
    winner, loser = rate([INITIAL, INITIAL], [1, 2])
    assert winner == Rating(27.635389493140497, 8.06590141354368)
    assert loser == Rating(22.364610506859503, 8.06590141354368)
    assert winner.mu + loser.mu == 50.0  # equal priors: the sum of mu is kept
    # The loser of the first game wins the second: the ratings come closer.
    again = rate([loser, winner], [1, 2])
    assert again == [
        Rating(25.411309192632373, 7.82288719288111),
        Rating(24.588690807367627, 7.82288719288111),
    ]


def test_rate_game_starts_new_players_at_the_initial_rating_and_counts_games() -> None:
    current = {"user:1": (Rating(30.0, 4.0), 7)}
    game = RatedGame(3, 5, 10.0, (RatedSeat("user:2", "New", 1), RatedSeat("user:1", "Old", 2)), "scrabble")
    results = rate_game(game, current)
    after = rate([INITIAL, Rating(30.0, 4.0)], [1, 2])
    assert [(r.seat.name, r.rating, r.games) for r in results] == [("New", after[0], 1), ("Old", after[1], 8)]
    assert current == {"user:1": (after[1], 8), "user:2": (after[0], 1)}


def test_a_draw_between_equals_moves_no_mu_but_narrows_sigma() -> None:
    assert rate([INITIAL, INITIAL], [1, 1]) == [Rating(25.0, 8.06590141354368)] * 2


def test_three_and_four_players() -> None:
    three = rate([INITIAL] * 3, [1, 2, 3])
    assert [r.mu for r in three] == [27.869048680749426, 25.717262170187357, 21.413689149063217]
    assert sum(r.mu for r in three) == 75.0
    four = rate([INITIAL] * 4, [1, 2, 2, 4])  # second place shared
    assert [r.mu for r in four] == [
        27.795252672501135,
        24.689416369722096,
        24.689416369722096,
        22.825914588054673,
    ]
    assert four[1] == four[2]
    assert sum(r.mu for r in four) == pytest.approx(100.0, abs=1e-9)


def test_rate_needs_two_players_and_a_place_each() -> None:
    with pytest.raises(ValueError, match="a game rates two or more"):
        rate([INITIAL], [1])
    with pytest.raises(ValueError, match="2 ratings and 3 places"):
        rate([INITIAL, INITIAL], [1, 2, 3])


def test_conservative_rating_and_provisional_rule() -> None:
    assert Rating(25.0, 25 / 3) == INITIAL
    assert INITIAL.ordinal == 0.0
    assert Rating(30.0, 2.0).ordinal == 24.0
    assert PROVISIONAL_GAMES == 5
    assert [is_provisional(games) for games in range(7)] == [True] * 5 + [False] * 2


def test_keys() -> None:
    assert human_key(42) == "user:42"
    assert ai_key(Level.EXPERT) == "ai:expert"
    assert (user_of("user:42"), user_of("ai:hard")) == (42, None)


def test_places_come_from_the_scores_with_ties_shared() -> None:
    row = finished_row(humans("Ann", "Bob", "Cy", "Di"), [300, 410, 300, 120])
    assert rated_game(row) == RatedGame(
        1,
        5,
        100.0,
        (
            RatedSeat("user:101", "Bob", 1),
            RatedSeat("user:100", "Ann", 2),
            RatedSeat("user:102", "Cy", 2),
            RatedSeat("user:103", "Di", 4),
        ),
        "scrabble",
    )


def test_a_resignation_places_last_whatever_the_score() -> None:
    row = finished_row(humans("Ann", "Bob", "Cy"), [350, 120, 90], [True, False, False])
    game = rated_game(row)
    assert game is not None
    assert [(s.name, s.place) for s in game.seats] == [("Bob", 1), ("Cy", 2), ("Ann", 3)]


def test_ai_levels_are_rated_programs_are_not() -> None:
    seats = [
        SeatRow(0, 100, "Ann"),
        SeatRow(1, None, "AI", Level.HARD),
        SeatRow(2, -1, "Bot"),  # a program's pseudo user
        SeatRow(3, None, "AI 2", Level.HARD),
    ]
    game = rated_game(finished_row(seats, [200, 150, 400, 250]))
    assert game is not None
    # The program won but is not rated; the hard level is rated by its best seat (250, above Ann).
    assert [(s.player, s.name, s.place) for s in game.seats] == [
        ("ai:hard", "AI (hard)", 2),
        ("user:100", "Ann", 3),
    ]


def test_games_that_rate_nobody() -> None:
    assert rated_game(finished_row(humans("Ann", "Bob"), [10, 5], rated=False)) is None
    program = [SeatRow(0, 100, "Ann"), SeatRow(1, -1, "Bot")]
    assert rated_game(finished_row(program, [10, 5])) is None  # one rated player only
    broken = finished_row(humans("Ann", "Bob"), [10, 5])
    assert rated_game(replace(broken, state={"schema": 99})) is None  # a state that cannot be read


def test_games_saved_before_ratings_are_rated() -> None:
    data = OPTIONS.to_dict()
    assert data["rated"] is True
    del data["rated"]
    assert ScrabbleOptions.from_dict(data).rated is True
    assert ScrabbleOptions.from_dict({**data, "rated": False}).rated is False
