"""Hundreds of malformed or hostile inputs thrown at the service: each is refused with a specific
error and changes nothing (in memory, in the database, in the channel or the DMs)."""

from __future__ import annotations

import random
import string
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from service_fakes import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    OTHER_CHANNEL,
    Harness,
    open_harness,
    started_game,
)

from bot.games.scrabble.commands import NewGame
from bot.games.scrabble.errors import HintError, WordError
from bot.host.errors import (
    AlreadySeatedError,
    GameExistsError,
    GameNotStartedError,
    GameStartedError,
    LobbyError,
    NoGameError,
    NotAllowedError,
    NotEnoughPlayersError,
    NotSeatedError,
    OptionError,
    ServiceError,
)
from scrabble_core.errors import (
    ChallengeError,
    IllegalMoveError,
    InvalidMoveError,
    NotYourTurnError,
    ScrabbleError,
)

CASES = 600
Case = tuple[Callable[[], Awaitable[object]], tuple[type[Exception], ...]]
UNKNOWN_CHANNEL = 987_654


def garbage(rng: random.Random, lacking: str) -> str:
    """A hostile text: random printable or unicode, huge, or notation-like with tiles the player lacks."""
    kind = rng.randrange(7)
    if kind == 0:
        return "".join(rng.choice(string.printable) for _ in range(rng.randrange(0, 40)))
    if kind == 1:
        return rng.choice(["A", "8H ", "\x00", "é", "🙂"]) * rng.randrange(1_000, 50_000)
    if kind == 2:
        return "".join(chr(rng.randrange(0x80, 0x2FFF)) for _ in range(rng.randrange(1, 20)))
    if kind == 3:
        coordinate = rng.choice(["8H", "H8", "A1", "O15", "15O", "Z9", "99A", "8", "H", "0A", "-1H"])
        word = "".join(rng.choice(lacking) for _ in range(rng.randrange(1, 9)))
        return f"{coordinate} {word}"
    if kind == 4:
        return rng.choice(
            ["", " ", "\n", "-", "--", "8H", "8H QUIZ QUIZ", "?", "??", "8H ?", "8H .", "8H ..A"]
        )
    if kind == 5:
        return "".join(rng.choice(lacking + "?.,;") for _ in range(rng.randrange(1, 12)))
    return "8H " + "".join(rng.choice(string.ascii_letters + "?.") for _ in range(rng.randrange(16, 40)))


async def snapshot(harness: Harness) -> object:
    assert harness.store is not None
    rows = await harness.store.open_games()
    logs = [len(await harness.store.log(row.id)) for row in rows]
    game = harness.svc.game(CHANNEL).to_dict()
    return rows, logs, game, len(harness.notifier.posts), len(harness.notifier.dms)


async def test_hostile_inputs_are_refused_and_change_nothing(tmp_path: Path) -> None:
    harness = await open_harness(tmp_path)
    try:
        await started_game(harness, seed=2, hints=0)
        service = harness.svc
        await service.new_game(GUILD, OTHER_CHANNEL, CAROL)  # a lobby next door
        rack = service.game(CHANNEL).players[0].rack
        assert "?" not in rack
        lacking = "".join(letter for letter in string.ascii_uppercase if letter not in rack)
        before = await snapshot(harness)
        rng = random.Random(1234)

        def case() -> Case:
            text = garbage(rng, lacking)
            channel = rng.choice([CHANNEL, CHANNEL, UNKNOWN_CHANNEL])
            where: tuple[type[Exception], ...] = (NoGameError,) if channel == UNKNOWN_CHANNEL else ()
            op = rng.randrange(14)
            if op == 0:
                return (lambda: service.play(channel, ALICE.id, text)), where or (
                    InvalidMoveError,
                    IllegalMoveError,
                )
            if op == 1:
                return (lambda: service.play(channel, BOB.id, text)), where or (NotYourTurnError,)
            if op == 2:
                return (lambda: service.play(channel, CAROL.id, text)), where or (NotSeatedError,)
            if op == 3:
                tiles = "".join(rng.choice(lacking + "1!é ") for _ in range(rng.randrange(1, 9)))
                expected = (InvalidMoveError, IllegalMoveError)
                return (lambda: service.exchange(channel, ALICE.id, tiles)), where or expected
            if op == 4:
                return (lambda: service.exchange(channel, BOB.id, text)), where or (NotYourTurnError,)
            if op == 5:
                user = rng.choice([BOB, CAROL])
                errors: tuple[type[Exception], ...] = (
                    (NotYourTurnError,) if user is BOB else (NotSeatedError,)
                )
                return (lambda: service.pass_turn(channel, user.id)), where or errors
            if op == 6:
                return (lambda: service.challenge(channel, rng.choice([ALICE, BOB]).id)), where or (
                    ChallengeError,
                )
            if op == 7:
                return (lambda: service.accept(channel, ALICE.id)), where or (ChallengeError,)
            if op == 8:
                return (lambda: service.resign(channel, CAROL.id)), where or (NotSeatedError,)
            if op == 9:
                user = rng.choice([ALICE, BOB, CAROL])
                errors = (NotSeatedError,) if user is CAROL else (HintError,)
                return (lambda: service.hint(channel, user.id)), where or errors
            if op == 10:
                word = rng.choice([text, "Q", "A" * 16, "QU1Z", "QU IZ", ""])
                word = word if not word.isalpha() or not 2 <= len(word) <= 15 else word + "1"
                return (lambda: service.check(channel, word)), where or (WordError,)
            if op == 11:
                action = rng.choice(["join", "new", "start", "leave"])
                if action == "join":
                    return (lambda: service.join(channel, rng.choice([ALICE, CAROL]))), where or (
                        GameStartedError,
                    )
                if action == "new":
                    return (lambda: service.new_game(GUILD, CHANNEL, CAROL, NewGame())), (GameExistsError,)
                if action == "start":
                    return (lambda: service.start_game(channel, ALICE.id)), where or (GameStartedError,)
                return (lambda: service.leave(channel, BOB.id)), where or (LobbyError,)
            if op == 12:
                user = rng.choice([BOB, CAROL])
                return (lambda: service.cancel(channel, user.id, can_manage=False)), where or (
                    NotAllowedError,
                )
            options = rng.choice(
                [
                    NewGame(variant=text[:50]),
                    NewGame(challenge_mode=text[:50] or "x"),
                    NewGame(ai_level=text[:50] or "x"),
                    NewGame(turn_seconds=rng.choice([-1, 10**9])),
                    NewGame(hints=rng.choice([-5, 1000])),
                    NewGame(ai_opponents=rng.choice([-1, 4, 99])),
                ]
            )
            return (lambda: service.new_game(GUILD, UNKNOWN_CHANNEL, BOB, options)), (OptionError,)

        seen: set[type[BaseException]] = set()
        for number in range(CASES):
            call, expected = case()
            try:
                await call()
            except (ScrabbleError, ServiceError) as error:
                assert isinstance(error, expected), (number, error, expected)
                assert str(error) and "Traceback" not in str(error)
                seen.add(type(error))
            else:
                raise AssertionError(f"case {number} was accepted")
        # The lobby next door refuses its own way.
        refusals: list[tuple[Callable[[], Awaitable[object]], type[Exception]]] = [
            (lambda: service.join(OTHER_CHANNEL, CAROL), AlreadySeatedError),
            (lambda: service.play(OTHER_CHANNEL, CAROL.id, "8H AB"), GameNotStartedError),
            (lambda: service.resign(OTHER_CHANNEL, ALICE.id), GameNotStartedError),
            (lambda: service.start_game(OTHER_CHANNEL, CAROL.id), NotEnoughPlayersError),
        ]
        for call, error_type in refusals:
            with pytest.raises(error_type):
                await call()
        assert await snapshot(harness) == before
        assert len(seen) >= 10, seen
    finally:
        await harness.close()
