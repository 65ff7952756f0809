"""The header strip above a board image: the players as pills with their scores, the one to move in
yellow with an arrow, and the bag's count on the right.

The pills are rounded, so, like the shapes of the other images, they are drawn
:data:`style.SUPERSAMPLE` times larger and scaled down for smooth edges; the strip without its texts is
the same for every header with the same number of players, bag count width and player to move, so
:func:`header_strip` keeps it (:func:`_without_texts`). The texts are drawn on it at the strip's own
size: FreeType smooths their edges itself. (Until 26 Nov 2026 they were drawn large and scaled down
with the pills, which took most of a board's time, about 4 ms of 7, for no sharper letters.)
:func:`draw_header_strip` draws everything afresh: the reference the kept pills are compared with.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.games.scrabble.protocols import PlayerLine
from bot.render import style
from bot.render.drawing import fit_text, font, shrink
from bot.render.style import RGB

_TEXT_SIZE = 21
_PAD = 10
_RADIUS = 8


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
    """What the strip draws, in its pixels: its size, its pills, then its texts."""

    size: tuple[int, int]
    pills: tuple[_Pill, ...]
    texts: tuple[_Text, ...]


def draw_header_strip(width: int, players: Sequence[PlayerLine], bag: int) -> Image.Image:
    """Draw the strip ``width`` pixels wide (and :data:`style.HEADER_HEIGHT` high) for ``players`` in
    turn order and ``bag`` tiles left, every part afresh."""
    layout = _layout(width, tuple(players), bag)
    return _with_texts(_pills(layout.size, layout.pills), layout.texts)


def header_strip(width: int, players: Sequence[PlayerLine], bag: int) -> Image.Image:
    """The image of :func:`draw_header_strip`, pixel for pixel, its pills kept between calls."""
    layout = _layout(width, tuple(players), bag)
    return _with_texts(_without_texts(layout.size, layout.pills).copy(), layout.texts)


def _layout(width: int, players: tuple[PlayerLine, ...], bag: int) -> _Layout:
    """The pills and texts of the strip: the bag's pill on the right, the players' pills sharing the
    rest of the width, each with the name on the left (cut to fit) and the score on the right."""
    face = font(_TEXT_SIZE)
    top, bottom = _PAD, style.HEADER_HEIGHT - _PAD
    middle = style.HEADER_HEIGHT / 2
    bag_text = f"Bag {bag}"
    bag_width = face.getlength(bag_text) + 2 * _PAD
    right = width - style.MARGIN
    pills = [_Pill((right - bag_width, top, right, bottom), style.HEADER_PILL)]
    texts = [_Text((right - _PAD, middle), bag_text, style.HEADER_TEXT, "rm")]
    left = style.MARGIN
    space = right - bag_width - _PAD - left
    pill = (space - _PAD * (len(players) - 1)) / max(len(players), 1)
    for index, player in enumerate(players):
        x0 = left + index * (pill + _PAD)
        x1 = x0 + pill
        fill, ink = (
            (style.TO_MOVE_PILL, style.TO_MOVE_TEXT)
            if player.to_move
            else (style.HEADER_PILL, style.HEADER_TEXT)
        )
        score = str(player.score)
        name = ("▶ " if player.to_move else "") + player.name
        name = fit_text(name, _TEXT_SIZE, pill - face.getlength(score) - 3 * _PAD)
        pills.append(_Pill((x0, top, x1, bottom), fill))
        texts += [_Text((x1 - _PAD, middle), score, ink, "rm"), _Text((x0 + _PAD, middle), name, ink, "lm")]
    return _Layout((width, style.HEADER_HEIGHT), tuple(pills), tuple(texts))


def _pills(size: tuple[int, int], pills: tuple[_Pill, ...]) -> Image.Image:
    """The strip's background with ``pills``, drawn :data:`style.SUPERSAMPLE` times larger and scaled
    down."""
    scale = style.SUPERSAMPLE
    image = Image.new("RGB", (size[0] * scale, size[1] * scale), style.FRAME_DARK)
    draw = ImageDraw.Draw(image)
    for pill in pills:
        box = (pill.box[0] * scale, pill.box[1] * scale, pill.box[2] * scale, pill.box[3] * scale)
        draw.rounded_rectangle(box, _RADIUS * scale, fill=pill.fill)
    return shrink(image, scale)


_without_texts = lru_cache(maxsize=64)(_pills)
""":func:`_pills` kept for the last 64 layouts of pills. Shared: copy before changing it."""


def _with_texts(strip: Image.Image, texts: Sequence[_Text]) -> Image.Image:
    """``strip`` with ``texts`` drawn on it (changed in place)."""
    draw = ImageDraw.Draw(strip)
    face = font(_TEXT_SIZE)
    for text in texts:
        draw.text(text.xy, text.text, font=face, fill=text.fill, anchor=text.anchor)
    return strip
