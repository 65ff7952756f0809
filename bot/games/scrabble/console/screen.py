"""How the host's output reaches the console: its renderer and its notifier.

- :class:`TextRenderer` is Scrabble's :class:`~bot.games.scrabble.protocols.Renderer` in the console: its
  "images" are terminal drawings (:mod:`bot.console.terminal_board`) as UTF-8 bytes, so a board travels
  with the message that shows it. It keeps the last board it drew, to write it as the PNG the bot posts
  (:meth:`TextRenderer.write_png`), and with ``image`` set rewrites that PNG file on every board.
- :class:`ConsoleNotifier` is the host's :class:`~bot.host.protocols.Notifier`: public posts wait
  until the game loop shows them (:meth:`~ConsoleNotifier.flush`), the board of the latest one until
  the next prompt (:meth:`~ConsoleNotifier.show_board`); a DM waits in its user's inbox until that
  player's turn (:meth:`~ConsoleNotifier.open_inbox`), so in a hot-seat game nobody sees another's rack.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from bot.console.terminal import Terminal
from bot.console.terminal_board import Style, draw_board, draw_header, draw_rack, draw_scores
from bot.games.scrabble.images import BoardHeader, render_board
from bot.host.messages import Message, mention
from bot.host.seats import shown, unescaped
from scrabble_core.board import Board
from scrabble_core.squares import Square
from scrabble_core.variant import Variant

logger = logging.getLogger(__name__)

BOARD_FILE: Final = "board.png"
RACK_FILE: Final = "rack.png"
RECORD_SUFFIX: Final = ".gcg"
_CHANNEL_LINK: Final = re.compile(r"<#\d+>")
_ATTACHED: Final = re.compile(r" ?[^.!?\n]*\bis attached\.")
"""A sentence about a file attached (a Discord message's): the console says where it wrote the file."""


@dataclass(frozen=True, slots=True)
class BoardSnapshot:
    """What a board drawing showed: the tiles, the last move and the header."""

    board: Board
    last_move: tuple[Square, ...]
    header: BoardHeader


class TextRenderer:
    """The :class:`~bot.games.scrabble.protocols.Renderer` of the console: it draws terminal text, not PNG."""

    def __init__(self, drawing: Style, image: Path | None = None) -> None:
        """Draw in ``drawing``; with ``image``, also write every board drawn as a PNG file there."""
        self._drawing = drawing
        self._image = image
        self.last: BoardSnapshot | None = None

    def board(self, board: Board, last_move: Collection[Square], header: BoardHeader) -> bytes:
        """The board and its header line, as UTF-8 text."""
        self.last = BoardSnapshot(board.copy(), tuple(last_move), header)
        if self._image is not None:
            try:
                self.write_png(self._image)
            except OSError as error:
                logger.warning("cannot write the board image %s: %s", self._image, error.strerror)
        return f"{draw_board(board, last_move, self._drawing)}\n{draw_header(header, self._drawing)}".encode()

    def rack(self, tiles: str, variant: Variant) -> bytes:
        """The rack's tiles with their values, as UTF-8 text."""
        return draw_rack(tiles, variant, self._drawing).encode()

    def chart(self, players: Sequence[str], totals: Sequence[Sequence[int]]) -> bytes:
        """The players' totals turn by turn, as UTF-8 text."""
        return f"Scores turn by turn:\n{draw_scores(players, totals)}".encode()

    def write_png(self, path: Path) -> None:
        """Write the last board drawn as the PNG the bot posts (:func:`bot.render.render_board`).

        Raises:
            OSError: the file cannot be written.
        """
        snapshot = self.last
        assert snapshot is not None, "the game's first message draws the board"
        path.write_bytes(render_board(snapshot.board, last_move=snapshot.last_move, header=snapshot.header))


class ConsoleNotifier:
    """The :class:`~bot.host.protocols.Notifier` of the console (see the module docstring)."""

    def __init__(self, terminal: Terminal, records: Path) -> None:
        """Show messages on ``terminal``; write the game records attached to them into ``records``."""
        self._terminal = terminal
        self._records = records
        self._names: dict[int, str] = {}
        self._posts: list[Message] = []
        self._inbox: dict[int, list[Message]] = {}
        self._board: str | None = None
        self._channel: int | None = None

    def follow(self, channel_id: int) -> None:
        """Show the public messages of ``channel_id`` only (the game being played; the others are
        saved games, whose messages their history keeps)."""
        self._channel = channel_id

    def seat(self, names: Mapping[int, str]) -> None:
        """The players' names by user id, which replace the mentions in the texts."""
        self._names = dict(names)

    async def post(self, channel_id: int, message: Message) -> None:
        """Queue a public message of the game followed until :meth:`flush`."""
        if channel_id == self._channel:
            self._posts.append(message)

    async def typing(self, channel_id: int) -> None:
        """Say that the AI is thinking, if ``channel_id`` is the game followed."""
        if channel_id == self._channel:
            self._terminal.say("The AI is thinking…")

    async def direct(self, user_id: int, message: Message) -> bool:
        """Put a private message in ``user_id``'s inbox until :meth:`open_inbox` (a rack replaces the
        one waiting there, now out of date): always delivered."""
        inbox = self._inbox.setdefault(user_id, [])
        if _is_rack(message):
            inbox[:] = [waiting for waiting in inbox if not _is_rack(waiting)]
        inbox.append(message)
        return True

    def discard(self) -> None:
        """Forget every queued message (the lobby's, which the console does not show)."""
        self._posts.clear()
        self._inbox.clear()

    def flush(self) -> None:
        """Show the public messages queued, in order; the board of the latest waits for
        :meth:`show_board`."""
        posts, self._posts = self._posts, []
        for message in posts:
            self.show(message, board_now=False)

    def show_board(self) -> None:
        """Show the board of the latest message shown, if it has not been shown yet."""
        if self._board is not None:
            self._terminal.say(self._board)
            self._board = None

    def open_inbox(self, user_id: int) -> bool:
        """Show ``user_id``'s private messages; whether there were any."""
        messages = self._inbox.pop(user_id, [])
        for message in messages:
            self.show(message)
        return bool(messages)

    def show(self, message: Message, *, board_now: bool = True) -> None:
        """Show a message: its text, then its attachments (a board at once if ``board_now``, else
        kept for :meth:`show_board`; a game record written to a file)."""
        self._terminal.say(self._plain(message.text))
        for attachment in message.attachments:
            if attachment.filename.endswith(RECORD_SUFFIX):
                path = self._records / attachment.filename
                path.write_bytes(attachment.data)
                self._terminal.say(f"The record is saved in {path}")
            elif attachment.filename == BOARD_FILE and not board_now:
                self._board = attachment.data.decode()
            else:
                self._terminal.say(attachment.data.decode())

    def _plain(self, text: str) -> str:
        """``text`` with names for mentions (``Ann (<@1>)`` becomes ``Ann``), "this game" for the
        channel, no sentence about attached files, and names as they are (not escaped for chat)."""
        for user_id, name in self._names.items():
            named = shown(name)
            text = text.replace(f"{named} ({mention(user_id)})", named).replace(mention(user_id), named)
        return unescaped(_ATTACHED.sub("", _CHANNEL_LINK.sub("this game", text)))


def _is_rack(message: Message) -> bool:
    return any(attachment.filename == RACK_FILE for attachment in message.attachments)
