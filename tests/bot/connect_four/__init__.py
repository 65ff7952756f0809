"""A third game, Connect Four, for the tests only: small on purpose, written against the host's
interface alone, to prove that a game is added by its package and one registration line."""

from bot.host.registry import GameModule

from .rules import DropError

GAME = GameModule(
    kind="connect-four",
    title="Connect Four",
    parts="tests.bot.connect_four.setup",
    codec="tests.bot.connect_four.codec",
    refusals=(DropError,),
    discord="tests.bot.connect_four.discord_part",
    worker="tests.bot.connect_four.worker",
    web="tests.bot.connect_four.web_part",
)
