"""SGF records as real files have them (bot.go.sgf): setup stones in any node, moves in the root,
``PL``, every result kept through import and export, komi, handicap and size read leniently with a
warning, and a corpus of records (``sgf_corpus``) replayed and checked against two other readers:
sgfmill's board and GNU Go's ``loadsgf``."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from sgfmill import boards, sgf

from bot.games.go.sgf import export_sgf, import_sgf
from go_core import Color, Game, Phase, Point
from tests.go.sgf_corpus import CorpusRecord, corpus

RECORDS = 300
NINE = ["A9", "B9", "C9", "A8", "B8", "C8", "A7", "B7", "C7"]
"""The points of ``AB[aa:cc]`` on 9×9, in the board's order."""


def _stones(game: Game) -> tuple[list[str], list[str]]:
    board = game.board
    return [str(p) for p in board.stones(Color.BLACK)], [str(p) for p in board.stones(Color.WHITE)]


@pytest.mark.parametrize(
    ("text", "black", "white", "to_move"),
    [
        # setup stones after the root (the record: GNU Go ends with D4 Q16 Q4)
        ("(;GM[1]FF[4]SZ[19]HA[2];AB[pd][dp];W[dd];B[pp])", ["Q16", "D4", "Q4"], ["D16"], Color.WHITE),
        ("(;GM[1]FF[4]SZ[9]B[ee];W[cc];B[gg])", ["E5", "G3"], ["C7"], Color.WHITE),  # a move in the root
        ("(;GM[1]FF[4]SZ[9]AB[ee]KM[abc];W[cc];AE[ee]AW[gg];B[dd])", ["D6"], ["C7", "G3"], Color.WHITE),
        ("(;GM[1]FF[4]SZ[19:9]HA[7.5]KM[6,5];B[cc];W[dd])", ["C17"], ["D16"], Color.BLACK),
        ("(;GM[1]FF[4]SZ[9]AB[aa:cc]PL[W];B[ee];PL[B];B[gg])", [*NINE, "E5", "G3"], [], Color.WHITE),
        ("(;GM[1]FF[4]SZ[9]AB[ee];AE[ee];B[ee])", ["E5"], [], Color.WHITE),
        ("(;GM[1]FF[4]SZ[9]PL[W];AB[cc][dd];AW[ee]PL[B];B[ff])", ["C7", "D6", "F4"], ["E5"], Color.WHITE),
        ("(;GM[1]FF[4]SZ[9]AB[cc]AW[dd]HA[2];W[ee])", ["C7"], ["D6", "E5"], Color.BLACK),  # one AB: a setup
    ],
)
def test_setups_moves_in_the_root_and_pl_end_on_gnu_gos_board(
    text: str, black: list[str], white: list[str], to_move: Color
) -> None:
    record = import_sgf(text)
    assert _stones(record.game) == (black, white)
    assert record.game.to_move is to_move
    again = import_sgf(export_sgf(record.game)).game
    assert again == record.game


def test_odd_komi_handicap_and_size_are_read_with_a_warning() -> None:
    record = import_sgf("(;GM[1]FF[4]SZ[19:9]HA[7.5]KM[6,5];B[cc];W[dd])")
    assert record.warnings == (
        "SZ '19:9' is read as a 19×19 board",
        "HA '7.5' is not a whole number: no handicap (its stones are set up)",
    )
    assert (record.game.size, record.game.komi, record.game.handicap) == (19, 6.5, 0)
    record = import_sgf("(;GM[1]FF[4]SZ[9]KM[abc]HA[2]AB[cc][gg];W[ee])")
    assert record.warnings == ("KM 'abc' is not a number: the komi is 0",)
    assert (record.game.komi, record.game.handicap) == (0.0, 2)
    assert import_sgf("(;GM[1]SZ[9]KM[7.5];B[ee])").warnings == ()


@pytest.mark.parametrize(
    ("result", "game_result"),
    [
        ("B+Resign", "B+R"), ("W+R", "W+R"), ("b+resign", "B+R"), ("B+T", "B+T"), ("W+Time", "W+T"),
        ("B+F", None), ("W+Forfeit", None), ("B+3.5", None), ("Void", None), ("Draw", None), ("0", None),
        ("?", None), ("W+", None),
    ],
)  # fmt: skip
def test_every_result_is_kept_through_import_and_export(result: str, game_result: str | None) -> None:
    record = import_sgf(f"(;GM[1]FF[4]SZ[9]RE[{result}]PB[Ann]PW[Bob];B[ee];W[cc])")
    assert record.result == result
    assert record.game.result == game_result  # a resignation or a loss on time ends the game
    text = export_sgf(record.game, black=record.black, white=record.white, result=record.result)
    assert f"RE[{result}]" in text
    assert import_sgf(text).result == result


def test_a_count_the_record_agrees_with_ends_the_game_and_another_stays_counting() -> None:
    played = "(;GM[1]FF[4]SZ[5]KM[7.5]RE[{}];B[cc];W[ae];B[];W[]TB[aa][ab][ac][ad][ae][ba])"
    agreed = import_sgf(played.format("B+17.5"))
    assert (agreed.game.phase, agreed.game.result) == (Phase.OVER, "B+17.5")
    assert agreed.game.dead == {Point.parse("A1", 5)}
    other = import_sgf(played.format("W+0.5"))  # counted by other rules: the marks are kept, not the end
    assert other.game.phase is Phase.SCORING
    assert other.game.dead == {Point.parse("A1", 5)}
    assert "TB[aa][ab][ac][ad][ae][ba]" in export_sgf(other.game).replace("\n", "")


# The corpus ---------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def records() -> list[CorpusRecord]:
    return corpus(RECORDS)


def _sgfmill_stones(text: str) -> tuple[list[str], list[str]]:
    """The final board of ``text`` by sgfmill's own board (setups applied, moves played, its captures)."""
    game = sgf.Sgf_game.from_string(re.sub(r"SZ\[(\d+):\d+\]", r"SZ[\1]", text))
    board = boards.Board(game.get_size())
    for node in game.get_main_sequence():
        if node.has_setup_stones():
            board.apply_setup(*node.get_setup_stones())
        colour, where = node.get_move()
        if colour is not None and where is not None:
            board.play(where[0], where[1], colour)
    stones: dict[str, set[Point]] = {"b": set(), "w": set()}
    for colour, (row, col) in board.list_occupied_points():
        stones[colour].add(Point(col, row))
    order = list(Game(game.get_size()).board.points())
    black, white = ([str(p) for p in order if p in stones[c]] for c in "bw")
    return black, white


def test_the_corpus_replays_to_sgfmills_boards(records: list[CorpusRecord]) -> None:
    assert len(records) == RECORDS
    for number, record in enumerate(records):
        assert _stones(import_sgf(record.text).game) == _sgfmill_stones(record.text), number


def test_the_corpus_replays_to_gnu_gos_boards(
    records: list[CorpusRecord], gnugo: Path, tmp_path: Path
) -> None:
    checked = [(n, r) for n, r in enumerate(records) if not r.removes]  # GNU Go skips AE
    assert len(checked) > RECORDS // 2
    session = ""
    for number, record in checked:
        path = tmp_path / f"{number}.sgf"
        path.write_text(record.text)
        session += f"loadsgf {path}\nlist_stones black\nlist_stones white\n"
    answer = subprocess.run(
        [str(gnugo), "--mode", "gtp"], input=session, capture_output=True, text=True, check=True, timeout=120
    ).stdout
    replies = [reply.removeprefix("=").strip() for reply in answer.split("\n\n") if reply.strip()]
    assert len(replies) == 3 * len(checked)
    for index, (number, record) in enumerate(checked):
        black, white = _stones(import_sgf(record.text).game)
        assert (sorted(black), sorted(white)) == (
            sorted(replies[3 * index + 1].split()),
            sorted(replies[3 * index + 2].split()),
        ), number


def test_the_corpus_comes_back_from_its_export(records: list[CorpusRecord]) -> None:
    for number, corpus_record in enumerate(records):
        record = import_sgf(corpus_record.text)
        text = export_sgf(record.game, black=record.black, white=record.white, result=record.result)
        again = import_sgf(text)
        assert again.game == record.game, number
        assert (again.black, again.white, again.result) == (record.black, record.white, record.result)
