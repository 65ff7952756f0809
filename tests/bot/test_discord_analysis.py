"""``/scrabble analyze`` through discord.py against the fake Discord: progress edits, then the result."""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest
from analysis_fakes import KNOWN_MOVES, InlinePool, known_game, store_finished
from discord_fake import BotHarness, FakeDiscord, MakeHarness, integer_option

from bot.discord.delivery import PROGRESS_SECONDS
from bot.games.scrabble.analysis import MOVE_TIMEOUT
from bot.games.scrabble.images.analysis_chart import render_loss_chart
from scrabble_core.lexicon import Lexicon
from scrabble_core.movegen import MoveGenerator, load_move_generator

EPHEMERAL = 64
DEFERRED = 5
ANSWERED_WITHIN = len(KNOWN_MOVES) * MOVE_TIMEOUT
"""The analysis's answer comes within its turns' timeouts (each turn searches for the analysis's budget,
a few seconds where the searches run in Python)."""


@pytest.fixture(scope="module")
def generator(enable_lexicon: Lexicon, tmp_path_factory: pytest.TempPathFactory) -> MoveGenerator:
    return load_move_generator(enable_lexicon, tmp_path_factory.mktemp("movegen"))


def bool_option(name: str, value: bool) -> dict[str, Any]:
    return {"name": name, "type": 5, "value": value}


async def with_finished_game(
    make_harness: MakeHarness, lexicon: Lexicon, generator: MoveGenerator
) -> tuple[BotHarness, InlinePool, int]:
    harness = await make_harness()
    pool = InlinePool(generator)
    harness.service.use_pool(pool, render_loss_chart)
    row = await store_finished(
        harness.store, known_game(lexicon), harness.payloads.guild_id, harness.payloads.channel_id
    )
    return harness, pool, row.id


async def test_analyze_edits_its_progress_then_answers_privately(
    make_harness: MakeHarness, enable_lexicon: Lexicon, generator: MoveGenerator
) -> None:
    harness, pool, game_id = await with_finished_game(make_harness, enable_lexicon, generator)
    payload = harness.payloads.slash("analyze")
    callback = await harness.ack(payload)
    assert callback.json == {"type": DEFERRED, "data": {"flags": EPHEMERAL}}
    (result,) = await harness.fake.followups_for(payload, timeout=ANSWERED_WITHIN)
    original = f"/webhooks/{harness.fake.application_id}/{payload['token']}/messages/@original"
    edits = [r for r in harness.fake.requests if r.method == "PATCH" and r.path == original]
    # The progress, edited at most once a second: the first move's at once, then the newest each time.
    said = [*(f"Analysing move {n}/22…" for n in range(1, 23)), "Analysed 22 moves."]
    shown = [edit.content for edit in edits]
    assert shown[0] == said[0]
    assert shown == sorted(shown, key=said.index)  # in order, each one said once at most
    times = [edit.received_at for edit in edits]
    assert all(later - earlier > PROGRESS_SECONDS - 0.05 for earlier, later in itertools.pairwise(times))
    assert harness.fake.requests.index(edits[-1]) < harness.fake.requests.index(result)
    assert result.ephemeral
    heading, fence, ann = result.content.split("\n")[:3]
    assert (heading, fence) == (f"Analysis of game {game_id} (Ann vs Bob) at the expert level:", "```")
    assert re.fullmatch(
        r"Ann: \d+ of 11 turns within 1 point of the best play, \d+\.\d points lost in all \(counting the tiles kept\)",
        ann,
    )
    assert result.filenames == [f"analysis-{game_id}.png", f"analysis-{game_id}.txt"]
    assert len(pool.calls) == 22
    assert harness.fake.channel_messages(harness.payloads.channel_id) == []  # nothing posted in the channel


async def test_analyze_in_public_with_a_game_id_reuses_the_stored_analysis(
    make_harness: MakeHarness, enable_lexicon: Lexicon, generator: MoveGenerator
) -> None:
    harness, pool, game_id = await with_finished_game(make_harness, enable_lexicon, generator)
    private = await harness.reply(harness.payloads.slash("analyze"), timeout=ANSWERED_WITHIN)
    payload = harness.payloads.slash(
        "analyze", [integer_option("game_id", game_id), bool_option("public", True)]
    )
    callback = await harness.ack(payload)
    assert callback.json == {"type": DEFERRED}  # public "thinking"
    (public,) = await harness.fake.followups_for(payload)
    assert not public.ephemeral
    assert public.content == private.content
    assert len(pool.calls) == 22  # the first analysis only
    original = f"/webhooks/{harness.fake.application_id}/{payload['token']}/messages/@original"
    assert [r for r in harness.fake.requests if r.method == "PATCH" and r.path == original] == []


async def test_analyze_without_a_finished_game_says_so(make_harness: MakeHarness) -> None:
    harness = await make_harness()
    reply = await harness.reply(harness.payloads.slash("analyze", [integer_option("game_id", 5)]))
    assert reply.ephemeral
    assert reply.content == "No finished game 5 in this server"


async def test_every_command_group_fits_discords_limit_of_25_subcommands(
    make_harness: MakeHarness, fake_discord: FakeDiscord
) -> None:
    await make_harness(sync_commands=True)
    (put,) = fake_discord.find("PUT", "/applications/")
    groups = {command["name"]: command["options"] for command in put.json if command["type"] == 1}
    assert len(groups["scrabble"]) == 25
    assert all(len(options) <= 25 for options in groups.values())
    assert {"analyze", "puzzle", "solve"} <= {c["name"] for c in groups["scrabble"]}
    assert not {"link", "export"} & {c["name"] for c in groups["scrabble"]}
