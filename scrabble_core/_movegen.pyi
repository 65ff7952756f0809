"""Type stub of the native core (scrabble_core/_movegen.c and the other C files beside it), used by
scrabble_core.movegen, scrabble_core.leaves, scrabble_core.simulation and scrabble_core.endgame."""

from array import array
from collections.abc import Callable

from scrabble_core.move import Play
from scrabble_core.movegen import GeneratedMove

def leave_values(
    table: tuple[str, bytes, bytes, bytes, bytes, int, tuple[tuple[bytes, bytes, float], ...]],
    leaves: list[str],
) -> list[float]:
    """The value of each of ``leaves`` under the leave model laid out as ``table``
    (LeaveModel.native_table), the same floats as LeaveModel.evaluate.

    Raises ValueError for a table whose parts do not fit together; TypeError for a leave that is not a
    string.
    """

class Graph:
    """A DAWG's flat table (scrabble_core.dawg's layout), checked and copied.

    Raises ValueError if ``table`` is not a whole number of nodes whose children are nodes.
    """

    def __init__(self, table: array[int], alphabet: str) -> None: ...
    def search(
        self,
        geometry: tuple[int, int, bytes, tuple[int, ...], int, int, int, int],
        board: bytes,
        rack: bytes,
        leaves: list[str],
        count: int,
        bonus: list[float] | None,
        play_type: type[Play],
        move_type: type[GeneratedMove],
    ) -> list[GeneratedMove]:
        """Every play of ``rack`` on ``board`` highest score first (``count`` 0), or the ``count``
        of highest score plus ``bonus[leave]``, as MoveGenerator.generate and top.

        Raises ValueError (or TypeError) for arguments out of their ranges; MemoryError.
        """

def simulate(
    graph: Graph,
    geometry: tuple[int, int, bytes, tuple[int, ...], int, int, int, int],
    squares: bytes,
    leave_table: tuple[str, bytes, bytes, bytes, bytes, int, tuple[tuple[bytes, bytes, float], ...]],
    rack: bytes,
    unseen: bytes,
    opponent: int,
    candidates: list[tuple[int, int, bytes]],
    plies: int,
    seed: int,
    max_iterations: int,
    deadline: float | None,
    clock: Callable[[], float],
    prune_after: int,
    prune_confidence: float,
    inferred: list[bytes],
    weights: list[int],
) -> tuple[int, list[int], list[float], list[float], list[int]]:
    """One share of the expert's simulation (scrabble_core.simulation's _run_share, the same results).

    ``squares``, ``rack`` and ``unseen`` are tile codes (a letter index, 64 + index for a blank on the
    board, 64 for a blank tile); the opponent holds the first ``opponent`` unseen tiles of each deal.
    Each candidate is ``(kind, points, data)``: a play (1) with three bytes per new tile (square high
    and low byte, code), an exchange (2) with the codes of its tiles, a pass (0) with none.
    ``max_iterations`` -1 and ``deadline`` None mean no limit; ``clock`` is read before and after each
    iteration. ``inferred`` are leaves the opponent may hold (codes) and ``weights`` their whole-number
    weights (empty lists: no inference). Returns (iterations, counts, sums, sums of squares, indexes
    still simulated).

    Raises ValueError for arguments out of their ranges (a candidate that is not a move of the rack);
    MemoryError; what ``clock`` raises.
    """

def solve_endgame(
    graph: Graph,
    geometry: tuple[int, int, bytes, tuple[int, ...], int, int, int, int],
    squares: bytes,
    rack: bytes,
    other: bytes,
    scoreless: int,
    limit: int,
    max_depth: int,
    max_nodes: int,
    deadline: float | None,
    clock: Callable[[], float],
    monotonic: Callable[[], float],
) -> tuple[tuple[int, bytes], int, int, int, int]:
    """The endgame solver (scrabble_core.endgame.solve_endgame, in C): the mover holds ``rack``, the
    other ``other`` (tile codes, at most 8 each), ``scoreless`` scoreless turns played of the ``limit``
    that end the game. ``max_nodes`` -1 and ``deadline`` None mean no budget; ``clock`` is read at each
    position (in C when it is ``monotonic``, the same clock). Returns ((kind, placements), value,
    exact, depth, nodes): a play (1) with three bytes per new tile (square high and low byte, code) or
    the pass (0).

    Raises ValueError for arguments out of their ranges; MemoryError; what ``clock`` raises.
    """

def infer_weights(
    graph: Graph,
    geometry: tuple[int, int, bytes, tuple[int, ...], int, int, int, int],
    squares: bytes,
    leave_table: tuple[str, bytes, bytes, bytes, bytes, int, tuple[tuple[bytes, bytes, float], ...]],
    played: bytes,
    points: int,
    leaves: list[bytes],
    top: int,
    temperature: float,
) -> list[int]:
    """The weight of each of ``leaves`` as what the player who made a play of the tiles ``played``
    (codes), worth ``points`` on ``squares``, kept (scrabble_core.inference's _weight: ``top *
    exp(-shortfall / temperature)`` rounded half to even, at least 1).

    Raises ValueError for arguments out of their ranges; MemoryError.
    """
