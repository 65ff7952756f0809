"""Type stub of the native Monte Carlo search (go_core/_search.c): go_core.tree.PySearch in C."""

from collections.abc import Iterable

class Search:
    """A search tree over one position; the same methods and choices as go_core.tree.PySearch.

    Raises ValueError for arguments out of their ranges; MemoryError.
    """

    def __init__(
        self,
        size: int,
        komi: float,
        cells: bytes,
        to_move: int,
        ko: int,
        last: int,
        passes: int,
        history: Iterable[int],
        seed: int,
        patterns: bytes,
        max_nodes: int,
    ) -> None: ...
    @property
    def nodes(self) -> int: ...
    @property
    def playouts(self) -> int: ...
    @property
    def hash(self) -> int: ...
    def run(self, playouts: int) -> None: ...
    def children(self) -> list[tuple[int, int, float]]: ...
    def advance(self, move: int) -> bool: ...
    def ownership(self) -> tuple[list[int], list[int]]: ...
    def playout_trace(self) -> tuple[list[int], float]: ...
