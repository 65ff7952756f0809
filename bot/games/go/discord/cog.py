"""The ``/go`` command group: one command per command of Go's commands
(:class:`~bot.games.go.commands.GoCommands`), run as every game's are (:mod:`bot.discord.commands`):
answers are private, and those a player may want to share (``board``, ``score``, ``export``,
``stats``) have a ``public`` option; the moves themselves are announced by the host in the channel,
with the board and the buttons of the next step. Refusals (an occupied point, not your turn, a channel that
has another game...) reach the asker ephemerally through the command tree's error handler. ``help``
works in DMs too; the game commands refuse DMs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import discord
from discord import app_commands
from discord.ext import commands

from bot.config import MAX_TURN_SECONDS
from bot.discord.commands import (
    MAX_CHOICE_LENGTH,
    MAX_CHOICES,
    PUBLIC_OPTION,
    can_manage,
    help_text,
    run,
    user_of,
    where,
)
from bot.discord.delivery import answer
from bot.games.go.commands import GoCommands
from bot.games.go.engines import Level
from bot.games.go.kind import KIND
from bot.games.go.options import COLOURS, DEFAULT_SIZE, GoNewGame
from bot.host.errors import ServiceError
from bot.host.messages import Message, shorten
from bot.host.seats import User
from go_core import MAX_SIZE, MIN_SIZE, Game, Phase, Point
from go_core.errors import IllegalMoveError
from go_core.game import MAX_KOMI
from go_core.handicap import MAX_HANDICAP
from go_core.points import PASS
from go_core.scoring import ScoringMethod

if TYPE_CHECKING:
    from bot.discord.client import GameBot


class BotOpponentError(ServiceError):
    """A Go game offered to a bot account, which would never join it."""

    def __init__(self) -> None:
        super().__init__("Bots do not join games: to play the bot's AI, choose an ai_level instead.")


GAME: Final = "Go"
USUAL_SIZES: Final = (19, 13, 9)
"""The board sizes ``/go new`` suggests first."""
MAX_POINT_TEXT: Final = 4
"""The longest text worth looking at in a suggestion: ``pass``, or a point such as ``T19``."""

LEVELS: Final = [app_commands.Choice(name=level.value, value=level.value) for level in Level]
"""The choices of ``/go new ai_level``: the Go AI's levels."""
COLOUR_CHOICES: Final = [app_commands.Choice(name=colour, value=colour) for colour in COLOURS]
SCORING_CHOICES: Final = [
    app_commands.Choice(name=f"{method.value} ({hint})", value=method.value)
    for method, hint in (
        (ScoringMethod.AREA, "stones and territory"),
        (ScoringMethod.STONES, "stones only"),
    )
]


def size_suggestions(typed: str) -> list[int]:
    """Board sizes for ``/go new size``: the usual 19, 13 and 9 first, then every other size from 2 to
    25; those whose digits start with what was typed (all of them when nothing was)."""
    usual = list(USUAL_SIZES)
    others = [size for size in range(MIN_SIZE, MAX_SIZE + 1) if size not in usual]
    digits = typed.strip()
    return [size for size in [*usual, *others] if str(size).startswith(digits)][:MAX_CHOICES]


def point_suggestions(game: Game, typed: str) -> list[app_commands.Choice[str]]:
    """What ``/go play`` suggests while ``typed`` is typed: the points whose name starts with it that
    the player to move may play (with the stones each would capture), and ``pass``; for a whole point
    that may not be played, that point with the reason. Nothing outside the playing phase."""
    text = typed.strip()[:MAX_POINT_TEXT].upper()
    if game.phase is not Phase.PLAY:
        return []
    choices: list[app_commands.Choice[str]] = []
    if PASS.startswith(text.lower()):
        choices.append(app_commands.Choice(name=PASS, value=PASS))
    for point in _named(game.size, text):
        try:
            captured = game.check(point)
        except IllegalMoveError as error:
            if str(point) == text:
                name = shorten(f"{point}: {error}", MAX_CHOICE_LENGTH)
                return [app_commands.Choice(name=name, value=str(point))]
            continue
        taken = f" (captures {len(captured)})" if captured else ""
        choices.append(app_commands.Choice(name=f"{point}{taken}", value=str(point)))
        if len(choices) == MAX_CHOICES:
            break
    return choices


def stone_suggestions(game: Game, typed: str) -> list[app_commands.Choice[str]]:
    """What ``/go dead`` suggests: the stones whose point starts with ``typed``, each with whether it
    is marked dead now (nothing outside the dead-stone phase)."""
    if game.phase is not Phase.SCORING:
        return []
    text = typed.strip()[:MAX_POINT_TEXT].upper()
    stones = [point for point in _named(game.size, text) if game[point] is not None]
    return [
        app_commands.Choice(
            name=f"{point} ({'marked dead' if point in game.dead else 'alive'})", value=str(point)
        )
        for point in stones[:MAX_CHOICES]
    ]


def _named(size: int, text: str) -> list[Point]:
    """The points of a ``size`` board whose name starts with ``text``, column by column from A1."""
    points = (Point(col, row) for col in range(size) for row in range(size))
    return [point for point in points if str(point).startswith(text)]


class GoCog(
    commands.GroupCog, name="Go", group_name="go", group_description="Play Go against friends or the bot"
):
    """The ``/go`` group."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        super().__init__()

    @property
    def commands(self) -> GoCommands:
        """Go's commands on the bot."""
        commands: GoCommands = self.bot.host.commands[KIND]
        return commands

    def _game(self, interaction: discord.Interaction[GameBot]) -> Game | None:
        """The Go game of the interaction's channel, for suggestions (``None`` if there is none)."""
        go = self.commands
        if interaction.channel_id is None or not go.has_game(interaction.channel_id):
            return None
        try:
            return go.game(interaction.channel_id)
        except ServiceError:  # a lobby: no board yet
            return None

    # Lobby ---------------------------------------------------------------------------------------

    @app_commands.command(
        name="new", description="Open a Go game here: against a member, anyone who joins, or the AI"
    )
    @app_commands.describe(
        size=f"Board size, {MIN_SIZE} to {MAX_SIZE} (default {DEFAULT_SIZE}; 9, 13 and 19 are usual)",
        komi="Points White gets for moving second (default 7.5, or 0.5 with a handicap)",
        handicap=f"Black stones placed before White's first move: 2 to {MAX_HANDICAP} (4 on even boards), from 7×7",
        opponent="The member you invite (only they can join); leave out to let anyone join",
        ai_level="Play the bot's AI at this level instead (the game starts at once)",
        time_limit="Seconds per move (a player out of time loses); 0 for no limit",
        colour="Your colour (default black)",
        scoring="How the game is counted (default area)",
    )
    @app_commands.choices(ai_level=LEVELS, colour=COLOUR_CHOICES, scoring=SCORING_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction[GameBot],
        size: app_commands.Range[int, MIN_SIZE, MAX_SIZE] | None = None,
        komi: app_commands.Range[float, -MAX_KOMI, MAX_KOMI] | None = None,
        handicap: app_commands.Range[int, 0, MAX_HANDICAP] | None = None,
        opponent: discord.Member | discord.User | None = None,
        ai_level: str | None = None,
        time_limit: app_commands.Range[int, 0, MAX_TURN_SECONDS] | None = None,
        colour: str | None = None,
        scoring: str | None = None,
    ) -> None:
        """Open the game: a lobby with Join and Cancel buttons, or against the AI the first move.

        Raises:
            BotOpponentError: the invited member is a bot (bots never join games).
        """
        if opponent is not None and opponent.bot:
            raise BotOpponentError
        options = GoNewGame(
            size=size,
            komi=komi,
            handicap=handicap,
            opponent=None if opponent is None else opponent.id,
            ai_level=ai_level,
            time_limit=time_limit,
            colour=colour,
            scoring=scoring,
        )
        _, channel_id = where(interaction, GAME)
        user = user_of(interaction)
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

    @new.autocomplete("size")
    async def sizes(
        self, interaction: discord.Interaction[GameBot], current: str
    ) -> list[app_commands.Choice[int]]:
        """Suggest 19, 13 and 9, then the other sizes, starting with what was typed."""
        return [
            app_commands.Choice(name=f"{size}×{size}", value=size) for size in size_suggestions(str(current))
        ]

    @app_commands.command(name="join", description="Join the Go game waiting for an opponent here: it starts")
    async def join(self, interaction: discord.Interaction[GameBot]) -> None:
        """Take the free seat, which starts the game."""
        await run(interaction, self.commands.join, user_of(interaction), slow=True, game=GAME)

    @app_commands.command(
        name="cancel", description="Cancel the Go game waiting here (its creator; moderators: any game)"
    )
    async def cancel(self, interaction: discord.Interaction[GameBot]) -> None:
        """Cancel the lobby (or, for a moderator, any game, without a result)."""
        user_id, manage = interaction.user.id, can_manage(interaction)
        await run(interaction, self.commands.cancel, user_id, slow=True, game=GAME, moderator=manage)

    # Moves ---------------------------------------------------------------------------------------

    @app_commands.command(name="play", description="Play a stone, e.g. D4 (columns skip I), or pass")
    @app_commands.describe(point="A column letter and a row number, e.g. D4; or pass")
    async def play(self, interaction: discord.Interaction[GameBot], point: str) -> None:
        """Play ``point`` on your move."""
        user_id = interaction.user.id
        await run(interaction, self.commands.play, user_id, point, slow=True, game=GAME)

    @play.autocomplete("point")
    async def legal_points(
        self, interaction: discord.Interaction[GameBot], current: str
    ) -> list[app_commands.Choice[str]]:
        """Suggest the legal points that start with what was typed, with their captures."""
        game = self._game(interaction)
        return [] if game is None else point_suggestions(game, current)

    @app_commands.command(name="pass", description="Pass your move (two passes in a row end play)")
    async def pass_turn(self, interaction: discord.Interaction[GameBot]) -> None:
        """Pass on your move."""
        await run(interaction, self.commands.pass_turn, interaction.user.id, slow=True, game=GAME)

    @app_commands.command(name="resign", description="Resign this channel's Go game")
    async def resign(self, interaction: discord.Interaction[GameBot]) -> None:
        """Resign (at any time): the opponent wins."""
        await run(interaction, self.commands.resign, interaction.user.id, slow=True, game=GAME)

    @app_commands.command(
        name="undo", description="Take back your last move (your opponent accepts; the AI always does)"
    )
    async def undo(self, interaction: discord.Interaction[GameBot]) -> None:
        """Ask to take back your last move (and the reply to it)."""
        await run(interaction, self.commands.request_undo, interaction.user.id, slow=True, game=GAME)

    # The dead-stone phase ------------------------------------------------------------------------

    @app_commands.command(name="dead", description="After both passed: mark a group dead, or alive again")
    @app_commands.describe(point="Any stone of the group, e.g. D4")
    async def dead(self, interaction: discord.Interaction[GameBot], point: str) -> None:
        """Mark or unmark the group on ``point``."""
        user_id = interaction.user.id
        await run(interaction, self.commands.toggle_dead, user_id, point, slow=True, game=GAME)

    @dead.autocomplete("point")
    async def stones(
        self, interaction: discord.Interaction[GameBot], current: str
    ) -> list[app_commands.Choice[str]]:
        """Suggest the stones that start with what was typed, marked dead or alive."""
        game = self._game(interaction)
        return [] if game is None else stone_suggestions(game, current)

    @app_commands.command(name="accept", description="After both passed: accept the dead stones as marked")
    async def accept(self, interaction: discord.Interaction[GameBot]) -> None:
        """Accept the count; once both players have, the result is posted."""
        await run(interaction, self.commands.accept_score, interaction.user.id, slow=True, game=GAME)

    @app_commands.command(name="resume", description="After both passed: play on instead of counting")
    async def resume(self, interaction: discord.Interaction[GameBot]) -> None:
        """Leave the dead-stone phase."""
        await run(interaction, self.commands.resume, interaction.user.id, slow=True, game=GAME)

    # Questions -----------------------------------------------------------------------------------

    @app_commands.command(name="board", description="Show the Go board, with whose move it is")
    @app_commands.describe(public=PUBLIC_OPTION)
    async def board(self, interaction: discord.Interaction[GameBot], public: bool = False) -> None:
        """The board (to the channel with the buttons of the moment if ``public``)."""
        await run(interaction, self.commands.board, slow=True, public=public, game=GAME)

    @app_commands.command(name="score", description="Count the Go board as it stands")
    @app_commands.describe(public=PUBLIC_OPTION)
    async def score(self, interaction: discord.Interaction[GameBot], public: bool = False) -> None:
        """The count and the captures."""
        await run(interaction, self.commands.score, slow=False, public=public, game=GAME)

    @app_commands.command(
        name="export", description="Get the SGF record of this channel's Go game (or the last one here)"
    )
    @app_commands.describe(public=PUBLIC_OPTION)
    async def export(self, interaction: discord.Interaction[GameBot], public: bool = False) -> None:
        """The SGF file."""
        await run(interaction, self.commands.export_sgf, slow=True, public=public, game=GAME)

    @app_commands.command(name="stats", description="Show a player's Go results in this server")
    @app_commands.describe(user="Whose results (default: yours)", public=PUBLIC_OPTION)
    async def stats(
        self,
        interaction: discord.Interaction[GameBot],
        user: discord.Member | discord.User | None = None,
        public: bool = False,
    ) -> None:
        """Games, wins, losses and draws of ``user`` (or the caller)."""
        who = user_of(interaction) if user is None else User(user.id, user.display_name)
        await run(interaction, self.commands.stats, who, slow=False, in_guild=True, public=public, game=GAME)

    @app_commands.command(name="help", description="List the Go commands")
    async def help(self, interaction: discord.Interaction[GameBot]) -> None:
        """One line per command, ephemerally."""
        await answer(interaction, Message(help_text(self.walk_app_commands(), GAME), private=True))
