"""Signed links to the board: tokens scoped to one game and one seat (or a spectator), and the keys that
sign them.

A token is ``<game>.<role><number>.<generation>.<signature>``: ``s`` a spectator (no number), ``p`` a
person's seat (the seat's number: people get links once the game has started and seats no longer move),
``b`` a seat given to a program (the program's number, which stays with it while its seat moves up in
the lobby and with the draw for the first turn: see :func:`seat_of`); the signature is an HMAC-SHA256 of
the rest with the server's secret. Renewing a seat's link bumps its generation, so the old token stops
verifying. Tokens are never logged.
"""

from __future__ import annotations

import base64
import enum
import hashlib
import hmac
import json
import os
import re
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from bot.host.seats import is_program
from bot.host.store import SeatRow
from bot.web.errors import ProtocolError

__all__ = ["Grant", "LinkSigner", "Role", "board_url", "program_number", "seat_of"]

MAX_TOKEN_LENGTH: Final = 200
SIGNATURE_CHARS: Final = 22
_TOKEN: Final = re.compile(r"^(\d{1,12})\.([spb])(\d{0,2})\.(\d{1,9})\.([A-Za-z0-9_-]{22})$")


class Role(enum.StrEnum):
    """Who a connection is: a spectator, a person playing a seat, or a program playing a seat."""

    SPECTATOR = "spectator"
    PLAYER = "player"
    BOT = "bot"


_LETTER: Final = {Role.SPECTATOR: "s", Role.PLAYER: "p", Role.BOT: "b"}
_ROLE: Final = {letter: role for role, letter in _LETTER.items()}


@dataclass(frozen=True, slots=True)
class Grant:
    """What a valid token allows: ``role`` in game ``game_id``, with the token's ``number``: a person's
    seat, a program's number (:func:`program_number`), None for a spectator. :func:`seat_of` finds
    the seat it plays."""

    game_id: int
    role: Role
    number: int | None


def program_number(user_id: int) -> int:
    """The number in a program's token for the seat of pseudo user ``user_id``
    (:func:`bot.host.seats.program_user_id`: -1, -2...): 0, 1..."""
    return -1 - user_id


def seat_of(grant: Grant, seats: Sequence[SeatRow]) -> int | None:
    """The seat ``grant`` plays among a game's ``seats`` as they are now (None for a spectator): a
    person's the seat its token names, a program's the seat of its pseudo user.

    Raises:
        ProtocolError: ``unauthorized``: no such seat, or a person's token on a program's seat.
    """
    if grant.number is None:
        return None
    if grant.role is Role.BOT:
        for seat in seats:
            if (
                seat.user_id is not None
                and is_program(seat.user_id)
                and program_number(seat.user_id) == grant.number
            ):
                return seat.seat
    elif grant.number < len(seats) and not is_program(seats[grant.number].user_id):
        return grant.number
    raise ProtocolError("unauthorized", "this link is not valid")


class LinkSigner:
    """Issues and verifies tokens with one secret; keeps each seat's link generation. With a ``path``,
    the generations and (unless ``secret`` is given, e.g. from the config) a generated secret live in that
    JSON file (created readable by its owner only), so links survive a restart and a renewal stays
    final."""

    def __init__(self, secret: bytes | None = None, path: Path | None = None) -> None:
        self._path = path
        self._generations: dict[str, int] = {}
        stored: bytes | None = None
        if path is not None and path.is_file():
            data = json.loads(path.read_text(encoding="utf-8"))
            stored = bytes.fromhex(data["secret"]) if "secret" in data else None
            self._generations = {str(key): int(value) for key, value in data["generations"].items()}
        self._keep_secret = secret is None  # a configured secret is never written anywhere
        self._secret = secret or stored or secrets.token_bytes(32)
        if path is not None and self._keep_secret and stored is None:
            self._save()

    def token(self, game_id: int, role: Role, number: int | None = None) -> str:
        """The current token of ``role`` with ``number`` (see :class:`Grant`; None for a spectator) in
        game ``game_id``."""
        if (number is None) != (role is Role.SPECTATOR):
            raise ValueError("a spectator has no number; a player or bot has one")
        generation = self._generations.get(_key(game_id, role, number), 0) if number is not None else 0
        payload = f"{game_id}.{_LETTER[role]}{'' if number is None else number}.{generation}"
        return f"{payload}.{self._sign(payload)}"

    def renew(self, game_id: int, role: Role, number: int) -> str:
        """A new token of ``role`` with ``number`` in game ``game_id``; every older one stops working."""
        key = _key(game_id, role, number)
        self._generations[key] = self._generations.get(key, 0) + 1
        self._save()
        return self.token(game_id, role, number)

    def verify(self, token: str) -> Grant:
        """What ``token`` allows.

        Raises:
            ProtocolError: ``unauthorized``: not a token of this server, or one that was renewed.
        """
        match = _TOKEN.match(token) if len(token) <= MAX_TOKEN_LENGTH else None
        if match is None:
            raise ProtocolError("unauthorized", "this link is not valid")
        game, letter, seat_text, generation, signature = match.groups()
        payload = f"{game}.{letter}{seat_text}.{generation}"
        if not hmac.compare_digest(signature, self._sign(payload)):
            raise ProtocolError("unauthorized", "this link is not valid")
        role = _ROLE[letter]
        number = int(seat_text) if seat_text else None
        if (number is None) != (role is Role.SPECTATOR):
            raise ProtocolError("unauthorized", "this link is not valid")
        if number is not None and int(generation) != self._generations.get(_key(int(game), role, number), 0):
            raise ProtocolError("unauthorized", "this link was renewed: use the newest one")
        return Grant(int(game), role, number)

    def _sign(self, payload: str) -> str:
        digest = hmac.new(self._secret, payload.encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).decode()[:SIGNATURE_CHARS]

    def _save(self) -> None:
        if self._path is None:
            return
        data: dict[str, object] = {"generations": self._generations}
        if self._keep_secret:
            data["secret"] = self._secret.hex()
        temporary = self._path.with_suffix(self._path.suffix + ".tmp")
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            json.dump(data, file)
        temporary.replace(self._path)


def _key(game_id: int, role: Role, number: int) -> str:
    """Where the generation of a token is kept (a person's seat keeps the key of the first version)."""
    return f"{game_id}.{number}" if role is Role.PLAYER else f"{game_id}.{_LETTER[role]}{number}"


def board_url(base: str, token: str) -> str:
    """The page's link for ``token`` under the public ``base`` URL: the token in the fragment, which
    browsers never send to a server (so no access log holds it)."""
    return f"{base.rstrip('/')}/game#t={token}"
