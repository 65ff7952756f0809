"""Variants: board layout, tile set and the numbers of the rules (rack size, bingo bonus, limits).

The bundled variants live as TOML files in ``assets/variants/`` and example boards written as programs
in ``assets/variants/examples/``; a server owner can load any other file of the same shape with
:func:`load_variant`. Every file, bundled or not, goes through one validator, whose errors name the
file, the key and what is wrong. A board is either a layout string (``[board] layout``) or a program
(``[board] program`` and ``[squares.ID]``, see :mod:`scrabble_core.board_programs`). The process's
variants are known by name in one registry, :data:`VARIANTS` (:func:`get_variant`,
:func:`find_variant` by name or path).
"""

from __future__ import annotations

import enum
import importlib.resources
import os
import tomllib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, fields
from functools import cached_property
from pathlib import Path
from typing import Final

from scrabble_core.board_programs import MAX_PROGRAMS_PER_SQUARE, MAX_SQUARE_IDS, BoardPrograms, SquareKind
from scrabble_core.errors import InvalidMoveError, ProgramError, VariantError, cut, echo
from scrabble_core.squares import (
    MAX_BOARD_SIZE,
    MAX_SIGNED,
    Square,
    coordinate_name,
    parse_square,
    signed_coordinate_name,
    signed_square_name,
    square_name,
)
from scrabble_core.tiles import MAX_TILE_SETS, SET_BASE, SET_BLOCK, SET_SYMBOLS, letter_of, rack_tile

BLANK: Final = "?"
MIN_BOARD_SIZE: Final = 2


ASSETS_PACKAGE: Final = "scrabble_core.assets"
"""The bundled data files: the repository's ``assets/`` folder, installed as this package (setup.py)."""


def assets_dir() -> Path:
    """The folder of the bundled data files (variants, leave values, the font): the installed package
    :data:`ASSETS_PACKAGE`, found with ``importlib.resources`` (a wheel and an editable install alike),
    or the ``assets/`` folder beside this package in a checkout run without installing it.
    ``SCRABBLE_ASSETS`` overrides it. Every read of a bundled file goes through this function."""
    override = os.environ.get("SCRABBLE_ASSETS")
    if override:
        return Path(override)
    try:
        return Path(str(importlib.resources.files(ASSETS_PACKAGE)))
    except ModuleNotFoundError:
        return Path(__file__).resolve().parent.parent / "assets"


class Premium(enum.Enum):
    """What a square does to the score of a tile newly placed on it."""

    PLAIN = "--"
    DOUBLE_LETTER = "2L"
    TRIPLE_LETTER = "3L"
    QUADRUPLE_LETTER = "4L"
    DOUBLE_WORD = "2W"
    TRIPLE_WORD = "3W"
    QUADRUPLE_WORD = "4W"

    @property
    def letter_multiplier(self) -> int:
        """How many times the tile's value counts: 1 unless this is a letter premium."""
        return int(self.value[0]) if self.value[1] == "L" else 1

    @property
    def word_multiplier(self) -> int:
        """How many times the whole word counts: 1 unless this is a word premium."""
        return int(self.value[0]) if self.value[1] == "W" else 1


HOLE_TOKEN: Final = "##"
_PREMIUM_BY_TOKEN: Final = {premium.value: premium for premium in Premium}
_PREMIUM_BY_MULTIPLIERS: Final = {
    (premium.letter_multiplier, premium.word_multiplier): premium for premium in Premium
}


@dataclass(frozen=True)
class TileKind:
    """One letter of a tile set: how many tiles carry it and what each scores."""

    letter: str
    count: int
    value: int


@dataclass(frozen=True)
class TileSet:
    """Tiles of a few letters (see :mod:`scrabble_core.tiles`): ``count`` of them, each played as any
    of ``letters`` for that letter's points; ``symbol`` writes one on a rack."""

    symbol: str
    count: int
    letters: tuple[tuple[str, int], ...]

    @cached_property
    def points(self) -> Mapping[str, int]:
        """The points of each letter of the set."""
        return dict(self.letters)

    @property
    def text(self) -> str:
        """The set as players see it: its letters in brackets, ``[AE]``."""
        return f"[{''.join(letter for letter, _ in self.letters)}]"


@dataclass(frozen=True)
class Variant:
    """A complete game variant. Squares are ``(row, col)``; ``layout[row][col]`` is ``None`` for a hole."""

    name: str
    title: str
    layout: tuple[tuple[Premium | None, ...], ...]
    start: Square
    tiles: tuple[TileKind, ...]
    blanks: int
    rack_size: int = 7
    bingo_bonus: int = 50
    exchange_min_bag: int = 7
    scoreless_rounds: int = 3
    """The game ends after this many rounds of consecutive scoreless turns: ``scoreless_rounds`` times
    the number of players (six turns with two players, twelve with four)."""
    programs: BoardPrograms | None = None
    """The board and square programs of a board written as a program (``[board] program``); ``layout``
    then holds each square's premium where its programs are a letter or word multiplier."""
    tile_sets: tuple[TileSet, ...] = ()
    """The letter-set tiles (``[[tile_sets]]``) beside the letter tiles and blanks."""
    infinite: bool = False
    """Whether the board has no edges: every square with signed coordinates is on it unless the board
    program makes it a hole (``layout`` is then empty: a square's premium comes from its programs)."""

    @cached_property
    def scored_by_programs(self) -> bool:
        """Whether words are scored by running the square programs: the board is written as a program
        and its squares are not all letter and word multipliers of :class:`Premium`."""
        programs = self.programs
        if programs is None:
            return False
        multipliers = programs.multipliers
        return multipliers is None or any(
            value not in _PREMIUM_BY_MULTIPLIERS for value in multipliers.values()
        )

    def __getstate__(self) -> dict[str, object]:
        """The fields only: what the cached properties keep is rebuilt where the variant is unpickled
        (a board sent to the drawing process for every image would carry them)."""
        return {field.name: getattr(self, field.name) for field in fields(self)}

    def scoreless_turn_limit(self, players: int) -> int:
        """How many consecutive scoreless turns end a game of ``players`` players."""
        return self.scoreless_rounds * players

    @property
    def rows(self) -> int:
        """Number of rows of the board."""
        return len(self.layout)

    @property
    def cols(self) -> int:
        """Number of columns of the board."""
        return len(self.layout[0]) if self.layout else 0

    @cached_property
    def alphabet(self) -> str:
        """Every letter of the tile set, in the file's order (blanks excluded)."""
        return "".join(kind.letter for kind in self.tiles)

    @cached_property
    def _values(self) -> Mapping[str, int]:
        return {kind.letter: kind.value for kind in self.tiles}

    @cached_property
    def _squares(self) -> frozenset[Square]:
        return frozenset(
            (row, col)
            for row, line in enumerate(self.layout)
            for col, premium in enumerate(line)
            if premium is not None
        )

    @cached_property
    def layout_text(self) -> str:
        """The layout as a variant file writes it (:func:`variant_to_dict`, for every saved game)."""
        return "\n".join(
            " ".join(HOLE_TOKEN if premium is None else premium.value for premium in row)
            for row in self.layout
        )

    @property
    def tile_count(self) -> int:
        """Number of tiles in a full bag, blanks and set tiles included."""
        return (
            self.blanks + sum(kind.count for kind in self.tiles) + sum(kind.count for kind in self.tile_sets)
        )

    @cached_property
    def _sets(self) -> Mapping[str, TileSet]:
        return {tile_set.symbol: tile_set for tile_set in self.tile_sets}

    def value(self, tile: str) -> int:
        """Points of one tile: an uppercase letter scores its value; a blank (``?`` or lowercase) 0; a set
        tile placed as a letter (:func:`scrabble_core.tiles.set_tile`) that letter's points in its set,
        and a set tile on a rack (its number) the most of its letters' points.

        Raises:
            KeyError: ``tile`` is not a tile of this variant.
        """
        value = self._values.get(tile)
        if value is not None:
            return value
        if tile == BLANK or tile.islower():
            return 0
        if ord(tile) >= SET_BASE:
            return self._sets[rack_tile(tile)].points[letter_of(tile)]
        return max(self._sets[tile].points.values())

    @property
    def set_symbols(self) -> str:
        """The rack symbols of the variant's set tiles (``"12"``), in order."""
        return "".join(tile_set.symbol for tile_set in self.tile_sets)

    def tile_set(self, symbol: str) -> TileSet | None:
        """The set tile whose rack symbol is ``symbol``, if any."""
        return self._sets.get(symbol)

    def allows(self, char: str) -> bool:
        """Whether ``char`` is a tile of this variant as the board and moves write one: a letter of the
        alphabet, in either case, or a set tile of the variant placed as one of its letters."""
        if ord(char) >= SET_BASE:
            tile_set = self._sets.get(rack_tile(char))
            return tile_set is not None and letter_of(char) in tile_set.points
        return self.is_letter(char.upper())

    def is_letter(self, letter: str) -> bool:
        """Whether ``letter`` (uppercase) is a letter of this variant's alphabet."""
        return letter in self._values

    def on_board(self, square: Square) -> bool:
        """Whether ``square`` is a real square of the board (inside it and not a hole)."""
        if self.infinite:
            assert self.programs is not None
            return self.programs.square_id(square) is not None
        return square in self._squares

    def premium(self, square: Square) -> Premium:
        """The premium of a square of the board.

        Raises:
            IndexError: the square is outside the board or a hole.
        """
        row, col = square
        if self.infinite:
            assert self.programs is not None
            square_id = self.programs.square_id(square)
            premium = None if square_id is None else self.programs_premium(square_id)
        else:
            premium = self.layout[row][col] if row >= 0 and col >= 0 else None
        if premium is None:
            raise IndexError(f"{square} is not a square of the {self.name} board")
        return premium

    def programs_premium(self, square_id: int) -> Premium:
        """The premium a square of id ``square_id`` shows: its multipliers where :class:`Premium` has
        them, else plain (such a square scores by its programs)."""
        assert self.programs is not None
        multipliers = self.programs.square_multipliers[square_id]
        return _PREMIUM_BY_MULTIPLIERS.get(multipliers or (1, 1), Premium.PLAIN)

    def square_name(self, square: Square) -> str:
        """The name players use for ``square``: ``H8`` on a finite board, ``x,y`` on an infinite one."""
        return signed_square_name(square) if self.infinite else square_name(square)

    def coordinate_name(self, square: Square, across: bool) -> str:
        """The coordinate of a word starting on ``square``: ``8H``/``H8`` on a finite board, ``-3,5a``
        (across) or ``0,0d`` (down) on an infinite one."""
        return signed_coordinate_name(square, across) if self.infinite else coordinate_name(square, across)

    def squares(self) -> Iterator[Square]:
        """Every real square of the board, row by row."""
        for row, line in enumerate(self.layout):
            for col, premium in enumerate(line):
                if premium is not None:
                    yield row, col

    def full_bag(self) -> list[str]:
        """Every tile of the set, in alphabetical order, then the set tiles (by number), blanks (``?``) last."""
        bag = [kind.letter for kind in self.tiles for _ in range(kind.count)]
        bag += [tile_set.symbol for tile_set in self.tile_sets for _ in range(tile_set.count)]
        return bag + [BLANK] * self.blanks

    def rack_value(self, tiles: str) -> int:
        """Sum of the values of ``tiles`` (a rack written with ``?`` for blanks)."""
        return sum(self.value(tile) for tile in tiles)


_TOP_KEYS: Final = {
    "name",
    "title",
    "rack_size",
    "bingo_bonus",
    "exchange_min_bag",
    "scoreless_rounds",
    "board",
    "tiles",
}


def variant_from_dict(data: Mapping[str, object], source: str) -> Variant:
    """Build and validate a variant from parsed TOML data.

    ``source`` names the data in error messages (usually the file's path).

    Raises:
        VariantError: a key is missing, unknown, of the wrong type or out of range.
    """
    board_data = data.get("board")
    programmed = isinstance(board_data, dict) and "program" in board_data
    # The keys of the newer schema are named only to the files that use them.
    keys = _TOP_KEYS | ({"squares"} if programmed else set()) | ({"tile_sets"} & set(data))
    for key in data:
        if key not in keys:
            raise VariantError(source, key, f"unknown key (expected one of {', '.join(sorted(keys))})")
    name = _string(data, "name", source)
    title = _string(data, "title", source) if "title" in data else name
    rack_size = _integer(data, "rack_size", source, 7, 2, 20)  # a first word has two letters
    bingo_bonus = _integer(data, "bingo_bonus", source, 50, 0, 1000)
    exchange_min_bag = _integer(data, "exchange_min_bag", source, rack_size, 0, 1000)
    scoreless_rounds = _integer(data, "scoreless_rounds", source, 3, 1, 50)
    tiles, blanks = _tiles(_table(data, "tiles", source), source)
    tile_sets = _tile_sets(data.get("tile_sets", []), tiles, source)
    total = blanks + sum(kind.count for kind in tiles) + sum(kind.count for kind in tile_sets)
    if total < 2 * rack_size:
        raise VariantError(
            source,
            "tiles",
            f"{total} tiles cannot fill two racks of {rack_size} (need {2 * rack_size})",
        )
    board = _table(data, "board", source)
    programs = None
    infinite = False
    if programmed:
        programs, layout, start, infinite = _programmed_board(board, data.get("squares"), source)
        if not infinite:
            _check_playable(layout, start, source)
        _check_programs(programs, layout, start, tiles, rack_size, infinite, source)
    else:
        layout, start = _board(board, source)
    return Variant(
        name=name,
        title=title,
        layout=layout,
        start=start,
        tiles=tiles,
        blanks=blanks,
        rack_size=rack_size,
        bingo_bonus=bingo_bonus,
        exchange_min_bag=exchange_min_bag,
        scoreless_rounds=scoreless_rounds,
        programs=programs,
        tile_sets=tile_sets,
        infinite=infinite,
    )


def scored_by_programs_only(variant: Variant) -> Variant:
    """An equal copy of ``variant``, a board written as a program, whose every word is scored by running
    its square programs, never by multipliers: the reference the multiplier paths are tested and
    measured against.

    Raises:
        VariantError: the variant's board is not written as a program.
    """
    if variant.programs is None:
        raise VariantError(variant.name, "board", "a layout board has no programs to run")
    copy = variant_from_dict(variant_to_dict(variant), variant.name)
    assert copy.programs is not None
    copy.__dict__["scored_by_programs"] = True
    copy.programs.run_every_program()
    return copy


def variant_to_dict(variant: Variant) -> dict[str, object]:
    """The variant as TOML-shaped data: :func:`variant_from_dict` reads it back to an equal variant."""
    tiles: dict[str, object] = {"blanks": variant.blanks}
    tiles.update({kind.letter: [kind.count, kind.value] for kind in variant.tiles})
    data: dict[str, object] = {
        "name": variant.name,
        "title": variant.title,
        "rack_size": variant.rack_size,
        "bingo_bonus": variant.bingo_bonus,
        "exchange_min_bag": variant.exchange_min_bag,
        "scoreless_rounds": variant.scoreless_rounds,
        "board": {"start": square_name(variant.start), "layout": variant.layout_text},
        "tiles": tiles,
    }
    if variant.tile_sets:
        data["tile_sets"] = [
            {"count": tile_set.count, "letters": dict(tile_set.letters)} for tile_set in variant.tile_sets
        ]
    programs = variant.programs
    if programs is not None:
        row, col = variant.start
        board: dict[str, object] = {
            "program": programs.program_text,
            "start": [col, row],
            "used_square": programs.used_square,
            "infinite": variant.infinite,
        }
        if not variant.infinite:
            board["size"] = [variant.cols, variant.rows]
        data["board"] = board
        data["squares"] = {
            str(kind.id): {str(priority): text for priority, text in kind.programs} for kind in programs.kinds
        }
    return data


MAX_PATH_SHOWN: Final = 200


def load_variant(path: Path) -> Variant:
    """Read and validate a variant TOML file (errors name it, cut to :data:`MAX_PATH_SHOWN` characters).

    Raises:
        VariantError: the file is missing, is not TOML, or does not describe a valid variant (playable:
            the start square a real square with one beside it).
    """
    source = cut(str(path), MAX_PATH_SHOWN)
    try:
        with path.open("rb") as handle:
            data = tomllib.load(handle)
    except FileNotFoundError:
        raise VariantError(source, "(file)", "no such file") from None
    except OSError as error:
        raise VariantError(source, "(file)", f"cannot be read ({error.strerror})") from None
    except tomllib.TOMLDecodeError as error:
        raise VariantError(source, "(file)", f"not valid TOML ({error})") from None
    return variant_from_dict(data, source)


def bundled_variant_names() -> list[str]:
    """Names of the variants shipped in ``assets/variants/``, sorted."""
    return sorted(path.stem for path in (assets_dir() / "variants").glob("*.toml"))


def example_variants_dir() -> Path:
    """The folder of the example variants (``assets/variants/examples/``): boards written as programs,
    known by name like the bundled variants, or loaded by path (``--variant``)."""
    return assets_dir() / "variants" / "examples"


def example_variant_names() -> list[str]:
    """Names of the example variants shipped in ``assets/variants/examples/``, sorted."""
    return sorted(path.stem for path in example_variants_dir().glob("*.toml"))


class VariantRegistry:
    """The variants known by name: the bundled ones, then the examples (each loaded once, on first
    use), then the variant files added, in the order added.

    :data:`VARIANTS` is the process's one registry: the engine's and the consoles' ``--variant
    FILE.toml``, the bot's ``variant_files``, its lobby and its web state all look variants up in it.
    """

    def __init__(self) -> None:
        self._bundled: dict[str, Variant] = {}
        self._added: dict[str, Variant] = {}

    def add_file(self, path: Path, *, by_path: bool = False) -> str:
        """Load the variant file at ``path`` (checked as :func:`load_variant` checks it) and make it
        known under its variant's name, or under its absolute path with ``by_path`` (a saved game then
        names the file, to find it again); return that name. Adding a file again under the same name
        replaces what it was.

        Raises:
            VariantError: the file is missing, is not TOML, or does not describe a valid variant; or,
                by name, a bundled variant or an example has its name.
        """
        resolved = path.expanduser().resolve()
        variant = load_variant(resolved if by_path else path)
        name = str(resolved) if by_path else variant.name
        if name in self._shipped():
            raise VariantError(cut(str(path), MAX_PATH_SHOWN), "name", f"a variant is already named {name!r}")
        self._added[name] = variant
        return name

    def add_files(self, paths: Sequence[Path]) -> list[str]:
        """:meth:`add_file` each of ``paths`` by its variant's name; return the names.

        Raises:
            VariantError: as :meth:`add_file`, or two of ``paths`` have variants of one name.
        """
        names: dict[str, Path] = {}
        for path in paths:
            variant = load_variant(path)
            if variant.name in names:
                raise VariantError(
                    cut(str(path), MAX_PATH_SHOWN), "name", f"a variant is already named {variant.name!r}"
                )
            names[variant.name] = path
        return [self.add_file(path) for path in paths]

    def names(self) -> list[str]:
        """Every name :meth:`get` knows: the bundled variants, the examples, then the files added."""
        return [*self._shipped(), *self._added]

    @staticmethod
    def _shipped() -> list[str]:
        """The names of the bundled variants, then of the examples."""
        return [*bundled_variant_names(), *example_variant_names()]

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and (name in self._added or name in self._shipped())

    def get(self, name: str) -> Variant:
        """The bundled variant ``name`` (``"standard"``, ``"super"``), the example ``name``
        (``"infinite"``...), or the file added under ``name``.

        Raises:
            VariantError: no variant has that name.
        """
        found = self._added.get(name) or self._bundled.get(name)
        if found is not None:
            return found
        directory = assets_dir() / "variants"
        if name in bundled_variant_names():
            path = directory / f"{name}.toml"
        elif name in example_variant_names():
            path = example_variants_dir() / f"{name}.toml"
        else:
            known = ", ".join(self._shipped())
            raise VariantError(str(directory), "name", f"no bundled variant {echo(name)} (known: {known})")
        variant = self._bundled[name] = load_variant(path)
        return variant

    def find(self, name_or_path: str) -> Variant:
        """A variant by name (:meth:`get`), or the variant file at a path: text ending in ``.toml`` or
        holding a ``/`` is a path (``boards/mine.toml``), loaded through the same validator.

        Raises:
            VariantError: no variant has that name, or the file cannot be loaded.
        """
        if name_or_path.endswith(".toml") or "/" in name_or_path or os.sep in name_or_path:
            return load_variant(Path(name_or_path))
        return self.get(name_or_path)


VARIANTS: Final = VariantRegistry()
"""The process's registry of variants."""


def add_variant_file(path: Path) -> str:
    """:meth:`VariantRegistry.add_file` of :data:`VARIANTS`, by path (what the consoles' ``--variant
    FILE.toml`` adds)."""
    return VARIANTS.add_file(path, by_path=True)


def variant_names() -> list[str]:
    """:meth:`VariantRegistry.names` of :data:`VARIANTS`."""
    return VARIANTS.names()


def get_variant(name: str) -> Variant:
    """:meth:`VariantRegistry.get` of :data:`VARIANTS`."""
    return VARIANTS.get(name)


def find_variant(name_or_path: str) -> Variant:
    """:meth:`VariantRegistry.find` of :data:`VARIANTS`."""
    return VARIANTS.find(name_or_path)


def _string(data: Mapping[str, object], key: str, source: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value.strip():
        raise VariantError(source, key, "must be a non-empty string")
    return value


def _integer(
    data: Mapping[str, object],
    key: str,
    source: str,
    default: int,
    low: int,
    high: int,
    *,
    table: str = "",
) -> int:
    """``data[key]`` as a whole number from ``low`` to ``high``; errors name the key as ``table.key``."""
    value = data.get(key, default)
    name = f"{table}.{key}" if table else key
    if isinstance(value, bool) or not isinstance(value, int):
        raise VariantError(source, name, f"must be a whole number, not {cut(repr(value))}")
    if not low <= value <= high:
        raise VariantError(source, name, f"must be between {low} and {high}, not {value}")
    return value


def _table(data: Mapping[str, object], key: str, source: str) -> Mapping[str, object]:
    value = data.get(key)
    if not isinstance(value, dict):
        raise VariantError(source, key, f"missing [{key}] table")
    return value


def _board(board: Mapping[str, object], source: str) -> tuple[tuple[tuple[Premium | None, ...], ...], Square]:
    for key in board:
        if key not in {"start", "layout"}:
            raise VariantError(source, f"board.{key}", "unknown key (expected start, layout)")
    text = board.get("layout")
    if not isinstance(text, str):
        raise VariantError(source, "board.layout", "must be a multi-line string of squares")
    rows: list[tuple[Premium | None, ...]] = []
    for number, line in enumerate((line for line in text.splitlines() if line.strip()), 1):
        row: list[Premium | None] = []
        for token in line.split():
            if token == HOLE_TOKEN:
                row.append(None)
            elif token in _PREMIUM_BY_TOKEN:
                row.append(_PREMIUM_BY_TOKEN[token])
            else:
                tokens = " ".join([*_PREMIUM_BY_TOKEN, HOLE_TOKEN])
                raise VariantError(
                    source, "board.layout", f"row {number}: unknown square {echo(token)} (use {tokens})"
                )
        rows.append(tuple(row))
    if not MIN_BOARD_SIZE <= len(rows) <= MAX_BOARD_SIZE:
        raise VariantError(
            source,
            "board.layout",
            f"{len(rows)} rows (a board has {MIN_BOARD_SIZE} to {MAX_BOARD_SIZE})",
        )
    width = len(rows[0])
    for number, row_squares in enumerate(rows, 1):
        if len(row_squares) != width:
            raise VariantError(
                source,
                "board.layout",
                f"row {number} has {len(row_squares)} squares, row 1 has {width}: the board must be a rectangle",
            )
    if not MIN_BOARD_SIZE <= width <= MAX_BOARD_SIZE:
        raise VariantError(
            source,
            "board.layout",
            f"{width} columns (a board has {MIN_BOARD_SIZE} to {MAX_BOARD_SIZE})",
        )
    start_text = board.get("start")
    if not isinstance(start_text, str):
        raise VariantError(source, "board.start", 'must be a square name such as "H8"')
    try:
        start = parse_square(start_text)
    except InvalidMoveError:
        raise VariantError(source, "board.start", f"{echo(start_text)} is not a square name") from None
    _check_playable(tuple(rows), start, source)
    return tuple(rows), start


_PROGRAM_BOARD_KEYS: Final = ("program", "start", "used_square", "infinite", "size")


def _programmed_board(
    board: Mapping[str, object], squares: object, source: str
) -> tuple[BoardPrograms, tuple[tuple[Premium | None, ...], ...], Square, bool]:
    """The programs, layout, start and whether it is infinite of a board written as a program (the
    ``[board] program`` schema); an infinite board's layout is empty.

    Raises:
        VariantError: a key is missing, unknown or of the wrong type; a program does not parse; the
            board program fails on a square of the board.
    """
    for key in board:
        if key not in _PROGRAM_BOARD_KEYS:
            raise VariantError(
                source, f"board.{key}", f"unknown key (expected {', '.join(_PROGRAM_BOARD_KEYS)})"
            )
    program = board["program"]
    if not isinstance(program, str):
        raise VariantError(source, "board.program", "must be a program (a string)")
    infinite = board.get("infinite", False)
    if not isinstance(infinite, bool):
        raise VariantError(source, "board.infinite", f"must be true or false, not {cut(repr(infinite))}")
    if infinite:
        if "size" in board:
            raise VariantError(source, "board.size", "an infinite board has no size: remove it")
        cols = rows = 0
        col, row = _pair(board, "start", source, -MAX_SIGNED, MAX_SIGNED)
    else:
        cols, rows = _pair(board, "size", source, MIN_BOARD_SIZE, MAX_BOARD_SIZE)
        col, row = _pair(board, "start", source, 0, MAX_BOARD_SIZE - 1)
    used_square = _integer(board, "used_square", source, 0, -(2**31), 2**31, table="board")
    if not isinstance(squares, dict) or not squares:
        raise VariantError(
            source, "squares", "missing [squares.ID] tables: each square id maps priority = program"
        )
    if len(squares) > MAX_SQUARE_IDS:
        raise VariantError(source, "squares", f"{len(squares)} square ids, more than {MAX_SQUARE_IDS}")
    kinds = [_square_kind(key, spec, source) for key, spec in squares.items()]
    if used_square not in {kind.id for kind in kinds}:
        raise VariantError(
            source, "board.used_square", f"no [squares.{used_square}] for the tiles on the board"
        )
    try:
        programs = BoardPrograms(program, kinds, used_square)
        ids = [[programs.square_id((r, c)) for c in range(cols)] for r in range(rows)]
    except ProgramError as error:
        raise VariantError(source, error.program, error.problem) from None
    multipliers = programs.square_multipliers
    layout = tuple(
        tuple(
            None
            if square_id is None
            else _PREMIUM_BY_MULTIPLIERS.get(multipliers[square_id] or (1, 1), Premium.PLAIN)
            for square_id in line
        )
        for line in ids
    )
    return programs, layout, (row, col), infinite


def _pair(board: Mapping[str, object], key: str, source: str, low: int, high: int) -> tuple[int, int]:
    value = board.get(key)
    if value is None:
        what = "the centre the first word must cover" if key == "start" else "the board's width and height"
        raise VariantError(source, f"board.{key}", f"missing: {what}, as [x, y]")
    if (
        not isinstance(value, list)
        or len(value) != 2
        or any(isinstance(item, bool) or not isinstance(item, int) for item in value)
    ):
        raise VariantError(
            source, f"board.{key}", f"must be [x, y], two whole numbers, not {cut(repr(value))}"
        )
    if not all(low <= item <= high for item in value):
        raise VariantError(source, f"board.{key}", f"each must be {low} to {high}, not {cut(repr(value))}")
    return value[0], value[1]


def _square_kind(key: str, spec: object, source: str) -> SquareKind:
    name = f"squares.{cut(key, 20)}"
    try:
        square_id = int(key)
    except ValueError:
        raise VariantError(source, name, "a square id must be a whole number") from None
    if not isinstance(spec, dict) or len(spec) > MAX_PROGRAMS_PER_SQUARE:
        raise VariantError(
            source, name, f"must be a table of priority = program (at most {MAX_PROGRAMS_PER_SQUARE})"
        )
    programs: list[tuple[int, str]] = []
    for priority_key, text in spec.items():
        try:
            priority = int(priority_key)
        except ValueError:
            raise VariantError(
                source, f"{name}.{cut(priority_key, 20)}", "a priority must be a whole number"
            ) from None
        if not isinstance(text, str):
            raise VariantError(source, f"{name}.{priority}", "must be a program (a string)")
        programs.append((priority, text))
    programs.sort(key=lambda item: item[0])
    return SquareKind(square_id, tuple(programs))


def _check_programs(
    programs: BoardPrograms,
    layout: tuple[tuple[Premium | None, ...], ...],
    start: Square,
    tiles: tuple[TileKind, ...],
    rack_size: int,
    infinite: bool,
    source: str,
) -> None:
    """Run every program of the squares within a rack's reach of the start, and the used square's, on
    each letter of a word of a rack's length; on an infinite board, check the start too (a real square
    with a real square beside it).

    Raises:
        VariantError: one of them fails or runs past its limits (named, with why); the start of an
            infinite board is a hole or enclosed by holes.
    """
    probe = "".join(tiles[i % len(tiles)].letter for i in range(rack_size))
    points = tuple(tiles[i % len(tiles)].value for i in range(rack_size))
    row, col = start
    rows, cols = (row + rack_size + 1, col + rack_size + 1) if infinite else (len(layout), len(layout[0]))
    low_row, low_col = (
        (row - rack_size, col - rack_size) if infinite else (max(0, row - rack_size), max(0, col - rack_size))
    )
    near = {programs.used_square}
    try:
        for r in range(low_row, min(rows, row + rack_size + 1)):
            for c in range(low_col, min(cols, col + rack_size + 1)):
                square_id = programs.square_id((r, c))
                if square_id is not None:
                    near.add(square_id)
        for square_id in sorted(near):
            programs.check_square(square_id, probe, points)
    except ProgramError as error:
        raise VariantError(source, error.program, error.problem) from None
    if infinite:
        name = signed_square_name(start)
        if programs.square_id(start) is None:
            raise VariantError(source, "board.start", f"{name} is a hole: the first word could not cover it")
        beside = ((row + d_row, col + d_col) for d_row, d_col in ((-1, 0), (1, 0), (0, -1), (0, 1)))
        if all(programs.square_id(square) is None for square in beside):
            raise VariantError(
                source,
                "board.start",
                f"{name} is enclosed by holes: no first word of two letters could cover it",
            )


def _check_playable(layout: tuple[tuple[Premium | None, ...], ...], start: Square, source: str) -> None:
    """Refuse a board on which no first word can be played: it must cover the start square, a real
    square, and be at least two letters long, so the start needs a real square beside it."""
    rows, cols = len(layout), len(layout[0])

    def real(row: int, col: int) -> bool:
        return 0 <= row < rows and 0 <= col < cols and layout[row][col] is not None

    row, col = start
    name = square_name(start)
    if row >= rows or col >= cols:
        raise VariantError(source, "board.start", f"{name} is not a square of this {rows}x{cols} board")
    if layout[row][col] is None:
        raise VariantError(source, "board.start", f"{name} is a hole: the first word could not cover it")
    if not any(real(r, c) and (real(r, c + 1) or real(r + 1, c)) for r in range(rows) for c in range(cols)):
        raise VariantError(
            source, "board.layout", "no two squares are in line: no word of two letters fits on the board"
        )
    if not any(real(row + d_row, col + d_col) for d_row, d_col in ((-1, 0), (1, 0), (0, -1), (0, 1))):
        raise VariantError(
            source,
            "board.start",
            f"{name} is enclosed by holes and edges: no first word of two letters could cover it",
        )


def _tile_sets(data: object, tiles: tuple[TileKind, ...], source: str) -> tuple[TileSet, ...]:
    """The ``[[tile_sets]]`` of a variant file.

    Raises:
        VariantError: not a list of tables of ``count`` and ``letters``, more than
            :data:`~scrabble_core.tiles.MAX_TILE_SETS`, or a letter that is not one of ``[tiles]``.
    """
    if not isinstance(data, list) or len(data) > MAX_TILE_SETS:
        raise VariantError(source, "tile_sets", f"must be at most {MAX_TILE_SETS} [[tile_sets]] tables")
    alphabet = {kind.letter for kind in tiles}
    sets = []
    for number, entry in enumerate(data, 1):
        key = f"tile_sets.{number}"
        if not isinstance(entry, dict) or set(entry) != {"count", "letters"}:
            raise VariantError(source, key, "must have a count and letters = { LETTER = points, ... }")
        count = _integer(entry, "count", source, 0, 0, 1000, table=key)
        letters = entry["letters"]
        if not isinstance(letters, dict) or not letters:
            raise VariantError(source, f"{key}.letters", "must be a table of LETTER = points")
        for letter, points in letters.items():
            if letter not in alphabet or ord(letter) >= SET_BLOCK:
                raise VariantError(source, f"{key}.letters", f"{echo(letter)} is not a letter of [tiles]")
            if isinstance(points, bool) or not isinstance(points, int) or not 0 <= points <= 1000:
                raise VariantError(
                    source, f"{key}.letters.{letter}", f"must be 0 to 1000 points, not {cut(repr(points))}"
                )
        sets.append(TileSet(SET_SYMBOLS[number - 1], count, tuple(letters.items())))
    return tuple(sets)


def _tiles(tiles: Mapping[str, object], source: str) -> tuple[tuple[TileKind, ...], int]:
    blanks = _integer(tiles, "blanks", source, 0, 0, 100, table="tiles")
    kinds: list[TileKind] = []
    for letter, spec in tiles.items():
        if letter == "blanks":
            continue
        key = f"tiles.{letter}"
        # A blank on the board is its letter in lowercase, read back with upper(): the letter must have
        # a lowercase form that turns back into it.
        if len(letter) != 1 or not letter.isupper() or letter.lower().upper() != letter:
            raise VariantError(source, key, "a letter must be one uppercase character")
        if (
            not isinstance(spec, list)
            or len(spec) != 2
            or any(isinstance(item, bool) or not isinstance(item, int) for item in spec)
        ):
            raise VariantError(
                source, key, f"must be [count, value], two whole numbers, not {cut(repr(spec))}"
            )
        count, value = spec
        if not 0 <= count <= 1000 or not 0 <= value <= 1000:
            raise VariantError(source, key, f"count and value must be 0 to 1000, not {cut(repr(spec))}")
        kinds.append(TileKind(letter, count, value))
    if not kinds:
        raise VariantError(source, "tiles", "no letters: list each as LETTER = [count, value]")
    return tuple(kinds), blanks
