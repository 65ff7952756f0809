"""Failures of the store as the host's typed refusals (:class:`~bot.host.errors.StorageError`),
and the backoff with which the host's own work (AI turns, timers, reminders) retries a save."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any, Final

from bot.host.errors import (
    ChannelBusyError,
    StorageBusyError,
    StorageError,
    StorageFailedError,
    StorageFullError,
    StorageRangeError,
)
from bot.host.store.rows import ChannelTakenError, IntegerRangeError

RETRY_FIRST: Final = 0.5
"""Seconds before the first retry of a save that failed; each next wait doubles, up to RETRY_CAP."""
RETRY_CAP: Final = 60.0

_BUSY: Final = ("SQLITE_BUSY", "SQLITE_LOCKED")


def storage_error(error: sqlite3.Error | IntegerRangeError) -> StorageError:
    """The refusal a player reads for a failed write."""
    if isinstance(error, IntegerRangeError):
        return StorageRangeError(f"{error}: nothing was changed")
    name = getattr(error, "sqlite_errorname", "")
    if name.startswith(_BUSY):
        return StorageBusyError()
    if name.startswith("SQLITE_FULL"):
        return StorageFullError()
    return StorageFailedError()


@contextmanager
def typed_storage_errors(plugins: Mapping[str, Any] | None = None) -> Iterator[None]:
    """Raise the failures of the store in the block as :func:`storage_error` says.

    Raises:
        StorageError: from ``sqlite3.OperationalError`` (busy, full, I/O...) or ``IntegerRangeError``;
            other errors (an integrity error is a bug) pass through.
        ChannelBusyError: from the store's ``ChannelTakenError``, naming the channel's game by its
            plugin's title (of ``plugins``, by kind; its kind if it is not one of them).
    """
    try:
        yield
    except ChannelTakenError as error:
        plugin = (plugins or {}).get(error.kind)
        raise ChannelBusyError(error.kind if plugin is None else plugin.title) from error
    except (sqlite3.OperationalError, IntegerRangeError) as error:
        raise storage_error(error) from error


def retry_delay(attempt: int) -> float:
    """Seconds to wait before retry ``attempt`` (1, 2, ...): 0.5, 1, 2, 4... up to RETRY_CAP."""
    return float(min(RETRY_CAP, RETRY_FIRST * 2 ** min(attempt - 1, 16)))


def retry_notice(error: StorageError) -> str:
    """What a channel is told (once) while the host retries a save of its game that failed."""
    if isinstance(error, StorageBusyError):
        state = "busy"
    elif isinstance(error, StorageFullError):
        state = "full"
    else:
        state = "failing"
    return f"Storage is {state}, retrying: the game goes on once it is saved."
