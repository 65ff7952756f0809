"""The packages, the assets and the optional native cores (everything else is in pyproject.toml).

The repository's ``assets/`` folder (variants, leave values, the font) is installed as the package
``scrabble_core.assets`` (a package-dir mapping), so a wheel carries it and
:func:`scrabble_core.variant.assets_dir` finds it with ``importlib.resources``, installed or editable.

``optional=True``: where an extension cannot be compiled (no C compiler or Python headers) the install
still succeeds and the pure-Python code runs instead: :mod:`scrabble_core`'s searches (see
:mod:`scrabble_core.native`), and :mod:`go_core.tree`'s Monte Carlo search for ``go_core._search``.

The native cores must add and multiply exactly as Python does (their results are compared with the
pure-Python ones bit for bit): no fused multiply-add where the compiler would contract ``a * b + c``.
"""

import sys

from setuptools import Extension, find_packages, setup

SCRABBLE_SOURCES = [
    "scrabble_core/_movegen.c",
    "scrabble_core/_leaves.c",
    "scrabble_core/_search.c",
    "scrabble_core/_simulate.c",
    "scrabble_core/_endgame.c",
]
EXACT_FLOATS = [] if sys.platform == "win32" else ["-ffp-contract=off"]

setup(
    packages=[*find_packages(include=["scrabble_core*", "go_core*", "bot*"]), "scrabble_core.assets"],
    package_dir={"scrabble_core.assets": "assets"},
    ext_modules=[
        Extension(
            "scrabble_core._movegen",
            SCRABBLE_SOURCES,
            depends=["scrabble_core/_movegen.h", "scrabble_core/_search.h"],
            extra_compile_args=EXACT_FLOATS,
            optional=True,
        ),
        Extension("go_core._search", ["go_core/_search.c"], optional=True, extra_compile_args=EXACT_FLOATS),
    ],
)
