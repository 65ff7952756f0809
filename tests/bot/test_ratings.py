"""Ratings through the game service and the store, over a real SQLite file: games rate their players in
the transaction that finishes them, unrated and cancelled games do not, rebuilding gives the same
numbers, an old database is rated at start-up, and the stats, leaderboard, chart and feature toggles."""

from __future__ import annotations

import io
import json
import sqlite3
from collections.abc import AsyncIterator, Sequence
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image
from service_fakes import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DAVE,
    GUILD,
    Harness,
    delivered,
    make_config,
    open_harness,
    play_turn,
    started_game,
    with_result,
)
from test_ratings_model import finished_row, humans

from bot.games.scrabble.commands import NewGame, User
from bot.games.scrabble.images.renderer import PngRenderer
from bot.host.errors import FeatureOffError, OptionError, SettingError
from bot.host.features import Feature
from bot.host.rating_model import INITIAL, MODEL_VERSION, PlayerRating, Rating, RatingPoint, Record, rate
from bot.host.store import MIGRATIONS_DIR, GameRow, GameStatus, Store
from bot.render.rating_chart import ESTIMATE_COLOUR, RATING_COLOUR, render_rating_chart
from bot.render.style import CHART_BACKGROUND
from tests.pg_cluster import query

WIN = Rating(27.635389493140497, 8.06590141354368)
LOSS = Rating(22.364610506859503, 8.06590141354368)


@pytest.fixture
async def harness(tmp_path: Path, store_database: Path | str) -> AsyncIterator[Harness]:
    """A harness on each backend in turn (see tests/pg_cluster.py)."""
    opened = await open_harness(tmp_path, database=store_database)
    yield opened
    await opened.close()


def store_of(harness: Harness) -> Store:
    assert harness.store is not None
    return harness.store


async def resign_game(
    harness: Harness, users: Sequence[User], losers: Sequence[User], **options: object
) -> None:
    """A game of ``users`` (the first creates it) in which each of ``losers`` resigns, in order."""
    await started_game(harness, users, **options)  # type: ignore[arg-type]
    for user in losers:
        await harness.svc.resign(CHANNEL, user.id)
    await harness.svc.idle()


async def snapshot(store: Store, guild_id: int = GUILD) -> tuple[list[PlayerRating], list[list[RatingPoint]]]:
    ratings = await store.ratings(guild_id, "scrabble")
    histories = [await store.rating_history(guild_id, r.player, "scrabble") for r in ratings]
    return (ratings, histories)


# Games rate their players ------------------------------------------------------------------------


async def test_the_winner_goes_up_and_the_resigning_loser_down(harness: Harness) -> None:
    await resign_game(harness, (ALICE, BOB), [ALICE])  # a resignation is a loss, whatever the score
    store = store_of(harness)
    assert await store.ratings(GUILD, "scrabble") == [
        PlayerRating("user:11", "Alice", LOSS, 1),
        PlayerRating("user:12", "Bob", WIN, 1),
    ]
    assert await store.rating_history(GUILD, "user:12", "scrabble") == [RatingPoint(1, 1_700_000_000.0, WIN)]
    assert await store.ratings(GUILD + 1, "scrabble") == []  # per guild


async def test_a_forfeit_on_time_is_a_loss_whatever_the_score(tmp_path: Path) -> None:
    harness = await open_harness(tmp_path, make_config(time_limit=60, max_timeouts=1))
    try:
        await started_game(harness)  # Alice first
        await play_turn(harness, (ALICE, BOB))
        await harness.svc.pass_turn(CHANNEL, BOB.id)
        await harness.svc.delivered()  # out long before the minute is up
        await harness.clock.advance(60)  # Alice runs out of time: forfeit
        await harness.svc.idle()
        assert harness.notifier.texts()[-1] == (
            "Alice ran out of time.\nAlice forfeited.\nGame over: Bob (<@12>) wins.\n1. Bob 0\n2. Alice 8 (forfeited)\n"
            "The record (GCG) is attached."
        )
        ratings = {r.name: r.rating for r in await store_of(harness).ratings(GUILD, "scrabble")}
        assert ratings == {"Alice": LOSS, "Bob": WIN}
        alice = await store_of(harness).stats(GUILD, "scrabble", ALICE.id)
        assert alice is not None and alice.total_score > 0  # she led on points
    finally:
        await harness.close()


async def test_three_and_four_player_games(harness: Harness) -> None:
    await started_game(harness, (ALICE, BOB, CAROL))
    for _ in range(3):  # each plays once: Alice, Bob, Carol get scores
        await play_turn(harness, (ALICE, BOB, CAROL))
    scores = [p.score for p in harness.svc.game(CHANNEL).players]
    await harness.svc.resign(CHANNEL, BOB.id)
    await harness.svc.resign(CHANNEL, ALICE.id)
    store = store_of(harness)
    # Carol won; the two who resigned come last, in score order between them.
    places = {
        "Carol": 1,
        "Alice": 2 if scores[0] > scores[1] else 3,
        "Bob": 3 if scores[0] > scores[1] else 2,
    }
    ratings = {r.name: r.rating for r in await store.ratings(GUILD, "scrabble")}
    expected = rate([INITIAL] * 3, list(places.values()))
    assert ratings == dict(zip(places, expected, strict=True))
    assert ratings["Carol"].mu > 25 > min(ratings["Alice"].mu, ratings["Bob"].mu)

    await resign_game(harness, (ALICE, BOB, CAROL, DAVE), [DAVE, CAROL, BOB])
    after = {r.name: r for r in await store.ratings(GUILD, "scrabble")}
    # Alice won; the three who resigned (all at 0) share the second place.
    priors = [ratings["Alice"], ratings["Bob"], ratings["Carol"], INITIAL]
    final = dict(zip(["Alice", "Bob", "Carol", "Dave"], rate(priors, [1, 2, 2, 2]), strict=True))
    for name, rating in final.items():  # the same sums in another order: equal to the last bits
        assert after[name].rating.mu == pytest.approx(rating.mu, rel=1e-12)
        assert after[name].rating.sigma == pytest.approx(rating.sigma, rel=1e-12)
    assert [after[name].games for name in final] == [2, 2, 2, 1]
    assert after["Alice"].rating.mu > ratings["Alice"].mu and after["Dave"].rating.mu < 25


async def test_ai_seats_are_rated_per_level(harness: Harness) -> None:
    await resign_game(harness, (ALICE,), [ALICE], ai=1, ai_level="hard")
    await resign_game(harness, (BOB,), [BOB], ai=1, ai_level="easy")
    await resign_game(harness, (CAROL,), [CAROL], ai=1, ai_level="hard")
    ratings = {r.player: r for r in await store_of(harness).ratings(GUILD, "scrabble")}
    assert sorted(ratings) == ["ai:easy", "ai:hard", "user:11", "user:12", "user:13"]
    assert ratings["ai:easy"] == PlayerRating("ai:easy", "AI (easy)", WIN, 1)
    hard = ratings["ai:hard"]
    assert (hard.name, hard.games) == ("AI (hard)", 2)
    assert hard.rating == rate([WIN, INITIAL], [1, 2])[0]


async def test_unrated_and_cancelled_games_do_not_count(harness: Harness) -> None:
    ack = await harness.svc.new_game(GUILD, CHANNEL, ALICE, NewGame(rated=False))
    assert ack.text.endswith("It is unrated: it changes no rating.")
    await delivered(harness)
    assert harness.notifier.texts()[-1].startswith(
        f"New standard game by <@{ALICE.id}>: void challenges, no time limit, 3 hints each, unrated.\n"
    )
    await harness.svc.join(CHANNEL, BOB)
    await harness.svc.start_game(CHANNEL, ALICE.id)
    await harness.svc.resign(CHANNEL, BOB.id)
    await started_game(harness)
    await harness.svc.cancel(CHANNEL, ALICE.id, can_manage=False)
    store = store_of(harness)
    assert await store.ratings(GUILD, "scrabble") == []
    stats = await store.stats(GUILD, "scrabble", ALICE.id)
    assert stats is not None and (stats.games, stats.wins) == (1, 1)  # stats still count it
    assert await store.rebuild_ratings() == 0
    assert (
        "Not rated yet: none of their finished games here was rated."
        in (await harness.svc.stats(GUILD, ALICE.id)).text
    )


async def test_the_rated_option_must_be_a_boolean(harness: Harness) -> None:
    with pytest.raises(OptionError, match=r"^Rated must be true or false, not str$"):
        await harness.svc.new_game(GUILD, CHANNEL, ALICE, NewGame(rated="yes"))  # type: ignore[arg-type]


# Rebuilding ----------------------------------------------------------------------------------------


async def series(harness: Harness) -> None:
    """Eight games of two to four players, with AI seats, an unrated game and a cancelled one."""
    await resign_game(harness, (ALICE, BOB), [ALICE])
    await resign_game(harness, (ALICE, BOB, CAROL), [BOB, CAROL])
    await resign_game(harness, (ALICE,), [ALICE], ai=2, ai_level="hard")
    await resign_game(harness, (CAROL, DAVE), [DAVE], rated=False)
    await resign_game(harness, (DAVE, ALICE, BOB, CAROL), [ALICE, BOB, CAROL])
    await started_game(harness, (BOB, CAROL))
    await harness.svc.cancel(CHANNEL, BOB.id, can_manage=False)
    await resign_game(harness, (BOB,), [BOB], ai=1, ai_level="medium")
    await resign_game(harness, (CAROL, ALICE), [CAROL])


async def test_rebuild_gives_bit_identical_numbers(harness: Harness) -> None:
    await series(harness)
    store = store_of(harness)
    before = await snapshot(store)
    assert len(before[0]) == 6  # four people, hard and medium
    assert await store.rebuild_ratings() == 6
    assert await snapshot(store) == before
    assert await store.rebuild_ratings(GUILD) == 6
    assert await snapshot(store) == before
    assert (await harness.svc.rebuild_ratings(GUILD)).text == "Ratings rebuilt from 6 rated games."
    assert await snapshot(store) == before


async def test_start_up_rebuilds_when_the_model_changed_or_the_ratings_are_damaged(harness: Harness) -> None:
    await series(harness)
    before = await snapshot(store_of(harness))
    await harness.close()
    query(harness.database, "UPDATE rating_state SET model = 'an older model'", "UPDATE ratings SET mu = 0")
    await harness.open()
    assert await snapshot(store_of(harness)) == before
    await harness.close()
    query(harness.database, "UPDATE ratings SET mu = 0")  # the same model and games: nothing is rebuilt
    await harness.open()
    assert {r.rating.mu for r in await store_of(harness).ratings(GUILD, "scrabble")} == {0.0}


async def test_an_old_database_is_rated_at_start_up(tmp_path: Path) -> None:
    harness = await open_harness(tmp_path)  # SQLite's schema 2, rebuilt with its SQL
    await series(harness)
    before = await snapshot(store_of(harness))
    await harness.close()
    with sqlite3.connect(harness.path) as db:  # as schema 2 left it: no rating table, no "rated" option
        db.executescript(
            "DROP TABLE ratings; DROP TABLE rating_history; DROP TABLE rating_state; DROP TABLE guild_features;"
            "DROP TABLE analyses; DROP TABLE puzzle_answers; DROP TABLE puzzles;"  # and none of schema 4
            "DROP INDEX games_by_kind; ALTER TABLE games DROP COLUMN kind;"  # nor of 5
            "DROP TABLE shard_leases;"  # nor of 6
            "ALTER TABLE outbox DROP COLUMN posted_at;"  # nor of 7
            "ALTER TABLE games DROP COLUMN format; ALTER TABLE games DROP COLUMN result;"  # nor of 8
            "DROP TABLE user_preferences;"  # nor of 9,
            "CREATE TABLE stats_before (guild_id INTEGER NOT NULL, user_id INTEGER NOT NULL, name TEXT NOT NULL,"
            " games INTEGER NOT NULL DEFAULT 0, wins INTEGER NOT NULL DEFAULT 0, total_score INTEGER NOT NULL"
            " DEFAULT 0, best_score INTEGER, best_move TEXT, PRIMARY KEY (guild_id, user_id));"
            "INSERT INTO stats_before SELECT guild_id, user_id, name, games, wins, total_score, best_score,"
            " best_move FROM stats; DROP TABLE stats; ALTER TABLE stats_before RENAME TO stats;"  # whose stats
        )
        db.execute("UPDATE games SET options = json_remove(options, '$.rated') WHERE options ->> 'rated'")
        db.execute("PRAGMA user_version = 2")
        assert db.execute("SELECT COUNT(*) FROM games WHERE options ->> 'rated' IS NULL").fetchone() == (7,)
    await harness.open()
    store = store_of(harness)
    assert await store.schema_version() == len(list(MIGRATIONS_DIR.glob("*.sql")))
    # The unrated game (stored with "rated": false) stays unrated; the others are rated as they were.
    assert await snapshot(store) == before
    with sqlite3.connect(harness.path) as db:
        assert db.execute("SELECT model, finished, last_game FROM rating_state").fetchone() == (
            MODEL_VERSION,
            7,
            8,
        )
    await harness.close()


async def test_a_game_finished_before_the_last_rated_one_rebuilds_the_guild(tmp_path: Path) -> None:
    store = await Store.open(tmp_path / "db.sqlite3")
    try:
        rows = [  # with their results, as the host stores them when they finish
            with_result(finished_row(humans("Ann", "Bob"), [300, 200], at=300.0)),
            with_result(
                finished_row(humans("Ann", "Bob"), [100, 200], at=100.0)
            ),  # finished first, saved last
            with_result(finished_row(humans("Ann", "Bob", "Cy"), [100, 200, 300], at=200.0)),
        ]
        for row in rows:
            created = await store.create_game(replace(row, status=GameStatus.ACTIVE), [])
            await store.save(replace(row, id=created.id), [])
        incremental = await snapshot(store, 5)
        await store.rebuild_ratings()
        assert await snapshot(store, 5) == incremental
        ann = await store.rating_history(5, "user:100", "scrabble")
        assert [point.game_id for point in ann] == [2, 3, 1]  # in finish order
        first = rate([INITIAL, INITIAL], [2, 1])[0]
        assert ann[0].rating == first
        # A finished game saved again is not rated twice.
        await store.save(replace(rows[0], id=1), [])
        assert await snapshot(store, 5) == incremental
    finally:
        await store.close()


# Messages ------------------------------------------------------------------------------------------


async def test_leaderboard_ranks_by_conservative_rating(harness: Harness) -> None:
    svc = harness.svc
    assert (await svc.leaderboard(GUILD)).text == "No finished game in this server yet."
    await resign_game(harness, (ALICE, BOB), [BOB])
    await resign_game(harness, (ALICE,), [ALICE], ai=1, ai_level="hard")
    board = await svc.leaderboard(GUILD)
    assert board.private
    assert board.text == (
        "Leaderboard (rating = μ − 3σ: the skill estimate μ less three times its uncertainty σ):\n"
        "1. AI \\(hard\\): 3.8 (1 rated game, provisional)\n"
        "2. Alice: 1.4 (2 rated games, provisional), 1 win, average 0.0\n"
        "3. Bob: -1.8 (1 rated game, provisional), 0 wins, average 0.0\n"
        "Provisional: fewer than 5 rated games in this server."
    )


async def test_provisional_until_five_rated_games(harness: Harness) -> None:
    for _ in range(4):
        await resign_game(harness, (ALICE, BOB), [BOB])
    lines = (await harness.svc.leaderboard(GUILD)).text.splitlines()
    assert lines[1].startswith("1. Alice: ") and lines[1].endswith(
        "(4 rated games, provisional), 4 wins, average 0.0"
    )
    await resign_game(harness, (ALICE, BOB), [BOB])
    lines = (await harness.svc.leaderboard(GUILD)).text.splitlines()
    assert lines[1].startswith("1. Alice: ") and lines[1].endswith("(5 rated games), 5 wins, average 0.0")


async def test_stats_show_rating_rank_record_and_chart(harness: Harness) -> None:
    harness.svc.plugin.renderer = PngRenderer()  # the real chart
    await resign_game(harness, (ALICE, BOB), [BOB])
    await resign_game(harness, (ALICE, BOB), [ALICE])
    await resign_game(harness, (ALICE, CAROL), [CAROL])
    await resign_game(harness, (ALICE,), [ALICE], ai=1, ai_level="hard")
    reply = await harness.svc.stats(GUILD, ALICE.id)
    assert reply.private
    assert reply.text.splitlines() == [
        "Alice: 4 games, 2 wins, average score 0.0, best move none yet.",
        "Rating 2.4 (μ 24.56, σ 7.40; rating = μ − 3σ: the skill estimate μ less three times its "
        "uncertainty σ), rank 2 of 4 in this server, provisional (4 of 5 rated games).",
        "Record in rated games (won-lost-drawn):",
        "vs Bob: 1-1-0",
        "vs AI \\(hard\\): 0-1-0",
        "vs Carol: 1-0-0",
    ]
    (chart,) = reply.attachments
    assert chart.filename == "rating.png"
    image = Image.open(io.BytesIO(chart.data))
    assert (image.format, image.size, image.mode) == ("PNG", (960, 540), "P")
    history = await store_of(harness).rating_history(GUILD, "user:11", "scrabble")
    assert len(history) == 4
    assert await store_of(harness).records(GUILD, "user:12", "scrabble") == [
        Record("user:11", "Alice", 1, 1, 0)
    ]


async def test_feature_toggles(harness: Harness) -> None:
    svc = harness.svc
    assert await svc.feature_enabled(GUILD, Feature.RATINGS)
    assert (await svc.features(GUILD)).text == (
        "Features in this server:\n"
        "ratings: on (ratings in /scrabble stats and /scrabble leaderboard, /go stats)\n"
        "analysis: on (post-game analysis (/scrabble analyze))\n"
        "puzzles: on (daily puzzles (/scrabble puzzle, /scrabble solve))"
    )
    off = await svc.set_feature(GUILD, "ratings", False)
    assert (off.text, off.private) == ("The ratings feature is now off in this server.", True)
    assert not await svc.feature_enabled(GUILD, Feature.RATINGS)
    assert await svc.feature_enabled(GUILD + 1, Feature.RATINGS)  # per guild
    assert (await svc.features(GUILD)).text.splitlines()[1].startswith("ratings: off")
    # Games finished meanwhile are rated; the answers show no rating.
    await resign_game(harness, (ALICE, BOB), [BOB])
    assert len(await store_of(harness).ratings(GUILD, "scrabble")) == 2
    assert (
        await svc.leaderboard(GUILD)
    ).text == "Leaderboard:\n1. Alice: 1 wins in 1 games, average 0.0\n2. Bob: 0 wins in 1 games, average 0.0"
    stats = await svc.stats(GUILD, ALICE.id)
    assert (stats.text, stats.attachments) == (
        "Alice: 1 game, 1 win, average score 0.0, best move none yet.",
        (),
    )
    with pytest.raises(FeatureOffError) as refused:
        await svc.rebuild_ratings(GUILD)
    assert str(refused.value) == (
        "The ratings feature is turned off in this server: someone who can manage the server can turn it "
        "on with /scrabble-settings enable ratings"
    )
    await svc.set_feature(GUILD, "ratings", True)
    assert (await svc.leaderboard(GUILD)).text.splitlines()[
        1
    ] == "1. Alice: 3.4 (1 rated game, provisional), 1 win, average 0.0"
    with pytest.raises(
        SettingError, match=r"^Unknown feature 'chess': choose one of ratings, analysis, puzzles$"
    ):
        await svc.set_feature(GUILD, "chess", True)
    assert query(harness.database, "SELECT feature, enabled FROM guild_features") == [("ratings", 1)]


def test_options_json_keeps_rated() -> None:
    row: GameRow = finished_row(humans("Ann", "Bob"), [1, 2], rated=False)
    assert json.loads(json.dumps(row.options))["rated"] is False


def test_rating_chart_draws_both_lines_in_the_chart_style() -> None:
    history = [INITIAL, WIN, rate([WIN, INITIAL], [1, 2])[0]]
    image = Image.open(io.BytesIO(render_rating_chart("Alice", history))).convert("RGB")
    assert image.size == (960, 540)
    colours: list[tuple[int, tuple[int, int, int]]] = image.getcolors(1 << 16) or []  # type: ignore[assignment]

    def drawn(target: tuple[int, int, int]) -> int:
        """Pixels of about ``target`` (the palette PNG shifts colours by a few units)."""
        return sum(n for n, c in colours if max(abs(a - b) for a, b in zip(c, target, strict=True)) <= 8)

    assert drawn(RATING_COLOUR) > 1000 and drawn(ESTIMATE_COLOUR) > 1000
    assert drawn(CHART_BACKGROUND) > 960 * 540 // 2
    assert render_rating_chart("Alice", history) != render_rating_chart("Alice", history[:2])
    with pytest.raises(ValueError, match="at least the initial rating"):
        render_rating_chart("Alice", [])


async def test_stats_come_without_a_chart_from_a_renderer_that_draws_none(harness: Harness) -> None:
    harness.svc.plugin.renderer = TextOnly()
    await resign_game(harness, (ALICE, BOB), [BOB])
    stats = await harness.svc.stats(GUILD, ALICE.id)
    assert stats.text.splitlines()[1].startswith("Rating 3.4 (μ 27.64, σ 8.07; ")
    assert stats.attachments == ()


class TextOnly:
    """A renderer without rating charts (like the terminal's)."""

    def board(self, *args: object) -> bytes:
        return b"board"

    def rack(self, *args: object) -> bytes:
        return b"rack"

    def chart(self, *args: object) -> bytes:
        return b"chart"
