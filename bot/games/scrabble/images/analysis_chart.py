"""The analysis chart: the equity each player lost on each turn, as bars in the players' colours."""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from bot.render import style
from bot.render.chart import nice_step
from bot.render.drawing import box_shrink, fit_text, font, png_bytes

_TEXT_SIZE = 18
_LEGEND_SIZE = 20
_TITLE_TOP = 16
_LEGEND_ROW = 34
_PLOT_TOP = 60
_PLOT_LEFT = 74
_PLOT_RIGHT = 36
_PLOT_BOTTOM = 64
_BAR_GAP = 0.2
"""The share of a turn's width left empty between bars."""


def render_loss_chart(players: Sequence[str], losses: Sequence[tuple[int, int, float]]) -> bytes:
    """Draw the equity lost per turn (PNG bytes, :data:`style.CHART_SIZE`): one bar per turn, in its
    player's colour, ``losses`` being ``(turn number from 1, seat, equity lost)``; a legend above gives
    each player's colour, name and total loss.

    Raises:
        ValueError: a seat that is not one of ``players``.
    """
    if any(not 0 <= seat < len(players) for _, seat, _ in losses):
        raise ValueError(f"a turn of a seat outside the {len(players)} players")
    scale = style.SUPERSAMPLE
    width, height = style.CHART_SIZE
    image = Image.new("RGB", (width * scale, height * scale), style.CHART_BACKGROUND)
    draw = ImageDraw.Draw(image)
    totals = [sum(loss for _, seat, loss in losses if seat == index) for index in range(len(players))]
    _draw_legend(draw, players, totals, scale)
    left, top = _PLOT_LEFT * scale, _PLOT_TOP * scale
    right, bottom = (width - _PLOT_RIGHT) * scale, (height - _PLOT_BOTTOM) * scale
    turns = max([1, *(turn for turn, _, _ in losses)])
    worst = max([0.0, *(loss for _, _, loss in losses)])
    y_step = nice_step(max(worst, 10) / 6)
    y_high = max(math.ceil(worst / y_step) * y_step, y_step)
    face = font(_TEXT_SIZE * scale)
    for value in range(0, y_high + 1, y_step):
        y = bottom - (bottom - top) * value / y_high
        draw.line((left, y, right, y), fill=style.CHART_AXIS if value == 0 else style.CHART_GRID, width=scale)
        draw.text((left - 10 * scale, y), str(value), font=face, fill=style.CHART_TEXT, anchor="rm")
    column = (right - left) / turns
    for turn, seat, loss in losses:
        x = left + column * (turn - 1)
        y = bottom - (bottom - top) * loss / y_high
        colour = style.PLAYER_COLOURS[seat % len(style.PLAYER_COLOURS)]
        if loss > 0:
            draw.rectangle(
                (x + column * _BAR_GAP / 2, y, x + column * (1 - _BAR_GAP / 2), bottom), fill=colour
            )
    x_step = nice_step(turns / 12) if turns > 12 else 1
    for turn in range(x_step, turns + 1, x_step):
        x = left + column * (turn - 0.5)
        draw.text((x, bottom + 10 * scale), str(turn), font=face, fill=style.CHART_TEXT, anchor="mt")
    draw.line((left, top, left, bottom), fill=style.CHART_AXIS, width=2 * scale)
    draw.text(
        ((left + right) / 2, bottom + 36 * scale),
        "Turn (bar: equity lost)",
        font=face,
        fill=style.CHART_TEXT,
        anchor="mt",
    )
    return png_bytes(box_shrink(image, scale))


def _draw_legend(
    draw: ImageDraw.ImageDraw, players: Sequence[str], totals: Sequence[float], scale: int
) -> None:
    """A colour swatch, the name and the total equity lost of each player, side by side."""
    width = style.CHART_SIZE[0] * scale
    left = _PLOT_LEFT * scale
    column = (width - left - _PLOT_RIGHT * scale) / max(len(players), 1)
    size = _LEGEND_SIZE * scale
    face = font(size)
    swatch = 16 * scale
    middle = (_TITLE_TOP + _LEGEND_ROW / 2) * scale
    for index, (name, total) in enumerate(zip(players, totals, strict=True)):
        x = left + index * column
        colour = style.PLAYER_COLOURS[index % len(style.PLAYER_COLOURS)]
        draw.rounded_rectangle(
            (x, middle - swatch / 2, x + swatch, middle + swatch / 2), 3 * scale, fill=colour
        )
        suffix = f" lost {total:.1f}"
        room = column - swatch - 12 * scale - face.getlength(suffix) - 16 * scale
        label = fit_text(name, size, room) + suffix
        draw.text((x + swatch + 10 * scale, middle), label, font=face, fill=style.CHART_TEXT, anchor="lm")
