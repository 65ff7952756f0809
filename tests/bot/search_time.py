"""The time the tests give an AI search that must get somewhere within a deadline: the native core
searches some twenty times as fast as the pure-Python path (``SCRABBLE_PURE_PYTHON=1``, or a machine
without a C compiler), and ``expert``'s inference alone takes the pure path seconds, so each path gets
its own time.

Imported by the tests that give searches a deadline (pytest puts this directory on ``sys.path``).
"""

from __future__ import annotations

from scrabble_core.native import native_core


def search_seconds(native: float, pure: float) -> float:
    """``native`` where the searches run in the native core, else ``pure``."""
    return native if native_core() is not None else pure
