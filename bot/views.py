"""The persistent buttons of the game messages, and the modals they open.

Every button is a :class:`GameButton`, a :class:`discord.ui.DynamicItem` whose custom id names the action
and the game (``scrabble:rack:42``), so a click is routed by the id alone: the buttons keep working after
a restart, with nothing registered but the class (``Bot.add_dynamic_items``). The service decides which
buttons a message gets (:attr:`bot.messages.Message.buttons`); :func:`view_for` builds them.

Every callback acknowledges the interaction first (an ephemeral deferral, or the modal that is its
answer), then calls the game service and follows up ephemerally; any error goes to
:func:`bot.errors.report_error`.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any, Final, Self

import discord

from bot.delivery import answer, defer
from bot.errors import report_error
from bot.messages import Button, Message
from bot.service.game_service import GameService, User
from scrabble_core.notation import MAX_INPUT_LENGTH

NAMESPACE: Final = "scrabble"
MODAL_TIMEOUT: Final = 15 * 60.0
"""Seconds an opened modal waits for its submission (an interaction token lives 15 minutes)."""

Work = Callable[[GameService, int, discord.Interaction[Any]], Awaitable[Message]]
"""An action on the service for the user of an interaction: ``work(service, channel_id, interaction)``."""

_STYLES: Final[dict[Button, tuple[str, discord.ButtonStyle]]] = {
    Button.JOIN: ("Join", discord.ButtonStyle.success),
    Button.ADD_AI: ("Add AI", discord.ButtonStyle.secondary),
    Button.START: ("Start", discord.ButtonStyle.primary),
    Button.CANCEL: ("Cancel", discord.ButtonStyle.danger),
    Button.PLAY: ("Play", discord.ButtonStyle.success),
    Button.EXCHANGE: ("Exchange", discord.ButtonStyle.secondary),
    Button.PASS: ("Pass", discord.ButtonStyle.secondary),
    Button.HINT: ("Hint", discord.ButtonStyle.secondary),
    Button.SHOW_RACK: ("Show my rack", discord.ButtonStyle.primary),
    Button.CHALLENGE: ("Challenge", discord.ButtonStyle.danger),
    Button.ACCEPT: ("Accept", discord.ButtonStyle.success),
}
"""Each button's label and colour."""


def action_custom_id(action: Button, game_id: int) -> str:
    """The custom id of the button for ``action`` in game ``game_id``: ``scrabble:{action}:{game_id}``."""
    return f"{NAMESPACE}:{action.value}:{game_id}"


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
    """Defer ``interaction`` (ephemeral "thinking"), run ``work`` in game ``game_id``'s channel for the
    user, and follow up with the service's answer.

    The deferral comes first because the service may take longer than Discord's 3 seconds (rendering,
    AI turns, hints on big racks). A game that is over is refused (:class:`~bot.service.errors.NoGameError`);
    every error is reported through :func:`bot.errors.report_error`.
    """
    try:
        await defer(interaction)
        service = service_of(interaction)
        reply = await work(service, service.channel_of(game_id), interaction)
        await answer(interaction, reply, view_for(reply))
    except Exception as error:
        await report_error(interaction, error)


def _actions(game_id: int) -> dict[Button, Work]:
    """What each button that needs no input does in game ``game_id``."""
    return {
        Button.JOIN: lambda service, channel, i: service.join(channel, user_of(i)),
        Button.ADD_AI: lambda service, channel, i: service.add_ai(channel, i.user.id),
        Button.START: lambda service, channel, i: service.start_game(channel, i.user.id),
        Button.CANCEL: lambda service, channel, i: service.cancel(
            channel, i.user.id, can_manage=can_manage(i)
        ),
        Button.PASS: lambda service, channel, i: service.pass_turn(channel, i.user.id, game_id=game_id),
        Button.HINT: lambda service, channel, i: service.hint(channel, i.user.id, game_id=game_id),
        Button.SHOW_RACK: lambda service, channel, i: service.rack(channel, i.user.id, game_id=game_id),
        Button.CHALLENGE: lambda service, channel, i: service.challenge(channel, i.user.id, game_id=game_id),
        Button.ACCEPT: lambda service, channel, i: service.accept(channel, i.user.id, game_id=game_id),
    }


_ACTION_PATTERN: Final = "|".join(re.escape(button.value) for button in Button)


class GameButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"{NAMESPACE}:(?P<action>{_ACTION_PATTERN}):(?P<game_id>[0-9]{{1,20}})\Z",
):
    """A button of a game message: ``action`` in game ``game_id``, for the user who clicks it."""

    def __init__(self, action: Button, game_id: int) -> None:
        label, style = _STYLES[action]
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=action_custom_id(action, game_id))
        )
        self.action = action
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild the button from its custom id."""
        return cls(Button(match["action"]), int(match["game_id"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Open the modal of Play and Exchange; run the other actions at once."""
        if self.action is Button.PLAY:
            await open_modal(interaction, PlayModal(self.game_id, interaction.id))
        elif self.action is Button.EXCHANGE:
            rack = ""
            try:
                service = service_of(interaction)
                rack = await service.rack_letters(service.channel_of(self.game_id), interaction.user.id)
            except Exception as error:
                await report_error(interaction, error)
                return
            await open_modal(interaction, ExchangeModal(self.game_id, interaction.id, rack))
        else:
            await run_for_user(interaction, self.game_id, _actions(self.game_id)[self.action])


async def open_modal(interaction: discord.Interaction[Any], modal: discord.ui.Modal) -> None:
    """Answer ``interaction`` with ``modal``; errors are reported through :func:`bot.errors.report_error`."""
    try:
        await interaction.response.send_modal(modal)
    except Exception as error:
        await report_error(interaction, error)


class PlayModal(discord.ui.Modal, title="Play a word"):
    """Asks for a move in the usual notation; its custom id is unique to the click that opened it."""

    move: discord.ui.TextInput[PlayModal] = discord.ui.TextInput(
        label="Your move",
        placeholder="8H QUIZ (across) or H8 QUIZ (down); ?E is a blank as E",
        max_length=MAX_INPUT_LENGTH,
        custom_id="move",
    )

    def __init__(self, game_id: int, opened_by: int) -> None:
        super().__init__(timeout=MODAL_TIMEOUT, custom_id=f"{NAMESPACE}:play-form:{game_id}:{opened_by}")
        self.game_id = game_id

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        """Play the typed move."""
        move, game_id = self.move.value, self.game_id
        await run_for_user(
            interaction,
            game_id,
            lambda service, channel, i: service.play(channel, i.user.id, move, game_id=game_id),
        )


class ExchangeModal(discord.ui.Modal, title="Exchange tiles"):
    """Asks for the tiles to exchange, showing the player's rack; its custom id is unique to the click
    that opened it."""

    tiles: discord.ui.TextInput[ExchangeModal] = discord.ui.TextInput(
        label="Tiles to exchange", max_length=7, custom_id="tiles"
    )

    def __init__(self, game_id: int, opened_by: int, rack: str) -> None:
        super().__init__(timeout=MODAL_TIMEOUT, custom_id=f"{NAMESPACE}:exchange-form:{game_id}:{opened_by}")
        self.game_id = game_id
        self.tiles.placeholder = f"Your rack: {rack} (? is a blank)" if rack else "e.g. QVV? (? is a blank)"

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        """Exchange the typed tiles."""
        tiles, game_id = self.tiles.value, self.game_id
        await run_for_user(
            interaction,
            game_id,
            lambda service, channel, i: service.exchange(channel, i.user.id, tiles, game_id=game_id),
        )


DYNAMIC_ITEMS: Final = (GameButton,)
"""Every persistent item class, for ``Bot.add_dynamic_items``."""


def view_for(message: Message) -> discord.ui.View | None:
    """The buttons of ``message`` (a view without timeout), or ``None`` if it has none."""
    if not message.buttons:
        return None
    assert message.game is not None  # Message requires it with buttons
    view = discord.ui.View(timeout=None)
    for button in message.buttons:
        view.add_item(GameButton(button, message.game))
    return view
