"""Fixed handicap stones, placed where GNU Go (and the GTP ``fixed_handicap`` command) places them."""

from __future__ import annotations

from typing import Final

from go_core.errors import HandicapError
from go_core.points import Point

MIN_HANDICAP: Final = 2
MAX_HANDICAP: Final = 9
SMALLEST_HANDICAP_BOARD: Final = 7
"""Smaller boards take no fixed handicap (GNU Go's rule)."""


def max_handicap(size: int) -> int:
    """The most fixed handicap stones a ``size`` board takes, as GNU Go places them: 9 on odd boards
    from 9×9 (the sides' middles and the centre), 4 (the corners) on 7×7 and the even boards from 8×8,
    none below 7×7."""
    if size < SMALLEST_HANDICAP_BOARD:
        return 0
    return MAX_HANDICAP if size % 2 == 1 and size >= 9 else 4


def handicap_points(size: int, stones: int) -> list[Point]:
    """The ``stones`` handicap points of a ``size`` board, in GNU Go's order: two opposite corners (upper
    right, lower left), the upper left, the lower right corner, then the sides' middles and the centre
    (the centre for every odd count from 5). The corners are on the third line up to 11×11, the fourth
    from 12×12, as GNU Go (and the GTP ``fixed_handicap`` command) places them.

    Raises:
        HandicapError: ``stones`` is not 2 to :func:`max_handicap` for this board.
    """
    most = max_handicap(size)
    if most == 0:
        raise HandicapError(
            f"A {size}×{size} board takes no handicap stones: they go on boards from "
            f"{SMALLEST_HANDICAP_BOARD}×{SMALLEST_HANDICAP_BOARD}"
        )
    if not MIN_HANDICAP <= stones <= most:
        raise HandicapError(f"A handicap on {size}×{size} is {MIN_HANDICAP} to {most} stones, not {stones}")
    low = _corner_line(size)
    high, mid = size - 1 - low, size // 2
    points = [Point(high, high), Point(low, low)]
    if stones >= 3:
        points.append(Point(low, high))
    if stones >= 4:
        points.append(Point(high, low))
    if stones >= 6:
        points += [Point(low, mid), Point(high, mid)]
    if stones >= 8:
        points += [Point(mid, high), Point(mid, low)]
    if stones % 2 == 1 and stones >= 5:
        points.append(Point(mid, mid))
    return points


def _corner_line(size: int) -> int:
    """The line (0 is the edge) of the corner star points and handicap stones: the third up to 11×11,
    the fourth from 12×12, as GNU Go has them."""
    return 2 if size < 12 else 3


def star_points(size: int) -> list[Point]:
    """The marked points of an empty board (the hoshi) where GNU Go marks them: none below 7×7; the
    four corner points (on the line of :func:`handicap_points`' corners); on odd boards the centre, and
    from 13×13 the middles of the sides too."""
    if size < SMALLEST_HANDICAP_BOARD:
        return []
    low = _corner_line(size)
    high, mid = size - 1 - low, size // 2
    points = [Point(col, row) for col in (low, high) for row in (low, high)]
    if size % 2 == 1:
        if size >= 13:
            points += [Point(low, mid), Point(high, mid), Point(mid, low), Point(mid, high)]
        points.append(Point(mid, mid))
    return points
