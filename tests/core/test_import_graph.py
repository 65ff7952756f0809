"""The engine's modules import each other without a circle, function-local imports included."""

from __future__ import annotations

import ast
from pathlib import Path

import scrabble_core

PACKAGE = Path(scrabble_core.__file__).parent


def imports_of(path: Path) -> set[str]:
    """The modules of the package that ``path`` imports anywhere in its code."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("scrabble_core"):
            if node.module == "scrabble_core":
                found.update(f"scrabble_core.{alias.name}" for alias in node.names)
            else:
                found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.startswith("scrabble_core."))
    return found


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every circle a depth-first walk of ``graph`` meets (empty when it has none)."""
    state: dict[str, int] = {}
    path: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        state[module] = 1
        path.append(module)
        for other in sorted(graph[module]):
            if other not in graph:
                continue
            if state.get(other) == 1:
                found.append([*path[path.index(other) :], other])
            elif other not in state:
                visit(other)
        path.pop()
        state[module] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module)
    return found


def test_the_engine_has_no_import_circle() -> None:
    graph = {f"scrabble_core.{path.stem}": imports_of(path) for path in PACKAGE.glob("*.py")}
    assert graph["scrabble_core.ai"] >= {"scrabble_core.expert", "scrabble_core.ai_types"}
    assert circles(graph) == []


def test_a_circle_is_found() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": set()}
    assert circles(graph) == [["a", "b", "c", "a"]]
