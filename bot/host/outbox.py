"""The keys of the posts of the outbox's announcements (:class:`~bot.host.plugin.Announcement`: stored in
the store's outbox in the change's own transaction, marked sent once delivered, and delivered again at
start-up if a crash came in between): a post made again after a crash carries the key of its first try."""

from __future__ import annotations

import hashlib
from dataclasses import replace

from bot.host.messages import MAX_KEY, Message
from bot.host.store.rows import GameRow


def post_key(game_id: int, created_at: float, entry_id: int, part: str) -> str:
    """The key (:attr:`bot.host.messages.Message.key`) of the post ``part`` (``"turn"``, ``"end"``...) of
    outbox entry ``entry_id``, of game ``game_id`` created at ``created_at``: the same at every try of
    that post, a restart's included, and unlike any other post's, a new database's too (its ids start
    again, but not its games' creation times)."""
    name = f"{game_id}:{created_at!r}:{entry_id}:{part}"
    return hashlib.blake2b(name.encode(), digest_size=MAX_KEY // 2).hexdigest()


def keyed(message: Message, row: GameRow, entry_id: int | None, part: str) -> Message:
    """``message``, the post ``part`` of outbox entry ``entry_id`` of the game ``row``, with its
    :func:`post_key`; as it is when it belongs to no entry."""
    if entry_id is None:
        return message
    return replace(message, key=post_key(row.id, row.created_at, entry_id, part))
