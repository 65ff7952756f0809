"""Which core the engine's searches run in: the native extension ``scrabble_core._movegen`` or Python.

The extension (the move generator, the leave values, the simulation and the endgame solver, all in C)
is built at install where a C compiler is available. It is used unless ``SCRABBLE_PURE_PYTHON=1`` is
set; the choice is logged once. Every search it speeds up keeps its pure-Python path, which gives the
same results.
"""

from __future__ import annotations

import functools
import logging
import os
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from scrabble_core._movegen import Graph

PURE_PYTHON_ENV: Final = "SCRABBLE_PURE_PYTHON"
"""Set to ``1`` to use the pure-Python searches even where the native core is built."""

logger = logging.getLogger(__name__)


def import_native() -> type[Graph] | None:
    """The extension's graph class (its searches start from one), or ``None`` if it is not built."""
    try:
        from scrabble_core._movegen import Graph
    except ImportError:
        return None
    return Graph


@functools.cache
def native_core() -> type[Graph] | None:
    """The extension's graph class if the searches use the extension by default (it is built and
    ``SCRABBLE_PURE_PYTHON`` is not ``1``), else ``None``. Logs the choice the first time."""
    if os.environ.get(PURE_PYTHON_ENV) == "1":
        logger.info("move generation: pure Python (%s=1)", PURE_PYTHON_ENV)
        return None
    graph = import_native()
    if graph is None:
        logger.info("move generation: pure Python (the native core scrabble_core._movegen is not built)")
    else:
        logger.info("move generation: native core")
    return graph
