"""Type stub of the native core (scrabble_core/_movegen.c), used by scrabble_core.movegen."""

from array import array

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
