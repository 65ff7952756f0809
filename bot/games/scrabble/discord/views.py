"""The persistent buttons of the game messages, and the modals they open.

Every button is a :class:`GameButton`, a :class:`discord.ui.DynamicItem` whose custom id names the action
and the game (``scrabble:rack:42``), and for the buttons that act on a turn the move number they were
shown under (``scrabble:challenge:42:17``), so a click is routed by the id alone: the buttons keep working after
a restart, with nothing registered but the class (``Bot.add_dynamic_items``). The service decides which
buttons a message gets (:attr:`bot.host.messages.Message.buttons`); :func:`view_for` builds them.

The Play and Exchange buttons answer with a modal, a form whose custom id names the form, the game, the
move number and the click that opened it (``scrabble:play-form:42:17:<click id>``); a move is accepted
only for the turn it was made for. A form's submission is handled by that
custom id alone, in one place (:func:`submit_form`, called by the bot for every modal submission), not
by the :class:`discord.ui.Modal` object that was sent: discord.py only routes a submission to modals
sent by the same process, so a form opened before a restart and submitted after it would get no answer.
The modal classes therefore only describe the forms (their ``on_submit`` is discord.py's no-op), and a
submission is handled exactly once whether or not this process opened the form.

Every callback calls the game service and answers ephemerally, by the interaction's response if the
service answers within :data:`~bot.discord.delivery.DEFER_AFTER`, else by a followup after an ephemeral
deferral (a Play or Exchange button's response is the modal itself); any error goes to
:func:`bot.discord.errors.report_error`.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any, Final, Self, cast

import discord

from bot.discord.delivery import answer, answered_in_time
from bot.discord.errors import UnknownFormError, report_error
from bot.games.scrabble.commands import GameService, User
from bot.host.messages import Button, Message
from scrabble_core.notation import MAX_INPUT_LENGTH

NAMESPACE: Final = "scrabble"
MODAL_TIMEOUT: Final = 15 * 60.0
"""Seconds discord.py keeps an opened modal (an interaction token lives 15 minutes); submissions are
handled by custom id (:func:`submit_form`), so this only bounds the memory the modals hold."""
PLAY_FORM: Final = "play-form"
EXCHANGE_FORM: Final = "exchange-form"
MOVE_INPUT: Final = "move"
"""The custom id of the Play form's text input."""
TILES_INPUT: Final = "tiles"
"""The custom id of the Exchange form's text input."""
EXCHANGE_MAX_LENGTH: Final = 7

Work = Callable[[GameService, int, discord.Interaction[Any]], Awaitable[Message]]
"""An action on the service for the user of an interaction: ``work(service, channel_id, interaction)``."""

_STYLES: Final[dict[Button, tuple[str, discord.ButtonStyle]]] = {
    Button.JOIN: ("Join", discord.ButtonStyle.success),
    Button.ADD_AI: ("Add AI", discord.ButtonStyle.secondary),
    Button.ADD_BOT: ("Add bot", discord.ButtonStyle.secondary),
    Button.START: ("Start", discord.ButtonStyle.primary),
    Button.CANCEL: ("Cancel", discord.ButtonStyle.danger),
    Button.PLAY: ("Play", discord.ButtonStyle.success),
    Button.EXCHANGE: ("Exchange", discord.ButtonStyle.secondary),
    Button.PASS: ("Pass", discord.ButtonStyle.secondary),
    Button.HINT: ("Hint", discord.ButtonStyle.secondary),
    Button.SHOW_RACK: ("Show my rack", discord.ButtonStyle.primary),
    Button.CHALLENGE: ("Challenge", discord.ButtonStyle.danger),
    Button.ACCEPT: ("Accept", discord.ButtonStyle.success),
    Button.NO_CHALLENGE: ("No challenge", discord.ButtonStyle.secondary),
    Button.NEW_LINK: ("New web link", discord.ButtonStyle.secondary),
}
"""Each button's label and colour."""


TURN_ACTIONS: Final = frozenset(
    {
        Button.PLAY,
        Button.EXCHANGE,
        Button.PASS,
        Button.HINT,
        Button.CHALLENGE,
        Button.ACCEPT,
        Button.NO_CHALLENGE,
    }
)
"""The buttons that act on one turn: their custom id carries the move number they were shown under."""


def action_custom_id(action: Button, game_id: int, turn: int | None = None) -> str:
    """The custom id of the button for ``action`` in game ``game_id``: ``scrabble:{action}:{game_id}``,
    then ``:{turn}`` for a button of :data:`TURN_ACTIONS` shown under move number ``turn``."""
    if turn is None or action not in TURN_ACTIONS:
        return f"{NAMESPACE}:{action.value}:{game_id}"
    return f"{NAMESPACE}:{action.value}:{game_id}:{turn}"


def form_custom_id(form: str, game_id: int, turn: int | None, opened_by: int) -> str:
    """The custom id of ``form`` (:data:`PLAY_FORM` or :data:`EXCHANGE_FORM`) in game ``game_id``, for
    move number ``turn``, opened by the interaction ``opened_by``:
    ``scrabble:{form}:{game_id}:{turn}:{opened_by}`` (without ``{turn}:`` for a button made before turns
    were carried). The click's id makes it unique to the click (discord.py keys its opened modals by
    custom id)."""
    middle = "" if turn is None else f"{turn}:"
    return f"{NAMESPACE}:{form}:{game_id}:{middle}{opened_by}"


_NUMBER: Final = "[0-9]{1,20}"
_TURN: Final = "[0-9]{1,9}"
FORM_PATTERN: Final = re.compile(
    rf"{NAMESPACE}:(?P<form>{PLAY_FORM}|{EXCHANGE_FORM}):(?P<game_id>{_NUMBER}):"
    rf"(?:(?P<turn>{_TURN}):)?(?P<opened_by>{_NUMBER})"
)
"""The custom ids :func:`form_custom_id` makes (matched whole)."""


def service_of(interaction: discord.Interaction[Any]) -> GameService:
    """The game service of the bot that received ``interaction``."""
    service: GameService = interaction.client.service
    return service


def user_of(interaction: discord.Interaction[Any]) -> User:
    """The user of ``interaction`` as the service sees them: id and display name."""
    return User(interaction.user.id, interaction.user.display_name)


def can_manage(interaction: discord.Interaction[Any]) -> bool:
    """Whether the user may manage messages in the channel (moderators cancel any game)."""
    return interaction.permissions.manage_messages


async def run_for_user(interaction: discord.Interaction[Any], game_id: int, work: Work) -> None:
    """Run ``work`` in game ``game_id``'s channel for the user and answer with the service's answer
    (:func:`run_and_answer`). A game that is over is refused (:class:`~bot.host.errors.NoGameError`);
    every error is reported through :func:`bot.discord.errors.report_error`.
    """
    await run_and_answer(interaction, lambda service, i: work(service, service.channel_of(game_id), i))


async def run_and_answer(
    interaction: discord.Interaction[Any],
    act: Callable[[GameService, discord.Interaction[Any]], Awaitable[Message]],
) -> None:
    """Answer ``interaction`` with ``act(service, interaction)``'s answer and its buttons: as the
    response if it comes within :data:`~bot.discord.delivery.DEFER_AFTER`, else as a followup after an
    ephemeral deferral (the service may take longer than Discord's 3 seconds: AI turns, hints on big
    racks). Any error is reported through :func:`bot.discord.errors.report_error`."""
    try:
        reply = await answered_in_time(interaction, act(service_of(interaction), interaction))
        await answer(interaction, reply, view_for(reply))
    except Exception as error:
        await report_error(interaction, error)


def _actions(game_id: int, turn: int | None) -> dict[Button, Work]:
    """What each button that needs no input does in game ``game_id`` (at move number ``turn``, for the
    buttons of :data:`TURN_ACTIONS`)."""
    return {
        Button.JOIN: lambda service, channel, i: service.join(channel, user_of(i)),
        Button.ADD_AI: lambda service, channel, i: service.add_ai(channel, i.user.id),
        Button.ADD_BOT: lambda service, channel, i: service.add_program(channel, i.user.id),
        Button.START: lambda service, channel, i: service.start_game(channel, i.user.id),
        Button.CANCEL: lambda service, channel, i: service.cancel(
            channel, i.user.id, can_manage=can_manage(i)
        ),
        Button.PASS: lambda service, channel, i: service.pass_turn(
            channel, i.user.id, game_id=game_id, turn=turn
        ),
        Button.HINT: lambda service, channel, i: service.hint(channel, i.user.id, game_id=game_id, turn=turn),
        Button.SHOW_RACK: lambda service, channel, i: service.rack(channel, i.user.id, game_id=game_id),
        Button.CHALLENGE: lambda service, channel, i: service.challenge(
            channel, i.user.id, game_id=game_id, turn=turn
        ),
        Button.ACCEPT: lambda service, channel, i: service.accept(
            channel, i.user.id, game_id=game_id, turn=turn
        ),
        Button.NO_CHALLENGE: lambda service, channel, i: service.no_challenge(
            channel, i.user.id, game_id=game_id, turn=turn
        ),
        Button.NEW_LINK: lambda service, channel, i: service.renew_link(channel, i.user.id),
    }


_ACTION_PATTERN: Final = "|".join(re.escape(button.value) for button in _STYLES)
"""Scrabble's actions (Go's buttons are :mod:`bot.games.go.discord.views`'s, in their own namespace)."""


class GameButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"{NAMESPACE}:(?P<action>{_ACTION_PATTERN}):(?P<game_id>{_NUMBER})(?::(?P<turn>{_TURN}))?\Z",
):
    """A button of a game message: ``action`` in game ``game_id``, for the user who clicks it; a button
    of :data:`TURN_ACTIONS` acts only while the game is at move number ``turn`` (a button without one,
    sent before turns were carried, acts on the current turn)."""

    def __init__(self, action: Button, game_id: int, turn: int | None = None) -> None:
        label, style = _STYLES[action]
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=action_custom_id(action, game_id, turn))
        )
        self.action = action
        self.game_id = game_id
        self.turn = turn if action in TURN_ACTIONS else None

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild the button from its custom id."""
        turn = match["turn"]
        return cls(Button(match["action"]), int(match["game_id"]), None if turn is None else int(turn))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Open the modal of Play and Exchange; run the other actions at once."""
        if self.action is Button.PLAY:
            await open_modal(interaction, PlayModal(self.game_id, self.turn, interaction.id))
        elif self.action is Button.EXCHANGE:
            rack = ""
            try:
                service = service_of(interaction)
                rack = await service.rack_letters(service.channel_of(self.game_id), interaction.user.id)
            except Exception as error:
                await report_error(interaction, error)
                return
            await open_modal(interaction, ExchangeModal(self.game_id, self.turn, interaction.id, rack))
        else:
            await run_for_user(interaction, self.game_id, _actions(self.game_id, self.turn)[self.action])


async def open_modal(interaction: discord.Interaction[Any], modal: discord.ui.Modal) -> None:
    """Answer ``interaction`` with ``modal``; errors are reported through :func:`bot.discord.errors.report_error`."""
    try:
        await interaction.response.send_modal(modal)
    except Exception as error:
        await report_error(interaction, error)


class PlayModal(discord.ui.Modal, title="Play a word"):
    """The Play form: a move in the usual notation. Its submission is handled by :func:`submit_form`."""

    move: discord.ui.TextInput[PlayModal] = discord.ui.TextInput(
        label="Your move",
        placeholder="8H QUIZ (across) or H8 QUIZ (down); ?E is a blank as E",
        max_length=MAX_INPUT_LENGTH,
        custom_id=MOVE_INPUT,
    )

    def __init__(self, game_id: int, turn: int | None, opened_by: int) -> None:
        super().__init__(timeout=MODAL_TIMEOUT, custom_id=form_custom_id(PLAY_FORM, game_id, turn, opened_by))


class ExchangeModal(discord.ui.Modal, title="Exchange tiles"):
    """The Exchange form: the tiles to exchange, showing the player's rack. Its submission is handled by
    :func:`submit_form`."""

    tiles: discord.ui.TextInput[ExchangeModal] = discord.ui.TextInput(
        label="Tiles to exchange", max_length=EXCHANGE_MAX_LENGTH, custom_id=TILES_INPUT
    )

    def __init__(self, game_id: int, turn: int | None, opened_by: int, rack: str) -> None:
        super().__init__(
            timeout=MODAL_TIMEOUT, custom_id=form_custom_id(EXCHANGE_FORM, game_id, turn, opened_by)
        )
        self.tiles.placeholder = f"Your rack: {rack} (? is a blank)" if rack else "e.g. QVV? (? is a blank)"


_FORM_INPUTS: Final[dict[str, tuple[str, int]]] = {
    PLAY_FORM: (MOVE_INPUT, MAX_INPUT_LENGTH),
    EXCHANGE_FORM: (TILES_INPUT, EXCHANGE_MAX_LENGTH),
}
"""Each form's text input: its custom id and maximum length."""


def _form_work(form: str, text: str, game_id: int, turn: int | None) -> Work:
    """What submitting ``form`` with ``text`` does in game ``game_id`` at move number ``turn``."""
    if form == PLAY_FORM:
        return lambda service, channel, i: service.play(channel, i.user.id, text, game_id=game_id, turn=turn)
    return lambda service, channel, i: service.exchange(channel, i.user.id, text, game_id=game_id, turn=turn)


def input_values(components: Iterable[Mapping[str, Any]]) -> dict[str, str]:
    """The text inputs' values of a modal submission's ``data.components``, by custom id (inputs in
    action rows, type 1, or in labels, type 18)."""
    values: dict[str, str] = {}
    for component in components:
        if component.get("type") == 1:
            values.update(input_values(component.get("components") or []))
        elif component.get("type") == 18 and isinstance(component.get("component"), Mapping):
            values.update(input_values([component["component"]]))
        elif component.get("type") == 4 and isinstance(component.get("value"), str):
            values[str(component.get("custom_id"))] = component["value"]
    return values


async def submit_form(interaction: discord.Interaction[Any]) -> None:
    """Handle a modal submission: a Play or Exchange form runs the move for the user (as
    :func:`run_for_user`: the service's answer, deferred if it is slow), whichever process opened the form.

    Submissions outside the bot's namespace are ignored. A namespaced custom id that is not one of
    :data:`FORM_PATTERN`'s, or a form without its text input (or with a value longer than the input
    allows), is refused ephemerally through :func:`bot.discord.errors.report_error`.
    """
    data = cast("Mapping[str, Any]", interaction.data or {})
    custom_id = data.get("custom_id")
    if not isinstance(custom_id, str) or not custom_id.startswith(f"{NAMESPACE}:"):
        return
    try:
        match = FORM_PATTERN.fullmatch(custom_id)
        if match is None:
            raise UnknownFormError
        form, game_id = match["form"], int(match["game_id"])
        turn = None if match["turn"] is None else int(match["turn"])
        input_id, max_length = _FORM_INPUTS[form]
        text = input_values(data.get("components") or []).get(input_id)
        if text is None or len(text) > max_length:
            raise UnknownFormError
    except Exception as error:
        await report_error(interaction, error)
        return
    await run_for_user(interaction, game_id, _form_work(form, text, game_id, turn))


DYNAMIC_ITEMS: Final = (GameButton,)
"""Every persistent item class, for ``Bot.add_dynamic_items``."""


def view_for(message: Message) -> discord.ui.View | None:
    """The buttons of ``message`` (a view without timeout), then its links as link buttons, or
    ``None`` if it has neither."""
    if not message.buttons and not message.links:
        return None
    view = discord.ui.View(timeout=None)
    for button in message.buttons:
        assert message.game is not None  # Message requires it with buttons
        view.add_item(_button(button, message.game, message.turn))
    for link in message.links:
        view.add_item(discord.ui.Button(style=discord.ButtonStyle.link, label=link.label, url=link.url))
    return view


def _button(action: Button, game_id: int, turn: int | None) -> discord.ui.Item[Any]:
    """The persistent button of ``action`` in game ``game_id``: Go's (:mod:`bot.games.go.discord.views`) or
    Scrabble's."""
    from bot.games.go.discord.views import GO_STYLES, GoButton  # go_views builds on this module

    if action in GO_STYLES:
        return GoButton(action, game_id, turn)
    return GameButton(action, game_id, turn)
