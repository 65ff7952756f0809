"""The ``/scrabble`` command group: one command per action of the game service.

Each game command finds the game by its channel (a thread is a channel of its own), calls the service
and shows its answer: ephemerally when the answer is private (acknowledgements, racks, hints...),
publicly otherwise (``board``, ``score``). Commands whose work may outlast Discord's 3 seconds
(rendering, AI turns, hints, DMs) are deferred if they take more than a second, and then answered by a
followup. Refusals and bugs are raised to the command tree, whose error handler
(:func:`bot.discord.errors.report_error`) answers them. ``rules`` and ``help`` need no game and work
in DMs too; the game commands refuse DMs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Any, Final

import discord
from discord import app_commands
from discord.ext import commands

from bot.config import AI_LEVELS, MAX_HINTS, MAX_TURN_SECONDS
from bot.discord.delivery import answer, answered_in_time, defer
from bot.discord.errors import GuildOnlyError
from bot.games.scrabble.commands import GameService, NewGame
from bot.games.scrabble.discord.views import can_manage, user_of, view_for
from bot.games.scrabble.rules import TOPICS
from bot.host.messages import Message, shorten
from scrabble_core.game import MAX_PLAYERS, ChallengeMode

if TYPE_CHECKING:
    from bot.discord.client import ScrabbleBot

MAX_CHOICES: Final = 25
"""The most suggestions Discord shows."""

MAX_GAME_ID: Final = 2**53
"""The largest game id a command accepts (Discord's integers are doubles)."""

MAX_CHOICE_LENGTH: Final = 100
"""The longest name or value of a suggestion Discord accepts."""

Command = Callable[..., Awaitable[Message]]
"""A method of the game service for a command, called as ``command(service, channel_or_guild_id, ...)``."""


def help_text(
    commands: Iterable[app_commands.Command[Any, ..., Any] | app_commands.Group], game: str = "Scrabble"
) -> str:
    """The text of ``/scrabble help`` (``/go help`` with ``game="Go"``): one line per command (groups
    are skipped), with its options."""
    lines = [f"**{game} commands**"]
    for command in commands:
        if isinstance(command, app_commands.Command):
            options = " ".join(
                f"<{p.display_name}>" if p.required else f"[{p.display_name}]" for p in command.parameters
            )
            usage = f"/{command.qualified_name} {options}".rstrip()
            lines.append(f"`{usage}`: {command.description}")
    return "\n".join(lines)


def where(interaction: discord.Interaction[Any], game: str = "Scrabble") -> tuple[int, int]:
    """The guild and channel (or thread) of a command of ``game``.

    Raises:
        GuildOnlyError: the command was used in a DM.
    """
    if interaction.guild_id is None or interaction.channel_id is None:
        raise GuildOnlyError(game)
    return interaction.guild_id, interaction.channel_id


async def run(
    interaction: discord.Interaction[Any],
    command: Command,
    *args: Any,
    slow: bool,
    public: bool = False,
    in_guild: bool = False,
    game: str = "Scrabble",
    **options: Any,
) -> None:
    """Run a command of ``game``: refuse DMs, call ``command(service, place, *args, **options)`` (if it
    is ``slow``, deferring the interaction when it takes more than
    :data:`~bot.discord.delivery.DEFER_AFTER`, publicly if the answer is ``public``), where ``place`` is the
    interaction's channel (or its guild if ``in_guild``), and answer with the service's message (and
    its buttons)."""
    guild_id, channel_id = where(interaction, game)
    service: GameService = interaction.client.service
    work = command(service, guild_id if in_guild else channel_id, *args, **options)
    reply = await (answered_in_time(interaction, work, public=public) if slow else work)
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


def leave_after(rack: str, tiles: str) -> str:
    """The tiles of ``rack`` kept after exchanging ``tiles``."""
    return "".join(sorted((Counter(rack) - Counter(tiles)).elements()))


CHALLENGE_MODES: Final = [app_commands.Choice(name=mode.value, value=mode.value) for mode in ChallengeMode]
"""The choices of ``/scrabble new challenges``: the engine's challenge modes."""
LEVELS: Final = [app_commands.Choice(name=level.value, value=level.value) for level in AI_LEVELS]
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
        variant="The board: standard (15x15), super (21x21) or another this bot offers",
        challenges="Invalid words: void (refused at once), single, double or five-point (challenged)",
        time_limit="Seconds per turn; 0 for no limit",
        ai_opponents="How many AI opponents to seat now (the Add AI button adds more)",
        ai_level="How well the AI opponents play",
        hints="Hints each player may use; 0 disables hints",
        bot_seats="Seats for programs (bot clients of the web board's protocol): you get their tokens",
        rated="Whether the game changes the players' ratings (default: rated)",
    )
    @app_commands.choices(challenges=CHALLENGE_MODES, ai_level=LEVELS)
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
        rated: bool = True,
    ) -> None:
        """Open a lobby (posted with its Join, Add AI, Start and Cancel buttons), then give
        ``bot_seats`` seats to programs (their tokens come in the private answer)."""
        options = NewGame(
            variant, challenges, time_limit, ai_opponents, ai_level, hints, programs=bot_seats, rated=rated
        )
        user = user_of(interaction)
        _, channel_id = where(interaction)
        await run(interaction, GameService.new_game, channel_id, user, options, slow=True, in_guild=True)

    @new.autocomplete("variant")
    async def variant_names(
        self, interaction: discord.Interaction[ScrabbleBot], current: str
    ) -> list[app_commands.Choice[str]]:
        """Suggest the variants (bundled, and the config's variant files) whose name contains what the
        user typed."""
        typed = current.strip().lower()
        names = [name for name in self.bot.service.variants.names() if typed in name.lower()]
        return [app_commands.Choice(name=name, value=name) for name in names[:MAX_CHOICES]]

    @app_commands.command(name="join", description="Join the game waiting for players in this channel")
    async def join(self, interaction: discord.Interaction[ScrabbleBot]) -> None:
        """Take a seat in the lobby."""
        user = user_of(interaction)
        await run(interaction, GameService.join, user, slow=True)

    @app_commands.command(name="leave", description="Leave the game waiting for players in this channel")
    async def leave(self, interaction: discord.Interaction[ScrabbleBot]) -> None:
        """Leave the lobby."""
        user_id = interaction.user.id
        await run(interaction, GameService.leave, user_id, slow=True)

    @app_commands.command(name="start", description="Start the game you created: racks come by DM")
    async def start(self, interaction: discord.Interaction[ScrabbleBot]) -> None:
        """Deal and post the first turn (an AI may play at once)."""
        user_id = interaction.user.id
        await run(interaction, GameService.start_game, user_id, slow=True)

    @app_commands.command(
        name="cancel",
        description="Cancel this channel's game (its creator, or anyone who can manage messages)",
    )
    async def cancel(self, interaction: discord.Interaction[ScrabbleBot]) -> None:
        """Cancel the game, in the lobby or in play, without stats."""
        user_id, manage = interaction.user.id, can_manage(interaction)
        await run(interaction, GameService.cancel, user_id, slow=True, can_manage=manage)

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
        await run(interaction, GameService.play, user_id, move, slow=True)

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
        await run(interaction, GameService.exchange, user_id, tiles, slow=True)

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
        await run(interaction, GameService.pass_turn, user_id, slow=True)

    @app_commands.command(name="resign", description="Resign from this channel's game")
    async def resign(self, interaction: discord.Interaction[ScrabbleBot]) -> None:
        """Resign (at any time); with one player left the game ends."""
        user_id = interaction.user.id
        await run(interaction, GameService.resign, user_id, slow=True)

    @app_commands.command(name="challenge", description="Challenge the last play (in games with challenges)")
    async def challenge(self, interaction: discord.Interaction[ScrabbleBot]) -> None:
        """Challenge the last play: an invalid word comes off the board."""
        user_id = interaction.user.id
        await run(interaction, GameService.challenge, user_id, slow=True)

    @app_commands.command(name="accept", description="Accept the play that went out, ending the game")
    async def accept(self, interaction: discord.Interaction[ScrabbleBot]) -> None:
        """Accept the last play instead of challenging it."""
        user_id = interaction.user.id
        await run(interaction, GameService.accept, user_id, slow=True)

    # Questions -----------------------------------------------------------------------------------

    @app_commands.command(name="rack", description="Show your rack (only you see it) and renew your web link")
    async def rack(self, interaction: discord.Interaction[ScrabbleBot]) -> None:
        """Your rack as letters and an image, ephemerally (with the web board: your link to play there and a
        button for a new one)."""
        user_id = interaction.user.id
        await run(interaction, GameService.rack, user_id, slow=True)

    @app_commands.command(
        name="hint", description="Show your best moves (only you see them; uses one of your hints)"
    )
    async def hint(self, interaction: discord.Interaction[ScrabbleBot]) -> None:
        """The best moves for your rack with their score and leave, ephemerally."""
        user_id = interaction.user.id
        await run(interaction, GameService.hint, user_id, slow=True)

    @app_commands.command(
        name="board", description="Post the board again, with the scores and whose turn it is"
    )
    async def board(self, interaction: discord.Interaction[ScrabbleBot]) -> None:
        """Repost the board (public), with the turn's buttons."""
        await run(interaction, GameService.board, slow=True, public=True)

    @app_commands.command(name="score", description="Show the scores and the tiles left in the bag")
    async def score(self, interaction: discord.Interaction[ScrabbleBot]) -> None:
        """The scores (public)."""
        await run(interaction, GameService.score, slow=False)

    @app_commands.command(
        name="bag", description="Count the tiles in the bag and list those you have not seen"
    )
    async def bag(self, interaction: discord.Interaction[ScrabbleBot]) -> None:
        """The bag and the unseen tiles from your point of view, ephemerally."""
        user_id = interaction.user.id
        await run(interaction, GameService.bag, user_id, slow=False)

    @app_commands.command(
        name="history",
        description="List the moves of this channel's game, or the last one, with its GCG file",
    )
    async def history(self, interaction: discord.Interaction[ScrabbleBot]) -> None:
        """Every move of the game going on (or of the last one finished here) and its record, ephemerally."""
        await run(interaction, GameService.history, slow=True)

    @app_commands.command(
        name="analyze",
        description="Analyse the last game finished here (or a game id): the best moves and misses",
    )
    @app_commands.describe(
        game_id="The game to analyse (default: the last one finished in this channel)",
        private="Only you see the analysis (default: yes)",
    )
    async def analyze(
        self,
        interaction: discord.Interaction[ScrabbleBot],
        game_id: app_commands.Range[int, 1, MAX_GAME_ID] | None = None,
        private: bool = True,
    ) -> None:
        """Each turn against the AI's best move, with progress shown by editing the "thinking" message;
        the analysis is stored, so asking again is instant."""
        guild_id, channel_id = where(interaction)
        await defer(interaction, public=not private)

        async def progress(text: str) -> None:
            await interaction.edit_original_response(content=text)

        reply = await self.bot.service.analysis.analyze(
            guild_id, channel_id, game_id, private=private, progress=progress
        )
        await answer(interaction, reply)

    @app_commands.command(
        name="puzzle",
        description="Today's puzzle: find the best play; yesterday's answer and the leaderboard",
    )
    async def puzzle(self, interaction: discord.Interaction[ScrabbleBot]) -> None:
        """Post the server's puzzle of the day (public), with yesterday's answer and the puzzle leaderboard."""
        guild_id, _ = where(interaction)
        await defer(interaction, public=True)
        await answer(interaction, await self.bot.service.puzzles.puzzle(guild_id))

    @app_commands.command(name="solve", description="Answer today's puzzle (only you see it; one try a day)")
    @app_commands.describe(move="Your play, e.g. 8H QUIZ (across) or H8 QUIZ (down); ?E is a blank")
    async def solve(self, interaction: discord.Interaction[ScrabbleBot], move: str) -> None:
        """Grade the caller's answer to today's puzzle, ephemerally."""
        guild_id, _ = where(interaction)
        await defer(interaction)
        await answer(interaction, await self.bot.service.puzzles.solve(guild_id, user_of(interaction), move))

    @app_commands.command(name="check", description="Check whether a word is in this game's dictionary")
    @app_commands.describe(word="The word to look up")
    async def check(self, interaction: discord.Interaction[ScrabbleBot], word: str) -> None:
        """Whether ``word`` is valid in the channel's game, ephemerally."""
        await run(interaction, GameService.check, word, slow=False)

    @app_commands.command(name="stats", description="Show a player's results in this server")
    @app_commands.describe(user="Whose results (default: yours)")
    async def stats(
        self, interaction: discord.Interaction[ScrabbleBot], user: discord.Member | discord.User | None = None
    ) -> None:
        """Games, wins, average score and best move of ``user`` (or the caller), with their rating,
        rank, record and rating chart, ephemerally (deferred: the chart is drawn)."""
        user_id = (user or interaction.user).id
        await run(interaction, GameService.stats, user_id, slow=True, in_guild=True)

    @app_commands.command(name="leaderboard", description="Show this server's best players")
    async def leaderboard(self, interaction: discord.Interaction[ScrabbleBot]) -> None:
        """By conservative rating (or most wins, then best average score, with ratings off), ephemerally."""
        await run(interaction, GameService.leaderboard, slow=False, in_guild=True)

    # No game needed ------------------------------------------------------------------------------

    @app_commands.command(name="rules", description="Show the rules of the game as this bot plays them")
    @app_commands.describe(topic="Show only one part of the rules (tiles, bingo, challenges, notation...)")
    async def rules(self, interaction: discord.Interaction[ScrabbleBot], topic: str | None = None) -> None:
        """Send the rules (or one topic of them) of the channel's game, or of the default variant
        outside a game, ephemerally."""
        await answer(interaction, await self.bot.service.rules(interaction.channel_id, topic))

    @rules.autocomplete("topic")
    async def rules_topic(
        self, interaction: discord.Interaction[ScrabbleBot], current: str
    ) -> list[app_commands.Choice[str]]:
        """Suggest the rules topics that contain what the user typed."""
        typed = current.strip().lower()
        return [app_commands.Choice(name=topic, value=topic) for topic in TOPICS if typed in topic]

    @app_commands.command(name="help", description="List the Scrabble commands")
    async def help(self, interaction: discord.Interaction[ScrabbleBot]) -> None:
        """Send one line per command, ephemerally."""
        await answer(interaction, Message(help_text(self.walk_app_commands()), private=True))
