"""Build the optional native cores (everything else is in pyproject.toml).

``optional=True``: where an extension cannot be compiled (no C compiler or Python headers) the install
still succeeds and the pure-Python code runs instead: :mod:`scrabble_core.movegen`'s search, and
:mod:`go_core.tree`'s Monte Carlo search for ``go_core._search``.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("scrabble_core._movegen", ["scrabble_core/_movegen.c"], optional=True),
        Extension(
            "go_core._search", ["go_core/_search.c"], optional=True, extra_compile_args=["-ffp-contract=off"]
        ),
    ]
)
