"""The rating chart of ``/scrabble stats``: a player's rating after each rated game, as a line chart in the
style of the end-of-game score chart (:mod:`bot.render.chart`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

from PIL import Image, ImageDraw

from bot.host.rating_model import Rating
from bot.render import style
from bot.render.chart import draw_axes, nice_step
from bot.render.drawing import box_shrink, fit_text, font, png_bytes

_TEXT_SIZE: Final = 18
_TITLE_SIZE: Final = 22
_LEGEND_TOP: Final = 16
_LEGEND_ROW: Final = 34
_PLOT_TOP: Final = 70
_PLOT_LEFT: Final = 74
_PLOT_RIGHT: Final = 36
_PLOT_BOTTOM: Final = 64
_LINE_WIDTH: Final = 4
_MARKER_RADIUS: Final = 5
_MAX_MARKERS: Final = 60
"""Past this many games the lines are drawn without a marker per game."""

RATING_COLOUR: Final = style.PLAYER_COLOURS[0]
ESTIMATE_COLOUR: Final = style.PLAYER_COLOURS[1]


def render_rating_chart(name: str, ratings: Sequence[Rating]) -> bytes:
    """Draw ``name``'s ratings as a line chart (PNG bytes, :data:`style.CHART_SIZE`): ``ratings[0]`` is
    the rating before the first rated game, ``ratings[n]`` the rating after the n-th. Two lines: the
    conservative rating ``mu - 3 sigma`` (what the leaderboard ranks by) and the estimate ``mu``; the
    legend above gives the name and both current values. The x axis counts rated games.

    Raises:
        ValueError: ``ratings`` is empty.
    """
    if not ratings:
        raise ValueError("a rating chart needs at least the initial rating")
    scale = style.SUPERSAMPLE
    width, height = style.CHART_SIZE
    image = Image.new("RGB", (width * scale, height * scale), style.CHART_BACKGROUND)
    draw = ImageDraw.Draw(image)
    lines = (
        (f"Rating (μ − 3σ) {ratings[-1].ordinal:.1f}", RATING_COLOUR, [r.ordinal for r in ratings]),
        (f"Estimate μ {ratings[-1].mu:.1f}", ESTIMATE_COLOUR, [r.mu for r in ratings]),
    )
    _draw_legend(draw, name, [(label, colour) for label, colour, _ in lines], scale)
    plot = (
        _PLOT_LEFT * scale,
        _PLOT_TOP * scale,
        (width - _PLOT_RIGHT) * scale,
        (height - _PLOT_BOTTOM) * scale,
    )
    values = [value for _, _, line in lines for value in line]
    y_step = nice_step(max(max(values) - min(values), 10) / 8)
    y_low = math.floor(min(values) / y_step) * y_step
    y_high = max(math.ceil(max(values) / y_step) * y_step, y_low + y_step)
    x_high = max(1, len(ratings) - 1)

    def point(game: int, value: float) -> tuple[float, float]:
        x = plot[0] + (plot[2] - plot[0]) * game / x_high
        y = plot[3] - (plot[3] - plot[1]) * (value - y_low) / (y_high - y_low)
        return x, y

    draw_axes(draw, plot, point, x_high, (y_low, y_high, y_step), scale, "Rated games")
    radius = _MARKER_RADIUS * scale
    for _, colour, line in lines:
        points = [point(game, value) for game, value in enumerate(line)]
        if len(points) > 1:
            draw.line(points, fill=colour, width=_LINE_WIDTH * scale, joint="curve")
        for x, y in points if len(points) <= _MAX_MARKERS else points[-1:]:
            draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=colour)
    return png_bytes(box_shrink(image, scale))


def _draw_legend(
    draw: ImageDraw.ImageDraw, name: str, entries: Sequence[tuple[str, style.RGB]], scale: int
) -> None:
    """The player's name, then a colour swatch and a label for each line, on one row."""
    width = style.CHART_SIZE[0] * scale
    left = _PLOT_LEFT * scale
    middle = (_LEGEND_TOP + _LEGEND_ROW / 2) * scale
    column = (width - left - _PLOT_RIGHT * scale) / (len(entries) + 1)
    title = font(_TITLE_SIZE * scale)
    label = fit_text(name, _TITLE_SIZE * scale, column - 16 * scale)
    draw.text((left, middle), label, font=title, fill=style.CHART_TEXT, anchor="lm")
    face = font(_TEXT_SIZE * scale)
    swatch = 16 * scale
    for index, (text, colour) in enumerate(entries, 1):
        x = left + index * column
        draw.rounded_rectangle(
            (x, middle - swatch / 2, x + swatch, middle + swatch / 2), 3 * scale, fill=colour
        )
        room = column - swatch - 16 * scale
        shown = fit_text(text, _TEXT_SIZE * scale, room)
        draw.text((x + swatch + 10 * scale, middle), shown, font=face, fill=style.CHART_TEXT, anchor="lm")
