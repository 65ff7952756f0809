"""The rating model: how ratings move after a finished game, whatever the game.

Ratings use OpenSkill's Plackett-Luce model (PyPI ``openskill``), which rates free-for-all games of any
number of players (Glicko-2 only rates pairs). Each rated player of a guild has a rating: ``mu`` (the
estimate of their skill) and ``sigma`` (its uncertainty). Players are ranked by the conservative
rating ``mu - 3 * sigma`` (:attr:`Rating.ordinal`): their skill is very likely above it, so a player
with few games ranks low until their results say otherwise.

A game rates its human seats (``user:<id>``) and its AI seats, one rating per AI level per guild and
kind of game (``ai:<level>``); programs (bot clients of the web board) are not rated. Who a finished
game rates, and in which places, is its plugin's to say (:meth:`bot.host.plugin.GamePlugin.result`):
the host stores it with the game, and the ratings are derived from those results alone.

Pure: no SQL, no asyncio, no game. The store (:mod:`bot.host.store.ratings`) keeps the ratings and
applies the games in finish order with :func:`rate`; the same calls in the same order give
bit-identical numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from openskill.models import PlackettLuce

_MODEL: Final = PlackettLuce()
"""OpenSkill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300."""

MODEL_VERSION: Final = "openskill plackett-luce mu=25 sigma=25/3 beta=25/6 tau=25/300; places v1"
"""Names the model: the stored ratings are rebuilt when it changes."""

PROVISIONAL_GAMES: Final = 5
"""A player's rating is provisional until they have played this many rated games in the guild."""

CONSERVATIVE_SIGMAS: Final = 3
"""The conservative rating is ``mu`` minus this many ``sigma``."""

_HUMAN: Final = "user:"
_AI: Final = "ai:"


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's skill estimate ``mu`` and its uncertainty ``sigma``."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative rating the leaderboard ranks by: ``mu - 3 * sigma``."""
        return self.mu - CONSERVATIVE_SIGMAS * self.sigma


INITIAL: Final = Rating(_MODEL.mu, _MODEL.sigma)
"""Every player's rating before their first rated game (conservative rating 0)."""


@dataclass(frozen=True, slots=True)
class RatedSeat:
    """A rated player of a game: its key (:func:`human_key`, :func:`ai_key`), name and place (1 first)."""

    player: str
    name: str
    place: int


@dataclass(frozen=True, slots=True)
class RatedGame:
    """What a finished rated game gives the ratings of its guild."""

    game_id: int
    guild_id: int
    finished_at: float
    seats: tuple[RatedSeat, ...]
    kind: str
    """The game's kind (its plugin's name): each kind has its own ratings."""


def human_key(user_id: int) -> str:
    """The rating key of a person."""
    return f"{_HUMAN}{user_id}"


def ai_key(level: str) -> str:
    """The rating key of an AI level."""
    return f"{_AI}{level}"


def user_of(player: str) -> int | None:
    """The user id of a person's rating key; ``None`` for an AI level."""
    return int(player.removeprefix(_HUMAN)) if player.startswith(_HUMAN) else None


def ai_name(level: str) -> str:
    """How an AI level is named in ratings."""
    return f"AI ({level})"


def is_provisional(games: int) -> bool:
    """Whether a rating after ``games`` rated games is still provisional (:data:`PROVISIONAL_GAMES`)."""
    return games < PROVISIONAL_GAMES


def rate(priors: Sequence[Rating], places: Sequence[int]) -> list[Rating]:
    """The ratings of a game's players after it: ``priors[i]`` took place ``places[i]`` (1 first; equal
    places are ties).

    Raises:
        ValueError: fewer than two players, or not as many places as players.
    """
    if len(priors) < 2 or len(priors) != len(places):
        raise ValueError(f"{len(priors)} ratings and {len(places)} places: a game rates two or more")
    teams = [[_MODEL.rating(mu=prior.mu, sigma=prior.sigma)] for prior in priors]
    after = _MODEL.rate(teams, ranks=[float(place) for place in places])
    return [Rating(team[0].mu, team[0].sigma) for team in after]


@dataclass(frozen=True, slots=True)
class SeatResult:
    """A rated player's rating after a game, and the number of rated games it has played then."""

    seat: RatedSeat
    rating: Rating
    games: int


def rate_game(game: RatedGame, current: dict[str, tuple[Rating, int]]) -> list[SeatResult]:
    """Rate ``game`` from ``current``, its guild's ratings before it (by player key, with their rated
    games; a player not in it is new: :data:`INITIAL`, 0 games), which it updates.

    Raises:
        ValueError: as :func:`rate`.
    """
    priors = [current.get(seat.player, (INITIAL, 0)) for seat in game.seats]
    after = rate([prior for prior, _ in priors], [seat.place for seat in game.seats])
    results = [
        SeatResult(seat, rating, games + 1)
        for seat, rating, (_, games) in zip(game.seats, after, priors, strict=True)
    ]
    current.update((result.seat.player, (result.rating, result.games)) for result in results)
    return results


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """A rated player of a guild (a person or an AI level) as stored: its rating after ``games``
    rated games."""

    player: str
    name: str
    rating: Rating
    games: int

    @property
    def provisional(self) -> bool:
        """Whether the rating is still provisional (see :data:`PROVISIONAL_GAMES`)."""
        return is_provisional(self.games)


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A player's rating after one of their rated games."""

    game_id: int
    finished_at: float
    rating: Rating


@dataclass(frozen=True, slots=True)
class Record:
    """A player's results against one opponent over their rated games together: won (placed above
    it), lost (below) and drawn (the same place)."""

    player: str
    name: str
    wins: int
    losses: int
    draws: int
