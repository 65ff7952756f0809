"""Scrabble's images, drawn with Pillow: the board, a rack, the final score chart and the analysis chart.

Every function is a pure function of its data and returns PNG bytes; nothing here knows about Discord.
"""

from bot.games.scrabble.images.board import render_board
from bot.games.scrabble.images.rack import render_rack
from bot.games.scrabble.protocols import BoardHeader, PlayerLine
from bot.render.chart import render_score_chart

__all__ = ["BoardHeader", "PlayerLine", "render_board", "render_rack", "render_score_chart"]
