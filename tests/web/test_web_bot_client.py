"""The example bot (examples/bot_client.py, a separate process speaking the protocol only) plays a whole
game in a bot seat against the built-in AI."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
from service_fakes import CHANNEL

from bot.host.seats import User
from bot.host.store import GameStatus
from bot.web.links import Role, program_number
from scrabble_core.game import EventKind, Game
from tests.web.web_harness import MakeWeb

EXAMPLE = Path(__file__).parents[2] / "examples" / "bot_client.py"


@pytest.mark.parametrize("variant", ["standard", pytest.param("infinite", marks=pytest.mark.slow)])
async def test_the_example_bot_plays_a_whole_game_against_the_ai(make_web: MakeWeb, variant: str) -> None:
    web = await make_web((User(-21, "Robot"),), ai=1, variant=variant)  # a program's seat: a negative user id
    token = web.signer.token(web.game_id(), Role.BOT, program_number(-21))
    url = str(web.test_server.make_url("/ws"))
    process = await asyncio.create_subprocess_exec(
        sys.executable, str(EXAMPLE), "--url", url, "--token", token, stdout=asyncio.subprocess.PIPE
    )
    output, _ = await asyncio.wait_for(process.communicate(), 240)
    assert process.returncode == 0
    assert web.harness.store is not None
    row = await web.harness.store.last_finished_game(CHANNEL, "scrabble")
    assert row is not None and row.status is GameStatus.FINISHED and row.state is not None
    game = Game.from_dict(row.state)
    plays = [e for e in game.history if e.player == 0 and e.kind is EventKind.PLAY]
    assert len(plays) >= 5
    assert any(len(e.move.split()[1]) >= 4 for e in plays)
    assert output.decode().strip() == f"game over, scores: {[p.score for p in game.players]}"
