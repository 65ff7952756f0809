"""The GTP engine (``scrabble-bot go --gtp``): a session transcript, its error replies, and whole games
against GNU Go through both engines' GTP with every position compared."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.games.go.engines import BuiltinAI, Level
from bot.games.go.gtp import GtpEngine
from bot.games.go.gtp_client import GtpClient, GtpError

SESSION = """\
1 protocol_version
2 name
known_command list_stones
known_command dance
boardsize 26
boardsize 9
komi 6.5
play black e5
play w d5   # a comment
3 play b e5
play b I5
play green a1
play w e4
play b d4
play w e6
play b f5
play w c5
play b pass
list_stones white
list_stones black
showboard
undo
list_stones black
undo
undo
undo
undo
undo
undo
undo
undo
4 undo
fixed_handicap 5
clear_board
fixed_handicap 5
list_stones black
final_score
final_status_list dead
final_status_list alive
final_status_list seki
final_status_list undead
clear_board
set_free_handicap c3 c3
set_free_handicap c3 d4 e5
list_stones black
set_free_handicap a1 a2
foo
quit
play b a1
"""

EXPECTED = (
    "=1 2\n"
    "\n"
    "=2 scrabble-host Go\n"
    "\n"
    "= true\n"
    "\n"
    "= false\n"
    "\n"
    "? unacceptable size\n"
    "\n"
    "= \n"
    "\n"
    "= \n"
    "\n"
    "= \n"
    "\n"
    "= \n"
    "\n"
    "?3 illegal move\n"
    "\n"
    "? invalid color or coordinate\n"
    "\n"
    "? invalid color or coordinate\n"
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
    "= E6 C5 D5 E4\n"
    "\n"
    "= E5 F5 D4\n"
    "\n"
    "= \n"
    "   A B C D E F G H J\n"
    " 9 . . . . . . . . . 9\n"
    " 8 . . . . . . . . . 8\n"
    " 7 . . + . . . + . . 7\n"
    " 6 . . . . O . . . . 6\n"
    " 5 . . O O X X . . . 5\n"
    " 4 . . . X O . . . . 4\n"
    " 3 . . + . . . + . . 3\n"
    " 2 . . . . . . . . . 2     WHITE (O) has captured 0 stones\n"
    " 1 . . . . . . . . . 1     BLACK (X) has captured 0 stones\n"
    "   A B C D E F G H J\n"
    "\n"
    "= \n"
    "\n"
    "= E5 F5 D4\n"
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
    "?4 cannot undo\n"
    "\n"
    "= C7 G7 E5 C3 G3\n"
    "\n"
    "= \n"
    "\n"
    "= C7 G7 E5 C3 G3\n"
    "\n"
    "= C7 G7 E5 C3 G3\n"
    "\n"
    "= B+69.5\n"
    "\n"
    "= \n"
    "\n"
    "= C7\n"
    "G7\n"
    "E5\n"
    "C3\n"
    "G3\n"
    "\n"
    "= \n"
    "\n"
    "? invalid status\n"
    "\n"
    "= \n"
    "\n"
    "? repeated vertex\n"
    "\n"
    "= \n"
    "\n"
    "= E5 D4 C3\n"
    "\n"
    "? board not empty\n"
    "\n"
    "? unknown command\n"
    "\n"
    "= \n"
    "\n"
)
"""GNU Go 3.8's answers to :data:`SESSION`, its name aside (`= ` ends with a space, as GNU Go writes it)."""


def test_a_gtp_session_answers_as_gnu_go_does() -> None:
    engine = GtpEngine(BuiltinAI(Level.EASY, seed=1, seconds=30, playouts=5))
    answers: list[str] = []
    engine.serve(SESSION.splitlines(), answers.append)
    assert "".join(answers) == EXPECTED
    assert engine.done


def test_the_transcript_is_gnu_gos(gnugo: Path) -> None:
    answer = subprocess.run(
        [str(gnugo), "--mode", "gtp"], input=SESSION, capture_output=True, text=True, check=True, timeout=60
    )
    assert answer.stdout.replace("=2 GNU Go\n", "=2 scrabble-host Go\n") == EXPECTED


def test_genmove_plays_for_the_colour_asked_and_undo_takes_it_back() -> None:
    engine = GtpEngine(BuiltinAI(Level.EASY, seed=3, seconds=30, playouts=8), size=5)
    assert engine.handle("1 genmove b") in {
        f"=1 {point}\n\n" for point in ("B2", "B3", "B4", "C2", "C3", "C4", "D2", "D3", "D4")
    }
    assert engine.handle("genmove b") is not None
    assert len(engine.game.board.stones()) == 2
    assert engine.handle("undo") == "= \n\n"
    assert len(engine.game.board.stones()) == 1
    assert engine.handle("genmove purple") == "? invalid color or coordinate\n\n"


def test_two_passes_then_a_play_resumes_the_game() -> None:
    engine = GtpEngine(BuiltinAI(Level.EASY, seed=3, seconds=30, playouts=8), size=5)
    for line in ("play b pass", "play w pass", "play b c3"):
        assert engine.handle(line) == "= \n\n"
    assert engine.handle("list_stones b") == "= C3\n\n"


def _ours() -> GtpClient:
    """``scrabble-bot go --gtp`` with the built-in AI, as a separate process."""
    return GtpClient(
        [sys.executable, "-m", "bot", "go", "--gtp", "--engine", "builtin", "--level", "easy", "--seed", "5"]
    )


def test_the_gtp_process_speaks_over_pipes() -> None:
    with _ours() as engine:
        assert engine.send("protocol_version") == "2"
        engine.send("boardsize 9")
        engine.send("play b e5")
        with pytest.raises(GtpError, match=r"^illegal move$"):
            engine.send("play w e5")
        assert engine.send("list_stones black") == "E5"
        assert engine.send("quit") == ""


@pytest.mark.parametrize(
    "moves", [pytest.param(16, id="opening"), pytest.param(400, id="whole-game", marks=pytest.mark.slow)]
)
def test_a_game_against_gnu_go_keeps_both_positions_equal(gnugo: Path, moves: int) -> None:
    with GtpClient([str(gnugo), "--mode", "gtp", "--level", "1", "--seed", "3"]) as theirs, _ours() as ours:
        for engine in (theirs, ours):
            engine.send("boardsize 9")
            engine.send("clear_board")
            engine.send("komi 7.5")
        players = {"b": (theirs, ours), "w": (ours, theirs)}
        passes = 0
        color = "b"
        played = 0
        while passes < 2 and played < moves:
            mover, other = players[color]
            move = mover.send(f"genmove {color}", timeout=60)
            assert move != "resign" or mover is theirs
            if move == "resign":
                break
            other.send(f"play {color} {move}")
            passes = passes + 1 if move.lower() == "pass" else 0
            for stones in ("black", "white"):
                assert ours.send(f"list_stones {stones}") == theirs.send(f"list_stones {stones}"), (
                    played,
                    move,
                )
            color = "w" if color == "b" else "b"
            played += 1
        assert played == moves or passes == 2 or move == "resign"
