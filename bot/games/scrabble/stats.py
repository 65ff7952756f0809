"""Scrabble's stats and leaderboard: a player's games, wins, average score and best move, with their
rating, rank, record and rating chart; the guild's best players.

With the guild's ratings feature off, the answers are those of before ratings: wins and average score,
no rating line (the ratings are still computed, so turning the feature back on shows them up to date).
The chart comes from the renderer if it draws one (:class:`~bot.host.ratings.RatingChartRenderer`:
:class:`bot.games.scrabble.images.renderer.PngRenderer` does; the terminal's text renderer does not,
and stats come without).
"""

from __future__ import annotations

import asyncio

from bot.games.scrabble import text
from bot.games.scrabble.kind import KIND
from bot.host.messages import Attachment, Message, mention
from bot.host.rating_model import INITIAL, human_key, user_of
from bot.host.ratings import RatingChartRenderer, leaderboard_text, ranked, rating_line, record_lines
from bot.host.store import Store


async def leaderboard_message(store: Store, guild_id: int, limit: int, *, show_ratings: bool) -> Message:
    """The guild's leaderboard (private): by conservative rating, people and AI levels alike; with
    ``show_ratings`` off, or before any rated game, most wins then best average score."""
    players = ranked(await store.ratings(guild_id, KIND)) if show_ratings else []
    if not players:
        return Message(text.leaderboard_text(await store.leaderboard(guild_id, KIND, limit)), private=True)
    stats = {}
    for player in players[:limit]:
        user_id = user_of(player.player)
        row = None if user_id is None else await store.stats(guild_id, KIND, user_id)
        if row is not None:
            stats[row.user_id] = row
    return Message(leaderboard_text(players, stats, limit), private=True)


async def stats_message(
    store: Store, renderer: object, guild_id: int, user_id: int, *, show_ratings: bool
) -> Message:
    """``user_id``'s stats in the guild (private): games, wins, average score and best move; with
    ``show_ratings``, their rating, rank, provisional or not, record against each opponent and AI
    level, and (if ``renderer`` draws one) their rating after each rated game as a chart."""
    row = await store.stats(guild_id, KIND, user_id)
    if row is None:
        return Message(f"{mention(user_id)} has not finished a game in this server yet.", private=True)
    lines = [text.stats_text(row)]
    if not show_ratings:
        return Message(lines[0], private=True)
    key = human_key(user_id)
    players = ranked(await store.ratings(guild_id, KIND))
    rank = next((rank for rank, player in enumerate(players, 1) if player.player == key), None)
    if rank is None:
        lines.append("Not rated yet: none of their finished games here was rated.")
        return Message("\n".join(lines), private=True)
    player = players[rank - 1]
    lines.append(rating_line(player, rank, len(players)))
    lines += record_lines(await store.records(guild_id, key, KIND))
    if not isinstance(renderer, RatingChartRenderer):
        return Message("\n".join(lines), private=True)
    history = [INITIAL, *(point.rating for point in await store.rating_history(guild_id, key, KIND))]
    chart = await asyncio.to_thread(renderer.rating_chart, player.name, history)
    return Message("\n".join(lines), (Attachment("rating.png", chart),), private=True)
