"""What Go needs from the outside besides the host (store, notifier, clock, locks): an AI
(:class:`GoAi`) and the board image (:class:`GoBoardRenderer`)."""

from __future__ import annotations

from typing import Protocol

from bot.games.go.engines import AIMove, Level
from go_core import Game, Point


class GoAi(Protocol):
    """Chooses the AI seat's moves and proposes the dead stones, off the event loop."""

    async def choose(self, game: Game, level: Level, seed: int) -> AIMove:
        """The move of the player to move in ``game`` (a copy) at ``level``: a point, ``None`` to pass,
        or ``"resign"``; the same for the same ``seed`` and position when the budget allows. Never
        raises: a failure falls back to a quick legal move or a pass."""
        ...

    async def dead_stones(self, game: Game) -> tuple[frozenset[Point], str]:
        """The stones it takes to be dead in ``game`` (after two passes) and who proposes them: GNU
        Go's ``final_status_list dead`` when installed (``GNU Go``), else the engine's proposal
        (``the built-in AI``). Never raises."""
        ...


class GoBoardRenderer(Protocol):
    """Draws a Go board (:func:`bot.games.go.board_image.render_go_board` is one): CPU work, called in a
    worker thread."""

    def __call__(self, game: Game, *, black: str = "Black", white: str = "White") -> bytes:
        """``game`` as a PNG, the players named in its header."""
        ...
