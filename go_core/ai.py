"""The built-in Go AI: a Monte Carlo tree search (:mod:`go_core.tree`, natively ``go_core._search``)
with light knowledge in its playouts, for when GNU Go is not installed.

- **Budget.** A move's search runs until its :class:`Budget` of playouts or of seconds is spent,
  whichever comes first, and stops early once the most visited move cannot be overtaken in the
  playouts left (counted from the budget, and from the time left at the rate so far). The levels
  (:data:`LEVEL_PLAYOUTS`) are playout budgets.
- **Tree reuse.** A :class:`Thinker` keeps its tree between moves of one game: the next search starts
  from the subtree of the moves played since.
- **Pass and resign.** After the opponent's pass it passes when the board counted now (the dead stones
  taken off as the playouts see them) is a win; it passes when the pass is the most visited move (as
  it is when nothing else is left: every expanded node has a pass among its children); it resigns
  only when its best move wins fewer than :data:`RESIGN_WIN_RATE` of at least
  :data:`RESIGN_MIN_PLAYOUTS` playouts and the playouts' expected count is a loss too.
- **Root parallelism.** :func:`search_share` runs one seeded search and returns its root's statistics
  (:class:`SearchShare`); shares of several processes (each its own seed) add up with
  :func:`merge_shares`, and :func:`decide` picks the move from the sum, as one search would; a share
  crosses processes as plain data (:meth:`SearchShare.to_dict`). After the opponent's pass, the dead
  stones of the count come from playouts without a tree (:func:`status_share`), which add up the same way.
- **Dead stones and seki** (:meth:`Thinker.statuses`): see :mod:`go_core.status`.

Seeded by the :class:`random.Random` passed in: with a budget of playouts and time to spare, the same
seed gives the same moves.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

from go_core.errors import IllegalMoveError
from go_core.game import Game, Phase
from go_core.points import Color, Point
from go_core.prng import seed_from
from go_core.search import (
    DEFAULT_MAX_NODES,
    SearchTree,
    index_point,
    move_index,
    new_search,
    position_of,
    search_komi,
)
from go_core.status import StoneStatuses, stone_statuses

Clock = Callable[[], float]
Decision = Point | None | Literal["resign"]
"""A point to play, ``None`` to pass, or :data:`RESIGN`."""

RESIGN: Final = "resign"
LEVEL_PLAYOUTS: Final = {"easy": 100, "medium": 3_000, "hard": 1_000_000}
"""The playouts a move at each level (``hard`` is bounded by the time budget)."""
CHECK_EVERY: Final = 256
"""The early stop is checked every this many playouts."""
FIRST_STEP: Final = 16
"""The playouts run before the rate is known."""
RESIGN_WIN_RATE: Final = 0.05
RESIGN_MIN_PLAYOUTS: Final = 2_000


@dataclass(frozen=True, slots=True)
class Budget:
    """How long the AI may think: ``seconds`` on ``clock``, and at most ``playouts`` playouts; and
    until ``stop`` (asked between steps of playouts) says to stop, if given."""

    seconds: float = 1.0
    playouts: int = LEVEL_PLAYOUTS["medium"]
    clock: Clock = time.monotonic
    stop: Callable[[], bool] | None = None


STATUS_BUDGET: Final = Budget(seconds=2.0, playouts=4_000)
"""The budget of a dead-stone estimate."""


@dataclass(frozen=True, slots=True)
class SearchShare:
    """A search's root statistics, to add up with others of the same position
    (:func:`merge_shares`): per move (``row * size + col``, -1 a pass) its visits and its wins from the
    player to move's side; the playouts; in how many of them Black, and White, owned each point."""

    size: int
    playouts: int
    moves: tuple[tuple[int, int, float], ...]
    black_owned: tuple[int, ...]
    white_owned: tuple[int, ...]

    def to_dict(self) -> dict[str, object]:
        """The share as plain data (JSON), for :meth:`from_dict` in another process."""
        return {
            "size": self.size,
            "playouts": self.playouts,
            "moves": [list(move) for move in self.moves],
            "black_owned": list(self.black_owned),
            "white_owned": list(self.white_owned),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SearchShare:
        """The share :meth:`to_dict` gave.

        Raises:
            KeyError, TypeError, ValueError: ``data`` is not a share's (a field missing or of the wrong
                type, an ownership of another length than the board's points).
        """
        size, playouts = int(data["size"]), int(data["playouts"])
        moves = tuple((int(move), int(visits), float(wins)) for move, visits, wins in data["moves"])
        black = tuple(int(count) for count in data["black_owned"])
        white = tuple(int(count) for count in data["white_owned"])
        if len(black) != size * size or len(white) != size * size:
            raise ValueError(f"a search share of a {size}x{size} board has {size * size} points to own")
        return cls(size, playouts, moves, black, white)


def search_share(game: Game, seed: int, budget: Budget = Budget(), color: Color | None = None) -> SearchShare:
    """One search share of ``color``'s move (default: the player to move) in ``game`` (not changed),
    seeded with ``seed``: the part of a root-parallel search one process runs.

    Raises:
        IllegalMoveError: the game is not in its playing phase.
    """
    _check_playing(game)
    tree = new_search(position_of(game, color), seed)
    run_search(tree, budget)
    return _share(tree, game.size)


def status_share(
    game: Game, seed: int, budget: Budget = STATUS_BUDGET, *, native: bool | None = None
) -> SearchShare:
    """Playouts of ``game``'s board to the end from a search of one node (no tree: a won game's tree
    plays any move, sacrifices too, and the playouts' ownership would show them), seeded with ``seed``,
    within ``budget``: the ownership :func:`share_statuses` reads; shares of several processes add up
    with :func:`merge_shares`. ``native`` as :func:`go_core.search.new_search`."""
    tree = new_search(position_of(game, passes=0), seed, max_nodes=1, native=native)
    run_search(tree, budget)
    return _share(tree, game.size)


def merge_shares(shares: Iterable[SearchShare]) -> SearchShare:
    """The sum of searches of one position: visits, wins, playouts and ownership added up.

    Raises:
        ValueError: no shares, or shares of different board sizes.
    """
    shares = list(shares)
    if not shares:
        raise ValueError("no search shares to merge")
    size = shares[0].size
    if any(share.size != size for share in shares):
        raise ValueError("search shares of different board sizes")
    totals: dict[int, tuple[int, float]] = {}
    for share in shares:
        for move, visits, wins in share.moves:
            seen_visits, seen_wins = totals.get(move, (0, 0.0))
            totals[move] = (seen_visits + visits, seen_wins + wins)
    return SearchShare(
        size=size,
        playouts=sum(share.playouts for share in shares),
        moves=tuple((move, visits, wins) for move, (visits, wins) in sorted(totals.items())),
        black_owned=tuple(map(sum, zip(*(share.black_owned for share in shares), strict=True))),
        white_owned=tuple(map(sum, zip(*(share.white_owned for share in shares), strict=True))),
    )


def decide(
    game: Game, share: SearchShare, color: Color | None = None, dead: Collection[Point] | None = None
) -> Decision:
    """``color``'s move (default: the player to move) in ``game`` from a search of it: the most visited
    move (the first of them in board order, a pass last), or a pass or a resignation (see the module's
    docstring).
    After the opponent's pass the board is counted without ``dead`` (default: the dead stones the
    share's playouts show)."""
    color = game.to_move if color is None else color
    if not share.moves:
        return None
    best, visits, wins = max(share.moves, key=lambda entry: (entry[1], entry[0] >= 0, -entry[0]))
    if opponent_passed(game, color):
        if dead is None:
            dead = share_statuses(game, share).dead
        if game.score(dead).winner is color:
            return None
    if best < 0:
        return None
    if (
        share.playouts >= RESIGN_MIN_PLAYOUTS
        and visits > 0
        and wins / visits < RESIGN_WIN_RATE
        and _expected_lead(game, share, color) < 0
    ):
        return RESIGN
    return index_point(game.size, best)


def share_statuses(game: Game, share: SearchShare) -> StoneStatuses:
    """The dead stones and seki of ``game``'s board as the share's playouts saw them."""
    return stone_statuses(game.board, share.black_owned, share.white_owned, share.playouts)


def run_search(tree: SearchTree, budget: Budget) -> None:
    """Run ``tree`` within ``budget`` (see the module's docstring); the first :data:`FIRST_STEP`
    playouts (or the budget's, if fewer) run whatever the time."""
    clock = budget.clock
    started = clock()
    deadline = started + budget.seconds
    done = 0
    while done < budget.playouts:
        now = clock()
        if done and (now >= deadline or (budget.stop is not None and budget.stop())):
            return
        step = min(CHECK_EVERY - done % CHECK_EVERY, budget.playouts - done)
        rate = done / (now - started) if done and now > started else 0.0
        if not done:
            step = min(step, FIRST_STEP)
        elif rate:
            step = max(1, min(step, int((deadline - now) * rate)))
        tree.run(step)
        done += step
        if done % CHECK_EVERY == 0:
            left = budget.playouts - done
            if rate:
                left = min(left, int((deadline - clock()) * rate))
            if _settled(tree.children(), left):
                return


class Thinker:
    """The built-in AI over the moves of one game: it keeps its search tree from move to move."""

    def __init__(self, *, max_nodes: int = DEFAULT_MAX_NODES, native: bool | None = None) -> None:
        """Trees of at most ``max_nodes`` nodes; ``native`` as :func:`go_core.search.new_search`."""
        self._max_nodes = max_nodes
        self._native = native
        self._tree: SearchTree | None = None
        self._key: tuple[object, ...] = ()
        self._moves: list[str] = []
        self.last_share: SearchShare | None = None
        """The root statistics of the last move's search (its playouts are the new ones)."""

    def choose(
        self, game: Game, rng: random.Random, budget: Budget = Budget(), color: Color | None = None
    ) -> Decision:
        """The move ``color`` (default: the player to move) should make in ``game`` (not changed):
        a point, ``None`` to pass, or :data:`RESIGN`.

        Raises:
            IllegalMoveError: the game is not in its playing phase.
        """
        _check_playing(game)
        color = game.to_move if color is None else color
        tree = self._tree_for(game, color, seed_from(rng))
        started = budget.clock()
        run_search(tree, budget)
        self.last_share = _share(tree, game.size)
        dead = None
        if opponent_passed(game, color):
            left = max(budget.seconds - (budget.clock() - started), 0.0)
            status_budget = Budget(min(left, STATUS_BUDGET.seconds), STATUS_BUDGET.playouts, budget.clock)
            dead = self.statuses(game, rng, status_budget).dead
        return decide(game, self.last_share, color, dead)

    def statuses(self, game: Game, rng: random.Random, budget: Budget = STATUS_BUDGET) -> StoneStatuses:
        """The dead stones and seki of ``game``'s board, from playouts of it to the end
        (:func:`status_share`)."""
        return share_statuses(game, status_share(game, seed_from(rng), budget, native=self._native))

    def _tree_for(self, game: Game, color: Color, seed: int) -> SearchTree:
        """The kept tree moved on to ``game``'s position when it can be, else a new one."""
        key = (game.size, game.komi, game.method, game.handicap_stones, game.setups)
        moves = [str(move) for move in game.moves]
        tree = self._tree
        reusable = (
            tree is not None
            and key == self._key
            and color is game.to_move
            and moves[: len(self._moves)] == self._moves
            and tree.nodes <= self._max_nodes // 2
        )
        if tree is not None and reusable:
            for move in game.moves[len(self._moves) :]:
                if not tree.advance(move_index(game.size, move.point)):
                    tree = None
                    break
        else:
            tree = None
        if tree is None:
            tree = new_search(position_of(game, color), seed, max_nodes=self._max_nodes, native=self._native)
        self._tree, self._key, self._moves = tree, key, moves
        return tree


def choose_move(
    game: Game, rng: random.Random, budget: Budget = Budget(), color: Color | None = None
) -> Decision:
    """:meth:`Thinker.choose` with a new tree."""
    return Thinker().choose(game, rng, budget, color)


def propose_dead(game: Game, rng: random.Random | None = None) -> frozenset[Point]:
    """The stones that look dead at the end of play (see :mod:`go_core.status`); seeded by ``rng``
    (default: a fixed seed)."""
    return Thinker().statuses(game, rng or random.Random(0)).dead


def _share(tree: SearchTree, size: int) -> SearchShare:
    black, white = tree.ownership()
    return SearchShare(
        size=size,
        playouts=tree.playouts,
        moves=tuple(tree.children()),
        black_owned=tuple(black),
        white_owned=tuple(white),
    )


def _settled(children: list[tuple[int, int, float]], left: int) -> bool:
    """Whether the most visited child stays so whatever ``left`` more playouts do (never when the
    root has no children: the search is only playouts)."""
    if len(children) <= 1:
        return bool(children)
    first, second = sorted((visits for _, visits, _ in children), reverse=True)[:2]
    return first - second > left


def _expected_lead(game: Game, share: SearchShare, color: Color) -> float:
    """``color``'s lead in the playouts' average count."""
    if not share.playouts:
        return 0.0
    black = (sum(share.black_owned) - sum(share.white_owned)) / share.playouts
    lead = black - search_komi(game)
    return lead if color is Color.BLACK else -lead


def opponent_passed(game: Game, color: Color) -> bool:
    """Whether the last move was the opponent's pass."""
    last = game.last_move
    return last is not None and last.is_pass and last.color is color.opponent


def _check_playing(game: Game) -> None:
    if game.phase is not Phase.PLAY:
        raise IllegalMoveError("The AI moves only while the game is being played")
