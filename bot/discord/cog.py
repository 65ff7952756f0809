"""The ``/scrabble`` command group: one command per action of the game service.

Each game command finds the game by its channel (a thread is a channel of its own), calls the service
and shows its answer: ephemerally when the answer is private (acknowledgements, racks, hints...),
publicly otherwise (``board``, ``score``). Commands whose work may outlast Discord's 3 seconds
(rendering, AI turns, hints, DMs) are deferred first and answered by a followup. Refusals and bugs
are raised to the command tree, whose error handler (:func:`bot.discord.errors.report_error`) answers them.
``rules`` and ``help`` need no game and work in DMs too; the game commands refuse DMs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Any, Final

import discord
from discord import app_commands
from discord.ext import commands

from bot.config import AI_LEVELS, MAX_HINTS, MAX_TURN_SECONDS
from bot.discord.delivery import answer, defer
from bot.discord.errors import GuildOnlyError
from bot.discord.views import can_manage, user_of, view_for
from bot.messages import Message
from bot.service.game_service import GameService, NewGame
from scrabble_core.game import MAX_PLAYERS, ChallengeMode
from scrabble_core.variant import bundled_variant_names

if TYPE_CHECKING:
    from bot.discord.client import ScrabbleBot

MAX_CHOICES: Final = 25
"""The most suggestions Discord shows."""

MAX_CHOICE_LENGTH: Final = 100
"""The longest name or value of a suggestion Discord accepts."""

Work = Callable[[GameService, int, int], Awaitable[Message]]
"""A call to the service for a command: ``work(service, guild_id, channel_id)``."""

RULES_TITLE: Final = "**Scrabble rules, as this bot plays them (tournament rules)**"

RULES: Final[dict[str, str]] = {
    "tiles": (
        "**Tiles**: 100 tiles, 2 of them blanks: a blank is worth 0 and stands for any letter, chosen when "
        "it is played. Each player holds 7 tiles and draws back up to 7 after playing."
    ),
    "turns": (
        "**Turns**: play a word, exchange tiles or pass. The first word covers the centre square and has at "
        "least 2 letters; later words touch the tiles on the board. The new tiles are in one row or column "
        "with no gap, and every word they form counts."
    ),
    "bingo": "**Bingo**: playing all 7 of your tiles in one move scores 50 extra points.",
    "exchange": (
        "**Exchange**: swap any of your tiles for new ones from the bag, only while at least 7 tiles are "
        "left in it. It scores nothing and uses your turn."
    ),
    "end": (
        "**End of the game**: a player plays their last tile once the bag is empty, or six consecutive "
        "turns score nothing (passes, exchanges, withdrawn plays). Rack adjustments: whoever goes out gains "
        "twice the value of the opponent's rack (two players), or with more players, the sum of the other "
        "racks, which each other player loses. After six scoreless turns, every player loses the value of "
        "their own rack."
    ),
    "challenges": (
        "**Challenges** (set per game): *void*: every word is checked as it is played and an invalid play "
        "is refused. *single*: plays stand unless challenged; a play with an invalid word is taken back and "
        "scores 0, a failed challenge costs nothing. *double*: the same, but a failed challenge costs the "
        "challenger their next turn. *five-point*: the same, but a failed challenge gives the player who "
        "made the play 5 points. AI opponents challenge invalid words too (the easier levels miss some) "
        "and never challenge a valid play."
    ),
    "notation": (
        "**Notation**: row number first plays across (`8H QUIZ` starts at H8 and goes right), column "
        "letter first plays down (`H8 QUIZ` goes down). Type the whole word, including tiles already on "
        "the board (or `.` for each of them). `?E` is a blank used as E."
    ),
}
"""The rules, one section per topic of ``/scrabble rules``, in the order they are shown."""


def rules_text(topic: str | None = None) -> str:
    """The text of ``/scrabble rules``: every section, or only ``topic``'s."""
    if topic is None:
        return "\n\n".join([RULES_TITLE, *RULES.values()])
    section = RULES.get(topic.strip().lower())
    if section is None:
        return f"There is no rules topic called {topic!r}. Topics: {', '.join(RULES)}."
    return section


def help_text(commands: Iterable[app_commands.Command[Any, ..., Any] | app_commands.Group]) -> str:
    """The text of ``/scrabble help``: one line per command (groups are skipped), with its options."""
    lines = ["**Scrabble commands**"]
    for command in commands:
        if isinstance(command, app_commands.Command):
            options = " ".join(
                f"<{p.display_name}>" if p.required else f"[{p.display_name}]" for p in command.parameters
            )
            usage = f"/{command.qualified_name} {options}".rstrip()
            lines.append(f"`{usage}`: {command.description}")
    return "\n".join(lines)


def where(interaction: discord.Interaction[Any]) -> tuple[int, int]:
    """The guild and channel (or thread) of a game command.

    Raises:
        GuildOnlyError: the command was used in a DM.
    """
    if interaction.guild_id is None or interaction.channel_id is None:
        raise GuildOnlyError
    return interaction.guild_id, interaction.channel_id


async def run(interaction: discord.Interaction[Any], work: Work, *, slow: bool, public: bool = False) -> None:
    """Run a game command: refuse DMs, defer first if ``slow`` (publicly if the answer is ``public``),
    call the service and answer with its message (and its buttons)."""
    guild_id, channel_id = where(interaction)
    if slow:
        await defer(interaction, public=public)
    service: GameService = interaction.client.service
    reply = await work(service, guild_id, channel_id)
    await answer(interaction, reply, view_for(reply))


def exchange_suggestions(rack: str, typed: str) -> list[str]:
    """Tiles to exchange for ``/scrabble exchange``, from the rack: what was typed if the rack holds it,
    then that plus each other letter of the rack, then the whole rack."""
    tiles = "".join(typed.split()).upper()
    counts = Counter(rack)
    suggestions: list[str] = []
    if tiles and Counter(tiles) <= counts:
        suggestions.append(tiles)
        left = counts - Counter(tiles)
        suggestions.extend(tiles + letter for letter in sorted(left))
    elif not tiles:
        suggestions.extend(sorted(counts))
    suggestions.append(rack)
    return list(dict.fromkeys(suggestions))[:MAX_CHOICES]


def shorten(text: str, limit: int) -> str:
    """``text``, cut to ``limit`` characters with an ellipsis if it is longer."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def leave_after(rack: str, tiles: str) -> str:
    """The tiles of ``rack`` kept after exchanging ``tiles``."""
    return "".join(sorted((Counter(rack) - Counter(tiles)).elements()))


VARIANTS: Final = [app_commands.Choice(name=name, value=name) for name in bundled_variant_names()]
"""The choices of ``/scrabble new variant``: the bundled variants."""
CHALLENGE_MODES: Final = [app_commands.Choice(name=mode.value, value=mode.value) for mode in ChallengeMode]
"""The choices of ``/scrabble new challenges``: the engine's challenge modes."""
LEVELS: Final = [app_commands.Choice(name=level, value=level) for level in AI_LEVELS]
"""The choices of ``/scrabble new ai_level``."""


class ScrabbleCog(
    commands.GroupCog,
    name="Scrabble",
    group_name="scrabble",
    group_description="Play Scrabble against friends or the bot",
):
    """The ``/scrabble`` group."""

    def __init__(self, bot: ScrabbleBot) -> None:
        self.bot = bot
        super().__init__()

    # Lobby ---------------------------------------------------------------------------------------

    @app_commands.command(
        name="new", description="Open a new game in this channel: others join, then you start it"
    )
    @app_commands.describe(
        variant="The board: standard (15x15) or super (21x21)",
        challenges="Invalid words: void (refused at once), single, double or five-point (challenged)",
        time_limit="Seconds per turn; 0 for no limit",
        ai_opponents="How many AI opponents to seat now (the Add AI button adds more)",
        ai_level="How well the AI opponents play",
        hints="Hints each player may use; 0 disables hints",
        bot_seats="Seats for programs (bot clients of the web board's protocol): you get their tokens",
    )
    @app_commands.choices(variant=VARIANTS, challenges=CHALLENGE_MODES, ai_level=LEVELS)
    async def new(
        self,
        interaction: discord.Interaction[ScrabbleBot],
        variant: str | None = None,
        challenges: str | None = None,
        time_limit: app_commands.Range[int, 0, MAX_TURN_SECONDS] | None = None,
        ai_opponents: app_commands.Range[int, 0, MAX_PLAYERS - 1] = 0,
        ai_level: str | None = None,
        hints: app_commands.Range[int, 0, MAX_HINTS] | None = None,
        bot_seats: app_commands.Range[int, 0, MAX_PLAYERS - 1] = 0,
    ) -> None:
        """Open a lobby (posted with its Join, Add AI, Start and Cancel buttons), then give
        ``bot_seats`` seats to programs (their tokens come in the private answer)."""
        options = NewGame(variant, challenges, time_limit, ai_opponents, ai_level, hints, programs=bot_seats)
        user = user_of(interaction)
        await run(interaction, lambda s, guild, channel: s.new_game(guild, channel, user, options), slow=True)

    @app_commands.command(name="join", description="Join the game waiting for players in this channel")
    async def join(self, interaction: discord.Interaction[ScrabbleBot]) -> None:
        """Take a seat in the lobby."""
        user = user_of(interaction)
        await run(interaction, lambda s, _, channel: s.join(channel, user), slow=True)

    @app_commands.command(name="leave", description="Leave the game waiting for players in this channel")
    async def leave(self, interaction: discord.Interaction[ScrabbleBot]) -> None:
        """Leave the lobby."""
        user_id = interaction.user.id
        await run(interaction, lambda s, _, channel: s.leave(channel, user_id), slow=True)

    @app_commands.command(name="start", description="Start the game you created: racks come by DM")
    async def start(self, interaction: discord.Interaction[ScrabbleBot]) -> None:
        """Deal and post the first turn (an AI may play at once)."""
        user_id = interaction.user.id
        await run(interaction, lambda s, _, channel: s.start_game(channel, user_id), slow=True)

    @app_commands.command(
        name="cancel",
        description="Cancel this channel's game (its creator, or anyone who can manage messages)",
    )
    async def cancel(self, interaction: discord.Interaction[ScrabbleBot]) -> None:
        """Cancel the game, in the lobby or in play, without stats."""
        user_id, manage = interaction.user.id, can_manage(interaction)
        await run(interaction, lambda s, _, channel: s.cancel(channel, user_id, can_manage=manage), slow=True)

    # Turns ---------------------------------------------------------------------------------------

    @app_commands.command(
        name="play", description="Play a word: 8H QUIZ goes across, H8 QUIZ down, ?E is a blank"
    )
    @app_commands.describe(
        move="Coordinate and word, e.g. 8H QUIZ (across) or H8 QUIZ (down); ?E is a blank E"
    )
    async def play(self, interaction: discord.Interaction[ScrabbleBot], move: str) -> None:
        """Play ``move`` on your turn."""
        user_id = interaction.user.id
        await run(interaction, lambda s, _, channel: s.play(channel, user_id, move), slow=True)

    @play.autocomplete("move")
    async def play_moves(
        self, interaction: discord.Interaction[ScrabbleBot], current: str
    ) -> list[app_commands.Choice[str]]:
        """Preview what the caller is typing: the play and its score, or why it is not legal (never
        whether its words are in the dictionary, and never a suggested move: hints are counted)."""
        if interaction.channel_id is None:
            return []
        typed = current.strip()[:MAX_CHOICE_LENGTH]
        preview = await self.bot.service.preview_play(interaction.channel_id, interaction.user.id, typed)
        if not preview:
            return []
        return [app_commands.Choice(name=shorten(f"{typed} → {preview}", MAX_CHOICE_LENGTH), value=typed)]

    @app_commands.command(
        name="exchange", description="Exchange tiles with the bag (at least 7 must be left in it)"
    )
    @app_commands.describe(tiles="The tiles to give back, e.g. QVV? (? is a blank)")
    async def exchange(self, interaction: discord.Interaction[ScrabbleBot], tiles: str) -> None:
        """Exchange ``tiles`` on your turn; the new rack comes by DM."""
        user_id = interaction.user.id
        await run(interaction, lambda s, _, channel: s.exchange(channel, user_id, tiles), slow=True)

    @exchange.autocomplete("tiles")
    async def exchange_tiles(
        self, interaction: discord.Interaction[ScrabbleBot], current: str
    ) -> list[app_commands.Choice[str]]:
        """Suggest tiles from the caller's rack, each with the tiles it keeps."""
        if interaction.channel_id is None:
            return []
        rack = await self.bot.service.rack_letters(interaction.channel_id, interaction.user.id)
        if not rack:
            return []
        return [
            app_commands.Choice(name=f"{tiles} (keep {leave_after(rack, tiles) or 'nothing'})", value=tiles)
            for tiles in exchange_suggestions(rack, current)
        ]

    @app_commands.command(name="pass", description="Pass your turn")
    async def pass_turn(self, interaction: discord.Interaction[ScrabbleBot]) -> None:
        """Pass on your turn."""
        user_id = interaction.user.id
        await run(interaction, lambda s, _, channel: s.pass_turn(channel, user_id), slow=True)

    @app_commands.command(name="resign", description="Resign from this channel's game")
    async def resign(self, interaction: discord.Interaction[ScrabbleBot]) -> None:
        """Resign (at any time); with one player left the game ends."""
        user_id = interaction.user.id
        await run(interaction, lambda s, _, channel: s.resign(channel, user_id), slow=True)

    @app_commands.command(name="challenge", description="Challenge the last play (in games with challenges)")
    async def challenge(self, interaction: discord.Interaction[ScrabbleBot]) -> None:
        """Challenge the last play: an invalid word comes off the board."""
        user_id = interaction.user.id
        await run(interaction, lambda s, _, channel: s.challenge(channel, user_id), slow=True)

    @app_commands.command(name="accept", description="Accept the play that went out, ending the game")
    async def accept(self, interaction: discord.Interaction[ScrabbleBot]) -> None:
        """Accept the last play instead of challenging it."""
        user_id = interaction.user.id
        await run(interaction, lambda s, _, channel: s.accept(channel, user_id), slow=True)

    # Questions -----------------------------------------------------------------------------------

    @app_commands.command(name="rack", description="Show your rack (only you see it)")
    async def rack(self, interaction: discord.Interaction[ScrabbleBot]) -> None:
        """Your rack as letters and an image, ephemerally."""
        user_id = interaction.user.id
        await run(interaction, lambda s, _, channel: s.rack(channel, user_id), slow=True)

    @app_commands.command(
        name="link",
        description="Get a new private link to play on the web board (your old one stops working)",
    )
    async def link(self, interaction: discord.Interaction[ScrabbleBot]) -> None:
        """A renewed link that plays the caller's seat on the web board, ephemerally."""
        user_id = interaction.user.id
        await run(interaction, lambda s, _, channel: s.renew_link(channel, user_id), slow=False)

    @app_commands.command(
        name="hint", description="Show your best moves (only you see them; uses one of your hints)"
    )
    async def hint(self, interaction: discord.Interaction[ScrabbleBot]) -> None:
        """The best moves for your rack with their score and leave, ephemerally."""
        user_id = interaction.user.id
        await run(interaction, lambda s, _, channel: s.hint(channel, user_id), slow=True)

    @app_commands.command(
        name="board", description="Post the board again, with the scores and whose turn it is"
    )
    async def board(self, interaction: discord.Interaction[ScrabbleBot]) -> None:
        """Repost the board (public), with the turn's buttons."""
        await run(interaction, lambda s, _, channel: s.board(channel), slow=True, public=True)

    @app_commands.command(name="score", description="Show the scores and the tiles left in the bag")
    async def score(self, interaction: discord.Interaction[ScrabbleBot]) -> None:
        """The scores (public)."""
        await run(interaction, lambda s, _, channel: s.score(channel), slow=False)

    @app_commands.command(
        name="bag", description="Count the tiles in the bag and list those you have not seen"
    )
    async def bag(self, interaction: discord.Interaction[ScrabbleBot]) -> None:
        """The bag and the unseen tiles from your point of view, ephemerally."""
        user_id = interaction.user.id
        await run(interaction, lambda s, _, channel: s.bag(channel, user_id), slow=False)

    @app_commands.command(name="history", description="List the moves of this channel's game so far")
    async def history(self, interaction: discord.Interaction[ScrabbleBot]) -> None:
        """Every move so far, ephemerally."""
        await run(interaction, lambda s, _, channel: s.history(channel), slow=False)

    @app_commands.command(
        name="export", description="Get the record (GCG file) of the last game finished here"
    )
    async def export(self, interaction: discord.Interaction[ScrabbleBot]) -> None:
        """The GCG record as an attachment, ephemerally."""
        await run(interaction, lambda s, _, channel: s.export(channel), slow=True)

    @app_commands.command(name="check", description="Check whether a word is in this game's dictionary")
    @app_commands.describe(word="The word to look up")
    async def check(self, interaction: discord.Interaction[ScrabbleBot], word: str) -> None:
        """Whether ``word`` is valid in the channel's game, ephemerally."""
        await run(interaction, lambda s, _, channel: s.check(channel, word), slow=False)

    @app_commands.command(name="stats", description="Show a player's results in this server")
    @app_commands.describe(user="Whose results (default: yours)")
    async def stats(
        self, interaction: discord.Interaction[ScrabbleBot], user: discord.Member | discord.User | None = None
    ) -> None:
        """Games, wins, average score and best move of ``user`` (or the caller), ephemerally."""
        user_id = (user or interaction.user).id
        await run(interaction, lambda s, guild, _: s.stats(guild, user_id), slow=False)

    @app_commands.command(name="leaderboard", description="Show this server's best players")
    async def leaderboard(self, interaction: discord.Interaction[ScrabbleBot]) -> None:
        """Most wins, then best average score, ephemerally."""
        await run(interaction, lambda s, guild, _: s.leaderboard(guild), slow=False)

    # No game needed ------------------------------------------------------------------------------

    @app_commands.command(name="rules", description="Show the rules of the game as this bot plays them")
    @app_commands.describe(topic="Show only one part of the rules (tiles, bingo, challenges, notation...)")
    async def rules(self, interaction: discord.Interaction[ScrabbleBot], topic: str | None = None) -> None:
        """Send the rules (or one topic of them), ephemerally."""
        await interaction.response.send_message(rules_text(topic), ephemeral=True)

    @rules.autocomplete("topic")
    async def rules_topic(
        self, interaction: discord.Interaction[ScrabbleBot], current: str
    ) -> list[app_commands.Choice[str]]:
        """Suggest the rules topics that contain what the user typed."""
        typed = current.strip().lower()
        return [app_commands.Choice(name=topic, value=topic) for topic in RULES if typed in topic]

    @app_commands.command(name="help", description="List the Scrabble commands")
    async def help(self, interaction: discord.Interaction[ScrabbleBot]) -> None:
        """Send one line per command, ephemerally."""
        await answer(interaction, Message(help_text(self.walk_app_commands()), private=True))
