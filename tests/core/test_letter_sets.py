"""Letter-set tiles: the variant, the notation (racks, records, what players type), scoring with the
chosen letter's points, move generation with both cores, the leave rule, and whole games."""

from __future__ import annotations

import random
from copy import deepcopy

import pytest

from scrabble_core.__main__ import main
from scrabble_core.ai import Level, default_leave_model, leave_model_for
from scrabble_core.board import Board
from scrabble_core.errors import InvalidMoveError, TileNotOnRackError, VariantError
from scrabble_core.lexicon import Lexicon
from scrabble_core.move import Exchange, Play, move_from_gcg
from scrabble_core.movegen import MoveGenerator
from scrabble_core.native import native_core
from scrabble_core.notation import parse_player_play, player_notation
from scrabble_core.tiles import letter_of, rack_tile, set_tile
from scrabble_core.validation import check_play
from scrabble_core.variant import example_variants_dir, load_variant, variant_from_dict, variant_to_dict
from tests.core.replays import play_out_and_replay

SETS = load_variant(example_variants_dir() / "letter-sets.toml")


def test_the_letter_sets_example() -> None:
    assert [(s.symbol, s.count, s.text) for s in SETS.tile_sets] == [
        ("1", 4, "[AE]"),
        ("2", 3, "[IOU]"),
        ("3", 2, "[SZ]"),
    ]
    assert SETS.tile_count == 100
    bag = SETS.full_bag()
    assert len(bag) == 100 and bag.count("1") == 4 and bag[-2:] == ["?", "?"]
    assert SETS.value(set_tile("3", "Z")) == 10 and SETS.value(set_tile("3", "S")) == 1
    assert SETS.value("3") == 10  # on a rack: the most of its letters
    assert SETS.rack_value("13?") == 1 + 10 + 0
    assert variant_from_dict(variant_to_dict(SETS), "again") == SETS


def test_a_set_tile_as_the_board_and_moves_write_it() -> None:
    char = set_tile("2", "U")
    assert (letter_of(char), rack_tile(char)) == ("U", "2")
    play = Play.from_gcg("8H Q[2U]IZ")
    assert play.letters == f"Q{char}IZ"
    assert play.rack_tiles() == "Q2IZ"
    assert play.gcg() == "8H Q[2U]IZ"
    assert move_from_gcg("-A[1][3]") == Exchange("A13")
    assert Exchange("A13").gcg() == "-A[1][3]"


def test_scoring_uses_the_chosen_letter_s_points() -> None:
    board = Board(SETS)
    # [3Z] on H8 (2W) scores 10 as a Z; A on I8.
    assert check_play(board, Play.from_gcg("8H [3Z]A")).total == (10 + 1) * 2
    assert check_play(board, Play.from_gcg("8H [3S]H")).total == (1 + 4) * 2
    breakdown = check_play(board, Play.from_gcg("8H [3Z]AX"))
    assert (breakdown.words[0].word, breakdown.describe()) == ("ZAX", "ZAX 38")
    with pytest.raises(InvalidMoveError, match=r"^'\[1U\]' is not a letter of this game$"):
        check_play(board, Play.from_gcg("8H Q[1U]IZ"))
    with pytest.raises(TileNotOnRackError):
        check_play(board, Play.from_gcg("8H [3Z]A"), rack="ZA")


def test_players_type_set_tiles() -> None:
    board = Board(SETS)
    rack = "Q2IZ1AE"
    expected = Play.from_gcg("8H Q[2U]IZ")
    assert parse_player_play("8h q[2u]iz", board, rack) == expected
    assert parse_player_play("8H Q2UIZ", board, rack) == expected
    assert parse_player_play(player_notation(expected), board, rack) == expected
    with pytest.raises(InvalidMoveError, match=r"^set tile 2 is \[IOU\]: write \[2I\] for it as I"):
        parse_player_play("8h q2aiz", board, rack)
    with pytest.raises(InvalidMoveError, match=r"^a set tile is written"):
        parse_player_play("8h q[9u]iz", board, rack)


def cores(lexicon: Lexicon, base: MoveGenerator) -> list[MoveGenerator]:
    found = [MoveGenerator(lexicon, base.dawg, native=False)]
    if native_core() is not None:
        found.append(MoveGenerator(lexicon, base.dawg, native=True))
    return found


def test_move_generation_tries_each_letter_of_a_set(
    enable_lexicon: Lexicon, enable_generator: MoveGenerator
) -> None:
    board = Board(SETS)
    for core in cores(enable_lexicon, enable_generator):
        moves = core.generate(board, "3AXQQQQ")
        plays = {move.play.gcg(): (move.score, move.leave) for move in moves}
        assert plays["8H [3Z]AX"] == ((10 + 1 + 8) * 2, "QQQQ")  # H8 is 2W
        assert plays["8H [3S]AX"] == ((1 + 1 + 8) * 2, "QQQQ")
        assert plays["8H AX"] == ((1 + 8) * 2, "QQQQ3")  # the set tile kept: its number after the letters
        assert plays["8H A[3S]"] == ((1 + 1) * 2, "QQQQX")
        assert not any("[3A]" in play or "[3X]" in play for play in plays)


def test_both_cores_agree_and_every_play_is_legal(
    enable_lexicon: Lexicon, enable_generator: MoveGenerator
) -> None:
    generators = cores(enable_lexicon, enable_generator)
    rng = random.Random(44)
    board = Board(SETS)
    bag = SETS.full_bag()
    model = default_leave_model().with_sets({"1": "AE", "2": "IOU", "3": "SZ"})
    for turn in range(7):
        rack = "".join(rng.sample(bag, 7))
        if turn < 3:
            rack = "13" + rack[2:]
        found = [generator.generate(board, rack) for generator in generators]
        assert all(moves == found[0] for moves in found)
        moves = found[0]
        assert len({(move.play, move.leave) for move in moves}) == len(moves)
        for move in moves[:: max(1, len(moves) // 60)]:
            assert check_play(board, move.play, rack=rack, lexicon=enable_lexicon).total == move.score
        tops = [generator.top(board, rack, 4, model) for generator in generators]
        assert all(top == tops[0] for top in tops)
        best = max(model(move.leave) + move.score for move in moves)
        assert tops[0][0].score + model(tops[0][0].leave) == pytest.approx(best)
        if moves:
            board.place(moves[0].play.placements())


def test_a_kept_set_tile_is_worth_its_best_letter() -> None:
    model = default_leave_model()
    with_sets = model.with_sets({"1": "AE", "3": "SZ"})
    assert with_sets is model.with_sets({"3": "SZ", "1": "AE"})  # made once
    assert with_sets.evaluate("3") == max(model.evaluate("S"), model.evaluate("Z"))
    assert with_sets.evaluate("13R") == max(model.evaluate(f"{a}{b}R") for a in "AE" for b in "SZ")
    assert with_sets.values(["RT", "1"]) == [
        model.evaluate("RT"),
        max(model.evaluate("A"), model.evaluate("E")),
    ]
    # the AI's model on a variant: its set tiles valued so; on a variant without them, the model itself
    assert leave_model_for(SETS) is model.with_sets({"1": "AE", "2": "IOU", "3": "SZ"})
    assert leave_model_for(load_variant(example_variants_dir() / "diamond.toml")) is model


@pytest.mark.parametrize("level", [Level.HARD, Level.MEDIUM])
def test_a_whole_game_with_set_tiles(
    enable_lexicon: Lexicon, enable_generator: MoveGenerator, level: Level
) -> None:
    record = play_out_and_replay(SETS, enable_lexicon, enable_generator, level, f"sets-{level}")
    assert any("[" in event.move for event in record.events)  # some set tile was played


@pytest.mark.parametrize(
    ("tile_sets", "key", "problem"),
    [
        ([{"count": 1, "letters": {"Ω": 1}}], "tile_sets.1.letters", "'Ω' is not a letter of [tiles]"),
        ([{"count": 1}], "tile_sets.1", "must have a count and letters = { LETTER = points, ... }"),
        ([{"count": 1, "letters": {"A": -1}}], "tile_sets.1.letters.A", "must be 0 to 1000 points, not -1"),
        ([{"count": 1, "letters": {"A": 1}}] * 9, "tile_sets", "must be at most 8 [[tile_sets]] tables"),
    ],
)
def test_bad_tile_sets_are_refused(tile_sets: object, key: str, problem: str) -> None:
    data = deepcopy(variant_to_dict(SETS))
    data["tile_sets"] = tile_sets
    with pytest.raises(VariantError) as caught:
        variant_from_dict(data, "club.toml")
    assert (caught.value.key, caught.value.problem) == (key, problem)


def test_the_moves_command_writes_set_tiles(capsys: pytest.CaptureFixture[str]) -> None:
    variant = str(example_variants_dir() / "letter-sets.toml")
    assert main(["moves", "--variant", variant, "--rack", "AE1RST?", "--top", "2"]) == 0
    assert capsys.readouterr().out == "8B AER[1A]TeS 64\n8B [1A]ERATeS 64\n"
