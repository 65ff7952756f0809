"""The post-game analysis (scrabble_core.analysis) on a known game, checked against the move generator."""

from __future__ import annotations

import random

import pytest

from scrabble_core.ai import Level, default_leave_model, seat_view
from scrabble_core.analysis import (
    GameAnalysis,
    Mark,
    analyse_game,
    analyse_position,
    board_snippet,
    game_positions,
    positions,
    report_text,
)
from scrabble_core.game import ChallengeMode, Event, EventKind, Game
from scrabble_core.gcg import export_gcg, parse_gcg
from scrabble_core.leaves import LeaveModel
from scrabble_core.lexicon import Lexicon
from scrabble_core.move import Play, move_from_gcg
from scrabble_core.movegen import MoveGenerator
from scrabble_core.variant import get_variant

KNOWN_MOVES = [
    "8D PIBAL",
    "D8 .ACKER",
    "7G FACT",
    "8J OUTRAN",
    "14A ZEDS",
    "A12 RA.E",
    "13C E.RHINE",
    "H11 MI.TY",
    "11B PI.ER",
    "M3 JUNIO.",
    "9G DAWN",
    "10J YOGH",
    "N5 OF",
    "M10 .OVE",
    "N1 NOO",
    "1K aXI.G",
    "14L BLIN",
    "O10 LUMI.A",
    "15J VIES",
    "2E ROULADE",
    "1A WADSET",
    "3A GETTErS",
]
"""A whole game (Ann: the medium AI, Bob: hard) on the bag of ``random.Random(7)``, ENABLE, void."""

ZERO_LEAVES = LeaveModel("AEIOU", {}, {})
"""Leaves worth nothing: a play's equity is its score (the endgame rule still applies)."""


def known_game(lexicon: Lexicon) -> Game:
    game = Game(get_variant("standard"), ["Ann", "Bob"], rng=random.Random(7), lexicon=lexicon)
    for move in KNOWN_MOVES:
        game.push(game.current, move_from_gcg(move))
    return game


@pytest.fixture(scope="module")
def analysis(enable_lexicon: Lexicon, enable_generator: MoveGenerator) -> GameAnalysis:
    game = known_game(enable_lexicon)
    return analyse_game(game_positions(game), ["Ann", "Bob"], enable_generator, ZERO_LEAVES)


def test_the_best_move_of_a_turn_is_the_generators_highest_scoring_play(
    enable_lexicon: Lexicon, enable_generator: MoveGenerator, analysis: GameAnalysis
) -> None:
    found = game_positions(known_game(enable_lexicon))
    for number in (3, 7, 9, 13, 14):
        view = found[number - 1].view
        top = min(enable_generator.generate(view.board, view.rack), key=lambda m: (-m.score, m.play.gcg()))
        move = analysis.moves[number - 1]
        assert (move.best, move.best_score) == (top.play.gcg(), top.score)
    assert [(m.number, m.best, m.loss) for m in analysis.moves if m.loss] == [
        (3, "7G FACET", 1.0),
        (7, "L1 INHEREN.", 44.0),
        (9, "11F WI.PIER", 6.0),
        (13, "11K FOIN", 4.0),
        (14, "O1 VIdEO", 7.0),
        (21, "1A TAWSED", 1.0),
    ]


def test_turns_that_found_the_best_move_lose_nothing(analysis: GameAnalysis) -> None:
    first = analysis.moves[0]
    assert (first.move, first.best, first.loss, first.found, first.note()) == (
        "8D PIBAL",
        "8D PIBAL",
        0.0,
        True,
        "the best play",
    )


def test_summary_totals_accuracy_and_biggest_misses(analysis: GameAnalysis) -> None:
    ann, bob = analysis.players
    assert (ann.turns, ann.equity_lost, ann.accuracy, ann.missed_bingos) == (11, 56.0, 72.7, 1)
    assert [miss.number for miss in ann.biggest] == [7, 9, 13]
    assert (bob.turns, bob.equity_lost, bob.accuracy, bob.missed_bingos) == (11, 7.0, 90.9, 0)
    assert analysis.moves[6].marks == (Mark.MISSED_BINGO,)
    assert (
        analysis.moves[6].note()
        == "the best was INHERENT at L1 (down) for 74: 44 points more, 44.0 better counting the tiles kept; missed bingo"
    )


def test_the_endgame_rule_values_the_last_moves(analysis: GameAnalysis) -> None:
    last_but_one = analysis.moves[20]  # bag empty: tiles kept cost twice their value
    assert (last_but_one.move, last_but_one.equity, last_but_one.best_equity) == ("1A WADSET", 17.0, 18.0)


def test_the_snippet_shows_the_best_move_in_brackets(analysis: GameAnalysis) -> None:
    assert analysis.moves[12].snippet == (
        "     I  J  K  L  M  N  O\n"
        "  9  W  N  .  .  .  .  .\n"
        " 10  .  Y  O  G  H  .  .\n"
        " 11  .  . [F][O][I][N] .\n"
        " 12  .  .  .  .  .  .  .\n"
        " 13  E  .  .  .  .  .  ."
    )


def test_the_analysis_survives_a_round_trip_through_plain_data(analysis: GameAnalysis) -> None:
    assert GameAnalysis.from_dict(analysis.to_dict()) == analysis


def test_the_report_has_a_line_per_turn_and_the_summary(analysis: GameAnalysis) -> None:
    text = report_text(analysis)
    assert (
        "  7. Ann, with EEHINNR: played ERRHINE at 13C (across) for 30; "
        "the best was INHERENT at L1 (down) for 74: 44 points more, 44.0 better counting the tiles kept; missed bingo"
    ) in text
    assert (
        "Bob: 10 of 11 turns within 1 point of the best play, 7.0 points lost in all (counting the tiles kept)"
        in text
    )


def test_positions_see_what_the_engine_showed_the_seat(enable_lexicon: Lexicon) -> None:
    found = game_positions(known_game(enable_lexicon))
    game = Game(get_variant("standard"), ["Ann", "Bob"], rng=random.Random(7), lexicon=enable_lexicon)
    for position, move in zip(found, KNOWN_MOVES, strict=True):
        assert position.view == seat_view(game, game.current)
        game.push(game.current, move_from_gcg(move))
    assert [(p.view.bag_size, len(p.view.unseen)) for p in found[:2]] == [(86, 93), (81, 88)]
    assert (found[-1].view.bag_size, found[-1].view.scores) == (0, (303, 366))


def test_the_gcg_carries_the_analysis_as_notes(enable_lexicon: Lexicon, analysis: GameAnalysis) -> None:
    text = export_gcg(known_game(enable_lexicon), analysis.notes())
    lines = text.splitlines()
    at = lines.index(">Ann: EEHINNR 13C E.RHINE +30 124")
    assert (
        lines[at + 1]
        == "#note the best was INHERENT at L1 (down) for 74: 44 points more, 44.0 better counting the tiles kept; missed bingo"
    )
    record = parse_gcg(text)
    assert (
        record.notes[6]
        == "the best was INHERENT at L1 (down) for 74: 44 points more, 44.0 better counting the tiles kept; missed bingo"
    )
    assert record.text() == text


def test_phonies_played_withdrawn_and_let_stand_are_marked(
    enable_lexicon: Lexicon, enable_generator: MoveGenerator
) -> None:
    history = [
        Event(EventKind.PLAY, 0, "AEQRSTZ", "8H ZAQ", 31, 31),  # phony, stands
        Event(EventKind.PLAY, 1, "ADEINOR", "I7 N.", 2, 2),  # the next player let it stand
        Event(EventKind.PLAY, 0, "EIRSTTU", "9I TX", 9, 40),  # not on the rack: a phony withdrawn
        Event(EventKind.PHONY_WITHDRAWN, 0, "EIRSTTU", "--", -9, 31),
    ]
    found = positions(get_variant("standard"), ["Ann", "Bob"], history, enable_lexicon)
    assert [(p.phony, p.withdrawn, p.phony_before) for p in found] == [
        (True, False, False),
        (False, False, True),
        (True, True, False),
    ]
    second = analyse_position(found[1], enable_generator, ZERO_LEAVES)
    assert second.marks == (Mark.PHONY_LET_STAND,)
    assert analyse_position(found[0], enable_generator, ZERO_LEAVES).marks == (Mark.PHONY,)
    withdrawn = analyse_position(found[2], enable_generator, ZERO_LEAVES)
    assert (withdrawn.equity, withdrawn.marks) == (0.0, (Mark.MISSED_BINGO, Mark.PHONY))  # it scored nothing


def test_a_challenge_game_marks_the_phony_that_stood(enable_lexicon: Lexicon) -> None:
    game = Game(
        get_variant("standard"),
        ["Ann", "Bob"],
        rng=random.Random(7),
        lexicon=enable_lexicon,
        challenge_mode=ChallengeMode.SINGLE,
    )
    rack = game.players[0].rack  # ABEILPT
    game.play(0, "8D PLATIBE")
    game.pass_turn(1)
    found = game_positions(game)
    assert rack == "ABEILPT"
    assert [(p.phony, p.phony_before) for p in found] == [(True, False), (False, True)]


def test_the_expert_analysis_is_reproducible_from_its_seed(
    enable_lexicon: Lexicon, enable_generator: MoveGenerator
) -> None:
    found = game_positions(known_game(enable_lexicon))[2:5]
    model = default_leave_model()
    runs = [
        [
            analyse_position(p, enable_generator, model, level=Level.EXPERT, seed=5, iterations=6)
            for p in found
        ]
        for _ in range(2)
    ]
    assert runs[0] == runs[1]
    for move in runs[0]:
        assert move.loss >= 0 and move_from_gcg(move.best)  # a play, or an exchange the simulation found


def test_only_hard_and_expert_analyse(enable_lexicon: Lexicon, enable_generator: MoveGenerator) -> None:
    found = game_positions(known_game(enable_lexicon))
    with pytest.raises(ValueError, match="an analysis runs at hard or expert, not medium"):
        analyse_position(found[0], enable_generator, ZERO_LEAVES, level=Level.MEDIUM)


def test_a_snippet_stays_on_the_board() -> None:
    board_variant = get_variant("standard")
    from scrabble_core.board import Board

    snippet = board_snippet(Board(board_variant), Play.from_gcg("1A QI"))
    assert snippet.splitlines() == [
        "     A  B  C  D",
        "  1 [Q][I] .  .",
        "  2  .  .  .  .",
        "  3  .  .  .  .",
    ]
