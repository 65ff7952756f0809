"""How a :class:`~bot.host.messages.Message` goes out on Discord: as a channel message, a DM, or the
answer to an interaction.

Every message the bot sends goes through here (:func:`send_to`, :func:`answer`). Everything that turns a
``Message`` into discord.py arguments is here: the text split into pieces of at most 2,000 characters
(Discord's limit), at most five of them (a longer text is cut), the attachments as files (on the last piece, with the buttons),
and the allowed mentions (exactly the users the message mentions, never ``@everyone`` or roles). The
buttons are built by the caller (:func:`bot.discord.buttons.view_for`) and passed in. :func:`merged` is how
two messages for a channel that fell behind (rate limits) become one.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import time
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from typing import Any, Final, TypeVar

import discord

from bot.host.messages import Attachment, Message
from bot.host.tasks import outcome_seen

MAX_CONTENT: Final = 2000
"""The longest text Discord accepts in one message."""
MAX_PIECES: Final = 5
"""The most messages one :class:`~bot.host.messages.Message` becomes: a longer text is cut."""
CUT_MARK: Final = "… (cut)"
MAX_FILES: Final = 10
"""The most files Discord accepts on one message."""
BOARD_IMAGE: Final = "board.png"
"""The file name of a board image: a newer one supersedes it (see :func:`merged`)."""

_T = TypeVar("_T")

DEFER_AFTER: Final = 1.0
"""How long a command may take before its interaction is deferred (Discord wants the first response
within 3 seconds): one answered sooner is answered by the response itself, one request to Discord
instead of two (see :func:`answered_in_time`)."""

PROGRESS_SECONDS: Final = 1.0
"""The least time between two edits of a slow command's progress (:func:`edited_at_most_every`)."""

PUBLIC_DEFERRAL: Final = "game-bot:public-deferral"
"""The key of :attr:`discord.Interaction.extras` set when an interaction was deferred publicly: its
first followup replaces the public "thinking" message (see :func:`bot.discord.errors.report_error`)."""


def split_text(text: str, limit: int = MAX_CONTENT) -> list[str]:
    """``text`` in pieces of at most ``limit`` characters, cut between lines where possible (a longer
    line is cut where it must). Always at least one piece."""
    pieces: list[str] = []
    current = ""
    for whole in text.split("\n"):
        line = whole
        while len(line) > limit:
            if current:
                pieces.append(current)
                current = ""
            pieces.append(line[:limit])
            line = line[limit:]
        candidate = line if not current else f"{current}\n{line}"
        if len(candidate) > limit:
            pieces.append(current)
            candidate = line
        current = candidate
    pieces.append(current)
    return [piece for piece in pieces if piece] or [""]


def files_of(attachments: tuple[Attachment, ...]) -> list[discord.File]:
    """Attachments as discord.py files (a :class:`discord.File` can be sent once: build them right
    before sending)."""
    return [discord.File(io.BytesIO(a.data), filename=a.filename) for a in attachments]


def mentions_of(user_ids: tuple[int, ...]) -> discord.AllowedMentions:
    """Allow pinging exactly ``user_ids``: no other user, role, ``@everyone`` or replied user (nor a
    program's seat, whose pseudo user id is not a Discord id)."""
    users: list[discord.Object] | bool = [
        discord.Object(id=user_id) for user_id in user_ids if user_id > 0
    ] or False
    return discord.AllowedMentions(everyone=False, roles=False, replied_user=False, users=users)


def capped_pieces(text: str) -> list[str]:
    """``text`` split into at most :data:`MAX_PIECES` messages (:func:`split_text`), the last cut
    short with :data:`CUT_MARK` if the text does not fit."""
    pieces = split_text(text)
    if len(pieces) <= MAX_PIECES:
        return pieces
    last = pieces[MAX_PIECES - 1]
    return [*pieces[: MAX_PIECES - 1], last[: MAX_CONTENT - len(CUT_MARK)] + CUT_MARK]


def merged(earlier: Message, later: Message) -> Message | None:
    """One message saying what ``earlier`` then ``later`` say, for a channel whose messages wait to go
    out; ``None`` when they must go separately.

    The merged message has both texts in order (a blank line between), the mentions of both, the files
    of both except ``earlier``'s board image when ``later`` has one (the newer board supersedes it), and
    ``later``'s buttons and links. They go separately when either is private, has a key (a message
    posted again under the key of one Discord made is answered with that one: merged, the other's text
    would be lost) or updates a message in place, the texts do not fit in one Discord message together (nothing is ever cut), there
    would be more than :data:`MAX_FILES` files, ``earlier`` has buttons ``later`` does not supersede
    (buttons that act on whatever the turn is, or on another game, or ``later`` has no turn buttons), or
    ``earlier`` has links ``later`` has not.
    """
    text = f"{earlier.text}\n\n{later.text}"
    if earlier.private or later.private or len(text) > MAX_CONTENT:
        return None
    if earlier.key is not None or later.key is not None or earlier.update or later.update:
        return None
    if earlier.buttons and (earlier.turn is None or later.turn is None or earlier.game != later.game):
        return None
    if earlier.links and earlier.links != later.links:
        return None
    superseded = any(a.filename == BOARD_IMAGE for a in later.attachments)
    kept = tuple(a for a in earlier.attachments if not (superseded and a.filename == BOARD_IMAGE))
    attachments = kept + later.attachments
    if len(attachments) > MAX_FILES:
        return None
    mentions = tuple(dict.fromkeys(earlier.mentions + later.mentions))
    return Message(
        text,
        attachments=attachments,
        mentions=mentions,
        buttons=later.buttons,
        game=later.game if later.game is not None else earlier.game,
        turn=later.turn,
        links=later.links,
    )


def _pieces(message: Message, view: discord.ui.View | None) -> list[dict[str, Any]]:
    """The keyword arguments of each message ``message`` becomes, the files and buttons on the last."""
    texts = capped_pieces(message.text)
    pieces: list[dict[str, Any]] = [
        {"content": text, "allowed_mentions": mentions_of(message.mentions)} for text in texts
    ]
    if message.attachments:
        pieces[-1]["files"] = files_of(message.attachments)
    if view is not None:
        pieces[-1]["view"] = view
    return pieces


async def send_to(
    target: discord.abc.Messageable,
    message: Message,
    view: discord.ui.View | None = None,
    budget: Callable[[], AbstractAsyncContextManager[None]] | None = None,
) -> discord.Message:
    """Send ``message`` to a channel or DM, with ``view`` as its buttons; the last message sent (the one
    with the buttons). Each message is sent within ``budget()`` (the bot's budget of requests). A keyed
    message's pieces have nonces made of its key (the first its key alone): Discord makes none of them
    twice."""
    sent = None
    for number, piece in enumerate(_pieces(message, view)):
        if message.key is not None:
            piece["nonce"] = message.key if number == 0 else f"{message.key}.{number}"
        async with contextlib.nullcontext() if budget is None else budget():
            sent = await target.send(**piece)
    assert sent is not None  # a message is at least one piece
    return sent


async def defer(interaction: discord.Interaction[Any], *, public: bool = False) -> None:
    """Acknowledge ``interaction`` with a "thinking" state before slow work: ephemeral unless ``public``
    (the answer will then be public too)."""
    if public:
        interaction.extras[PUBLIC_DEFERRAL] = True
    await interaction.response.defer(ephemeral=not public, thinking=True)


async def answered_in_time(
    interaction: discord.Interaction[Any], work: Awaitable[_T], *, public: bool = False
) -> _T:
    """What ``work`` (a command) gives; if it takes more than :data:`DEFER_AFTER` seconds, the
    interaction is deferred meanwhile (:func:`defer`, ``public`` as there), so that its answer then
    comes as a followup. ``work`` runs to its end even if this is cancelled or the deferral fails: a
    command is a transaction, never cut in the middle.

    Raises:
        Whatever ``work`` raises, or the deferral's error.
    """
    task = asyncio.ensure_future(work)
    task.add_done_callback(outcome_seen)
    done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
    if not done:
        await defer(interaction, public=public)
    return await asyncio.shield(task)


def edited_at_most_every(
    seconds: float, interaction: discord.Interaction[Any]
) -> Callable[[str], Awaitable[None]]:
    """A slow command's progress (``"Analysing move 12/26…"``) shown by editing the deferred answer
    of ``interaction``, at most once every ``seconds``: a text that comes sooner after the last one
    shown is skipped (the next one, or the answer, says more)."""
    shown_at = -seconds

    async def progress(text: str) -> None:
        nonlocal shown_at
        now = time.monotonic()
        if now - shown_at < seconds:
            return
        shown_at = now
        await interaction.edit_original_response(content=text)

    return progress


async def answer(
    interaction: discord.Interaction[Any], message: Message, view: discord.ui.View | None = None
) -> None:
    """Answer ``interaction`` with ``message``: ephemerally when it
    is private; as the response, or as followups once the interaction was deferred."""
    for piece in _pieces(message, view):
        piece["ephemeral"] = message.private
        if interaction.response.is_done():
            await interaction.followup.send(**piece)
        else:
            await interaction.response.send_message(**piece)
