"""The persistent buttons of the Go messages, and the Play form their Play button opens.

Go's buttons work as Scrabble's (:mod:`bot.games.scrabble.discord.views`) in their own namespace: a :class:`GoButton`
is a :class:`discord.ui.DynamicItem` whose custom id names the action and the game (``go:go-resign:42``),
and for the buttons that act on one state of the game the version they were shown under
(``go:go-pass:42:17``), so a click is routed by its id alone, after a restart too, and a button of an
older message is refused (the service's :class:`~bot.host.errors.StaleTurnError`). The Go service
decides which buttons a message gets; only a seated player may act, and only the one whose move or
answer it is (the service's refusals reach the clicker ephemerally).

The Play button opens a form for the point; its submission is handled by its custom id
(``go:go-play-form:42:17:<click id>``) in :func:`submit_go_form`, whichever process opened it.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Final, Self, cast

import discord

from bot.discord.errors import GoUnavailableError, UnknownFormError, report_error
from bot.games.go.commands import GoService
from bot.games.scrabble.commands import GameService
from bot.games.scrabble.discord.views import (
    MODAL_TIMEOUT,
    can_manage,
    input_values,
    open_modal,
    run_and_answer,
    user_of,
)
from bot.host.messages import Button, Message

NAMESPACE: Final = "go"
PLAY_FORM: Final = "go-play-form"
POINT_INPUT: Final = "point"
"""The custom id of the Play form's text input."""
POINT_MAX_LENGTH: Final = 4
"""The longest answer the Play form takes: ``pass``, or a point such as ``T19``."""

GoWork = Callable[[GoService, int, discord.Interaction[Any]], Awaitable[Message]]
"""An action of the Go service for the user of an interaction: ``work(go, channel_id, interaction)``."""

GO_STYLES: Final[dict[Button, tuple[str, discord.ButtonStyle]]] = {
    Button.GO_JOIN: ("Join", discord.ButtonStyle.success),
    Button.GO_CANCEL: ("Cancel", discord.ButtonStyle.danger),
    Button.GO_PLAY: ("Play", discord.ButtonStyle.success),
    Button.GO_PASS: ("Pass", discord.ButtonStyle.secondary),
    Button.GO_UNDO: ("Undo", discord.ButtonStyle.secondary),
    Button.GO_RESIGN: ("Resign", discord.ButtonStyle.danger),
    Button.GO_UNDO_ACCEPT: ("Accept", discord.ButtonStyle.success),
    Button.GO_UNDO_REFUSE: ("Refuse", discord.ButtonStyle.danger),
    Button.GO_ACCEPT_SCORE: ("Accept the count", discord.ButtonStyle.success),
    Button.GO_RESUME: ("Resume play", discord.ButtonStyle.secondary),
}
"""Each Go button's label and colour (the Go buttons are exactly its keys)."""

GO_TURN_ACTIONS: Final = frozenset(
    {
        Button.GO_PLAY,
        Button.GO_PASS,
        Button.GO_UNDO_ACCEPT,
        Button.GO_UNDO_REFUSE,
        Button.GO_ACCEPT_SCORE,
        Button.GO_RESUME,
    }
)
"""The buttons that act on one version of the game: their custom id carries it."""


def go_service(service: GameService) -> GoService:
    """The Go games' service of the bot's ``service``.

    Raises:
        GoUnavailableError: this bot hosts no Go.
    """
    if service.go is None:
        raise GoUnavailableError
    return service.go


def go_custom_id(action: Button, game_id: int, turn: int | None = None) -> str:
    """The custom id of the Go button ``action`` in game ``game_id``: ``go:{action}:{game_id}``, then
    ``:{turn}`` for a button of :data:`GO_TURN_ACTIONS` shown under version ``turn``."""
    if turn is None or action not in GO_TURN_ACTIONS:
        return f"{NAMESPACE}:{action.value}:{game_id}"
    return f"{NAMESPACE}:{action.value}:{game_id}:{turn}"


def _go_actions(game_id: int, turn: int | None) -> dict[Button, GoWork]:
    """What each Go button but Play does in game ``game_id`` (at version ``turn``, for the buttons of
    :data:`GO_TURN_ACTIONS`)."""
    return {
        Button.GO_JOIN: lambda go, channel, i: go.join(channel, user_of(i)),
        Button.GO_CANCEL: lambda go, channel, i: go.cancel(channel, i.user.id, moderator=can_manage(i)),
        Button.GO_PASS: lambda go, channel, i: go.pass_turn(channel, i.user.id, game_id=game_id, turn=turn),
        Button.GO_UNDO: lambda go, channel, i: go.request_undo(channel, i.user.id, game_id=game_id),
        Button.GO_RESIGN: lambda go, channel, i: go.resign(channel, i.user.id, game_id=game_id),
        Button.GO_UNDO_ACCEPT: lambda go, channel, i: go.answer_undo(
            channel, i.user.id, True, game_id=game_id, turn=turn
        ),
        Button.GO_UNDO_REFUSE: lambda go, channel, i: go.answer_undo(
            channel, i.user.id, False, game_id=game_id, turn=turn
        ),
        Button.GO_ACCEPT_SCORE: lambda go, channel, i: go.accept_score(
            channel, i.user.id, game_id=game_id, turn=turn
        ),
        Button.GO_RESUME: lambda go, channel, i: go.resume(channel, i.user.id, game_id=game_id, turn=turn),
    }


async def run_go(interaction: discord.Interaction[Any], game_id: int, work: GoWork) -> None:
    """Run ``work`` on the Go service in game ``game_id``'s channel for the user of ``interaction``, as
    Scrabble's buttons run (:func:`bot.games.scrabble.discord.views.run_and_answer`: the answer ephemeral, deferred if
    slow, errors reported); a game that is over is refused (:class:`~bot.host.errors.NoGameError`)."""

    async def act(service: GameService, clicked: discord.Interaction[Any]) -> Message:
        go = go_service(service)
        return await work(go, go.channel_of(game_id), clicked)

    await run_and_answer(interaction, act)


_NUMBER: Final = "[0-9]{1,20}"
_TURN: Final = "[0-9]{1,9}"
_ACTION_PATTERN: Final = "|".join(re.escape(button.value) for button in GO_STYLES)
GO_FORM_PATTERN: Final = re.compile(
    rf"{NAMESPACE}:{PLAY_FORM}:(?P<game_id>{_NUMBER}):(?:(?P<turn>{_TURN}):)?(?P<opened_by>{_NUMBER})"
)
"""The custom ids of the Play forms (matched whole)."""


class GoButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"{NAMESPACE}:(?P<action>{_ACTION_PATTERN}):(?P<game_id>{_NUMBER})(?::(?P<turn>{_TURN}))?\Z",
):
    """A button of a Go message: ``action`` in game ``game_id`` for the user who clicks it; a button of
    :data:`GO_TURN_ACTIONS` acts only while the game is at version ``turn``."""

    def __init__(self, action: Button, game_id: int, turn: int | None = None) -> None:
        label, style = GO_STYLES[action]
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=go_custom_id(action, game_id, turn))
        )
        self.action = action
        self.game_id = game_id
        self.turn = turn if action in GO_TURN_ACTIONS else None

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild the button from its custom id."""
        turn = match["turn"]
        return cls(Button(match["action"]), int(match["game_id"]), None if turn is None else int(turn))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Open the Play form for Play; run the other actions at once."""
        if self.action is Button.GO_PLAY:
            await open_modal(interaction, GoPlayModal(self.game_id, self.turn, interaction.id))
        else:
            await run_go(interaction, self.game_id, _go_actions(self.game_id, self.turn)[self.action])


class GoPlayModal(discord.ui.Modal, title="Play a stone"):
    """The Play form: a point (or ``pass``). Its submission is handled by :func:`submit_go_form`."""

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
        super().__init__(
            timeout=MODAL_TIMEOUT, custom_id=f"{NAMESPACE}:{PLAY_FORM}:{game_id}:{middle}{opened_by}"
        )


async def submit_go_form(interaction: discord.Interaction[Any]) -> None:
    """Handle a modal submission in the Go namespace: a Play form plays its point for the user (as
    :func:`run_go`), whichever process opened the form. Other submissions are ignored; a Go custom id
    that is not a Play form's, or a form without its point (or a longer one), is refused ephemerally."""
    data = cast("Mapping[str, Any]", interaction.data or {})
    custom_id = data.get("custom_id")
    if not isinstance(custom_id, str) or not custom_id.startswith(f"{NAMESPACE}:"):
        return
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
    await run_go(
        interaction,
        game_id,
        lambda go, channel, i: go.play(channel, i.user.id, point, game_id=game_id, turn=turn),
    )


GO_DYNAMIC_ITEMS: Final = (GoButton,)
"""The Go messages' persistent item classes, for ``Bot.add_dynamic_items``."""
