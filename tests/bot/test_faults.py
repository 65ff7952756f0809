"""The service and the store under faults, on real SQLite files: a crash between the commit and the
announcement, a database locked by another connection or full, unreadable games, a second process on
the same file, damaged, read-only and newer databases, numbers too large for SQLite."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from service_fakes import (
    ALICE,
    BOB,
    CHANNEL,
    CREATOR_FIRST_SEED,
    GUILD,
    Harness,
    find_play,
    make_config,
    open_harness,
    scrabble_row,
    settle,
    started_game,
    typed,
)

import bot.host.store.opening
from bot.games.scrabble.commands import NewGame, User
from bot.games.scrabble.options import ScrabbleOptions
from bot.host.errors import NoGameError, StorageBusyError, StorageFullError, StorageRangeError
from bot.host.runner import THINKING_NOTICE_AFTER
from bot.host.store import (
    MIGRATIONS_DIR,
    CorruptDatabaseError,
    DatabaseInUseError,
    GameStatus,
    IntegerRangeError,
    ReadOnlyDatabaseError,
    SchemaTooNewError,
    SeatRow,
    Store,
)
from scrabble_core.ai import Level
from scrabble_core.game import SCHEMA_VERSION, ChallengeMode
from tests.pg_cluster import PgCluster, query

CHILD = Path(__file__).parent / "crash_child.py"
BUSY_MESSAGE = "Storage is busy, retrying: the game goes on once it is saved."


async def eventually(condition: Callable[[], bool], seconds: float = 20.0) -> None:
    """Wait (in real time: the store works in a thread) until ``condition()`` holds."""
    for _ in range(int(seconds / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the condition never held")


@pytest.fixture
def quick_busy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Stores opened in the test give up on another connection's write lock after 50 ms."""
    monkeypatch.setattr(bot.host.store.opening, "DEFAULT_BUSY_TIMEOUT", 0.05)


def write_lock(path: Path) -> sqlite3.Connection:
    """A second connection on ``path`` holding its write lock (``BEGIN IMMEDIATE``) until rolled back."""
    blocker = sqlite3.connect(path, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    return blocker


# Announcements survive a crash ------------------------------------------------------------------


async def test_a_play_committed_but_not_announced_is_announced_once_after_a_restart(tmp_path: Path) -> None:
    # What a service that does not crash announces for Alice's move.
    (tmp_path / "reference").mkdir()
    reference = await open_harness(tmp_path / "reference")
    await started_game(reference)
    posts, dms = len(reference.notifier.posts), len(reference.notifier.dms)
    play = find_play(reference.svc.game(CHANNEL), 0)
    assert play is not None
    await reference.svc.play(CHANNEL, ALICE.id, typed(play))
    await reference.svc.idle()
    expected_posts, expected_dms = reference.notifier.posts[posts:], reference.notifier.dms[dms:]
    expected_state = reference.svc.game(CHANNEL).to_dict()
    await reference.close()
    assert [len(message.attachments) for _, message in expected_posts] == [1]
    assert expected_posts[0][1].mentions == (BOB.id,)
    assert expected_dms == []  # the answer to Alice's play carries her new rack

    # The same move in a process killed 5 to 30 ms into its announcement, after the commit.
    (tmp_path / "crash").mkdir()
    harness = await open_harness(tmp_path / "crash")
    await started_game(harness)
    await harness.close()
    child = await asyncio.create_subprocess_exec(
        sys.executable, str(CHILD), str(harness.path), stdout=subprocess.PIPE
    )
    assert child.stdout is not None
    assert await asyncio.wait_for(child.stdout.readline(), 60) == b"announcing\n"
    await asyncio.sleep(random.Random(9).uniform(0.005, 0.030))
    child.send_signal(signal.SIGKILL)
    assert await child.wait() == -signal.SIGKILL

    posts, dms = len(harness.notifier.posts), len(harness.notifier.dms)
    await harness.open()
    assert harness.notifier.posts[posts:] == expected_posts
    assert harness.notifier.dms[dms:] == expected_dms
    assert harness.svc.game(CHANNEL).to_dict() == expected_state
    await harness.restart()  # delivered once: not again
    assert harness.notifier.posts[posts:] == expected_posts
    assert harness.notifier.dms[dms:] == expected_dms
    await harness.close()


async def test_a_start_committed_but_not_announced_is_announced_once_after_a_restart(
    tmp_path: Path,
) -> None:
    async def lobby(harness: Harness) -> None:
        await harness.svc.new_game(GUILD, CHANNEL, ALICE, NewGame(seed=CREATOR_FIRST_SEED))
        await harness.svc.join(CHANNEL, BOB)

    (tmp_path / "reference").mkdir()
    reference = await open_harness(tmp_path / "reference")
    await lobby(reference)
    await reference.svc.idle()
    posts, dms = len(reference.notifier.posts), len(reference.notifier.dms)
    await reference.svc.start_game(CHANNEL, ALICE.id)
    await reference.svc.idle()
    expected_posts, expected_dms = reference.notifier.posts[posts:], reference.notifier.dms[dms:]
    await reference.close()
    assert expected_posts[0][1].text.startswith("The game has started.\nDraw for the first turn: ")
    assert [user for user, _ in expected_dms] == [BOB.id]  # Alice's rack is in the answer to her start

    (tmp_path / "crash").mkdir()
    harness = await open_harness(tmp_path / "crash")
    await lobby(harness)
    await harness.close()
    child = await asyncio.create_subprocess_exec(
        sys.executable, str(CHILD), "--start", str(harness.path), stdout=subprocess.PIPE
    )
    assert child.stdout is not None
    assert await asyncio.wait_for(child.stdout.readline(), 60) == b"announcing\n"
    child.send_signal(signal.SIGKILL)
    assert await child.wait() == -signal.SIGKILL

    posts, dms = len(harness.notifier.posts), len(harness.notifier.dms)
    await harness.open()
    assert harness.notifier.posts[posts:] == expected_posts
    assert harness.notifier.dms[dms:] == expected_dms
    await harness.restart()  # delivered once: not again
    assert harness.notifier.posts[posts:] == expected_posts
    assert harness.notifier.dms[dms:] == expected_dms
    await harness.close()


async def test_an_unsent_announcement_of_a_game_that_moved_on_is_dropped(tmp_path: Path) -> None:
    harness = await open_harness(tmp_path)
    await started_game(harness)
    assert harness.store is not None
    game = harness.svc.game(CHANNEL)
    play = find_play(game, 0)
    assert play is not None
    await harness.svc.play(CHANNEL, ALICE.id, typed(play))
    await harness.close()
    with sqlite3.connect(harness.path) as db:  # the announcement of the start, as a crash would leave it
        db.execute(
            "INSERT INTO outbox (game_id, data, created_at) VALUES "
            '(1, \'{"move": 0, "events": [], "lines": ["The game has started."], "racks": [0, 1]}\', 0)'
        )
    posts, dms = len(harness.notifier.posts), len(harness.notifier.dms)
    await harness.open()
    assert (len(harness.notifier.posts), len(harness.notifier.dms)) == (posts, dms)
    assert harness.store is not None
    assert await harness.store.pending_outbox() == []
    await harness.close()


# A failed write never freezes a game ------------------------------------------------------------


async def test_a_locked_database_during_an_ai_turn_is_retried_until_it_is_free(
    tmp_path: Path, quick_busy: None, caplog: pytest.LogCaptureFixture
) -> None:
    harness = await open_harness(tmp_path)
    await started_game(harness, (ALICE,), ai=1)
    gate = harness.ai.gate = asyncio.Event()
    play = find_play(harness.svc.game(CHANNEL), 0)
    assert play is not None
    posts = len(harness.notifier.posts)
    await harness.svc.play(CHANNEL, ALICE.id, typed(play))
    await settle()
    await harness.clock.advance(THINKING_NOTICE_AFTER)
    await settle()
    assert harness.notifier.typings == [CHANNEL]  # the AI thinks: Alice's play waits for its move
    assert len(harness.notifier.posts) == posts
    blocker = write_lock(harness.path)
    gate.set()
    await eventually(lambda: harness.notifier.texts()[-1] == BUSY_MESSAGE)
    await harness.clock.advance(0.5)
    await eventually(lambda: "retry 2 in 1.0 s" in caplog.text)
    await harness.clock.advance(1.0)
    await eventually(lambda: "retry 3 in 2.0 s" in caplog.text)
    assert harness.svc.game(CHANNEL).current == 1  # nothing changed meanwhile
    blocker.rollback()
    await harness.clock.advance(2.0)
    await harness.svc.idle()
    assert harness.svc.game(CHANNEL).current == 0  # the AI's move is saved: the game goes on
    texts = harness.notifier.texts()
    assert texts.count(BUSY_MESSAGE) == 1
    assert texts[-1].startswith("Alice played ") and "\n\nAI played " in texts[-1]
    assert texts[-1].endswith(
        f"Next: Alice (<@{ALICE.id}>). {len(harness.svc.game(CHANNEL).bag)} tiles in the bag."
    )
    blocker.close()
    await harness.close()


@pytest.mark.parametrize(
    ("reminder_left", "wait", "outcome"),
    [
        (0.0, 60.0, "Alice ran out of time."),
        (0.5, 30.0, f"<@{ALICE.id}>, it is your turn: 30 seconds left."),
    ],
)
async def test_a_locked_database_at_a_timeout_or_reminder_is_retried(
    tmp_path: Path, quick_busy: None, reminder_left: float, wait: float, outcome: str
) -> None:
    harness = await open_harness(tmp_path, make_config(reminder_left=reminder_left))
    await started_game(harness, turn_seconds=60)
    blocker = write_lock(harness.path)
    await harness.clock.advance(wait)
    await eventually(lambda: harness.notifier.texts()[-1] == BUSY_MESSAGE)
    blocker.rollback()
    blocker.close()
    await harness.clock.advance(0.5)
    await eventually(lambda: harness.notifier.texts()[-1].startswith(outcome))
    assert harness.notifier.texts().count(BUSY_MESSAGE) == 1
    await harness.close()


# Storage errors reach users typed ---------------------------------------------------------------


async def test_a_busy_database_refuses_commands_and_changes_nothing(tmp_path: Path, quick_busy: None) -> None:
    harness = await open_harness(tmp_path)
    await started_game(harness, hints=2)
    before = harness.svc.game(CHANNEL).to_dict()
    posts = len(harness.notifier.posts)
    play = find_play(harness.svc.game(CHANNEL), 0)
    assert play is not None
    blocker = write_lock(harness.path)
    message = r"^The database is busy, try again in a moment \(nothing was changed\)$"
    with pytest.raises(StorageBusyError, match=message):
        await harness.svc.play(CHANNEL, ALICE.id, typed(play))
    with pytest.raises(StorageBusyError, match=message):
        await harness.svc.hint(CHANNEL, ALICE.id)
    with pytest.raises(StorageBusyError, match=message):
        await harness.svc.new_game(GUILD, CHANNEL + 5, BOB)
    blocker.rollback()
    blocker.close()
    assert harness.svc.game(CHANNEL).to_dict() == before
    assert len(harness.notifier.posts) == posts
    hint = await harness.svc.hint(CHANNEL, ALICE.id)
    assert hint.text.startswith("Hint 1 of 2, for your rack")
    await harness.svc.play(CHANNEL, ALICE.id, typed(play))  # and it works once the lock is gone
    assert harness.svc.game(CHANNEL).current == 1
    await harness.close()


async def test_a_full_database_refuses_a_play_and_changes_nothing(tmp_path: Path) -> None:
    harness = await open_harness(tmp_path)
    await started_game(harness)
    assert harness.store is not None
    db = harness.store._db  # the size limit is a setting of the store's own connection
    row = await db.fetchone("PRAGMA page_count")
    assert row is not None
    await db.execute(f"PRAGMA max_page_count = {row[0]}")
    users = (ALICE, BOB)
    message = r"^The database is full, so nothing was changed: the bot's host must free some disk space$"
    for _ in range(40):  # plays fill the free space of the pages the file has, then one needs a page
        game = harness.svc.game(CHANNEL)
        play = find_play(game, game.current)
        assert play is not None
        await harness.svc.delivered()  # the last play's announcement is out before counting the posts
        before = (game.to_dict(), await harness.store.open_games(), len(harness.notifier.posts))
        try:
            await harness.svc.play(CHANNEL, users[game.current].id, typed(play))
        except StorageFullError as error:
            assert re.match(message, str(error))
            break
    else:
        raise AssertionError("the database never filled up")
    after = (
        harness.svc.game(CHANNEL).to_dict(),
        await harness.store.open_games(),
        len(harness.notifier.posts),
    )
    assert after == before
    await db.execute(f"PRAGMA max_page_count = {1 << 30}")
    await harness.svc.play(CHANNEL, users[game.current].id, typed(play))
    assert harness.svc.game(CHANNEL).current != game.current
    await harness.close()


# Numbers too large for SQLite ---------------------------------------------------------------------


async def test_numbers_too_large_for_sqlite_are_refused_before_any_write(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "db.sqlite3")
    draft = scrabble_row(
        0,
        1,
        5,
        7,
        GameStatus.LOBBY,
        ScrabbleOptions("standard", ChallengeMode.VOID, 0, 3, Level.MEDIUM),
        2**63,
        None,
        (SeatRow(0, 7, "Ann"),),
    )
    with pytest.raises(
        IntegerRangeError, match=r"^The seed must be between -9223372036854775808 and 9223372036854775807$"
    ):
        await store.create_game(draft, [])
    assert await store.open_games() == []
    await store.close()
    harness = await open_harness(tmp_path)
    with pytest.raises(
        StorageRangeError,
        match=r"^The creator id must be between -9223372036854775808 and 9223372036854775807: nothing was changed$",
    ):
        await harness.svc.new_game(GUILD, CHANNEL, User(2**63, "Big"))
    with pytest.raises(NoGameError):
        harness.svc.game(CHANNEL)
    await harness.svc.new_game(GUILD, CHANNEL, ALICE)  # the channel is free
    await harness.close()


# One unreadable game never stops the bot -----------------------------------------------------------


BREAKAGES = {
    "truncated JSON": "UPDATE games SET state = substr(state, 1, 100) WHERE id = ?",
    "unknown schema": "UPDATE games SET state = json_set(state, '$.schema', 999) WHERE id = ?",
    "missing option": "UPDATE games SET options = json_remove(options, '$.variant') WHERE id = ?",
    "missing first seat": "DELETE FROM seats WHERE game_id = ? AND seat = 0",
    "missing last seat": "DELETE FROM seats WHERE game_id = ? AND seat = 1",
    "state not UTF-8": "UPDATE games SET state = CAST(x'7b22ff' AS TEXT) WHERE id = ?",
    "seat name not UTF-8": "UPDATE seats SET name = CAST(x'426fff' AS TEXT) WHERE game_id = ? AND seat = 1",
    "state a blob": "UPDATE games SET state = CAST(state AS BLOB) WHERE id = ?",
    "guild id text": "UPDATE games SET guild_id = 'a guild' WHERE id = ?",
    "deadline text": "UPDATE games SET deadline = 'soon' WHERE id = ?",
}
MARKS = [
    "JSONDecodeError: Unterminated string starting at: line 1 column ",
    f"ScrabbleError: saved game of schema 999, expected {SCHEMA_VERSION}",
    "KeyError: 'variant'",
    "ValueError: seats [1] are not numbered 0, 1, 2...",
    "ValueError: 1 seats for 2 players",
    "UndecodableTextError: text that is not UTF-8 (invalid start byte at byte 2): b'{\"\\xff'",
    "UndecodableTextError: text that is not UTF-8 (invalid start byte at byte 2): b'Bo\\xff'",
    "TypeError: the column state holds a blob, not text or NULL",
    "TypeError: the column guild_id holds text, not an integer",
    "TypeError: the column deadline holds text, not a real or NULL",
]


async def start_games(harness: Harness, channels: list[int]) -> None:
    """Start a game of Alice and Bob in each of ``channels``, seeded with its channel id."""
    for channel in channels:
        await harness.svc.new_game(GUILD, channel, ALICE, NewGame(seed=channel))
        await harness.svc.join(channel, BOB)
        await harness.svc.start_game(channel, ALICE.id)


def raw_rows(path: Path, table: str) -> list[tuple[object, ...]]:
    """Every row of ``table``, text as bytes (some may not be UTF-8)."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.text_factory = bytes
        return db.execute(f"SELECT * FROM {table} ORDER BY 1, 2").fetchall()


async def test_unreadable_games_are_quarantined_and_the_others_start(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    harness = await open_harness(tmp_path)
    channels = [CHANNEL + index for index in range(len(BREAKAGES) + 1)]
    await start_games(harness, channels)
    await harness.close()
    with sqlite3.connect(harness.path) as db:
        for game_id, statement in enumerate(BREAKAGES.values(), start=1):
            db.execute(statement, (game_id,))
    broken, seats = raw_rows(harness.path, "games"), raw_rows(harness.path, "seats")
    caplog.set_level(logging.ERROR)
    await harness.open()
    sound = channels[-1]
    assert harness.svc.game(sound).current == 0  # the sound game started
    for channel in channels[:-1]:
        with pytest.raises(NoGameError):
            harness.svc.game(channel)
    with sqlite3.connect(harness.path) as db:
        marks = db.execute("SELECT id, quarantined FROM games ORDER BY id").fetchall()
        column = [info[1] for info in db.execute("PRAGMA table_info(games)")].index("quarantined")
    assert raw_rows(harness.path, "games") == [
        (*row[:column], None if mark is None else mark.encode(), *row[column + 1 :])
        for row, (_, mark) in zip(broken, marks, strict=True)
    ]  # left untouched but for the mark
    assert raw_rows(harness.path, "seats") == seats
    assert [mark[: len(expected)] for (_, mark), expected in zip(marks, MARKS, strict=False)] == MARKS
    assert [mark is None for _, mark in marks] == [False] * len(BREAKAGES) + [True]
    for game_id in range(1, len(BREAKAGES) + 1):
        assert f"game {game_id} cannot be " in caplog.text
    await harness.svc.new_game(GUILD, channels[0], BOB)  # the channel of a quarantined game is free
    await harness.restart()  # quarantined games are not read again
    assert sorted(table.row.id for table in harness.svc.host.tables.values()) == [
        len(BREAKAGES) + 1,
        len(BREAKAGES) + 2,
    ]
    await harness.close()


def damage_text_of(path: Path, game_id: int, rng: random.Random) -> None:
    """Overwrite one byte of game ``game_id``'s state, where it lies in the file ``path``, by a byte that
    cannot be UTF-8 there (any byte of 0x80 or more in place of an ASCII one)."""
    with contextlib.closing(sqlite3.connect(path)) as db:
        (state,) = db.execute("SELECT state FROM games WHERE id = ?", (game_id,)).fetchone()
    data = bytearray(path.read_bytes())
    text = state.encode()
    while True:  # a window that is not split across pages (a long state overflows into others)
        start = rng.randrange(len(text) - 16)
        offset = data.find(text[start : start + 16])
        if offset >= 0 and data.find(text[start : start + 16], offset + 1) < 0:
            break
    data[offset + rng.randrange(16)] = rng.randrange(0x80, 0x100)
    path.write_bytes(data)


async def test_random_page_damage_quarantines_or_refuses_and_never_stops_the_others(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Half the cases damage bytes anywhere past the header page, half one byte of a game's state: the
    bot refuses the file with its start-up message, or starts with every game it can read."""
    harness = await open_harness(tmp_path)
    channels = [CHANNEL + index for index in range(4)]
    await start_games(harness, channels)
    await harness.close()
    sound = tmp_path / "sound.sqlite3"
    shutil.copyfile(harness.path, sound)
    pages = sound.stat().st_size // 4096
    rng = random.Random(29)
    outcomes = []
    caplog.set_level(logging.ERROR)
    for case in range(24):
        shutil.copyfile(sound, harness.path)
        target = None
        if case % 2:
            target = rng.randrange(len(channels))
            damage_text_of(harness.path, target + 1, rng)
        else:
            data = bytearray(harness.path.read_bytes())
            at = 4096 * rng.randrange(1, pages) + rng.randrange(4096 - 8)
            data[at : at + 8] = rng.randbytes(8)
            harness.path.write_bytes(data)
        try:
            await harness.open()
        except CorruptDatabaseError:
            outcomes.append("refused")
            assert target is None
            continue
        with contextlib.closing(sqlite3.connect(harness.path)) as db:
            marks = dict(db.execute("SELECT id, quarantined FROM games WHERE quarantined IS NOT NULL"))
        for index, channel in enumerate(channels):
            if index + 1 in marks:
                with pytest.raises(NoGameError):
                    harness.svc.game(channel)
            else:
                assert harness.svc.game(channel).current == 0
        if target is not None:
            assert list(marks) == [target + 1]
            assert marks[target + 1].startswith("UndecodableTextError: text that is not UTF-8 (")
        outcomes.append("quarantined" if marks else "started")
        await harness.close()
    assert outcomes.count("quarantined") >= 12, outcomes


async def test_text_that_is_not_utf8_in_a_postgresql_database_is_quarantined(
    tmp_path: Path, pg_cluster: PgCluster
) -> None:
    """An ``SQL_ASCII`` database takes any byte, as another program may have written it."""
    import psycopg

    with psycopg.connect(pg_cluster.url(), autocommit=True) as connection:
        connection.execute(
            "CREATE DATABASE ascii TEMPLATE template0 ENCODING 'SQL_ASCII' LC_COLLATE 'C' LC_CTYPE 'C'"
        )
    harness = await open_harness(tmp_path, database=pg_cluster.url("ascii"))
    channels = [CHANNEL + index for index in range(3)]
    await start_games(harness, channels)
    await harness.close()
    query(
        pg_cluster.url("ascii"),
        "UPDATE games SET state = E'{\\xff' WHERE id = 1",
        "UPDATE seats SET name = E'Bo\\xff' WHERE game_id = 2 AND seat = 1",
    )
    await harness.open()
    assert harness.svc.game(channels[2]).current == 0
    for channel in channels[:2]:
        with pytest.raises(NoGameError):
            harness.svc.game(channel)
    marks = query(pg_cluster.url("ascii"), "SELECT id, quarantined FROM games ORDER BY id")
    assert [(game_id, mark if mark is None else str(mark, "utf-8")) for game_id, mark in marks] == [  # type: ignore[call-overload]
        (1, 'UndecodableTextError: invalid byte sequence for encoding "UTF8": 0xff'),
        (2, 'UndecodableTextError: invalid byte sequence for encoding "UTF8": 0xff'),
        (3, None),
    ]
    await harness.close()


# Start-up checks ------------------------------------------------------------------------------------


def damaged_copy(path: Path, page: int) -> Path:
    """A copy of the database ``path`` with the start of page ``page`` overwritten."""
    copy = path.with_name(f"damaged-{page}.sqlite3")
    data = bytearray(path.read_bytes())
    data[4096 * (page - 1) : 4096 * (page - 1) + 40] = b"\xab" * 40
    copy.write_bytes(data)
    return copy


async def test_a_damaged_database_gets_the_start_up_message_of_an_unopenable_one(tmp_path: Path) -> None:
    harness = await open_harness(tmp_path)
    await started_game(harness)
    await harness.close()
    advice = "Restore it from a backup, or move it aside to start with an empty database"
    for page in (2, 5):  # found by SQLite's check; failing the check itself
        damaged = damaged_copy(harness.path, page)
        with pytest.raises(CorruptDatabaseError) as refused:
            await Store.open(damaged)
        assert str(refused.value) == (
            f"cannot open the database {damaged}: database disk image is malformed. {advice}"
        )
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"not a database" * 500)
    with pytest.raises(CorruptDatabaseError) as unopenable:
        await Store.open(junk)
    assert str(unopenable.value) == f"cannot open the database {junk}: file is not a database. {advice}"
    with pytest.raises(CorruptDatabaseError):  # a refused open leaves no lock behind
        await Store.open(junk)
    await (await Store.open(harness.path)).close()  # the intact file still opens


async def test_a_schema_from_the_future_is_refused_at_start(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    await (await Store.open(path)).close()
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA user_version = 99")
    with pytest.raises(SchemaTooNewError) as refused:
        await Store.open(path)
    assert str(refused.value) == (
        f"the database {path} has schema version 99, newer than this program's "
        f"({len(list(MIGRATIONS_DIR.glob('*.sql')))}): it was written by a "
        "newer version. Upgrade this program, or use another database file"
    )
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA user_version").fetchone() == (99,)


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    """A directory anyone may write in (for a test that drops root's privileges)."""
    directory = Path(tempfile.mkdtemp(prefix="scrabble-ro-"))
    directory.chmod(0o777)
    yield directory
    shutil.rmtree(directory)


def test_a_read_only_database_is_refused_at_start(shared_dir: Path) -> None:
    path = shared_dir / "db.sqlite3"
    asyncio.run(_open_and_close(path))
    path.chmod(0o444)
    expected = (
        f"the database {path} is read-only: make the file and its directory writable by this user, "
        "or use another database file"
    )
    assert _open_as_unprivileged_user(path) == f"ReadOnlyDatabaseError: {expected}"
    assert ReadOnlyDatabaseError.__mro__[1] is bot.host.store.opening.StoreOpenError


async def _open_and_close(path: Path) -> None:
    await (await Store.open(path)).close()


def _open_as_unprivileged_user(path: Path) -> str:
    """Open ``path`` with :meth:`Store.open` as a user who is not root (root writes any file): in a
    forked child that drops to ``nobody`` when this runs as root. What it raised, as ``Type: text``."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns to pytest
        os.close(read)
        try:
            if os.geteuid() == 0:
                os.setgid(65534)
                os.setuid(65534)
            try:
                asyncio.run(_open_and_close(path))
                outcome = "opened"
            except Exception as error:
                outcome = f"{type(error).__name__}: {error}"
            os.write(write, outcome.encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        outcome = pipe.read().decode()
    os.waitpid(pid, 0)
    return outcome


# One writer per database -----------------------------------------------------------------------------


async def _holder(path: Path) -> asyncio.subprocess.Process:
    holder = await asyncio.create_subprocess_exec(
        sys.executable, str(CHILD), "--hold", str(path), stdout=subprocess.PIPE
    )
    assert holder.stdout is not None
    assert await asyncio.wait_for(holder.stdout.readline(), 60) == b"open\n"
    return holder


async def test_a_second_process_on_the_same_database_is_refused_until_the_first_dies(tmp_path: Path) -> None:
    path = tmp_path / "db.sqlite3"
    holder = await _holder(path)
    message = (
        f"the database {path} is in use by another scrabble-bot or console (it holds {path}.lock): "
        "stop that one first, or use another database file"
    )
    with pytest.raises(DatabaseInUseError) as refused:
        await Store.open(path)
    assert str(refused.value) == message
    second = await asyncio.create_subprocess_exec(
        sys.executable, str(CHILD), "--hold", str(path), stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    out, err = await asyncio.wait_for(second.communicate(), 60)
    assert second.returncode == 1
    assert out == b""
    assert err.decode().strip().endswith(f"bot.host.store.opening.DatabaseInUseError: {message}")
    holder.send_signal(signal.SIGKILL)  # the OS releases the lock of a killed process
    assert await holder.wait() == -signal.SIGKILL
    store = await Store.open(path)
    with pytest.raises(DatabaseInUseError):
        await Store.open(path)  # one store per process too
    await store.close()
    await (await Store.open(path)).close()


def test_a_second_console_on_the_same_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "console.sqlite3"
    holder = subprocess.Popen([sys.executable, str(CHILD), "--hold", str(path)], stdout=subprocess.PIPE)
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline() == b"open\n"
        second = subprocess.run(
            [sys.executable, "-m", "bot", "play", "--db", str(path), "--players", "Ann"],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    finally:
        holder.kill()
        holder.wait()
    assert second.returncode == 1
    assert second.stderr.splitlines()[-1] == (
        f"scrabble-bot play: the database {path} is in use by another scrabble-bot or console (it holds "
        f"{path}.lock): stop that one first, or use another database file"
    )
