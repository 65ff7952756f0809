"""Tiles as small images: a letter and its value on a bevelled face, pasted onto boards and racks.

Real tiles have a wheat face with a dark letter and the value in the bottom-right corner; blanks have a
lavender face with a purple letter and no value; letter-set tiles a mint face with green ink: on the
board the letter chosen, its value, and the set's letters small in the top-left corner, on a rack each
letter of the set above its value. Tiles of the last move have a yellow face and an orange ring.
:func:`tile_image` keeps each distinct tile (letter, value, size, state, set) drawn by :func:`draw_tile`:
the images are only read after that, so threads may share them.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image, ImageDraw

from bot.render import style
from bot.render.drawing import draw_centred, fit_text, font, shrink

_SHOWN_CHOICES = 4
"""The most letters of a set a tile shows (more are cut short with an ellipsis)."""


def draw_tile(
    letter: str,
    value: int | None,
    size: int,
    *,
    last_move: bool = False,
    choices: tuple[tuple[str, int], ...] = (),
) -> Image.Image:
    """Draw an RGBA image ``size`` pixels square of one tile (transparent around it).

    ``value`` is ``None`` for a blank, which is drawn in the blank colours with ``letter`` and no value;
    ``letter`` may be empty for a blank still on a rack. ``choices`` are the letters of a set tile with
    their points: with ``letter`` (the one chosen, worth ``value``) it is a set tile on the board,
    without it one on a rack.
    """
    scale = style.SUPERSAMPLE
    side = size * scale
    blank = value is None and not choices
    image = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    inset = 2 * scale
    radius = side // 9
    body = (inset, inset, side - inset - 2 * scale, side - inset - 2 * scale)
    draw.rounded_rectangle(_shifted(body, 2 * scale), radius, fill=style.SHADOW)
    if last_move:
        face, edge = style.LAST_MOVE_FACE, style.LAST_MOVE_RING
    elif choices:
        face, edge = style.SET_FACE, style.SET_EDGE
    elif blank:
        face, edge = style.BLANK_FACE, style.BLANK_EDGE
    else:
        face, edge = style.TILE_FACE, style.TILE_EDGE
    ink = style.SET_TEXT if choices else style.BLANK_TEXT if blank else style.TILE_TEXT
    draw.rounded_rectangle(body, radius, fill=edge)
    bevel = scale * (3 if last_move else 2)
    draw.rounded_rectangle(
        (body[0] + bevel // 2, body[1] + bevel // 2, body[2] - bevel, body[3] - bevel),
        max(radius - bevel, 1),
        fill=face,
    )
    centre_x = (body[0] + body[2]) / 2
    centre_y = (body[1] + body[3]) / 2
    if choices and not letter:
        _draw_choices(draw, body, choices, side, ink)
        return shrink(image, scale)
    if choices:
        letters = fit_text("".join(choice for choice, _ in choices), int(side * 0.17), side * 0.55)
        corner = (body[0] + bevel + side * 0.05, body[1] + bevel + side * 0.03)
        draw.text(corner, letters, font=font(int(side * 0.17)), fill=ink, anchor="la")
    if letter and blank:
        draw_centred(draw, (centre_x, centre_y), letter, int(side * 0.56), ink)
    elif letter:
        # Up and left of the centre, smaller than a blank's letter: room for the value in the corner.
        draw_centred(draw, (centre_x - side * 0.07, centre_y - side * 0.04), letter, int(side * 0.5), ink)
        corner = (body[2] - bevel - side * 0.04, body[3] - bevel - side * 0.04)
        draw.text(corner, str(value), font=font(int(side * 0.24)), fill=ink, anchor="rs")
    return shrink(image, scale)


tile_image = lru_cache(maxsize=1024)(draw_tile)
""":func:`draw_tile`, drawn once per distinct tile and kept. Do not modify the returned image: it is shared."""


def _draw_choices(
    draw: ImageDraw.ImageDraw,
    body: tuple[int, int, int, int],
    choices: tuple[tuple[str, int], ...],
    side: int,
    ink: tuple[int, int, int],
) -> None:
    """The letters of a set tile on a rack side by side, each above its points (the first
    :data:`_SHOWN_CHOICES` - 1 and an ellipsis when there are more)."""
    shown: list[tuple[str, str]] = [(choice, str(points)) for choice, points in choices]
    if len(shown) > _SHOWN_CHOICES:
        shown = [*shown[: _SHOWN_CHOICES - 1], ("…", "")]
    width = (body[2] - body[0]) / len(shown)
    letter_size = int(side * (0.36 if len(shown) <= 2 else 0.27))
    for index, (choice, points) in enumerate(shown):
        x = body[0] + width * (index + 0.5)
        draw_centred(draw, (x, body[1] + (body[3] - body[1]) * 0.4), choice, letter_size, ink)
        if points:
            draw_centred(draw, (x, body[1] + (body[3] - body[1]) * 0.78), points, int(side * 0.16), ink)


def _shifted(box: tuple[int, int, int, int], offset: int) -> tuple[int, int, int, int]:
    left, top, right, bottom = box
    return left + offset, top + offset, right + offset, bottom + offset
