"""``python -m scrabble_core replay``: prints each event with the engine's figures, exits 1 naming a bad line."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from scrabble_core.__main__ import main

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
