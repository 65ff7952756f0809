"""Ratings in the service's answers: the guild's leaderboard by conservative rating, and a player's stats
with their rating, rank, record against each opponent and AI level, and a rating chart.

The numbers come from the store (:mod:`bot.host.store.games` keeps them, :mod:`bot.host.rating_model` says how
they move); the chart comes from the service's renderer if it draws one (:class:`RatingChartRenderer`:
:class:`bot.games.scrabble.images.renderer.PngRenderer` does; the terminal's text renderer does not, and stats come without). With the guild's ratings feature off, the answers are those of before ratings: wins and
average score, no rating line (the ratings are still computed, so turning the feature back on shows
them up to date).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Final, Protocol, runtime_checkable

from bot.games.scrabble import text
from bot.host.messages import Attachment, Message, mention
from bot.host.protocols import Renderer
from bot.host.rating_model import (
    INITIAL,
    PROVISIONAL_GAMES,
    PlayerRating,
    Rating,
    Record,
    human_key,
    user_of,
)
from bot.host.seats import shown
from bot.host.store.games import StatsRow, Store

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


async def leaderboard_message(store: Store, guild_id: int, limit: int, *, show_ratings: bool) -> Message:
    """The guild's leaderboard (private): by conservative rating, people and AI levels alike; with
    ``show_ratings`` off, or before any rated game, most wins then best average score."""
    players = ranked(await store.ratings(guild_id)) if show_ratings else []
    if not players:
        return Message(text.leaderboard_text(await store.leaderboard(guild_id, limit)), private=True)
    stats = {}
    for player in players[:limit]:
        user_id = user_of(player.player)
        row = None if user_id is None else await store.stats(guild_id, user_id)
        if row is not None:
            stats[row.user_id] = row
    return Message(leaderboard_text(players, stats, limit), private=True)


async def stats_message(
    store: Store, renderer: Renderer, guild_id: int, user_id: int, *, show_ratings: bool
) -> Message:
    """``user_id``'s stats in the guild (private): games, wins, average score and best move; with
    ``show_ratings``, their rating, rank, provisional or not, record against each opponent and AI
    level, and (if ``renderer`` draws one) their rating after each rated game as a chart."""
    row = await store.stats(guild_id, user_id)
    if row is None:
        return Message(f"{mention(user_id)} has not finished a game in this server yet.", private=True)
    lines = [text.stats_text(row)]
    if not show_ratings:
        return Message(lines[0], private=True)
    key = human_key(user_id)
    players = ranked(await store.ratings(guild_id))
    rank = next((rank for rank, player in enumerate(players, 1) if player.player == key), None)
    if rank is None:
        lines.append("Not rated yet: none of their finished games here was rated.")
        return Message("\n".join(lines), private=True)
    player = players[rank - 1]
    lines.append(rating_line(player, rank, len(players)))
    lines += record_lines(await store.records(guild_id, key))
    if not isinstance(renderer, RatingChartRenderer):
        return Message("\n".join(lines), private=True)
    history = [INITIAL, *(point.rating for point in await store.rating_history(guild_id, key))]
    chart = await asyncio.to_thread(renderer.rating_chart, player.name, history)
    return Message("\n".join(lines), (Attachment("rating.png", chart),), private=True)
