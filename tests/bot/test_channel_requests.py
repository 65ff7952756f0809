"""Whole games in a channel through discord.py against the fake Discord with Discord's rate limits
enforced (``bench/channel.py``): the REST requests a move (interaction answers aside), the 429s, and
every rack reaching its player."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Final

import pytest

ROOT: Final = Path(__file__).resolve().parents[2]
MOST_REQUESTS_A_MOVE: Final = 1.2
COUNTS: Final = re.compile(
    r"Moves: (\d+)\. REST requests \(interaction answers aside\): (\d+), [0-9.]+ a move\. "
    r"Interaction answers: (\d+), [0-9.]+ a move\.\n429 answers met: (\d+)\. "
    r"Racks shown to their player before their turn: (\d+) of (\d+)\."
)


@pytest.mark.slow
def test_whole_games_take_one_request_a_move_within_discords_limits_and_every_rack_reaches_its_player(
    tmp_path: Path,
) -> None:
    subprocess.run(
        [sys.executable, str(ROOT / "bench" / "channel.py"), str(tmp_path)],
        check=True,
        capture_output=True,
        timeout=900,
    )
    for game in ("two-humans", "against-the-ai"):
        found = COUNTS.search((tmp_path / f"{game}.md").read_text())
        assert found is not None, game
        moves, rest, answers, limited, seen, racks = (int(number) for number in found.groups())
        assert moves >= 20, game  # a whole game
        assert rest <= MOST_REQUESTS_A_MOVE * moves, (game, rest, moves)
        assert answers >= racks  # the people's moves were answered
        assert limited == 0, game
        assert seen == racks > 0, game
