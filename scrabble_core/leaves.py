"""The leave model: what the tiles kept on the rack after a move are worth, in points.

A move's value to the AI is its score plus the value of its *leave* (the tiles it keeps). The value of a
leave is the number of points it is expected to add to (or take from) the player's next turn compared
with drawing a fresh rack: an ``S`` or a blank helps, a ``Q`` without a ``U`` or ``IIUUV`` hurts.

The model is compact and linear. A leave (``?`` for a blank) is described by a few feature groups:

- ``tiles``: one weight per tile kind, counted once per copy held;
- ``duplicates``: one weight per letter, counted once per copy beyond the first (``EEE`` counts 2);
- ``balance``: one weight per ``"<vowels>/<consonants>"`` cell (blanks count as neither), e.g. ``"3/0"``;
- ``synergies``: one weight per combination of tiles (``"QU"``, ``"ING"``), counted once when the leave
  holds every tile of it.

:func:`leave_features` lists those features and :meth:`LeaveModel.evaluate` sums their weights, so
``scripts/fit_leaves.py`` (which fits the weights on the project's own self-play games and describes
the method) and the AI read leaves the same way. The fitted weights ship as ``assets/leaves/<name>.json``
with their provenance; :func:`load_leave_model` validates such a file.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
from array import array
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from scrabble_core.errors import ScrabbleError, cut, echo
from scrabble_core.native import native_core
from scrabble_core.variant import BLANK, assets_dir

FORMAT: Final = 1
GROUPS: Final = ("tiles", "duplicates", "balance", "synergies")
PROVENANCE_KEYS: Final = ("games", "samples", "seed", "date", "method", "lexicon", "variant")

Feature = tuple[str, str]
"""A feature of a leave: ``(group, key)``, e.g. ``("tiles", "Q")`` or ``("synergies", "QU")``."""


class LeaveModelError(ScrabbleError):
    """A leave model file cannot be used. The message names the file and what is wrong."""

    def __init__(self, source: str, problem: str) -> None:
        self.source = source
        self.problem = problem
        super().__init__(f"{source}: {problem}")


def leave_features(leave: str, vowels: str, synergies: tuple[str, ...]) -> Counter[Feature]:
    """The features of ``leave`` (tiles written as a rack, ``?`` for a blank) with their counts.

    ``vowels`` are the letters counted as vowels; ``synergies`` the tile combinations looked for.
    The empty leave has only its balance cell ``"0/0"``.
    """
    counts = Counter(leave)
    features: Counter[Feature] = Counter()
    vowel_count = consonant_count = 0
    for tile, count in counts.items():
        features["tiles", tile] += count
        if count > 1:
            features["duplicates", tile] += count - 1
        if tile in vowels:
            vowel_count += count
        elif tile != BLANK:
            consonant_count += count
    features["balance", f"{vowel_count}/{consonant_count}"] = 1
    for combination in synergies:
        if all(counts[tile] >= need for tile, need in _needs(combination)):
            features["synergies", combination] = 1
    return features


@functools.cache
def _needs(combination: str) -> tuple[tuple[str, int], ...]:
    """The tiles of a synergy with how many of each it needs (computed once per combination)."""
    return tuple(Counter(combination).items())


NativeLeaveTable = tuple[str, bytes, bytes, bytes, bytes, int, tuple[tuple[bytes, bytes, float], ...]]
"""A leave model laid out for the native core (:attr:`LeaveModel.native_table`)."""
_NATIVE_BALANCE_SIDE: Final = 65  # balance cells up to 64 vowels and 64 consonants (the native rack limit)


@dataclass(frozen=True, slots=True)
class _Tables:
    """A model's weights laid out for summing the features of a leave without listing them."""

    vowels: str
    tiles: dict[str, float]
    duplicates: dict[str, float]
    balance: dict[str, float]
    synergies: tuple[tuple[tuple[tuple[str, int], ...], float], ...]

    def value(self, leave: str) -> float:
        """The sum of the weights of :func:`leave_features` of ``leave`` (tiles sorted), added in the
        order that function lists them."""
        counts: dict[str, int] = {}
        for tile in leave:
            counts[tile] = counts.get(tile, 0) + 1
        total = 0.0
        vowel_count = consonant_count = 0
        for tile, count in counts.items():
            total += self.tiles.get(tile, 0.0) * count
            if count > 1:
                total += self.duplicates.get(tile, 0.0) * (count - 1)
            if tile in self.vowels:
                vowel_count += count
            elif tile != BLANK:
                consonant_count += count
        total += self.balance.get(f"{vowel_count}/{consonant_count}", 0.0)
        for needs, weight in self.synergies:
            if all(counts.get(tile, 0) >= need for tile, need in needs):
                total += weight
        return total


@dataclass(frozen=True, eq=False)
class LeaveModel:
    """Fitted weights of the leave features (see the module docstring) and where they came from.

    Attributes:
        vowels: the letters counted as vowels for the ``balance`` group.
        weights: ``group -> key -> points``; a feature missing from the table weighs 0.
        provenance: how the weights were made (games, samples, seed, date, method, ...).
    """

    vowels: str
    weights: Mapping[str, Mapping[str, float]]
    provenance: Mapping[str, object]
    _memo: dict[str, float] = field(default_factory=dict, repr=False)

    @property
    def synergies(self) -> tuple[str, ...]:
        """The tile combinations the model weighs."""
        return tuple(self.weights.get("synergies", {}))

    def evaluate(self, leave: str) -> float:
        """The value in points of keeping ``leave`` (a rack string, ``?`` for a blank; any order)."""
        memo = self._memo
        value = memo.get(leave)  # the AI asks for the same leaves, written the same way, again and again
        if value is None:
            key = "".join(sorted(leave))
            value = memo.get(key)
            if value is None:
                value = memo[key] = self._tables.value(key)
            memo[leave] = value
        return value

    def values(self, leaves: list[str]) -> list[float]:
        """:meth:`evaluate` of each of ``leaves``, in the native core when the move generators use it."""
        native = _native_leave_values()
        if native is None:
            return [self.evaluate(leave) for leave in leaves]
        return native(self.native_table, leaves)

    def __call__(self, leave: str) -> float:
        """:meth:`evaluate`: a model is a leave valuation for the move generator, which computes the
        values of a whole rack's leaves at once in its native core (:attr:`native_table`)."""
        return self.evaluate(leave)

    @functools.cached_property
    def native_table(self) -> NativeLeaveTable:
        """The weights as the native core's ``leave_values`` reads them (see ``_movegen.c``): it sums
        the same terms in the same order as :meth:`evaluate`, so it gives the same values."""
        tables = self._tables
        synergy_tiles = {tile for needs, _ in tables.synergies for tile, _ in needs}
        chars = "".join(sorted({BLANK, *self.vowels, *tables.tiles, *tables.duplicates, *synergy_tiles}))
        index = {char: i for i, char in enumerate(chars)}
        side = _NATIVE_BALANCE_SIDE
        balance = array(
            "d",
            [
                tables.balance.get(f"{vowels}/{consonants}", 0.0)
                for vowels in range(side)
                for consonants in range(side)
            ],
        )
        return (
            chars,
            array("d", [tables.tiles.get(char, 0.0) for char in chars]).tobytes(),
            array("d", [tables.duplicates.get(char, 0.0) for char in chars]).tobytes(),
            bytes(1 if char in self.vowels else 2 if char == BLANK else 0 for char in chars),
            balance.tobytes(),
            side,
            tuple(
                (bytes(index[tile] for tile, _ in needs), bytes(need for _, need in needs), weight)
                for needs, weight in tables.synergies
            ),
        )

    @functools.cached_property
    def _tables(self) -> _Tables:
        weights = self.weights
        return _Tables(
            self.vowels,
            tiles=dict(weights.get("tiles", {})),
            duplicates=dict(weights.get("duplicates", {})),
            balance=dict(weights.get("balance", {})),
            synergies=tuple((_needs(name), weight) for name, weight in weights.get("synergies", {}).items()),
        )

    def with_sets(self, sets: Mapping[str, str]) -> LeaveModel:
        """This model for a variant with letter-set tiles, ``sets`` the letters of each set tile by its
        rack number (see :class:`SetLeaveModel`)."""
        return _with_sets(self, tuple(sorted(sets.items())))

    def to_dict(self) -> dict[str, object]:
        """The model as the JSON data :func:`leave_model_from_dict` reads back."""
        return {
            "format": FORMAT,
            "provenance": dict(self.provenance),
            "vowels": self.vowels,
            **{group: dict(self.weights.get(group, {})) for group in GROUPS},
        }


@dataclass(frozen=True, eq=False)
class SetLeaveModel(LeaveModel):
    """A leave model for a variant with letter-set tiles (``sets``: each set tile's letters by its rack
    number): a set tile kept is worth what the letter of its set that makes the leave worth most would
    be (each set tile of the leave chosen so, together). Leaves without set tiles are valued as the
    model values them (in the native core too)."""

    sets: Mapping[str, str] = field(default_factory=dict)

    def evaluate(self, leave: str) -> float:
        """The value of ``leave``, its set tiles as their best letters."""
        sets = self.sets
        if not any(tile in sets for tile in leave):
            return super().evaluate(leave)
        choices = [sets.get(tile, tile) for tile in leave]
        return max(
            super(SetLeaveModel, self).evaluate("".join(chosen)) for chosen in itertools.product(*choices)
        )

    def values(self, leaves: list[str]) -> list[float]:
        """:meth:`evaluate` of each of ``leaves``."""
        if not any(tile in self.sets for leave in leaves for tile in leave):
            return super().values(leaves)
        return [self.evaluate(leave) for leave in leaves]


@functools.lru_cache(maxsize=16)
def _with_sets(model: LeaveModel, sets: tuple[tuple[str, str], ...]) -> SetLeaveModel:
    """:meth:`LeaveModel.with_sets`, made once per model and sets (its memo and tables then serve every turn)."""
    return SetLeaveModel(model.vowels, model.weights, model.provenance, sets=dict(sets))


@functools.cache
def _native_leave_values() -> Callable[[NativeLeaveTable, list[str]], list[float]] | None:
    """The native core's ``leave_values`` where the searches use the core, else ``None``."""
    if native_core() is None:
        return None
    from scrabble_core._movegen import leave_values  # the optional extension, present here

    return leave_values


def leave_model_from_dict(data: Mapping[str, object], source: str) -> LeaveModel:
    """Build a model from parsed JSON data, checking its shape.

    ``source`` names the data in error messages.

    Raises:
        LeaveModelError: wrong format number, a missing or unknown key, provenance without one of
            :data:`PROVENANCE_KEYS`, or a weight that is not a finite number.
    """
    if data.get("format") != FORMAT:
        raise LeaveModelError(source, f"format must be {FORMAT}, not {cut(repr(data.get('format')))}")
    known = {"format", "provenance", "vowels", *GROUPS}
    for key in data:
        if key not in known:
            raise LeaveModelError(source, f"unknown key {echo(key)}")
    provenance = data.get("provenance")
    if not isinstance(provenance, dict):
        raise LeaveModelError(source, "provenance must be a table")
    missing = [key for key in PROVENANCE_KEYS if key not in provenance]
    if missing:
        raise LeaveModelError(source, f"provenance lacks {', '.join(missing)}")
    vowels = data.get("vowels")
    if not isinstance(vowels, str) or not vowels:
        raise LeaveModelError(source, "vowels must be a non-empty string of letters")
    weights: dict[str, dict[str, float]] = {}
    for group in GROUPS:
        table = data.get(group)
        if not isinstance(table, dict):
            raise LeaveModelError(source, f"{group} must be a table of weights")
        for name, weight in table.items():
            if isinstance(weight, bool) or not isinstance(weight, int | float) or not math.isfinite(weight):
                raise LeaveModelError(source, f"{group}.{name} must be a finite number, not {weight!r}")
            if abs(weight) > 1000:
                raise LeaveModelError(source, f"{group}.{name} = {weight} is not a plausible weight")
        weights[group] = {str(name): float(weight) for name, weight in table.items()}
    return LeaveModel(vowels, weights, dict(provenance))


def load_leave_model(path: Path | None = None) -> LeaveModel:
    """Read and validate a leave model file; by default the bundled ``assets/leaves/english.json``.

    Raises:
        LeaveModelError: the file is missing, is not JSON, or is not a valid model.
    """
    path = path if path is not None else assets_dir() / "leaves" / "english.json"
    source = str(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise LeaveModelError(source, "no such file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise LeaveModelError(source, f"cannot be read ({error})") from None
    except json.JSONDecodeError as error:
        raise LeaveModelError(source, f"not valid JSON ({error})") from None
    if not isinstance(data, dict):
        raise LeaveModelError(source, "must hold a JSON object")
    return leave_model_from_dict(data, source)
