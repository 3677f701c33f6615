"""The import graph of src/kalah against the layer table of DEVELOPING.md.

Every module is parsed with :mod:`ast`, so imports inside functions (lazy
imports) count the same as those at the top of a file.
"""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "kalah"

# The rank of each package; a package may import only packages of lower rank.
# Layer 4 is ordered inside itself: players < match < records < arena, mankalah.
RANK = {
    "rules": 1,
    "core": 2,
    "search": 3.0,
    "endgame": 3.0,
    "solve": 3.1,  # the solver uses the endgame database
    "players": 4.0,
    "match": 4.1,
    "records": 4.2,
    "arena": 4.3,
    "mankalah": 4.3,
    "cli": 5.1,  # the command line starts the web service (kalah serve)
    "web": 5,
    "notebook": 5,
}
# The package root (kalah/__init__.py) re-exports the library's main names: it may
# import layers 1-3 and nothing above them.
ROOT_MAY_IMPORT = {"rules", "core", "search", "endgame", "solve"}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path, module: str | None = None) -> list[tuple[str, int]]:
    """Every kalah module the file imports (absolute names), with the line, anywhere in the file."""
    module = module or _module_name(path)
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            found.append((target, node.lineno))
            # ``from kalah import solve`` imports the package kalah.solve
            found += [(f"{target}.{alias.name}", node.lineno) for alias in node.names]
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in (
            "import_module",
            "__import__",
        ):
            if node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                found.append((node.args[0].value, node.lineno))
    return [(name, line) for name, line in found if name == "kalah" or name.startswith("kalah.")]


def _package_of(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "kalah"


def _edges() -> dict[tuple[str, str], list[str]]:
    """Package-level import edges, each with the places that make it."""
    edges: dict[tuple[str, str], list[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        source = _package_of(_module_name(path))
        for target_module, line in _imports(path):
            target = _package_of(target_module)
            if target in RANK or target == "kalah":
                if target != source and not (target == "kalah" and target_module in ("kalah", "kalah.__version__")):
                    edges.setdefault((source, target), []).append(f"{path.relative_to(PACKAGE.parent)}:{line}")
    return edges


def test_every_package_has_a_layer():
    packages = {path.name for path in PACKAGE.iterdir() if (path / "__init__.py").exists()}
    assert packages == set(RANK)


def test_the_import_parser_sees_lazy_and_relative_imports(tmp_path):
    sample = PACKAGE / "players" / "spec.py"  # imports kalah.rules at the top and .base relatively
    names = {name for name, _ in _imports(sample)}
    assert "kalah.rules" in names and "kalah.players.base" in names
    lazy = tmp_path / "lazy.py"
    lazy.write_text("def f():\n    from kalah.web import app\n    import importlib\n    importlib.import_module('kalah.cli')\n")
    assert {name for name, _ in _imports(lazy, 'kalah.players.lazy')} >= {"kalah.web", "kalah.web.app", "kalah.cli"}


@pytest.mark.parametrize("source", sorted(RANK))
def test_a_package_imports_only_lower_layers(source):
    upward = {
        target: places
        for (origin, target), places in _edges().items()
        if origin == source and target != "kalah" and RANK[target] >= RANK[source]
    }
    assert upward == {}, f"{source} imports from its own layer or above: {upward}"


def test_the_package_root_imports_no_play_layer_or_face():
    too_high = {target: places for (origin, target), places in _edges().items()
                if origin == "kalah" and target not in ROOT_MAY_IMPORT}
    assert too_high == {}


def test_there_are_no_package_cycles():
    graph: dict[str, set[str]] = {}
    for origin, target in _edges():
        graph.setdefault(origin, set()).add(target)
    try:
        list(TopologicalSorter(graph).static_order())
    except CycleError as error:
        pytest.fail(f"import cycle between packages: {error.args[1]}")


def test_players_defined_above_the_players_package_come_through_entry_points():
    import tomllib

    project = tomllib.loads((PACKAGE.parent.parent / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    entries = project["entry-points"]["kalah.players"]
    assert set(entries) == {"replay", "exec"}
    for module in entries.values():
        assert RANK[_package_of(module)] > RANK["players"]
        assert (PACKAGE.parent / (module.replace(".", "/") + ".py")).exists()


def test_the_installed_registry_finds_the_entry_point_players():
    from kalah.players import player_types

    assert {"replay", "exec"} <= set(player_types())
