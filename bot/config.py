"""The bot's settings: read from a TOML file (see ``config.example.toml``) and the environment.

Every setting has a default, so an empty file (or no file) is a valid configuration. A key the bot does
not know, or a value of the wrong type or out of range, is refused with a :class:`ConfigError` naming
the file and the key. The Discord token comes from ``$DISCORD_TOKEN`` if set, else from the file's
``token``; it is never part of any ``repr`` or message, nor is the Activity's client secret (from
``$DISCORD_CLIENT_SECRET`` if set, else from the file's ``[activity] client_secret``).

The host's settings are read here; each registered game reads its own (:attr:`Config.games`) from its
table of the file (``[scrabble]``, ``[go]``) through its settings part
(:attr:`bot.host.registry.GameModule.settings`), which may also name keys it reads where files kept them
before games had tables of their own (Scrabble's ``lexicon``, ``[game]`` and ``[ai] level``), so that
those files stay valid.
"""

from __future__ import annotations

import enum
import ipaddress
import logging
import os
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Final, Protocol, TypeVar

from bot.host import registry
from bot.host.shards import MAX_SHARDS, Shards
from bot.host.store.backends import is_postgresql_url
from scrabble_core.errors import echo

TOKEN_ENV: Final = "DISCORD_TOKEN"
CLIENT_SECRET_ENV: Final = "DISCORD_CLIENT_SECRET"
LOG_LEVELS: Final = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
MAX_TURN_SECONDS: Final = 7 * 24 * 3600
"""The longest turn time limit a game (or the configured default) may have, in seconds."""
MAX_AI_WORKERS: Final = 64
"""The most AI worker processes the bot may start."""
DEFAULT_LEASE_SECONDS: Final = 30.0
"""How long a shard lease lasts unless configured."""
MIN_SECRET: Final = 16
_SHARD_KEYS: Final = ("shard_count", "shard_ids", "cluster_index", "cluster_count")
_T = TypeVar("_T")


class ConfigError(ValueError):
    """A configuration file that cannot be read, or a key or value it may not hold; the message names
    the file and the key."""


class TimeoutAction(enum.StrEnum):
    """What happens to a human who lets the turn time limit pass: their turn is passed (and after
    ``max_timeouts`` consecutive timeouts they forfeit), or they forfeit at once."""

    PASS = "pass"
    FORFEIT = "forfeit"


@dataclass(frozen=True, slots=True)
class TurnConfig:
    """The human turn timer. ``time_limit`` 0 means no limit; ``max_timeouts`` 0 means never forfeit
    for timeouts; ``reminder_left`` is the fraction of the limit left when the reminder is sent."""

    time_limit: int = 0
    on_expiry: TimeoutAction = TimeoutAction.PASS
    reminder_left: float = 0.25
    max_timeouts: int = 3


# Discord's rate limits (bot.discord.budget) ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DiscordLimits:
    """The requests the bot allows itself to send Discord, below which Discord never answers 429:
    ``requests_per_second`` in all (interaction answers aside), and per channel (and per kind of
    request: posts, edits, typing) ``channel_requests`` in any ``channel_seconds``. The defaults are
    Discord's documented limits: 50 requests a second, 5 messages per 5 seconds in a channel."""

    requests_per_second: int = 50
    channel_requests: int = 5
    channel_seconds: float = 5.0


def _discord_limits(reader: _Reader, data: Mapping[str, object]) -> DiscordLimits:
    defaults = DiscordLimits()
    return DiscordLimits(
        requests_per_second=reader.integer(
            data, "discord.requests_per_second", defaults.requests_per_second, 1, 10_000
        ),
        channel_requests=reader.integer(data, "discord.channel_requests", defaults.channel_requests, 1, 1000),
        channel_seconds=reader.number(
            data, "discord.channel_seconds", defaults.channel_seconds, 0.01, 3600.0
        ),
    )


# The web board (bot.web) ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class WebConfig:
    """The web board's server: off unless ``enabled``; ``public_url`` is the base of its links (default
    ``http://host:port``); ``secret`` signs them (default: one generated once, kept beside the database);
    ``allowed_hosts``: the host names it answers to besides its address and ``public_url``'s host
    (``*``: any; see :class:`bot.web.perimeter.HostPolicy`)."""

    enabled: bool = False
    host: str = "127.0.0.1"
    port: int = 8765
    public_url: str = ""
    secret: str | None = field(default=None, repr=False)
    allowed_hosts: tuple[str, ...] = ()


_WEB_KEYS: Final = frozenset({"enabled", "host", "port", "public_url", "secret", "allowed_hosts"})
_HOST_NAME: Final = re.compile(r"\*|[A-Za-z0-9._-]{1,253}")


def _web_config(reader: _Reader, data: Mapping[str, object]) -> WebConfig:
    enabled = reader.boolean(data, "web.enabled", False)
    secret = reader.string(data, "web.secret", "")
    if secret and len(secret) < MIN_SECRET:
        raise reader.error("web.secret", f"must be at least {MIN_SECRET} characters long")
    hosts = reader.strings(data, "web.allowed_hosts")
    for name in hosts:
        if not _HOST_NAME.fullmatch(name) and not is_ip_address(name):
            raise reader.error("web.allowed_hosts", f"{echo(name)} is not a host name or address (no port)")
    defaults = WebConfig()
    return WebConfig(
        enabled=enabled,
        host=reader.string(data, "web.host", defaults.host),
        port=reader.integer(data, "web.port", defaults.port, 0, 65535),
        public_url=reader.string(data, "web.public_url", "").rstrip("/"),
        secret=secret or None,
        allowed_hosts=tuple(name.lower() for name in hosts),
    )


DISCORD_API: Final = "https://discord.com/api/v10"
DISCORD_CLIENTS: Final = (
    "https://discord.com",
    "https://ptb.discord.com",
    "https://canary.discord.com",
    "https://discordapp.com",
    "https://ptb.discordapp.com",
    "https://canary.discordapp.com",
)
"""The origins of Discord's clients (web and desktop) that frame an Activity."""


@dataclass(frozen=True, slots=True)
class ActivityConfig:
    """The web board as a Discord Activity: the application's OAuth2 ``client_id`` and
    ``client_secret`` (the secret is never logged, never part of any ``repr``, never sent to a page);
    ``api`` is Discord's API (where the code is exchanged and the user read), ``clients`` the page
    origins that may frame the Activity (Discord's clients)."""

    client_id: int
    client_secret: str = field(repr=False)
    api: str = DISCORD_API
    clients: tuple[str, ...] = DISCORD_CLIENTS

    @property
    def proxy_host(self) -> str:
        """The host of Discord's proxy that serves the Activity's page (``<client_id>.discordsays.com``)."""
        return f"{self.client_id}.discordsays.com"


_ACTIVITY_KEYS: Final = frozenset({"client_id", "client_secret"})


def _activity_config(
    reader: _Reader, data: Mapping[str, object], env: Mapping[str, str], web: WebConfig
) -> ActivityConfig | None:
    """``[activity]``: None unless ``client_id`` is set; the secret from ``$DISCORD_CLIENT_SECRET`` or
    the file; the web board must be enabled (the Activity is its page)."""
    client_id = reader.string(data, "activity.client_id", "").strip()
    secret = (
        env.get(CLIENT_SECRET_ENV, "").strip() or reader.string(data, "activity.client_secret", "").strip()
    )
    if not client_id:
        if "client_secret" in data:
            raise reader.error("activity.client_id", "must be set with activity.client_secret")
        return None
    if not client_id.isdigit() or not 15 <= len(client_id) <= 21:
        raise reader.error("activity.client_id", "must be the application's id (its digits, from the portal)")
    if not secret:
        raise reader.error(
            "activity.client_secret", f"must be set (or ${CLIENT_SECRET_ENV}) with activity.client_id"
        )
    if not web.enabled:
        raise reader.error(
            "activity.client_id", "the Activity is the web board's page: set web.enabled = true"
        )
    return ActivityConfig(int(client_id), secret)


def is_ip_address(text: str) -> bool:
    """Whether ``text`` is an IPv4 or IPv6 address (``127.0.0.1``, ``::1``)."""
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


# ------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Config:
    """Every setting of the bot, with its default; each game's own are in :attr:`games`."""

    database: Path | str = Path("scrabble.sqlite3")
    """An SQLite file, or the URL of a PostgreSQL database (``postgresql://...``)."""
    ai_turn_timeout: float = 10.0
    ai_workers: int = 0
    """AI worker processes; 0: one per CPU core (:meth:`ai_worker_count`)."""
    ai_queue: str = "local"
    """Where AI turns run: ``local`` (this process's workers) or ``postgresql`` (jobs on the
    database, answered by ``scrabble-bot worker`` processes: :mod:`bot.host.ai.queue`)."""
    turn: TurnConfig = field(default_factory=TurnConfig)
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    token: str | None = field(default=None, repr=False)
    web: WebConfig = field(default_factory=WebConfig)
    discord: DiscordLimits = field(default_factory=DiscordLimits)
    activity: ActivityConfig | None = None
    """The web board as a Discord Activity (``[activity]``); None: the board opens by its links only."""
    shards: Shards | None = None
    """The Discord shards this process connects and whose games it owns; ``None``: one process, not
    sharded (see :mod:`bot.host.shards`)."""
    shard_lease_seconds: float = DEFAULT_LEASE_SECONDS
    """How long a process's hold on its shards lasts without renewal (it renews every third of it)."""
    shard_standby: bool = False
    """Wait for shards another process holds (until its lease lapses) instead of refusing to start."""
    games: Mapping[str, Any] = field(default_factory=dict)
    """Each game's settings as its settings part read them, by kind, for the games whose settings the
    file changes; :meth:`settings` gives any game's."""

    def settings(self, kind: str) -> Any:
        """The settings of the game of ``kind``: as read from the file, else its defaults.

        Raises:
            KeyError: no game of that kind is registered, or it has no settings part.
        """
        found = self.games.get(kind)
        if found is not None:
            return found
        part = registry.game(kind).settings
        if part is None:
            raise KeyError(f"the {kind} game has no settings")
        return registry.load(part).read(GameSettings(_Reader("(defaults)"), kind, {}, {}, None, self))

    def ai_worker_count(self) -> int:
        """How many AI worker processes to start: :attr:`ai_workers`, or one per CPU core when 0."""
        return self.ai_workers or os.cpu_count() or 1

    @property
    def log_level_number(self) -> int:
        """:attr:`log_level` as a :mod:`logging` level number."""
        return logging.getLevelNamesMapping()[self.log_level]

    @property
    def links_file(self) -> Path:
        """Where the web board keeps its links' generations (and a generated secret): beside an SQLite
        database (``<database>.links.json``); with PostgreSQL, ``scrabble.links.json`` in the working
        directory."""
        if isinstance(self.database, Path):
            return self.database.with_name(self.database.name + ".links.json")
        return Path("scrabble.links.json")


class SettingsPart(Protocol):
    """What a game's settings part is (the module :attr:`bot.host.registry.GameModule.settings` names):
    the keys of its table (``[kind]``), the keys it reads elsewhere in older files, and how it reads
    them."""

    KEYS: frozenset[str]
    LEGACY: Mapping[str, str]
    """File keys (``lexicon``, ``game.variant``...) that hold one of its settings (the value) in files
    written before it had a table; such a key and the same setting in its table may not both be set."""

    def read(self, settings: GameSettings) -> Any:
        """The game's settings (its defaults for what the file leaves out).

        Raises:
            ConfigError: a bad value (:meth:`GameSettings.error`).
        """
        ...


class GameSettings:
    """A game's settings as the file holds them, for its settings part to read: each read names the key
    as the file writes it in its errors (``scrabble.variant``, or ``game.variant`` in an older file)."""

    def __init__(
        self,
        reader: _Reader,
        kind: str,
        values: Mapping[str, object],
        keys: Mapping[str, str],
        base: Path | None,
        host: Config,
    ) -> None:
        """``values`` by setting name, ``keys`` the file key of those not in the game's table; relative
        paths are taken from ``base``; ``host`` holds the host's settings, read first."""
        self._reader = reader
        self._kind = kind
        self._values = values
        self._keys = keys
        self.base = base
        self.host = host

    def key(self, name: str) -> str:
        """The key of setting ``name`` as the file writes it."""
        return self._keys.get(name, f"{self._kind}.{name}")

    def error(self, name: str, problem: str) -> ConfigError:
        """The error of a bad value of setting ``name``."""
        return self._reader.error(self.key(name), problem)

    def _read(self, name: str, read: Callable[[Mapping[str, object], str], _T]) -> _T:
        key = self.key(name)
        leaf = key.rpartition(".")[2]
        return read({leaf: self._values[name]} if name in self._values else {}, key)

    def string(self, name: str, default: str) -> str:
        """A string setting."""
        return self._read(name, lambda data, key: self._reader.string(data, key, default))

    def strings(self, name: str) -> list[str]:
        """A list of strings (empty by default)."""
        return self._read(name, self._reader.strings)

    def paths(self, name: str) -> tuple[Path, ...]:
        """A list of file paths, relative ones taken from the file's directory."""
        files = map(Path, self.strings(name))
        return tuple(file if self.base is None or file.is_absolute() else self.base / file for file in files)

    def choice(self, name: str, default: str, choices: list[str] | tuple[str, ...]) -> str:
        """One of ``choices``."""
        return self._read(name, lambda data, key: self._reader.choice(data, key, default, choices))

    def boolean(self, name: str, default: bool) -> bool:
        """True or false."""
        return self._read(name, lambda data, key: self._reader.boolean(data, key, default))

    def integer(self, name: str, default: int, low: int, high: int) -> int:
        """A whole number from ``low`` to ``high``."""
        return self._read(name, lambda data, key: self._reader.integer(data, key, default, low, high))

    def number(self, name: str, default: float, low: float, high: float) -> float:
        """A number from ``low`` to ``high``."""
        return self._read(name, lambda data, key: self._reader.number(data, key, default, low, high))


_TOP_KEYS: Final = frozenset(
    {"token", "database", "log_level", "dev_guild_id", "ai", "turn", "web", "activity", "discord"}
    | {*_SHARD_KEYS, "shard_lease_seconds", "shard_standby"}
)
_AI_KEYS: Final = frozenset({"turn_timeout", "workers", "queue"})
AI_QUEUES: Final = ("local", "postgresql")
_TURN_KEYS: Final = frozenset({"time_limit", "on_expiry", "reminder_left", "max_timeouts"})
_DISCORD_KEYS: Final = frozenset({"requests_per_second", "channel_requests", "channel_seconds"})
_HOST_TABLES: Final = {"ai": _AI_KEYS, "turn": _TURN_KEYS}


def load_config(path: Path | None, environ: Mapping[str, str] | None = None) -> Config:
    """Read the settings from the TOML file at ``path`` (defaults only if ``None``) and the token from
    ``environ`` (``os.environ`` by default), which wins over the file's ``token``.

    A relative ``database`` path is taken relative to the file's directory; a ``postgresql://`` URL
    is kept as it is.

    Raises:
        ConfigError: the file cannot be read or is not TOML, or holds an unknown key or a bad value.
    """
    data: dict[str, object] = {}
    source = "(defaults)"
    if path is not None:
        source = str(path)
        try:
            with path.open("rb") as file:
                data = tomllib.load(file)
        except OSError as error:
            raise ConfigError(f"{source}: cannot be read ({error.strerror})") from None
        except tomllib.TOMLDecodeError as error:
            raise ConfigError(f"{source}: not valid TOML ({error})") from None
    reader = _Reader(source)
    parts = {
        game.kind: registry.load(game.settings) for game in registry.games() if game.settings is not None
    }
    legacy = {key: (kind, name) for kind, part in parts.items() for key, name in part.LEGACY.items()}
    legacy_tables: dict[str, set[str]] = {}
    for key in legacy:
        table, _, leaf = key.rpartition(".")
        legacy_tables.setdefault(table, set()).add(leaf)
    top = _TOP_KEYS | set(parts) | legacy_tables.pop("", set()) | set(legacy_tables)
    reader.known(data, frozenset(top), "")
    tables = {
        table: reader.table(data, table, _HOST_TABLES.get(table, frozenset()) | leaves)
        for table, leaves in {**{table: set() for table in _HOST_TABLES}, **legacy_tables}.items()
    }
    host = _host_config(reader, data, tables, path, os.environ if environ is None else environ)
    base = None if path is None else path.parent
    games = {}
    for kind, part in parts.items():
        settings = part.read(_game_settings(reader, data, tables, kind, part, legacy, base, host))
        if settings != host.settings(kind):
            games[kind] = settings
    return replace(host, games=games)


def _host_config(
    reader: _Reader,
    data: Mapping[str, object],
    tables: Mapping[str, Mapping[str, object]],
    path: Path | None,
    env: Mapping[str, str],
) -> Config:
    """The host's settings (no game's)."""
    ai, turn = tables["ai"], tables["turn"]
    defaults = Config()
    turn_defaults = TurnConfig()

    database: Path | str = reader.string(data, "database", str(defaults.database))
    if not is_postgresql_url(database):
        database = Path(database)
        if path is not None and not database.is_absolute():
            database = path.parent / database
    guild = reader.integer(data, "dev_guild_id", 0, 0, 2**63 - 1)
    ai_queue = reader.choice(ai, "ai.queue", defaults.ai_queue, AI_QUEUES)
    if ai_queue == "postgresql" and not is_postgresql_url(database):
        raise reader.error(
            "ai.queue", '"postgresql" needs a PostgreSQL database (database = "postgresql://...")'
        )
    env_token = env.get(TOKEN_ENV, "").strip()
    file_token = reader.string(data, "token", "").strip()
    web = _web_config(reader, reader.table(data, "web", _WEB_KEYS))
    return Config(
        database=database,
        ai_turn_timeout=reader.number(ai, "ai.turn_timeout", defaults.ai_turn_timeout, 0.1, 600.0),
        ai_workers=reader.integer(ai, "ai.workers", defaults.ai_workers, 0, MAX_AI_WORKERS),
        ai_queue=ai_queue,
        turn=TurnConfig(
            time_limit=reader.integer(turn, "turn.time_limit", turn_defaults.time_limit, 0, MAX_TURN_SECONDS),
            on_expiry=TimeoutAction(
                reader.choice(
                    turn, "turn.on_expiry", turn_defaults.on_expiry.value, [a.value for a in TimeoutAction]
                )
            ),
            reminder_left=reader.number(turn, "turn.reminder_left", turn_defaults.reminder_left, 0.0, 0.9),
            max_timeouts=reader.integer(turn, "turn.max_timeouts", turn_defaults.max_timeouts, 0, 100),
        ),
        dev_guild_id=guild or None,
        log_level=reader.choice(data, "log_level", defaults.log_level, LOG_LEVELS, fold=True),
        token=env_token or file_token or None,
        web=web,
        discord=_discord_limits(reader, reader.table(data, "discord", _DISCORD_KEYS)),
        activity=_activity_config(reader, reader.table(data, "activity", _ACTIVITY_KEYS), env, web),
        shards=_shards(reader, data, database),
        shard_lease_seconds=reader.number(data, "shard_lease_seconds", DEFAULT_LEASE_SECONDS, 1.0, 3600.0),
        shard_standby=reader.boolean(data, "shard_standby", False),
    )


def _game_settings(
    reader: _Reader,
    data: Mapping[str, object],
    tables: Mapping[str, Mapping[str, object]],
    kind: str,
    part: SettingsPart,
    legacy: Mapping[str, tuple[str, str]],
    base: Path | None,
    host: Config,
) -> GameSettings:
    """The settings of the game of ``kind`` as the file holds them: its table, and its keys where
    older files kept them (``legacy``: file key -> its game and setting).

    Raises:
        ConfigError: an unknown key in its table, or a setting given both in its table and elsewhere.
    """
    own = reader.table(data, kind, part.KEYS)
    values: dict[str, object] = dict(own)
    keys: dict[str, str] = {}
    for key, (owner, name) in legacy.items():
        table, _, leaf = key.rpartition(".")
        found = (tables[table] if table else data).get(leaf)
        if owner != kind or found is None:
            continue
        if name in own:
            raise reader.error(key, f"set twice: {kind}.{name} is the same setting")
        values[name], keys[name] = found, key
    return GameSettings(reader, kind, values, keys, base, host)


def _shards(reader: _Reader, data: Mapping[str, object], database: Path | str) -> Shards | None:
    """The process's shards: ``shard_count`` with ``shard_ids`` (default: every shard), or with
    ``cluster_index`` and ``cluster_count`` (process ``cluster_index`` of ``cluster_count`` owns every
    ``cluster_count``-th shard from its index); ``None`` if none is set. Only one process can use an
    SQLite file, so with SQLite a process must own every shard."""
    if not any(key in data for key in _SHARD_KEYS):
        return None
    if "shard_count" not in data:
        raise reader.error("shard_count", "must be set with shard_ids, cluster_index or cluster_count")
    count = reader.integer(data, "shard_count", 1, 1, MAX_SHARDS)
    cluster = "cluster_index" in data or "cluster_count" in data
    if cluster and "shard_ids" in data:
        raise reader.error("shard_ids", "give either shard_ids or cluster_index and cluster_count, not both")
    if cluster and not ("cluster_index" in data and "cluster_count" in data):
        raise reader.error("cluster_index", "cluster_index and cluster_count go together")
    index = reader.integer(data, "cluster_index", 0, 0, MAX_SHARDS - 1)
    processes = reader.integer(data, "cluster_count", 1, 1, MAX_SHARDS)
    ids = reader.integers(data, "shard_ids") if "shard_ids" in data else list(range(count))
    try:
        shards = Shards.of_cluster(index, processes, count) if cluster else Shards(count, tuple(ids))
    except ValueError as error:
        raise reader.error("cluster_index" if cluster else "shard_ids", str(error)) from None
    if not shards.every and not is_postgresql_url(database):
        raise reader.error(
            "shard_ids",
            f"with an SQLite database one process owns every shard ({shards} given): use a PostgreSQL "
            "database to split the shards between processes",
        )
    return shards


@dataclass(frozen=True, slots=True)
class _Reader:
    """Typed access to the values of one file, raising errors that name the file and the key."""

    source: str

    def error(self, key: str, problem: str) -> ConfigError:
        return ConfigError(f"{self.source}: {key}: {problem}")

    def known(self, data: Mapping[str, object], keys: frozenset[str], prefix: str) -> None:
        for key in data:
            if key not in keys:
                raise self.error(f"{prefix}{key}", f"unknown setting (known: {', '.join(sorted(keys))})")

    def table(self, data: Mapping[str, object], key: str, keys: frozenset[str]) -> Mapping[str, object]:
        value = data.get(key, {})
        if not isinstance(value, dict):
            raise self.error(key, "must be a table")
        self.known(value, keys, f"{key}.")
        return value

    @staticmethod
    def _leaf(data: Mapping[str, object], key: str) -> object:
        return data.get(key.rpartition(".")[2])

    def string(self, data: Mapping[str, object], key: str, default: str) -> str:
        value = self._leaf(data, key)
        if value is None:
            return default
        if not isinstance(value, str):
            raise self.error(key, f"must be a string, not {value!r}")
        return value

    def strings(self, data: Mapping[str, object], key: str) -> list[str]:
        value = self._leaf(data, key)
        if value is None:
            return []
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise self.error(key, f"must be a list of strings, not {value!r}")
        return [str(item) for item in value]

    def integers(self, data: Mapping[str, object], key: str) -> list[int]:
        value = self._leaf(data, key)
        if not isinstance(value, list) or not all(
            isinstance(item, int) and not isinstance(item, bool) for item in value
        ):
            raise self.error(key, f"must be a list of integers, not {value!r}")
        return [int(item) for item in value]

    def choice(
        self,
        data: Mapping[str, object],
        key: str,
        default: str,
        choices: list[str] | tuple[str, ...],
        *,
        fold: bool = False,
    ) -> str:
        value = self.string(data, key, default)
        if fold:
            value = value.upper()
        if value not in choices:
            raise self.error(key, f"must be one of {', '.join(choices)}, not {value!r}")
        return value

    def boolean(self, data: Mapping[str, object], key: str, default: bool) -> bool:
        value = self._leaf(data, key)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise self.error(key, f"must be true or false, not {value!r}")
        return value

    def integer(self, data: Mapping[str, object], key: str, default: int, low: int, high: int) -> int:
        value = self._leaf(data, key)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(key, f"must be an integer, not {value!r}")
        if not low <= value <= high:
            raise self.error(key, f"must be between {low} and {high}, not {value}")
        return value

    def number(self, data: Mapping[str, object], key: str, default: float, low: float, high: float) -> float:
        value = self._leaf(data, key)
        if value is None:
            return default
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.error(key, f"must be a number, not {value!r}")
        if not low <= value <= high:
            raise self.error(key, f"must be between {low} and {high}, not {value}")
        return float(value)
