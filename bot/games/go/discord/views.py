"""Go's persistent buttons and the Play form their Play button opens (see :mod:`bot.discord.buttons` for
how every game's buttons and forms are routed).

A button acts on its game for the user who clicks it; the buttons that act on one state of the game
carry the version they were shown under (``go:go-pass:42:17``), and a button of an older message is
refused (:class:`~bot.host.errors.StaleTurnError`). Go's commands decide which buttons a message gets;
only a seated player may act, and only the one whose move or answer it is (the refusals reach the
clicker ephemerally). The Play button opens a form for the point; its submission is handled by its
custom id (``go:go-play-form:42:17:<click id>``) in :func:`submit_form`, whichever process opened it.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Final

import discord

from bot.discord.buttons import NUMBER, TURN, ButtonSpec, Press, input_values, open_modal
from bot.discord.commands import MODAL_TIMEOUT, can_manage, press_in_game, run_in_game, user_of
from bot.discord.errors import UnknownFormError, report_error
from bot.games.go.buttons import GoButton
from bot.games.go.commands import GoCommands
from bot.games.go.kind import KIND
from bot.host.messages import Message

PLAY_FORM: Final = "go-play-form"
POINT_INPUT: Final = "point"
"""The custom id of the Play form's text input."""
POINT_MAX_LENGTH: Final = 4
"""The longest answer the Play form takes: ``pass``, or a point such as ``T19``."""

Action = Callable[[GoCommands, int, discord.Interaction[Any], int, int | None], Awaitable[Message]]
"""What a button does: ``action(commands, channel_id, interaction, game_id, turn)``."""

GO_FORM_PATTERN: Final = re.compile(
    rf"{KIND}:{PLAY_FORM}:(?P<game_id>{NUMBER}):(?:(?P<turn>{TURN}):)?(?P<opened_by>{NUMBER})"
)
"""The custom ids of the Play forms (matched whole)."""


def _act(action: Action) -> Press:
    """A button's press that runs ``action`` in its game for the user who clicks it."""
    return press_in_game(KIND, action)


async def _open_play(interaction: discord.Interaction[Any], game_id: int, turn: int | None) -> None:
    await open_modal(interaction, GoPlayModal(game_id, turn, interaction.id))


_STYLE: Final = discord.ButtonStyle
BUTTONS: Final[dict[str, ButtonSpec]] = {
    GoButton.JOIN: ButtonSpec("Join", _STYLE.success, _act(lambda c, ch, i, g, t: c.join(ch, user_of(i)))),
    GoButton.CANCEL: ButtonSpec(
        "Cancel", _STYLE.danger, _act(lambda c, ch, i, g, t: c.cancel(ch, i.user.id, moderator=can_manage(i)))
    ),
    GoButton.PLAY: ButtonSpec("Play", _STYLE.success, _open_play, per_turn=True),
    GoButton.PASS: ButtonSpec(
        "Pass",
        _STYLE.secondary,
        _act(lambda c, ch, i, g, t: c.pass_turn(ch, i.user.id, game_id=g, turn=t)),
        per_turn=True,
    ),
    GoButton.UNDO: ButtonSpec(
        "Undo", _STYLE.secondary, _act(lambda c, ch, i, g, t: c.request_undo(ch, i.user.id, game_id=g))
    ),
    GoButton.RESIGN: ButtonSpec(
        "Resign", _STYLE.danger, _act(lambda c, ch, i, g, t: c.resign(ch, i.user.id, game_id=g))
    ),
    GoButton.UNDO_ACCEPT: ButtonSpec(
        "Accept",
        _STYLE.success,
        _act(lambda c, ch, i, g, t: c.answer_undo(ch, i.user.id, True, game_id=g, turn=t)),
        per_turn=True,
    ),
    GoButton.UNDO_REFUSE: ButtonSpec(
        "Refuse",
        _STYLE.danger,
        _act(lambda c, ch, i, g, t: c.answer_undo(ch, i.user.id, False, game_id=g, turn=t)),
        per_turn=True,
    ),
    GoButton.ACCEPT_SCORE: ButtonSpec(
        "Accept the count",
        _STYLE.success,
        _act(lambda c, ch, i, g, t: c.accept_score(ch, i.user.id, game_id=g, turn=t)),
        per_turn=True,
    ),
    GoButton.RESUME: ButtonSpec(
        "Resume play",
        _STYLE.secondary,
        _act(lambda c, ch, i, g, t: c.resume(ch, i.user.id, game_id=g, turn=t)),
        per_turn=True,
    ),
}
"""Each Go button's label, colour and press; those of one version carry it."""


class GoPlayModal(discord.ui.Modal, title="Play a stone"):
    """The Play form: a point (or ``pass``). Its submission is handled by :func:`submit_form`."""

    point: discord.ui.TextInput[GoPlayModal] = discord.ui.TextInput(
        label="Your move",
        placeholder="A point such as D4 (columns skip I), or pass",
        max_length=POINT_MAX_LENGTH,
        custom_id=POINT_INPUT,
    )

    def __init__(self, game_id: int, turn: int | None, opened_by: int) -> None:
        """The form of game ``game_id`` for version ``turn`` (``None``: whatever the version), opened by
        the click ``opened_by``: ``go:go-play-form:{game_id}:{turn}:{opened_by}``."""
        middle = "" if turn is None else f"{turn}:"
        super().__init__(timeout=MODAL_TIMEOUT, custom_id=f"{KIND}:{PLAY_FORM}:{game_id}:{middle}{opened_by}")


async def submit_form(interaction: discord.Interaction[Any], custom_id: str, data: Mapping[str, Any]) -> None:
    """Handle a submission of a Go form: a Play form plays its point for the user, whichever process
    opened the form; a custom id that is not a Play form's, or a form without its point (or a longer
    one), is refused ephemerally."""
    try:
        match = GO_FORM_PATTERN.fullmatch(custom_id)
        if match is None:
            raise UnknownFormError
        game_id = int(match["game_id"])
        turn = None if match["turn"] is None else int(match["turn"])
        point = input_values(data.get("components") or []).get(POINT_INPUT)
        if point is None or len(point) > POINT_MAX_LENGTH:
            raise UnknownFormError
    except Exception as error:
        await report_error(interaction, error)
        return
    await run_in_game(
        interaction,
        KIND,
        game_id,
        lambda c, channel, i: c.play(channel, i.user.id, point, game_id=game_id, turn=turn),
    )
