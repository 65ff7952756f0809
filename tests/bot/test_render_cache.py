"""The cached board render against the full redraw: the same pixels on every kind of board and header.

:func:`bot.games.scrabble.images.board.compose_board` takes the empty board, the tile sprites and the header strip
from caches; :func:`bot.games.scrabble.images.board.full_redraw` draws all of them afresh. Each case compares the two
images pixel for pixel (no tolerance), with the caches cold and then warm, and the PNGs decoded: the
same palette (the board's fixed palette, :func:`bot.games.scrabble.images.board.board_palette`) and the same colour
index at every pixel (:func:`render_board` composes parts already mapped to it, and compresses each
band of rows apart: :mod:`bot.render.png_bands`).
"""

from __future__ import annotations

import io
import random
from collections.abc import Collection, Iterator
from concurrent.futures import ThreadPoolExecutor
from itertools import cycle

import pytest
from PIL import Image, ImageChops
from test_render import (
    GOLDEN,
    HOLES_LAST_MOVE,
    HOLES_ROWS,
    HOLES_VARIANT_DATA,
    INFINITE_LAST_MOVE,
    INFINITE_TILES,
    MIDGAME_HEADER,
    MIDGAME_LAST_MOVE,
    MIDGAME_ROWS,
    PROGRAMS_LAST_MOVE,
    PROGRAMS_TILES,
    PROGRAMS_VARIANT_DATA,
    board_from,
)

from bot.games.scrabble.board_view import full_window
from bot.games.scrabble.images import board as board_module
from bot.games.scrabble.images import header as header_module
from bot.games.scrabble.images import tiles
from bot.games.scrabble.images.board import (
    board_palette,
    board_png,
    compose_board,
    full_redraw,
    render_board,
    square_box,
)
from bot.games.scrabble.images.header import draw_header_strip, header_strip
from bot.games.scrabble.protocols import BoardHeader, PlayerLine
from bot.render.drawing import PNG_COMPRESS_LEVEL, png_bytes
from scrabble_core.board import Board
from scrabble_core.game import Game
from scrabble_core.squares import Square
from scrabble_core.tiles import set_tile
from scrabble_core.variant import Variant, example_variants_dir, get_variant, load_variant, variant_from_dict

Case = tuple[Board, Collection[Square], BoardHeader | None]


def full_board(variant: Variant) -> Board:
    """Every square covered, cycling through the alphabet, a blank on every seventh square, a set tile
    (each set in turn, as each of its letters) on every fifth where the variant has sets."""
    board = Board(variant)
    letters = cycle(variant.alphabet)
    sets = cycle(
        set_tile(tile_set.symbol, letter) for tile_set in variant.tile_sets for letter, _ in tile_set.letters
    )
    board.place(
        (
            square,
            next(sets)
            if variant.tile_sets and index % 5 == 1
            else letter.lower()
            if index % 7 == 3
            else letter,
        )
        for index, (square, letter) in enumerate(zip(variant.squares(), letters, strict=False))
    )
    return board


def header(*players: tuple[str, int, bool], bag: int) -> BoardHeader:
    return BoardHeader(
        tuple(PlayerLine(name, score, to_move=to_move) for name, score, to_move in players), bag
    )


HEADERS = {
    "none": None,
    "midgame": MIDGAME_HEADER,
    "first to move": header(("Alice", 0, True), ("Bob", 0, False), bag=86),
    "second to move": header(("Alice", 14, False), ("Bob", 0, True), bag=79),
    "game over": header(("Alice", 412, False), ("Bob", -7, False), bag=0),
    "solo": header(("Zoë ✨", 1234, True), bag=100),
    "three": header(("Ann", 5, False), ("Ben", 10, True), ("Cy", 99, False), bag=7),
    "four long names": header(
        *(
            (f"A player with a very long display name number {index}", index * 111, index == 3)
            for index in range(4)
        ),
        bag=9,
    ),
    "seven": header(*((f"P{index}", index, index == 0) for index in range(7)), bag=1),
}


def cases() -> Iterator[tuple[str, Case]]:
    standard, super_variant = get_variant("standard"), get_variant("super")
    holes = variant_from_dict(HOLES_VARIANT_DATA, "test holes variant")
    midgame = board_from(standard, MIDGAME_ROWS)
    for name, strip in HEADERS.items():
        yield f"midgame, header {name}", (midgame, MIDGAME_LAST_MOVE, strip)
    yield "standard empty", (Board(standard), (), MIDGAME_HEADER)
    yield "standard empty, no header", (Board(standard), (), None)
    yield "standard full with blanks", (full_board(standard), [(7, col) for col in range(15)], MIDGAME_HEADER)
    yield "last move on empty squares", (midgame, [(0, 0), (14, 14)], MIDGAME_HEADER)
    yield "blank in the last move", (midgame, [(5, 11), (5, 12), (9, 5)], HEADERS["three"])
    super_midgame = board_from(
        super_variant, "\n".join(["." * 21] * 7 + ["...QUARTZ" + "." * 12] + ["." * 21] * 13)
    )
    yield "super midgame", (super_midgame, [(7, col) for col in range(3, 9)], HEADERS["four long names"])
    yield "super full", (full_board(super_variant), [(20, col) for col in range(21)], HEADERS["game over"])
    yield "custom variant with holes", (board_from(holes, HOLES_ROWS), HOLES_LAST_MOVE, None)
    yield "custom variant with a header", (board_from(holes, HOLES_ROWS), HOLES_LAST_MOVE, HEADERS["solo"])
    infinite = load_variant(example_variants_dir() / "infinite.toml")
    infinite_midgame = Board.from_rows(infinite, INFINITE_TILES.splitlines())
    yield "infinite midgame", (infinite_midgame, INFINITE_LAST_MOVE, MIDGAME_HEADER)
    yield "infinite empty", (Board(infinite), (), HEADERS["first to move"])
    far = Board(infinite)
    far.place([((-123456, 987650 + col), letter) for col, letter in enumerate("FAR")])
    yield "infinite far from the centre", (far, [(-123456, 987650)], None)
    programs = variant_from_dict(PROGRAMS_VARIANT_DATA, "test programs variant")
    programs_board = Board(programs)
    programs_board.place(PROGRAMS_TILES)
    yield "program squares and set tiles", (programs_board, PROGRAMS_LAST_MOVE, HEADERS["three"])
    letter_sets = load_variant(example_variants_dir() / "letter-sets.toml")
    yield "letter sets full", (full_board(letter_sets), [(7, col) for col in range(15)], HEADERS["midgame"])


CASES = dict(cases())


def pixels(png: bytes) -> tuple[str, tuple[int, int], list[int] | None, bytes]:
    """A PNG decoded: its mode, size, palette and pixels (the colour indices of a palette image)."""
    image = Image.open(io.BytesIO(png))
    image.load()
    return image.mode, image.size, image.getpalette(), image.tobytes()


def clear_caches() -> None:
    for cache in (
        board_module._empty_board,
        board_module._square_image,
        board_module._label_image,
        board_module.board_palette,
        header_module._without_texts,
        tiles.tile_image,
    ):
        cache.cache_clear()
    board_module._indexed_parts.cache_clear()
    board_module.clear_kept_bands()


@pytest.mark.parametrize("name", CASES)
def test_cached_render_is_the_full_redraw(name: str) -> None:
    board, last_move, strip = CASES[name]
    reference = full_redraw(board, last_move=last_move, header=strip)
    clear_caches()
    for warmth in ("cold", "warm"):
        cached = compose_board(board, last_move=last_move, header=strip)
        assert cached.size == reference.size
        assert ImageChops.difference(cached, reference).getbbox() is None, f"{warmth} caches"
    expected = pixels(board_png(reference, board.variant))
    assert expected[0] == "P"
    clear_caches()
    for warmth in ("cold", "warm"):
        assert pixels(render_board(board, last_move=last_move, header=strip)) == expected, f"{warmth} caches"


def test_comparison_sees_one_changed_tile() -> None:
    board, last_move, strip = CASES["midgame, header midgame"]
    changed = Board(board.variant)
    changed.place((square, "E" if square == (7, 3) else letter) for square, letter in board.tiles())
    difference = ImageChops.difference(
        compose_board(changed, last_move=last_move, header=strip),
        full_redraw(board, last_move=last_move, header=strip),
    ).getbbox()
    left, top, right, bottom = square_box((7, 3), header=True)
    assert difference is not None
    assert (
        left <= difference[0] and top <= difference[1] and difference[2] <= right and difference[3] <= bottom
    )


def test_renders_in_threads_share_the_caches() -> None:
    """Eight threads render eight boards twice at once from cold caches; each PNG is its full redraw's."""
    names = list(CASES)[:8]
    expected = {
        name: pixels(
            board_png(
                full_redraw(CASES[name][0], last_move=CASES[name][1], header=CASES[name][2]),
                CASES[name][0].variant,
            )
        )
        for name in names
    }
    clear_caches()

    def render(name: str) -> tuple[str, tuple[int, int], list[int] | None, bytes]:
        board, last_move, strip = CASES[name]
        return pixels(render_board(board, last_move=last_move, header=strip))

    with ThreadPoolExecutor(max_workers=8) as pool:
        rendered = list(pool.map(render, names * 2))
    assert rendered == [expected[name] for name in names * 2]


def random_players(rng: random.Random) -> tuple[PlayerLine, ...]:
    """One to seven players with names of 1 to 40 characters (some not Latin), scores from -50 to
    999 and one or none to move."""
    count = rng.randint(1, 7)
    to_move = rng.randrange(count + 1)
    alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ    éßΩЖ李✨"
    return tuple(
        PlayerLine(
            "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 40))).strip() or "x",
            rng.randint(-50, 999),
            to_move=index == to_move,
        )
        for index in range(count)
    )


def test_header_strip_from_parts_is_the_drawn_strip() -> None:
    """Sixty random headers, at the widths of the standard, Super and a 9-column board, one after the
    other as a game's would come (parts made by one header reused by the next): every one is the
    strip drawn afresh, pixel for pixel."""
    rng = random.Random(15)
    widths = (960, 1320, 600)
    for index in range(60):
        players, bag = random_players(rng), rng.choice((0, 1, 7, 9, 10, 52, 86, 99, 100))
        width = widths[index % 3]
        drawn = draw_header_strip(width, players, bag)
        assert ImageChops.difference(header_strip(width, players, bag), drawn).getbbox() is None, (
            players,
            bag,
        )


@pytest.mark.parametrize(
    ("golden", "case"),
    [
        ("board_midgame.png", "midgame, header midgame"),
        ("board_holes.png", "custom variant with holes"),
    ],
)
def test_png_pixels_are_exactly_the_golden_images(golden: str, case: str) -> None:
    """The faster compression level changes the bytes, not one decoded pixel of the golden images."""
    board, last_move, strip = CASES[case]
    image = full_redraw(board, last_move=last_move, header=strip)
    palette = board_palette(board.variant)
    expected = Image.open(GOLDEN / golden).convert("RGB")
    for level in (PNG_COMPRESS_LEVEL, 6):
        png = png_bytes(image, palette=palette, compress_level=level)
        decoded = Image.open(io.BytesIO(png)).convert("RGB")
        assert ImageChops.difference(decoded, expected).getbbox() is None, f"level {level}"


def test_a_restored_games_equal_variant_reuses_the_parts() -> None:
    """Every turn restores its game (and a new, equal variant object) from the store: its render must
    still find the parts made for the variant, not make them again."""
    board, last_move, strip = CASES["midgame, header midgame"]
    restored = Game.from_dict(Game(board.variant, ["Ann", "Bob"], rng=random.Random(1)).to_dict()).variant
    assert restored is not board.variant and restored == board.variant
    again = Board(restored)
    again.place(board.tiles())
    clear_caches()
    first = render_board(board, last_move=last_move, header=strip)
    assert render_board(again, last_move=last_move, header=strip) == first
    assert board_module._indexed_parts.cache_info().misses == 1


def test_a_games_headers_reuse_their_pills_and_are_the_drawn_strips() -> None:
    """Twenty turns of a two-player game: the to-move pill goes back and forth, the mover's score
    and the bag change. Each header is the strip drawn afresh, and from the third on, its pills are
    found kept (one layout for each player to move: the bag's count keeps its width)."""
    header_module._without_texts.cache_clear()
    scores = [0, 0]
    for turn in range(20):
        mover = turn % 2
        players = tuple(
            PlayerLine(name, scores[index], to_move=index == mover)
            for index, name in enumerate(("Alice", "Bob the Builder"))
        )
        bag = 86 - 3 * turn
        before = header_module._without_texts.cache_info()
        strip = header_strip(960, players, bag)
        assert ImageChops.difference(strip, draw_header_strip(960, players, bag)).getbbox() is None, turn
        assert header_module._without_texts.cache_info().hits - before.hits == (turn >= 2), turn
        scores[mover] += 10 + turn


def record_composed_bands(monkeypatch: pytest.MonkeyPatch) -> list[tuple[object, ...]]:
    """From now on, each band composed (not found kept) is noted in the list returned: ``("row",
    row)``, ``("header",)``, ``("top",)`` or ``("bottom",)``."""
    composed: list[tuple[object, ...]] = []
    make = board_module._IndexedParts._band_image

    def recording(parts: board_module._IndexedParts, key: tuple[object, ...]) -> Image.Image:
        composed.append(key[:2] if key[0] == "row" else key[:1])
        return make(parts, key)

    monkeypatch.setattr(board_module._IndexedParts, "_band_image", recording)
    return composed


def test_a_move_compresses_only_the_rows_it_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    """After a board is drawn, the board after a move down column D (rows 11 to 13, the last move then)
    composes and compresses only the header and the rows whose pixels changed: the three rows of the
    move, and row 14 (BOUNTY, the last move before, no longer highlighted). The image is still the
    full redraw's."""
    board, last_move, strip = CASES["midgame, header midgame"]
    assert strip is not None
    clear_caches()
    render_board(board, last_move=last_move, header=strip)
    composed = record_composed_bands(monkeypatch)
    after = Board(board.variant)
    played = [((10, 3), "Z"), ((11, 3), "O"), ((12, 3), "O")]
    after.place([*board.tiles(), *played])
    assert after[(13, 3)] == "B"  # ZOOB down: the move ends on BOUNTY's B
    moved = [square for square, _ in played]
    header = BoardHeader(tuple(PlayerLine(p.name, p.score + 9, not p.to_move) for p in strip.players), bag=49)
    png = render_board(after, last_move=moved, header=header)
    assert composed == [("header",), ("row", 10), ("row", 11), ("row", 12), ("row", 13)]
    expected = board_png(full_redraw(after, last_move=moved, header=header), board.variant)
    assert pixels(png) == pixels(expected)


def test_the_bands_kept_are_the_last_used(monkeypatch: pytest.MonkeyPatch) -> None:
    """With room for 18 bands: the midgame board with its header and last move (18 bands), then
    without either (17, of which all but row 14 the same) drops the least recently used band, the
    header. Drawing the first again composes its header, which drops the next least recently used
    band, row 14 highlighted: it is composed again too. Every other band is found."""
    monkeypatch.setattr(board_module, "BANDS_KEPT", 18)
    board, last_move, strip = CASES["midgame, header midgame"]
    assert strip is not None
    clear_caches()
    render_board(board, last_move=last_move, header=strip)
    render_board(board, last_move=(), header=None)
    parts = board_module._indexed_parts(board.variant, full_window(board.variant))
    assert len(parts._bands) == 18
    assert ("header", tuple(strip.players), strip.bag, 15) not in parts._bands
    assert ("row", 0, (), full_window(board.variant)) in parts._bands
    composed = record_composed_bands(monkeypatch)
    png = render_board(board, last_move=last_move, header=strip)
    assert composed == [("header",), ("row", 13)]
    assert pixels(png) == pixels(
        board_png(full_redraw(board, last_move=last_move, header=strip), board.variant)
    )
