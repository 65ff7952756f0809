"""Scrabble's announcements and the messages built from a game: what a turn's announcement stores in the
outbox (:class:`TurnAnnouncement`), the lobby, the message after a turn, the end of a game, a rack by DM
and the notice when that DM fails. Images are drawn here, by the drawing process; one that fails to
draw is left out (the text says it all). Sending is the host's business."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.games.scrabble import text
from bot.games.scrabble.buttons import ScrabbleButton
from bot.games.scrabble.protocols import BoardHeader, PlayerLine, Renderer
from bot.games.scrabble.table import ScrabbleTable
from bot.host.drawing import DRAWING
from bot.host.messages import Attachment, Message, mention
from bot.host.plugin import Announcement
from bot.host.seats import is_program
from bot.host.store import SeatRow
from scrabble_core.game import Event, EventKind, Game
from scrabble_core.gcg import export_gcg
from scrabble_core.move import Play

logger = logging.getLogger("bot.games.scrabble")


@dataclass(frozen=True, slots=True)
class TurnAnnouncement:
    """The announcement of a change that left the game at move ``move`` (its history's length): the
    opening ``lines`` and ``events`` of the turn message, and the ``racks`` (seat numbers) to DM. The
    end of the game is announced when the stored game is over."""

    move: int
    events: tuple[Event, ...]
    lines: tuple[str, ...]
    racks: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        """The announcement as JSON-compatible data."""
        return {
            "move": self.move,
            "events": [event.to_dict() for event in self.events],
            "lines": list(self.lines),
            "racks": list(self.racks),
        }

    def announcement(self) -> Announcement:
        """The host's announcement of it: its data, the move number, the racks to DM."""
        return Announcement(self.move, self.to_dict(), self.racks)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TurnAnnouncement:
        """The announcement saved by :meth:`to_dict`.

        Raises:
            KeyError, TypeError, ValueError: it is not one.
        """
        return cls(
            int(data["move"]),
            tuple(Event.from_dict(event) for event in data["events"]),
            tuple(str(line) for line in data["lines"]),
            tuple(int(seat) for seat in data["racks"]),
        )


def lobby_message(table: ScrabbleTable, *, programs: bool = False, update: bool = False) -> Message:
    """The lobby, pinging who has joined, with its buttons (Add bot too if ``programs`` may play); an
    ``update`` of the lobby message once someone joined or left."""
    row = table.row
    mentions = tuple(
        seat.user_id for seat in row.seats if seat.user_id is not None and not is_program(seat.user_id)
    )
    add_bot = (ScrabbleButton.ADD_BOT,) if programs else ()
    return Message(
        text.lobby_text(row.seats, table.options, row.creator_id),
        mentions=mentions,
        buttons=(
            ScrabbleButton.JOIN,
            ScrabbleButton.ADD_AI,
            *add_bot,
            ScrabbleButton.START,
            ScrabbleButton.CANCEL,
        ),
        game=row.id,
        update=update,
    )


async def turn_message(
    table: ScrabbleTable,
    events: Sequence[Event],
    lines: Sequence[str],
    renderer: Renderer,
    *,
    urgent: bool = False,
) -> Message:
    """The public message after a turn: ``lines``, what ``events`` did, the board, the scores, who is
    next (pinged) and the buttons for their turn, which act on this turn only (its move number); with an
    AI to move after a person's play that can be challenged, how long it waits for a challenge. Once the
    game is over: the result instead of the scores and who is next, with the score chart and the GCG
    record. The board is drawn ahead of the announcements waiting if ``urgent`` (it answers a command)."""
    game = table.started()
    seats = table.row.seats
    body = [*lines, *text.events_lines(events, seats, game.board)]
    header = BoardHeader(
        [
            PlayerLine(p.name, p.score, i == game.current and not game.is_over)
            for i, p in enumerate(game.players)
        ],
        len(game.bag),
    )
    image = await _rendered(
        "board.png", renderer.board, game.board, last_play_squares(game), header, urgent=urgent
    )
    if game.is_over:
        body.append(text.final_text(game, seats))
        files = (*image, *await _final_files(table, renderer))
        winners = tuple(uid for seat in game.winners() if (uid := seats[seat].user_id) is not None)
        return Message("\n".join(body), files, mentions=winners, game=table.row.id, turn=len(game.history))
    body += [text.scores_line(game), f"{text.next_line(game, seats)} {text.bag_line(game)}"]
    current = seats[game.current]
    mentions = () if current.user_id is None or is_program(current.user_id) else (current.user_id,)
    buttons: list[str] = []
    if not current.is_ai and not game.awaiting_final_challenge:
        buttons += [ScrabbleButton.PLAY, ScrabbleButton.EXCHANGE, ScrabbleButton.PASS]
        if table.options.hints:
            buttons.append(ScrabbleButton.HINT)
    buttons.append(ScrabbleButton.SHOW_RACK)
    if game.challengeable is not None:
        buttons.append(ScrabbleButton.CHALLENGE)
    if game.awaiting_final_challenge:
        buttons.append(ScrabbleButton.ACCEPT)
    deadline = table.row.deadline
    if current.is_ai and deadline is not None and table.challenge_window(game) is not None:
        body.append(text.window_text(seats, game, max(0, round(deadline - table.row.updated_at))))
        buttons.append(ScrabbleButton.NO_CHALLENGE)
    return Message(
        "\n".join(body),
        image,
        mentions=mentions,
        buttons=tuple(buttons),
        game=table.row.id,
        turn=len(game.history),
    )


def past_turn_message(table: ScrabbleTable, events: Sequence[Event], lines: Sequence[str]) -> Message:
    """A turn's announcement said before a newer one (the game moved on before it went out): ``lines``
    and what ``events`` did, as text only (the board, the scores and the buttons of that turn are no
    longer the game's; the next announcement shows them), and the result if the game is over."""
    game = table.started()
    seats = table.row.seats
    body = [*lines, *text.events_lines(events, seats, game.board)]
    if game.is_over:
        body.append(text.final_text(game, seats))
    return Message("\n".join(body), game=table.row.id)


async def _final_files(table: ScrabbleTable, renderer: Renderer) -> tuple[Attachment, ...]:
    """The end of a game's files: the score chart and the GCG record."""
    game = table.started()
    names = [p.name for p in game.players]
    totals: list[list[int]] = [[] for _ in names]
    for event in game.history:
        totals[event.player].append(event.total)
    chart = await _rendered("scores.png", renderer.chart, names, totals)
    record = export_gcg(game).encode()
    return (*chart, Attachment(f"game-{table.row.id}.gcg", record))


async def rack_message(
    table: ScrabbleTable, seat: SeatRow, renderer: Renderer, *, urgent: bool = False, said: str = ""
) -> Message:
    """``seat``'s rack, as letters and an image, for its DM or as the answer to its command (drawn
    ahead of the announcements waiting if ``urgent``), after ``said`` (what the command did) if given."""
    game = table.started()
    rack = game.players[seat.seat].rack
    image = await _rendered("rack.png", renderer.rack, rack, game.variant, urgent=urgent)
    rack_line = text.rack_text(rack, game.variant, table.row.channel_id)
    return Message(f"{said}\n{rack_line}" if said else rack_line, image, private=True)


def rack_not_sent_message(table: ScrabbleTable, user_id: int) -> Message:
    """The public notice that ``user_id``'s rack could not go by DM (without the rack)."""
    notice = f"{mention(user_id)}, I could not send you your rack by DM (are your DMs closed?): press Show my rack."
    return Message(notice, mentions=(user_id,), buttons=(ScrabbleButton.SHOW_RACK,), game=table.row.id)


def program_seat_text(name: str, seat: int, access: tuple[str, str]) -> str:
    """What the creator who gave a seat to a program needs to run it (private: the token plays it)."""
    url, token = access
    return (
        f"{name} takes seat {seat + 1}, for a program. Its seat token (keep it secret: it plays that seat):\n"
        f"`{token}`\n"
        f"Run it with `python examples/bot_client.py --url {url} --token {token}`, or write your own client of "
        "the protocol (docs/protocol.md). It must move within the turn time limit: when it runs out, "
        "it passes or forfeits as a person would."
    )


async def _rendered(
    filename: str, render: Callable[..., bytes], *args: Any, urgent: bool = False
) -> tuple[Attachment, ...]:
    """``render(*args)`` as an attachment (drawn by :data:`~bot.host.drawing.DRAWING`, ``urgent``
    if it answers a command), or none if rendering fails (the text says it all)."""
    try:
        image = await DRAWING.draw(render, *args, urgent=urgent)
    except Exception:
        logger.exception("could not render %s", filename)
        return ()
    return (Attachment(filename, image),)


def last_play_squares(game: Game) -> list[tuple[int, int]]:
    """The squares of the last play still on the board (to highlight)."""
    for event in reversed(game.history):
        if event.kind is EventKind.PHONY_WITHDRAWN:
            return []
        if event.kind is EventKind.PLAY:
            return [square for square, _ in Play.from_gcg(event.move).placements()]
    return []
