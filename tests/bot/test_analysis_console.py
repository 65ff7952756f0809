"""``analyze`` in the terminal: the real console, store, lexicon and AI workers, on a finished game."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from analysis_fakes import known_game, store_finished
from test_console import cache, lines, run  # noqa: F401 (cache: the fixture of the lexicon caches)

from bot.games.scrabble.console.app import GUILD
from bot.host.store import Store
from scrabble_core.lexicon import Lexicon


async def finished_console_game(db: Path, lexicon: Lexicon) -> int:
    store = await Store.open(db)
    try:
        return (await store_finished(store, known_game(lexicon), GUILD, GUILD)).id
    finally:
        await store.close()


@pytest.mark.usefixtures("cache")
async def test_analyze_prints_the_report_of_the_last_finished_game(
    tmp_path: Path, enable_lexicon: Lexicon
) -> None:
    db = tmp_path / "console.sqlite3"
    game_id = await finished_console_game(db, enable_lexicon)
    code, script = await run(db, lines(), "--analyze")
    assert code == 0
    output = script.output
    assert "\rAnalysing move 1/22…\rAnalysing move 2/22…" in output
    assert (
        f"\rAnalysed 22 moves.\nAnalysis of game {game_id} (Ann vs Bob) at the expert level:\nAnalysis (expert):\n"
        in output
    )
    assert re.search(
        r"^  7\. Ann, with EEHINNR: played ERRHINE at 13C \(across\) for 30; the best was INHERENT at L1 "
        r"\(down\) for 74: 44 points more, \d+\.\d better counting the tiles kept; missed bingo$",
        output,
        re.MULTILINE,
    )
    for name in ("Ann", "Bob"):
        assert re.search(
            rf"^{name}: \d+ of 11 turns within 1 point of the best play, \d+\.\d points lost in all "
            r"\(counting the tiles kept\)$",
            output,
            re.MULTILINE,
        )
    again, second = await run(db, lines(), "--analyze", str(game_id))  # stored: no progress this time
    assert again == 0
    assert "Analysing" not in second.output
    heading = f"Analysis of game {game_id} "
    assert second.output[second.output.index(heading) :] == output[output.index(heading) :]


@pytest.mark.usefixtures("cache")
async def test_analyze_at_the_prompt_without_a_finished_game_says_so(tmp_path: Path) -> None:
    code, script = await run(tmp_path / "c.sqlite3", lines("analyze", "quit"), "--players", "Ann")
    assert code == 0
    assert "No console game has finished yet: play one to the end first" in script.output
