"""The header strip above a board image: the players as pills with their scores, the one to move in
yellow with an arrow, and the bag's count on the right.

Like the rest of the images it is drawn :data:`style.SUPERSAMPLE` times larger and scaled down, and
the scaling costs most of its time. :func:`draw_header_strip` does it all (the reference);
:func:`header_strip` gives the same pixels faster, from parts kept between calls: the strip without
its texts (the pills and the background: the same for every header with the same number of players,
bag count width and player to move) and, for each text, the columns of the strip around it, scaled
down alone (a name rarely changes; after a move only the mover's score and the bag's count do). A
column of the scaled strip depends only on the columns of the large drawing within the filter's reach,
and Pillow scales a part of an image (``resize`` with ``box``) exactly as it scales the whole, so the
parts put together are the whole. A part is kept by what it draws: its texts and only the pills within
the filter's reach of its columns, so a name's part is found again whoever else is to move. The parts
are only read once made: threads may share them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.messages import PlayerLine
from bot.render import style
from bot.render.drawing import fit_text, font, shrink
from bot.render.style import RGB

_TEXT_SIZE = 21
_PAD = 10
_RADIUS = 8
_REACH = 15
"""How far (in large pixels) beyond a text's box the scaled columns around it reach: Lanczos reads 9
large pixels either side of a column at a third of the size; the rest is a margin."""
_READ = 12
"""How far (in large pixels) beyond a run of scaled columns the scaling reads the large drawing: the 9
of Lanczos and a margin. A pill farther away changes none of the run's pixels."""


@dataclass(frozen=True, slots=True)
class _Pill:
    box: tuple[float, float, float, float]
    fill: RGB


@dataclass(frozen=True, slots=True)
class _Text:
    xy: tuple[float, float]
    text: str
    fill: RGB
    anchor: str


@dataclass(frozen=True, slots=True)
class _Layout:
    """What the strip draws, in the large drawing's pixels and in the order it draws it."""

    size: tuple[int, int]
    shapes: tuple[_Pill | _Text, ...]

    @property
    def pills(self) -> tuple[_Pill, ...]:
        return tuple(shape for shape in self.shapes if isinstance(shape, _Pill))

    @property
    def texts(self) -> tuple[_Text, ...]:
        return tuple(shape for shape in self.shapes if isinstance(shape, _Text))


def draw_header_strip(width: int, players: Sequence[PlayerLine], bag: int) -> Image.Image:
    """Draw the strip ``width`` pixels wide (and :data:`style.HEADER_HEIGHT` high) for ``players`` in
    turn order and ``bag`` tiles left: every part drawn and scaled down afresh."""
    layout = _layout(width, tuple(players), bag)
    return shrink(_drawing(layout.size, layout.shapes), style.SUPERSAMPLE)


def header_strip(width: int, players: Sequence[PlayerLine], bag: int) -> Image.Image:
    """The image of :func:`draw_header_strip`, pixel for pixel, put together from kept parts."""
    layout = _layout(width, tuple(players), bag)
    strip = _without_texts(layout.size, layout.pills).copy()
    scale = style.SUPERSAMPLE
    for first, last, texts in _text_columns(layout):
        left, right = first * scale - _READ, last * scale + _READ
        shapes = tuple(
            shape
            for shape in layout.shapes
            if (isinstance(shape, _Pill) and shape.box[0] - 1 <= right and shape.box[2] + 1 >= left)
            or shape in texts
        )
        strip.paste(_columns(layout.size, shapes, first, last), (first, 0))
    return strip


def _layout(width: int, players: tuple[PlayerLine, ...], bag: int) -> _Layout:
    """The pills and texts of the strip: the bag's pill on the right, the players' pills sharing the
    rest of the width, each with the name on the left (cut to fit) and the score on the right."""
    scale = style.SUPERSAMPLE
    size = (width * scale, style.HEADER_HEIGHT * scale)
    text_size = _TEXT_SIZE * scale
    face = font(text_size)
    pad = _PAD * scale
    top, bottom = pad, size[1] - pad
    middle = size[1] / 2
    bag_text = f"Bag {bag}"
    bag_width = face.getlength(bag_text) + 2 * pad
    right = size[0] - style.MARGIN * scale
    shapes: list[_Pill | _Text] = [
        _Pill((right - bag_width, top, right, bottom), style.HEADER_PILL),
        _Text((right - pad, middle), bag_text, style.HEADER_TEXT, "rm"),
    ]
    left = style.MARGIN * scale
    space = right - bag_width - pad - left
    pill = (space - pad * (len(players) - 1)) / max(len(players), 1)
    for index, player in enumerate(players):
        x0 = left + index * (pill + pad)
        x1 = x0 + pill
        fill, ink = (
            (style.TO_MOVE_PILL, style.TO_MOVE_TEXT)
            if player.to_move
            else (style.HEADER_PILL, style.HEADER_TEXT)
        )
        score = str(player.score)
        name = ("▶ " if player.to_move else "") + player.name
        name = fit_text(name, text_size, pill - face.getlength(score) - 3 * pad)
        shapes += [
            _Pill((x0, top, x1, bottom), fill),
            _Text((x1 - pad, middle), score, ink, "rm"),
            _Text((x0 + pad, middle), name, ink, "lm"),
        ]
    return _Layout(size, tuple(shapes))


def _drawing(size: tuple[int, int], shapes: Sequence[_Pill | _Text]) -> Image.Image:
    """The large drawing of ``shapes`` on the strip's background."""
    image = Image.new("RGB", size, style.FRAME_DARK)
    draw = ImageDraw.Draw(image)
    face = font(_TEXT_SIZE * style.SUPERSAMPLE)
    for shape in shapes:
        if isinstance(shape, _Pill):
            draw.rounded_rectangle(shape.box, _RADIUS * style.SUPERSAMPLE, fill=shape.fill)
        else:
            draw.text(shape.xy, shape.text, font=face, fill=shape.fill, anchor=shape.anchor)
    return image


@lru_cache(maxsize=64)
def _without_texts(size: tuple[int, int], pills: tuple[_Pill, ...]) -> Image.Image:
    """The strip with its pills and no text, scaled down. Shared: copy before changing it."""
    return shrink(_drawing(size, pills), style.SUPERSAMPLE)


def _text_columns(layout: _Layout) -> list[tuple[int, int, tuple[_Text, ...]]]:
    """The runs of scaled columns ``first`` to ``last`` (excluded) that a text reaches, with the texts
    in each (texts whose runs touch share one)."""
    scale = style.SUPERSAMPLE
    columns = layout.size[0] // scale
    measure = ImageDraw.Draw(Image.new("1", (1, 1)))
    face = font(_TEXT_SIZE * scale)
    reached = []
    for text in layout.texts:
        left, _, right, _ = measure.textbbox(text.xy, text.text, font=face, anchor=text.anchor)
        first = max(0, math.floor((left - _REACH) / scale))
        last = min(columns, math.ceil((right + _REACH) / scale))
        reached.append((first, last, text))
    runs: list[tuple[int, int, tuple[_Text, ...]]] = []
    for first, last, text in sorted(reached, key=lambda run: run[0]):
        if runs and first <= runs[-1][1]:
            run_first, run_last, texts = runs[-1]
            runs[-1] = (run_first, max(run_last, last), (*texts, text))
        else:
            runs.append((first, last, (text,)))
    return runs


@lru_cache(maxsize=2048)
def _columns(size: tuple[int, int], shapes: tuple[_Pill | _Text, ...], first: int, last: int) -> Image.Image:
    """Scaled columns ``first`` to ``last`` (excluded) of the strip drawing ``shapes``: its pills and
    the texts near those columns. Shared: do not change it."""
    scale = style.SUPERSAMPLE
    drawing = _drawing(size, shapes)
    box = (first * scale, 0, last * scale, size[1])
    return drawing.resize((last - first, size[1] // scale), Image.Resampling.LANCZOS, box=box)
