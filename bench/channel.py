"""A channel as players see it: whole games played through discord.py against the fake Discord, written
out as a transcript with its images.

``python bench/channel.py OUT_DIR`` runs the real bot in this process (the real host with its AI
workers, the ENABLE lexicon, the real images) against the fake Discord REST API
(``tests/bot/discord_fake.py``) with Discord's documented rate limits, and plays two whole Scrabble
games through it, as people would with the messages' buttons and forms: Alice and Bob against each
other in one channel, Alice against the AI (at the configured level) in another. Each player plays the
highest-scoring play the engine finds for their rack (exchanging or passing when there is none).

For each game ``OUT_DIR`` gets ``<game>.md``: every message in the order Discord received it, with who
sees it (the channel, one player privately, a DM), its text, its buttons and links, its files (the
images are written beside it, ``<game>-NNN-<name>``), the edits and typing indicators; then the count
of REST requests (interaction answers aside) and of interaction answers per move, the figures the issue
of one message a move is measured by, the 429 answers met, and how many of the racks each person held at
their turns they were shown before (in an answer to them or a DM). Nothing here is timed
(``tests/bot/test_channel_requests.py`` runs it and checks those figures).
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "bot"))

import discord.http  # noqa: E402
from discord_fake import (  # noqa: E402
    TEST_TOKEN,
    FakeDiscord,
    Payloads,
    RateLimits,
    RecordedFile,
    RecordedRequest,
    button_id,
    custom_ids,
    integer_option,
)

from bot.config import Config  # noqa: E402
from bot.discord.client import GameBot  # noqa: E402
from bot.games import register_builtin  # noqa: E402
from bot.host.assembly import HostParts, host_parts  # noqa: E402
from bot.host.protocols import Notifier  # noqa: E402
from bot.host.runner import Host  # noqa: E402
from scrabble_core.game import Game  # noqa: E402
from scrabble_core.lexicon import load_enable  # noqa: E402
from scrabble_core.move_words import rack_in_words  # noqa: E402
from scrabble_core.movegen import MoveGenerator, load_move_generator  # noqa: E402
from scrabble_core.notation import player_notation  # noqa: E402
from scrabble_core.variant import get_variant  # noqa: E402

ALICE: Final = 700_000_000_000_000_001
BOB: Final = 700_000_000_000_000_002
NAMES: Final = {ALICE: "Alice", BOB: "Bob"}
GUILD: Final = 800_000_000_000_000_001
SEED: Final = 3
"""The seed of every game (its bag and its draw for the first turn)."""
TIMEOUT: Final = 60.0
MOVE_KINDS: Final = ("play", "exchange", "pass")
STANDARD: Final = get_variant("standard")


@dataclass
class Table:
    """One game's channel and what the script knows of its interactions: who sent each (by token)."""

    name: str
    channel_id: int
    payloads: Payloads
    senders: dict[str, int] = field(default_factory=dict)

    def sent_by(self, payload: dict[str, Any], user: int) -> dict[str, Any]:
        """``payload`` from ``user``, named as they are (the fake's users are all "userN"), noted as theirs."""
        person = payload["member"]["user"]
        person["username"], person["global_name"] = NAMES[user].lower(), NAMES[user]
        self.senders[payload["token"]] = user
        return payload

    def slash(self, command: str, *options: dict[str, Any], user: int = ALICE) -> dict[str, Any]:
        return self.sent_by(self.payloads.slash(command, options, user_id=user), user)


class Players:
    """Alice and Bob, pressing the buttons of the newest messages of their game's channel."""

    def __init__(self, bot: GameBot, fake: FakeDiscord, generator: MoveGenerator) -> None:
        self.bot = bot
        self.fake = fake
        self.generator = generator
        self.racks: list[tuple[int, str]] = []
        """Each rack a person held at a turn of theirs (user id, rack), in order."""

    @property
    def host(self) -> Host:
        return self.bot.host

    async def send(self, table: Table, payload: dict[str, Any]) -> RecordedRequest:
        """Dispatch ``payload`` as the gateway does; return its callback once what it caused went out
        (a deferred one's answer is its followup)."""
        self.bot._connection.parse_interaction_create(payload)  # type: ignore[arg-type]
        callback = await self.fake.callback_for(payload, timeout=TIMEOUT)
        if callback.json.get("type") in (5, 6):
            await self.fake.followups_for(payload, timeout=TIMEOUT)
        await asyncio.wait_for(self.host.idle(), TIMEOUT)
        return callback

    def newest_with(self, table: Table, action: str) -> dict[str, Any]:
        """The newest message of the channel with a button ``scrabble:{action}:...``."""
        for message in reversed(self.fake.channel_messages(table.channel_id)):
            for custom_id in custom_ids(message):
                if custom_id.startswith(f"scrabble:{action}:"):
                    return message
        raise AssertionError(f"no message of {table.name} has a {action} button")

    async def press(self, table: Table, action: str, user: int) -> RecordedRequest:
        """``user`` presses the ``action`` button of the newest message that has one."""
        message = self.newest_with(table, action)
        custom_id = next(c for c in custom_ids(message) if c.startswith(f"scrabble:{action}:"))
        payload = table.payloads.component(message, button_id(message, custom_id) or custom_id, user_id=user)
        return await self.send(table, table.sent_by(payload, user))

    async def fill(self, table: Table, action: str, field_id: str, text: str, user: int) -> None:
        """``user`` presses ``action`` (Play or Exchange), then sends its form with ``text`` (the
        message of the button along, as Discord sends it)."""
        message = self.newest_with(table, action)
        opened = await self.press(table, action, user)
        form = opened.json["data"]["custom_id"]
        payload = table.payloads.modal_submit(form, {field_id: text}, user_id=user, message=message)
        await self.send(table, table.sent_by(payload, user))

    def game(self, table: Table) -> Game | None:
        """The channel's game, if one is being played."""
        try:
            return self.host.commands["scrabble"].game(table.channel_id)  # type: ignore[no-any-return]
        except Exception:
            return None

    async def play_out(self, table: Table, users: Mapping[int, int]) -> None:
        """Play the channel's game to its end: ``users`` are the people's seats (the others are AIs)."""
        while (game := self.game(table)) is not None and not game.is_over:
            seat = game.current
            if seat not in users:
                await asyncio.sleep(0.05)
                continue
            user = users[seat]
            rack = game.players[seat].rack
            self.racks.append((user, rack))
            best = self.generator.best(game.board, rack)
            if best is not None:
                await self.fill(table, "play", "move", player_notation(best.play, game.variant), user)
            elif len(game.bag) >= game.variant.exchange_min_bag:
                await self.fill(table, "exchange", "tiles", rack, user)
            else:
                await self.press(table, "pass", user)
            await asyncio.wait_for(self.host.idle(), TIMEOUT)


def seats_of(bot: GameBot, channel_id: int) -> dict[int, int]:
    """The seats of the people in the channel's game (seat number: user id)."""
    table = bot.host.tables[channel_id]
    return {seat.seat: seat.user_id for seat in table.row.seats if seat.user_id in NAMES}


def _buttons(body: Mapping[str, Any]) -> list[str]:
    labels = []
    for row in body.get("components") or []:
        for component in row.get("components", []):
            label = component.get("label", "?")
            labels.append(f"[{label}]" if "custom_id" in component else f"[{label} ↗]")
    return labels


@dataclass
class Transcript:
    """A game's messages as its players see them, in the order Discord received them, with the images
    written to ``out`` and the requests counted."""

    table: Table
    fake: FakeDiscord
    out: Path
    lines: list[str] = field(default_factory=list)
    private: dict[int, list[str]] = field(default_factory=dict)
    """The texts each person alone saw (answers to them, DMs)."""
    rest: int = 0
    answers: int = 0
    files: int = 0

    def who(self, request: RecordedRequest) -> str | None:
        """Who sees what ``request`` sends (counting it), or ``None`` if it is not this game's."""
        path = request.path
        if path.startswith(("/interactions/", "/webhooks/")):
            token = next((part for part in path.split("/") if part.startswith("itoken-")), None)
            if token not in self.table.senders:
                return None
            self.answers += 1
            sender = NAMES[self.table.senders[token]]
            return f"{sender}, privately" if request.ephemeral else f"the channel (answering {sender})"
        if path == "/users/@me/channels":
            self.rest += 1
            return None
        match = re.match(r"/channels/([0-9]+)/", path)
        channel = None if match is None else int(match[1])
        if channel in self.fake.dm_recipients:
            self.rest += 1
            return f"DM to {NAMES[self.fake.dm_recipients[channel]]}"
        if channel == self.table.channel_id:
            self.rest += 1
            return "the channel"
        return None

    def add(self, request: RecordedRequest) -> None:
        """The line of ``request``, if it shows anything to anyone."""
        who = self.who(request)
        kind = request.json.get("type") if isinstance(request.json, dict) else None
        if who is None or (request.path.endswith("/callback") and kind in (5, 6)):
            return  # not this game's, or an acknowledgement that shows nothing
        if request.path.endswith("/typing"):
            self.lines.append(f"- **{who}**: (the bot is typing…)")
            return
        if kind == 9:
            self.lines.append(f"- **{who}**: a form opens: {request.json['data'].get('title')}")
            return
        body = request.body
        if request.method == "PATCH":
            who += ", edit of an earlier message"
        content = str(body.get("content") or "")
        for user, name in NAMES.items():
            if who in (f"{name}, privately", f"DM to {name}"):
                self.private.setdefault(user, []).append(content)
        text = content.replace("\n", "\n  > ")
        parts = [f"- **{who}**:"] + ([f"\n  > {text}"] if text else [])
        extras = _buttons(body) + [self.image(recorded) for recorded in request.files]
        if extras:
            parts.append(f"\n  {' '.join(extras)}")
        if request.method == "PATCH" and body.get("components") == []:
            parts.append("\n  (its buttons removed)")
        self.lines.append("".join(parts))

    def image(self, recorded: RecordedFile) -> str:
        """Write a file the bot sent beside the transcript; its link."""
        self.files += 1
        name = f"{self.table.name}-{self.files:03d}-{recorded.filename}"
        (self.out / name).write_bytes(recorded.data)
        return f"[{recorded.filename}]({name})"

    def racks_seen(self, racks: Sequence[tuple[int, str]]) -> int:
        """How many of ``racks`` (a person's rack at a turn of theirs) that person was shown before
        (in an answer to them or a DM), as the rack message says it."""
        seen = 0
        for user, rack in racks:
            said = f": {rack_in_words(rack, STANDARD)}"
            seen += any(said in text for text in self.private.get(user, []))
        return seen

    def text(self, moves: int, racks: Sequence[tuple[int, str]]) -> str:
        """The whole transcript, with the counts per move and the racks seen."""
        per_move = max(moves, 1)
        return "\n".join(
            [
                f"# {self.table.name}",
                "",
                *self.lines,
                "",
                f"Moves: {moves}. REST requests (interaction answers aside): {self.rest}, "
                f"{self.rest / per_move:.2f} a move. Interaction answers: {self.answers}, "
                f"{self.answers / per_move:.2f} a move.",
                f"429 answers met: {len(self.fake.rate_limited)}. Racks shown to their player before their "
                f"turn: {self.racks_seen(racks)} of {len(racks)}.",
                "",
            ]
        )


async def play_game(
    players: Players, fake: FakeDiscord, table: Table, out: Path, *, against_ai: bool
) -> None:
    """Open, start and play out one game in ``table``'s channel; write its transcript."""
    first = len(fake.requests)
    players.racks.clear()
    if against_ai:
        await players.send(table, table.slash("new", integer_option("ai_opponents", 1)))
    else:
        await players.send(table, table.slash("new"))
        await players.press(table, "join", BOB)
    await players.press(table, "start", ALICE)
    if players.game(table) is None:
        said = [f"{request.method} {request.path} {request.json}" for request in fake.requests[first:]]
        raise AssertionError(f"{table.name}: the game did not start: {said}"[-3000:])
    game_id = players.host.tables[table.channel_id].row.id
    await players.play_out(table, seats_of(players.bot, table.channel_id))
    await asyncio.wait_for(players.host.idle(), TIMEOUT)
    row = await players.host.store.game(game_id)
    assert row is not None and row.state is not None
    moves = sum(1 for event in row.state["history"] if event["kind"] in MOVE_KINDS)
    written = Transcript(table, fake, out)
    for request in fake.requests[first:]:
        written.add(request)
    text = written.text(moves, players.racks)
    (out / f"{table.name}.md").write_text(text)
    print(" ".join(text.splitlines()[-3:-1]), "|", table.name)


async def main(out: Path) -> None:
    register_builtin()
    out.mkdir(parents=True, exist_ok=True)
    fake = FakeDiscord(rate_limits=RateLimits())
    await fake.start()
    discord.http.Route.BASE = fake.api_base
    with tempfile.TemporaryDirectory() as directory:
        config = Config(database=Path(directory) / "games.sqlite3")
        async with host_parts(config) as parts:
            bot = GameBot(config, lambda notifier: _host(parts, notifier), sync_commands=False)
            await bot.login(TEST_TOKEN)
            try:
                generator = await asyncio.to_thread(load_move_generator, load_enable())
                players = Players(bot, fake, generator)
                app = fake.application_id
                humans = Table(
                    "two-humans", 800_000_000_000_000_010, Payloads(app, GUILD, 800_000_000_000_000_010)
                )
                ai = Table(
                    "against-the-ai", 800_000_000_000_000_020, Payloads(app, GUILD, 800_000_000_000_000_020)
                )
                await play_game(players, fake, humans, out, against_ai=False)
                await play_game(players, fake, ai, out, against_ai=True)
            finally:
                await bot.close()
    await fake.close()


async def _host(parts: HostParts, notifier: Notifier) -> Host:
    return await parts.host(notifier, {"scrabble": {"new_seed": lambda: SEED}})


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the folder the transcripts and images are written to")
    asyncio.run(main(parser.parse_args().out))
