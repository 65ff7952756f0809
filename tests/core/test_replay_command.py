"""``python -m scrabble_core replay``: prints each event with the engine's figures, exits 1 naming a bad line."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import pytest

from scrabble_core.__main__ import main
from scrabble_core.game import Game
from scrabble_core.gcg import export_gcg
from scrabble_core.variant import get_variant


class _Named:
    """A word list that calls itself ENABLE and accepts every word."""

    name = "ENABLE"

    def __contains__(self, word: object) -> bool:
        return True


ENABLE_NAMED = _Named()

RECORD = """\
#character-encoding UTF-8
#player1 ann Ann Example
#player2 bob Bob Example
>ann: DINNVWY 8D WINDY +32 32
>bob: ADEEGIL 7C GALE +16 16
>ann: AEJNOSV E3 JAVE..N +34 66
>bob: DEILOVX -X +0 16
>ann: AEOSTUZ - +0 66
"""


def _run(args: list[str]) -> tuple[int, str]:
    out = io.StringIO()
    return main(args, out), out.getvalue()


def test_replay_prints_every_event_with_the_engines_score(tmp_path: Path) -> None:
    path = tmp_path / "game.gcg"
    path.write_text(RECORD, encoding="utf-8")
    status, output = _run(["replay", str(path), "--no-lexicon"])
    assert status == 0
    assert output.splitlines() == [
        "line 4: ann 8D WINDY +32 32  (WINDY 32)",
        "line 5: bob 7C GALE +16 16  (GALE 7 + AW 5 + LI 2 + EN 2 = 16)",
        "line 6: ann E3 JAVE..N +34 66  (JAVELIN 34)",
        "line 7: bob -X +0 16",
        "line 8: ann - +0 66",
        "5 moves, every score and total matches",
    ]


def test_replay_checks_words_with_the_lexicon(tmp_path: Path, enable_lexicon: object) -> None:
    path = tmp_path / "game.gcg"
    path.write_text(RECORD, encoding="utf-8")
    status, _ = _run(["replay", str(path)])
    assert status == 0


def test_replay_names_the_line_of_a_wrong_score(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.gcg"
    path.write_text(RECORD.replace("GALE +16 16", "GALE +18 18"), encoding="utf-8")
    status, _ = _run(["replay", str(path), "--no-lexicon"])
    assert status == 1
    assert capsys.readouterr().err == (
        "python -m scrabble_core replay: error: line 5: 7C GALE scores +16 by the engine, the record says +18\n"
    )


def test_replay_names_the_line_of_a_wrong_total(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.gcg"
    path.write_text(RECORD.replace("JAVE..N +34 66", "JAVE..N +34 67"), encoding="utf-8")
    status, _ = _run(["replay", str(path), "--no-lexicon"])
    assert status == 1
    assert capsys.readouterr().err == (
        "python -m scrabble_core replay: error: line 6: ann's total is 66 by the engine, the record says 67\n"
    )


def test_replay_of_a_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, _ = _run(["replay", str(tmp_path / "none.gcg")])
    assert status == 1
    assert "none.gcg: no such file" in capsys.readouterr().err


def test_replay_uses_the_records_variant_and_lexicon(tmp_path: Path, make_game: Callable[..., Game]) -> None:
    # A Super Scrabble game exported with the default lexicon replays without flags.
    game = make_game(["AEIQTUZ", "AEIOSTX"], variant=get_variant("super"), lexicon=ENABLE_NAMED)
    game.play(0, "11k quiz")  # the start square of the 21x21 board is K11
    game.play(1, "m10 x.")
    path = tmp_path / "super.gcg"
    path.write_text(export_gcg(game), encoding="utf-8")
    status, output = _run(["replay", str(path)])
    assert status == 0
    assert output.splitlines()[-1] == "2 moves, every score and total matches"
    # On the standard board, K11 is not the start square.
    status, _ = _run(["replay", str(path), "--variant", "standard"])
    assert status == 1


def test_replay_of_a_game_of_another_lexicon_needs_its_word_list(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.gcg"
    path.write_text(RECORD.replace("#player1", "#lexicon NWL23\n#player1"), encoding="utf-8")
    status, _ = _run(["replay", str(path)])
    assert status == 1
    assert capsys.readouterr().err == (
        "python -m scrabble_core replay: error: the game was played with NWL23: give its word list with "
        "--lexicon FILE, or replay it with --no-lexicon\n"
    )
    words = tmp_path / "nwl.txt"
    words.write_text("WINDY\nGALE\nAW\nLI\nEN\nJAVELIN\n", encoding="utf-8")
    assert _run(["replay", str(path), "--lexicon", str(words)])[0] == 0
    assert _run(["replay", str(path), "--no-lexicon"])[0] == 0


class _ClosedPipe(io.StringIO):
    """An output whose reader went away after the first line."""

    def write(self, text: str) -> int:
        if self.getvalue():
            raise BrokenPipeError(32, "Broken pipe")
        return super().write(text)


def test_replay_survives_a_closed_pipe(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.gcg"
    path.write_text(RECORD, encoding="utf-8")
    out = _ClosedPipe()
    assert main(["replay", str(path), "--no-lexicon"], out) == 141
    assert out.getvalue() == "line 4: ann 8D WINDY +32 32  (WINDY 32)\n"
    assert capsys.readouterr().err == ""
