"""The host's refusals: one class per reason, each with a message written for the player.

They derive from :class:`ServiceError`, which no game's error derives from and which derives from no
game's: a front end shows ``str(error)`` of a :class:`ServiceError` or of a registered game's refusal
(:func:`bot.host.registry.is_refusal`) and treats every other exception as a bug. Each game adds its own
refusals under :class:`ServiceError`.
"""

from __future__ import annotations


class ServiceError(Exception):
    """Base of the host's and the games' refusals: the message is for the player."""


class NoGameError(ServiceError):
    """The channel has no game (or not the game a button belongs to)."""

    def __init__(self, text: str = "There is no game in this channel") -> None:
        super().__init__(text)


class GameExistsError(ServiceError):
    """A new game in a channel that already has one (the message says what to do)."""


class ChannelBusyError(GameExistsError):
    """A new game in a channel that has an open game of another kind (or any game, seen by the store):
    the message names that game."""

    def __init__(self, game_name: str) -> None:
        ServiceError.__init__(
            self,
            f"This channel already has a {game_name} game: finish or cancel it first, or use another "
            "channel or a thread",
        )


class OptionError(ServiceError):
    """A bad option for a new game (unknown variant, level, challenge mode; time limit out of range)."""


class LobbyError(ServiceError):
    """A lobby action that is not possible now (joining a full lobby or a started game...)."""


class AlreadySeatedError(LobbyError):
    """Joining a game one already plays in."""

    def __init__(self) -> None:
        super().__init__("You have already joined this game")


class LobbyFullError(LobbyError):
    """Joining a lobby with every seat taken."""

    def __init__(self, seats: int) -> None:
        super().__init__(f"This game is full ({seats} players)")


class GameStartedError(LobbyError):
    """A lobby action on a game that has started."""

    def __init__(self, text: str | None = None) -> None:
        super().__init__(text or "This game has already started")


class GameNotStartedError(ServiceError):
    """A game action while the game is still in its lobby (the message says how it starts)."""


class NotEnoughPlayersError(LobbyError):
    """Starting a game with a single seat."""

    def __init__(self) -> None:
        super().__init__("A game needs at least 2 players: wait for someone to join or add an AI opponent")


class NotAllowedError(ServiceError):
    """An action reserved to the game's creator (or a moderator)."""


class NotSeatedError(ServiceError):
    """A game action by someone who does not play in the game."""

    def __init__(self) -> None:
        super().__init__("You are not playing in this game")


class StorageError(ServiceError):
    """A change that could not be saved: nothing changed, in the database or in the game."""


class StorageBusyError(StorageError):
    """The database is locked by another connection for longer than the busy timeout."""

    def __init__(self) -> None:
        super().__init__("The database is busy, try again in a moment (nothing was changed)")


class StorageFullError(StorageError):
    """The database cannot grow: the disk (or its size limit) is full."""

    def __init__(self) -> None:
        super().__init__(
            "The database is full, so nothing was changed: the bot's host must free some disk space"
        )


class StorageFailedError(StorageError):
    """Any other failure of a write (an I/O error, a file made read-only...)."""

    def __init__(self) -> None:
        super().__init__("The game could not be saved, so nothing was changed: try again later")


class StorageRangeError(StorageError):
    """A number too large for the database (its message names it)."""


class StaleTurnError(ServiceError):
    """A turn command made for a turn that is over: the game moved on since the player saw it."""

    def __init__(self, *, challenge: bool = False) -> None:
        super().__init__(
            "That play can no longer be challenged"
            if challenge
            else "The game has moved on since that turn: nothing was done, look at the board again"
        )


class NoBoardError(ServiceError):
    """The bot serves no web board, so it has no links to give."""

    def __init__(self) -> None:
        super().__init__("This bot does not serve the web board (its [web] settings disable it)")


class SettingError(ServiceError):
    """A bad setting of a guild (an unknown feature)."""


class FeatureOffError(ServiceError):
    """A command of a feature the guild turned off (:func:`bot.host.features.feature_off` words it)."""
