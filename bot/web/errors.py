"""The protocol's error codes (``docs/protocol.md``, "Errors") and the error part of a reply.

A game error's code is its class name without ``Error``, in snake_case (``SquareOccupiedError`` ->
``square_occupied``); the message is the exception's text, written for a person. Protocol errors are
:class:`ProtocolError` with their code.
"""

from __future__ import annotations

import re
from typing import Any, Final

from bot.host.errors import ServiceError
from scrabble_core.errors import (
    EmptySquareError,
    GapError,
    OffBoardError,
    ScrabbleError,
    SquareOccupiedError,
    StartSquareError,
    TileNotOnRackError,
    UnknownWordsError,
)

__all__ = ["MAX_ERROR_MESSAGE", "ProtocolError", "error_body", "error_code"]

MAX_ERROR_MESSAGE: Final = 300

_CAMEL_BOUNDARY: Final = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


class ProtocolError(Exception):
    """A message the protocol refuses; ``code`` is one of the protocol error codes."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def error_code(error: ScrabbleError | ServiceError) -> str:
    """The stable code of a game error: its class name without ``Error``, in snake_case."""
    name = type(error).__name__.removesuffix("Error")
    return _CAMEL_BOUNDARY.sub("_", name).lower()


def error_body(error: Exception) -> dict[str, Any]:
    """The ``error`` object of a reply for a game or protocol error: code, message (capped) and the
    fields that say more (``words``, ``missing``, ``square``)."""
    if isinstance(error, ProtocolError):
        code = error.code
    elif isinstance(error, ScrabbleError | ServiceError):
        code = error_code(error)
    else:
        code = "internal"
    message = str(error) if code != "internal" else "the server failed to handle that message"
    body: dict[str, Any] = {"code": code, "message": message[:MAX_ERROR_MESSAGE]}
    if isinstance(error, UnknownWordsError):
        body["words"] = list(error.words)
    elif isinstance(error, TileNotOnRackError):
        body["missing"] = error.missing
    elif isinstance(
        error, SquareOccupiedError | EmptySquareError | GapError | OffBoardError | StartSquareError
    ):
        body["square"] = error.square
    return body
