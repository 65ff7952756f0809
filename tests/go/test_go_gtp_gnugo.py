"""The GTP engine against GNU Go's own answers where GTP and GNU Go are strict: ``undo`` after a game
resumed from two passes, ``fixed_handicap`` and ``set_free_handicap`` refusing no handicap, and fixed
handicaps on every board size GNU Go plays."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from bot.games.go.engines import BuiltinAI, Level
from bot.games.go.gtp import GtpEngine
from go_core import handicap_points
from go_core.errors import HandicapError

SESSION = """\
boardsize 7
fixed_handicap 4
clear_board
fixed_handicap 0
fixed_handicap 1
fixed_handicap 5
set_free_handicap
set_free_handicap c3
boardsize 12
fixed_handicap 4
boardsize 9
play b pass
play w pass
play b e5
undo
undo
list_stones black
play w c3
undo
undo
undo
play b d4
play w pass
play b pass
play w e5
undo
list_stones white
undo
undo
list_stones black
undo
undo
"""

EXPECTED = (
    "= \n"
    "\n"
    "= C5 E5 C3 E3\n"
    "\n"
    "= \n"
    "\n"
    "? invalid handicap\n"
    "\n"
    "? invalid handicap\n"
    "\n"
    "? invalid handicap\n"
    "\n"
    "? invalid handicap\n"
    "\n"
    "? invalid handicap\n"
    "\n"
    "= \n"
    "\n"
    "= D9 J9 D4 J4\n"
    "\n"
    "= \n"
    "\n"
    "= \n"
    "\n"
    "= \n"
    "\n"
    "= \n"
    "\n"
    "= \n"
    "\n"
    "= \n"
    "\n"
    "= \n"
    "\n"
    "= \n"
    "\n"
    "= \n"
    "\n"
    "= \n"
    "\n"
    "? cannot undo\n"
    "\n"
    "= \n"
    "\n"
    "= \n"
    "\n"
    "= \n"
    "\n"
    "= \n"
    "\n"
    "= \n"
    "\n"
    "= \n"
    "\n"
    "= \n"
    "\n"
    "= \n"
    "\n"
    "= D4\n"
    "\n"
    "= \n"
    "\n"
    "? cannot undo\n"
    "\n"
)
"""GNU Go 3.8's answers to :data:`SESSION`."""


def _ours(session: str) -> str:
    engine = GtpEngine(BuiltinAI(Level.EASY, seed=1, seconds=30, playouts=5))
    answers: list[str] = []
    engine.serve(session.splitlines(), answers.append)
    return "".join(answers)


def _gnu_go(gnugo: Path, session: str) -> str:
    return subprocess.run(
        [str(gnugo), "--mode", "gtp"], input=session, capture_output=True, text=True, check=True, timeout=60
    ).stdout


def test_undo_and_handicaps_answer_as_gnu_go_does() -> None:
    assert _ours(SESSION) == EXPECTED


def test_the_transcript_is_gnu_gos(gnugo: Path) -> None:
    assert _gnu_go(gnugo, SESSION) == EXPECTED


def test_fixed_handicaps_on_every_size_are_gnu_gos(gnugo: Path) -> None:
    session = "".join(
        f"boardsize {size}\nclear_board\nfixed_handicap {stones}\n"
        for size in range(2, 20)
        for stones in range(11)
    )
    assert _ours(session) == _gnu_go(gnugo, session)


@pytest.mark.parametrize(
    ("size", "stones", "points"),
    [
        (25, 9, "W22 D4 D22 W4 D13 W13 N22 N4 N13"),
        (20, 4, "R17 D4 D17 R4"),
        (7, 2, "E5 C3"),
    ],
)
def test_fixed_handicaps_beyond_gnu_gos_boards_follow_its_rule(size: int, stones: int, points: str) -> None:
    assert " ".join(map(str, handicap_points(size, stones))) == points


def test_boards_below_7_take_no_fixed_handicap() -> None:
    with pytest.raises(HandicapError, match=r"^A 6×6 board takes no handicap stones"):
        handicap_points(6, 2)
    with pytest.raises(HandicapError, match=r"^A handicap on 24×24 is 2 to 4 stones, not 5$"):
        handicap_points(24, 5)
