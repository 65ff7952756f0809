"""A fake of Discord's REST API on loopback, and factories for the payloads Discord sends.

How the harness works (discord.py 2.7):

* Every REST call discord.py makes goes through :class:`discord.http.Route`, which builds its URL as
  ``Route.BASE + path`` when the route is created. That includes ``HTTPClient`` (login, messages, DMs,
  command sync) *and* the webhook adapter (``discord.webhook.async_.AsyncWebhookAdapter``) that sends
  interaction callbacks, ``@original`` edits and followups. Pointing the class attribute
  ``Route.BASE`` at :class:`FakeDiscord` (with ``monkeypatch``) therefore captures every request.
* ``await bot.login(token)`` is the real, minimal way to get a usable bot without a gateway: it runs
  ``_async_setup_hook`` (sets ``bot.loop``), ``GET /users/@me`` (sets ``_connection.user``),
  ``GET /oauth2/applications/@me`` (sets ``_connection.application_id``), then ``setup_hook``.
* Interactions are fed to ``bot._connection.parse_interaction_create(payload)``, the same method
  the gateway's ``INTERACTION_CREATE`` handler calls: types 2 and 4 go to the bot's command tree,
  3 to the view store (persistent views and ``DynamicItem``s), 5 to the modal store.
* Interaction callbacks are sent as ``POST /interactions/{id}/{token}/callback?with_response=1``;
  the fake answers with an ``InteractionCallbackResponse`` as Discord does.
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import json
import re
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from aiohttp import web

from bot.discord.client import GameBot
from bot.games.go.commands import GoCommands
from bot.games.scrabble.commands import ScrabbleCommands
from bot.host.runner import Host
from bot.host.store import Store

if TYPE_CHECKING:
    from discord.types.gateway import InteractionCreateEvent

API_PREFIX = "/api/v10"
DEFAULT_PERMISSIONS = "2248473465835073"
"""A member's usual permissions (view, send, read history...), without Manage Messages."""
MANAGE_MESSAGES = 1 << 13
EPHEMERAL = 64
MAX_CONTENT = 2000

JSON = dict[str, Any]


@dataclass(frozen=True)
class RecordedFile:
    """One file of a multipart request: its form field, file name and bytes."""

    field: str
    filename: str
    data: bytes


@dataclass(frozen=True)
class RecordedRequest:
    """One request the bot made: the path is relative to the API base (``/channels/1/messages``)."""

    method: str
    path: str
    query: Mapping[str, str]
    json: Any
    files: tuple[RecordedFile, ...]
    authorization: str | None
    received_at: float

    @property
    def route(self) -> str:
        """``"POST /channels/1/messages"``: the method and the path."""
        return f"{self.method} {self.path}"

    @property
    def body(self) -> JSON:
        """The message fields of the request: the JSON body, or its ``data`` for an interaction callback."""
        if not isinstance(self.json, dict):
            return {}
        if self.path.endswith("/callback"):
            data: JSON = self.json.get("data") or {}
            return data
        return self.json

    @property
    def content(self) -> str:
        """The message text the request sends (empty if none)."""
        return str(self.body.get("content") or "")

    @property
    def ephemeral(self) -> bool:
        """Whether the request's message is flagged ephemeral."""
        return bool(int(self.body.get("flags") or 0) & EPHEMERAL)

    @property
    def filenames(self) -> list[str]:
        """The names of the files the request uploads."""
        return [f.filename for f in self.files]


RECORDED: web.RequestKey[RecordedRequest] = web.RequestKey("recorded", RecordedRequest)


def _json(data: Any, *, status: int = 200) -> web.Response:
    """A JSON response with the exact content type Discord sends (discord.py compares it verbatim)."""
    return web.Response(body=json.dumps(data).encode(), status=status, content_type="application/json")


def _too_long(body: Any) -> web.Response | None:
    """Discord's refusal of a message whose text is over 2,000 characters, if ``body``'s is."""
    if isinstance(body, dict):
        data = body["data"] if isinstance(body.get("data"), dict) else body
        if len(str(data.get("content") or "")) > MAX_CONTENT:
            error = {"message": "Invalid Form Body", "code": 50035}
            return _json(error, status=400)
    return None


def _too_many(retry_after: float, headers: Mapping[str, str], *, is_global: bool) -> web.Response:
    """Discord's 429: the JSON body with ``retry_after``, and ``headers`` with ``Retry-After`` and
    ``Via`` (discord.py takes a 429 without ``Via`` for a Cloudflare ban)."""
    refusal = {
        "message": "You are being rate limited.",
        "retry_after": round(retry_after, 3),
        "global": is_global,
    }
    response = _json(refusal, status=429)
    response.headers.update({**headers, "Retry-After": f"{retry_after:.3f}", "Via": "1.1 google"})
    return response


def _iso_now() -> str:
    return "2024-01-01T00:00:00.000000+00:00"


def user_payload(user_id: int, name: str, *, bot: bool = False) -> JSON:
    """A user object as Discord sends it."""
    return {
        "id": str(user_id),
        "username": name,
        "discriminator": "0",
        "global_name": name.title(),
        "avatar": None,
        "public_flags": 0,
        "flags": 0,
        "bot": bot,
        "banner": None,
        "accent_color": None,
        "avatar_decoration_data": None,
    }


def member_payload(user: JSON, *, roles: Sequence[int] = (), permissions: str = DEFAULT_PERMISSIONS) -> JSON:
    """A guild member object as it comes inside an interaction (with its resolved ``permissions``)."""
    return {
        "user": user,
        "roles": [str(role) for role in roles],
        "permissions": permissions,
        "nick": None,
        "avatar": None,
        "premium_since": None,
        "joined_at": _iso_now(),
        "pending": False,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "communication_disabled_until": None,
        "unusual_dm_activity_until": None,
    }


def text_channel_payload(channel_id: int, guild_id: int, name: str = "scrabble") -> JSON:
    """A guild text channel (type 0) as it comes inside an interaction."""
    return {
        "id": str(channel_id),
        "type": 0,
        "guild_id": str(guild_id),
        "name": name,
        "position": 0,
        "parent_id": None,
        "topic": None,
        "nsfw": False,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "flags": 0,
        "permission_overwrites": [],
        "permissions": DEFAULT_PERMISSIONS,
    }


def thread_channel_payload(channel_id: int, guild_id: int, parent_id: int, owner_id: int) -> JSON:
    """A public thread (type 11) as it comes inside an interaction."""
    return {
        "id": str(channel_id),
        "type": 11,
        "guild_id": str(guild_id),
        "parent_id": str(parent_id),
        "owner_id": str(owner_id),
        "name": "scrabble game",
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "message_count": 0,
        "member_count": 1,
        "total_message_sent": 0,
        "flags": 0,
        "thread_metadata": {
            "archived": False,
            "auto_archive_duration": 1440,
            "archive_timestamp": _iso_now(),
            "locked": False,
            "create_timestamp": _iso_now(),
        },
        "permissions": DEFAULT_PERMISSIONS,
    }


def dm_channel_payload(channel_id: int, recipient: JSON) -> JSON:
    """A DM channel (type 1), as ``POST /users/@me/channels`` returns it."""
    return {
        "id": str(channel_id),
        "type": 1,
        "last_message_id": None,
        "flags": 0,
        "recipients": [recipient],
    }


@dataclass(frozen=True)
class RateLimits:
    """Discord's rate limits, as the fake applies them when :attr:`FakeDiscord.rate_limits` is set.

    Each route (method and path template) and major parameter (the channel, guild, webhook or
    interaction) is a bucket of ``per_route`` requests per ``route_window`` seconds; every request but
    those of interactions (callbacks and followups: exempt, as on Discord) also counts towards
    ``global_limit`` requests per ``global_window`` seconds. A window starts with its first request. Every answer carries the
    bucket's ``X-RateLimit-*`` headers; a request over a limit is not handled but answered 429 with the
    JSON body ``{"message", "retry_after", "global"}`` and the headers ``Retry-After``,
    ``X-RateLimit-Scope`` (``user`` or ``global``), ``X-RateLimit-Global`` for the global one, and ``Via``
    (without it discord.py takes a 429 for a Cloudflare ban), and recorded in
    :attr:`FakeDiscord.rate_limited` instead of :attr:`FakeDiscord.requests`.
    """

    per_route: int = 5
    route_window: float = 5.0
    global_limit: int = 50
    global_window: float = 1.0


@dataclass
class _Window:
    """The requests counted in a rate-limit window, and when it ends (``time.monotonic``)."""

    count: int
    ends_at: float


_BOUNDARY = re.compile(r'boundary="?([^";]+)"?')
_DISPOSITION_PARAMETER = re.compile(r'(?<![\w*])(name|filename)="((?:[^"\\]|\\.)*)"')


def form_parts(body: bytes, content_type: str) -> list[tuple[str, str | None, bytes]]:
    """The parts of a ``multipart/form-data`` body as aiohttp's client writes it for discord.py
    (RFC 7578, names not percent-encoded): each part's field name, file name (``None`` for a plain
    field) and bytes.

    aiohttp's own server-side parser goes through the ``email`` package and temporary files, which
    made this fake the busiest part of ``bench/load.py``.

    Raises:
        ValueError: the content type names no boundary, or a part has no field name.
    """
    found = _BOUNDARY.search(content_type)
    if found is None:
        raise ValueError(f"no boundary in {content_type!r}")
    parts = []
    for chunk in body.split(b"--" + found.group(1).encode())[1:-1]:
        head, _, data = chunk.removeprefix(b"\r\n").partition(b"\r\n\r\n")
        parameters: dict[str, str] = {}
        for line in head.decode().split("\r\n"):
            if line.lower().startswith("content-disposition:"):
                parameters = {
                    key: re.sub(r"\\(.)", r"\1", value) for key, value in _DISPOSITION_PARAMETER.findall(line)
                }
        if "name" not in parameters:
            raise ValueError(f"a part without a field name: {head[:200]!r}")
        filename = parameters.get("filename")
        parts.append((parameters["name"], filename, data.removesuffix(b"\r\n")))
    return parts


_MAJOR_PARAMETERS = ("channel_id", "guild_id", "interaction_id", "app_id", "token")
"""The path parameters that make a route's rate-limit bucket (Discord's major parameters: an interaction's
followups are limited by its webhook and token, each interaction apart)."""
_INTERACTION_ENDPOINTS = (f"{API_PREFIX}/interactions/", f"{API_PREFIX}/webhooks/")
"""The paths outside the global rate limit."""


@dataclass
class FakeDiscord:
    """Discord's REST API, faked on ``127.0.0.1`` with a random port.

    Every request is recorded in :attr:`requests`; :meth:`wait_for` waits for one that matches.
    Messages posted to channels are stored (with their components) so tests can click their buttons.
    With ``valid_token`` set, ``GET /users/@me`` refuses any other token with a 401, as Discord does.
    Its OAuth2 side is an Activity's: :meth:`authorize` gives a user's code (what the client's
    ``authorize`` command answers the page), ``POST /oauth2/token`` exchanges a code once for an access
    token, given the application's :attr:`client_secret`, and ``GET /users/@me`` with ``Bearer`` and
    that token answers the user; :meth:`join_activity` puts a user in an Activity's instance, which
    ``GET /applications/{id}/activity-instances/{instance}`` (as the bot) answers. With :attr:`rate_limits` set, it enforces Discord's rate limits. A message created with a nonce
    and ``enforce_nonce`` (discord.py sends both) is created once: the same nonce in the same channel
    returns the first message, as on Discord; if its text is another (a message Discord would swallow),
    the request is kept in :attr:`swallowed`.
    """

    application_id: int = 900_000_000_000_000_001
    bot_user_id: int = 900_000_000_000_000_001
    bot_name: str = "scrabble-host"
    valid_token: str | None = None
    closed_dm_user_ids: set[int] = field(default_factory=set)
    requests: list[RecordedRequest] = field(default_factory=list)
    messages: dict[int, JSON] = field(default_factory=dict)
    dm_recipients: dict[int, int] = field(default_factory=dict)
    commands: dict[int | None, list[JSON]] = field(default_factory=dict)
    rate_limits: RateLimits | None = field(default_factory=RateLimits)
    """Discord's rate limits, applied when set (see :class:`RateLimits`): Discord's documented ones by
    default (50 requests a second in all, 5 per 5 seconds per route and channel)."""
    rate_limited: list[RecordedRequest] = field(default_factory=list)
    """The requests answered 429, in order."""
    failures_after_create: int = 0
    """The next this many channel messages are created, then answered 500 as if the answer were lost
    (discord.py sends the request again: its nonce must not make a second message)."""
    swallowed: list[RecordedRequest] = field(default_factory=list)
    """The messages answered with an earlier one of the same nonce whose text is another: their text
    appears nowhere (the bot reused a key: the fixtures fail a test that has any, see
    :meth:`check_nothing_swallowed`)."""
    interaction_messages: dict[str, int] = field(default_factory=dict)
    """The message each interaction's component was on, by the interaction's token (see
    :meth:`interaction_on`): a deferred update's ``@original`` is that message."""
    expired_interactions: set[str] = field(default_factory=set)
    """The ids of the interactions whose callback is answered 404 Unknown interaction (code 10062), as
    Discord answers one that was not acknowledged within 3 seconds."""
    launch_refused: bool = False
    """Whether Discord refuses to launch the Activity (callback type 12), as where Activities cannot run."""
    upload_seconds: float = 0.0
    """How long a request with files takes to reach Discord (its upload) before it is counted and
    handled, while one without arrives at once."""
    _windows: dict[str, _Window] = field(default_factory=dict)
    _nonces: dict[tuple[int, str], int] = field(default_factory=dict)
    gateway_url: str = "ws://127.0.0.1:1/"
    """What ``GET /gateway/bot`` answers (see ``discord_gateway.FakeGateway``)."""
    listeners: list[Callable[[RecordedRequest], None]] = field(default_factory=list)
    """Called with every request once it is recorded and answered (a benchmark's hook)."""
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1_100_000_000_000_000_000))
    _runner: web.AppRunner | None = None
    _changed: asyncio.Condition | None = None
    port: int = 0
    client_secret: str = "fake-client-secret-0123456789"
    """The application's OAuth2 client secret (its client id is :attr:`application_id`)."""
    oauth_users: dict[int, JSON] = field(default_factory=dict)
    """The users who signed in to the application, by id."""
    oauth_codes: dict[str, int] = field(default_factory=dict)
    """The codes not exchanged yet, and their users."""
    access_tokens: dict[str, int] = field(default_factory=dict)
    """The access tokens given, and their users."""
    activity_instances: dict[str, JSON] = field(default_factory=dict)
    """The Activity's running instances, by id: where each runs and who is in it."""
    _oauth_ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    def join_activity(self, instance_id: str, channel_id: int, guild_id: int | None, user_id: int) -> None:
        """Put user ``user_id`` in the Activity's instance ``instance_id`` of the channel (launched then,
        if it is not running), as Discord does when a user opens the Activity there."""
        instance = self.activity_instances.setdefault(
            instance_id,
            {
                "application_id": str(self.application_id),
                "instance_id": instance_id,
                "launch_id": str(self.next_id()),
                "location": {
                    "id": f"gc-{guild_id}-{channel_id}",
                    "kind": "gc",
                    "channel_id": str(channel_id),
                    "guild_id": None if guild_id is None else str(guild_id),
                },
                "users": [],
            },
        )
        if str(user_id) not in instance["users"]:
            instance["users"].append(str(user_id))

    def authorize(self, user_id: int, name: str) -> str:
        """A new OAuth2 code of user ``user_id`` for the application (scope ``identify``), as Discord's
        client gives an Activity that runs the SDK's ``authorize``."""
        self.oauth_users[user_id] = user_payload(user_id, name)
        code = hashlib.sha256(f"code{next(self._oauth_ids)}".encode()).hexdigest()[:30]
        self.oauth_codes[code] = user_id
        return code

    def access_token_of(self, user_id: int) -> str | None:
        """The newest access token given to user ``user_id``."""
        tokens = [token for token, owner in self.access_tokens.items() if owner == user_id]
        return tokens[-1] if tokens else None

    @property
    def api_base(self) -> str:
        """The value for ``discord.http.Route.BASE``."""
        return f"http://127.0.0.1:{self.port}{API_PREFIX}"

    def next_id(self) -> int:
        """A fresh snowflake."""
        return next(self._ids)

    @property
    def bot_user(self) -> JSON:
        """The bot's user object."""
        return user_payload(self.bot_user_id, self.bot_name, bot=True)

    async def start(self) -> None:
        """Serve the fake on a random loopback port."""
        self._changed = asyncio.Condition()
        app = web.Application(middlewares=[self._record])
        routes = [
            web.get("/users/@me", self._get_me),
            web.get("/oauth2/applications/@me", self._get_application),
            web.post("/oauth2/token", self._oauth_token),
            web.get("/applications/{app_id}/activity-instances/{instance_id}", self._get_activity_instance),
            web.get("/gateway/bot", self._get_gateway),
            web.put("/applications/{app_id}/commands", self._put_commands),
            web.put("/applications/{app_id}/guilds/{guild_id}/commands", self._put_commands),
            web.get("/applications/{app_id}/commands", self._get_commands),
            web.get("/applications/{app_id}/guilds/{guild_id}/commands", self._get_commands),
            web.post("/interactions/{interaction_id}/{token}/callback", self._interaction_callback),
            web.get("/webhooks/{app_id}/{token}/messages/@original", self._get_original),
            web.patch("/webhooks/{app_id}/{token}/messages/@original", self._edit_original),
            web.delete("/webhooks/{app_id}/{token}/messages/@original", self._delete_original),
            web.post("/webhooks/{app_id}/{token}", self._followup),
            web.patch("/webhooks/{app_id}/{token}/messages/{message_id}", self._edit_followup),
            web.post("/users/@me/channels", self._create_dm),
            web.get("/channels/{channel_id}", self._get_channel),
            web.post("/channels/{channel_id}/messages", self._post_message),
            web.post("/channels/{channel_id}/typing", self._typing),
            web.get("/channels/{channel_id}/messages/{message_id}", self._get_message),
            web.patch("/channels/{channel_id}/messages/{message_id}", self._edit_message),
            web.delete("/channels/{channel_id}/messages/{message_id}", self._delete_message),
        ]
        app.add_routes([web.route(r.method, API_PREFIX + r.path, r.handler) for r in routes])
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = self._runner.addresses[0][1]

    async def close(self) -> None:
        """Stop serving."""
        if self._runner is not None:
            await self._runner.cleanup()

    def interaction_on(self, payload: Mapping[str, Any]) -> None:
        """Note the message an interaction about to be sent was made on (a button's, or the form a
        button opened), as Discord knows it: a deferred update of that interaction edits that message."""
        message = payload.get("message")
        if isinstance(message, Mapping):
            self.interaction_messages[str(payload["token"])] = int(message["id"])

    # -- queries -------------------------------------------------------------------------------------

    def rest_requests(self, since: int = 0) -> list[RecordedRequest]:
        """The requests from the ``since``-th on that Discord counts in its global limit: all but the
        interactions' callbacks, followups and their edits (the interaction answers)."""
        return [
            r for r in self.requests[since:] if not (API_PREFIX + r.path).startswith(_INTERACTION_ENDPOINTS)
        ]

    def check_nothing_swallowed(self) -> None:
        """Fail if a message was answered with another of the same nonce (:attr:`swallowed`).

        Raises:
            AssertionError: one was, naming them.
        """
        assert self.swallowed == [], f"messages swallowed by a nonce of another: {self.swallowed}"

    def channel_messages(self, channel_id: int) -> list[JSON]:
        """The messages stored for ``channel_id``, oldest first."""
        return [m for m in self.messages.values() if m["channel_id"] == str(channel_id)]

    def last_with_button(self, channel_id: int, custom_id: str) -> JSON:
        """The newest message of ``channel_id`` that has a component ``custom_id`` (or ``custom_id``
        followed by a move number: ``scrabble:pass:1`` finds ``scrabble:pass:1:4``)."""
        for message in reversed(self.channel_messages(channel_id)):
            if button_id(message, custom_id) is not None:
                return message
        raise AssertionError(f"no message in channel {channel_id} has the button {custom_id}")

    def dms_to(self, user_id: int) -> list[RecordedRequest]:
        """Every message sent by DM to ``user_id``, oldest first."""
        return [
            r
            for r in self.requests
            if r.method == "POST"
            and r.path.startswith("/channels/")
            and r.path.endswith("/messages")
            and self.dm_recipients.get(int(r.path.split("/")[2])) == user_id
        ]

    def is_dm(self, request: RecordedRequest) -> bool:
        """Whether ``request`` sends a message to a DM channel."""
        parts = request.path.split("/")
        return request.path.startswith("/channels/") and int(parts[2]) in self.dm_recipients

    def public_requests(self) -> list[RecordedRequest]:
        """Every request that shows a message to others: channel messages and edits (not DMs), and
        interaction callbacks, followups and edits not flagged ephemeral."""
        public = []
        for r in self.requests:
            if (
                r.method not in ("POST", "PATCH")
                or r.path.startswith("/users/")
                or r.path.startswith("/applications/")
            ):
                continue
            if r.path.startswith("/channels/"):
                if not self.is_dm(r):
                    public.append(r)
            elif not r.ephemeral:
                public.append(r)
        return public

    def find(self, method: str, path_prefix: str) -> list[RecordedRequest]:
        """Every recorded request with this method whose path starts with ``path_prefix``."""
        return [r for r in self.requests if r.method == method and r.path.startswith(path_prefix)]

    async def wait_for(
        self, predicate: Callable[[RecordedRequest], bool], *, count: int = 1, timeout: float = 5.0
    ) -> list[RecordedRequest]:
        """Wait until ``count`` recorded requests match ``predicate``; return them in order."""
        assert self._changed is not None
        async with self._changed:
            await asyncio.wait_for(
                self._changed.wait_for(lambda: len([r for r in self.requests if predicate(r)]) >= count),
                timeout,
            )
        return [r for r in self.requests if predicate(r)]

    async def wait_for_route(
        self, method: str, path_prefix: str, *, count: int = 1, timeout: float = 5.0
    ) -> list[RecordedRequest]:
        """Wait for ``count`` requests with this method and path prefix."""
        return await self.wait_for(
            lambda r: r.method == method and r.path.startswith(path_prefix), count=count, timeout=timeout
        )

    async def callback_for(self, interaction: Mapping[str, Any], *, timeout: float = 5.0) -> RecordedRequest:
        """Wait for the callback (the acknowledgement) of the interaction built by a factory here."""
        path = f"/interactions/{interaction['id']}/{interaction['token']}/callback"
        (request,) = await self.wait_for(lambda r: r.path == path, timeout=timeout)
        return request

    async def followups_for(
        self, interaction: Mapping[str, Any], *, count: int = 1, timeout: float = 5.0
    ) -> list[RecordedRequest]:
        """Wait for ``count`` followups (``POST /webhooks/{app}/{token}``) of an interaction."""
        path = f"/webhooks/{interaction['application_id']}/{interaction['token']}"
        return await self.wait_for(
            lambda r: r.method == "POST" and r.path == path, count=count, timeout=timeout
        )

    # -- recording -----------------------------------------------------------------------------------

    @web.middleware
    async def _record(
        self, request: web.Request, handler: Callable[[web.Request], Any]
    ) -> web.StreamResponse:
        received_at = time.perf_counter()
        payload: Any = None
        files: list[RecordedFile] = []
        content_type = request.headers.get("Content-Type", "")
        if content_type.startswith("multipart/form-data"):
            for name, filename, data in form_parts(await request.read(), content_type):
                if filename is not None:
                    files.append(RecordedFile(name, filename, data))
                elif name == "payload_json":
                    payload = json.loads(data)
        elif content_type.startswith("application/x-www-form-urlencoded"):
            payload = dict(await request.post())
        elif request.can_read_body:
            raw = await request.read()
            payload = json.loads(raw) if raw else None
        recorded = RecordedRequest(
            method=request.method,
            path=request.path.removeprefix(API_PREFIX),
            query=dict(request.query),
            json=payload,
            files=tuple(files),
            authorization=request.headers.get("Authorization"),
            received_at=received_at,
        )
        request[RECORDED] = recorded
        if files and self.upload_seconds:
            await asyncio.sleep(self.upload_seconds)
        bucket, limited = self._rate_limit(request)
        if limited is not None:
            self.rate_limited.append(recorded)
            return limited
        response: web.StreamResponse = await handler(request)
        response.headers.update(bucket)
        assert self._changed is not None
        async with self._changed:
            self.requests.append(recorded)
            self._changed.notify_all()
        for listener in self.listeners:
            listener(recorded)
        return response

    def _rate_limit(self, request: web.Request) -> tuple[dict[str, str], web.Response | None]:
        """Count ``request`` in its windows: its bucket's headers, and the 429 answer if it is over a
        limit (then it counts in none)."""
        limits = self.rate_limits
        if limits is None:
            return {}, None
        now = time.monotonic()
        resource = request.match_info.route.resource
        route = f"{request.method} {resource.canonical if resource is not None else request.path}"
        major = ":".join(request.match_info.get(name, "") for name in _MAJOR_PARAMETERS)
        bucket = self._window(f"{route} {major}", limits.route_window, now)
        global_window = (
            None
            if request.path.startswith(_INTERACTION_ENDPOINTS)
            else self._window("global", limits.global_window, now)
        )
        reset_after = bucket.ends_at - now
        headers = {
            "X-RateLimit-Limit": str(limits.per_route),
            "X-RateLimit-Remaining": str(max(limits.per_route - bucket.count - 1, 0)),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": hashlib.sha1(route.encode()).hexdigest()[:16],
        }
        if global_window is not None and global_window.count >= limits.global_limit:
            scope = {"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"}
            return headers, _too_many(global_window.ends_at - now, scope, is_global=True)
        if bucket.count >= limits.per_route:
            return headers, _too_many(reset_after, headers | {"X-RateLimit-Scope": "user"}, is_global=False)
        bucket.count += 1
        if global_window is not None:
            global_window.count += 1
        return headers, None

    def _window(self, key: str, length: float, now: float) -> _Window:
        """The current rate-limit window of ``key``: a new one if the last has ended."""
        window = self._windows.get(key)
        if window is None or window.ends_at <= now:
            window = self._windows[key] = _Window(0, now + length)
        return window

    # -- message helpers -----------------------------------------------------------------------------

    def _message(self, channel_id: int, recorded: RecordedRequest, *, webhook_id: int | None = None) -> JSON:
        body: JSON = recorded.body
        attachments = [
            {
                "id": str(self.next_id()),
                "filename": f.filename,
                "size": len(f.data),
                "url": f"https://cdn.discordapp.com/attachments/{channel_id}/{f.filename}",
                "proxy_url": f"https://media.discordapp.net/attachments/{channel_id}/{f.filename}",
                "content_type": "image/png" if f.filename.endswith(".png") else "application/octet-stream",
            }
            for f in recorded.files
        ]
        message: JSON = {
            "id": str(self.next_id()),
            "channel_id": str(channel_id),
            "type": 0,
            "content": body.get("content") or "",
            "author": self.bot_user,
            "attachments": attachments,
            "embeds": body.get("embeds") or [],
            "components": body.get("components") or [],
            "mentions": [],
            "mention_roles": [],
            "mention_everyone": False,
            "pinned": False,
            "tts": False,
            "timestamp": _iso_now(),
            "edited_timestamp": None,
            "flags": body.get("flags") or 0,
        }
        if webhook_id is not None:
            message["webhook_id"] = str(webhook_id)
            message["application_id"] = str(self.application_id)
        return message

    @staticmethod
    def _recorded(request: web.Request) -> RecordedRequest:
        recorded: RecordedRequest = request[RECORDED]
        return recorded

    # -- handlers ------------------------------------------------------------------------------------

    async def _oauth_token(self, request: web.Request) -> web.Response:
        """Discord's token endpoint for the authorization-code grant: a code is exchanged once."""
        form = self._recorded(request).json or {}
        if (
            form.get("client_id") != str(self.application_id)
            or form.get("client_secret") != self.client_secret
        ):
            return _json({"error": "invalid_client"}, status=401)
        if form.get("grant_type") != "authorization_code":
            return _json({"error": "unsupported_grant_type"}, status=400)
        user_id = self.oauth_codes.pop(str(form.get("code")), None)
        if user_id is None:
            return _json(
                {"error": "invalid_grant", "error_description": 'Invalid "code" in request.'}, status=400
            )
        token = hashlib.sha256(f"token{next(self._oauth_ids)}".encode()).hexdigest()[:30]
        self.access_tokens[token] = user_id
        grant = {"access_token": token, "token_type": "Bearer", "expires_in": 604800, "scope": "identify"}
        return _json(grant | {"refresh_token": token[::-1]})

    async def _get_activity_instance(self, request: web.Request) -> web.Response:
        if not request.headers.get("Authorization", "").startswith("Bot "):
            return _json({"message": "401: Unauthorized", "code": 0}, status=401)
        instance = self.activity_instances.get(request.match_info["instance_id"])
        if instance is None or request.match_info["app_id"] != str(self.application_id):
            return _json({"message": "Unknown Activity Instance", "code": 10000}, status=404)
        return _json(instance)

    async def _get_me(self, request: web.Request) -> web.Response:
        authorization = request.headers.get("Authorization", "")
        if authorization.startswith("Bearer "):
            user_id = self.access_tokens.get(authorization.removeprefix("Bearer "))
            if user_id is None:
                return _json({"message": "401: Unauthorized", "code": 0}, status=401)
            return _json(self.oauth_users[user_id])
        if authorization in ("", "Bot ") or (self.valid_token and authorization != f"Bot {self.valid_token}"):
            return _json({"message": "401: Unauthorized", "code": 0}, status=401)
        me = self.bot_user | {"verified": True, "mfa_enabled": False, "email": None, "locale": "en-US"}
        return _json(me)

    async def _get_application(self, request: web.Request) -> web.Response:
        return _json(
            {
                "id": str(self.application_id),
                "name": self.bot_name,
                "icon": None,
                "description": "",
                "summary": "",
                "type": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "verify_key": "0" * 64,
                "flags": 0,
                "owner": user_payload(1, "owner"),
                "team": None,
                "bot": self.bot_user,
                "redirect_uris": [],
                "interactions_endpoint_url": None,
                "approximate_guild_count": 1,
            }
        )

    async def _get_gateway(self, request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        return _json({"url": self.gateway_url, "shards": 1, "session_start_limit": limit})

    def _scope(self, request: web.Request) -> int | None:
        guild_id = request.match_info.get("guild_id")
        return int(guild_id) if guild_id is not None else None

    async def _put_commands(self, request: web.Request) -> web.Response:
        scope = self._scope(request)
        body: list[JSON] = self._recorded(request).json
        registered = [
            command
            | {
                "id": str(self.next_id()),
                "application_id": str(self.application_id),
                "version": str(self.next_id()),
                "default_member_permissions": command.get("default_member_permissions"),
                "type": command.get("type", 1),
                "nsfw": command.get("nsfw", False),
            }
            | ({"guild_id": str(scope)} if scope is not None else {})
            for command in body
        ]
        self.commands[scope] = registered
        return _json(registered)

    async def _get_commands(self, request: web.Request) -> web.Response:
        return _json(self.commands.get(self._scope(request), []))

    async def _interaction_callback(self, request: web.Request) -> web.Response:
        recorded = self._recorded(request)
        if (refused := _too_long(recorded.json)) is not None:
            return refused
        if request.match_info["interaction_id"] in self.expired_interactions:
            return _json({"message": "Unknown interaction", "code": 10062}, status=404)
        body: JSON = recorded.json
        kind: int = body["type"]
        data: JSON = body.get("data") or {}
        interaction: JSON = {
            "id": request.match_info["interaction_id"],
            "type": 2,
            "response_message_loading": kind == 5,
            "response_message_ephemeral": bool(data.get("flags", 0) & EPHEMERAL),
        }
        result: JSON = {"interaction": interaction}
        if kind == 12 and self.launch_refused:
            return _json({"message": "Cannot launch an activity here", "code": 50035}, status=400)
        if kind == 12:
            result["resource"] = {"type": kind, "activity_instance": {"id": f"i-{self.next_id()}"}}
        if kind in (4, 5):
            message = self._message(0, recorded)
            self.messages[int(message["id"])] = message
            interaction["response_message_id"] = message["id"]
            result["resource"] = {"type": kind, "message": message}
        return _json(result)

    async def _get_original(self, request: web.Request) -> web.Response:
        return _json(self._message(0, self._recorded(request), webhook_id=self.application_id))

    async def _edit_original(self, request: web.Request) -> web.Response:
        """The interaction's answer edited; after a deferred update of a button's interaction, the message
        the button is on (stored, as :meth:`_edit_message` edits it)."""
        message_id = self.interaction_messages.get(request.match_info["token"])
        if message_id is not None and message_id in self.messages:
            return _json(self._edited(message_id, self._recorded(request)))
        return _json(self._message(0, self._recorded(request), webhook_id=self.application_id))

    async def _delete_original(self, request: web.Request) -> web.Response:
        return web.Response(status=204)

    async def _followup(self, request: web.Request) -> web.Response:
        if (refused := _too_long(self._recorded(request).json)) is not None:
            return refused
        message = self._message(0, self._recorded(request), webhook_id=self.application_id)
        self.messages[int(message["id"])] = message
        return _json(message)

    async def _edit_followup(self, request: web.Request) -> web.Response:
        return _json(self._message(0, self._recorded(request), webhook_id=self.application_id))

    async def _create_dm(self, request: web.Request) -> web.Response:
        recipient_id = int(self._recorded(request).json["recipient_id"])
        channel_id = next(
            (c for c, u in self.dm_recipients.items() if u == recipient_id),
            None,
        )
        if channel_id is None:
            channel_id = self.next_id()
            self.dm_recipients[channel_id] = recipient_id
        return _json(dm_channel_payload(channel_id, user_payload(recipient_id, f"user{recipient_id}")))

    async def _get_channel(self, request: web.Request) -> web.Response:
        channel_id = int(request.match_info["channel_id"])
        if channel_id in self.dm_recipients:
            user_id = self.dm_recipients[channel_id]
            return _json(dm_channel_payload(channel_id, user_payload(user_id, f"user{user_id}")))
        return _json(text_channel_payload(channel_id, 0))

    async def _post_message(self, request: web.Request) -> web.Response:
        channel_id = int(request.match_info["channel_id"])
        if self.dm_recipients.get(channel_id) in self.closed_dm_user_ids:
            return _json({"message": "Cannot send messages to this user", "code": 50007}, status=403)
        if (refused := _too_long(self._recorded(request).json)) is not None:
            return refused
        body = self._recorded(request).json or {}
        nonce = (channel_id, str(body["nonce"])) if body.get("enforce_nonce") and "nonce" in body else None
        if nonce is not None and nonce in self._nonces:
            made = self.messages[self._nonces[nonce]]
            if made["content"] != (body.get("content") or ""):
                self.swallowed.append(self._recorded(request))
            return _json(made)
        message = self._message(channel_id, self._recorded(request))
        self.messages[int(message["id"])] = message
        if nonce is not None:
            message["nonce"] = nonce[1]
            self._nonces[nonce] = int(message["id"])
        if self.failures_after_create > 0:
            self.failures_after_create -= 1
            return _json({"message": "500: Internal Server Error", "code": 0}, status=500)
        return _json(message)

    async def _get_message(self, request: web.Request) -> web.Response:
        message = self.messages.get(int(request.match_info["message_id"]))
        if message is None:
            return _json({"message": "Unknown Message", "code": 10008}, status=404)
        return _json(message)

    async def _edit_message(self, request: web.Request) -> web.Response:
        message_id = int(request.match_info["message_id"])
        if message_id not in self.messages:
            return _json({"message": "Unknown Message", "code": 10008}, status=404)
        return _json(self._edited(message_id, self._recorded(request)))

    def _edited(self, message_id: int, recorded: RecordedRequest) -> JSON:
        """Stored message ``message_id`` with the fields ``recorded`` sends (the others kept)."""
        old = self.messages[message_id]
        body = recorded.body
        new = old | {"edited_timestamp": _iso_now()}
        for name in ("content", "components", "embeds", "flags"):
            if name in body:
                new[name] = body[name] if body[name] is not None else old.get(name)
        if recorded.files:
            new["attachments"] = self._message(int(old["channel_id"]), recorded)["attachments"]
        self.messages[message_id] = new
        return new

    async def _typing(self, request: web.Request) -> web.Response:
        return web.Response(status=204)

    async def _delete_message(self, request: web.Request) -> web.Response:
        self.messages.pop(int(request.match_info["message_id"]), None)
        return web.Response(status=204)


_INTERACTION_IDS = itertools.count(1_200_000_000_000_000_000)
"""Interaction ids, unique over the session (a restarted bot's interactions never reuse a token)."""


@dataclass
class Payloads:
    """Factories for interaction-create payloads shaped exactly as Discord's gateway sends them.

    By default the interaction comes from :attr:`user_id` in a guild text channel; pass ``channel``
    (e.g. :func:`thread_channel_payload`) for a thread, or ``dm=True`` for a DM.
    """

    application_id: int
    guild_id: int = 800_000_000_000_000_001
    channel_id: int = 800_000_000_000_000_002
    user_id: int = 700_000_000_000_000_001
    user_name: str = "alice"
    locale: str = "en-US"
    command_ids: dict[str, int] = field(default_factory=dict)
    _ids: itertools.count[int] = field(default_factory=lambda: _INTERACTION_IDS)

    def _base(
        self,
        kind: int,
        data: JSON,
        *,
        channel: JSON | None,
        dm: bool,
        user_id: int | None,
        permissions: str = DEFAULT_PERMISSIONS,
    ) -> JSON:
        interaction_id = next(self._ids)
        user = user_payload(user_id or self.user_id, self.user_name if user_id is None else f"user{user_id}")
        payload: JSON = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": kind,
            "data": data,
            "token": f"itoken-{interaction_id}",
            "version": 1,
            "locale": self.locale,
            "app_permissions": DEFAULT_PERMISSIONS,
            "entitlements": [],
            "attachment_size_limit": 10_485_760,
        }
        if dm:
            payload |= {
                "channel_id": str(self.channel_id),
                "channel": dm_channel_payload(self.channel_id, user),
                "user": user,
                "authorizing_integration_owners": {"0": str(self.application_id)},
                "context": 1,
            }
        else:
            payload |= {
                "guild_id": str(self.guild_id),
                "guild": {"id": str(self.guild_id), "locale": "en-US", "features": []},
                "guild_locale": "en-US",
                "channel_id": str(channel["id"] if channel else self.channel_id),
                "channel": channel or text_channel_payload(self.channel_id, self.guild_id),
                "member": member_payload(user, permissions=permissions),
                "authorizing_integration_owners": {"0": str(self.guild_id)},
                "context": 0,
            }
        return payload

    def slash(
        self,
        subcommand: str,
        options: Iterable[JSON] = (),
        *,
        group: str = "scrabble",
        channel: JSON | None = None,
        dm: bool = False,
        user_id: int | None = None,
        permissions: str = DEFAULT_PERMISSIONS,
        resolved: JSON | None = None,
    ) -> JSON:
        """A type 2 interaction for ``/{group} {subcommand}`` with the given (already typed) options;
        ``resolved`` holds the users that user options name, as Discord sends them."""
        data = self._command_data(group, subcommand, list(options))
        if resolved is not None:
            data["resolved"] = resolved
        return self._base(2, data, channel=channel, dm=dm, user_id=user_id, permissions=permissions)

    def autocomplete(
        self,
        subcommand: str,
        focused: str,
        value: str,
        other_options: Iterable[JSON] = (),
        *,
        group: str = "scrabble",
        user_id: int | None = None,
    ) -> JSON:
        """A type 4 interaction: the user is typing ``value`` into the option ``focused``."""
        options = [*other_options, {"name": focused, "type": 3, "value": value, "focused": True}]
        return self._base(
            4, self._command_data(group, subcommand, options), channel=None, dm=False, user_id=user_id
        )

    def component(
        self,
        message: JSON,
        custom_id: str,
        *,
        component_type: int = 2,
        user_id: int | None = None,
        permissions: str = DEFAULT_PERMISSIONS,
    ) -> JSON:
        """A type 3 interaction: a click on the component ``custom_id`` of ``message`` (as the fake stored
        it; see :func:`button_id` for a turn button named without its move number)."""
        data: JSON = {
            "custom_id": button_id(message, custom_id) or custom_id,
            "component_type": component_type,
        }
        payload = self._base(3, data, channel=None, dm=False, user_id=user_id, permissions=permissions)
        payload["message"] = message
        return payload

    def modal_submit(
        self,
        custom_id: str,
        values: Mapping[str, str],
        *,
        user_id: int | None = None,
        message: JSON | None = None,
    ) -> JSON:
        """A type 5 interaction: the modal ``custom_id`` is submitted with text inputs ``values``; with
        ``message``, the form was opened by a button of that message (Discord sends it along)."""
        rows = [
            {"type": 1, "components": [{"type": 4, "custom_id": input_id, "value": value}]}
            for input_id, value in values.items()
        ]
        data: JSON = {"custom_id": custom_id, "components": rows}
        payload = self._base(5, data, channel=None, dm=False, user_id=user_id)
        if message is not None:
            payload["message"] = message
        return payload

    def _command_data(self, group: str, subcommand: str, options: list[JSON]) -> JSON:
        command_id = self.command_ids.setdefault(group, next(self._ids))
        return {
            "id": str(command_id),
            "name": group,
            "type": 1,
            "guild_id": str(self.guild_id),
            "options": [{"name": subcommand, "type": 1, "options": options}],
        }


def string_option(name: str, value: str) -> JSON:
    """A filled string option (type 3) of a slash command."""
    return {"name": name, "type": 3, "value": value}


def bool_option(name: str, value: bool) -> JSON:
    """A filled boolean option (type 5) of a slash command."""
    return {"name": name, "type": 5, "value": value}


def integer_option(name: str, value: int) -> JSON:
    """A filled integer option (type 4) of a slash command."""
    return {"name": name, "type": 4, "value": value}


def user_option(name: str, user_id: int, guild_id: int) -> tuple[JSON, JSON]:
    """A filled user option (type 6) and the ``resolved`` data Discord sends with it (user and member)."""
    user = user_payload(user_id, f"user{user_id}")
    member = {k: v for k, v in member_payload(user).items() if k not in ("user", "deaf", "mute")}
    resolved = {"users": {str(user_id): user}, "members": {str(user_id): member}}
    return {"name": name, "type": 6, "value": str(user_id)}, resolved


def custom_ids(message: Mapping[str, Any]) -> list[str]:
    """The custom ids of every component of a stored message, in order."""
    found: list[str] = []
    for row in message.get("components", []):
        found.extend(
            component["custom_id"] for component in row.get("components", []) if "custom_id" in component
        )
    return found


def button_id(message: Mapping[str, Any], custom_id: str) -> str | None:
    """The custom id of ``message``'s button ``custom_id``, or of the button whose custom id is
    ``custom_id`` followed by the move number it was shown under (``scrabble:pass:1`` is
    ``scrabble:pass:1:4`` on the turn message of move 4); ``None`` if it has neither."""
    ids = custom_ids(message)
    if custom_id in ids:
        return custom_id
    return next((found for found in ids if re.fullmatch(rf"{re.escape(custom_id)}:[0-9]+", found)), None)


ACK_TIMES: list[float] = []
"""Seconds from dispatch to acknowledgement of every interaction awaited with :meth:`BotHarness.ack`,
over the whole session (reported by ``pytest_terminal_summary`` in ``conftest.py``)."""


@dataclass
class BotHarness:
    """A bot logged in against :class:`FakeDiscord`, with payload factories and dispatch helpers."""

    bot: GameBot
    fake: FakeDiscord
    payloads: Payloads
    store: Store
    _dispatched_at: dict[str, float] = field(default_factory=dict)

    @property
    def host(self) -> Host:
        """The bot's host."""
        return self.bot.host

    @property
    def service(self) -> ScrabbleCommands:
        """Scrabble's commands on the bot."""
        commands: ScrabbleCommands = self.host.commands["scrabble"]
        return commands

    @property
    def go(self) -> GoCommands:
        """Go's commands on the bot."""
        commands: GoCommands = self.host.commands["go"]
        return commands

    def dispatch(self, payload: JSON) -> None:
        """Hand ``payload`` to the bot exactly as the gateway's INTERACTION_CREATE handler does."""
        self.fake.interaction_on(payload)
        self._dispatched_at[payload["id"]] = time.perf_counter()
        self.bot._connection.parse_interaction_create(cast("InteractionCreateEvent", payload))

    async def ack(self, payload: JSON, *, timeout: float = 5.0) -> RecordedRequest:
        """Dispatch ``payload`` and return its callback request; record the time it took."""
        self.dispatch(payload)
        callback = await self.fake.callback_for(payload, timeout=timeout)
        ACK_TIMES.append(callback.received_at - self._dispatched_at[payload["id"]])
        return callback

    async def reply(self, payload: JSON, *, timeout: float = 15.0) -> RecordedRequest:
        """Dispatch ``payload`` and return the message it is answered with: the callback's, or the
        first followup if the callback was a deferral, once what the service queued for the channels
        meanwhile (the announcements that go out behind the answer) went out: after a channel's fifth
        post or edit within Discord's window of five seconds, discord.py waits out the window."""
        callback = await self.ack(payload, timeout=timeout)
        answer = callback
        if callback.json["type"] in (5, 6):
            (answer, *_) = await self.fake.followups_for(payload, timeout=timeout)
        await asyncio.wait_for(self.host.delivered(), timeout)
        return answer


TEST_TOKEN = "MTIz.fake-token.for-tests"
"""The token the test bots log in with."""

MakeHarness = Callable[..., Awaitable[BotHarness]]
"""The type of the ``make_harness`` fixture."""
