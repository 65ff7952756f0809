"""``scrabble-bot go`` in the terminal: hot-seat and AI games to the end, saving and --resume, the record
and the image, with scripted input."""

from __future__ import annotations

import fcntl
import io
import json
import os
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.console.terminal import Terminal
from bot.console.terminal_board import Style
from bot.games.go.console.cli import main
from bot.games.go.console.text_board import draw_go_board
from bot.games.go.sgf import import_sgf
from bot.games.scrabble.console import cli as scrabble_cli
from bot.host.store import lock_path
from go_core import Game


class Script:
    """A terminal that reads the given lines (then end of input) and keeps what is written."""

    def __init__(self, lines: list[str]) -> None:
        self._lines: Iterator[str] = iter(lines)
        self.output = ""
        self.terminal = Terminal(self._read, self._write, Style.PLAIN)

    def _read(self, prompt: str) -> str:
        self.output += prompt
        try:
            line = next(self._lines)
        except StopIteration:
            raise EOFError from None
        self.output += f"{line}\n"
        return line

    def _write(self, text: str) -> None:
        self.output += text


def _run(tmp_path: Path, options: list[str], lines: list[str]) -> tuple[int, str]:
    script = Script(lines)
    code = main(
        [*options, "--dir", str(tmp_path / "go"), "--db", str(tmp_path / "db.sqlite3")], script.terminal
    )
    return code, script.output


def _saved(tmp_path: Path, number: int = 1) -> dict[str, Any]:
    """The stored state of game ``number``: the engine's game as :meth:`go_core.Game.to_dict` writes it."""
    with sqlite3.connect(tmp_path / "db.sqlite3") as db:
        (state,) = db.execute("SELECT state FROM games WHERE id = ?", (number,)).fetchone()
    return {"game": json.loads(state)["game"]}


def test_a_hot_seat_game_is_played_to_the_count(tmp_path: Path) -> None:
    code, output = _run(
        tmp_path,
        ["--players", "Ann,Bob", "--size", "5"],
        ["C3", "bogus", "C3", "I3", "pass", "pass", "accept"],
    )
    assert code == 0
    assert "Game 1: Ann (Black) vs Bob (White). 5×5, komi 7.5, area scoring." in output
    assert "Black (Ann)> C3\n" in output
    assert "Unknown command 'bogus': type a point such as D4, or help for the commands" in output
    assert "C3 is already occupied" in output
    assert "'I3' is not a point: Go coordinates skip I (… H, J …)" in output
    assert "3 . .(X). . 3" in output, "the last stone in parentheses"
    assert "3 , , X , , 3" in output, "Black's territory as commas once both passed"
    assert output.endswith(
        "Black 25 (stones 1 + territory 24), White 7.5 (stones 0 + territory 0 + komi 7.5): "
        "Black wins by 17.5. Result: B+17.5\n"
    )
    assert _saved(tmp_path)["game"] == {
        "format": 1,
        "size": 5,
        "komi": 7.5,
        "handicap": 0,
        "free_handicap": [],
        "method": "area",
        "actions": ["B C3", "W pass", "B pass"],
        "dead": [],
        "accepted": ["B", "W"],
        "resigned": None,
        "timed_out": None,
    }


def test_dead_stones_are_marked_and_play_can_resume(tmp_path: Path) -> None:
    lines = ["C3", "A1", "pass", "pass", "dead a1", "dead A1", "resume", "B2", "pass", "pass", "accept"]
    code, output = _run(tmp_path, ["--players", "Ann,Bob", "--size", "5"], lines)
    assert code == 0
    assert "1 o , , , , 1" in output, "the lone white stone is proposed dead"
    assert "The group of 1 at A1 is marked alive\nBlack 1 (stones 1 + territory 0), White 8.5" in output
    assert "The group of 1 at A1 is marked dead\nBlack 25 (stones 1 + territory 24)" in output
    assert "Play resumes: Black to move" in output
    assert "Result: B+17.5" in output


def test_a_game_is_saved_on_quit_and_resumed(tmp_path: Path) -> None:
    code, output = _run(tmp_path, ["--players", "Ann,Bob", "--size", "7"], ["D4", "quit"])
    assert code == 0
    assert output.endswith("The game is saved: continue it with scrabble-bot go --resume 1\n")
    code, output = _run(tmp_path, ["--list"], [])
    assert output == "Game 1: Ann (Black) vs Bob (White), 7×7, move 2\n"
    code, output = _run(tmp_path, ["--resume"], ["D4", "E4", "quit"])
    assert "White (Bob)> D4\nD4 is already occupied\nWhite (Bob)> E4\n" in output
    assert _saved(tmp_path)["game"]["actions"] == ["B D4", "W E4"]
    code, output = _run(tmp_path, [], ["later", "y", "resign", "sure", "y"])
    question = (
        "An unfinished game is saved: game 1 (Ann (Black) vs Bob (White), 7×7, move 3). Continue it? [Y/n]"
    )
    assert f"{question} later\nAnswer y or n (Enter: y).\n{question} y\n" in output
    resign = "Resign this game? [y/N]"
    assert f"{resign} sure\nAnswer y or n (Enter: n).\n{resign} y\n" in output
    assert output.endswith("White wins by resignation. Result: W+R\n")
    code, output = _run(tmp_path, ["--resume", "1"], [])
    assert (code, output) == (2, "There is no unfinished game to resume: start one with scrabble-bot go\n")


def test_a_game_against_the_builtin_ai(tmp_path: Path) -> None:
    options = ["--players", "Ann", "--size", "5", "--engine", "builtin", "--level", "easy", "--seed", "4"]
    code, output = _run(tmp_path, options, ["C3", "undo", "B2", "resign", "n", "quit"])
    assert code == 0
    assert "Game 1: Ann (Black) vs built-in AI (easy) (White). 5×5" in output
    assert "White (built-in AI (easy)) plays " in output
    assert "Taken back: W " in output
    game = _saved(tmp_path)["game"]
    assert game["actions"][0] == "B B2"
    assert len(game["actions"]) == 2


def test_the_record_and_the_image_are_written(tmp_path: Path) -> None:
    record, image = tmp_path / "game.sgf", tmp_path / "board.png"
    lines = ["E5", f"sgf {record}", f"image {image}", "sgf", f"image {tmp_path}/missing/b.png", "quit"]
    code, output = _run(tmp_path, ["--players", "Ann,Bob", "--size", "9"], lines)
    assert code == 0
    assert f"The game record is written to {record}" in output
    assert "sgf needs a file name, e.g. sgf game.sgf" in output
    assert f"Cannot write {tmp_path}/missing/b.png: No such file or directory" in output
    assert [str(move) for move in import_sgf(record.read_text()).game.moves] == ["B E5"]
    assert Image.open(io.BytesIO(image.read_bytes())).size == (792, 844)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["--size", "26"], "not 26: Go coordinates name columns A to Z skipping I, which gives 25 columns"),
        (["--size", "10", "--handicap", "5"], "A handicap on 10×10 is 2 to 4 stones, not 5"),
    ],
)
def test_games_the_engine_refuses_are_usage_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], options: list[str], message: str
) -> None:
    code, _ = _run(tmp_path, options, [])
    assert code == 2
    assert message in capsys.readouterr().err


def test_the_colour_drawing_uses_wood_stones_and_an_orange_last_move() -> None:
    game = Game(5)
    game.play("C3")
    game.play("B2")
    drawing = draw_go_board(game, Style.RICH)
    lines = drawing.splitlines()
    assert lines[0] == "  A B C D E"
    assert lines[3].startswith("3\x1b[48;5;179m ")
    assert "\x1b[38;5;16m●" in lines[3], "Black's stone"
    assert "\x1b[48;5;208m\x1b[38;5;231m●" in lines[4], "White's last stone on orange"
    assert lines[3].endswith("\x1b[0m 3")


OLD_SAVES = Path(__file__).parent / "old_saves"
"""Two games saved by the terminal Go of e3d7772 (``bot/go/saves.py``): a hot-seat 9×9 game and a 7×7
game against the built-in AI, three moves each."""


def test_games_saved_in_files_are_brought_into_the_database_once(tmp_path: Path) -> None:
    directory = tmp_path / "go"
    directory.mkdir()
    for name in ("game-1.json", "game-2.json"):
        shutil.copy(OLD_SAVES / name, directory / name)
    code, output = _run(tmp_path, ["--list"], [])
    assert (code, output) == (
        0,
        "No game is saved: start one with scrabble-bot go\n"
        f"2 more saved by an earlier version in {directory}: they get their ids the next time "
        "scrabble-bot go runs\n",
    )
    code, output = _run(tmp_path, [], [])
    assert code == 0
    assert sorted(path.name for path in directory.iterdir()) == [
        "game-1.json.imported",
        "game-2.json.imported",
    ]
    listed = (
        "Game 1: Ann (Black) vs Bob (White), 9×9, move 4\n"
        "Game 2: built-in AI (easy) (Black) vs Cy (White), 7×7, move 4\n"
    )
    code, output = _run(tmp_path, ["--list"], [])
    assert (code, output) == (0, listed)
    code, output = _run(tmp_path, ["--resume", "1"], ["D5", "quit"])
    assert "Game 1: Ann (Black) vs Bob (White). 9×9, komi 6.5, area scoring." in output
    assert "White plays D5\n" in output
    assert _saved(tmp_path, 1)["game"]["actions"] == ["B D4", "W E4", "B C3", "W D5"]
    assert _saved(tmp_path, 2)["game"]["actions"] == ["B D2", "W C3", "B C4"]
    code, output = _run(tmp_path, ["--list"], [])
    assert output == (
        "Game 2: built-in AI (easy) (Black) vs Cy (White), 7×7, move 4\n"
        "Game 1: Ann (Black) vs Bob (White), 9×9, move 5\n"
    ), "the game played last at the end, and no file brought in twice"


def test_listing_needs_no_lock_and_no_dictionary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _run(tmp_path, ["--players", "Ann,Bob", "--size", "7"], ["D4", "quit"])
    database = tmp_path / "db.sqlite3"
    holder = os.open(lock_path(database), os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(holder, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as a console playing beside it holds it
        code, output = _run(tmp_path, ["--list"], [])
        assert (code, output) == (0, "Game 1: Ann (Black) vs Bob (White), 7×7, move 2\n")

        def no_dictionary(*args: object) -> None:
            raise AssertionError("the dictionary is loaded")

        monkeypatch.setattr(scrabble_cli, "_load_words", no_dictionary)
        capsys.readouterr()
        assert scrabble_cli.main(["--list", "--db", str(database)]) == 0
        assert capsys.readouterr().out == "No game is saved: start one with scrabble-bot play\n"
    finally:
        os.close(holder)


def test_the_terminal_shows_no_discord_wording(tmp_path: Path) -> None:
    options = ["--players", "Ann", "--size", "5", "--engine", "builtin", "--level", "easy", "--seed", "4"]
    code, output = _run(tmp_path, options, ["C3", "undo", "B2", "pass", "pass", "accept"])
    assert code == 0
    hot_seat = _run(
        tmp_path, ["--players", "Cy,Di", "--size", "5"], ["C3", "undo", "C3", "pass", "pass", "accept"]
    )
    for text in (output, hot_seat[1]):
        assert "Result: " in text
        for discord in ("/go", "<@", "button", "Join", "DM"):
            assert discord not in text


def test_listing_an_older_database_says_to_open_it_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _run(tmp_path, ["--players", "Ann,Bob", "--size", "7"], ["D4", "quit"])
    database = tmp_path / "db.sqlite3"
    with sqlite3.connect(database) as db:
        (version,) = db.execute("PRAGMA user_version").fetchone()
        db.execute(f"PRAGMA user_version = {version - 1}")
    code, output = _run(tmp_path, ["--list"], [])
    assert (code, output) == (1, "")
    assert capsys.readouterr().err == (
        f"scrabble-bot go: the database {database} was written by an earlier version: open it once to play "
        "(which upgrades it), then it can be read\n"
    )
    code, output = _run(tmp_path, ["--list"], [])
    assert code == 1, "listing changes nothing: still not upgraded"
