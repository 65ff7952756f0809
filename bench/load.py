"""Capacity: N busy games driven through the real ``scrabble-bot`` process by a fake Discord.

``python bench/load.py --games 50 200 --duration 120`` runs, for each N, a fresh bot process (a subprocess
running ``scrabble-bot`` through ``tests/bot/discord_gateway.py``, which points discord.py at the fakes;
its own config file and database in a temporary directory) against the project's fake Discord: the REST
fake (``tests/bot/discord_fake.py``) and the gateway fake, both served by this process. N channels get a
game each, half between two humans, half a human against the medium AI. Each human moves 0.5-3 s after
their turn starts (a stress test: far busier than real play), planning the move on the game's real state
(read from the bot's database, committed before the turn is announced) with the engine's best-move
generator; before some moves they ask for a hint (15%) or the board (5%), and some moves are illegal
(5%: a word not on the rack, or, in two-human games, a play out of turn). A finished game is replaced
by a new one in its channel. Interactions are sent as gateway ``INTERACTION_CREATE`` events.

Measured over ``--duration`` seconds once every game has started (times are from sending the event to
the bot's request reaching the fake):

- ``moves_per_s``: moves applied (plays, exchanges and passes in the bot's event log) per second;
- ``ack_p99_ms``: the interaction callback (the acknowledgement, Discord's 3 s limit);
  ``unacked_3s`` counts the interactions not acknowledged within 3 s (or never), ``unanswered`` those
  not answered within 30 s, ``refused`` the planned moves the bot answered without applying (a bug
  of the benchmark or of the bot: 0 expected);
- ``play_answer_*``, ``hint_answer_*``, ``board_answer_p99_ms``: the answer (the followup after the
  deferral) of ``/scrabble play`` (legal or not), ``hint`` and ``board``;
- ``ai_move_*``: from the answer to a human's play to the AI's move being seen (its announcement;
  the answer comes as soon as the play is committed, so this includes the delivery of the human's
  announcement, which the channel sends before the AI's);
- ``rss_mb``: the bot process's resident memory at the end (``workers_rss_mb``: its AI workers');
  ``bot_cpu_pct`` its CPU time over the window (``loop_cpu_pct``: its main thread, the event loop's),
  ``bench_cpu_pct`` this process's, ``load`` the machine's load average (1 min) at the end.

- ``rest_requests_per_move``: the bot's REST requests (posts, edits, DMs, typing: all but the
  interaction answers, which Discord does not count against the bot's limits) per move;
  ``interaction_answers_per_move``: its interaction callbacks and followups per move; ``rate_limited``
  the requests the fake answered 429 (0 expected: the bot keeps within its budget).

The fake enforces Discord's documented rate limits (:class:`~discord_fake.RateLimits`: 50 requests a
second in all, 5 per 5 seconds per route and channel), telling them in the headers of every response,
so the moves per second are those one bot token can reach. ``--generous`` answers with limits of a
thousand requests a second per route instead (:data:`GENEROUS`), and gives the bot a budget as large
(its ``[discord]`` settings): the bot's own capacity, not Discord's.

With ``--baseline DIR`` (a copy of another version of the code, e.g. ``git archive main | tar -x -C
DIR``, with the native move generator copied in), each N is run first with the bot imported from ``DIR``
(``code=baseline``), then with this tree's (``code=current``): the ratio of two lines of the same run is
what to compare, on a machine whose load (printed) changes. Under a load that changes quickly, run
the two side by side instead, in two processes started together: ``--baseline DIR --baseline-only``
and no ``--baseline``.

``--reuse-images`` is a what-if: the bot draws each kind of image (board, rack) once and sends that
one ever after, so that the cost of everything but drawing (the write path, the AI, Discord's traffic)
shows; ``--profile FILE`` samples where the bot's threads spend their time.

Prints one line per run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import sqlite3
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "bot"))

from discord_fake import (  # noqa: E402
    TEST_TOKEN,
    FakeDiscord,
    Payloads,
    RateLimits,
    RecordedRequest,
    integer_option,
    string_option,
    text_channel_payload,
)
from discord_gateway import FakeGateway, guild_payload, stop_bot  # noqa: E402

from scrabble_core.board import Board  # noqa: E402
from scrabble_core.lexicon import load_enable  # noqa: E402
from scrabble_core.movegen import MoveGenerator, load_move_generator  # noqa: E402
from scrabble_core.notation import player_notation  # noqa: E402
from scrabble_core.variant import get_variant  # noqa: E402

GATEWAY_SCRIPT = ROOT / "tests" / "bot" / "discord_gateway.py"
GUILD_ID = 800_000_000_000_000_001
FIRST_CHANNEL = 810_000_000_000_000_000
FIRST_USER = 710_000_000_000_000_000
ANSWER_TIMEOUT = 30.0
ACK_LIMIT = 3.0
WAKE_UP = 2.0
MOVE_KINDS = ("play", "pass", "exchange")
STANDARD: Final = get_variant("standard")


GENEROUS: Final = RateLimits(per_route=1000, route_window=1.0, global_limit=100_000, global_window=1.0)
"""Rate limits of a thousand requests a second per route, told in every response's headers (discord.py
then sends concurrently)."""
BOT_MOST_PER_SECOND: Final = 10_000
"""The most requests a second the bot's ``[discord]`` settings allow it (its budget with ``--generous``)."""


@dataclass
class Pending:
    """An interaction sent to the bot: when, and when its acknowledgement and answer arrived."""

    sent_at: float
    acked: asyncio.Future[float]
    answered: asyncio.Future[float]


@dataclass
class Measures:
    """Every time measured (seconds) while measuring."""

    ack: list[float] = field(default_factory=list)
    play: list[float] = field(default_factory=list)
    hint: list[float] = field(default_factory=list)
    board: list[float] = field(default_factory=list)
    ai_move: list[float] = field(default_factory=list)
    sent: int = 0
    unacked: int = 0
    unanswered: int = 0
    refused: int = 0
    rest_requests: int = 0
    interaction_answers: int = 0


@dataclass(frozen=True)
class Seen:
    """A channel's open game as the bot committed it, read only as far as the players need: the
    board is built only for the player about to move (a whole ``Game.from_dict`` on every change
    took a sixth of this process's CPU)."""

    text: str
    data: dict[str, Any]
    users: list[int | None]
    """The user of each seat (``None``: an AI)."""

    @property
    def over(self) -> bool:
        return bool(self.data["over"])

    @property
    def current(self) -> int:
        return int(self.data["current"])

    @property
    def moves(self) -> int:
        """How many events the game's history holds."""
        return len(self.data["history"])

    @property
    def rack(self) -> str:
        """The rack of the player to move."""
        return str(self.data["players"][self.current]["rack"])

    def board(self) -> Board:
        """The board (every game here is on the standard one)."""
        return Board.from_rows(STANDARD, self.data["board"])


class Driver:
    """The players: sends interactions through the gateway and matches the bot's requests to them."""

    def __init__(
        self, fake: FakeDiscord, gateway: FakeGateway, database: Path, generator: MoveGenerator
    ) -> None:
        self.fake = fake
        self.gateway = gateway
        self.database = database
        self.generator = generator
        self.pending: dict[str, Pending] = {}
        self.posted: dict[int, asyncio.Event] = {}
        self.measures = Measures()
        self.measuring = False
        self.stopped = False
        self._db: sqlite3.Connection | None = None
        self._states: dict[int, Seen] = {}  # by channel
        fake.listeners.append(self.on_request)

    def on_request(self, request: RecordedRequest) -> None:
        """Match a request of the bot: a callback or followup to its interaction, a channel message to
        its game; forget the request (the fake would keep every one)."""
        parts = request.path.split("/")
        if self.measuring:
            if request.path.startswith(("/interactions/", "/webhooks/")):
                self.measures.interaction_answers += 1
            else:
                self.measures.rest_requests += 1
        if request.path.startswith("/interactions/") and (pending := self.pending.get(parts[2])):
            if not pending.acked.done():
                pending.acked.set_result(request.received_at)
            if request.json.get("type") not in (5, 6) and not pending.answered.done():
                pending.answered.set_result(request.received_at)
        elif request.method == "POST" and request.path.startswith("/webhooks/"):
            pending = self.pending.get(parts[3].removeprefix("itoken-"))
            if pending is not None and not pending.answered.done():
                pending.answered.set_result(request.received_at)
        elif request.method == "POST" and request.path.startswith("/channels/"):
            event = self.posted.get(int(parts[2]))
            if event is not None:
                event.set()
        self.fake.requests.clear()
        self.fake.messages.clear()

    async def interact(self, payload: dict[str, Any], answers: list[float] | None = None) -> bool:
        """Send ``payload`` and wait for its answer; record its times while measuring. Whether it was
        answered."""
        loop = asyncio.get_running_loop()
        pending = Pending(time.perf_counter(), loop.create_future(), loop.create_future())
        self.pending[payload["id"]] = pending
        measuring = self.measuring
        await self.gateway.dispatch("INTERACTION_CREATE", payload)
        try:
            answered = await asyncio.wait_for(asyncio.shield(pending.answered), ANSWER_TIMEOUT)
        except TimeoutError:
            answered = None
        del self.pending[payload["id"]]
        if not measuring:
            return answered is not None
        self.measures.sent += 1
        acked = pending.acked.result() if pending.acked.done() else None
        if acked is None or acked - pending.sent_at > ACK_LIMIT:
            self.measures.unacked += 1
        if acked is not None:
            self.measures.ack.append(acked - pending.sent_at)
        if answered is None:
            self.measures.unanswered += 1
        elif answers is not None:
            answers.append(answered - pending.sent_at)
        return answered is not None

    def state(self, channel_id: int) -> Seen | None:
        """The open game of ``channel_id`` as committed; read again only when its stored state changed
        (the players must not take the bot's CPU)."""
        if self._db is None:
            self._db = sqlite3.connect(f"file:{self.database}?mode=ro", uri=True, timeout=10)
        # fetchall, never fetchone: a statement left unfinished keeps its read transaction open, and
        # the reads after it would see the database as it was then (the bot's later moves unseen).
        rows = self._db.execute(
            "SELECT id, state FROM games WHERE channel_id = ? AND status = 'active' ORDER BY id DESC LIMIT 1",
            (channel_id,),
        ).fetchall()
        row = rows[0] if rows else None
        if row is None or row[1] is None:
            return None
        seen = self._states.get(channel_id)
        if seen is not None and seen.text == row[1]:
            return seen
        seats = self._db.execute("SELECT user_id FROM seats WHERE game_id = ? ORDER BY seat", (row[0],))
        seen = Seen(row[1], json.loads(row[1]), [user for (user,) in seats])
        self._states[channel_id] = seen
        return seen

    def moves_between(self, start: float, end: float) -> int:
        """How many moves the bot applied between the epoch seconds ``start`` and ``end``."""
        assert self._db is not None
        marks = ", ".join("?" for _ in MOVE_KINDS)
        ((count,),) = self._db.execute(
            f"SELECT count(*) FROM events WHERE kind IN ({marks}) AND at BETWEEN ? AND ?",
            (*MOVE_KINDS, start, end),
        ).fetchall()
        return int(count)

    async def play_channel(
        self, index: int, against_ai: bool, started: asyncio.Event, rng: random.Random
    ) -> None:
        """Keep a game going in channel ``index``: create it, play it out, start another."""
        channel_id = FIRST_CHANNEL + index
        humans = [FIRST_USER + 2 * index, FIRST_USER + 2 * index + 1]
        payloads = Payloads(self.fake.application_id, GUILD_ID, channel_id, humans[0])
        channel = text_channel_payload(channel_id, GUILD_ID)
        self.posted[channel_id] = event = asyncio.Event()

        def slash(name: str, *options: dict[str, Any], user: int = humans[0]) -> dict[str, Any]:
            return payloads.slash(name, options, channel=channel, user_id=user)

        while not self.stopped:
            setup = [integer_option("hints", 100)]
            if against_ai:
                setup += [integer_option("ai_opponents", 1), string_option("ai_level", "medium")]
            await self.interact(slash("new", *setup))
            if not against_ai:
                await self.interact(slash("join", user=humans[1]))
            await self.interact(slash("start"))
            started.set()
            await self.play_game(channel_id, humans, slash, event, rng)

    async def play_game(
        self, channel_id: int, humans: list[int], slash: Any, event: asyncio.Event, rng: random.Random
    ) -> None:
        """Play the channel's game until it ends."""
        acted_at_length = -1
        answered_at: float | None = None
        while not self.stopped:
            game = self.state(channel_id)
            if game is None or game.over:
                return
            users = game.users
            user = users[game.current]
            length = game.moves
            if user is None or length == acted_at_length:
                event.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(event.wait(), WAKE_UP)
                continue
            if answered_at is not None and None in users and self.measuring:
                self.measures.ai_move.append(time.perf_counter() - answered_at)
            answered_at = None
            await asyncio.sleep(rng.uniform(0.5, 3.0))
            roll = rng.random()
            if roll < 0.15:
                await self.interact(slash("hint", user=user), self.measures.hint)
            elif roll < 0.20:
                await self.interact(slash("board", user=user), self.measures.board)
            elif roll < 0.25:
                other = next(human for human in humans if human != user)
                illegal = other if None not in users and roll < 0.225 else user
                await self.interact(
                    slash("play", string_option("move", "8H QQQQQQQ"), user=illegal), self.measures.play
                )
            best = self.generator.best(game.board(), game.rack)
            if best is None:
                answered = await self.interact(slash("pass", user=user))
            else:
                move = player_notation(best.play)
                answered = await self.interact(
                    slash("play", string_option("move", move), user=user), self.measures.play
                )
            answered_at = time.perf_counter() if answered else None
            after = self.state(channel_id)
            if after is not None and after.moves == length and after.current == game.current:
                self.measures.refused += answered  # answered without being applied
                continue  # planned again
            acted_at_length = length


def cpu_seconds(stat_path: Path) -> float:
    """User + system CPU seconds of a process or thread, from its ``/proc/.../stat``."""
    fields = stat_path.read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(child) for child in (task / "children").read_text().split()]
    return found


def percentile(values: Sequence[float], share: float) -> float:
    """The ``share`` quantile of ``values`` in milliseconds (0 without values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))] * 1000


async def run(
    games: int,
    duration: float,
    generator: MoveGenerator,
    directory: Path,
    seed: int,
    code: Path | None,
    profile: Path | None = None,
    *,
    reuse_images: bool = False,
    generous: bool = False,
) -> str:
    """One run with ``games`` channels, the bot's code imported from ``code`` (``None``: this tree), its
    threads sampled into ``profile`` if given, drawing each kind of image only once if ``reuse_images``,
    against Discord's documented rate limits (:data:`GENEROUS` ones if ``generous``); its line."""
    fake = FakeDiscord(valid_token=TEST_TOKEN, rate_limits=GENEROUS if generous else RateLimits())
    await fake.start()
    gateway = FakeGateway(fake.bot_user, fake.application_id, [guild_payload(GUILD_ID, FIRST_USER)])
    await gateway.start()
    fake.gateway_url = gateway.url
    database = directory / f"load-{games}.sqlite3"
    config = directory / f"load-{games}.toml"
    limits = (
        "[discord]\n"
        f"requests_per_second = {min(GENEROUS.global_limit, BOT_MOST_PER_SECOND)}\n"
        f"channel_requests = {GENEROUS.per_route}\nchannel_seconds = {GENEROUS.route_window}\n"
        if generous
        else ""
    )
    config.write_text(f'database = {json.dumps(str(database))}\nlog_level = "WARNING"\n{limits}')
    log = (directory / f"bot-{games}.log").open("wb")
    bot = await asyncio.create_subprocess_exec(
        sys.executable, str(GATEWAY_SCRIPT), fake.api_base, gateway.url, "--config", str(config),
        env=os.environ
        | {"DISCORD_TOKEN": TEST_TOKEN}
        | ({"PYTHONPATH": str(code)} if code else {})
        | ({"SCRABBLE_SAMPLE_TO": str(profile)} if profile else {})
        | ({"SCRABBLE_REUSE_IMAGES": "1"} if reuse_images else {}),
        stderr=log,
    )  # fmt: skip
    driver = Driver(fake, gateway, database, generator)
    tasks: list[asyncio.Task[None]] = []
    try:
        await asyncio.wait_for(gateway.identified.wait(), 120)
        await asyncio.sleep(1)
        rng = random.Random(seed)
        started = [asyncio.Event() for _ in range(games)]
        tasks = [
            asyncio.create_task(driver.play_channel(i, i % 2 == 1, started[i], random.Random(rng.random())))
            for i in range(games)
        ]
        await asyncio.wait_for(asyncio.gather(*(event.wait() for event in started)), 300)
        driver.measuring = True
        wall, bench_cpu = time.time(), time.process_time()
        bot_cpu = cpu_seconds(Path(f"/proc/{bot.pid}/stat"))
        loop_cpu = cpu_seconds(Path(f"/proc/{bot.pid}/task/{bot.pid}/stat"))
        await asyncio.sleep(duration)
        driver.measuring = False
        elapsed = time.time() - wall
        bot_cpu = cpu_seconds(Path(f"/proc/{bot.pid}/stat")) - bot_cpu
        loop_cpu = cpu_seconds(Path(f"/proc/{bot.pid}/task/{bot.pid}/stat")) - loop_cpu
        bench_cpu = time.process_time() - bench_cpu
        memory, workers_memory = rss_mb(bot.pid), sum(rss_mb(child) for child in children(bot.pid))
        moves = driver.moves_between(wall, wall + elapsed)
        rate_limited = len(fake.rate_limited)
    finally:
        driver.stopped = True  # a cancellation can be lost in asyncio.wait_for (Python 3.11)
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=ANSWER_TIMEOUT + WAKE_UP)
        await stop_bot(bot)
        log.close()
        await gateway.close()
        await fake.close()
    m = driver.measures
    per_move = max(moves, 1)
    return (
        f"code={'current' if code is None else 'baseline'}{'+reused-images' if reuse_images else ''} "
        f"limits={'generous' if generous else 'discord'} "
        f"games={games} duration_s={elapsed:.0f} moves_per_s={moves / elapsed:.1f} "
        f"rest_requests_per_move={m.rest_requests / per_move:.2f} "
        f"interaction_answers_per_move={m.interaction_answers / per_move:.2f} rate_limited={rate_limited} "
        f"ack_p99_ms={percentile(m.ack, 0.99):.0f} "
        f"play_answer_p50_ms={percentile(m.play, 0.5):.0f} play_answer_p99_ms={percentile(m.play, 0.99):.0f} "
        f"hint_answer_p50_ms={percentile(m.hint, 0.5):.0f} hint_answer_p99_ms={percentile(m.hint, 0.99):.0f} "
        f"board_answer_p99_ms={percentile(m.board, 0.99):.0f} "
        f"ai_move_p50_ms={percentile(m.ai_move, 0.5):.0f} ai_move_p99_ms={percentile(m.ai_move, 0.99):.0f} "
        f"interactions={m.sent} unacked_3s={m.unacked} unanswered={m.unanswered} refused={m.refused} "
        f"rss_mb={memory:.0f} workers_rss_mb={workers_memory:.0f} bot_cpu_pct={bot_cpu * 100 / elapsed:.0f} "
        f"loop_cpu_pct={loop_cpu * 100 / elapsed:.0f} bench_cpu_pct={bench_cpu * 100 / elapsed:.0f} "
        f"load={os.getloadavg()[0]:.1f}"
    )


async def main(args: argparse.Namespace) -> None:
    """Every run, in the order given."""
    generator = load_move_generator(load_enable())
    with tempfile.TemporaryDirectory() as directory:
        codes: list[Path | None] = [None]
        if args.baseline is not None:
            codes = [args.baseline] if args.baseline_only else [args.baseline, None]
        for games in args.games:
            for code in codes:
                profile = None
                if args.profile:
                    profile = args.profile.with_name(
                        f"{args.profile.name}-{games}-{'base' if code else 'current'}.txt"
                    )
                line = await run(
                    games,
                    args.duration,
                    generator,
                    Path(directory),
                    args.seed,
                    code,
                    profile,
                    reuse_images=args.reuse_images,
                    generous=args.generous,
                )
                print(line, flush=True)
        if args.keep_logs:
            for log in Path(directory).glob("bot-*.log"):
                print(f"--- {log.name}\n{log.read_text()[-5000:]}", file=sys.stderr)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[50, 200])
    parser.add_argument(
        "--duration", type=float, default=120.0, help="seconds measured, once every game has started"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--baseline", type=Path, help="also run the bot imported from this copy of the code")
    parser.add_argument(
        "--profile", type=Path, help="sample the bot's threads into PROFILE-N-{base,current}.txt"
    )
    parser.add_argument(
        "--baseline-only",
        action="store_true",
        help="run only the baseline (to run it beside another process)",
    )
    parser.add_argument(
        "--reuse-images",
        action="store_true",
        help="what-if: the bot draws each kind of image once and resends it (drawing costs nothing)",
    )
    parser.add_argument(
        "--generous",
        action="store_true",
        help="the fake allows a thousand requests a second per route instead of Discord's limits",
    )
    parser.add_argument("--keep-logs", action="store_true", help="print the end of each bot's log")
    asyncio.run(main(parser.parse_args()))
