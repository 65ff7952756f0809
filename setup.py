"""Build the optional native core (everything else is in pyproject.toml).

``optional=True``: where the extension cannot be compiled (no C compiler or Python headers) the
install still succeeds and the engine uses its pure-Python searches (:mod:`scrabble_core.native`).

The native simulation must add and multiply exactly as Python does (its results are compared with
the pure-Python ones bit for bit): no fused multiply-add where the compiler would contract ``a * b + c``.
"""

import sys

from setuptools import Extension, setup

SOURCES = [
    "scrabble_core/_movegen.c",
    "scrabble_core/_leaves.c",
    "scrabble_core/_search.c",
    "scrabble_core/_simulate.c",
    "scrabble_core/_endgame.c",
]
EXACT_FLOATS = [] if sys.platform == "win32" else ["-ffp-contract=off"]

setup(
    ext_modules=[
        Extension(
            "scrabble_core._movegen",
            SOURCES,
            depends=["scrabble_core/_movegen.h", "scrabble_core/_search.h"],
            extra_compile_args=EXACT_FLOATS,
            optional=True,
        )
    ]
)
