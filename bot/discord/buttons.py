"""The persistent buttons of every game's messages, and the forms they open: one
:class:`GameButton` class for all of them, a namespace per game.

A button is named ``{namespace}:{action}`` (the game's kind, then the action: ``scrabble:play``,
``go:go-pass``; see :attr:`bot.host.messages.Message.buttons`), and its custom id adds the game and, for
the buttons that act on one state of the game, the version they were shown under
(``scrabble:challenge:42:17``), so a click is routed by the id alone: the buttons keep working after a
restart, with nothing registered but the class (``Bot.add_dynamic_items``). Each game's Discord part
says what its buttons are and do (:func:`add_buttons`: a :class:`ButtonSpec` each) and handles the
submissions of its forms, whose custom ids begin with its namespace (:func:`add_forms`).

A form's submission is handled by its custom id alone, in one place (:func:`submit_form`, called by the
bot for every modal submission), not by the :class:`discord.ui.Modal` object that was sent: discord.py
only routes a submission to modals sent by the same process, so a form opened before a restart and
submitted after it would get no answer otherwise. The modal classes therefore only describe the forms
(their ``on_submit`` is discord.py's no-op), and a submission is handled exactly once whether or not this
process opened the form.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Self, cast

import discord

from bot.discord.errors import report_error
from bot.host.messages import Message

NUMBER: Final = "[0-9]{1,20}"
"""A game id (or a click's id) in a custom id."""
TURN: Final = "[0-9]{1,9}"
"""A game's version in a custom id."""
_NAME: Final = "[a-z][a-z0-9-]*"

Press = Callable[[discord.Interaction[Any], int, int | None], Awaitable[None]]
"""What pressing a button does: ``press(interaction, game_id, turn)`` (``turn``: the version it was shown
under, for a button that acts on one)."""
Submit = Callable[[discord.Interaction[Any], str, Mapping[str, Any]], Awaitable[None]]
"""How a game handles a submission of one of its forms: ``submit(interaction, custom_id, data)``."""


@dataclass(frozen=True, slots=True)
class ButtonSpec:
    """A button: its label and colour, what pressing it does, and whether it acts on the one state of
    the game it was shown under (its custom id then carries the version)."""

    label: str
    style: discord.ButtonStyle
    press: Press
    per_turn: bool = False


_BUTTONS: dict[str, ButtonSpec] = {}
_FORMS: dict[str, Submit] = {}


def add_buttons(buttons: Mapping[str, ButtonSpec]) -> None:
    """Know the game's ``buttons`` (by name, ``{namespace}:{action}``); adding them again changes nothing."""
    _BUTTONS.update(buttons)


def add_forms(namespace: str, submit: Submit) -> None:
    """Hand the submissions of the forms whose custom id begins with ``{namespace}:`` to ``submit``."""
    _FORMS[namespace] = submit


def custom_id(button: str, game_id: int, turn: int | None = None) -> str:
    """The custom id of ``button`` in game ``game_id``: ``{button}:{game_id}``, then ``:{turn}`` for a
    button that acts on one version, shown under version ``turn``."""
    spec = _BUTTONS.get(button)
    if turn is None or spec is None or not spec.per_turn:
        return f"{button}:{game_id}"
    return f"{button}:{game_id}:{turn}"


class GameButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"(?P<button>{_NAME}:{_NAME}):(?P<game_id>{NUMBER})(?::(?P<turn>{TURN}))?\Z",
):
    """A button of a game message: ``button`` in game ``game_id``, for the user who clicks it; a button
    that acts on one version acts only while the game is at version ``turn`` (a button without one acts
    on the current version). A custom id of that shape that names no game's button is no button: a
    click on it is left alone, as one on any id the bot does not know."""

    def __init__(self, button: str, game_id: int, turn: int | None = None) -> None:
        spec = _BUTTONS.get(button)
        label, style = ("?", discord.ButtonStyle.secondary) if spec is None else (spec.label, spec.style)
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=custom_id(button, game_id, turn))
        )
        self.button = button
        self.game_id = game_id
        self.turn = turn if spec is not None and spec.per_turn else None

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        """Rebuild the button from its custom id."""
        turn = match["turn"]
        return cls(match["button"], int(match["game_id"]), None if turn is None else int(turn))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        """Do what the button does (its game's :class:`ButtonSpec`); nothing for no game's button."""
        spec = _BUTTONS.get(self.button)
        if spec is not None:
            await spec.press(interaction, self.game_id, self.turn)


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
        view.add_item(GameButton(button, message.game, message.turn))
    for link in message.links:
        view.add_item(discord.ui.Button(style=discord.ButtonStyle.link, label=link.label, url=link.url))
    return view


async def submit_form(interaction: discord.Interaction[Any]) -> None:
    """Handle a modal submission: by the game whose namespace begins its custom id (submissions of no
    game's namespace are ignored)."""
    data = cast("Mapping[str, Any]", interaction.data or {})
    custom = data.get("custom_id")
    if not isinstance(custom, str):
        return
    submit = _FORMS.get(custom.partition(":")[0])
    if submit is not None:
        await submit(interaction, custom, data)


def input_values(components: Any) -> dict[str, str]:
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


async def open_modal(interaction: discord.Interaction[Any], modal: discord.ui.Modal) -> None:
    """Answer ``interaction`` with ``modal``; errors are reported through
    :func:`bot.discord.errors.report_error`."""
    try:
        await interaction.response.send_modal(modal)
    except Exception as error:
        await report_error(interaction, error)
