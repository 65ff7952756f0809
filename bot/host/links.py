"""The web board's links in the host's messages: the public Open board link of a game (or, when the
board runs as a Discord Activity, the Open the board button that launches it), and the private link that
plays a seat (each only when the bot serves the board)."""

from __future__ import annotations

from dataclasses import replace
from typing import Final

from bot.host.messages import Link, Message
from bot.host.protocols import BoardLinks

BOARD_LABEL: Final = "Open board"
SEAT_LABEL: Final = "Play on the board"
OPEN_BOARD: Final = "board:open"
"""The button that opens the board inside Discord, as an Activity (the Discord front end's)."""


def with_board_link(message: Message, links: BoardLinks | None, game_id: int) -> Message:
    """``message`` with the Open board link (a spectator's view: no rack), if the board is served; the
    Open the board button of game ``game_id`` instead when the board runs as an Activity."""
    if links is None:
        return message
    if links.activity:
        return with_launch_button(message, links, game_id)
    return replace(message, links=(*message.links, Link(BOARD_LABEL, links.spectator(game_id))))


def with_launch_button(message: Message, links: BoardLinks | None, game_id: int) -> Message:
    """``message`` (a lobby) with the Open the board button of game ``game_id`` if the board runs as
    an Activity; as it is otherwise (the lobby has no board link)."""
    if links is None or not links.activity:
        return message
    return replace(message, buttons=(*message.buttons, OPEN_BOARD), game=game_id)


def with_seat_link(
    message: Message, links: BoardLinks | None, game_id: int, seat: int, *, renew: bool = False
) -> Message:
    """The private ``message`` with the private link that plays ``seat`` (a new one with ``renew``),
    if the board is served."""
    if links is None:
        return message
    link = Link(SEAT_LABEL, links.seat(game_id, seat, renew=renew), private=True)
    return replace(message, links=(*message.links, link))
