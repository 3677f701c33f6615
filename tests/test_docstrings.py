"""The documented API: result fields carry attribute docstrings, and the examples in docstrings run."""

from __future__ import annotations

import ast
import doctest
import importlib
import inspect
import sys

import pytest

DOCUMENTED_FIELDS = [
    ("kalah.search", "SearchResult"),
    ("kalah.search", "SearchStats"),
    ("kalah.search", "MoveValue"),
    ("kalah.solve", "SolveResult"),
    ("kalah.records.record", "GameRecord"),
    ("kalah.records.record", "PlayerInfo"),
    ("kalah.records.record", "RecordedMove"),
]


def _module(name: str):
    importlib.import_module(name)
    return sys.modules[name]  # kalah.search the module, not the function the package exports


@pytest.mark.parametrize("module, name", DOCUMENTED_FIELDS)
def test_every_field_has_an_attribute_docstring(module, name):
    cls = getattr(_module(module), name)
    body = ast.parse(inspect.getsource(cls)).body[0].body
    undocumented = [
        statement.target.id
        for statement, following in zip(body, body[1:] + [None])
        if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name)
        and not (isinstance(following, ast.Expr) and isinstance(following.value, ast.Constant)
                 and isinstance(following.value.value, str))
    ]
    assert undocumented == []


@pytest.mark.parametrize("module", ["kalah.search", "kalah.solve", "kalah.rules.position", "kalah.rules.notation"])
def test_the_examples_in_docstrings_run(module):
    failed, attempted = doctest.testmod(_module(module))
    assert attempted > 0 and failed == 0
