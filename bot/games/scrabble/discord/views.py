"""Scrabble's persistent buttons and the forms they open (see :mod:`bot.discord.buttons` for how every
game's buttons and forms are routed).

A button acts on its game for the user who clicks it; the buttons of a turn carry the move number they
were shown under (``scrabble:challenge:42:17``) and act on that turn only. The Play and Exchange buttons
answer with a form whose custom id names the form, the game, the move number and the click that opened
it (``scrabble:play-form:42:17:<click id>``); a move is accepted only for the turn it was made for, and
is handled by :func:`submit_form` whichever process opened the form.

Every callback calls Scrabble's commands and answers ephemerally, by the interaction's response if the
commands answer within :data:`~bot.discord.delivery.DEFER_AFTER`, else by a followup after an ephemeral
deferral (a Play or Exchange button's response is the form itself); any error goes to
:func:`bot.discord.errors.report_error`.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Final

import discord

from bot.discord.buttons import NUMBER, TURN, ButtonSpec, Press, input_values, open_modal
from bot.discord.commands import (
    MODAL_TIMEOUT,
    Work,
    can_manage,
    commands_of,
    press_in_game,
    run_in_game,
    user_of,
)
from bot.discord.errors import UnknownFormError, report_error
from bot.games.scrabble.buttons import ScrabbleButton
from bot.games.scrabble.commands import ScrabbleCommands
from bot.games.scrabble.kind import KIND
from bot.games.scrabble.rules import move_example
from bot.host.messages import Message
from scrabble_core.notation import MAX_INPUT_LENGTH

PLAY_FORM: Final = "play-form"
EXCHANGE_FORM: Final = "exchange-form"
MOVE_INPUT: Final = "move"
"""The custom id of the Play form's text input."""
TILES_INPUT: Final = "tiles"
"""The custom id of the Exchange form's text input."""
EXCHANGE_MAX_LENGTH: Final = 7


def form_custom_id(form: str, game_id: int, turn: int | None, opened_by: int) -> str:
    """The custom id of ``form`` (:data:`PLAY_FORM` or :data:`EXCHANGE_FORM`) in game ``game_id``, for
    move number ``turn``, opened by the interaction ``opened_by``:
    ``scrabble:{form}:{game_id}:{turn}:{opened_by}`` (without ``{turn}:`` for a form of whatever turn).
    The click's id makes it unique to the click (discord.py keys its opened modals by custom id)."""
    middle = "" if turn is None else f"{turn}:"
    return f"{KIND}:{form}:{game_id}:{middle}{opened_by}"


FORM_PATTERN: Final = re.compile(
    rf"{KIND}:(?P<form>{PLAY_FORM}|{EXCHANGE_FORM}):(?P<game_id>{NUMBER}):"
    rf"(?:(?P<turn>{TURN}):)?(?P<opened_by>{NUMBER})"
)
"""The custom ids :func:`form_custom_id` makes (matched whole)."""


def scrabble(interaction: discord.Interaction[Any]) -> ScrabbleCommands:
    """Scrabble's commands on the bot that received ``interaction``."""
    commands: ScrabbleCommands = commands_of(interaction, KIND)
    return commands


Action = Callable[[ScrabbleCommands, int, discord.Interaction[Any], int, int | None], Awaitable[Message]]
"""What a button does: ``action(commands, channel_id, interaction, game_id, turn)``."""


def _act(action: Action) -> Press:
    """A button's press that runs ``action`` in its game for the user who clicks it."""
    return press_in_game(KIND, action)


async def _open_play(interaction: discord.Interaction[Any], game_id: int, turn: int | None) -> None:
    try:
        variant = scrabble(interaction).open_table(game_id).started().variant
    except Exception as error:
        await report_error(interaction, error)
        return
    await open_modal(interaction, PlayModal(game_id, turn, interaction.id, move_example(variant)))


async def _open_exchange(interaction: discord.Interaction[Any], game_id: int, turn: int | None) -> None:
    try:
        commands = scrabble(interaction)
        rack = await commands.rack_letters(commands.channel_of(game_id), interaction.user.id)
    except Exception as error:
        await report_error(interaction, error)
        return
    await open_modal(interaction, ExchangeModal(game_id, turn, interaction.id, rack))


_STYLE: Final = discord.ButtonStyle
BUTTONS: Final[dict[str, ButtonSpec]] = {
    ScrabbleButton.JOIN: ButtonSpec(
        "Join", _STYLE.success, _act(lambda c, ch, i, g, t: c.join(ch, user_of(i)))
    ),
    ScrabbleButton.ADD_AI: ButtonSpec(
        "Add AI", _STYLE.secondary, _act(lambda c, ch, i, g, t: c.add_ai(ch, i.user.id))
    ),
    ScrabbleButton.ADD_BOT: ButtonSpec(
        "Add bot", _STYLE.secondary, _act(lambda c, ch, i, g, t: c.add_program(ch, i.user.id))
    ),
    ScrabbleButton.START: ButtonSpec(
        "Start", _STYLE.primary, _act(lambda c, ch, i, g, t: c.start_game(ch, i.user.id))
    ),
    ScrabbleButton.CANCEL: ButtonSpec(
        "Cancel",
        _STYLE.danger,
        _act(lambda c, ch, i, g, t: c.cancel(ch, i.user.id, can_manage=can_manage(i))),
    ),
    ScrabbleButton.PLAY: ButtonSpec("Play", _STYLE.success, _open_play, per_turn=True),
    ScrabbleButton.EXCHANGE: ButtonSpec("Exchange", _STYLE.secondary, _open_exchange, per_turn=True),
    ScrabbleButton.PASS: ButtonSpec(
        "Pass",
        _STYLE.secondary,
        _act(lambda c, ch, i, g, t: c.pass_turn(ch, i.user.id, game_id=g, turn=t)),
        per_turn=True,
    ),
    ScrabbleButton.HINT: ButtonSpec(
        "Hint",
        _STYLE.secondary,
        _act(lambda c, ch, i, g, t: c.hint(ch, i.user.id, game_id=g, turn=t)),
        per_turn=True,
    ),
    ScrabbleButton.SHOW_RACK: ButtonSpec(
        "Show my rack", _STYLE.primary, _act(lambda c, ch, i, g, t: c.rack(ch, i.user.id, game_id=g))
    ),
    ScrabbleButton.CHALLENGE: ButtonSpec(
        "Challenge",
        _STYLE.danger,
        _act(lambda c, ch, i, g, t: c.challenge(ch, i.user.id, game_id=g, turn=t)),
        per_turn=True,
    ),
    ScrabbleButton.ACCEPT: ButtonSpec(
        "Accept",
        _STYLE.success,
        _act(lambda c, ch, i, g, t: c.accept(ch, i.user.id, game_id=g, turn=t)),
        per_turn=True,
    ),
    ScrabbleButton.NO_CHALLENGE: ButtonSpec(
        "No challenge",
        _STYLE.secondary,
        _act(lambda c, ch, i, g, t: c.no_challenge(ch, i.user.id, game_id=g, turn=t)),
        per_turn=True,
    ),
    ScrabbleButton.NEW_LINK: ButtonSpec(
        "New web link", _STYLE.secondary, _act(lambda c, ch, i, g, t: c.renew_link(ch, i.user.id))
    ),
}
"""Each Scrabble button's label, colour and press; those of a turn carry its move number."""


class PlayModal(discord.ui.Modal, title="Play a word"):
    """The Play form: a move in the usual notation. Its submission is handled by :func:`submit_form`."""

    move: discord.ui.TextInput[PlayModal] = discord.ui.TextInput(
        label="Your move", max_length=MAX_INPUT_LENGTH, custom_id=MOVE_INPUT
    )

    def __init__(self, game_id: int, turn: int | None, opened_by: int, example: str) -> None:
        super().__init__(timeout=MODAL_TIMEOUT, custom_id=form_custom_id(PLAY_FORM, game_id, turn, opened_by))
        self.move.placeholder = example


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
        return lambda c, channel, i: c.play(channel, i.user.id, text, game_id=game_id, turn=turn)
    return lambda c, channel, i: c.exchange(channel, i.user.id, text, game_id=game_id, turn=turn)


async def submit_form(interaction: discord.Interaction[Any], custom_id: str, data: Mapping[str, Any]) -> None:
    """Handle a submission of a Scrabble form: a Play or Exchange form runs the move for the user (the
    answer deferred if it is slow), whichever process opened the form. A custom id that is not one of
    :data:`FORM_PATTERN`'s, or a form without its text input (or with a value longer than the input
    allows), is refused ephemerally through :func:`bot.discord.errors.report_error`."""
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
    await run_in_game(interaction, KIND, game_id, _form_work(form, text, game_id, turn))
