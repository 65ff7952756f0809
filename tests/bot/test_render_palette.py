"""The board PNG's fixed palette: chosen once per variant, shared by every board of it, and faithful.

:func:`bot.games.scrabble.images.board.board_palette` picks 256 colours once per variant from a sample of everything
a board can show; a render only maps its pixels to them. The decoded PNG is compared with the RGB
image it encodes: the largest difference of a channel at any pixel, and the mean difference of each
channel over the image, stay within exact bounds (today's worst case is 41 and 1.24, on the boards
covered with tiles; the adaptive octree palette of each image it replaces reached 56 and 0.94).
"""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops, ImageStat
from test_render_cache import CASES

from bot.games.scrabble.images import board as board_module
from bot.games.scrabble.images.board import _empty_board, board_palette, compose_board, render_board
from bot.render.drawing import fixed_palette, png_bytes
from scrabble_core.board import Board
from scrabble_core.variant import get_variant

MAX_CHANNEL_DIFFERENCE = 42
"""Largest difference of one channel at one pixel between a board and its PNG (anti-aliased edges)."""
MEAN_CHANNEL_DIFFERENCE = 1.25
"""Largest mean difference of a channel over a whole board between the image and its PNG."""

FAITHFUL_CASES = [
    "standard empty, no header",
    "standard empty",
    "midgame, header midgame",
    "midgame, header four long names",
    "blank in the last move",
    "standard full with blanks",
    "super midgame",
    "super full",
    "custom variant with holes",
    "custom variant with a header",
]


def differences(image: Image.Image, png: bytes) -> tuple[int, float]:
    """The largest channel difference at any pixel and the largest mean channel difference between
    ``image`` (RGB) and the decoded ``png``."""
    decoded = Image.open(io.BytesIO(png)).convert("RGB")
    assert decoded.size == image.size
    statistics = ImageStat.Stat(ImageChops.difference(image, decoded))
    return max(high for _, high in statistics.extrema), max(statistics.mean)


@pytest.mark.parametrize("name", FAITHFUL_CASES)
def test_fixed_palette_png_is_faithful(name: str) -> None:
    board, last_move, strip = CASES[name]
    image = compose_board(board, last_move=last_move, header=strip)
    largest, mean = differences(image, render_board(board, last_move=last_move, header=strip))
    assert largest <= MAX_CHANNEL_DIFFERENCE
    assert mean <= MEAN_CHANNEL_DIFFERENCE


@pytest.mark.parametrize("name", ["midgame, header midgame", "standard full with blanks"])
def test_faithfulness_check_fails_on_a_palette_without_the_tiles(name: str) -> None:
    """A palette chosen from the empty board alone (no tile, no header) is far off on tiles."""
    board, last_move, strip = CASES[name]
    image = compose_board(board, last_move=last_move, header=strip)
    largest, mean = differences(image, png_bytes(image, palette=fixed_palette(_empty_board(board.variant))))
    assert largest > MAX_CHANNEL_DIFFERENCE + 30
    assert mean > 3 * MEAN_CHANNEL_DIFFERENCE


def test_every_board_of_a_variant_shares_one_palette_chosen_once() -> None:
    board_palette.cache_clear()
    board_module._indexed_parts.cache_clear()
    pngs = [
        render_board(board, last_move=last_move, header=strip)
        for board, last_move, strip in (
            CASES["standard empty, no header"],
            CASES["midgame, header midgame"],
            CASES["standard full with blanks"],
        )
    ]
    palettes = [Image.open(io.BytesIO(png)).getpalette() for png in pngs]
    assert palettes[0] is not None and len(palettes[0]) == 256 * 3
    assert palettes[1:] == palettes[:1] * 2
    assert board_palette.cache_info().misses == 1
    super_png = render_board(Board(get_variant("super")))
    assert Image.open(io.BytesIO(super_png)).getpalette() != palettes[0]
    assert board_palette.cache_info().misses == 2
