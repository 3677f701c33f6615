"""The tutorial notebooks of docs/notebooks run from top to bottom (nbclient, the python3 kernel).

They run from a copy in a temporary directory, so the repository's notebooks
keep no outputs; a failing cell fails the test with the cell's error."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("anywidget")

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "docs" / "notebooks").glob("*.ipynb"))


#: The tutorials that train networks: they need the rl extra too.
LEARNING = ("learn.ipynb", "selfplay.ipynb")


def test_there_are_tutorials():
    assert {path.stem for path in NOTEBOOKS} >= {"play", "compare", "learn", "selfplay"}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem)
def test_the_notebook_runs_from_top_to_bottom(path, tmp_path, monkeypatch):
    if path.name in LEARNING:
        pytest.importorskip("gymnasium")
    # the learning tutorials train for seconds and play a few games instead of minutes (their first cells read it)
    monkeypatch.setenv("KALAH_TUTORIAL_QUICK", "1")
    copy = tmp_path / path.name
    shutil.copy(path, copy)
    notebook = nbformat.read(copy, as_version=4)
    assert not any(cell.get("outputs") for cell in notebook.cells if cell.cell_type == "code"), (
        f"{path.name} is stored with outputs; clear them"
    )
    nbclient.NotebookClient(
        notebook, timeout=180, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    ).execute()
    errors = [output for cell in notebook.cells for output in cell.get("outputs", []) if output.output_type == "error"]
    assert not errors
    shown = [
        output
        for cell in notebook.cells
        for output in cell.get("outputs", [])
        if output.output_type in ("display_data", "execute_result")
    ]
    widgets = [o for o in shown if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
    assert widgets, "the notebook shows its widgets"


def test_the_notebook_extra_brings_what_the_tutorials_need():
    """`pip install 'kalah[notebook]'` is enough to run the tutorials (issue 32, item 7): a kernel, the
    runner of `jupyter execute`, and every package a tutorial imports."""
    import json
    import re
    import sys
    import tomllib

    project = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text())["project"]

    def provided_by(*extras: str) -> set[str]:
        requirements = project["dependencies"] + [
            r for extra in extras for r in project["optional-dependencies"][extra]
        ]
        return {re.split(r"[<>=\[ ]", requirement)[0].lower().replace("-", "_") for requirement in requirements}

    assert {"anywidget", "ipykernel", "nbclient"} <= provided_by("notebook")
    for path in NOTEBOOKS:
        # The learning tutorials say they need the rl extra too (their first cells), the others only notebook.
        extras = ("notebook", "rl") if path.name in LEARNING else ("notebook",)
        # selfplay.ipynb trains with PyTorch where it is installed and with NumPy where it is not
        optional = {"torch"} if path.name == "selfplay.ipynb" else set()
        provided = provided_by(*extras)
        cells = json.loads(path.read_text())["cells"]
        code = "\n".join("".join(cell["source"]) for cell in cells if cell["cell_type"] == "code")
        for module in re.findall(r"^\s*(?:from|import)\s+(\w+)", code, re.M):
            if module != "kalah" and module not in sys.stdlib_module_names and module not in optional:
                assert module in provided, (
                    f"{path.name} imports {module}, which kalah[{','.join(extras)}] does not install"
                )
