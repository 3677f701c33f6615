"""The public API documents itself: every public function and class has a docstring, every field of a
result class says what it holds, and the examples in the docstrings run."""

from __future__ import annotations

import ast
import dataclasses
import doctest
import importlib
import inspect
from pathlib import Path

import pytest

import kalah
from kalah.book import BookEntry
from kalah.records import GameRecord, PlayerInfo, RecordedMove
from kalah.search import MoveValue, SearchResult, SearchStats, SearchTrace, TraceNode
from kalah.solve import SolveResult

SOURCE = Path(kalah.__file__).resolve().parent


def _undocumented(path: Path) -> list[str]:
    missing = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and not child.name.startswith(
                "_"
            ):
                overload = any(getattr(d, "id", getattr(d, "attr", None)) == "overload" for d in child.decorator_list)
                if not overload and not ast.get_docstring(child):
                    missing.append(f"{path.relative_to(SOURCE)}:{child.lineno} {prefix}{child.name}")
                if isinstance(child, ast.ClassDef):
                    visit(child, f"{prefix}{child.name}.")

    visit(ast.parse(path.read_text(encoding="utf-8")), "")
    return missing


def test_every_public_function_and_class_has_a_docstring():
    modules = [
        path
        for path in SOURCE.rglob("*.py")
        if not any(part.startswith("_") and part != "__init__.py" for part in path.relative_to(SOURCE).parts)
    ]
    missing = [name for path in sorted(modules) for name in _undocumented(path)]
    assert missing == []


def _field_docstrings(cls: type) -> dict[str, str]:
    """Attribute docstrings: a string literal right below a field of the class body."""
    body = ast.parse(inspect.getsource(cls)).body[0].body  # type: ignore[attr-defined]
    docs = {}
    for field, after in zip(body, body[1:], strict=False):
        if isinstance(field, ast.AnnAssign) and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant):
            docs[field.target.id] = after.value.value  # type: ignore[union-attr]
    return docs


@pytest.mark.parametrize(
    "cls",
    [
        SearchResult,
        SearchStats,
        MoveValue,
        SearchTrace,
        TraceNode,
        SolveResult,
        GameRecord,
        RecordedMove,
        PlayerInfo,
        BookEntry,
    ],
    ids=lambda cls: cls.__name__,
)
def test_every_field_of_a_result_says_what_it_holds(cls):
    documented = _field_docstrings(cls)
    assert [f.name for f in dataclasses.fields(cls) if not documented.get(f.name, "").strip()] == []


@pytest.mark.parametrize(
    "module",
    [
        "kalah.rules.position",
        "kalah.rules.pov",
        "kalah.rules.outcome",
        "kalah.kgp.wire",
        "kalah.search.options",
        "kalah.search.result",
        "kalah.search.mcts_trace",
        "kalah.analysis.result",
        "kalah.review.classes",
        "kalah.solve.solving",
        "kalah.book.entry",
    ],
)
def test_the_docstring_examples_run(module):
    failures, tried = doctest.testmod(
        importlib.import_module(module), extraglobs={"kalah": kalah}, optionflags=doctest.ELLIPSIS
    )
    assert tried > 0 and failures == 0


#: The public API of layers 1 to 3 and the records: a function there that raises says what, and when.
RAISING_API = ("rules", "search", "solve", "endgame", "book", "records")


def _raised(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    """The exceptions a function raises itself (not a bare re-raise, not an internal AssertionError)."""
    names = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Raise) and node.exc is not None:
            raised = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            names.add(getattr(raised, "id", getattr(raised, "attr", "?")))
    return names - {"AssertionError", "NotImplementedError"}


def _silent_raisers(path: Path) -> list[str]:
    found = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef) and not child.name.startswith("_"):
                visit(child, f"{prefix}{child.name}.")
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) and not child.name.startswith("_"):
                if _raised(child) and "Raises:" not in (ast.get_docstring(child) or ""):
                    found.append(
                        f"{path.relative_to(SOURCE)}:{child.lineno} {prefix}{child.name} {sorted(_raised(child))}"
                    )

    visit(ast.parse(path.read_text(encoding="utf-8")), "")
    return found


def test_every_public_function_that_raises_says_what_in_a_raises_section():
    modules = [
        path
        for package in RAISING_API
        for path in sorted((SOURCE / package).rglob("*.py"))
        if not any(part.startswith("_") and part != "__init__.py" for part in path.relative_to(SOURCE).parts)
    ]
    silent = [name for path in modules for name in _silent_raisers(path)]
    assert silent == []


@pytest.mark.parametrize("function", [kalah.search, kalah.solve, kalah.Position.play, kalah.Position.from_json])
def test_the_main_entry_points_name_their_errors(function):
    assert "Raises:" in (function.__doc__ or "")
