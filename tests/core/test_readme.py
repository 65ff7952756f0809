"""The engines' documented examples run: README's ``pycon`` blocks and the packages' docstrings."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

import go_core
import scrabble_core

README = Path(__file__).resolve().parents[2] / "README.md"
_BLOCK = re.compile(r"^```pycon\n(.*?)^```$", re.DOTALL | re.MULTILINE)


def _run(text: str, name: str) -> doctest.TestResults:
    test = doctest.DocTestParser().get_doctest(text, {}, name, str(README), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    return runner.summarize(verbose=False)


def test_readme_examples_run_as_written() -> None:
    blocks = _BLOCK.findall(README.read_text(encoding="utf-8"))
    assert blocks, "README has no pycon example"
    for number, block in enumerate(blocks):
        results = _run(block, f"README example {number + 1}")
        assert results.attempted > 0
        assert results.failed == 0


def test_a_wrong_readme_output_fails() -> None:
    block = _BLOCK.findall(README.read_text(encoding="utf-8"))[0]
    assert _run(block.replace("16)]", "17)]"), "README changed").failed == 1


@pytest.mark.parametrize("package", [scrabble_core, go_core])
def test_package_docstring_examples_run(package: object) -> None:
    results = doctest.testmod(package, optionflags=doctest.ELLIPSIS)  # type: ignore[arg-type]
    assert results.failed == 0


@pytest.mark.parametrize("package", [scrabble_core, go_core])
def test_every_public_name_is_defined_once(package: object) -> None:
    names = package.__all__  # type: ignore[attr-defined]
    assert len(names) == len(set(names))
    missing = [name for name in names if not hasattr(package, name)]
    assert missing == []
