"""The host is game-agnostic: a third game, written for the tests only against the host's interface and
registered by one line (:data:`PACKAGE`, in :func:`third_game`), plays whole games through the host with
no edit anywhere else: through the fake Discord (its commands, its buttons, the turn message), against
the AI in the host's own AI workers, on both databases with ratings, and across a restart with ``kill -9``
in the middle. And the host imports no game; the third game's package is the only place that names it.
"""

from __future__ import annotations

import ast
import asyncio
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from discord_fake import MakeHarness, Payloads, integer_option
from service_fakes import (
    GUILD,
    AnyWord,
    FakeClock,
    RecordingNotifier,
    SimpleAdvisor,
    SimpleAi,
    games_host,
    make_config,
)

from bot.host import registry
from bot.host.ai.executor import AiExecutor
from bot.host.ai.jobs import WorkerConfig
from bot.host.registry import GameModule
from bot.host.runner import Host
from bot.host.seats import User
from bot.host.store import GameStatus, Store

PACKAGE = "tests.bot.connect_four"
"""The third game's package: the one line that adds it registers it (:func:`third_game`)."""

ROOT = Path(__file__).resolve().parents[2]
CHANNEL = 4000
ALICE, BOB = User(11, "Alice"), User(12, "Bob")
ALICE_WINS = (1, 2, 1, 2, 1, 2, 1)
"""Columns in turn, Alice first: four of hers in column 1."""


@pytest.fixture(autouse=True)
def third_game() -> Iterator[GameModule]:
    """The third game, registered for the test (and forgotten after it)."""
    game = registry.register(PACKAGE)
    yield game
    registry.unregister(game.kind)


async def open_host(database: Path | str, notifier: RecordingNotifier, **options: Any) -> tuple[Store, Host]:
    store = await Store.open(database)
    config = make_config(**options)
    host = await games_host(
        config, store, notifier, AnyWord(), SimpleAi(), SimpleAdvisor(), clock=FakeClock()
    )
    await host.start()
    return store, host


async def test_a_whole_game_through_discord_commands_and_buttons(
    make_harness: MakeHarness, third_game: GameModule
) -> None:
    harness = await make_harness()
    kind, payloads = third_game.kind, harness.payloads
    bob = Payloads(application_id=payloads.application_id, user_id=payloads.user_id + 1, user_name="bob")
    opened = await harness.reply(payloads.slash("new", group=kind))
    assert (opened.content, opened.ephemeral) == ("Game created.", True)
    game = harness.host.tables[payloads.channel_id].row.id
    lobby = harness.fake.last_with_button(payloads.channel_id, f"{kind}:join:{game}")
    joined = await harness.reply(bob.component(lobby, f"{kind}:join:{game}"))
    assert joined.content == "You joined the game."
    turn = harness.fake.last_with_button(payloads.channel_id, f"{kind}:drop-1:{game}")
    assert turn["content"].endswith("Alice to move.")
    for number, column in enumerate(ALICE_WINS):
        player = payloads if number % 2 == 0 else bob
        if number % 2:  # Bob clicks the turn message's button; Alice types the command
            button = f"{kind}:drop-{column}:{game}"
            message = harness.fake.last_with_button(payloads.channel_id, button)
            reply = await harness.reply(player.component(message, button))
        else:
            reply = await harness.reply(player.slash("drop", [integer_option("column", column)], group=kind))
        assert reply.content == f"You dropped a disc in column {column}.", reply.content
    final = harness.fake.channel_messages(payloads.channel_id)[-1]
    assert final["content"].startswith("Alice dropped a disc in column 1.\n```")
    assert final["content"].endswith("Alice wins!")
    # The stale button of an earlier turn is refused: the game is over.
    stale = await harness.reply(bob.component(turn, f"{kind}:drop-2:{game}"))
    assert (stale.content, stale.ephemeral) == ("That game is over", True)
    ratings = await harness.store.ratings(payloads.guild_id, kind)
    assert [(r.name, r.games) for r in ratings] == [("Alice", 1), ("Bob", 1)]
    assert ratings[0].rating.mu > ratings[1].rating.mu
    stats = await harness.store.stats(payloads.guild_id, kind, payloads.user_id)
    assert stats is not None and (stats.games, stats.wins, stats.draws) == (1, 1, 0)


async def test_against_the_ai_on_both_databases_with_a_restart_and_ratings(
    store_database: Path | str, third_game: GameModule
) -> None:
    notifier = RecordingNotifier()
    store, host = await open_host(store_database, notifier)
    try:
        four = host.commands[third_game.kind]
        await four.new_game(GUILD, CHANNEL, ALICE, ai_level="easy")
        await host.idle()
        await four.drop(CHANNEL, ALICE.id, 4)
        await host.idle()
        before = four.board(CHANNEL).to_dict()
        assert sum(len(column) for column in before["columns"]) == 2  # the AI answered
    finally:
        await host.close()
        await store.close()
    store, host = await open_host(store_database, notifier)  # a restart: the game resumes exactly
    try:
        four = host.commands[third_game.kind]
        assert four.board(CHANNEL).to_dict() == before
        while host.tables.get(CHANNEL) is not None:  # Alice plays on until the game ends
            board = four.board(CHANNEL)
            await four.drop(CHANNEL, ALICE.id, board.legal()[0] + 1)
            await host.idle()
        row = await store.last_finished_game(CHANNEL, third_game.kind)
        assert row is not None and row.status is GameStatus.FINISHED and row.result is not None
        ratings = {r.player: r.games for r in await store.ratings(GUILD, third_game.kind)}
        assert ratings == {"user:11": 1, "ai:easy": 1}
        assert await store.ratings(GUILD, "scrabble") == []  # its own ratings
    finally:
        await host.close()
        await store.close()


async def test_the_ai_workers_serve_its_jobs(third_game: GameModule) -> None:
    async with AiExecutor(WorkerConfig(games=(PACKAGE,))) as pool:
        empty = {"columns": [[]] * 7, "turn": 0, "winner": None, "resigned": None}
        assert await pool.ask(third_game.kind, {"board": empty}, 10.0) == "3"  # the centre
        three = {**empty, "columns": [[0, 0, 0], *[[]] * 6]}
        assert await pool.ask(third_game.kind, {"board": three}, 10.0) == "0"  # four in column 1


CHILD = """
import asyncio, sys
sys.path.insert(0, "tests/bot")
from service_fakes import GUILD, AnyWord, RecordingNotifier, SimpleAdvisor, SimpleAi, games_host, make_config
from bot.host import registry
from bot.host.seats import User
from bot.host.store import Store

class Hanging(RecordingNotifier):
    armed = False
    async def post(self, channel_id, message):
        if not self.armed:
            return await super().post(channel_id, message)
        print("announcing", flush=True)
        await asyncio.Event().wait()

async def main(database, package):
    kind = registry.register(package).kind
    notifier = Hanging()
    store = await Store.open(database)
    host = await games_host(make_config(), store, notifier, AnyWord(), SimpleAi(), SimpleAdvisor())
    await host.start()
    four = host.commands[kind]
    await four.new_game(GUILD, 4000, User(11, "Alice"))
    await four.join(4000, User(12, "Bob"))
    await host.idle()
    notifier.armed = True
    await four.drop(4000, 11, 4)
    await host.idle()

asyncio.run(main(sys.argv[1], sys.argv[2]))
"""


async def test_a_drop_committed_but_not_announced_is_announced_once_after_kill_9(
    tmp_path: Path, third_game: GameModule
) -> None:
    database = tmp_path / "games.sqlite3"
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-c", CHILD, str(database), PACKAGE, cwd=ROOT, stdout=subprocess.PIPE
    )
    assert child.stdout is not None
    assert await asyncio.wait_for(child.stdout.readline(), 60) == b"announcing\n"
    child.send_signal(signal.SIGKILL)
    assert await child.wait() == -signal.SIGKILL
    notifier = RecordingNotifier()
    store, host = await open_host(database, notifier)
    try:
        await host.delivered()
        (announced,) = notifier.texts(CHANNEL)  # the drop, once
        assert announced.startswith("Alice dropped a disc in column 4.\n```")
        assert announced.endswith("Bob to move.")
        four = host.commands[third_game.kind]
        await four.drop(CHANNEL, BOB.id, 4)  # the game goes on
        assert four.board(CHANNEL).columns[3] == [0, 1]
    finally:
        await host.close()
        await store.close()
    store, host = await open_host(database, RecordingNotifier())
    try:
        assert await store.pending_outbox() == []  # not announced again
    finally:
        await host.close()
        await store.close()


def test_its_package_is_the_only_place_that_names_it() -> None:
    package = ROOT / PACKAGE.replace(".", "/")
    names = ["connect" + between + "four" for between in ("_", "-", " ", "")]
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True)
    untracked = subprocess.run(
        ["git", "ls-files", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    naming = []
    for name in {*tracked.stdout.split(), *untracked.stdout.split()}:
        path = ROOT / name
        if not path.is_file() or path.is_relative_to(package):
            continue
        text = path.read_bytes().decode("utf-8", errors="ignore").lower()
        if any(word in text for word in names):
            naming.append(name)
    assert naming == ["tests/bot/test_third_game.py"]
    this = Path(__file__).read_text(encoding="utf-8").lower()
    assert sum(this.count(word) for word in names) == 1  # PACKAGE, the one registration line's


def _imports(path: Path, package: str) -> set[str]:
    """The modules ``path`` (a module of ``package``) imports, relative imports resolved."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            module = ".".join(part for part in (base, node.module or "") if part)
            found.add(module)
    return found


@pytest.mark.parametrize("folder", ["bot/host", "bot/discord"])
def test_the_host_and_the_discord_adapter_import_no_game(folder: str) -> None:
    games = ("bot.games", "scrabble_core", "go_core", "tests")
    for path in sorted((ROOT / folder).rglob("*.py")):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
        imported = _imports(path, package)
        assert not [name for name in imported if name.startswith(games)], (module, sorted(imported))
