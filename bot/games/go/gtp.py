"""``scrabble-bot go --gtp``: the Go engine speaking the Go Text Protocol (version 2) on standard input
and output, for Go programs (Sabaki, GoGui) and for matches against other engines.

The answers follow GNU Go's where GTP leaves them open (``list_stones`` lists the stones top row first,
``final_status_list`` one group per line, the same error texts). ``play`` takes either colour in any
order, as GTP wants; a ``play`` or ``genmove`` after two passes resumes play. Positional superko is
enforced: a move that repeats a position is ``? illegal move``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from typing import Final, TextIO

from bot.games.go.engines import RESIGN, GoAI
from bot.version import package_version
from go_core import COLUMNS, Color, Game, Phase, Point, format_move, parse_move, star_points
from go_core.errors import GoError
from go_core.handicap import MIN_HANDICAP

PROTOCOL_VERSION: Final = "2"
NAME: Final = "scrabble-host Go"
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_STATUSES: Final = ("alive", "dead", "seki")


class _RefusedError(Exception):
    """A command's GTP error answer (the text after ``?``)."""


class GtpEngine:
    """One GTP session over a :class:`~go_core.Game`, the AI playing ``genmove``."""

    def __init__(self, ai: GoAI, *, size: int = 19, komi: float = 7.5) -> None:
        self.ai = ai
        self.game = Game(size, komi=komi)
        self.done = False
        """Set by ``quit``."""
        self._commands: dict[str, Callable[[list[str]], str]] = {
            "protocol_version": lambda _: PROTOCOL_VERSION,
            "name": lambda _: NAME,
            "version": lambda _: package_version(),
            "known_command": self._known_command,
            "list_commands": lambda _: "\n".join(self._commands),
            "boardsize": self._boardsize,
            "clear_board": self._clear_board,
            "komi": self._komi,
            "play": self._play,
            "genmove": self._genmove,
            "undo": self._undo,
            "showboard": lambda _: "\n" + self._show(),
            "final_score": self._final_score,
            "final_status_list": self._final_status_list,
            "list_stones": self._list_stones,
            "fixed_handicap": self._fixed_handicap,
            "set_free_handicap": self._set_free_handicap,
            "quit": self._quit,
        }

    def handle(self, line: str) -> str | None:
        """The answer to one line of input (``=`` or ``?``, the id if any, the text, an empty line);
        ``None`` for a line with no command (empty, or a comment)."""
        words = _CONTROL.sub("", line.split("#", 1)[0]).replace("\t", " ").split()
        if not words:
            return None
        ident = ""
        if words[0].isdigit():
            ident, words = words[0], words[1:]
            if not words:
                return f"?{ident} missing command\n\n"
        name, args = words[0], words[1:]
        command = self._commands.get(name)
        try:
            if command is None:
                raise _RefusedError("unknown command")
            text = command(args)
        except _RefusedError as refusal:
            return f"?{ident} {refusal}\n\n"
        return f"={ident} {text}\n\n"  # "= " even when empty, as GNU Go answers

    def serve(self, lines: Iterable[str], write: Callable[[str], None]) -> None:
        """Answer every line until ``quit`` or the end of the input."""
        for line in lines:
            answer = self.handle(line)
            if answer is not None:
                write(answer)
            if self.done:
                return

    # Commands ------------------------------------------------------------------------------------

    def _known_command(self, args: list[str]) -> str:
        return "true" if args and args[0] in self._commands else "false"

    def _boardsize(self, args: list[str]) -> str:
        size = _integer(args)
        try:
            self.game = Game(size, komi=self.game.komi)
        except GoError:
            raise _RefusedError("unacceptable size") from None
        return ""

    def _clear_board(self, _: list[str]) -> str:
        self.game = Game(self.game.size, komi=self.game.komi)
        return ""

    def _komi(self, args: list[str]) -> str:
        try:
            komi = float(args[0]) if len(args) == 1 else math.nan
        except ValueError:
            komi = math.nan
        try:
            self.game = _with_komi(self.game, komi)
        except GoError:
            raise _RefusedError("komi not a float") from None
        return ""

    def _play(self, args: list[str]) -> str:
        if len(args) != 2:
            raise _RefusedError("invalid color or coordinate")
        color, point = self._color(args[0]), self._vertex(args[1])
        self._resume()
        try:
            if point is None:
                self.game.pass_turn(color, any_turn=True)
            else:
                self.game.play(point, color, any_turn=True)
        except GoError:
            raise _RefusedError("illegal move") from None
        return ""

    def _genmove(self, args: list[str]) -> str:
        if len(args) != 1:
            raise _RefusedError("invalid color")
        color = self._color(args[0])
        self._resume()
        if self.game.phase is Phase.OVER:
            raise _RefusedError("game is over")
        move = self.ai.choose(self.game, color)
        if move == RESIGN:
            return RESIGN
        if move is None:
            self.game.pass_turn(color, any_turn=True)
        else:
            self.game.play(move, color, any_turn=True)
        return format_move(move)

    def _undo(self, _: list[str]) -> str:
        try:
            while self.game.undo() is None:  # a resumption after two passes is no move of GTP's
                pass
        except GoError:
            raise _RefusedError("cannot undo") from None
        return ""

    def _final_score(self, _: list[str]) -> str:
        return self.game.score(self._dead()).result

    def _final_status_list(self, args: list[str]) -> str:
        if len(args) != 1 or args[0] not in _STATUSES:
            raise _RefusedError("invalid status")
        board = self.game.board
        dead = self._dead() if args[0] != "seki" else frozenset()
        seki = self.ai.seki_stones(self.game) if args[0] != "dead" else frozenset()
        listed = {"dead": dead, "seki": seki}.get(args[0])
        wanted = [
            point
            for point in board.stones()
            if (point in listed if listed is not None else point not in dead and point not in seki)
        ]
        groups: list[list[Point]] = []
        seen: set[Point] = set()
        for point in wanted:
            if point not in seen:
                members = board.group(point)
                group = [stone for stone in wanted if stone in members]
                seen.update(group)
                groups.append(group)
        return "\n".join(" ".join(map(str, group)) for group in groups)

    def _list_stones(self, args: list[str]) -> str:
        color = self._color(args[0] if len(args) == 1 else "")
        return " ".join(map(str, self.game.board.stones(color)))

    def _fixed_handicap(self, args: list[str]) -> str:
        stones = _integer(args)
        if stones < MIN_HANDICAP:  # the GTP specification: a handicap is 2 stones or more
            raise _RefusedError("invalid handicap")
        if self.game.board.stones():
            raise _RefusedError("board not empty")
        try:
            self.game = Game(self.game.size, komi=self.game.komi, handicap=stones)
        except GoError:
            raise _RefusedError("invalid handicap") from None
        return " ".join(map(str, self.game.board.stones(Color.BLACK)))

    def _set_free_handicap(self, args: list[str]) -> str:
        if self.game.board.stones():
            raise _RefusedError("board not empty")
        if not args:
            raise _RefusedError("invalid handicap")
        points = []
        for word in args:
            point = self._vertex(word, "invalid coordinate")
            if point is None:
                raise _RefusedError("invalid coordinate")
            points.append(point)
        if len(set(points)) != len(points):
            raise _RefusedError("repeated vertex")
        try:
            self.game = Game(self.game.size, komi=self.game.komi, free_handicap=points)
        except GoError:
            raise _RefusedError("invalid handicap") from None
        return ""

    def _quit(self, _: list[str]) -> str:
        self.done = True
        return ""

    # Helpers -------------------------------------------------------------------------------------

    def _color(self, text: str) -> Color:
        try:
            return Color.parse(text)
        except GoError:
            raise _RefusedError("invalid color or coordinate") from None

    def _vertex(self, text: str, error: str = "invalid color or coordinate") -> Point | None:
        try:
            return parse_move(text, self.game.size)
        except GoError:
            raise _RefusedError(error) from None

    def _resume(self) -> None:
        if self.game.phase is Phase.SCORING:
            self.game.resume()

    def _dead(self) -> frozenset[Point]:
        return self.ai.dead_stones(self.game)

    def _show(self) -> str:
        """The board as GNU Go's ``showboard`` draws it: columns above and below, rows on both sides,
        star points as ``+``, the captures beside the two lowest rows."""
        size, board = self.game.size, self.game.board
        stars = set(star_points(size))
        header = "   " + " ".join(COLUMNS[:size])
        lines = [header]
        for row in reversed(range(size)):
            cells = []
            for col in range(size):
                stone = board[Point(col, row)]
                cells.append(
                    "X"
                    if stone is Color.BLACK
                    else "O"
                    if stone is Color.WHITE
                    else "+"
                    if Point(col, row) in stars
                    else "."
                )
            line = f"{row + 1:>2} {' '.join(cells)} {row + 1}"
            if row == 1:
                line += f"     WHITE (O) has captured {self.game.captures(Color.WHITE)} stones"
            elif row == 0:
                line += f"     BLACK (X) has captured {self.game.captures(Color.BLACK)} stones"
            lines.append(line)
        lines.append(header)
        return "\n".join(lines)


def _integer(args: list[str]) -> int:
    if len(args) != 1 or not args[0].isdigit():
        raise _RefusedError("syntax error")
    return int(args[0])


def _with_komi(game: Game, komi: float) -> Game:
    """``game`` with another komi (its moves replayed)."""
    data = game.to_dict()
    data["komi"] = komi
    return Game.from_dict(data)


def serve_stdio(ai: GoAI, stdin: TextIO, stdout: TextIO) -> int:
    """Run a GTP session on ``stdin``/``stdout`` until ``quit`` or the end of input; returns 0."""

    def write(text: str) -> None:
        stdout.write(text)
        stdout.flush()

    try:
        GtpEngine(ai).serve(stdin, write)
    finally:
        ai.close()
    return 0
