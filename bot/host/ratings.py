"""Ratings in the games' answers, the same for every game: the players ranked by conservative rating,
a player's rating line, their record against each opponent and AI level, and the leaderboard by rating.

The numbers come from the store (:mod:`bot.host.store.ratings` keeps them, :mod:`bot.host.rating_model`
says how they move); a rating chart comes from a game's renderer if it draws one
(:class:`RatingChartRenderer`). Each game words its own stats around these lines.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final, Protocol, runtime_checkable

from bot.host.rating_model import PROVISIONAL_GAMES, PlayerRating, Rating, Record, user_of
from bot.host.seats import shown
from bot.host.store import StatsRow

RECORD_LINES: Final = 12
"""The most opponents the record of ``/scrabble stats`` lists (those met most often)."""

RATING_RULE: Final = "rating = μ − 3σ: the skill estimate μ less three times its uncertainty σ"
"""How the leaderboard ranks, as its heading says it."""


@runtime_checkable
class RatingChartRenderer(Protocol):
    """A renderer that also draws rating charts."""

    def rating_chart(self, name: str, ratings: Sequence[Rating]) -> bytes:
        """``name``'s rating before their first rated game and after each one, as a PNG chart."""
        ...


def ranked(ratings: Sequence[PlayerRating]) -> list[PlayerRating]:
    """The guild's rated players from first to last: highest conservative rating, then most rated games,
    then by key."""
    return sorted(ratings, key=lambda p: (-p.rating.ordinal, -p.games, p.player))


def rating_line(player: PlayerRating, rank: int, of: int) -> str:
    """A player's rating, rank among the guild's rated players, and whether it is provisional."""
    rating = player.rating
    games = f"{player.games} rated game{'s' if player.games != 1 else ''}"
    standing = (
        f"provisional ({player.games} of {PROVISIONAL_GAMES} rated games)" if player.provisional else games
    )
    return (
        f"Rating {rating.ordinal:.1f} (μ {rating.mu:.2f}, σ {rating.sigma:.2f}; {RATING_RULE}), "
        f"rank {rank} of {of} in this server, {standing}."
    )


def record_lines(records: Sequence[Record]) -> list[str]:
    """The won-lost-drawn record against each opponent, those met most often first."""
    if not records:
        return []
    lines = ["Record in rated games (won-lost-drawn):"]
    lines += [f"vs {shown(r.name)}: {r.wins}-{r.losses}-{r.draws}" for r in records[:RECORD_LINES]]
    if len(records) > RECORD_LINES:
        lines.append(f"and {len(records) - RECORD_LINES} more")
    return lines


def leaderboard_text(players: Sequence[PlayerRating], stats: Mapping[int, StatsRow], limit: int) -> str:
    """The leaderboard by conservative rating: the best ``limit`` of the ranked ``players`` (people
    with their wins and average score from ``stats``, by user id), provisional ones marked."""
    lines = [f"Leaderboard ({RATING_RULE}):"]
    for rank, player in enumerate(players[:limit], 1):
        games = f"{player.games} rated game{'s' if player.games != 1 else ''}"
        line = f"{rank}. {shown(player.name)}: {player.rating.ordinal:.1f} ({games}"
        line += ", provisional)" if player.provisional else ")"
        user_id = user_of(player.player)
        row = None if user_id is None else stats.get(user_id)
        if row is not None:
            line += f", {row.wins} win{'s' if row.wins != 1 else ''}, average {row.average:.1f}"
        lines.append(line)
    lines.append(f"Provisional: fewer than {PROVISIONAL_GAMES} rated games in this server.")
    return "\n".join(lines)
