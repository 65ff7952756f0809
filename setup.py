"""Build the optional native move-generation core (everything else is in pyproject.toml).

``optional=True``: where the extension cannot be compiled (no C compiler or Python headers) the
install still succeeds and :mod:`scrabble_core.movegen` uses its pure-Python search.
"""

from setuptools import Extension, setup

setup(ext_modules=[Extension("scrabble_core._movegen", ["scrabble_core/_movegen.c"], optional=True)])
