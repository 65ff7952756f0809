"""Images of the game for Discord, drawn with Pillow: the board, a rack and the final score chart.

Every function is a pure function of its data and returns PNG bytes; nothing here knows about Discord.
"""

from bot.messages import BoardHeader, PlayerLine
from bot.render.board import render_board
from bot.render.chart import render_score_chart
from bot.render.rack import render_rack

__all__ = ["BoardHeader", "PlayerLine", "render_board", "render_rack", "render_score_chart"]
