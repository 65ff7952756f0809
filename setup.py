"""The packages, the assets and the optional native move-generation core (everything else is in
pyproject.toml).

The repository's ``assets/`` folder (variants, leave values, the font) is installed as the package
``scrabble_core.assets`` (a package-dir mapping), so a wheel carries it and
:func:`scrabble_core.variant.assets_dir` finds it with ``importlib.resources``, installed or editable.

``optional=True``: where the extension cannot be compiled (no C compiler or Python headers) the
install still succeeds and :mod:`scrabble_core.movegen` uses its pure-Python search.
"""

from setuptools import Extension, find_packages, setup

setup(
    packages=[*find_packages(include=["scrabble_core*", "go_core*", "bot*"]), "scrabble_core.assets"],
    package_dir={"scrabble_core.assets": "assets"},
    ext_modules=[Extension("scrabble_core._movegen", ["scrabble_core/_movegen.c"], optional=True)],
)
