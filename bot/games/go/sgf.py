"""Go game records in SGF (FF[4]), written and read through :mod:`sgfmill`, as real files have them.

A record holds the board size, komi, handicap stones (``HA`` of 2 or more and black stones only set up
in the root: the fixed placement, or else a free handicap), the rules (``RU``:
``Chinese`` for area scoring, ``Stones`` for stone scoring), the players' names, the moves, stones set
up in any node (``AB``, ``AW``, ``AE``, and ``PL`` for who moves next: :class:`go_core.Setup`), the
result (``RE``, kept as the record writes it: ``B+Resign``, ``W+T``, ``B+3.5``, ``Void``, ``Draw``...)
and, for a game that ended with two passes, the dead stones in the territories of its last node
(``TB``, ``TW``).

Reading is lenient where GNU Go is (a komi, handicap or size it cannot read is replaced, with a warning
in :attr:`Record.warnings`), and strict where a game could come out wrong (an illegal move refuses the
record).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Final

from sgfmill import sgf, sgf_grammar

from go_core import Board, Color, Game, Phase, Point, ScoringMethod, handicap_points
from go_core.errors import GoError, echo
from go_core.scoring import DRAW, territory_owner

__all__ = ["Record", "export_sgf", "import_sgf"]

APPLICATION: Final = ("scrabble-host Go", "1")
DEFAULT_SIZE: Final = 19
_RULES: Final = {ScoringMethod.AREA: "Chinese", ScoringMethod.STONES: "Stones"}
_COLOURS: Final = {Color.BLACK: "b", Color.WHITE: "w"}
_WIN: Final = re.compile(r"\s*([BW])\s*\+\s*(\S*)\s*", re.IGNORECASE)
_RESIGNED: Final = frozenset({"r", "resign"})
_ON_TIME: Final = frozenset({"t", "time"})
_SIZE: Final = re.compile(r"\s*(\d+)")


@dataclass(frozen=True, slots=True)
class Record:
    """A game read from SGF with its players' names, the result the record gives as it gives it
    (``None`` if it has none), and what was read leniently (a komi, handicap or size replaced)."""

    game: Game
    black: str
    white: str
    result: str | None
    warnings: tuple[str, ...] = ()


def export_sgf(game: Game, *, black: str = "Black", white: str = "White", result: str | None = None) -> str:
    """``game`` as an SGF record: its stones set up in nodes of their own, its result (``result`` when
    given, e.g. a :attr:`Record.result` to keep as it was written), and for a game that ended with two
    passes the territories, dead stones included, on its last node (``TB``, ``TW``)."""
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
    result = result if result is not None else game.result
    if result is not None:
        root.set("RE", result)
    setups = list(game.setups)
    node = root
    for index, move in enumerate([*game.moves, None]):
        while setups and setups[0][0] == index:
            setup = setups.pop(0)[1]
            node = record.extend_main_sequence()
            node.set_setup_stones(
                *([_sgf_point(p) for p in points] for points in (setup.black, setup.white, setup.empty))
            )
            if setup.to_move is not None:
                node.set("PL", _COLOURS[setup.to_move])
        if move is not None:
            node = record.extend_main_sequence()
            node.set_move(_COLOURS[move.color], None if move.point is None else _sgf_point(move.point))
    if game.passes >= 2:
        owners = territory_owner(game.board, game.dead)
        for key, color in (("TB", Color.BLACK), ("TW", Color.WHITE)):
            points = [_sgf_point(point) for point, owner in owners.items() if owner is color]
            if points:
                node.set(key, points)
    text: bytes = record.serialise()
    return text.decode()


def import_sgf(text: str) -> Record:
    """The game of an SGF record (its main line), its setups and moves replayed by the engine.

    Raises:
        GoError: the text is not an SGF game, or its board, stones or moves are not ones the engine
            plays (a board wider than 25, a move on a stone, an illegal move).
    """
    warnings: list[str] = []
    try:
        coarse = sgf_grammar.parse_sgf_game(text.encode("utf-8"))
        _lenient_size(coarse.sequence[0], warnings)
        record = sgf.Sgf_game.from_coarse_game_tree(coarse, override_encoding="utf-8")
        nodes = record.get_main_sequence()
        root = nodes[0]
        komi = _root_number(root, "KM", warnings, "the komi is 0") or 0.0
        stones = _root_number(root, "HA", warnings, "no handicap (its stones are set up)")
        rules = str(root.get("RU")) if root.has_property("RU") else "Chinese"
        names = [
            str(root.get(key)) if root.has_property(key) else default
            for key, default in (("PB", "Black"), ("PW", "White"))
        ]
        result = str(root.get("RE")) if root.has_property("RE") else None
        actions = [_node_action(node) for node in nodes]
        territories = [_points(nodes[-1], key) for key in ("TB", "TW")]
    except ValueError as error:  # sgfmill says what, or nothing for a point off the board
        reason = echo(str(error)) if str(error) else "a value is malformed or off the board"
        raise GoError(f"not an SGF game record: {reason}") from None
    method = ScoringMethod.STONES if rules.lower() == "stones" else ScoringMethod.AREA
    handicap = int(stones) if stones is not None else 0
    game, actions[0] = _new_game(record.get_size(), komi, handicap, method, actions[0])
    for black, white, empty, to_move, move in actions:
        setup = black or white or empty or (to_move is not None and move is None)
        if (setup or move is not None) and game.phase is Phase.SCORING:
            game.resume()  # play went on after two passes
        if setup:
            game.setup(black, white, empty, to_move)
        if move is not None:
            color, point = move
            if point is None:
                game.pass_turn(color, any_turn=True)
            else:
                game.play(point, color, any_turn=True)
    _end(game, result, *territories)
    return Record(game, names[0], names[1], result, tuple(warnings))


_Action = tuple[list[Point], list[Point], list[Point], Color | None, tuple[Color, Point | None] | None]
"""A node's setup (black, white, empty, the player to move) and its move."""


def _node_action(node: Any) -> _Action:
    black, white, empty = node.get_setup_stones() if node.has_setup_stones() else (set(), set(), set())
    to_move = Color(str(node.get("PL")).upper()) if node.has_property("PL") else None
    colour, where = node.get_move()
    move = None if colour is None else (Color(colour.upper()), None if where is None else _point(where))
    return sorted(map(_point, black)), sorted(map(_point, white)), sorted(map(_point, empty)), to_move, move


def _new_game(
    size: int, komi: float, handicap: int, method: ScoringMethod, root: _Action
) -> tuple[Game, _Action]:
    """The game of a record's root: with ``HA`` of 2 or more and only black stones set up (two or
    more), a handicap game (the fixed placement when the stones are on its points, else a free
    handicap); else an empty board, the root's setup left to be made as any other. Returns it and what
    of the root is left to replay."""
    black, white, empty, to_move, move = root
    if handicap < 2 or len(black) < 2 or white or empty:
        return Game(size, komi=komi, method=method), root
    if set(black) == set(_fixed_or_none(size, len(black))):
        game = Game(size, komi=komi, handicap=len(black), method=method)
    else:
        free = [point for point in Board(size).points() if point in set(black)]
        game = Game(size, komi=komi, free_handicap=free, method=method)
    return game, ([], [], [], to_move, move)


def _end(game: Game, result: str | None, black_area: list[Point], white_area: list[Point]) -> None:
    """End ``game`` as the record's ``result`` says, where the engine can: a resignation, a loss on
    time; after two passes, the dead stones of the territories marked, and the count accepted if it
    gives the record's result. Other results (a forfeit, ``Void``, another count) stay in the record."""
    win = _WIN.fullmatch(result) if result is not None else None
    if win is not None and game.phase is not Phase.OVER:
        loser = Color(win[1].upper()).opponent
        how = win[2].lower()
        if how in _RESIGNED:
            game.resign(loser)
            return
        if how in _ON_TIME:
            game.lose_on_time(loser)
            return
    if game.phase is not Phase.SCORING:
        return
    dead = [p for p in black_area if game[p] is Color.WHITE] + [
        p for p in white_area if game[p] is Color.BLACK
    ]
    if dead:
        game.set_dead(dead)
    if result is not None and game.score().result == _normal_result(result):
        game.accept(Color.BLACK)
        game.accept(Color.WHITE)


def _normal_result(result: str) -> str | None:
    """A counted result as :attr:`go_core.Score.result` writes it (``B+3.5``, ``0``), or None."""
    if result.strip().lower() in ("0", "draw", "jigo"):
        return DRAW
    win = _WIN.fullmatch(result)
    if win is None:
        return None
    try:
        margin = float(win[2].replace(",", "."))
    except ValueError:
        return None
    return f"{win[1].upper()}+{margin:g}"


def _lenient_size(root: dict[str, list[bytes]], warnings: list[str]) -> None:
    """Read ``SZ`` as GNU Go does: its first number (``SZ[19:9]``, a rectangle, as 19), with a warning."""
    if "SZ" not in root:
        return
    raw = root["SZ"][0]
    try:
        int(raw)
    except ValueError:
        found = _SIZE.match(raw.decode("utf-8", "replace"))
        size = found[1] if found else str(DEFAULT_SIZE)
        warnings.append(f"SZ {echo(raw.decode('utf-8', 'replace'))} is read as a {size}×{size} board")
        root["SZ"] = [size.encode()]


def _root_number(root: Any, key: str, warnings: list[str], instead: str) -> float | None:
    """The number of the root's ``key`` (``KM``, ``HA``; a decimal comma read as a point), or None
    without one. One it cannot read (``KM[abc]``, ``HA[7.5]``) is None too, with a warning saying what
    is done ``instead``, as GNU Go reads it."""
    if not root.has_property(key):
        return None
    raw = root.get_raw(key).decode("utf-8", "replace")
    try:
        value = float(raw.strip().replace(",", "."))
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or (key == "HA" and value != int(value)):
        kind = "whole number" if key == "HA" else "number"
        warnings.append(f"{key} {echo(raw)} is not a {kind}: {instead}")
        return None
    return value


def _points(node: Any, key: str) -> list[Point]:
    if not node.has_property(key):
        return []
    return sorted(_point(where) for where in node.get(key))


def _fixed_or_none(size: int, handicap: int) -> list[Point]:
    """The fixed handicap points, or none when the board or the count has no fixed placement."""
    try:
        return handicap_points(size, handicap)
    except GoError:
        return []


def _point(where: tuple[int, int]) -> Point:
    """The :class:`Point` of sgfmill's ``(row, col)``, row 0 at the bottom."""
    return Point(where[1], where[0])


def _sgf_point(point: Point) -> tuple[int, int]:
    """sgfmill's ``(row, col)``, row 0 at the bottom as in :class:`Point`."""
    return point.row, point.col
