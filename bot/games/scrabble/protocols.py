"""What Scrabble's plugin needs from the outside besides the host's parts, as protocols:

- :class:`AiPlayer`: chooses an AI seat's move (the AI workers, or an in-process stand-in).
- :class:`Advisor`: the top moves of a seat, for hints (the move generator).
- :class:`Renderer`: the images (:class:`bot.games.scrabble.images.renderer.PngRenderer` draws PNGs with
  Pillow; the plugin never imports Pillow), with the data of a board's header.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Protocol

from scrabble_core.ai import Level
from scrabble_core.board import Board
from scrabble_core.game import Game
from scrabble_core.move import Move
from scrabble_core.squares import Square
from scrabble_core.variant import Variant


@dataclass(frozen=True)
class PlayerLine:
    """One player in the header of a board image: name, score, and whether it is their turn."""

    name: str
    score: int
    to_move: bool


@dataclass(frozen=True)
class BoardHeader:
    """The strip above a board image: the players in turn order and the number of tiles left in the
    bag (data for the :class:`~bot.games.scrabble.protocols.Renderer`)."""

    players: Sequence[PlayerLine]
    bag: int


class AiPlayer(Protocol):
    """Chooses moves for AI seats."""

    async def choose(self, game: Game, seat: int, level: Level, seed: int) -> Move:
        """The move of ``seat`` (whose turn it is) at ``level``, the same for the same ``seed`` and
        position. ``game`` is the player's own copy. The move must be legal: a move the engine refuses
        is logged and replaced by a pass."""
        ...


@dataclass(frozen=True, slots=True)
class Suggestion:
    """A move suggested by a hint: its engine notation (``8H QU.Z``; ``-AB`` an exchange, ``-`` a pass;
    :func:`scrabble_core.move_words.move_in_words` says it in words), its score and the tiles kept."""

    move: str
    score: int
    leave: str


class Advisor(Protocol):
    """Finds the best moves of a seat, for hints."""

    async def top_moves(self, game: Game, seat: int, limit: int) -> Sequence[Suggestion]:
        """At most ``limit`` plays of ``seat`` from its rack, best first (``game`` is a copy)."""
        ...


class Renderer(Protocol):
    """Draws the images of the game (CPU work: the plugin calls it in a worker thread)."""

    def board(self, board: Board, last_move: Collection[Square], header: BoardHeader) -> bytes:
        """The board as a PNG, ``last_move`` highlighted, ``header`` above it."""
        ...

    def rack(self, tiles: str, variant: Variant) -> bytes:
        """A rack as a PNG."""
        ...

    def chart(self, players: Sequence[str], totals: Sequence[Sequence[int]]) -> bytes:
        """The players' scores turn by turn as a PNG chart."""
        ...
