"""The end-of-game chart: each player's cumulative score turn by turn, as a line chart."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.render import style
from bot.render.drawing import box_shrink, fit_text, fixed_palette, font, png_bytes

_TEXT_SIZE = 18
_LEGEND_SIZE = 20
_LEGEND_TOP = 16
_LEGEND_ROW = 34
_LEGEND_COLUMNS = 4
_PLOT_TOP_GAP = 20
_PLOT_LEFT = 74
_PLOT_RIGHT = 36
_PLOT_BOTTOM = 64
_LINE_WIDTH = 4
_MARKER_RADIUS = 5


def render_score_chart(players: Sequence[str], totals: Sequence[Sequence[int]]) -> bytes:
    """Draw the players' cumulative scores as a line chart (PNG bytes, :data:`style.CHART_SIZE`).

    ``totals[i]`` is the score of ``players[i]`` after each of their turns; the lists may differ in
    length (the players who moved first may have one turn more). The x axis counts turns from 0 (every
    line starts at 0 points), the y axis is the score; a legend above gives each player's colour, name
    and final score.

    Raises:
        ValueError: ``players`` and ``totals`` are not the same length.
    """
    if len(players) != len(totals):
        raise ValueError(f"{len(players)} players but {len(totals)} lists of totals")
    return png_bytes(_score_chart(players, totals), palette=chart_palette())


@lru_cache(maxsize=1)
def chart_palette() -> Image.Image:
    """The 256 colours of every score chart, chosen once from a chart of four players (every line
    colour, the grid, the texts and their anti-aliased edges): mapping a chart to them takes a fifth of
    the time of choosing a palette for each. Shared and only read (see
    :func:`~bot.render.drawing.fixed_palette`)."""
    players = [f"Player {index}" for index in range(1, 5)]
    totals = [[(seat + 1) * 9 * turn - 40 * (turn == 3) for turn in range(1, 21)] for seat in range(4)]
    return fixed_palette(_score_chart(players, totals))


def _score_chart(players: Sequence[str], totals: Sequence[Sequence[int]]) -> Image.Image:
    """The image of :func:`render_score_chart` (RGB), before encoding."""
    scale = style.SUPERSAMPLE
    width, height = style.CHART_SIZE
    image = Image.new("RGB", (width * scale, height * scale), style.CHART_BACKGROUND)
    draw = ImageDraw.Draw(image)
    _draw_legend(draw, players, totals, scale)
    legend_rows = max(1, math.ceil(len(players) / _LEGEND_COLUMNS))
    plot = (
        _PLOT_LEFT * scale,
        (_LEGEND_TOP + legend_rows * _LEGEND_ROW + _PLOT_TOP_GAP) * scale,
        (width - _PLOT_RIGHT) * scale,
        (height - _PLOT_BOTTOM) * scale,
    )
    x_high = max([1, *(len(line) for line in totals)])
    scores = [0, *(score for line in totals for score in line)]
    y_step = nice_step(max(max(scores) - min(scores), 10) / 8)
    y_low = math.floor(min(scores) / y_step) * y_step
    y_high = max(math.ceil(max(scores) / y_step) * y_step, y_low + y_step)

    def point(turn: int, score: int) -> tuple[float, float]:
        x = plot[0] + (plot[2] - plot[0]) * turn / x_high
        y = plot[3] - (plot[3] - plot[1]) * (score - y_low) / (y_high - y_low)
        return x, y

    draw_axes(draw, plot, point, x_high, (y_low, y_high, y_step), scale)
    for index, line in enumerate(totals):
        colour = style.PLAYER_COLOURS[index % len(style.PLAYER_COLOURS)]
        points = [point(turn, score) for turn, score in enumerate([0, *line])]
        draw.line(points, fill=colour, width=_LINE_WIDTH * scale, joint="curve")
        radius = _MARKER_RADIUS * scale
        for x, y in points[1:]:
            draw.ellipse((x - radius, y - radius, x + radius, y + radius), fill=colour)
    return box_shrink(image, scale)


def _draw_legend(
    draw: ImageDraw.ImageDraw, players: Sequence[str], totals: Sequence[Sequence[int]], scale: int
) -> None:
    """A colour swatch, the name and the final score of each player, four to a row."""
    width = style.CHART_SIZE[0] * scale
    left = _PLOT_LEFT * scale
    column = (width - left - _PLOT_RIGHT * scale) / _LEGEND_COLUMNS
    size = _LEGEND_SIZE * scale
    face = font(size)
    swatch = 16 * scale
    for index, (name, line) in enumerate(zip(players, totals, strict=True)):
        row, col = divmod(index, _LEGEND_COLUMNS)
        x = left + col * column
        middle = (_LEGEND_TOP + row * _LEGEND_ROW + _LEGEND_ROW / 2) * scale
        colour = style.PLAYER_COLOURS[index % len(style.PLAYER_COLOURS)]
        draw.rounded_rectangle(
            (x, middle - swatch / 2, x + swatch, middle + swatch / 2), 3 * scale, fill=colour
        )
        score = f" {line[-1] if line else 0}"
        room = column - swatch - 12 * scale - face.getlength(score) - 16 * scale
        label = fit_text(name, size, room) + score
        draw.text((x + swatch + 10 * scale, middle), label, font=face, fill=style.CHART_TEXT, anchor="lm")


def draw_axes(
    draw: ImageDraw.ImageDraw,
    plot: tuple[int, int, int, int],
    point: Callable[[int, int], tuple[float, float]],
    x_high: int,
    y_ticks: tuple[int, int, int],
    scale: int,
    x_label: str = "Turn",
) -> None:
    """Horizontal grid lines with their values (0 drawn as an axis), the y axis, and the x axis's
    numbers (turns, or games) under the plot with ``x_label``."""
    left, top, right, bottom = plot
    face = font(_TEXT_SIZE * scale)
    y_low, y_high, y_step = y_ticks
    for score in range(y_low, y_high + 1, y_step):
        _, y = point(0, score)
        colour = style.CHART_AXIS if score == 0 else style.CHART_GRID
        draw.line((left, y, right, y), fill=colour, width=scale * (2 if score == 0 else 1))
        draw.text((left - 10 * scale, y), str(score), font=face, fill=style.CHART_TEXT, anchor="rm")
    draw.line((left, top, left, bottom), fill=style.CHART_AXIS, width=2 * scale)
    x_step = nice_step(x_high / 12) if x_high > 12 else 1
    for turn in range(0, x_high + 1, x_step):
        x, _ = point(turn, y_low)
        draw.line((x, bottom, x, bottom + 6 * scale), fill=style.CHART_AXIS, width=2 * scale)
        draw.text((x, bottom + 10 * scale), str(turn), font=face, fill=style.CHART_TEXT, anchor="mt")
    draw.text(
        ((left + right) / 2, bottom + 36 * scale), x_label, font=face, fill=style.CHART_TEXT, anchor="mt"
    )


def nice_step(raw: float) -> int:
    """The smallest of 1, 2, 5, 10, 20, 50... that is at least ``raw`` (which must be positive)."""
    magnitude = int(10 ** max(0, math.floor(math.log10(raw))))
    return next(multiple * magnitude for multiple in (1, 2, 5, 10) if multiple * magnitude >= raw)
