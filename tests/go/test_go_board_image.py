"""The Go board image (bot/games/go/board_image.py), decoded and checked pixel by pixel."""

from __future__ import annotations

import io

from PIL import Image

from bot.games.go.board_image import (
    TO_MOVE_PILL,
    WOOD,
    cell_size,
    image_size,
    point_centre,
    render_go_board,
)
from go_core import Game, Point

RGB = tuple[int, int, int]


def _decode(png: bytes) -> Image.Image:
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    return Image.open(io.BytesIO(png)).convert("RGB")


def _near(colour: tuple[int, ...], target: RGB, tolerance: int = 24) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(colour, target, strict=True))


def _pixel(image: Image.Image, xy: tuple[int, int]) -> tuple[int, int, int]:
    r, g, b = image.getpixel(xy)  # type: ignore[misc]
    return r, g, b


def test_sizes_follow_the_board() -> None:
    assert cell_size(19) == 40
    assert image_size(19) == (832, 884)
    assert image_size(9) == (792, 844)
    assert image_size(2) == (232, 284)
    assert _decode(render_go_board(Game(19))).size == (832, 884)


def test_stones_the_last_move_and_the_wood() -> None:
    game = Game(9)
    game.play("E5")
    game.play("C3")
    image = _decode(render_go_board(game, black="Ann", white="Bob"))
    black = _pixel(image, point_centre(9, Point.parse("E5", 9)))
    assert max(black) < 90, black
    white_x, white_y = point_centre(9, Point.parse("C3", 9))
    assert min(_pixel(image, (white_x + 6, white_y + 6))) > 150
    ring = cell_size(9) * 0.22
    assert _pixel(image, (white_x, round(white_y - ring)))[0] > 180, "the last stone has a red ring"
    assert _pixel(image, (white_x, round(white_y - ring)))[1] < 120
    empty_x, empty_y = point_centre(9, Point.parse("G7", 9))
    assert _near(_pixel(image, (empty_x + cell_size(9) // 3, empty_y + cell_size(9) // 3)), WOOD, 30)
    assert _near(_pixel(image, (image.width // 4, 12)), TO_MOVE_PILL), "Black is to move: its pill is yellow"


def test_dead_stones_fade_and_territory_is_marked_after_two_passes() -> None:
    game = Game(9)
    game.play("E5")
    game.play("C3")
    game.pass_turn()
    game.pass_turn()
    game.toggle_dead("C3")
    image = _decode(render_go_board(game))
    x, y = point_centre(9, Point.parse("C3", 9))
    assert min(_pixel(image, (x + 12, y + 12))) < 235, "a dead white stone is faded into the wood"
    assert _pixel(image, (x + 1, y + 1))[0] > 180, "and crossed in red"
    tx, ty = point_centre(9, Point.parse("A9", 9))
    assert max(_pixel(image, (tx, ty))) < 60, "Black's territory carries a black square"
    assert not _near(_pixel(image, (image.width // 4, 12)), TO_MOVE_PILL), "nobody is to move"


def test_a_full_19x19_board_stays_small() -> None:
    game = Game(19)
    for point in game.board.points():
        if (point.col + point.row) % 3 and game.is_legal(point):
            game.play(point)
    png = render_go_board(game, black="Black player", white="White player")
    assert len(png) < 300 * 1024
