"""Scrabble's :class:`~bot.games.scrabble.protocols.Renderer` that draws PNG images with
:mod:`bot.render` (Pillow)."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from bot.games.scrabble.images import render_board, render_rack, render_score_chart
from bot.games.scrabble.protocols import BoardHeader
from bot.host.rating_model import Rating
from bot.render.rating_chart import render_rating_chart
from scrabble_core.board import Board
from scrabble_core.squares import Square
from scrabble_core.variant import Variant


class PngRenderer:
    """The :class:`Renderer` of :mod:`bot.render`."""

    def board(self, board: Board, last_move: Collection[Square], header: BoardHeader) -> bytes:
        """See :func:`bot.render.render_board`."""
        return render_board(board, last_move=last_move, header=header)

    def rack(self, tiles: str, variant: Variant) -> bytes:
        """See :func:`bot.render.render_rack`."""
        return render_rack(tiles, variant)

    def chart(self, players: Sequence[str], totals: Sequence[Sequence[int]]) -> bytes:
        """See :func:`bot.render.render_score_chart`."""
        return render_score_chart(players, totals)

    def rating_chart(self, name: str, ratings: Sequence[Rating]) -> bytes:
        """See :func:`bot.render.rating_chart.render_rating_chart`."""
        return render_rating_chart(name, ratings)
