"""The catalogue of the games' messages (``docs/messages.md``): every kind of message of Scrabble and Go
rendered with sample values, so that their wording can be read and reviewed in one place; and the scan
of every one of them for engine notation (``6F QAI.``, ``L2 KORUN?AS``), which no person should have
to read.

``SCRABBLE_WRITE_CATALOGUE=1 pytest tests/bot/test_catalogue.py`` writes the file anew after a change
of wording; without it the test fails when the file is out of date.
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Final

import pytest

from bot.games.go import text as go_text
from bot.games.go.options import GoOptions
from bot.games.scrabble import text
from bot.games.scrabble.options import ScrabbleOptions
from bot.games.scrabble.protocols import Suggestion
from bot.host.store import SeatRow, StatsRow
from go_core import Color
from go_core import Game as GoGame
from go_core.scoring import ScoringMethod
from scrabble_core.ai import Level as ScrabbleLevel
from scrabble_core.board import Board
from scrabble_core.game import ChallengeMode, Event, EventKind, Game
from scrabble_core.move import Play
from scrabble_core.move_words import move_in_words, play_in_words, rack_in_words
from scrabble_core.variant import get_variant

CATALOGUE: Final = Path(__file__).resolve().parents[2] / "docs" / "messages.md"
CHANNEL: Final = 800_000_000_000_000_010
FRANK: Final = 700_000_000_000_000_001
GRACE: Final = 700_000_000_000_000_002
STANDARD: Final = get_variant("standard")
SEATS: Final = (SeatRow(0, FRANK, "Frank"), SeatRow(1, GRACE, "Grace"))
WITH_AI: Final = (SeatRow(0, FRANK, "Frank"), SeatRow(1, None, "AI", ai_level="medium"))
_WORD: Final = r"(?:[A-Z.]|[a-z](?=[a-z]*[A-Z.?]))[A-Za-z.?]+"
"""A word in notation after its square: capitals, ``.`` and ``?`` (a lowercase start, a blank, needs one
of them too, so that ``D4 and`` is no play)."""
NOTATION: Final = re.compile(
    r"(?<![\w.])[A-Za-z]*\.[A-Z][A-Za-z.]*"  # a played-through tile inside or before the word: GA.AX, .N
    r"|(?<![\w.])[A-Z]{2,}\.+(?= [a-z(])"  # ... or after it, the sentence going on: QAI. for 34
    r"|\?[A-Za-z]|(?<=[A-Z])\?"  # a blank as ? and its letter, or a ? among a rack's letters: KORUN?AS, AEQ?
    rf"|(?<![\w,-])(?:\d{{1,2}}[A-Y]|[A-Y]\d{{1,2}}) {_WORD}"  # a square, then the word: 8D FOLDS, 2G rELIN.ED
    rf"|(?<![\w,])-?\d+,-?\d+[ad]? {_WORD}"  # the same on an infinite board: 0,0d QUIZ
)
"""Engine notation a person should not have to read."""


def board() -> Board:
    """The samples' board: FOLDS across at 8D, then QAID down at G5 through its D (the samples' plays
    read their played-through tiles here)."""
    rows = ["." * 15 for _ in range(15)]
    rows[4], rows[5], rows[6] = ("......Q........", "......A........", "......I........")
    rows[7] = "...FOLDS......."
    return Board.from_rows(STANDARD, rows)


def scrabble_game(*, resigned: bool = False) -> Game:
    """A seeded two-player game (Frank and Grace), over by Grace's resignation if ``resigned``."""
    game = Game(STANDARD, ["Frank", "Grace"], rng=random.Random(3))
    if resigned:
        game.resign(1)
    return game


def scrabble_entries() -> Iterator[tuple[str, str]]:
    """Every kind of Scrabble message, with sample values: (its name, its text)."""
    played = board()
    game = scrabble_game()
    options = ScrabbleOptions("standard", ChallengeMode.VOID, 0, 3, ScrabbleLevel.MEDIUM)
    yield "lobby", text.lobby_text(SEATS, options, FRANK)
    yield "the lobby once started", text.started_text(SEATS)
    events = [
        Event(EventKind.PLAY, 0, "DFLOQRS", "8D FOLDS", 26, 26, "FOLDS 26"),
        Event(EventKind.PLAY, 1, "ADIQ?EE", "G5 QAI.", 34, 34, "QAID 34"),
        Event(EventKind.PLAY, 1, "AEIQ?EE", "G5 QaI.", 24, 24, "QaID 24"),
        Event(EventKind.EXCHANGE, 0, "AEIIOUU", "-IIUU", 0, 26),
        Event(EventKind.PASS, 1, "AEIQ?EE", "-", 0, 34),
        Event(EventKind.PHONY_WITHDRAWN, 1, "AEIQ?EE", "--", -34, 0),
        Event(EventKind.CHALLENGE_BONUS, 1, "AEIQ?EE", "(challenge)", 5, 39),
        Event(EventKind.LOST_TURN, 0, "AEIQ?EE", "-", 0, 26),
        Event(EventKind.RESIGN, 1, "AEIQ?EE", "(resign)", 0, 34),
        Event(EventKind.TIME_PENALTY, 1, "AEIQ?EE", "(time)", -10, 24),
    ]
    for event in events:
        yield f"event: {event.kind.value} ({event.move})", text.event_line(event, SEATS, played)
    went_out = [
        Event(EventKind.END_RACK, 0, "", "(L)", 2, 28),
        Event(EventKind.END_RACK, 1, "L", "(L)", -1, 33),
    ]
    yield "end of the game: a player went out", "\n".join(text.end_lines(went_out, SEATS, STANDARD))
    scoreless = [
        Event(EventKind.END_RACK, 0, "AE", "(AE)", -2, 24),
        Event(EventKind.END_RACK, 1, "Q?", "(Q?)", -10, 24),
    ]
    yield "end of the game: too many scoreless turns", "\n".join(text.end_lines(scoreless, SEATS, STANDARD))
    yield "a person's challenge", text.challenge_line("Grace")
    yield "failed challenge (the play stands)", text.failed_challenge_line(game, None, SEATS)
    yield "an AI's challenge", text.ai_challenge_line("AI", ["QAID"])
    yield "an AI's challenge of several words", text.ai_challenge_line("AI", ["QAID", "ZEN"])
    yield "scores", text.scores_line(game)
    yield "the bag", text.bag_line(game)
    yield "next", text.next_line(game, SEATS)
    yield "the AI's challenge window", text.window_text(WITH_AI, scrabble_game_with_ai(), 30)
    yield "result after a resignation", text.final_text(scrabble_game(resigned=True), SEATS)
    yield "rack (private)", text.rack_text("AEIQ?EE", STANDARD, CHANNEL)
    yield "an empty rack (private)", text.rack_text("", STANDARD, CHANNEL)
    suggestions = [
        Suggestion("9C QI", 21, "DEE?"),
        Suggestion("-QEE", 0, "AI?"),
        Suggestion("-", 0, "ADEEQ?"),
    ]
    yield "hint (private)", text.hint_text("ADEEQ?", played, suggestions, 1, 3)
    yield "hint without a play (private)", text.hint_text("VVWW", played, [], 2, 3)
    yield "the bag and the unseen tiles (private)", text.bag_text(game, 0)
    yield "history (no move yet)", text.history_text(game, SEATS)
    yield "a play in words", str(play_in_words(Play.from_gcg("G5 QaI."), played))
    yield "an exchange in words", move_in_words("-EE?", played)
    yield "a rack in words", rack_in_words("AEQ??", STANDARD)
    yield "stats", text.stats_text(StatsRow(FRANK, "Frank", 12, 7, 1, 4100, 412, "FOLDS at 8D (across)"))
    yield "stats (no game yet)", text.stats_text(StatsRow(FRANK, "Frank", 0, 0, 0, 0, None, None))


def scrabble_game_with_ai() -> Game:
    """A game where the AI is to move (Frank having played)."""
    game = Game(STANDARD, ["Frank", "AI"], rng=random.Random(3))
    game.pass_turn(0)
    return game


def go_entries() -> Iterator[tuple[str, str]]:
    """Every kind of Go message, with sample values: (its name, its text)."""
    seats = (SeatRow(0, FRANK, "Frank"), SeatRow(1, GRACE, "Grace"))
    options = GoOptions(9, 7.5, 0, ScoringMethod.AREA, 60, None, None, True)
    yield "lobby", go_text.lobby_text(options, seats[0], FRANK)
    game = GoGame(9)
    black = game.play("D4")
    yield "a move", go_text.move_line(seats[0], black)
    white = game.pass_turn()
    yield "a pass", go_text.move_line(seats[1], white)
    yield "players", go_text.players_line(game, seats)
    yield "to move", go_text.to_move_line(seats[0], 60)
    yield "to move (the AI)", go_text.to_move_line(SeatRow(1, None, "AI", ai_level="medium"), 0)
    yield "undo request", go_text.undo_request_text(seats[0], seats[1], [black, white])
    game.pass_turn()
    yield "dead stones", go_text.scoring_text(game, "Frank", frozenset(), frozenset({Color.BLACK}))
    resigned = GoGame(9)
    resigned.play("D4")
    resigned.resign(Color.WHITE)
    yield "result after a resignation", go_text.result_text(resigned, seats)
    yield "stats", go_text.stats_text("Frank", 5, 3, 1)
    yield "stats (no game yet)", go_text.stats_text("Frank", 0, 0, 0)


def catalogue() -> str:
    """The catalogue as Markdown: a section per game, an entry per kind of message."""
    lines = [
        "# The messages of the games",
        "",
        "Every kind of message the games send, with sample values, as people read them. Written by",
        "`tests/bot/test_catalogue.py` (`SCRABBLE_WRITE_CATALOGUE=1 pytest tests/bot/test_catalogue.py`",
        "after a change of wording); the test fails when this file is out of date.",
    ]
    for game, entries in (("Scrabble", scrabble_entries()), ("Go", go_entries())):
        lines += ["", f"## {game}"]
        for name, said in entries:
            lines += ["", f"### {name}", "", *(f"> {line}" if line else ">" for line in said.split("\n"))]
    return "\n".join(lines) + "\n"


def test_the_catalogue_in_docs_is_up_to_date() -> None:
    written = catalogue()
    if os.environ.get("SCRABBLE_WRITE_CATALOGUE") == "1":
        CATALOGUE.write_text(written)
    assert CATALOGUE.read_text() == written, "docs/messages.md is out of date: see this test's docstring"


@pytest.mark.parametrize(
    ("said", "found"),
    [
        ("Frank played 6F QAI. for 34 (QAID 34)", ["6F QAI."]),
        ("Grace played G6 .N. for 4", ["G6 .N."]),
        ("AI played K5 CaV.RNS for 44", ["K5 CaV.RNS"]),
        ("1. L2 KORUN?AS: 70 points", ["L2 KORUN?AS"]),
        ("the web list shows J6 QA. and 2G rELIN.ED", ["J6 QA.", "2G rELIN.ED"]),
        (
            "Frank played QAI. for 34; Grace .N. for 4, AI CaV.RNS and rELIN.ED",
            ["QAI.", ".N.", "CaV.RNS", "rELIN.ED"],
        ),
        ("hint: KORUN?AS", ["?A"]),
        ("Frank played QAID at 6F (down) for 34.\nGrace passed.", []),
        ("Your rack: DEO and a blank. Closed? Press Show my rack.", []),
        ("Frank: best move 8D FOLDS for 26.", ["8D FOLDS"]),
        ("1. H8 QI: 11 points, keeping AEQ?", ["H8 QI", "?"]),
        ("the best was 0,0d QUIZ, then -3,5 ZA", ["0,0d QUIZ", "-3,5 ZA"]),
        ("the best was QUIZ at 8H (across) for 48; Frank (Black) played D4, then G3.", []),
    ],
)
def test_the_scan_finds_engine_notation_and_only_it(said: str, found: list[str]) -> None:
    assert NOTATION.findall(said) == found


@pytest.mark.parametrize(
    ("name", "said"), [*scrabble_entries(), *go_entries()], ids=lambda value: str(value)[:40]
)
def test_no_message_shows_engine_notation(name: str, said: str) -> None:
    assert NOTATION.findall(said) == [], name
