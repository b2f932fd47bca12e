"""The service's shape (issue 15, point 1): small modules that each say what they do, written in
the map of docs/architecture.md."""

from __future__ import annotations

import ast
from pathlib import Path

import trapoula.service

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = Path(trapoula.service.__file__).parent
MODULE_LINES = 500
"""The most lines a module of the service may have ("about 500")."""
CLASS_LINES = 310
"""The most lines a class of the service may span ("about 300")."""


def _modules() -> list[Path]:
    return sorted(p for p in PACKAGE.glob("*.py") if p.name != "__init__.py")


def test_the_service_has_its_modules() -> None:
    names = {p.name for p in _modules()}
    assert {"store.py", "heads.py", "server.py", "startup.py", "commands.py"} <= names


def test_no_module_of_the_service_is_over_500_lines() -> None:
    long = {p.name: n for p in _modules() if (n := len(p.read_text().splitlines())) > MODULE_LINES}
    assert long == {}, f"split these modules: {long}"


def test_no_class_of_the_service_spans_over_310_lines() -> None:
    long = {}
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef) and node.end_lineno is not None:
                span = node.end_lineno - node.lineno + 1
                if span > CLASS_LINES:
                    long[f"{path.name}:{node.name}"] = span
    assert long == {}, f"split these classes: {long}"


def test_every_module_of_the_service_is_in_the_map() -> None:
    text = (ROOT / "docs" / "architecture.md").read_text()
    missing = [p.name for p in _modules() if f"`{p.name}`" not in text]
    assert missing == [], f"docs/architecture.md does not say what these do: {missing}"
