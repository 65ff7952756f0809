"""Reading rows so that one that cannot be decoded stops no other: the rows of many ids are read a batch
at a time, and a batch holding text that is not UTF-8 (:class:`~bot.host.store.backends.UndecodableTextError`)
is read again one id at a time, so that only the ids whose rows cannot be decoded are left out, each
with the reason. The caller decides what becomes of them (a game is quarantined, an announcement dropped).

The values that are decoded may still be of another type than their column's (SQLite keeps whatever a
damaged page holds): :func:`checked` says which.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from bot.host.store.backends import Connection, UndecodableTextError

IDS_PER_QUERY: Final = 500
"""The most ids one query names (SQLite allows 999 parameters at least)."""

_SAVEPOINT: Final = "reading"

_TYPE_NAMES: Final = {str: "text", bytes: "a blob", int: "an integer", float: "a real", type(None): "NULL"}


def rows_by_id(
    db: Connection, query: str, ids: Sequence[int]
) -> tuple[list[tuple[Any, ...]], dict[int, str]]:
    """The rows ``query`` returns for ``ids``, and the ids whose rows cannot be decoded, each with the
    reason (their rows are left out). ``query`` names its ids as ``IN ({ids})`` and its rows' first
    column is the id each belongs to (an id may have several rows, or none).

    Inside a transaction each read is in a savepoint: PostgreSQL ends a transaction at its first error.

    Raises:
        sqlite3.Error: any other failure of the database.
    """
    rows: list[tuple[Any, ...]] = []
    broken: dict[int, str] = {}
    for start in range(0, len(ids), IDS_PER_QUERY):
        batch = ids[start : start + IDS_PER_QUERY]
        try:
            rows += _fetch(db, query, batch)
        except UndecodableTextError:
            for one in batch:
                try:
                    rows += _fetch(db, query, (one,))
                except UndecodableTextError as error:
                    broken[one] = f"{type(error).__name__}: {error}"[:200]
    return rows, broken


def _fetch(db: Connection, query: str, ids: Sequence[int]) -> list[tuple[Any, ...]]:
    sql = query.format(ids=", ".join("?" for _ in ids))
    if not db.in_transaction:
        return [tuple(row) for row in db.execute(sql, ids).fetchall()]
    db.execute(f"SAVEPOINT {_SAVEPOINT}")
    try:
        return [tuple(row) for row in db.execute(sql, ids).fetchall()]
    except UndecodableTextError:
        db.execute(f"ROLLBACK TO {_SAVEPOINT}")
        raise
    finally:
        db.execute(f"RELEASE {_SAVEPOINT}")


def checked(name: str, value: Any, *types: type) -> Any:
    """``value``, the column ``name`` as read, if it is one of ``types`` (``type(None)``: may be NULL;
    ``float`` admits an integer, as SQLite stores a whole real).

    Raises:
        TypeError: it is not (naming the column and what it holds).
    """
    kind = type(value)
    if kind in types or (kind is int and float in types):
        return value
    expected = " or ".join(_TYPE_NAMES.get(t, t.__name__) for t in types)
    raise TypeError(f"the column {name} holds {_TYPE_NAMES.get(kind, kind.__name__)}, not {expected}")
