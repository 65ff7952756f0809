"""The look of every image: sizes in pixels and the colour palette.

Colours are RGB triples. The premium colours follow the classic board (triple word red, double word
pink, triple letter dark blue, double letter light blue); the quadruple squares of the Super board get
orange (word) and green (letter).
"""

from __future__ import annotations

from typing import Final

from scrabble_core.variant import Premium

RGB = tuple[int, int, int]

SUPERSAMPLE: Final = 3
"""Static art (board backgrounds, tiles, charts) is drawn this many times larger, then scaled down."""

# Board geometry.
CELL: Final = 60
"""Side of one square of the board."""
MARGIN: Final = 30
"""Width of the band around the board that holds the coordinates."""
SQUARE_INSET: Final = 1
"""Gap between a square and the edge of its cell: the frame shows through as a grid."""
HEADER_HEIGHT: Final = 64
"""Height of the optional strip above the board with the players, the scores and the bag."""

# Rack geometry.
RACK_TILE: Final = 80
RACK_GAP: Final = 8
RACK_PADDING: Final = 16

# Chart geometry.
CHART_SIZE: Final = (960, 540)

FRAME: Final[RGB] = (24, 72, 58)
FRAME_DARK: Final[RGB] = (16, 52, 42)
COORDINATE_TEXT: Final[RGB] = (222, 236, 228)

PREMIUM_COLOURS: Final[dict[Premium, RGB]] = {
    Premium.PLAIN: (206, 214, 196),
    Premium.DOUBLE_LETTER: (166, 212, 238),
    Premium.TRIPLE_LETTER: (38, 102, 180),
    Premium.QUADRUPLE_LETTER: (46, 150, 96),
    Premium.DOUBLE_WORD: (244, 172, 178),
    Premium.TRIPLE_WORD: (210, 52, 48),
    Premium.QUADRUPLE_WORD: (236, 124, 36),
}
PROGRAM_SQUARE: Final[RGB] = (122, 92, 168)
"""A square whose programs are not a letter or word multiplier of the classic board (labelled ``P`` and
its square id)."""
LIGHT_LABEL: Final[RGB] = (255, 255, 255)
DARK_LABEL: Final[RGB] = (52, 58, 64)
START_STAR: Final[RGB] = (40, 40, 40)

# Tiles.
TILE_FACE: Final[RGB] = (241, 215, 160)
TILE_EDGE: Final[RGB] = (176, 138, 82)
TILE_TEXT: Final[RGB] = (44, 32, 20)
BLANK_FACE: Final[RGB] = (231, 224, 246)
BLANK_EDGE: Final[RGB] = (140, 120, 184)
BLANK_TEXT: Final[RGB] = (98, 46, 170)
SET_FACE: Final[RGB] = (196, 232, 204)
SET_EDGE: Final[RGB] = (78, 146, 100)
SET_TEXT: Final[RGB] = (22, 82, 48)
"""A letter-set tile: a mint face, its letters in dark green."""
LAST_MOVE_FACE: Final[RGB] = (255, 228, 92)
LAST_MOVE_RING: Final[RGB] = (232, 88, 12)
SHADOW: Final = (0, 0, 0, 90)

# Header.
HEADER_PILL: Final[RGB] = (38, 98, 80)
HEADER_TEXT: Final[RGB] = (236, 244, 240)
TO_MOVE_PILL: Final[RGB] = (255, 201, 74)
TO_MOVE_TEXT: Final[RGB] = (40, 30, 10)

# Rack.
RACK_WOOD: Final[RGB] = (120, 78, 44)
RACK_LIP: Final[RGB] = (92, 58, 32)

# Chart.
CHART_BACKGROUND: Final[RGB] = (250, 249, 245)
CHART_GRID: Final[RGB] = (222, 222, 216)
CHART_AXIS: Final[RGB] = (90, 90, 90)
CHART_TEXT: Final[RGB] = (50, 50, 50)
PLAYER_COLOURS: Final[tuple[RGB, ...]] = (
    (0, 114, 178),
    (213, 94, 0),
    (0, 158, 115),
    (204, 121, 167),
    (230, 159, 0),
    (86, 180, 233),
    (60, 60, 60),
)
"""Line colours of the chart, one per player in turn order (the Okabe-Ito colour-blind-safe set)."""
