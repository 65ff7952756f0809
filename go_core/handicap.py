"""Fixed handicap stones, placed where GNU Go (and the GTP ``fixed_handicap`` command) places them."""

from __future__ import annotations

from typing import Final

from go_core.errors import HandicapError
from go_core.points import Point

HANDICAP_SIZES: Final = (9, 13, 19)
"""The boards that take handicap stones."""
MIN_HANDICAP: Final = 2
MAX_HANDICAP: Final = 9


def handicap_points(size: int, stones: int) -> list[Point]:
    """The ``stones`` handicap points of a ``size`` board, in GNU Go's order: two opposite corners (upper
    right, lower left), the upper left, the lower right corner, then the sides' middles and the centre
    (the centre for every odd count from 5). Star points are on the third line on 9×9, the fourth above.

    Raises:
        HandicapError: the board is not 9, 13 or 19, or ``stones`` is not 2 to 9.
    """
    if size not in HANDICAP_SIZES:
        raise HandicapError(f"Handicap stones go on 9×9, 13×13 and 19×19 boards, not {size}×{size}")
    if not MIN_HANDICAP <= stones <= MAX_HANDICAP:
        raise HandicapError(f"A handicap is {MIN_HANDICAP} to {MAX_HANDICAP} stones, not {stones}")
    low = 2 if size < 13 else 3
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


def star_points(size: int) -> list[Point]:
    """The marked points of an empty board (the hoshi) where GNU Go marks them: none below 7×7; the
    four corner points (third line below 13×13, fourth line from 13×13); on odd boards the centre, and
    from 13×13 the middles of the sides too."""
    if size < 7:
        return []
    low = 2 if size < 13 else 3
    high, mid = size - 1 - low, size // 2
    points = [Point(col, row) for col in (low, high) for row in (low, high)]
    if size % 2 == 1:
        if size >= 13:
            points += [Point(low, mid), Point(high, mid), Point(mid, low), Point(mid, high)]
        points.append(Point(mid, mid))
    return points
