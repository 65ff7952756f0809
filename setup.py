"""The packages, the assets and the optional native cores (everything else is in pyproject.toml).

The repository's ``assets/`` folder (variants, leave values, the font) is installed as the package
``scrabble_core.assets`` (a package-dir mapping), so a wheel carries it and
:func:`scrabble_core.variant.assets_dir` finds it with ``importlib.resources``, installed or editable.

``optional=True``: where an extension cannot be compiled (no C compiler or Python headers) the install
still succeeds and the pure-Python code runs instead: :mod:`scrabble_core.movegen`'s search, and
:mod:`go_core.tree`'s Monte Carlo search for ``go_core._search``.
"""

from setuptools import Extension, find_packages, setup

setup(
    packages=[*find_packages(include=["scrabble_core*", "go_core*", "bot*"]), "scrabble_core.assets"],
    package_dir={"scrabble_core.assets": "assets"},
    ext_modules=[
        Extension("scrabble_core._movegen", ["scrabble_core/_movegen.c"], optional=True),
        Extension(
            "go_core._search", ["go_core/_search.c"], optional=True, extra_compile_args=["-ffp-contract=off"]
        ),
    ],
)
