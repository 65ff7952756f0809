"""The web server's perimeter, one aiohttp middleware (:func:`perimeter`): the headers every response
carries, errors included (a strict Content-Security-Policy, no sniffing, no framing, no referrer, and a
``Server`` header without versions; the Activity's page alone may be framed, by Discord's clients only); the hosts the server answers to (:class:`HostPolicy`: against DNS
rebinding, a page of another site that renames its own domain to this machine's address); and the
origins whose pages may open the websocket (against a page of another site connecting in the player's
name). Programs, which send no ``Origin``, connect as before.
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Final
from urllib.parse import urlsplit

from aiohttp import hdrs, web

from bot.config import is_ip_address
from scrabble_core.errors import echo

__all__ = ["ANY_HOST", "CSP", "SECURITY_HEADERS", "SERVER_NAME", "HostPolicy", "framed_headers", "perimeter"]

logger = logging.getLogger("bot.web")

_CSP_SOURCES: Final = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'"
)
CSP: Final = f"{_CSP_SOURCES}; frame-ancestors 'none'"
SERVER_NAME: Final = "scrabble-host"
"""The ``Server`` header: no program or version for a scanner to look up."""
SECURITY_HEADERS: Final = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Server": SERVER_NAME,
}
ANY_HOST: Final = "*"
"""In the allowed hosts: answer to any host (no DNS-rebinding defence: only behind a proxy that checks)."""
LOOPBACK: Final = frozenset({"localhost", "127.0.0.1", "::1"})
WILDCARDS: Final = frozenset({"", "0.0.0.0", "::"})
"""Bound addresses that listen on every interface."""
DEFAULT_PORTS: Final = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def framed_headers(ancestors: Iterable[str]) -> dict[str, str]:
    """:data:`SECURITY_HEADERS` for a page that the ``ancestors`` (origins: Discord's clients for the
    Activity) may frame, and nobody else: the same sources, ``frame-ancestors`` naming them, and no
    ``X-Frame-Options`` (which can only deny every frame or allow the page's own origin)."""
    headers = {name: value for name, value in SECURITY_HEADERS.items() if name != "X-Frame-Options"}
    headers["Content-Security-Policy"] = f"{_CSP_SOURCES}; frame-ancestors {' '.join(ancestors)}"
    return headers


class HostPolicy:
    """The hosts the server answers to and the page origins that may open its websocket.

    Allowed hosts: the loopback names, the bound address, ``public_url``'s host and the ``extra`` names
    of the config (``*``: any); bound to every interface (``0.0.0.0``), also this machine's name and any
    IP address (a rebinding page always names a domain). A page may open the websocket when its origin's
    host is allowed and it is the page's own server (the same host and port as the request's ``Host``),
    or a named host: ``public_url``'s or one of ``extra`` (behind a proxy that rewrites ``Host``).
    ``proxy`` is the host of Discord's proxy when the board runs as an Activity
    (``<client_id>.discordsays.com``): its requests and its pages (over https) are admitted too.
    """

    def __init__(
        self, bound: str, public_url: str = "", extra: Iterable[str] = (), proxy: str | None = None
    ) -> None:
        extra = {name.lower() for name in extra}
        self._proxy = proxy.lower() if proxy else None
        self._any = ANY_HOST in extra
        public = urlsplit(public_url)
        self._public = (public.hostname, _port(public.scheme, public.port)) if public.hostname else None
        self._named = extra | ({public.hostname} if public.hostname else set())
        self._every_interface = bound in WILDCARDS
        local = {socket.gethostname().lower(), socket.getfqdn().lower()} if self._every_interface else set()
        self._hosts = (
            LOOPBACK
            | self._named
            | local
            | ({bound.lower()} if not self._every_interface else set())
            | ({self._proxy} if self._proxy else set())
        )

    def allows_host(self, name: str) -> bool:
        """Whether the server answers to the host ``name`` (lowercase, without port or brackets)."""
        if self._any or name in self._hosts:
            return True
        return self._every_interface and is_ip_address(name)

    def allows_origin(self, origin: str, host_header: str | None) -> bool:
        """Whether a page of ``origin`` (its ``Origin`` header) may connect, on a request that came with
        ``host_header``."""
        try:
            parsed = urlsplit(origin)
            where = (parsed.hostname, _port(parsed.scheme, parsed.port))
            request = _host_and_port(host_header) if host_header is not None else None
        except ValueError:
            return False
        name = where[0]
        if parsed.scheme not in ("http", "https") or name is None or not self.allows_host(name):
            return False
        if self._any or name in self._named or where == self._public:
            return True
        if (
            self._proxy is not None
            and parsed.scheme == "https"
            and where == (self._proxy, DEFAULT_PORTS["https"])
        ):
            return True
        return request is not None and (request[0], request[1] or DEFAULT_PORTS["http"]) == where


def perimeter(
    policy: HostPolicy, framed: Mapping[str, Mapping[str, str]] | None = None
) -> Callable[..., Awaitable[web.StreamResponse]]:
    """The middleware: requests for another host, and pages of another origin, are refused before any
    handler runs; every response, a refusal or an error included, gets :data:`SECURITY_HEADERS`, but
    those of the paths in ``framed``, which get their own (:func:`framed_headers`); a handler's crash
    is logged and answered 500."""
    framed = dict(framed or {})

    @web.middleware
    async def middleware(
        request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        headers = framed.get(request.path, SECURITY_HEADERS)
        try:
            _check(request, policy)
            response = await handler(request)
        except web.HTTPException as error:
            error.headers.update(headers)
            raise
        except Exception:
            logger.exception("%s %s failed", request.method, request.path)
            response = web.Response(status=500, text="the server failed to answer that request")
        if not response.prepared:  # a websocket's headers went out with its handshake
            response.headers.update(headers)
        return response

    return middleware


def _check(request: web.Request, policy: HostPolicy) -> None:
    """Refuse a request for a host the server does not answer to, or from a page of another origin.

    Raises:
        HTTPMisdirectedRequest: the ``Host`` names another host (or is malformed).
        HTTPForbidden: the ``Origin`` is a page the websocket does not serve.
    """
    host = request.headers.get(hdrs.HOST)
    if host is not None:
        try:
            name = _host_and_port(host)[0]
        except ValueError:
            name = None
        if name is None or not policy.allows_host(name):
            raise web.HTTPMisdirectedRequest(
                text=f"this server does not answer to the host {echo(host)} (see [web] allowed_hosts)"
            )
    origin = request.headers.get(hdrs.ORIGIN)
    if origin is not None and not policy.allows_origin(origin, host):
        raise web.HTTPForbidden(text=f"pages of {echo(origin)} may not use this server")


def _host_and_port(header: str) -> tuple[str | None, int | None]:
    """The lowercase host and the port of a ``Host`` header (``name:port``, ``[::1]:8765``).

    Raises:
        ValueError: the port is not a number.
    """
    parsed = urlsplit(f"//{header}")
    return parsed.hostname, parsed.port


def _port(scheme: str, port: int | None) -> int | None:
    return port if port is not None else DEFAULT_PORTS.get(scheme)
