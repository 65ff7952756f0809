"""The games the host knows: one registry that every edge loops over (the host's assembly, the Discord
client and its buttons, the AI workers and queue, the command line). A game is added by its package and
one line that registers it (:func:`register`); the built-in games are registered by
:func:`bot.games.register_builtin`.

A game's package names its parts in :data:`GAME` (a :class:`GameModule`), each by the module that holds
it, so that a process imports only the parts it uses: the Discord client loads a game's Discord part as
discord.py loads an extension (its ``setup(bot)``), an AI worker process its worker part, the command line
its terminal part.
"""

from __future__ import annotations

import importlib
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from bot.host.errors import ServiceError

if TYPE_CHECKING:
    from bot.host.commands import GameCommands
    from bot.host.plugin import GamePlugin


@dataclass(frozen=True, slots=True)
class GameParts:
    """What a game adds to a host: its plugin (which the host calls) and its commands (which its front
    ends call)."""

    plugin: GamePlugin[Any, Any, Any]
    commands: GameCommands


@dataclass(frozen=True, slots=True)
class TerminalGame:
    """A game's terminal front end: the command line's subcommand that runs it (``play``), the module of
    its ``main(argv)``, and its line in ``scrabble-bot --help``."""

    command: str
    module: str
    summary: str


@dataclass(frozen=True, slots=True)
class GameModule:
    """A registered game: its ``kind`` (its plugin's), its ``title``, the errors of its engine whose
    message is for the player (``refusals``), and the modules of its parts: ``codec`` (its stored form),
    ``parts`` (with
    ``async build(context: GameContext) -> GameParts``: its plugin and commands over a host),
    ``settings`` (its settings in the config file: :class:`bot.config.SettingsPart`), ``discord``
    (with ``setup(bot)``), ``worker`` (the functions that answer its AI jobs: :mod:`bot.host.ai.jobs`),
    ``web`` (its part of the web board: :class:`bot.web.parts.WebPart`) and its ``terminal`` front end.

    ``features`` says where its commands show each feature a guild can turn off (the feature's value:
    ``ratings``), and ``settings_command`` names the command of its front end that turns them on and
    off: the host words its texts about features with them."""

    kind: str
    title: str
    parts: str
    codec: str
    """The module of its stored form, with ``replay(state)``: the state read and written again."""
    refusals: tuple[type[Exception], ...] = ()
    settings: str | None = None
    discord: str | None = None
    worker: str | None = None
    web: str | None = None
    terminal: TerminalGame | None = None
    features: Mapping[str, str] = field(default_factory=dict)
    settings_command: str | None = None


_GAMES: dict[str, GameModule] = {}
_PACKAGES: dict[str, str] = {}


def register(package: str) -> GameModule:
    """Register the game of ``package`` (its :data:`GAME`); registering it again changes nothing.

    Raises:
        ImportError: no such package; AttributeError: it names no ``GAME``; ValueError: another game has
            its kind.
    """
    game: GameModule = importlib.import_module(package).GAME
    known = _GAMES.get(game.kind)
    if known is not None and known is not game:
        raise ValueError(f"a game of kind {game.kind!r} is registered already")
    _GAMES[game.kind] = game
    _PACKAGES[game.kind] = package
    return game


def unregister(kind: str) -> None:
    """Forget the game of ``kind`` (nothing if it is not registered)."""
    _GAMES.pop(kind, None)
    _PACKAGES.pop(kind, None)


def games(kinds: Collection[str] | None = None) -> list[GameModule]:
    """The registered games (those of ``kinds``, if given), in the order they were registered.

    Raises:
        KeyError: a kind of ``kinds`` is not registered.
    """
    if kinds is not None:
        unknown = set(kinds) - set(_GAMES)
        if unknown:
            raise KeyError(f"no game of kind {', '.join(sorted(unknown))} is registered")
    return [game for game in _GAMES.values() if kinds is None or game.kind in kinds]


def game(kind: str) -> GameModule:
    """The registered game of ``kind``.

    Raises:
        KeyError: none.
    """
    return _GAMES[kind]


def packages(kinds: Collection[str] | None = None) -> list[str]:
    """The registered games' packages (those of ``kinds``, if given), in order (for processes that
    register them again: the AI workers)."""
    return [_PACKAGES[game.kind] for game in games(kinds)]


def is_refusal(error: BaseException) -> bool:
    """Whether ``error``'s message is for the player: a :class:`~bot.host.errors.ServiceError`, or one of
    a registered game's refusals (its engine's errors)."""
    refusals: Sequence[type[BaseException]] = [ServiceError, *(r for g in games() for r in g.refusals)]
    return isinstance(error, tuple(refusals))


def load(module: str) -> Any:
    """The module ``module`` of a game's part, imported."""
    return importlib.import_module(module)
