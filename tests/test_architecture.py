"""The layers of DEVELOPING.md hold: every import (also inside functions) points down the table, and no package imports itself back."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parents[1] / "src" / "kalah"

# Rank of each package: a module may import its own package and packages of a
# lower rank only. Inside a layer, the order of DEVELOPING.md (e.g. players
# before match before records) decides.
RANK = {
    "version": 0.0,
    "atomic": 0.0,
    "rules": 1.0,
    "core": 2.0,
    "search": 3.0,
    "endgame": 3.1,
    "solve": 3.2,
    "book": 3.3,
    "analysis": 3.4,
    "players": 4.0,
    "match": 4.1,
    "records": 4.2,
    "arena": 4.3,
    "mankalah": 4.3,
    "review": 4.3,
    "puzzles": 4.4,
    "kgp": 4.4,
    "web": 5.0,
    "notebook": 5.0,
    "rl": 5.0,
    "classroom": 5.05,
    "cli": 5.1,
    "__main__": 5.2,  # python -m kalah: the command line
}
FACES = {"cli", "web", "notebook", "rl", "classroom", "__main__"}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SOURCE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _import_statements(path: Path) -> Iterator[tuple[str, list[str] | None]]:
    """Every import of the file, at the top or inside a function, or named to importlib: (the module it
    names, made absolute; the names it takes from it, None for ``import x`` and importlib)."""
    name = _module_name(path)
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, None
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1] + ([node.module] if node.module else []))
            yield base, [alias.name for alias in node.names]
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", getattr(node.func, "id", None)) in ("import_module", "__import__")
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            yield str(node.args[0].value), None


def _imports(path: Path) -> set[str]:
    """Every kalah module the file imports, at the top or inside a function, or names to importlib."""
    found: set[str] = set()
    for base, names in _import_statements(path):
        if names is None:
            found.add(base)
        else:  # `from kalah import search` imports the subpackage kalah.search
            found.update(f"{base}.{n}" if base == "kalah" and _is_package_part(n) else base for n in names)
    return {module for module in found if module == "kalah" or module.startswith("kalah.")}


def _is_package_part(name: str) -> bool:
    return (SOURCE / name).is_dir() or (SOURCE / f"{name}.py").is_file()


def _package(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else None  # None: the package root


MODULES = sorted(SOURCE.rglob("*.py"))


def test_the_table_names_every_package():
    packages = {path.relative_to(SOURCE).parts[0].removesuffix(".py") for path in MODULES} - {"__init__"}
    assert packages == set(RANK)


@pytest.mark.parametrize("path", MODULES, ids=lambda path: str(path.relative_to(SOURCE)))
def test_imports_point_down_the_layers(path: Path):
    own = _package(_module_name(path))
    for module in _imports(path):
        target = _package(module)
        if own is None:  # the package root gathers the public API of layers 1 to 3, never a face
            assert target is not None and target not in FACES and RANK[target] < 4, module
        else:
            if target is None:  # the root imports every layer up to 3: below the faces, it would be a cycle
                assert own in FACES, f"{_module_name(path)} imports the package root; name the module instead"
                continue
            assert target == own or RANK[target] < RANK[own], f"{_module_name(path)} imports {module}"


def test_importing_the_rules_loads_no_higher_layer():
    import subprocess
    import sys

    code = (
        "import sys, kalah.rules; print(' '.join(sorted({m.split('.')[1] for m in sys.modules "
        "if m.startswith('kalah.') and m.count('.') >= 1})))"
    )
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    # the root imports the public API of layers 1 to 3 (kalah.search, kalah.solve), nothing above
    assert all(RANK[package] < 4 for package in loaded), loaded


def test_players_above_the_players_package_come_through_entry_points():
    import tomllib

    project = tomllib.loads((SOURCE.parents[1] / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    entries = project["entry-points"]["kalah.players"]
    for module in entries.values():
        assert RANK[_package(module)] > RANK["players"], module  # registered from above, never imported by players
        assert (SOURCE.parent / (module.replace(".", "/") + ".py")).is_file(), module

    from kalah.players import player_types

    assert set(entries) <= set(player_types())  # the installed metadata lists them (else: pip install -e .)


def test_a_missing_entry_point_player_names_the_fix(monkeypatch):
    from kalah.players import PlayerSpecError, spec

    spec.player_types()
    monkeypatch.delitem(spec._TYPES, "exec")  # as if the installed metadata predated the entry point
    with pytest.raises(PlayerSpecError, match="pip install -e"):
        spec.make_player("exec:true")


# Import cycles between modules left to break. Every cycle fails the test: two modules that need each
# other talk through a Protocol (rules.svg's DrawnPosition, the class server's Scheduler).
KNOWN_CYCLES: list[set[str]] = []


def _resolved(module: str) -> str | None:
    """The module of the tree a name imports: itself, or the package or module that holds it
    (``kalah.kgp.Board``: ``kalah.kgp``); compiled modules count by their ``.pyx``."""
    while module:
        where = SOURCE.parent / Path(*module.split("."))
        if any(where.with_suffix(suffix).is_file() for suffix in (".py", ".pyx")) or (where / "__init__.py").is_file():
            return module
        module = module.rpartition(".")[0]
    return None


def _module_imports(path: Path) -> set[str]:
    """The modules of the tree that ``path`` imports (``from . import games``: the module games)."""
    name = _module_name(path)
    found: set[str] = set()
    for base, names in _import_statements(path):
        if names is None:
            found.add(base)
        for alias in names or ():
            submodule = f"{base}.{alias}"
            found.add(submodule if _resolved(submodule) == submodule else base)
    resolved = {_resolved(module) for module in found if module == "kalah" or module.startswith("kalah.")}
    return {module for module in resolved if module is not None and module != name}


def _cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[set[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in graph:
                    continue
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(component)
    return found


def test_the_cycle_finder_finds_cycles():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert _cycles(graph) == [{"a", "b", "c"}]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle_between_modules():
    """Imports made only for type checking count: they are what holds one module to another."""
    graph = {_module_name(path): _module_imports(path) for path in MODULES}
    cycles = [cycle for cycle in _cycles(graph) if cycle not in KNOWN_CYCLES]
    assert not cycles, "import cycles: " + "; ".join(" <-> ".join(sorted(cycle)) for cycle in cycles)
