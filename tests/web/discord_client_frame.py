"""A fake Discord client frame for the browser tests: the parent page that frames an Activity, as Discord's
client does, and speaks the Embedded App SDK's side of ``postMessage`` to it.

What Discord's client does, and this fake with it (the frames read from the SDK's ``Discord.mjs`` and its
response schemas, version 2.5.0):

* It loads the Activity in an iframe with the SDK's query parameters: ``frame_id``, ``instance_id``,
  ``platform`` (``desktop`` or ``mobile``), ``guild_id``, ``channel_id``; the user is then in that
  instance of the channel (:meth:`~discord_fake.FakeDiscord.join_activity`), as the bot can ask Discord.
* The SDK sends ``[0, {v: 1, encoding: "json", client_id, frame_id, sdk_version}]`` (opcode 0: the
  handshake) to its parent; the client answers ``[1, {cmd: "DISPATCH", evt: "READY", nonce: null,
  data: {v: 1, config: {...}}}]`` (opcode 1, a frame), which resolves the SDK's ``ready()``.
* A command is ``[1, {cmd, args, nonce}]``; its answer ``[1, {cmd, evt: null, nonce, data}]``, or
  ``[1, {cmd, evt: "ERROR", nonce, data: {code, message}}]``. ``AUTHORIZE`` answers ``{code}`` (an
  OAuth2 code of the user for the application, which :class:`~discord_fake.FakeDiscord` issues and its
  token endpoint exchanges once); ``AUTHENTICATE`` checks the access token against the fake's and
  answers the user, the scopes and the application. Any other command answers ``null``.
* The SDK accepts messages only from its list of Discord's origins, which has ``http://localhost:3333``
  (Discord's local development client): the fake page is served there by Playwright's routing (no
  server listens on that port), and the board's Activity route lets that origin frame it.

The parent page is plain HTML and script: the iframe fills it, and the commands are answered by Python
(:meth:`DiscordClientFrame.command`, exposed to the page) so that the codes come from the fake API.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final
from urllib.parse import urlencode

from discord_fake import FakeDiscord
from playwright.sync_api import BrowserContext, FrameLocator, Page, Route

from bot.host.seats import User

FAKE_CLIENT: Final = "http://localhost:3333"
"""The fake client's origin: one the SDK accepts messages from."""

CLIENT_PAGE: Final = """<!doctype html>
<html><head><meta charset="utf-8"><title>Discord (fake client)</title>
<style>html, body { margin: 0; height: 100%; } iframe { border: 0; width: 100%; height: 100%; display: block; }</style>
</head><body><iframe id="activity" allow="clipboard-write"></iframe>
<script>
const frame = document.getElementById("activity");
frame.src = new URLSearchParams(location.search).get("src");
const board = new URL(frame.src).origin;
window.handshakes = [];
window.addEventListener("message", async (event) => {
  if (event.source !== frame.contentWindow || event.origin !== board || !Array.isArray(event.data)) return;
  const [opcode, payload] = event.data;
  const send = (frame_) => event.source.postMessage([1, frame_], board);
  if (opcode === 0) {
    window.handshakes.push(payload);
    send({ cmd: "DISPATCH", evt: "READY", nonce: null, data: { v: 1, config: {
      cdn_host: "cdn.discordapp.com", api_endpoint: "//discord.com/api", environment: "production" } } });
  } else if (opcode === 1) {
    const answer = await window.discordCommand(payload.cmd, payload.args ?? null);
    send({ cmd: payload.cmd, evt: answer.error ? "ERROR" : null, nonce: payload.nonce,
           data: answer.error ?? answer.data });
  }
});
</script></body></html>"""


@dataclass
class DiscordClientFrame:
    """One user's Discord client showing the Activity of a channel: ``user`` signs in to the fake API's
    application. ``run_in_loop`` runs a function where ``fake`` lives (its event loop's thread)."""

    fake: FakeDiscord
    user: User
    run_in_loop: Callable[[Callable[[], Any]], Any]
    commands: list[tuple[str, Any]] = field(default_factory=list)
    """Every command the Activity sent, with its arguments."""

    def command(self, cmd: str, args: Any) -> dict[str, Any]:
        """The client's answer to the SDK's command ``cmd``: ``{"data": ...}`` or ``{"error": ...}``."""
        self.commands.append((cmd, args))
        fake = self.fake
        if cmd == "AUTHORIZE":
            if args.get("client_id") != str(fake.application_id) or "identify" not in args.get("scope", []):
                return {"error": {"code": 4007, "message": "Invalid client id"}}
            return {"data": {"code": self.run_in_loop(lambda: fake.authorize(self.user.id, self.user.name))}}
        if cmd == "AUTHENTICATE":
            owner = self.run_in_loop(lambda: fake.access_tokens.get(str(args.get("access_token"))))
            if owner != self.user.id:
                return {"error": {"code": 4009, "message": "Invalid token"}}
            user = fake.oauth_users[self.user.id]
            application = {
                "id": str(fake.application_id),
                "name": fake.bot_name,
                "description": "",
                "icon": None,
            }
            return {
                "data": {
                    "access_token": args["access_token"],
                    "user": {
                        key: user[key] for key in ("id", "username", "discriminator", "avatar", "global_name")
                    }
                    | {"public_flags": 0},
                    "scopes": ["identify"],
                    "expires": "2030-01-01T00:00:00.000Z",
                    "application": application,
                }
            }
        return {"data": None}

    def open(
        self,
        context: BrowserContext,
        board: str,
        *,
        channel: int,
        guild: int,
        platform: str = "desktop",
    ) -> Page:
        """A page of ``context`` showing the client with the Activity at ``board`` (the Activity's URL)
        in channel ``channel`` of guild ``guild``."""
        page = context.new_page()

        def serve(route: Route) -> None:
            route.fulfill(status=200, content_type="text/html", body=CLIENT_PAGE)

        page.route(f"{FAKE_CLIENT}/**", serve)
        page.expose_function("discordCommand", self.command)
        query = {
            "frame_id": f"frame-{next(_FRAMES)}",
            "instance_id": f"i-{guild}-{channel}",
            "platform": platform,
            "guild_id": str(guild),
            "channel_id": str(channel),
        }
        self.run_in_loop(lambda: self.fake.join_activity(query["instance_id"], channel, guild, self.user.id))
        page.goto(
            f"{FAKE_CLIENT}/channels/{guild}/{channel}?{urlencode({'src': f'{board}?{urlencode(query)}'})}"
        )
        return page


def activity_of(page: Page) -> FrameLocator:
    """The Activity inside the fake client's page."""
    return page.frame_locator("#activity")


def handshakes(page: Page) -> list[dict[str, Any]]:
    """The handshakes the Activity's SDK sent the client."""
    found: list[dict[str, Any]] = json.loads(page.evaluate("JSON.stringify(window.handshakes)"))
    return found


_FRAMES = itertools.count(1)
