"""``scrabble-bot web``: play in the browser without Discord; ``scrabble-bot arena``: bots against bots
and the built-in AI, with win rates.

``web`` starts a local game (you against the AI, or friends with ``--players``; ``--host 0.0.0.0`` for
the LAN): Scrabble, or Go with ``--game go`` (``scrabble-bot go --web`` says the same). It prints a link
per player and a spectator link, and serves the board until the game ends and its pages have been
closed (code 1000, as ``docs/protocol.md`` says). Its games are kept in its database: ``--list`` lists
the unfinished ones (reading the database only) and ``--resume [ID]`` serves one again (the one played
last by default). ``--bot-seat`` adds a seat for a program and prints its token (see
``docs/protocol.md`` and ``examples/bot_client.py``).

``arena`` plays ``--games`` games, each between the ``--bot`` commands (each started per game with
``--url URL --token TOKEN`` appended) and ``--ai`` AI opponents, and prints each entrant's win rate with
a 95% (Wilson) interval. A shared first place is shared; the AI seats count as one entrant. A bot whose
process exits before its game ends, or that has not connected within ``--connect-timeout`` seconds,
stops the arena with a message that names it (exit code 1).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import shlex
import sys
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from bot.config import Config, ConfigError, load_config
from bot.console.cli import add_resume_options, default_database
from bot.console.saved import LAST_PLAYED
from bot.games import register_builtin
from bot.games.go.engines import Level
from bot.games.go.kind import KIND as GO
from bot.games.go.options import COLOURS, GoNewGame
from bot.games.scrabble.commands import NewGame
from bot.games.scrabble.console.cli import shipped_variant_names, variant_file
from bot.games.scrabble.kind import KIND as SCRABBLE
from bot.games.scrabble.settings import AI_LEVELS, scrabble_settings
from bot.host import registry
from bot.host.errors import ServiceError
from bot.host.store import GameRow, GameStatus, Store
from bot.host.table import AnyTable
from bot.web.hub import GAME_OVER_GRACE
from bot.web.links import Grant, Role
from bot.web.local import LocalGame, LocalHost, local_host
from bot.web.parts import web_part
from scrabble_core.errors import ScrabbleError
from scrabble_core.game import MAX_PLAYERS, MIN_PLAYERS, ChallengeMode

__all__ = ["arena_main", "main", "wilson_interval"]

EXIT_USAGE: Final = 2
EXIT_FAILED: Final = 1
EXIT_GRACE: Final = 10.0
"""Seconds a bot's process has to exit after its game ended before it is killed."""
END_GRACE: Final = 1.0
"""Seconds a bot's process that exited has to be seen ending its game (the end and the exit can be
noticed in either order) before it is said to have failed."""
Z_95: Final = 1.959964


def wilson_interval(wins: float, games: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of a win rate of ``wins`` out of ``games`` (95% by default)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="the address to serve on (0.0.0.0: the LAN)")
    parser.add_argument("--port", type=int, default=8765, help="the port (0: any free port)")
    parser.add_argument("--public-url", help="the base URL of the links (behind a proxy or a tunnel)")
    parser.add_argument(
        "--level",
        choices=sorted({*AI_LEVELS, *(level.value for level in Level)}),
        help="the AI's level (Scrabble's default: the config's ai.level, expert; Go's: medium)",
    )
    parser.add_argument(
        "--variant",
        help=f"Scrabble's board: {', '.join(shipped_variant_names())} (default: standard; all but the "
        "first two written as programs, see docs/boards.md), or a variant file (FILE.toml)",
    )
    parser.add_argument("--challenge", choices=[m.value for m in ChallengeMode], help="challenge mode")
    parser.add_argument("--time-limit", type=int, default=0, metavar="SECONDS", help="per turn (0: none)")
    parser.add_argument("--seed", type=int, help="fix the shuffle of the bag")
    parser.add_argument("--config", type=Path, help="a settings file (see config.example.toml)")
    parser.add_argument(
        "--db",
        type=Path,
        default=default_database().with_name("web.sqlite3"),
        help="the SQLite file of local games (default: %(default)s)",
    )


def parse_web_args(argv: Sequence[str]) -> argparse.Namespace:
    """The options of ``scrabble-bot web``; exits with a usage message on bad ones."""
    parser = argparse.ArgumentParser(
        prog="scrabble-bot web",
        description="Play Scrabble or Go in the browser, against the AI or with friends; no Discord needed.",
    )
    parser.add_argument(
        "--game", choices=[SCRABBLE, GO], default=SCRABBLE, help="the game (default: scrabble)"
    )
    parser.add_argument(
        "--players", default="You", metavar="NAMES", help="comma-separated names of the people"
    )
    add_resume_options(parser)
    go = parser.add_argument_group("Go (with --game go)")
    go.add_argument("--size", type=int, help="the board's width, 2 to 25 (default 19)")
    go.add_argument("--komi", type=float, help="White's komi (default 7.5, 0.5 with a handicap)")
    go.add_argument("--handicap", type=int, help="Black's handicap stones")
    go.add_argument("--colour", choices=COLOURS, help="the first player's colour (default black)")
    parser.add_argument(
        "--ai", type=int, metavar="N", help="AI opponents (default: 1 for one player, else 0)"
    )
    parser.add_argument("--bot-seat", action="store_true", help="add a seat for a program; print its token")
    parser.add_argument("--hints", type=int, metavar="N", help="hints per player (default: 3)")
    _common(parser)
    args = parser.parse_args(argv)
    names = [name.strip() for name in args.players.split(",")]
    if any(not name for name in names) or len(set(names)) != len(names):
        parser.error("--players: every player needs a name of their own")
    if args.variant is not None and args.variant not in shipped_variant_names():
        args.variant = variant_file(parser, args.variant)
    args.names = names
    if args.game == GO:
        given = [
            f"--{name}" for name in ("variant", "challenge", "hints", "ai") if getattr(args, name) is not None
        ]
        if given or args.bot_seat:
            parser.error(f"Go has no {', '.join(given) or '--bot-seat'}")
        if len(names) > 2:
            parser.error("--players: one name (against the AI) or two (with a friend) for Go")
        if args.level is not None and args.level not in {level.value for level in Level}:
            parser.error(f"--level: Go's levels are {', '.join(level.value for level in Level)}")
        return args
    seats = len(names) + (1 if args.bot_seat else 0)
    args.ai = (1 if seats == 1 else 0) if args.ai is None else args.ai
    if not MIN_PLAYERS <= seats + args.ai <= MAX_PLAYERS:
        parser.error(f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players: check --players, --ai, --bot-seat")
    return args


def _options(args: argparse.Namespace, seed: int | None = None) -> NewGame:
    return NewGame(
        variant=args.variant,
        challenge_mode=args.challenge,
        turn_seconds=args.time_limit,
        ai_opponents=args.ai,
        ai_level=args.level,
        hints=getattr(args, "hints", None),
        seed=args.seed if seed is None else seed,
    )


def _go_options(args: argparse.Namespace) -> GoNewGame:
    return GoNewGame(
        size=args.size,
        komi=args.komi,
        handicap=args.handicap,
        ai_level=(args.level or Level.MEDIUM.value) if len(args.names) == 1 else None,
        time_limit=args.time_limit,
        colour=args.colour,
        seed=args.seed,
    )


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``scrabble-bot web`` with ``argv`` (the arguments after ``web``); return the exit code."""
    args = parse_web_args(sys.argv[1:] if argv is None else argv)
    if args.list:
        return asyncio.run(_list(args.db))
    return _run(args, _web)


async def _list(database: Path) -> int:
    """Print the unfinished games of ``database``, the one played last at the end, reading it only."""
    register_builtin()
    store = await Store.open_to_read(database)
    rows: list[GameRow] = []
    if store is not None:
        try:
            rows = sorted(
                (row for row in await store.open_games() if row.status is not GameStatus.LOBBY),
                key=lambda row: (row.updated_at, row.id),
            )
        finally:
            await store.close()
    if not rows:
        print("No game is saved: start one with scrabble-bot web")
    for row in rows:
        print(f"Game {row.id}: {_describe(row)}")
    return 0


def _describe(row: GameRow) -> str:
    """``Go: Ann vs AI (medium)``."""
    known = {game.kind: game.title for game in registry.games()}
    players = " vs ".join(
        seat.name if seat.ai_level is None else f"{seat.name} ({seat.ai_level})" for seat in row.seats
    )
    return f"{known.get(row.kind, row.kind)}: {players}"


def _run(args: argparse.Namespace, command: Callable[[argparse.Namespace, Config], Awaitable[int]]) -> int:
    try:
        config = load_config(args.config)
    except ConfigError as error:
        print(f"scrabble-bot: {error}", file=sys.stderr)
        return EXIT_USAGE
    try:
        return asyncio.run(_call(command, args, config))
    except KeyboardInterrupt:
        print("\nStopped. The game is saved in the database.")
        return 0
    except (ScrabbleError, ServiceError) as error:  # an option a game refuses
        print(f"scrabble-bot: {error}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as error:
        print(f"scrabble-bot: {error}", file=sys.stderr)
        return EXIT_FAILED


async def _call(
    command: Callable[[argparse.Namespace, Config], Awaitable[int]], args: argparse.Namespace, config: Config
) -> int:
    return await command(args, config)


async def _web(args: argparse.Namespace, config: Config) -> int:
    async with _host(args, config) as host:
        if args.resume is not None:
            game = _resumed(host, args.resume)
            if game is None:
                return EXIT_USAGE
        elif args.game == GO:
            game = await host.new_go_game(args.names, _go_options(args))
        else:
            seats = [(name, Role.PLAYER) for name in args.names]
            if args.bot_seat:
                seats.append(("Bot", Role.BOT))
            game = await host.new_game(seats, _options(args))
        print(f"Game {game.game_id} is on. Open your link in a browser:")
        table = host.games.open_table(game.game_id)
        for seat, (link, token) in enumerate(zip(game.links, game.tokens, strict=True)):
            name = table.row.seats[seat].name
            if token is not None and table.row.seats[seat].name == "Bot" and args.bot_seat:
                print(f"  bot seat {seat} ({name}): token {token}")
                print(f"    websocket {host.base_url.replace('http', 'ws', 1)}/ws (see docs/protocol.md)")
            elif link is not None:
                print(f"  {name}: {link}")
        print(f"  spectators: {game.spectator}")
        print("Press Ctrl-C to stop (the game is saved).", flush=True)
        final = await host.ends.wait(game.game_id)
        print(web_part(final.row.kind).summary(final), flush=True)
        # The pages get game_over, then the hub closes them (code 1000): the server answers until then.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(host.server.connections_closed(game.game_id), GAME_OVER_GRACE + EXIT_GRACE)
    return 0


def _resumed(host: LocalHost, wanted: int) -> LocalGame | None:
    """The links of the saved game ``wanted`` (:data:`LAST_PLAYED`: the one played last); ``None``
    after saying why when there is none."""
    rows = sorted(
        (table.row for table in host.games.tables.values()), key=lambda row: (row.updated_at, row.id)
    )
    rows = [row for row in rows if row.status is not GameStatus.LOBBY]
    if not rows:
        print("There is no unfinished game to resume: start one with scrabble-bot web", file=sys.stderr)
        return None
    chosen = rows[-1] if wanted == LAST_PLAYED else next((row for row in rows if row.id == wanted), None)
    if chosen is None:
        known = ", ".join(str(row.id) for row in rows)
        print(
            f"No unfinished game has the id {wanted} (saved: {known}); scrabble-bot web --list",
            file=sys.stderr,
        )
        return None
    return host.links(chosen.id)


def _host(args: argparse.Namespace, config: Config) -> contextlib.AbstractAsyncContextManager[LocalHost]:
    return local_host(config, args.db, host=args.host, port=args.port, public_url=args.public_url)


# The arena ---------------------------------------------------------------------------------------------


def parse_arena_args(argv: Sequence[str]) -> argparse.Namespace:
    """The options of ``scrabble-bot arena``; exits with a usage message on bad ones."""
    parser = argparse.ArgumentParser(
        prog="scrabble-bot arena",
        description="Play games between bot programs (over the protocol) and the built-in AI; print "
        "each one's win rate with a 95% interval.",
    )
    parser.add_argument("--games", type=int, default=10, help="how many games (default: 10)")
    parser.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="COMMAND",
        help="a bot program, started per game with --url URL --token TOKEN appended (repeatable)",
    )
    parser.add_argument("--ai", type=int, default=1, metavar="N", help="AI opponents per game (default: 1)")
    parser.add_argument(
        "--connect-timeout",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="how long a bot may take to connect before the arena stops (default: 30)",
    )
    _common(parser)
    args = parser.parse_args(argv)
    if not args.bot:
        parser.error("give at least one --bot COMMAND (the AI needs someone to play against)")
    if not MIN_PLAYERS <= len(args.bot) + args.ai <= MAX_PLAYERS:
        parser.error(f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players: check --bot and --ai")
    if args.games < 1:
        parser.error("--games must be at least 1")
    args.port = args.port if "--port" in argv else 0
    return args


def arena_main(argv: Sequence[str] | None = None) -> int:
    """Run ``scrabble-bot arena`` with ``argv`` (the arguments after ``arena``); return the exit code."""
    return _run(parse_arena_args(sys.argv[1:] if argv is None else argv), _arena)


class BotFailedError(Exception):
    """A bot program of the arena exited before its game ended, or did not connect in time."""


async def _arena(args: argparse.Namespace, config: Config) -> int:
    names = [f"bot{i + 1}" for i in range(len(args.bot))]
    level = args.level or scrabble_settings(config).ai_level
    entrants = [*names, *[f"AI ({level})"] * min(args.ai, 1)]
    wins = dict.fromkeys(entrants, 0.0)
    async with _host(args, config) as host:
        for number in range(args.games):
            seed = None if args.seed is None else args.seed + number
            game = await host.new_game([(name, Role.BOT) for name in names], _options(args, seed))
            url = f"{host.base_url.replace('http', 'ws', 1)}/ws"
            tokens = [token for token in game.tokens if token is not None]
            bots: list[_Bot] = []
            final: AnyTable | None = None
            try:
                for name, command, token in zip(names, args.bot, tokens, strict=False):
                    process = await asyncio.create_subprocess_exec(
                        *shlex.split(command),
                        "--url",
                        url,
                        "--token",
                        token,
                        stdout=asyncio.subprocess.DEVNULL,
                    )
                    bots.append(_Bot(name, command, host.server.signer.verify(token), process))
                final = await _game_end(host, game.game_id, bots, args.connect_timeout)
            except BotFailedError as error:
                print(f"scrabble-bot: {error}", file=sys.stderr)
                return EXIT_FAILED
            finally:  # a failed game's bots are killed at once
                await _stop_bots(bots, EXIT_GRACE if final is not None else 0.0)
            assert final is not None and final.game is not None
            winners = final.game.winners()
            seats = final.row.seats
            for seat in winners:
                wins[f"AI ({level})" if seats[seat].is_ai else seats[seat].name] += 1 / len(winners)
            scores = " ".join(f"{seats[i].name}={p.score}" for i, p in enumerate(final.game.players))
            print(f"game {number + 1}: {scores}", flush=True)
    print(f"{args.games} games")
    for name in entrants:
        low, high = wilson_interval(wins[name], args.games)
        print(f"{name}: win rate {wins[name] / args.games:.2f} (95% interval {low:.2f}-{high:.2f})")
    return 0


@dataclass(frozen=True)
class _Bot:
    """A bot program started for one game: its entrant name, its command, its token's grant."""

    name: str
    command: str
    grant: Grant
    process: asyncio.subprocess.Process


async def _game_end(host: LocalHost, game_id: int, bots: Sequence[_Bot], connect_seconds: float) -> AnyTable:
    """The table of game ``game_id`` once it has ended.

    Raises:
        BotFailedError: a bot's process exited before the game ended, or had not connected (said
            hello) within ``connect_seconds``.
    """
    ended = asyncio.ensure_future(host.ends.wait(game_id))
    exits = {asyncio.ensure_future(bot.process.wait()): bot for bot in bots}
    waiting: set[asyncio.Future[Any]] = {ended, *exits}
    timeout: float | None = connect_seconds
    try:
        while True:
            done, waiting = await asyncio.wait(waiting, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
            if not done:  # the time to connect is up
                timeout = None
                for bot in bots:
                    if not host.server.hub.connected(bot.grant):
                        raise BotFailedError(
                            f"{bot.name} ({bot.command}) did not connect within {connect_seconds:g} seconds: "
                            "a bot connects to the websocket and says hello (see docs/protocol.md)"
                        )
                continue
            if ended not in done:
                await asyncio.wait([ended], timeout=END_GRACE)
            if ended.done():
                return ended.result()
            bot = exits[next(task for task in done if task in exits)]
            raise BotFailedError(
                f"{bot.name} ({bot.command}) exited with code {bot.process.returncode} before its game ended"
            )
    finally:
        for task in (ended, *exits):
            task.cancel()


async def _stop_bots(bots: Sequence[_Bot], grace: float) -> None:
    """Give each bot's process ``grace`` seconds more to exit, then kill it."""
    for bot in bots:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(bot.process.wait(), grace)
        if bot.process.returncode is None:
            bot.process.kill()
            await bot.process.wait()
