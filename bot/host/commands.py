"""What every game's commands share (:class:`GameCommands`): the host they run on, waiting for it, finding
a game by its id, and the guild's settings (its features, its ratings rebuilt)."""

from __future__ import annotations

import logging

from bot.host.features import Feature, feature_named, feature_off, features_text
from bot.host.messages import Message
from bot.host.runner import Host
from bot.host.storage import typed_storage_errors

logger = logging.getLogger("bot.host")


class GameCommands:
    """The base of a game's commands over ``host``."""

    def __init__(self, host: Host) -> None:
        self.host = host

    async def idle(self) -> None:
        """Wait until no AI turn or timer action is running and every queued delivery went out (see
        :meth:`bot.host.runner.Host.idle`)."""
        await self.host.idle()

    async def delivered(self) -> None:
        """Wait until every queued delivery went out (see :meth:`bot.host.runner.Host.delivered`)."""
        await self.host.delivered()

    def channel_of(self, game_id: int) -> int:
        """The channel of the open game ``game_id`` (for buttons that carry a game id).

        Raises:
            NoGameError: no open game has that id.
        """
        return self.host.channel_of(game_id)

    # A guild's settings -------------------------------------------------------------------------

    async def feature_enabled(self, guild_id: int, feature: Feature) -> bool:
        """Whether ``feature`` is on in the guild (every feature is, until turned off)."""
        return await self.host.feature_enabled(guild_id, feature)

    async def features(self, guild_id: int) -> Message:
        """Which features are on in the guild (private)."""
        return Message(features_text(await self.host.store.features(guild_id)), private=True)

    async def set_feature(self, guild_id: int, feature: str, enabled: bool) -> Message:
        """Turn ``feature`` on or off in the guild (for those who may manage it: the front end checks).
        Ratings are computed either way: off, they are only not shown.

        Raises:
            SettingError: no feature has that name; StorageError: the write failed.
        """
        chosen = feature_named(feature)
        with typed_storage_errors():
            await self.host.store.set_feature(guild_id, chosen.value, enabled)
        logger.info("guild %d: %s turned %s", guild_id, chosen, "on" if enabled else "off")
        state = "on" if enabled else "off"
        return Message(f"The {chosen} feature is now {state} in this server.", private=True)

    async def rebuild_ratings(self, guild_id: int) -> Message:
        """Recompute the guild's ratings from its finished rated games, in finish order (the same
        numbers, unless the stored ones were damaged).

        Raises:
            FeatureOffError: the guild turned ratings off; StorageError: the write failed.
        """
        if not await self.feature_enabled(guild_id, Feature.RATINGS):
            raise feature_off(Feature.RATINGS)
        with typed_storage_errors():
            games = await self.host.store.rebuild_ratings(guild_id)
        logger.info("guild %d: ratings rebuilt from %d games", guild_id, games)
        return Message(f"Ratings rebuilt from {games} rated game{'s' if games != 1 else ''}.", private=True)
