"""The options of a new Go game: :class:`GoNewGame` as asked for, and :func:`go_options`, which checks
it (types, ranges) and fills in the defaults, giving the stored :class:`GoOptions`."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from bot.config import MAX_TURN_SECONDS
from bot.games.go.engines import Level
from bot.host.errors import OptionError
from bot.host.options import choice_option, name_option, whole_option
from bot.host.seeds import SEED_LIMIT
from bot.host.text import quoted
from go_core import DEFAULT_KOMI, MAX_SIZE, MIN_SIZE
from go_core.errors import HandicapError
from go_core.game import MAX_KOMI
from go_core.handicap import handicap_points
from go_core.scoring import ScoringMethod

DEFAULT_SIZE: Final = 19
HANDICAP_KOMI: Final = 0.5
"""The komi of a handicap game when none is given."""
_Choice = TypeVar("_Choice", Level, ScoringMethod)

COLOURS: Final = ("black", "white", "random")
"""The creator's colour: Black, White, or drawn by the game's seed."""


@dataclass(frozen=True, slots=True)
class GoNewGame:
    """The options of ``/go new``; ``None`` takes the default. ``opponent`` is the user id of the member
    invited (only they may join); ``ai_level`` (``easy``, ``medium``, ``hard``) plays against the AI at
    once; with neither, anyone may join. ``time_limit`` is seconds per move (0: none). ``colour`` is
    the creator's (``black``, ``white``, ``random``). ``seed`` fixes the game's randomness (tests).
    ``ai_name`` names the AI's seat (default ``AI``; the terminal names it after its engine). Values
    come from users: :func:`go_options` checks their types as well as their values."""

    size: int | None = None
    komi: float | None = None
    handicap: int | None = None
    opponent: int | None = None
    ai_level: str | None = None
    time_limit: int | None = None
    colour: str | None = None
    scoring: str | None = None
    seed: int | None = None
    ai_name: str | None = None


@dataclass(frozen=True, slots=True)
class GoOptions:
    """The settings a Go game was created with (stored with it). ``turn_seconds`` 0 means no time
    limit; ``ai_level`` is the AI seat's level (``None``: no AI); ``opponent`` the invited member."""

    size: int
    komi: float
    handicap: int
    method: ScoringMethod
    turn_seconds: int
    ai_level: Level | None
    opponent: int | None
    creator_black: bool

    def to_dict(self) -> dict[str, Any]:
        """The options as JSON-compatible data."""
        return {
            "size": self.size,
            "komi": self.komi,
            "handicap": self.handicap,
            "method": self.method.value,
            "turn_seconds": self.turn_seconds,
            "ai_level": None if self.ai_level is None else self.ai_level.value,
            "opponent": self.opponent,
            "creator_black": self.creator_black,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GoOptions:
        """The options saved by :meth:`to_dict`.

        Raises:
            KeyError, TypeError, ValueError: it is not one.
        """
        level = data["ai_level"]
        opponent = data["opponent"]
        return cls(
            int(data["size"]),
            float(data["komi"]),
            int(data["handicap"]),
            ScoringMethod(data["method"]),
            int(data["turn_seconds"]),
            None if level is None else Level(level),
            None if opponent is None else int(opponent),
            bool(data["creator_black"]),
        )


def go_options(options: GoNewGame, creator_id: int, draw: float) -> GoOptions:
    """The checked options of a new game by ``creator_id``; ``draw`` (0 to 1, from the game's seed)
    decides a ``random`` colour.

    Raises:
        OptionError: a value of the wrong type, out of range or unknown (its echo cut short); a handicap
            the board does not take (the engine's rule: :func:`go_core.handicap.handicap_points`); an
            opponent who is the creator, or both an opponent and an AI level.
    """
    size = whole_option(options.size, "board size", DEFAULT_SIZE)
    if not MIN_SIZE <= size <= MAX_SIZE:
        raise OptionError(f"The board size must be between {MIN_SIZE} and {MAX_SIZE}")
    handicap = whole_option(options.handicap, "handicap", 0)
    if handicap:
        try:
            handicap_points(size, handicap)
        except HandicapError as error:
            raise OptionError(str(error)) from None
    komi = options.komi
    if komi is None:
        komi = HANDICAP_KOMI if handicap else DEFAULT_KOMI
    if isinstance(komi, bool) or not isinstance(komi, int | float):
        raise OptionError(f"The komi must be a number, not {type(komi).__name__}")
    if not math.isfinite(komi) or abs(komi) > MAX_KOMI or komi * 2 != int(komi * 2):
        raise OptionError(
            f"The komi must be a whole or half number of points, at most {MAX_KOMI:g} either way"
        )
    seconds = whole_option(options.time_limit, "time limit", 0)
    if not 0 <= seconds <= MAX_TURN_SECONDS:
        raise OptionError(f"The time limit must be between 0 (none) and {MAX_TURN_SECONDS} seconds a move")
    level = None if options.ai_level is None else _choice(options.ai_level, "AI level", Level)
    opponent = options.opponent
    if opponent is not None:
        opponent = whole_option(opponent, "opponent", 0)
        if opponent == creator_id:
            raise OptionError("You cannot invite yourself: leave the opponent out to let anyone join")
        if level is not None:
            raise OptionError("Choose a member or the AI as your opponent, not both")
    colour = _text(options.colour, "colour") or "black"
    if colour not in COLOURS:
        raise OptionError(f"Unknown colour {quoted(colour)}: choose one of {', '.join(COLOURS)}")
    method = _choice(options.scoring or ScoringMethod.AREA.value, "scoring", ScoringMethod)
    if options.seed is not None and not 0 <= whole_option(options.seed, "seed", 0) < SEED_LIMIT:
        raise OptionError(f"The seed must be a whole number from 0 to {SEED_LIMIT - 1}")
    creator_black = colour == "black" or (colour == "random" and draw < 0.5)
    return GoOptions(size, float(komi), handicap, method, seconds, level, opponent, creator_black)


def _text(value: object, what: str) -> str | None:
    name = name_option(value, what)
    return None if name is None else name.strip().lower()


def _choice(value: object, what: str, choices: type[_Choice]) -> _Choice:
    return choice_option(_text(value, what) or "", what, choices)
