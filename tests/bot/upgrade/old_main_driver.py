"""Plays the games of the upgrade test's database with the code of main at commit ``e3d7772`` (before the
host and its plugins): ``make_old_databases.py`` runs it in a copy of that commit's tree, once on SQLite
and once on PostgreSQL. It is never imported by the tests: it speaks that commit's API.

``python old_main_driver.py DATABASE`` (an SQLite file or a ``postgresql://`` URL) leaves in it:

- game 1: a finished, rated Scrabble game of Alice and Bob (Bob resigned), with its analysis;
- game 2: a finished Go game of Alice and Bob on 9×9 (Bob resigned);
- game 3: a Scrabble game of Alice against the AI, being played, its last announcement unsent;
- game 4: a Go game of Alice and Bob, being played, its last announcement unsent;
- game 5: a Scrabble lobby of Carol;
- game 6: a timed Scrabble game of Bob and Carol, Bob reminded that his time runs out;
- a puzzle of the guild with Alice's answer, and the analysis feature turned off in another guild.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

sys.path.insert(0, str(Path.cwd() / "tests" / "bot"))

from bot.service.game_service import GameService, NewGame
from bot.service.go import GoNewGame
from bot.service.go.ai import ThreadGoAi
from bot.store import PuzzleAnswer, Store
from service_fakes import (
    ALICE,
    BOB,
    CAROL,
    GUILD,
    AnyWord,
    FakeClock,
    QuickRenderer,
    RecordingNotifier,
    SimpleAdvisor,
    SimpleAi,
    find_play,
    make_config,
    typed,
)

from scrabble_core.ai import seat_view
from scrabble_core.game import Game

FINISHED_SCRABBLE, FINISHED_GO, PLAYING_SCRABBLE, PLAYING_GO, LOBBY, TIMED = (
    2000,
    3000,
    2001,
    3001,
    2002,
    2003,
)
TIME_LIMIT = 600


def quick_board(game: object, *, black: str = "Black", white: str = "White") -> bytes:
    return b"go board"


async def main(database: str) -> None:
    store = await Store.open(database)
    clock = FakeClock()
    service = GameService(
        make_config(),
        store,
        AnyWord(),
        RecordingNotifier(),
        SimpleAi(),
        SimpleAdvisor(),
        renderer=QuickRenderer(),
        clock=clock,
        new_seed=lambda: 2,  # the creator draws first
        go_ai=ThreadGoAi(0.05, "builtin"),
        go_renderer=quick_board,
    )
    await service.start()
    go = service.go
    assert go is not None
    # Game 1: Alice plays twice, Bob once, then Bob resigns: finished and rated.
    await service.new_game(GUILD, FINISHED_SCRABBLE, ALICE, NewGame(seed=2))
    await service.join(FINISHED_SCRABBLE, BOB)
    await service.start_game(FINISHED_SCRABBLE, ALICE.id)
    for user in (ALICE, BOB, ALICE):
        game = service.game(FINISHED_SCRABBLE)
        play = find_play(game, game.current)
        assert play is not None
        await service.play(FINISHED_SCRABBLE, user.id, typed(play))
        clock._now += 60
    await service.resign(FINISHED_SCRABBLE, BOB.id)
    # Game 2: a Go game Bob resigns.
    await go.new_game(GUILD, FINISHED_GO, ALICE, GoNewGame(size=9, opponent=BOB.id, seed=3))
    await go.join(FINISHED_GO, BOB)
    await go.play(FINISHED_GO, ALICE.id, "E5")
    await go.play(FINISHED_GO, BOB.id, "C3")
    await go.resign(FINISHED_GO, BOB.id)
    # Game 3: Alice against the AI, two moves each.
    await service.new_game(GUILD, PLAYING_SCRABBLE, ALICE, NewGame(ai_opponents=1, ai_level="hard", seed=2))
    await service.start_game(PLAYING_SCRABBLE, ALICE.id)
    for _ in range(2):
        game = service.game(PLAYING_SCRABBLE)
        play = find_play(game, game.current)
        await service.play(PLAYING_SCRABBLE, ALICE.id, typed(play)) if play else await service.pass_turn(
            PLAYING_SCRABBLE, ALICE.id
        )
        await service.idle()
    # Game 4: Go being played.
    await go.new_game(GUILD, PLAYING_GO, ALICE, GoNewGame(size=9, opponent=BOB.id, seed=4, komi=6.5))
    await go.join(PLAYING_GO, BOB)
    for user, point in ((ALICE, "E5"), (BOB, "D4"), (ALICE, "F6")):
        await go.play(PLAYING_GO, user.id, point)
    # Game 5: a lobby.
    await service.new_game(GUILD, LOBBY, CAROL, NewGame(seed=5))
    # Game 6: Bob's first turn in a timed game, past its reminder.
    await service.new_game(GUILD, TIMED, BOB, NewGame(turn_seconds=TIME_LIMIT, seed=2))
    await service.join(TIMED, CAROL)
    await service.start_game(TIMED, BOB.id)
    await service.idle()
    await clock.advance(TIME_LIMIT - 1)
    await service.idle()
    await go.idle()
    # The analysis of game 1, a puzzle and its answer, a feature off elsewhere.
    await store.save_analysis(
        1, "hard", {"level": "hard", "names": ["Alice", "Bob"], "moves": []}, clock.now()
    )
    finished = await store.game(1)
    assert finished is not None and finished.state is not None
    view = seat_view(Game.from_dict(finished.state), 0).to_dict()
    puzzle = {"source": "game 1, turn 0", "view": view, "best": [["8D QI", 22, 24.5]]}
    await store.add_puzzle(GUILD, "2026-01-01", puzzle, clock.now())
    answer = PuzzleAnswer(GUILD, "2026-01-01", ALICE.id, "Alice", "8D QI", 10, True, clock.now())
    assert await store.add_puzzle_answer(answer)
    await store.set_feature(GUILD + 1, "analysis", False)
    await service.close()
    await store.close()


def unsend_last_announcements(database: str) -> None:
    """Leave the last announcement of the games being played unsent (as a crash before delivery)."""
    sql = (
        "UPDATE outbox SET sent_at = NULL, posted_at = NULL WHERE id IN "
        "(SELECT MAX(id) FROM outbox WHERE game_id IN (3, 4) GROUP BY game_id)"
    )
    if database.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(database, autocommit=True) as connection:
            connection.execute(sql)
    else:
        import sqlite3

        with sqlite3.connect(database) as connection:
            connection.execute(sql)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
    unsend_last_announcements(sys.argv[1])
