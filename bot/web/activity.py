"""The board as a Discord Activity: who the Discord user in the frame is, and which board they open.

Inside Discord the page (``static/activity.js``, with Discord's Embedded App SDK) asks the Discord client
to ``authorize`` the application (scope ``identify``) and sends the code it gets, with the id of the
Activity's instance, to ``POST activity/session``. :class:`ActivitySignIn` exchanges the code at
Discord's OAuth2 token endpoint with the application's client id and secret, reads the user with the
access token (``/users/@me``), and asks Discord (as the bot) where that instance runs and who is in it:
the channel is Discord's word, not the page's, and the user must be in the instance. It answers the page
with the access token (for the SDK's ``authenticate``) and the board token of that user in the channel's
game: their own seat's if they play it, a spectator's otherwise, and never another seat's. A code is
spent once: a replayed one is refused here before Discord refuses it too. The client secret and the
bot's token are never logged nor sent to the page; no token goes in a URL (the board token travels in
the answer's body, then in ``hello``).
"""

from __future__ import annotations

import logging
import re
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import quote

import aiohttp

from bot.config import ActivityConfig
from bot.host.runner import Host
from bot.host.store import GameStatus
from bot.web.errors import ProtocolError
from bot.web.links import LinkSigner, Role

__all__ = ["ActivitySignIn", "DiscordUser", "Session"]

logger = logging.getLogger("bot.web")

CODE: Final = re.compile(r"[A-Za-z0-9]{1,100}")
"""What an OAuth2 code looks like (Discord's are 30 letters and digits)."""
SNOWFLAKE: Final = re.compile(r"[0-9]{1,20}")
INSTANCE: Final = re.compile(r"[A-Za-z0-9_.:-]{1,200}")
"""What the id of an Activity's instance looks like (the SDK's ``instance_id``)."""
SPENT_SECONDS: Final = 15 * 60.0
"""How long a spent code is remembered (Discord's codes expire within ten minutes)."""
SPENT_CODES: Final = 100_000
"""The most spent codes remembered at once (the oldest are forgotten first)."""
DISCORD_SECONDS: Final = 10.0
"""How long a call to Discord's API may take."""
MAX_NAME: Final = 32


@dataclass(frozen=True, slots=True)
class DiscordUser:
    """The Discord user an access token belongs to."""

    id: int
    name: str


@dataclass(frozen=True, slots=True)
class Session:
    """What the page gets for a code: the ``access_token`` (for the SDK's ``authenticate``) and the
    board ``token`` of ``user`` in the channel's game ``game_id`` (of ``kind``), with its ``role``;
    ``seat_on_start``: the user has a seat in the game's lobby, which they play once it starts (the page
    then signs in again)."""

    access_token: str
    user: DiscordUser
    game_id: int
    kind: str
    role: Role
    token: str
    seat_on_start: bool = False

    def to_json(self) -> dict[str, Any]:
        """The answer's body."""
        return {
            "ok": True,
            "access_token": self.access_token,
            "user": {"id": str(self.user.id), "name": self.user.name},
            "game": {"id": self.game_id, "kind": self.kind},
            "role": self.role.value,
            "token": self.token,
            "seat_on_start": self.seat_on_start,
        }


class ActivitySignIn:
    """Signs Discord users in to the board of their channel's game (see the module)."""

    def __init__(
        self,
        config: ActivityConfig,
        host: Host,
        signer: LinkSigner,
        bot_token: str,
        *,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.config = config
        self._bot_token = bot_token
        self._host = host
        self._signer = signer
        self._now = now
        self._spent: OrderedDict[str, float] = OrderedDict()
        self._http: aiohttp.ClientSession | None = None

    async def close(self) -> None:
        """Close the connections to Discord's API."""
        if self._http is not None:
            await self._http.close()
            self._http = None

    async def session(self, body: Any) -> Session:
        """Sign in the user of the page's request ``body`` (``code``, ``instance_id``).

        Raises:
            ProtocolError: ``bad_message`` (a malformed request), ``unauthorized`` (a forged, expired
                or replayed code, a token Discord does not know, an instance that is not running or
                that the user is not in), ``discord_unavailable`` (Discord did not answer),
                ``no_game`` (no game of the board in the instance's channel).
        """
        if not isinstance(body, dict):
            raise ProtocolError("bad_message", "send a JSON object with code and instance_id")
        code, instance = body.get("code"), body.get("instance_id")
        if not isinstance(code, str) or not CODE.fullmatch(code):
            raise ProtocolError("bad_message", "code must be the code Discord gave the page")
        if not isinstance(instance, str) or not INSTANCE.fullmatch(instance):
            raise ProtocolError("bad_message", "instance_id must be the id of the Activity's instance")
        self._spend(code)
        access_token = await self._exchange(code)
        user = await self._user(access_token)
        channel, guild = await self._location(instance, user)
        return self._seat(access_token, user, channel, guild)

    def _spend(self, code: str) -> None:
        """Mark ``code`` spent.

        Raises:
            ProtocolError: ``unauthorized``: it was spent already.
        """
        now = self._now()
        while self._spent and (
            len(self._spent) >= SPENT_CODES or next(iter(self._spent.values())) < now - SPENT_SECONDS
        ):
            self._spent.popitem(last=False)
        if code in self._spent:
            logger.info("activity: a sign-in code was replayed")
            raise ProtocolError(
                "unauthorized", "this sign-in was used already: close the board and open it again"
            )
        self._spent[code] = now

    def _client(self) -> aiohttp.ClientSession:
        if self._http is None:
            self._http = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=DISCORD_SECONDS))
        return self._http

    async def _exchange(self, code: str) -> str:
        """The access token Discord's token endpoint gives for ``code``.

        Raises:
            ProtocolError: ``unauthorized`` (Discord refused the code, or granted no ``identify``),
                ``discord_unavailable``.
        """
        form = {
            "client_id": str(self.config.client_id),
            "client_secret": self.config.client_secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        try:
            async with self._client().post(f"{self.config.api}/oauth2/token", data=form) as response:
                if response.status in (400, 401):
                    logger.info("activity: Discord refused a sign-in code (%d)", response.status)
                    raise ProtocolError(
                        "unauthorized",
                        "Discord did not accept this sign-in: close the board and open it again",
                    )
                response.raise_for_status()
                grant = await response.json()
        except (aiohttp.ClientError, TimeoutError, ValueError) as error:
            raise _unavailable(error) from None
        token = grant.get("access_token") if isinstance(grant, dict) else None
        scopes = str(grant.get("scope", "")).split() if isinstance(grant, dict) else []
        if not isinstance(token, str) or not token or "identify" not in scopes:
            raise ProtocolError(
                "unauthorized", "Discord did not say who you are: allow the board to know you"
            )
        return token

    async def _get(self, url: str, authorization: str, status: int, refusal: ProtocolError) -> Any:
        """The JSON Discord's API answers a GET of ``url`` with ``authorization``.

        Raises:
            ProtocolError: ``refusal`` if it answers ``status``; ``discord_unavailable`` if it answers
                another error, or not at all.
        """
        try:
            async with self._client().get(url, headers={"Authorization": authorization}) as response:
                if response.status == status:
                    raise refusal
                response.raise_for_status()
                return await response.json()
        except (aiohttp.ClientError, TimeoutError, ValueError) as error:
            raise _unavailable(error) from None

    async def _user(self, access_token: str) -> DiscordUser:
        """The user of ``access_token`` (``/users/@me``).

        Raises:
            ProtocolError: ``unauthorized`` (Discord does not know the token), ``discord_unavailable``.
        """
        refused = ProtocolError("unauthorized", "Discord did not accept this sign-in: open the board again")
        me = await self._get(f"{self.config.api}/users/@me", f"Bearer {access_token}", 401, refused)
        user_id = me.get("id") if isinstance(me, dict) else None
        if not isinstance(user_id, str) or not SNOWFLAKE.fullmatch(user_id):
            raise _unavailable(ValueError("no user id"))
        name = me.get("global_name") or me.get("username") or "?"
        return DiscordUser(int(user_id), str(name)[:MAX_NAME])

    async def _location(self, instance_id: str, user: DiscordUser) -> tuple[int, int | None]:
        """The channel and guild the Activity's instance ``instance_id`` runs in, as Discord says.

        Raises:
            ProtocolError: ``unauthorized`` (no such instance, or ``user`` is not in it; an instance
                outside a channel), ``discord_unavailable``.
        """
        url = f"{self.config.api}/applications/{self.config.client_id}/activity-instances/{quote(instance_id, safe='')}"
        gone = ProtocolError("unauthorized", "this board is not open in Discord: open it from Discord again")
        found = await self._get(url, f"Bot {self._bot_token}", 404, gone)
        location = found.get("location") if isinstance(found, dict) else None
        users = found.get("users") if isinstance(found, dict) else None
        if not isinstance(location, dict) or not isinstance(users, list):
            raise _unavailable(ValueError("not an activity instance"))
        if str(user.id) not in users:
            raise ProtocolError(
                "unauthorized", "you are not in this Activity: join it in Discord, then open the board"
            )
        channel, guild = location.get("channel_id"), location.get("guild_id")
        if not isinstance(channel, str) or not SNOWFLAKE.fullmatch(channel):
            raise ProtocolError("no_game", self.no_game_text())
        return int(channel), int(guild) if isinstance(guild, str) and SNOWFLAKE.fullmatch(guild) else None

    def _seat(self, access_token: str, user: DiscordUser, channel_id: int, guild_id: int | None) -> Session:
        """The session of ``user`` in the game of ``channel_id``: their seat's token once the game has
        started (in the lobby seats still move) and they play one, a spectator's otherwise.

        Raises:
            ProtocolError: ``no_game``: no open game in that channel (of that guild), or one of a game
                without a web board.
        """
        table = self._host.tables.get(channel_id)
        if table is None or (guild_id is not None and table.row.guild_id != guild_id):
            raise ProtocolError("no_game", self.no_game_text())
        plugin = self._host.plugins[table.row.kind]
        if not plugin.board_links:
            raise ProtocolError(
                "no_game", f"This channel's {plugin.title} game has no board here: play it with its commands."
            )
        row = table.row
        seat = next((s.seat for s in row.seats if s.user_id == user.id), None)
        if seat is None or row.status is not GameStatus.ACTIVE:
            token, role = self._signer.token(row.id, Role.SPECTATOR), Role.SPECTATOR
        else:
            token, role = self._signer.token(row.id, Role.PLAYER, seat), Role.PLAYER
        logger.info("activity: game %d: a %s signed in", row.id, role.value)
        lobby = row.status is GameStatus.LOBBY
        return Session(
            access_token, user, row.id, row.kind, role, token, seat_on_start=seat is not None and lobby
        )

    def no_game_text(self) -> str:
        """What the Activity shows in a channel without a game: how to start one."""
        commands = " or ".join(
            f"/{kind} new" for kind, plugin in self._host.plugins.items() if plugin.board_links
        )
        return f"No game here: start one with {commands}, then open the board again."


def _unavailable(error: BaseException) -> ProtocolError:
    logger.warning("activity: Discord's API did not answer (%s)", type(error).__name__)
    return ProtocolError("discord_unavailable", "Discord did not answer: try again in a moment")
