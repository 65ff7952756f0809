"""The ``/scrabble`` command group: one command per command of Scrabble's commands
(:class:`~bot.games.scrabble.commands.ScrabbleCommands`), run as every game's are
(:mod:`bot.discord.commands`): answers are private, and those a player may want to share (``board``,
``score``, ``history``, ``stats``, ``leaderboard``, ``analyze``) have a ``public`` option. ``rules`` and
``help`` need no game and work in DMs too; the game commands refuse DMs.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Final

import discord
from discord import app_commands
from discord.ext import commands

from bot.config import MAX_TURN_SECONDS
from bot.discord.commands import (
    MAX_CHOICE_LENGTH,
    MAX_CHOICES,
    MAX_GAME_ID,
    PUBLIC_OPTION,
    can_manage,
    help_text,
    run,
    user_of,
    where,
)
from bot.discord.delivery import PROGRESS_SECONDS, answer, defer, edited_at_most_every
from bot.games.scrabble.commands import NewGame, ScrabbleCommands
from bot.games.scrabble.kind import KIND
from bot.games.scrabble.rules import TOPICS
from bot.games.scrabble.settings import AI_LEVELS, MAX_HINTS
from bot.host.messages import Message, shorten
from scrabble_core.game import MAX_PLAYERS, ChallengeMode

if TYPE_CHECKING:
    from bot.discord.client import GameBot

GAME: Final = "Scrabble"


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

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def commands(self) -> ScrabbleCommands:
        """Scrabble's commands on the bot."""
        commands: ScrabbleCommands = self.bot.host.commands[KIND]
        return commands

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
        interaction: discord.Interaction[GameBot],
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
        _, channel_id = where(interaction, GAME)
        await run(
            interaction,
            self.commands.new_game,
            channel_id,
            user,
            options,
            slow=True,
            in_guild=True,
            game=GAME,
        )

    @new.autocomplete("variant")
    async def variant_names(
        self, interaction: discord.Interaction[GameBot], current: str
    ) -> list[app_commands.Choice[str]]:
        """Suggest the variants (bundled, and the config's variant files) whose name contains what the
        user typed."""
        typed = current.strip().lower()
        names = [name for name in self.commands.variants.names() if typed in name.lower()]
        return [app_commands.Choice(name=name, value=name) for name in names[:MAX_CHOICES]]

    @app_commands.command(name="join", description="Join the game waiting for players in this channel")
    async def join(self, interaction: discord.Interaction[GameBot]) -> None:
        """Take a seat in the lobby."""
        user = user_of(interaction)
        await run(interaction, self.commands.join, user, slow=True, game=GAME)

    @app_commands.command(name="leave", description="Leave the game waiting for players in this channel")
    async def leave(self, interaction: discord.Interaction[GameBot]) -> None:
        """Leave the lobby."""
        user_id = interaction.user.id
        await run(interaction, self.commands.leave, user_id, slow=True, game=GAME)

    @app_commands.command(name="start", description="Start the game you created")
    async def start(self, interaction: discord.Interaction[GameBot]) -> None:
        """Deal and post the first turn (an AI may play at once)."""
        user_id = interaction.user.id
        await run(interaction, self.commands.start_game, user_id, slow=True, game=GAME)

    @app_commands.command(
        name="cancel",
        description="Cancel this channel's game (its creator or a moderator)",
    )
    async def cancel(self, interaction: discord.Interaction[GameBot]) -> None:
        """Cancel the game, in the lobby or in play, without stats."""
        user_id, manage = interaction.user.id, can_manage(interaction)
        await run(interaction, self.commands.cancel, user_id, slow=True, can_manage=manage, game=GAME)

    # Turns ---------------------------------------------------------------------------------------

    @app_commands.command(
        name="play", description="Play a word: 8H QUIZ goes across, H8 QUIZ down, ?E is a blank"
    )
    @app_commands.describe(
        move="8H QUIZ (across), H8 QUIZ (down), -3,5 across QUIZ (infinite board); ?E a blank, [1E] a set tile"
    )
    async def play(self, interaction: discord.Interaction[GameBot], move: str) -> None:
        """Play ``move`` on your turn."""
        user_id = interaction.user.id
        await run(interaction, self.commands.play, user_id, move, slow=True, game=GAME)

    @play.autocomplete("move")
    async def play_moves(
        self, interaction: discord.Interaction[GameBot], current: str
    ) -> list[app_commands.Choice[str]]:
        """Preview what the caller is typing: the play and its score, or why it is not legal (never
        whether its words are in the dictionary, and never a suggested move: hints are counted)."""
        if interaction.channel_id is None:
            return []
        typed = current.strip()[:MAX_CHOICE_LENGTH]
        preview = await self.commands.preview_play(interaction.channel_id, interaction.user.id, typed)
        if not preview:
            return []
        return [app_commands.Choice(name=shorten(f"{typed} → {preview}", MAX_CHOICE_LENGTH), value=typed)]

    @app_commands.command(
        name="exchange", description="Exchange tiles with the bag (at least 7 must be left in it)"
    )
    @app_commands.describe(tiles="The tiles to give back, e.g. QVV? (? is a blank, 1 is set tile 1)")
    async def exchange(self, interaction: discord.Interaction[GameBot], tiles: str) -> None:
        """Exchange ``tiles`` on your turn; the new rack comes by DM."""
        user_id = interaction.user.id
        await run(interaction, self.commands.exchange, user_id, tiles, slow=True, game=GAME)

    @exchange.autocomplete("tiles")
    async def exchange_tiles(
        self, interaction: discord.Interaction[GameBot], current: str
    ) -> list[app_commands.Choice[str]]:
        """Suggest tiles from the caller's rack, each with the tiles it keeps."""
        if interaction.channel_id is None:
            return []
        rack = await self.commands.rack_letters(interaction.channel_id, interaction.user.id)
        if not rack:
            return []
        return [
            app_commands.Choice(name=f"{tiles} (keep {leave_after(rack, tiles) or 'nothing'})", value=tiles)
            for tiles in exchange_suggestions(rack, current)
        ]

    @app_commands.command(name="pass", description="Pass your turn")
    async def pass_turn(self, interaction: discord.Interaction[GameBot]) -> None:
        """Pass on your turn."""
        user_id = interaction.user.id
        await run(interaction, self.commands.pass_turn, user_id, slow=True, game=GAME)

    @app_commands.command(name="resign", description="Resign from this channel's game")
    async def resign(self, interaction: discord.Interaction[GameBot]) -> None:
        """Resign (at any time); with one player left the game ends."""
        user_id = interaction.user.id
        await run(interaction, self.commands.resign, user_id, slow=True, game=GAME)

    @app_commands.command(name="challenge", description="Challenge the last play (in games with challenges)")
    async def challenge(self, interaction: discord.Interaction[GameBot]) -> None:
        """Challenge the last play: an invalid word comes off the board."""
        user_id = interaction.user.id
        await run(interaction, self.commands.challenge, user_id, slow=True, game=GAME)

    @app_commands.command(name="accept", description="Accept the play that went out, ending the game")
    async def accept(self, interaction: discord.Interaction[GameBot]) -> None:
        """Accept the last play instead of challenging it."""
        user_id = interaction.user.id
        await run(interaction, self.commands.accept, user_id, slow=True, game=GAME)

    # Questions -----------------------------------------------------------------------------------

    @app_commands.command(name="rack", description="Show your rack (only you see it) and renew your web link")
    @app_commands.describe(
        dms="Instead: whether your rack also comes by DM after your own moves, in every game (default: no)"
    )
    async def rack(self, interaction: discord.Interaction[GameBot], dms: bool | None = None) -> None:
        """Your rack as letters and an image, ephemerally (with the web board: your link to play there and a
        button for a new one); with ``dms``, the caller's preference set instead (no game needed)."""
        user_id = interaction.user.id
        if dms is not None:
            await answer(interaction, await self.commands.rack_dms(user_id, dms))
            return
        await run(interaction, self.commands.rack, user_id, slow=True, game=GAME)

    @app_commands.command(
        name="hint", description="Show your best moves (only you see them; uses one of your hints)"
    )
    async def hint(self, interaction: discord.Interaction[GameBot]) -> None:
        """The best moves for your rack with their score and leave, ephemerally."""
        user_id = interaction.user.id
        await run(interaction, self.commands.hint, user_id, slow=True, game=GAME)

    @app_commands.command(name="board", description="Show the board, with the scores and whose turn it is")
    @app_commands.describe(public=PUBLIC_OPTION)
    async def board(self, interaction: discord.Interaction[GameBot], public: bool = False) -> None:
        """The board (to the channel with the turn's buttons if ``public``)."""
        await run(interaction, self.commands.board, slow=True, public=public, game=GAME)

    @app_commands.command(name="score", description="Show the scores and the tiles left in the bag")
    @app_commands.describe(public=PUBLIC_OPTION)
    async def score(self, interaction: discord.Interaction[GameBot], public: bool = False) -> None:
        """The scores."""
        await run(interaction, self.commands.score, slow=False, public=public, game=GAME)

    @app_commands.command(
        name="bag", description="Count the tiles in the bag and list those you have not seen"
    )
    async def bag(self, interaction: discord.Interaction[GameBot]) -> None:
        """The bag and the unseen tiles from your point of view, ephemerally."""
        user_id = interaction.user.id
        await run(interaction, self.commands.bag, user_id, slow=False, game=GAME)

    @app_commands.command(
        name="history",
        description="List the moves of this channel's game, or the last one, with its GCG file",
    )
    @app_commands.describe(public=PUBLIC_OPTION)
    async def history(self, interaction: discord.Interaction[GameBot], public: bool = False) -> None:
        """Every move of the game going on (or of the last one finished here) and its record."""
        await run(interaction, self.commands.history, slow=True, public=public, game=GAME)

    @app_commands.command(
        name="analyze",
        description="Analyse the last game finished here (or a game id)",
    )
    @app_commands.describe(
        game_id="The game to analyse (default: the last one finished in this channel)", public=PUBLIC_OPTION
    )
    async def analyze(
        self,
        interaction: discord.Interaction[GameBot],
        game_id: app_commands.Range[int, 1, MAX_GAME_ID] | None = None,
        public: bool = False,
    ) -> None:
        """Each turn against the AI's best move, with progress shown by editing the "thinking" message
        (at most once a second); the analysis is stored, so asking again is instant."""
        guild_id, channel_id = where(interaction, GAME)
        await defer(interaction, public=public)
        progress = edited_at_most_every(PROGRESS_SECONDS, interaction)
        reply = await self.commands.analysis.analyze(
            guild_id, channel_id, game_id, private=not public, progress=progress
        )
        await answer(interaction, reply)

    @app_commands.command(
        name="puzzle",
        description="Today's puzzle: find the best play; yesterday's answer and the leaderboard",
    )
    async def puzzle(self, interaction: discord.Interaction[GameBot]) -> None:
        """Post the server's puzzle of the day (public), with yesterday's answer and the puzzle leaderboard."""
        guild_id, _ = where(interaction, GAME)
        await defer(interaction, public=True)
        await answer(interaction, await self.commands.puzzles.puzzle(guild_id))

    @app_commands.command(name="solve", description="Answer today's puzzle (only you see it; one try a day)")
    @app_commands.describe(move="Your play, e.g. 8H QUIZ (across) or H8 QUIZ (down); ?E is a blank")
    async def solve(self, interaction: discord.Interaction[GameBot], move: str) -> None:
        """Grade the caller's answer to today's puzzle, ephemerally."""
        guild_id, _ = where(interaction, GAME)
        await defer(interaction)
        await answer(interaction, await self.commands.puzzles.solve(guild_id, user_of(interaction), move))

    @app_commands.command(name="check", description="Check whether a word is in this game's dictionary")
    @app_commands.describe(word="The word to look up")
    async def check(self, interaction: discord.Interaction[GameBot], word: str) -> None:
        """Whether ``word`` is valid in the channel's game, ephemerally."""
        await run(interaction, self.commands.check, word, slow=False, game=GAME)

    @app_commands.command(name="stats", description="Show a player's results in this server")
    @app_commands.describe(user="Whose results (default: yours)", public=PUBLIC_OPTION)
    async def stats(
        self,
        interaction: discord.Interaction[GameBot],
        user: discord.Member | discord.User | None = None,
        public: bool = False,
    ) -> None:
        """Games, wins, average score and best move of ``user`` (or the caller), with their rating,
        rank, record and rating chart (deferred: the chart is drawn)."""
        user_id = (user or interaction.user).id
        await run(
            interaction, self.commands.stats, user_id, slow=True, in_guild=True, public=public, game=GAME
        )

    @app_commands.command(name="leaderboard", description="Show this server's best players")
    @app_commands.describe(public=PUBLIC_OPTION)
    async def leaderboard(self, interaction: discord.Interaction[GameBot], public: bool = False) -> None:
        """By conservative rating (or most wins, then best average score, with ratings off)."""
        await run(interaction, self.commands.leaderboard, slow=False, in_guild=True, public=public, game=GAME)

    # No game needed ------------------------------------------------------------------------------

    @app_commands.command(name="rules", description="Show the rules of the game as this bot plays them")
    @app_commands.describe(topic="Show only one part of the rules (tiles, bingo, challenges, notation...)")
    async def rules(self, interaction: discord.Interaction[GameBot], topic: str | None = None) -> None:
        """Send the rules (or one topic of them) of the channel's game, or of the default variant
        outside a game, ephemerally."""
        await answer(interaction, await self.commands.rules(interaction.channel_id, topic))

    @rules.autocomplete("topic")
    async def rules_topic(
        self, interaction: discord.Interaction[GameBot], current: str
    ) -> list[app_commands.Choice[str]]:
        """Suggest the rules topics that contain what the user typed."""
        typed = current.strip().lower()
        return [app_commands.Choice(name=topic, value=topic) for topic in TOPICS if typed in topic]

    @app_commands.command(name="help", description="List the Scrabble commands")
    async def help(self, interaction: discord.Interaction[GameBot]) -> None:
        """Send one line per command, ephemerally."""
        await answer(interaction, Message(help_text(self.walk_app_commands(), GAME), private=True))
