"""Post-game analyses and daily puzzles: what a game's tools computed, stored as their JSON so that asking
again is instant (an analysis per finished game; a puzzle per guild and day, with each user's answer)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from bot.host.store.opening import StoreBase
from bot.host.store.rows import PuzzleAnswer, json_object


class PuzzlesAndAnalyses(StoreBase):
    """The store's analyses and puzzles."""

    async def save_analysis(self, game_id: int, level: str, data: Mapping[str, Any], at: float) -> None:
        """Store the analysis of game ``game_id`` (JSON ``data``), replacing any earlier one."""
        async with self._transaction():
            await self._db.execute(
                "INSERT INTO analyses (game_id, level, data, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (game_id) "
                "DO UPDATE SET level = excluded.level, data = excluded.data, created_at = excluded.created_at",
                (game_id, level, json.dumps(data), at),
            )

    async def analysis(self, game_id: int) -> Mapping[str, Any] | None:
        """The stored analysis of game ``game_id`` (its JSON data), if any."""
        async with self._lock:
            row = await self._db.fetchone("SELECT data FROM analyses WHERE game_id = ?", (game_id,))
        return None if row is None else json_object(row[0])

    async def puzzle(self, guild_id: int, day: str) -> Mapping[str, Any] | None:
        """The guild's puzzle of ``day`` (its JSON data), if it was made."""
        async with self._lock:
            row = await self._db.fetchone(
                "SELECT data FROM puzzles WHERE guild_id = ? AND day = ?", (guild_id, day)
            )
        return None if row is None else json_object(row[0])

    async def add_puzzle(
        self, guild_id: int, day: str, data: Mapping[str, Any], at: float
    ) -> Mapping[str, Any]:
        """Store the guild's puzzle of ``day`` unless one is stored already; returns the stored one."""
        async with self._transaction():
            await self._db.execute(
                "INSERT INTO puzzles (guild_id, day, data, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (guild_id, day, json.dumps(data), at),
            )
            row = await self._db.fetchone(
                "SELECT data FROM puzzles WHERE guild_id = ? AND day = ?", (guild_id, day)
            )
        assert row is not None  # inserted or already there, in this transaction
        return json_object(row[0])

    async def add_puzzle_answer(self, answer: PuzzleAnswer) -> bool:
        """Record ``answer``; False (and nothing written) when that user already answered that puzzle."""
        async with self._transaction():
            changed = await self._db.execute(
                "INSERT INTO puzzle_answers (guild_id, day, user_id, name, answer, points, solved, at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (
                    answer.guild_id,
                    answer.day,
                    answer.user_id,
                    answer.name,
                    answer.answer,
                    answer.points,
                    int(answer.solved),
                    answer.at,
                ),
            )
            return changed == 1

    async def puzzle_answer(self, guild_id: int, day: str, user_id: int) -> PuzzleAnswer | None:
        """``user_id``'s answer to the guild's puzzle of ``day``, if any."""
        rows = await self._answers("WHERE guild_id = ? AND day = ? AND user_id = ?", (guild_id, day, user_id))
        return rows[0] if rows else None

    async def puzzle_answers(self, guild_id: int, user_id: int | None = None) -> list[PuzzleAnswer]:
        """The guild's puzzle answers (of ``user_id`` only, if given), oldest day first."""
        if user_id is None:
            return await self._answers("WHERE guild_id = ? ORDER BY day, at", (guild_id,))
        return await self._answers("WHERE guild_id = ? AND user_id = ? ORDER BY day", (guild_id, user_id))

    async def _answers(self, where: str, params: tuple[object, ...]) -> list[PuzzleAnswer]:
        async with self._lock:
            rows = await self._db.fetchall(
                f"SELECT guild_id, day, user_id, name, answer, points, solved, at FROM puzzle_answers {where}",
                params,
            )
        return [PuzzleAnswer(g, d, u, n, a, p, bool(s), t) for g, d, u, n, a, p, s, t in rows]
