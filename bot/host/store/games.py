"""The games: one row type for every kind of game (:class:`~bot.host.store.rows.GameRow`), its seats, the
append-only event log, the outbox of announcements and the players' stats.

A channel has at most one open game whatever its kind: :meth:`Games.create_game` refuses another with
:class:`~bot.host.store.rows.ChannelTakenError`, which names the kind of the game there (the one place
that rule lives). A game that finishes is rated in the same transaction (:mod:`bot.host.store.ratings`).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any, Final, TypeVar

from bot.host.rating_model import RatedSeat
from bot.host.store.backends import Connection
from bot.host.store.opening import StoreBase
from bot.host.store.ratings import rate_finished, result_json, result_of
from bot.host.store.reading import checked, rows_by_id
from bot.host.store.rows import (
    INT64_MAX,
    INT64_MIN,
    ChannelTakenError,
    GameRow,
    GameStatus,
    IntegerRangeError,
    LogEntry,
    OutboxEntry,
    SeatRow,
    StatsDelta,
    StatsRow,
    json_object,
)

logger = logging.getLogger("bot.host.store")

_T = TypeVar("_T")

_OPEN: Final = "status IN ('lobby', 'active') AND quarantined IS NULL"


class Games(StoreBase):
    """The store's games, their log, outbox and stats."""

    # Writing ------------------------------------------------------------------------------------

    async def create_game(self, row: GameRow, log: Sequence[LogEntry]) -> GameRow:
        """Insert a new game (``row.id`` is ignored) with its seats and log entries; return it with
        its id.

        Raises:
            ChannelTakenError: the channel already has an open game, of any kind (nothing is written).
            IntegerRangeError: a number does not fit SQLite (nothing is written).
            ForeignShardError: the guild is another process's (nothing is written).
        """
        self._check_owned(row.guild_id)
        _check_integers(row, log, ())
        return replace(row, id=await self._write(lambda db: _insert_game(db, row, log)))

    async def save(
        self,
        row: GameRow,
        log: Sequence[LogEntry],
        stats: Iterable[StatsDelta] = (),
        outbox: Mapping[str, Any] | None = None,
    ) -> int | None:
        """Write ``row`` over the stored game of its id (status, state, timer, seats, result), append
        ``log``, add ``stats``, rate the game if ``row`` finishes it (see
        :mod:`bot.host.store.ratings`) and queue the announcement ``outbox`` (see :meth:`pending_outbox`),
        in one transaction. Returns the queued announcement's id.

        Raises:
            KeyError: no game has that id (nothing is written).
            IntegerRangeError: a number does not fit SQLite (nothing is written).
            sqlite3.Error: the write failed (nothing is written).
        """
        deltas = list(stats)
        _check_integers(row, log, deltas)
        return await self._write(lambda db: _save_game(db, row, log, deltas, outbox))

    async def mark_posted(self, entry_id: int, at: float) -> None:
        """Mark the queued announcement ``entry_id`` posted at ``at``: its channel message went out.

        Raises:
            sqlite3.Error: the write failed.
        """
        await self._write(
            lambda db: db.execute("UPDATE outbox SET posted_at = ? WHERE id = ?", (at, entry_id))
        )

    async def mark_sent(self, entry_id: int, at: float) -> None:
        """Mark the queued announcement ``entry_id`` delivered at ``at``.

        Raises:
            sqlite3.Error: the write failed.
        """
        await self._write(lambda db: db.execute("UPDATE outbox SET sent_at = ? WHERE id = ?", (at, entry_id)))

    async def quarantine(self, game_id: int, reason: str) -> None:
        """Set game ``game_id`` aside: it is never loaded again and no longer holds its channel; its
        row is otherwise left as it is. ``reason`` (capped) is stored with it.

        Raises:
            sqlite3.Error: the write failed.
        """
        async with self._transaction():
            await self._db.execute("UPDATE games SET quarantined = ? WHERE id = ?", (reason[:500], game_id))

    async def set_results(self, results: Mapping[int, Sequence[RatedSeat]]) -> None:
        """Store the results of finished games (game id: who it rates, in which places) that had none
        (see :meth:`finished_without_result`); :meth:`check_ratings` then rates them.

        Raises:
            sqlite3.Error: the write failed (nothing changed).
        """
        rows = [(result_json(seats), game_id) for game_id, seats in results.items()]

        def write(db: Connection) -> None:
            db.executemany("UPDATE games SET result = ? WHERE id = ? AND result IS NULL", rows)

        await self._write(write)

    # Reading ------------------------------------------------------------------------------------

    async def open_games(self) -> list[GameRow]:
        """Every game in the lobby or being played, of every kind, by id, except quarantined ones and
        those of other processes' shards (:meth:`owns`). A game whose row cannot be read (broken JSON,
        missing seats) is quarantined (see :meth:`quarantine`) and logged, and the others are returned."""
        async with self._lock:
            games, broken = await self._run(lambda db: _read_rows(db, f"WHERE {_OPEN} ORDER BY id", ()))
        for game_id, reason in broken:
            logger.error("game %d cannot be read (%s): quarantined", game_id, reason)
            await self.quarantine(game_id, reason)
        return [game for game in games if self.owns(game.guild_id)]

    async def finished_without_result(self) -> list[GameRow]:
        """The finished games whose result is not stored (a database from before results: see
        :meth:`set_results`), by id; those whose row cannot be read are left out (logged)."""
        async with self._lock:
            games, broken = await self._run(
                lambda db: _read_rows(db, "WHERE status = 'finished' AND result IS NULL ORDER BY id", ())
            )
        for game_id, reason in broken:
            logger.error("game %d cannot be read (%s): not rated", game_id, reason)
        return games

    async def pending_outbox(self) -> list[OutboxEntry]:
        """The announcements of the (owned, see :meth:`owns`) games not marked sent, oldest first. One
        whose data cannot be decoded is logged and has none (its game's plugin cannot read it)."""
        async with self._lock:
            rows, broken = await self._run(_pending_outbox)
        for entry_id, reason in broken.items():
            logger.error("announcement %d cannot be read (%s)", entry_id, reason)
        return [entry for entry, guild_id in rows if self.owns(guild_id)]

    async def game(self, game_id: int) -> GameRow | None:
        """The game of that id, if any.

        Raises:
            ValueError: its row cannot be read.
        """
        rows = await self._games("WHERE id = ?", (game_id,))
        return rows[0] if rows else None

    async def last_finished_game(self, channel_id: int, kind: str) -> GameRow | None:
        """The game of ``kind`` that ended last in ``channel_id`` (finished, not cancelled), if any.

        Raises:
            ValueError: its row cannot be read.
        """
        rows = await self._games(
            "WHERE channel_id = ? AND status = 'finished' AND kind = ? ORDER BY id DESC LIMIT 1",
            (channel_id, kind),
        )
        return rows[0] if rows else None

    async def finished_games(self, guild_id: int, kind: str, limit: int) -> list[GameRow]:
        """The guild's last ``limit`` finished games of ``kind``, newest first.

        Raises:
            ValueError: a row cannot be read.
        """
        return await self._games(
            "WHERE guild_id = ? AND status = 'finished' AND state IS NOT NULL AND kind = ? "
            "ORDER BY id DESC LIMIT ?",
            (guild_id, kind, limit),
        )

    async def log(self, game_id: int) -> list[LogEntry]:
        """The event log of a game, oldest first."""
        async with self._lock:
            rows = await self._db.fetchall(
                "SELECT kind, seat, data, at FROM events WHERE game_id = ? ORDER BY id", (game_id,)
            )
        return [LogEntry(kind, seat, json.loads(data), at) for kind, seat, data, at in rows]

    async def stats(self, guild_id: int, kind: str, user_id: int) -> StatsRow | None:
        """A player's stats of ``kind`` games in a guild, if they finished one there."""
        rows = await self._stats("WHERE guild_id = ? AND kind = ? AND user_id = ?", (guild_id, kind, user_id))
        return rows[0] if rows else None

    async def leaderboard(self, guild_id: int, kind: str, limit: int) -> list[StatsRow]:
        """The guild's best ``limit`` players of ``kind``: most wins, then best average score."""
        return await self._stats(
            "WHERE guild_id = ? AND kind = ? AND games > 0 "
            "ORDER BY wins DESC, CAST(total_score AS DOUBLE PRECISION) / games DESC, user_id LIMIT ?",
            (guild_id, kind, limit),
        )

    async def _games(self, where: str, params: tuple[object, ...]) -> list[GameRow]:
        """The games ``where`` selects.

        Raises:
            ValueError: a selected row cannot be read.
        """
        async with self._lock:
            games, broken = await self._run(lambda db: _read_rows(db, where, params))
        if broken:
            game_id, reason = broken[0]
            raise ValueError(f"game {game_id} cannot be read: {reason}")
        return games

    async def _stats(self, where: str, params: tuple[object, ...]) -> list[StatsRow]:
        async with self._lock:
            rows = await self._db.fetchall(
                "SELECT user_id, name, games, wins, draws, total_score, best_score, best_move "
                f"FROM stats {where}",
                params,
            )
        return [StatsRow(*row) for row in rows]


_GAME_COLUMNS: Final = (
    "id, kind, guild_id, channel_id, creator_id, status, options, seed, state, deadline, reminded, "
    "created_at, updated_at, format, result"
)


def _read_rows(
    db: Connection, where: str, params: tuple[object, ...]
) -> tuple[list[GameRow], list[tuple[int, str]]]:
    """The rows of ``games`` that ``where`` selects, with their seats, in its order, and the ids of those
    that cannot be read with the reason: text that is not UTF-8 (see :mod:`bot.host.store.reading`),
    a column of the wrong type, broken JSON, missing seats. One such row stops no other."""
    ids = [int(game_id) for (game_id,) in db.execute(f"SELECT id FROM games {where}", params).fetchall()]
    rows, broken = rows_by_id(db, f"SELECT {_GAME_COLUMNS} FROM games WHERE id IN ({{ids}})", ids)
    seat_rows, broken_seats = rows_by_id(
        db,
        "SELECT game_id, seat, user_id, name, ai_level, hints_used, timeouts FROM seats "
        "WHERE game_id IN ({ids}) ORDER BY game_id, seat",
        ids,
    )
    broken.update(broken_seats)
    row_of = {int(row[0]): row for row in rows}
    seats_of: dict[int, list[tuple[Any, ...]]] = {}
    for seat in seat_rows:
        seats_of.setdefault(int(seat[0]), []).append(seat[1:])
    games = []
    unreadable = []
    for game_id in ids:
        if game_id in broken:
            unreadable.append((game_id, broken[game_id]))
            continue
        try:
            seats = tuple(_seat_row(seat) for seat in seats_of.get(game_id, ()))
            games.append(_game_row(row_of[game_id], seats))
        except (ValueError, KeyError, TypeError) as error:
            unreadable.append((game_id, f"{type(error).__name__}: {error}"[:200]))
    return games, unreadable


def _seat_row(columns: Sequence[Any]) -> SeatRow:
    """A seat from its columns (seat, user_id, name, ai_level, hints_used, timeouts).

    Raises:
        TypeError: a column of the wrong type.
    """
    seat, user_id, name, ai_level, hints_used, timeouts = columns
    return SeatRow(
        seat=checked("seats.seat", seat, int),
        user_id=checked("seats.user_id", user_id, int, type(None)),
        name=checked("seats.name", name, str),
        ai_level=checked("seats.ai_level", ai_level, str, type(None)),
        hints_used=checked("seats.hints_used", hints_used, int),
        timeouts=checked("seats.timeouts", timeouts, int),
    )


def _game_row(row: Sequence[Any], seats: tuple[SeatRow, ...]) -> GameRow:
    """A game from its columns (:data:`_GAME_COLUMNS`) and seats.

    Raises:
        ValueError, KeyError, TypeError: a column of the wrong type, broken JSON, missing or
            misnumbered seats.
    """
    if [seat.seat for seat in seats] != list(range(len(seats))) or not seats:
        raise ValueError(f"seats {[seat.seat for seat in seats]} are not numbered 0, 1, 2...")
    options = json.loads(checked("options", row[6], str))
    state_text = checked("state", row[8], str, type(None))
    state = None if state_text is None else json.loads(state_text)
    if not isinstance(options, dict) or (state is not None and not isinstance(state, dict)):
        raise TypeError("the options or the state is not a JSON object")
    return GameRow(
        id=row[0],
        kind=checked("kind", row[1], str),
        guild_id=checked("guild_id", row[2], int),
        channel_id=checked("channel_id", row[3], int),
        creator_id=checked("creator_id", row[4], int),
        status=GameStatus(checked("status", row[5], str)),
        options=options,
        seed=checked("seed", row[7], int),
        state=state,
        seats=seats,
        deadline=checked("deadline", row[9], float, type(None)),
        reminded=bool(checked("reminded", row[10], int)),
        created_at=checked("created_at", row[11], float),
        updated_at=checked("updated_at", row[12], float),
        format=checked("format", row[13], int),
        result=result_of(checked("result", row[14], str, type(None))),
    )


def _pending_outbox(db: Connection) -> tuple[list[tuple[OutboxEntry, int]], dict[int, str]]:
    """The unsent announcements with their games' guilds, and those whose data cannot be decoded with
    the reason (their data is empty)."""
    rows = db.execute(
        "SELECT outbox.id, game_id, posted_at IS NOT NULL, guild_id FROM outbox "
        "JOIN games ON games.id = outbox.game_id WHERE sent_at IS NULL ORDER BY outbox.id"
    ).fetchall()
    texts, broken = rows_by_id(
        db, "SELECT id, data FROM outbox WHERE id IN ({ids})", [row[0] for row in rows]
    )
    data = dict(texts)
    entries = []
    for entry_id, game_id, posted, guild_id in rows:
        text = data.get(entry_id)
        entry = OutboxEntry(
            entry_id, game_id, json_object(text) if isinstance(text, str) else {}, bool(posted)
        )
        entries.append((entry, guild_id))
    return entries, broken


def _insert_game(db: Connection, row: GameRow, log: Sequence[LogEntry]) -> int:
    """Insert the game ``row`` with its seats and log (in a transaction); its new id.

    Raises:
        ChannelTakenError: the channel has an open game, of any kind (the one place this is checked).
    """
    taken = db.execute(
        f"SELECT kind FROM games WHERE channel_id = ? AND {_OPEN}", (row.channel_id,)
    ).fetchone()
    if taken is not None:
        raise ChannelTakenError(row.channel_id, str(taken[0]))
    cursor = db.execute(
        "INSERT INTO games (kind, guild_id, channel_id, creator_id, status, options, seed, state, "
        "deadline, reminded, created_at, updated_at, format, result) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
        (
            row.kind,
            row.guild_id,
            row.channel_id,
            row.creator_id,
            row.status.value,
            json.dumps(row.options),
            row.seed,
            _json_or_none(row.state),
            row.deadline,
            int(row.reminded),
            row.created_at,
            row.updated_at,
            row.format,
            result_json(row.result),
        ),
    )
    game_id = int(cursor.fetchall()[0][0])
    _write_seats(db, game_id, row.seats)
    _append(db, game_id, log)
    return game_id


def _save_game(
    db: Connection,
    row: GameRow,
    log: Sequence[LogEntry],
    stats: Sequence[StatsDelta],
    outbox: Mapping[str, Any] | None,
) -> int | None:
    """Write the body of :meth:`Games.save` (in a transaction): the game ``row``, its seats, ``log``,
    ``stats`` and ``outbox``, then its rating if ``row`` finishes it; the queued announcement's id.

    Raises:
        KeyError: no game has that id.
    """
    cursor = db.execute(
        "UPDATE games SET status = ?, state = ?, deadline = ?, reminded = ?, updated_at = ?, format = ?, "
        "result = ? WHERE id = ?",
        (
            row.status.value,
            _json_or_none(row.state),
            row.deadline,
            int(row.reminded),
            row.updated_at,
            row.format,
            result_json(row.result),
            row.id,
        ),
    )
    if cursor.rowcount != 1:
        raise KeyError(f"no game {row.id}")
    db.execute("DELETE FROM seats WHERE game_id = ?", (row.id,))
    _write_seats(db, row.id, row.seats)
    _append(db, row.id, log)
    for delta in stats:
        _add_stats(db, delta)
    if row.status is GameStatus.FINISHED:
        rate_finished(db, row)
    if outbox is None:
        return None
    cursor = db.execute(
        "INSERT INTO outbox (game_id, data, created_at) VALUES (?, ?, ?) RETURNING id",
        (row.id, json.dumps(outbox), row.updated_at),
    )
    return int(cursor.fetchall()[0][0])


def _write_seats(db: Connection, game_id: int, seats: Sequence[SeatRow]) -> None:
    db.executemany(
        "INSERT INTO seats (game_id, seat, user_id, name, ai_level, hints_used, timeouts) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        [(game_id, s.seat, s.user_id, s.name, s.ai_level, s.hints_used, s.timeouts) for s in seats],
    )


def _append(db: Connection, game_id: int, log: Sequence[LogEntry]) -> None:
    db.executemany(
        "INSERT INTO events (game_id, at, kind, seat, data) VALUES (?, ?, ?, ?, ?)",
        [(game_id, entry.at, entry.kind, entry.seat, json.dumps(entry.data)) for entry in log],
    )


def _add_stats(db: Connection, delta: StatsDelta) -> None:
    db.execute(
        "INSERT INTO stats (guild_id, kind, user_id, name, games, wins, draws, total_score, best_score, "
        "best_move) VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?, ?) "
        "ON CONFLICT (guild_id, kind, user_id) DO UPDATE SET "
        "name = excluded.name, games = stats.games + 1, wins = stats.wins + excluded.wins, "
        "draws = stats.draws + excluded.draws, total_score = stats.total_score + excluded.total_score, "
        "best_move = CASE WHEN stats.best_score IS NULL OR excluded.best_score > stats.best_score "
        "THEN excluded.best_move ELSE stats.best_move END, "
        "best_score = CASE WHEN stats.best_score IS NULL OR excluded.best_score > stats.best_score "
        "THEN excluded.best_score ELSE stats.best_score END",
        (
            delta.guild_id,
            delta.kind,
            delta.user_id,
            delta.name,
            int(delta.won),
            int(delta.drawn),
            delta.score,
            delta.best_score,
            delta.best_move,
        ),
    )


def _json_or_none(value: Mapping[str, Any] | None) -> str | None:
    return None if value is None else json.dumps(value)


def _check_integers(row: GameRow, log: Sequence[LogEntry], stats: Sequence[StatsDelta]) -> None:
    """Refuse a number that SQLite cannot store (64 bits), before anything is written.

    Raises:
        IntegerRangeError: naming the first one.
    """
    numbers: list[tuple[str, int | None]] = [
        ("game id", row.id),
        ("server id", row.guild_id),
        ("channel id", row.channel_id),
        ("creator id", row.creator_id),
        ("seed", row.seed),
    ]
    for seat in row.seats:
        numbers += [("seat", seat.seat), ("user id", seat.user_id), ("hint count", seat.hints_used)]
        numbers.append(("timeout count", seat.timeouts))
    numbers += [("seat", entry.seat) for entry in log]
    for delta in stats:
        numbers += [("server id", delta.guild_id), ("user id", delta.user_id)]
        numbers += [("score", delta.score), ("score", delta.best_score)]
    for what, value in numbers:
        if value is not None and not INT64_MIN <= value <= INT64_MAX:
            raise IntegerRangeError(what)
