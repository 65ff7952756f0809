"""The Go board image: wood, grid, star points, coordinates on the four sides as on the Scrabble board,
shaded stones, the last stone marked, and a strip above with the players and their captures. In the
dead-stone phase (and in a counted game) dead stones are faded and crossed and territory is marked
with small squares in its owner's colour.

The empty board of each size (wood, grid, stars, coordinates) and the stone sprites are drawn once,
supersampled, and kept; a render copies the board and pastes the stones.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from PIL import Image, ImageDraw

from bot.render import style
from bot.render.drawing import draw_centred, fit_text, font, png_bytes, shrink
from go_core import COLUMNS, Color, Game, Phase, Point, star_points
from go_core.scoring import territory_owner

RGB = style.RGB

BOARD_PIXELS: Final = 760
"""About how wide the grid is drawn (cells are 40 pixels on 19×19, larger on smaller boards)."""
MAX_CELL: Final = 80
MARGIN: Final = 36
"""The band around the grid that holds the coordinates."""
HEADER_HEIGHT: Final = 52

WOOD: Final[RGB] = (220, 179, 92)
WOOD_GRAIN: Final[RGB] = (206, 163, 78)
FRAME: Final[RGB] = (150, 104, 44)
GRID: Final[RGB] = (60, 40, 16)
COORDINATE_TEXT: Final[RGB] = (250, 240, 220)
BLACK_STONE: Final[tuple[RGB, RGB]] = ((110, 110, 116), (10, 10, 12))
"""The light spot and the body of a black stone."""
WHITE_STONE: Final[tuple[RGB, RGB]] = ((255, 255, 255), (178, 178, 170))
LAST_MARK: Final[RGB] = (222, 48, 32)
HEADER_BACKGROUND: Final[RGB] = (92, 60, 24)
HEADER_TEXT: Final[RGB] = (250, 240, 220)
TO_MOVE_PILL: Final[RGB] = (255, 201, 74)
TO_MOVE_TEXT: Final[RGB] = (40, 30, 10)
PILL: Final[RGB] = (122, 84, 38)
_SHADE_STEPS: Final = 18


def cell_size(size: int) -> int:
    """The distance in pixels between two lines on a ``size`` board."""
    return min(MAX_CELL, BOARD_PIXELS // size)


def image_size(size: int) -> tuple[int, int]:
    """Width and height of the image of a ``size`` board, header included."""
    side = cell_size(size) * size + 2 * MARGIN
    return side, side + HEADER_HEIGHT


def point_centre(size: int, point: Point) -> tuple[int, int]:
    """The pixel at the centre of ``point`` in the image (column A on the left, row 1 at the bottom)."""
    cell = cell_size(size)
    x = MARGIN + point.col * cell + cell // 2
    y = HEADER_HEIGHT + MARGIN + (size - 1 - point.row) * cell + cell // 2
    return x, y


def render_go_board(game: Game, *, black: str = "Black", white: str = "White") -> bytes:
    """Draw ``game`` as a PNG and return its bytes (:func:`image_size` pixels): the header names the
    players (``black``, ``white``) with their captures and marks the one to move; the last stone
    played has a red ring. Once both passed (or the game was counted), dead stones are faded with a
    cross and territory points carry a small square of their owner's colour."""
    size = game.size
    cell = cell_size(size)
    canvas = _empty_board(size).copy()
    to_move = game.to_move if game.phase is Phase.PLAY else None
    captures = (game.captures(Color.BLACK), game.captures(Color.WHITE))
    canvas.paste(_header(size, (black, white), captures, to_move), (0, 0))
    board = game.board
    counted = game.phase is Phase.SCORING or (game.phase is Phase.OVER and game.passes >= 2)
    dead = game.dead if counted else frozenset()
    half = cell // 2
    for point in board.stones():
        stone = board[point]
        assert stone is not None
        x, y = point_centre(size, point)
        sprite = _stone(stone, cell, point in dead)
        canvas.paste(sprite, (x - half, y - half), sprite)
    draw = ImageDraw.Draw(canvas)
    if counted:
        mark = max(cell // 9, 2)
        for point, owner in territory_owner(board, dead).items():
            if point in dead:
                continue
            x, y = point_centre(size, point)
            ink = BLACK_STONE[1] if owner is Color.BLACK else WHITE_STONE[0]
            draw.rectangle((x - mark, y - mark, x + mark, y + mark), fill=ink, outline=GRID)
    last = game.last_move
    if last is not None and last.point is not None and board[last.point] is not None:
        x, y = point_centre(size, last.point)
        ring = cell * 0.22
        draw.ellipse((x - ring, y - ring, x + ring, y + ring), outline=LAST_MARK, width=max(cell // 14, 2))
    return png_bytes(canvas)


@lru_cache(maxsize=8)
def _empty_board(size: int) -> Image.Image:
    """The wood, the grid, the star points and the coordinates of a ``size`` board (shared: copy it)."""
    scale = style.SUPERSAMPLE
    width, height = image_size(size)
    image = Image.new("RGB", (width * scale, height * scale), FRAME)
    draw = ImageDraw.Draw(image)
    cell = cell_size(size) * scale
    top = HEADER_HEIGHT * scale
    margin = MARGIN * scale
    wood = (margin // 3, top + margin // 3, width * scale - margin // 3, height * scale - margin // 3)
    draw.rectangle(wood, fill=WOOD)
    for index, y in enumerate(range(wood[1], wood[3], 7 * scale)):
        shift = (index * 37) % 11 * scale
        draw.line((wood[0], y + shift, wood[2], y + shift // 2), fill=WOOD_GRAIN, width=scale)
    first = margin + cell // 2
    last = first + (size - 1) * cell
    line = max(scale, cell // 30)
    for index in range(size):
        offset = first + index * cell
        draw.line((offset, top + first, offset, top + last), fill=GRID, width=line)
        draw.line((first, top + offset, last, top + offset), fill=GRID, width=line)
    draw.rectangle((first, top + first, last, top + last), outline=GRID, width=line * 2)
    star = max(cell * 0.09, 2.5 * scale)
    for point in star_points(size):
        x = first + point.col * cell
        y = top + first + (size - 1 - point.row) * cell
        draw.ellipse((x - star, y - star, x + star, y + star), fill=GRID)
    text = max(12, min(cell // scale * 2 // 5, 20)) * scale
    near, far = margin / 2 + margin // 6, height * scale - margin / 2 - margin // 6
    for index in range(size):
        x = first + index * cell
        y = top + first + (size - 1 - index) * cell
        for edge in (top + near - margin // 6, far):
            draw_centred(draw, (x, edge), COLUMNS[index], text, GRID)
        for edge in (near - margin // 6, width * scale - near + margin // 6):
            draw_centred(draw, (edge, y), str(index + 1), text, GRID)
    return shrink(image, scale)


@lru_cache(maxsize=16)
def _stone(color: Color, cell: int, dead: bool) -> Image.Image:
    """A shaded stone filling ``cell`` pixels, with a soft shadow; faded and crossed when ``dead``."""
    scale = style.SUPERSAMPLE
    side = cell * scale
    image = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    radius = side * 0.47
    centre = side / 2
    shadow = side * 0.04
    draw.ellipse(
        (
            centre - radius + shadow,
            centre - radius + shadow,
            centre + radius + shadow,
            centre + radius + shadow,
        ),
        fill=style.SHADOW,
    )
    light, body = BLACK_STONE if color is Color.BLACK else WHITE_STONE
    draw.ellipse((centre - radius, centre - radius, centre + radius, centre + radius), fill=(*body, 255))
    for step in range(1, _SHADE_STEPS + 1):
        share = step / _SHADE_STEPS  # from the rim (0) to the light spot (1)
        reach = radius * (1 - share * 0.8)
        x = centre - radius * 0.3 * share
        y = centre - radius * 0.3 * share
        colour = tuple(
            round(dark + (bright - dark) * share**1.6) for bright, dark in zip(light, body, strict=True)
        )
        draw.ellipse((x - reach, y - reach, x + reach, y + reach), fill=(*colour, 255))
    if dead:
        alpha = image.getchannel("A").point(lambda value: value * 55 // 100)
        image.putalpha(alpha)
        arm = radius * 0.5
        cross = LAST_MARK
        width = max(side // 12, scale)
        draw = ImageDraw.Draw(image)
        draw.line((centre - arm, centre - arm, centre + arm, centre + arm), fill=(*cross, 255), width=width)
        draw.line((centre - arm, centre + arm, centre + arm, centre - arm), fill=(*cross, 255), width=width)
    return shrink(image, scale)


@lru_cache(maxsize=64)
def _header(
    size: int, names: tuple[str, str], captures: tuple[int, int], to_move: Color | None
) -> Image.Image:
    """Two pills, Black's and White's name with the stones each captured; the player ``to_move`` (if
    any) in yellow. Kept: a game redraws the same header while nobody captures."""
    scale = style.SUPERSAMPLE
    width = image_size(size)[0] * scale
    image = Image.new("RGB", (width, HEADER_HEIGHT * scale), HEADER_BACKGROUND)
    draw = ImageDraw.Draw(image)
    pad = 8 * scale
    text_size = 18 * scale
    face = font(text_size)
    pill = (width - 3 * pad) / 2
    middle = image.height / 2
    for index, (color, name) in enumerate(zip((Color.BLACK, Color.WHITE), names, strict=True)):
        x0 = pad + index * (pill + pad)
        fill, ink = (TO_MOVE_PILL, TO_MOVE_TEXT) if color is to_move else (PILL, HEADER_TEXT)
        draw.rounded_rectangle((x0, pad, x0 + pill, image.height - pad), 8 * scale, fill=fill)
        dot = 11 * scale
        cx = x0 + pad + dot
        light, body = BLACK_STONE if color is Color.BLACK else WHITE_STONE
        draw.ellipse((cx - dot, middle - dot, cx + dot, middle + dot), fill=body, outline=light, width=scale)
        captured = f"captured {captures[index]}"
        draw.text((x0 + pill - pad, middle), captured, font=face, fill=ink, anchor="rm")
        room = pill - 3 * pad - 2 * dot - face.getlength(captured)
        draw.text((cx + dot + pad, middle), fit_text(name, text_size, room), font=face, fill=ink, anchor="lm")
    return shrink(image, scale)
