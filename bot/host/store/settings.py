"""A guild's settings (the features it turned on or off: a feature it never set is on) and a person's
preferences (what they asked for, across guilds: a preference they never set is off)."""

from __future__ import annotations

from bot.host.store.opening import StoreBase


class GuildSettings(StoreBase):
    """The store's per-guild settings and per-person preferences."""

    async def features(self, guild_id: int) -> dict[str, bool]:
        """The features the guild turned on or off (a feature it never set is not in it)."""
        async with self._lock:
            rows = await self._db.fetchall(
                "SELECT feature, enabled FROM guild_features WHERE guild_id = ?", (guild_id,)
            )
        return {feature: bool(enabled) for feature, enabled in rows}

    async def set_feature(self, guild_id: int, feature: str, enabled: bool) -> None:
        """Turn ``feature`` on or off in the guild.

        Raises:
            sqlite3.Error: the write failed.
        """
        async with self._transaction():
            await self._db.execute(
                "INSERT INTO guild_features (guild_id, feature, enabled) VALUES (?, ?, ?) "
                "ON CONFLICT (guild_id, feature) DO UPDATE SET enabled = excluded.enabled",
                (guild_id, feature, int(enabled)),
            )

    async def preferences(self, user_id: int) -> dict[str, bool]:
        """The preferences ``user_id`` set on or off (one never set is not in it)."""
        async with self._lock:
            rows = await self._db.fetchall(
                "SELECT preference, enabled FROM user_preferences WHERE user_id = ?", (user_id,)
            )
        return {preference: bool(enabled) for preference, enabled in rows}

    async def set_preference(self, user_id: int, preference: str, enabled: bool) -> None:
        """Set ``user_id``'s ``preference`` on or off.

        Raises:
            sqlite3.Error: the write failed.
        """
        async with self._transaction():
            await self._db.execute(
                "INSERT INTO user_preferences (user_id, preference, enabled) VALUES (?, ?, ?) "
                "ON CONFLICT (user_id, preference) DO UPDATE SET enabled = excluded.enabled",
                (user_id, preference, int(enabled)),
            )
