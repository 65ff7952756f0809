"""Reading a new game's options as users give them, for every game: each value's type checked, a
refusal (:class:`~bot.host.errors.OptionError`) that names the option and echoes the value cut short."""

from __future__ import annotations

import enum
from typing import TypeVar

from bot.host.errors import OptionError
from bot.host.text import quoted

_Choice = TypeVar("_Choice", bound=enum.Enum)


def name_option(value: object, what: str) -> str | None:
    """``value``, a name (``None``: not given).

    Raises:
        OptionError: it is not text.
    """
    if value is None or isinstance(value, str):
        return value
    raise OptionError(f"The {what} must be a name, not {type(value).__name__}")


def whole_option(value: object, what: str, default: int) -> int:
    """``value``, a whole number (``default`` if not given).

    Raises:
        OptionError: it is not a whole number (a boolean is not).
    """
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int):
        raise OptionError(f"The {what} must be a whole number, not {type(value).__name__}")
    return value


def choice_option(name: str, what: str, choices: type[_Choice]) -> _Choice:
    """The member of ``choices`` whose value is ``name``.

    Raises:
        OptionError: none is, naming those there are.
    """
    try:
        return choices(name)
    except ValueError:
        known = ", ".join(str(choice.value) for choice in choices)
        raise OptionError(f"Unknown {what} {quoted(name)}: choose one of {known}") from None
