"""Tests of scrabble_core.variant: the bundled variants, custom variants and the validator's errors."""

from __future__ import annotations

import os
import pickle
import random
from collections import Counter
from pathlib import Path

import pytest

from scrabble_core.errors import VariantError
from scrabble_core.game import Game
from scrabble_core.variant import (
    VARIANTS,
    Premium,
    TileKind,
    Variant,
    assets_dir,
    bundled_variant_names,
    example_variant_names,
    example_variants_dir,
    find_variant,
    get_variant,
    load_variant,
    variant_from_dict,
    variant_to_dict,
)

STANDARD_TILES = {
    "A": (9, 1), "B": (2, 3), "C": (2, 3), "D": (4, 2), "E": (12, 1), "F": (2, 4), "G": (3, 2),
    "H": (2, 4), "I": (9, 1), "J": (1, 8), "K": (1, 5), "L": (4, 1), "M": (2, 3), "N": (6, 1),
    "O": (8, 1), "P": (2, 3), "Q": (1, 10), "R": (6, 1), "S": (4, 1), "T": (6, 1), "U": (4, 1),
    "V": (2, 4), "W": (2, 4), "X": (1, 8), "Y": (2, 4), "Z": (1, 10),
}  # fmt: skip
SUPER_TILES = {
    "A": (16, 1), "B": (4, 3), "C": (6, 3), "D": (8, 2), "E": (24, 1), "F": (4, 4), "G": (5, 2),
    "H": (5, 4), "I": (13, 1), "J": (2, 8), "K": (2, 5), "L": (7, 1), "M": (6, 3), "N": (13, 1),
    "O": (15, 1), "P": (4, 3), "Q": (2, 10), "R": (13, 1), "S": (10, 1), "T": (15, 1), "U": (7, 1),
    "V": (3, 4), "W": (4, 4), "X": (2, 8), "Y": (4, 4), "Z": (2, 10),
}  # fmt: skip

SHARED_DIR = os.environ.get("SCRABBLE_SHARED_DIR")


# --- Bundled variants -----------------------------------------------------------------------------


def test_bundled_variants_pass_the_validator() -> None:
    names = bundled_variant_names()
    assert names == ["standard", "super"]
    for name in names:
        path = assets_dir() / "variants" / f"{name}.toml"
        variant = load_variant(path)
        assert variant.name == name
        assert get_variant(name) == variant
        assert variant_from_dict(variant_to_dict(variant), "copy") == variant


def test_standard_variant() -> None:
    variant = get_variant("standard")
    assert variant.title == "Standard Scrabble (15x15, English)"
    assert (variant.rows, variant.cols) == (15, 15)
    assert variant.start == (7, 7)
    assert variant.tile_count == 100
    assert variant.blanks == 2
    assert {kind.letter: (kind.count, kind.value) for kind in variant.tiles} == STANDARD_TILES
    assert variant.alphabet == "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    assert (variant.rack_size, variant.bingo_bonus) == (7, 50)
    assert (variant.exchange_min_bag, variant.scoreless_rounds) == (7, 3)
    bag = variant.full_bag()
    assert len(bag) == 100
    assert Counter(bag)["?"] == 2
    assert bag[-2:] == ["?", "?"]
    assert sum(variant.value(tile) for tile in bag) == 187
    counts = Counter(premium for row in variant.layout for premium in row)
    assert counts == {
        Premium.TRIPLE_WORD: 8,
        Premium.DOUBLE_WORD: 17,
        Premium.TRIPLE_LETTER: 12,
        Premium.DOUBLE_LETTER: 24,
        Premium.PLAIN: 164,
    }
    assert variant.premium((7, 7)) is Premium.DOUBLE_WORD
    assert variant.premium((0, 0)) is Premium.TRIPLE_WORD
    assert variant.premium((0, 3)) is Premium.DOUBLE_LETTER
    assert variant.premium((1, 5)) is Premium.TRIPLE_LETTER
    assert variant.premium((7, 6)) is Premium.PLAIN


def test_super_variant() -> None:
    variant = get_variant("super")
    assert (variant.rows, variant.cols) == (21, 21)
    assert variant.start == (10, 10)
    assert variant.tile_count == 200
    assert variant.blanks == 4
    assert {kind.letter: (kind.count, kind.value) for kind in variant.tiles} == SUPER_TILES
    premiums = {premium for row in variant.layout for premium in row}
    assert Premium.QUADRUPLE_WORD in premiums
    assert Premium.QUADRUPLE_LETTER in premiums
    assert variant.premium((0, 0)) is Premium.QUADRUPLE_WORD
    assert variant.premium((2, 5)) is Premium.QUADRUPLE_LETTER
    assert all(premium is not None for row in variant.layout for premium in row)


def _reference_layout(path: Path) -> list[list[str]]:
    rows: list[list[str]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        number, *tokens = line.split()
        assert int(number) == len(rows) + 1
        rows.append(tokens)
    return rows


@pytest.mark.skipif(not SHARED_DIR, reason="SCRABBLE_SHARED_DIR is not set")
@pytest.mark.parametrize(("name", "file"), [("standard", "standard15.txt"), ("super", "super21.txt")])
def test_layout_matches_the_reference_board(name: str, file: str) -> None:
    assert SHARED_DIR is not None
    reference = _reference_layout(Path(SHARED_DIR) / "reference" / "boards" / file)
    variant = get_variant(name)
    assert len(reference) == variant.rows
    for row, tokens in enumerate(reference):
        assert len(tokens) == variant.cols
        for col, token in enumerate(tokens):
            premium = variant.layout[row][col]
            assert premium is not None
            assert premium.value == token, f"{name} square {(row, col)}"


def test_premium_multipliers() -> None:
    assert (Premium.PLAIN.letter_multiplier, Premium.PLAIN.word_multiplier) == (1, 1)
    assert (Premium.DOUBLE_LETTER.letter_multiplier, Premium.DOUBLE_LETTER.word_multiplier) == (2, 1)
    assert (Premium.TRIPLE_LETTER.letter_multiplier, Premium.TRIPLE_LETTER.word_multiplier) == (3, 1)
    assert (Premium.QUADRUPLE_LETTER.letter_multiplier, Premium.QUADRUPLE_LETTER.word_multiplier) == (4, 1)
    assert (Premium.DOUBLE_WORD.letter_multiplier, Premium.DOUBLE_WORD.word_multiplier) == (1, 2)
    assert (Premium.TRIPLE_WORD.letter_multiplier, Premium.TRIPLE_WORD.word_multiplier) == (1, 3)
    assert (Premium.QUADRUPLE_WORD.letter_multiplier, Premium.QUADRUPLE_WORD.word_multiplier) == (1, 4)


def test_values() -> None:
    variant = get_variant("standard")
    assert variant.value("Q") == 10
    assert variant.value("q") == 0
    assert variant.value("?") == 0
    assert variant.rack_value("QZ?E") == 21
    with pytest.raises(KeyError):
        variant.value("Ä")


def test_get_variant_unknown_name() -> None:
    with pytest.raises(VariantError) as info:
        get_variant("scrabulous")
    path = assets_dir() / "variants"
    known = "standard, super, diamond, infinite, letter-sets, standard-program"
    assert str(info.value) == f"{path}: name: no bundled variant 'scrabulous' (known: {known})"


def test_the_examples_are_known_by_name(tmp_path: Path) -> None:
    assert example_variant_names() == ["diamond", "infinite", "letter-sets", "standard-program"]
    assert get_variant("infinite") == load_variant(example_variants_dir() / "infinite.toml")
    assert get_variant("infinite").infinite and "letter-sets" in VARIANTS
    assert VARIANTS.names()[:6] == ["standard", "super", *example_variant_names()]
    taken = tmp_path / "mine.toml"
    taken.write_text((example_variants_dir() / "diamond.toml").read_text())
    with pytest.raises(VariantError, match=r"mine\.toml: name: a variant is already named 'diamond'$"):
        VARIANTS.add_file(taken)


def test_a_long_variant_name_is_not_echoed_whole() -> None:
    with pytest.raises(VariantError) as info:
        get_variant("x" * 100_000)
    path = assets_dir() / "variants"
    known = "standard, super, diamond, infinite, letter-sets, standard-program"
    assert str(info.value) == f"{path}: name: no bundled variant '{'x' * 40}…' (known: {known})"


def test_a_bundled_name_cannot_reach_other_files(tmp_path: Path) -> None:
    with pytest.raises(VariantError) as info:
        get_variant("../variants/standard")
    known = "standard, super, diamond, infinite, letter-sets, standard-program"
    assert info.value.problem == f"no bundled variant '../variants/standard' (known: {known})"


def test_find_variant_by_name_or_path(tmp_path: Path) -> None:
    assert find_variant("super") is get_variant("super")
    path = _write(tmp_path, CUSTOM)
    assert find_variant(str(path)) == load_variant(path)
    with pytest.raises(VariantError) as info:
        find_variant(str(tmp_path / "missing.toml"))
    assert str(info.value) == f"{tmp_path / 'missing.toml'}: (file): no such file"
    with pytest.raises(VariantError) as info:
        find_variant(str(_write(tmp_path, CUSTOM.replace('start = "E3"', 'start = "E1"'), "holed.toml")))
    assert (
        str(info.value)
        == f"{tmp_path / 'holed.toml'}: board.start: E1 is a hole: the first word could not cover it"
    )


# --- Custom variants --------------------------------------------------------------------------------

CUSTOM = """\
name = "tiny"
rack_size = 5
bingo_bonus = 20
scoreless_rounds = 2

[board]
start = "E3"
layout = '''
3W -- -- 2L ## 2L -- -- 3W
-- 2W -- -- 3L -- -- 2W --
2L -- 3L -- 2W -- 3L -- 2L
-- 2W -- -- 3L -- -- 2W --
3W -- -- 2L ## 2L -- -- 3W
'''

[tiles]
blanks = 1
A = [4, 1]
"Ä" = [2, 3]
B = [2, 3]
E = [4, 1]
L = [2, 2]
N = [3, 1]
R = [3, 1]
S = [2, 1]
T = [3, 1]
"""


def _write(tmp_path: Path, text: str, name: str = "custom.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_custom_variant_file(tmp_path: Path) -> None:
    variant = load_variant(_write(tmp_path, CUSTOM))
    assert variant.name == variant.title == "tiny"
    assert (variant.rows, variant.cols) == (5, 9)
    assert variant.start == (2, 4)
    assert variant.rack_size == 5
    assert variant.exchange_min_bag == 5  # defaults to the rack size
    assert variant.bingo_bonus == 20
    assert variant.scoreless_rounds == 2
    assert variant.alphabet == "AÄBELNRST"
    assert variant.tiles[1] == TileKind("Ä", 2, 3)
    assert variant.tile_count == 26
    assert variant.value("Ä") == 3
    assert variant.value("ä") == 0
    assert variant.is_letter("Ä")
    assert not variant.is_letter("Z")
    assert variant.layout[0][4] is None
    assert not variant.on_board((0, 4))
    assert not variant.on_board((4, 4))
    assert variant.on_board((0, 3))
    assert not variant.on_board((5, 0))
    assert not variant.on_board((0, 9))
    assert not variant.on_board((-1, 0))
    with pytest.raises(IndexError):
        variant.premium((0, 4))
    squares = list(variant.squares())
    assert len(squares) == 5 * 9 - 2
    assert (0, 4) not in squares
    assert variant_from_dict(variant_to_dict(variant), "copy") == variant


def test_custom_variant_plays_a_game(tiny_variant: Variant) -> None:
    game = Game(tiny_variant, ["Ann", "Bob"], rng=random.Random(3))
    assert [len(player.rack) for player in game.players] == [5, 5]
    assert len(game.bag) == 26 - 10


def test_variant_round_trip_keeps_every_setting(tiny_variant: Variant) -> None:
    data = variant_to_dict(tiny_variant)
    assert data["board"] == {
        "start": "E3",
        "layout": (
            "3W -- -- 2L ## 2L -- -- 3W\n"
            "-- 2W -- -- 3L -- -- 2W --\n"
            "2L -- 3L -- 2W -- 3L -- 2L\n"
            "-- 2W -- -- 3L -- -- 2W --\n"
            "3W -- -- 2L ## 2L -- -- 3W"
        ),
    }
    assert data["tiles"] == {
        "blanks": 1,
        "A": [4, 1],
        "Ä": [2, 3],
        "B": [2, 3],
        "E": [4, 1],
        "L": [2, 2],
        "N": [3, 1],
        "R": [3, 1],
        "S": [2, 1],
        "T": [3, 1],
    }
    assert variant_from_dict(data, "copy") == tiny_variant
    for name in ("standard", "super"):
        variant = get_variant(name)
        assert variant_from_dict(variant_to_dict(variant), "copy") == variant


def test_minimal_variant_defaults() -> None:
    variant = variant_from_dict(
        {"name": "mini", "board": {"start": "A1", "layout": "-- --\n-- --"}, "tiles": {"A": [14, 1]}},
        "mini",
    )
    assert variant.title == "mini"
    assert (variant.rack_size, variant.bingo_bonus, variant.exchange_min_bag) == (7, 50, 7)
    assert variant.scoreless_rounds == 3
    assert variant.blanks == 0
    assert variant.tile_count == 14


# --- Bad files: every error names the file, the key and the problem -------------------------------


def _replace(old: str, new: str) -> str:
    assert old in CUSTOM
    return CUSTOM.replace(old, new)


BAD_FILES = [
    (_replace("rack_size = 5", "rack_size = 5\ncolour = 'red'"), "colour",
     "unknown key (expected one of bingo_bonus, board, exchange_min_bag, name, rack_size, "
     "scoreless_rounds, tiles, title)"),
    (_replace("rack_size = 5", "rack_size = true"), "rack_size", "must be a whole number, not True"),
    (_replace("rack_size = 5", "rack_size = 5.0"), "rack_size", "must be a whole number, not 5.0"),
    (_replace("rack_size = 5", "rack_size = '5'"), "rack_size", "must be a whole number, not '5'"),
    (_replace("rack_size = 5", "rack_size = 1"), "rack_size", "must be between 2 and 20, not 1"),
    (_replace("bingo_bonus = 20", "bingo_bonus = -1"), "bingo_bonus", "must be between 0 and 1000, not -1"),
    (_replace("scoreless_rounds = 2", "scoreless_rounds = false"), "scoreless_rounds",
     "must be a whole number, not False"),
    (_replace('name = "tiny"', 'name = ""'), "name", "must be a non-empty string"),
    (_replace('name = "tiny"', "name = 3"), "name", "must be a non-empty string"),
    (_replace('name = "tiny"', 'name = "tiny"\ntitle = 7'), "title", "must be a non-empty string"),
    (_replace('start = "E3"', 'start = "E3"\nsize = 9'), "board.size", "unknown key (expected start, layout)"),
    (_replace("-- 2W -- -- 3L -- -- 2W --\n2L", "-- 2W -- -- 5L -- -- 2W --\n2L"), "board.layout",
     "row 2: unknown square '5L' (use -- 2L 3L 4L 2W 3W 4W ##)"),
    (_replace("-- 2W -- -- 3L -- -- 2W --\n2L", "-- 2W -- -- 3L -- -- 2W\n2L"), "board.layout",
     "row 2 has 8 squares, row 1 has 9: the board must be a rectangle"),
    (_replace('start = "E3"', 'start = "E1"'), "board.start", "E1 is a hole: the first word could not cover it"),
    (_replace("-- 2W -- -- 3L -- -- 2W --\n2L -- 3L -- 2W -- 3L -- 2L\n-- 2W -- -- 3L -- -- 2W --",
              "-- 2W -- -- ## -- -- 2W --\n2L -- 3L ## 2W ## 3L -- 2L\n-- 2W -- -- ## -- -- 2W --"),
     "board.start", "E3 is enclosed by holes and edges: no first word of two letters could cover it"),
    (_replace('start = "E3"', 'start = "A1"').replace("3W -- -- 2L ## 2L -- -- 3W\n-- 2W", "3W ## -- 2L ## 2L -- -- 3W\n## 2W"),
     "board.start", "A1 is enclosed by holes and edges: no first word of two letters could cover it"),
    (_replace('start = "E3"', 'start = "B2"').replace(CUSTOM[CUSTOM.index("3W --"):CUSTOM.index("[tiles]") - 5],
                                                    "-- ## --\n## -- ##\n-- ## --"),
     "board.layout", "no two squares are in line: no word of two letters fits on the board"),
    (_replace('start = "E3"', 'start = "J3"'), "board.start", "J3 is not a square of this 5x9 board"),
    (_replace('start = "E3"', 'start = "middle"'), "board.start", "'middle' is not a square name"),
    (_replace('start = "E3"\n', ""), "board.start", 'must be a square name such as "H8"'),
    (_replace("[board]", "[plank]"), "plank",
     "unknown key (expected one of bingo_bonus, board, exchange_min_bag, name, rack_size, "
     "scoreless_rounds, tiles, title)"),
    (_replace("blanks = 1", "blanks = true"), "tiles.blanks", "must be a whole number, not True"),
    (_replace("A = [4, 1]", "a = [4, 1]"), "tiles.a", "a letter must be one uppercase character"),
    (_replace("A = [4, 1]", "AB = [4, 1]"), "tiles.AB", "a letter must be one uppercase character"),
    (_replace("A = [4, 1]", "1 = [4, 1]"), "tiles.1", "a letter must be one uppercase character"),
    (_replace("A = [4, 1]", "A = [4]"), "tiles.A", "must be [count, value], two whole numbers, not [4]"),
    (_replace("A = [4, 1]", "A = [4, true]"), "tiles.A",
     "must be [count, value], two whole numbers, not [4, True]"),
    (_replace("A = [4, 1]", "A = 4"), "tiles.A", "must be [count, value], two whole numbers, not 4"),
    (_replace("A = [4, 1]", "A = [-4, 1]"), "tiles.A", "count and value must be 0 to 1000, not [-4, 1]"),
    (_replace("A = [4, 1]", "A = [4, 1]\nC = [1, 3]\nD = [1, 2]\n").replace("rack_size = 5", "rack_size = 20"),
     "tiles", "28 tiles cannot fill two racks of 20 (need 40)"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "key", "problem"), BAD_FILES)
def test_bad_variant_files_name_file_key_and_problem(
    tmp_path: Path, text: str, key: str, problem: str
) -> None:
    path = _write(tmp_path, text, "bad.toml")
    with pytest.raises(VariantError) as info:
        load_variant(path)
    assert (info.value.source, info.value.key, info.value.problem) == (str(path), key, problem)
    assert str(info.value) == f"{path}: {key}: {problem}"


def test_layout_must_be_text() -> None:
    data = {"name": "x", "board": {"start": "A1", "layout": 5}, "tiles": {"A": [20, 1]}}
    with pytest.raises(VariantError) as info:
        variant_from_dict(data, "x.toml")
    assert str(info.value) == "x.toml: board.layout: must be a multi-line string of squares"


@pytest.mark.parametrize(
    ("layout", "problem"),
    [
        ("--", "1 rows (a board has 2 to 25)"),
        ("\n".join(["-- --"] * 26), "26 rows (a board has 2 to 25)"),
        ("--\n--", "1 columns (a board has 2 to 25)"),
        ("\n".join([" ".join(["--"] * 26)] * 2), "26 columns (a board has 2 to 25)"),
    ],
)
def test_board_size_limits(layout: str, problem: str) -> None:
    data = {"name": "x", "board": {"start": "A1", "layout": layout}, "tiles": {"A": [20, 1]}}
    with pytest.raises(VariantError) as info:
        variant_from_dict(data, "x.toml")
    assert str(info.value) == f"x.toml: board.layout: {problem}"


@pytest.mark.parametrize(
    ("data", "key", "problem"),
    [
        ({"name": "x", "tiles": {"A": [20, 1]}}, "board", "missing [board] table"),
        ({"name": "x", "board": {"start": "A1", "layout": "-- --\n-- --"}}, "tiles", "missing [tiles] table"),
        (
            {"name": "x", "board": {"start": "A1", "layout": "-- --\n-- --"}, "tiles": {"blanks": 20}},
            "tiles",
            "no letters: list each as LETTER = [count, value]",
        ),
        (
            {"name": "x", "board": {"start": "A1", "layout": "-- --\n-- --"}, "tiles": {"א": [20, 1]}},
            "tiles.א",
            "a letter must be one uppercase character",
        ),
        (
            {"name": "x", "board": {"start": "A1", "layout": "-- --\n-- --"}, "tiles": {"ẞ": [20, 1]}},
            "tiles.ẞ",
            "a letter must be one uppercase character",
        ),
    ],
)
def test_bad_variant_data(data: dict[str, object], key: str, problem: str) -> None:
    with pytest.raises(VariantError) as info:
        variant_from_dict(data, "x.toml")
    assert str(info.value) == f"x.toml: {key}: {problem}"


def test_missing_and_unreadable_files(tmp_path: Path) -> None:
    missing = tmp_path / "nope.toml"
    with pytest.raises(VariantError) as info:
        load_variant(missing)
    assert str(info.value) == f"{missing}: (file): no such file"
    broken = _write(tmp_path, "name = [unclosed\n", "broken.toml")
    with pytest.raises(VariantError) as info:
        load_variant(broken)
    assert str(info.value).startswith(f"{broken}: (file): not valid TOML (")
    directory = tmp_path / "dir.toml"
    directory.mkdir()
    with pytest.raises(VariantError) as info:
        load_variant(directory)
    assert str(info.value).startswith(f"{directory}: (file): cannot be read (")


def test_variant_is_a_plain_value(tiny_variant: Variant) -> None:
    copy = Variant(
        name=tiny_variant.name,
        title=tiny_variant.title,
        layout=tiny_variant.layout,
        start=tiny_variant.start,
        tiles=tiny_variant.tiles,
        blanks=tiny_variant.blanks,
        rack_size=5,
        bingo_bonus=20,
        exchange_min_bag=5,
        scoreless_rounds=2,
    )
    assert copy == tiny_variant
    assert hash(copy) == hash(tiny_variant)
    assert copy.alphabet == "AÄBELNRST"


def test_a_pickled_variant_carries_its_fields_only() -> None:
    variant = get_variant("standard")
    fresh = len(pickle.dumps(variant))
    assert variant.on_board((7, 7)) and variant.alphabet and variant.layout_text  # every cache filled
    assert len(pickle.dumps(variant)) == fresh  # a board sent to the drawing process carries none of them
    copy = pickle.loads(pickle.dumps(variant))
    assert copy == variant and copy.on_board((7, 7)) and not copy.on_board((15, 0))
    assert variant_to_dict(copy) == variant_to_dict(variant)
