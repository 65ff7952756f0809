"""The ratings: derived data, computed from the results the finished games stored (see
:mod:`bot.host.rating_model`), one pool of ratings per guild and kind of game.

A game is rated in the transaction that finishes it (:func:`rate_finished`), after the last game rated
in its guild and kind in finish order; one that finished before that one (a clock set back) rebuilds the
guild's ratings instead. :meth:`Ratings.check_ratings` rebuilds every rating when they are not over the
stored results (another model, or results stored since, such as those an upgrade computed).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from typing import Any, Final

from bot.host.rating_model import (
    MODEL_VERSION,
    PlayerRating,
    RatedGame,
    RatedSeat,
    Rating,
    RatingPoint,
    Record,
    SeatResult,
    rate_game,
)
from bot.host.store.backends import Connection
from bot.host.store.opening import StoreBase
from bot.host.store.reading import checked, rows_by_id
from bot.host.store.rows import GameRow

logger = logging.getLogger("bot.host.store")

_UPSERT_RATING: Final = (
    "INSERT INTO ratings (guild_id, kind, player, name, mu, sigma, games) VALUES (?, ?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (guild_id, kind, player) DO UPDATE SET name = excluded.name, mu = excluded.mu, "
    "sigma = excluded.sigma, games = excluded.games"
)
_INSERT_HISTORY: Final = (
    "INSERT INTO rating_history (game_id, guild_id, kind, player, name, place, mu, sigma, finished_at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)


class Ratings(StoreBase):
    """The store's ratings: read, rebuilt, checked at start-up."""

    async def ratings(self, guild_id: int, kind: str) -> list[PlayerRating]:
        """Every rated player of the guild (people and AI levels) in games of ``kind``, by key."""
        async with self._lock:
            rows = await self._db.fetchall(
                "SELECT player, name, mu, sigma, games FROM ratings WHERE guild_id = ? AND kind = ? "
                "ORDER BY player",
                (guild_id, kind),
            )
        return [
            PlayerRating(player, name, Rating(mu, sigma), games) for player, name, mu, sigma, games in rows
        ]

    async def rating_history(self, guild_id: int, player: str, kind: str) -> list[RatingPoint]:
        """``player``'s rating after each of their rated games of ``kind`` in the guild, in finish order."""
        async with self._lock:
            rows = await self._db.fetchall(
                "SELECT game_id, finished_at, mu, sigma FROM rating_history WHERE guild_id = ? AND kind = ? "
                "AND player = ? ORDER BY finished_at, game_id",
                (guild_id, kind, player),
            )
        return [RatingPoint(game_id, at, Rating(mu, sigma)) for game_id, at, mu, sigma in rows]

    async def records(self, guild_id: int, player: str, kind: str) -> list[Record]:
        """``player``'s won-lost-drawn record against each player they met in rated games of ``kind`` in
        the guild, most games together first (then by key)."""
        async with self._lock:
            rows = await self._db.fetchall(
                "SELECT other.player, MAX(rated.name), SUM(CASE WHEN me.place < other.place THEN 1 ELSE 0 END), "
                "SUM(CASE WHEN me.place > other.place THEN 1 ELSE 0 END), "
                "SUM(CASE WHEN me.place = other.place THEN 1 ELSE 0 END) "
                "FROM rating_history AS me JOIN rating_history AS other "
                "ON other.game_id = me.game_id AND other.player != me.player "
                "JOIN ratings AS rated ON rated.guild_id = other.guild_id AND rated.kind = other.kind "
                "AND rated.player = other.player "
                "WHERE me.guild_id = ? AND me.kind = ? AND me.player = ? "
                "GROUP BY other.player ORDER BY COUNT(*) DESC, other.player",
                (guild_id, kind, player),
            )
        return [Record(*row) for row in rows]

    async def rebuild_ratings(self, guild_id: int | None = None) -> int:
        """Recompute the ratings of ``guild_id`` (of every guild if ``None``) from its finished games'
        results in finish order, in one transaction; the numbers are those the games gave as they
        finished. Returns the number of games rated.

        Raises:
            sqlite3.Error: the write failed (nothing changed).
        """
        return await self._write(lambda db: rebuild_ratings(db, guild_id))

    async def check_ratings(self) -> None:
        """Rebuild every rating if they are out of date: computed by another model, or not over the
        results the database holds (a database from before ratings, or results stored since). Nothing
        to do in a database without ratings (migrations of another directory)."""
        async with self._lock:
            if not await self._db.has_table("rating_state"):
                return
            stored = await self._db.fetchone("SELECT model, finished, last_game FROM rating_state")
            marker = await self._run(_results_marker)
        if stored is not None and tuple(stored) == (MODEL_VERSION, *marker):
            return
        logger.info("the ratings are out of date: rebuilding them from %d finished games", marker[0])
        games = await self.rebuild_ratings()
        logger.info("ratings rebuilt from %d rated games", games)


def result_json(result: Sequence[RatedSeat] | None) -> str | None:
    """A game's result as stored (``None``: not known yet)."""
    if result is None:
        return None
    return json.dumps([{"player": s.player, "name": s.name, "place": s.place} for s in result])


def result_of(text: str | None) -> tuple[RatedSeat, ...] | None:
    """A game's result as :func:`result_json` stored it.

    Raises:
        ValueError, KeyError, TypeError: it is not one.
    """
    if text is None:
        return None
    seats: list[dict[str, Any]] = json.loads(text)
    return tuple(RatedSeat(str(s["player"]), str(s["name"]), int(s["place"])) for s in seats)


def rated(row: GameRow) -> RatedGame | None:
    """What the finished game ``row`` gives the ratings of its guild and kind: ``None`` if it rates
    fewer than two players (or its result is not known)."""
    if row.result is None or len(row.result) < 2:
        return None
    return RatedGame(row.id, row.guild_id, row.updated_at, row.result, row.kind)


def rate_finished(db: Connection, row: GameRow) -> None:
    """Rate the game ``row`` finishes (inside a transaction): after the guild's last rated game of its
    kind in finish order, or, if it finished before it (a clock set back), by rebuilding the guild's
    ratings. A game rated already is not rated again."""
    game = rated(row)
    done = db.execute("SELECT 1 FROM rating_history WHERE game_id = ? LIMIT 1", (row.id,)).fetchall()
    if game is not None and not done:
        last = db.execute(
            "SELECT finished_at, game_id FROM rating_history WHERE guild_id = ? AND kind = ? "
            "ORDER BY finished_at DESC, game_id DESC LIMIT 1",
            (row.guild_id, game.kind),
        ).fetchall()
        if not last or (game.finished_at, game.game_id) > tuple(last[0]):
            _apply_rated(db, game)
        else:
            rebuild_ratings(db, row.guild_id)
    _mark_ratings(db)


def _history_rows(game: RatedGame, results: Sequence[SeatResult]) -> list[tuple[object, ...]]:
    """The ``rating_history`` rows of a rated game."""
    return [
        (
            game.game_id,
            game.guild_id,
            game.kind,
            r.seat.player,
            r.seat.name,
            r.seat.place,
            r.rating.mu,
            r.rating.sigma,
            game.finished_at,
        )
        for r in results
    ]


def _apply_rated(db: Connection, game: RatedGame) -> None:
    """Rate ``game`` after every game rated before it in its guild (inside a transaction)."""
    current: dict[str, tuple[Rating, int]] = {}
    for seat in game.seats:
        stored = db.execute(
            "SELECT mu, sigma, games FROM ratings WHERE guild_id = ? AND kind = ? AND player = ?",
            (game.guild_id, game.kind, seat.player),
        ).fetchall()
        if stored:
            mu, sigma, games = stored[0]
            current[seat.player] = (Rating(mu, sigma), games)
    results = rate_game(game, current)
    db.executemany(
        _UPSERT_RATING,
        [
            (game.guild_id, game.kind, r.seat.player, r.seat.name, r.rating.mu, r.rating.sigma, r.games)
            for r in results
        ],
    )
    db.executemany(_INSERT_HISTORY, _history_rows(game, results))


def rebuild_ratings(db: Connection, guild_id: int | None) -> int:
    """Rate the finished games of ``guild_id`` (every guild: ``None``) again from scratch, in finish
    order (inside a transaction); the number of games rated. The games are replayed in memory and
    written at the end. A result that cannot be read is logged and rates nobody."""
    where, params = ("", ()) if guild_id is None else ("WHERE guild_id = ?", (guild_id,))
    db.execute(f"DELETE FROM ratings {where}", params)
    db.execute(f"DELETE FROM rating_history {where}", params)
    guild = "" if guild_id is None else "AND guild_id = ?"
    ids = [
        int(game_id)
        for (game_id,) in db.execute(
            f"SELECT id FROM games WHERE status = 'finished' AND result IS NOT NULL {guild}", params
        ).fetchall()
    ]
    rows, broken = rows_by_id(
        db, "SELECT id, guild_id, kind, updated_at, result FROM games WHERE id IN ({ids})", ids
    )
    for game_id, reason in broken.items():
        logger.error("game %d: its result cannot be read (%s): not rated", game_id, reason)
    to_rate: list[RatedGame] = []
    for game_id, guild, kind, finished_at, text in rows:
        try:
            seats = result_of(checked("result", text, str)) or ()
            game = RatedGame(
                game_id,
                checked("guild_id", guild, int),
                float(checked("updated_at", finished_at, float)),
                seats,
                checked("kind", kind, str),
            )
        except (ValueError, KeyError, TypeError) as error:
            logger.error("game %d: its result cannot be read (%s): not rated", game_id, error)
            continue
        if len(seats) >= 2:
            to_rate.append(game)
    to_rate.sort(key=lambda g: (g.finished_at, g.game_id))
    pools: dict[tuple[int, str], dict[str, tuple[Rating, int]]] = {}
    names: dict[tuple[int, str, str], str] = {}
    history: list[tuple[object, ...]] = []
    for game in to_rate:
        results = rate_game(game, pools.setdefault((game.guild_id, game.kind), {}))
        history += _history_rows(game, results)
        names.update(((game.guild_id, game.kind, r.seat.player), r.seat.name) for r in results)
    ratings = [
        (guild, kind, player, names[guild, kind, player], rating.mu, rating.sigma, played)
        for (guild, kind), current in pools.items()
        for player, (rating, played) in current.items()
    ]
    if history:
        db.executemany(_INSERT_HISTORY, history)
    if ratings:
        db.executemany(_UPSERT_RATING, ratings)
    _mark_ratings(db)
    return len(to_rate)


def _mark_ratings(db: Connection) -> None:
    """Record that the ratings are computed by this model over the results stored now."""
    finished, last_game = _results_marker(db)
    db.execute(
        "UPDATE rating_state SET model = ?, finished = ?, last_game = ?", (MODEL_VERSION, finished, last_game)
    )


def _results_marker(db: Connection) -> tuple[int, int | None]:
    """How many finished games have a result stored, and the last of them in finish order."""
    ((count, last_game),) = db.execute(
        "SELECT COUNT(*), (SELECT id FROM games WHERE status = 'finished' AND result IS NOT NULL "
        "ORDER BY updated_at DESC, id DESC LIMIT 1) FROM games WHERE status = 'finished' AND result IS NOT NULL"
    ).fetchall()
    return int(count), last_game
