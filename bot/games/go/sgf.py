"""Go game records in SGF (FF[4]), written and read by :mod:`sgfmill`.

A record holds the board size, komi, handicap stones (``HA``/``AB``; black stones set up at the start
that are not the fixed placement are read as a free handicap), the rules (``RU``: ``Chinese``
for area scoring, ``Stones`` for stone scoring), the players' names, the moves and the result. The
dead-stone marks are not kept: a record whose game ended with two passes is read back in the
dead-stone phase.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from sgfmill import sgf

from go_core import Board, Color, Game, Point, ScoringMethod, handicap_points
from go_core.errors import GoError, echo

APPLICATION: Final = ("scrabble-host Go", "1")
_RULES: Final = {ScoringMethod.AREA: "Chinese", ScoringMethod.STONES: "Stones"}
_COLOURS: Final = {Color.BLACK: "b", Color.WHITE: "w"}


@dataclass(frozen=True, slots=True)
class Record:
    """A game read from SGF with its players' names and the result the record gives (``None`` if
    it has none)."""

    game: Game
    black: str
    white: str
    result: str | None


def export_sgf(game: Game, *, black: str = "Black", white: str = "White") -> str:
    """``game`` as an SGF record (its result once it is over)."""
    record = sgf.Sgf_game(size=game.size)
    root = record.get_root()
    root.set("AP", APPLICATION)
    root.set("KM", game.komi)
    root.set("RU", _RULES[game.method])
    root.set("PB", black)
    root.set("PW", white)
    if game.handicap:
        root.set("HA", game.handicap)
        root.set_setup_stones([_sgf_point(point) for point in game.handicap_stones], [])
    if game.result is not None:
        root.set("RE", game.result if game.result != "0" else "0")
    for move in game.moves:
        node = record.extend_main_sequence()
        node.set_move(_COLOURS[move.color], None if move.point is None else _sgf_point(move.point))
    text: bytes = record.serialise()
    return text.decode()


def import_sgf(text: str) -> Record:
    """The game of an SGF record, its moves replayed by the engine.

    Raises:
        GoError: the text is not an SGF game, or its board, handicap stones or moves are not ones the
            engine plays (a board wider than 25, white stones set up, an illegal move).
    """
    try:
        record = sgf.Sgf_game.from_string(text)
        size = record.get_size()
        komi = record.get_komi()
        root = record.get_root()
        handicap = record.get_handicap() or 0
        rules = root.get("RU") if root.has_property("RU") else "Chinese"
        black_setup, white_setup, empty_setup = root.get_setup_stones()
        moves = [node.get_move() for node in record.get_main_sequence()[1:]]
        names = [
            root.get(key) if root.has_property(key) else default
            for key, default in (("PB", "Black"), ("PW", "White"))
        ]
        result = root.get("RE") if root.has_property("RE") else None
    except ValueError as error:
        raise GoError(f"not an SGF game record: {echo(str(error))}") from None
    method = ScoringMethod.STONES if str(rules).lower() == "stones" else ScoringMethod.AREA
    if white_setup or empty_setup or len(black_setup) == 1:
        raise GoError("the record sets up stones other than a handicap: the engine cannot play it")
    setup = {Point(col, row) for row, col in black_setup}
    if handicap and setup == set(_fixed_or_none(size, handicap)):
        game = Game(size, komi=komi, handicap=handicap, method=method)
    else:
        free = [point for point in Board(size).points() if point in setup]
        game = Game(size, komi=komi, free_handicap=free, method=method)
    for colour, where in moves:
        if colour is None:
            continue
        color = Color.BLACK if colour == "b" else Color.WHITE
        if where is None:
            game.pass_turn(color, any_turn=True)
        else:
            game.play(Point(where[1], where[0]), color, any_turn=True)
    if isinstance(result, str) and result.upper().endswith("+R") and result[:1].upper() in "BW":
        game.resign(Color(result[:1].upper()).opponent)
    return Record(game, str(names[0]), str(names[1]), None if result is None else str(result))


def _fixed_or_none(size: int, handicap: int) -> list[Point]:
    """The fixed handicap points, or none when the board or the count has no fixed placement."""
    try:
        return handicap_points(size, handicap)
    except GoError:
        return []


def _sgf_point(point: Point) -> tuple[int, int]:
    """sgfmill's ``(row, col)``, row 0 at the bottom as in :class:`Point`."""
    return point.row, point.col
