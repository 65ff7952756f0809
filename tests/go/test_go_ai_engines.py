"""The Go AIs of the front ends (bot/games/go/engines.py): GNU Go over GTP, its time limit, and the built-in
fallback."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from bot.games.go.engines import BuiltinAI, GnuGoAI, Level, find_gnugo, make_ai
from go_core import Color, Game, Point


def _game(moves: list[str], size: int = 9) -> Game:
    game = Game(size)
    for move in moves:
        game.pass_turn() if move == "pass" else game.play(move)
    return game


def test_gnu_go_plays_legal_moves_for_either_colour(gnugo: Path) -> None:
    ai = GnuGoAI(gnugo, Level.EASY, seed=1, seconds=30)
    try:
        game = _game(["E5", "C3"])
        for _ in range(6):
            move = ai.choose(game)
            assert isinstance(move, Point)
            game.play(move)
        white = ai.choose(game, Color.WHITE)
        assert isinstance(white, Point) and game.is_legal(white, Color.WHITE)
        assert ai.name == "GNU Go (level 1)"
    finally:
        ai.close()


def test_gnu_go_names_the_dead_stones(gnugo: Path) -> None:
    rows = [
        "...XO....",
        "...XO....",
        "...XO.O..",
        "...XO....",
        "...XO..X.",
        "...XO....",
        "...XO.O..",
        "...XO....",
        "...XO....",
    ]
    game = Game(9)
    for number, row in enumerate(rows):
        for col, symbol in enumerate(row):
            if symbol != ".":
                game.play(
                    Point(col, 8 - number), Color.BLACK if symbol == "X" else Color.WHITE, any_turn=True
                )
    game.pass_turn()
    game.pass_turn()
    ai = GnuGoAI(gnugo, Level.EASY, seconds=30)
    try:
        assert ai.dead_stones(game) == {Point.parse("H5", 9)}
    finally:
        ai.close()


def test_an_engine_that_does_not_answer_is_killed_and_the_builtin_ai_plays(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    silent = tmp_path / "silent-engine"
    silent.write_text(f"#!/bin/sh\necho $$ > {pid_file}\nexec sleep 60\n")
    silent.chmod(0o755)
    ai = GnuGoAI(silent, Level.EASY, seed=2, seconds=0.5)
    game = _game(["E5"])
    start = time.monotonic()
    move = ai.choose(game)
    assert time.monotonic() - start < 5
    assert isinstance(move, Point) and game.is_legal(move)
    pid = int(pid_file.read_text())
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
    assert ai.dead_stones(_game(["E5", "pass", "pass"])) == frozenset()
    ai.close()


def test_make_ai_falls_back_to_the_builtin_ai(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("SCRABBLE_GNUGO", str(tmp_path / "no-such-gnugo"))
    assert find_gnugo() is None
    ai = make_ai(Level.HARD, seed=1, seconds=0.3)
    assert isinstance(ai, BuiltinAI)
    assert ai.name == "built-in AI (hard)"
    with pytest.raises(FileNotFoundError, match=r"^GNU Go is not installed"):
        make_ai(engine="gnugo")


def test_the_builtin_ai_returns_in_its_time() -> None:
    ai = BuiltinAI(Level.HARD, seed=1, seconds=0.3)
    game = Game(19)
    start = time.monotonic()
    move = ai.choose(game)
    assert time.monotonic() - start < 3
    assert isinstance(move, Point)
