"""The notebook's widgets load the page's own ES modules (kalah.notebook.modules), not a copy of their text.

A module the widget needs that cannot be loaded fails here: a missing file, a bare import or a cycle when the
widget's module is made, a module that breaks when it runs in Chromium. A new import in the lab's tree comes
along by itself."""

from __future__ import annotations

import base64
import json
import re
import shutil
from pathlib import Path

import pytest

import kalah
from kalah import Position, Variant
from kalah.notebook.modules import ModuleLoadError, module_graph
from test_web_browser import CHROMIUM, browser  # noqa: F401  (the shared fixture)

pytest.importorskip("anywidget")

PACKAGE = Path(kalah.__file__).resolve().parent
LAB = PACKAGE / "web" / "static" / "lab"
TRACE_VIEW = PACKAGE / "notebook" / "static" / "trace_view.js"
DATA_URL = re.compile(r"data:text/javascript;base64,([A-Za-z0-9+/=]+)")


def modules_in(esm: str) -> list[str]:
    """The texts of the modules that `esm` imports through data: URLs, all the way down, each once."""
    found: list[str] = []
    for encoded in DATA_URL.findall(esm):
        text = base64.b64decode(encoded).decode("utf-8")
        for module in (text, *modules_in(text)):
            if module not in found:
                found.append(module)
    return found


def without_specifiers(text: str) -> str:
    return re.sub(r'from "[^"]+"', 'from ""', DATA_URL.sub("", text))


def test_the_trace_widget_is_the_labs_own_modules_with_only_their_specifiers_changed():
    esm = module_graph(TRACE_VIEW)
    assert without_specifiers(esm) == without_specifiers(TRACE_VIEW.read_text(encoding="utf-8"))
    loaded = {without_specifiers(text) for text in modules_in(esm)}
    # trace_view.js imports trace.js and tree.js; tree.js imports layout.js, trace.js (one module, reached twice)
    # and the page's svg.js (its one SVG helper)
    assert loaded == {
        without_specifiers((LAB / name).read_text(encoding="utf-8")) for name in ("trace.js", "tree.js", "layout.js")
    } | {without_specifiers((LAB.parent / "svg.js").read_text(encoding="utf-8"))}
    assert len(modules_in(esm)) == 4


@pytest.fixture()
def lab_copy(tmp_path):
    """The package's notebook and lab modules (and the page's svg.js, which the lab's tree imports) copied to a
    temporary tree of the same shape."""
    root = tmp_path / "kalah"
    shutil.copytree(LAB, root / "web" / "static" / "lab")
    shutil.copy(LAB.parent / "svg.js", root / "web" / "static" / "svg.js")
    shutil.copytree(TRACE_VIEW.parent, root / "notebook" / "static")
    return root


def add_import(root: Path, line: str) -> None:
    tree = root / "web" / "static" / "lab" / "tree.js"
    text = tree.read_text(encoding="utf-8")
    first = text.index("\nimport ")
    tree.write_text(text[: first + 1] + line + "\n" + text[first + 1 :], encoding="utf-8")


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('import { helper } from "./missing.js";', r"tree\.js imports \./missing\.js, and there is no .*missing\.js"),
        ('import { render } from "lit-html";', r"tree\.js imports 'lit-html'"),
        ('import "./side-effect.js";', r"there is no .*side-effect\.js"),
        ('import { TreeView } from "./tree.js";', r"cycle \(trace_view\.js -> tree\.js -> tree\.js\)"),
    ],
)
def test_an_import_that_cannot_be_loaded_fails_when_the_widget_module_is_made(lab_copy, line, message):
    add_import(lab_copy, line)
    with pytest.raises(ModuleLoadError, match=message):
        module_graph(lab_copy / "notebook" / "static" / "trace_view.js")


def test_the_graph_also_follows_imports_spread_over_lines_and_re_exports(tmp_path):
    (tmp_path / "a.js").write_text(
        "import {\n  b,\n  c as see,\n} from \"./sub/b.js\";\nexport { d } from './sub/b.js';\n"
        '/** @typedef {import("./not-a-static-import.js").T} T */\nexport default { b, see };\n'
    )
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.js").write_text("export const b = 1, c = 2, d = 3;\n")
    esm = module_graph(tmp_path / "a.js")
    assert 'import("./not-a-static-import.js")' in esm and len(DATA_URL.findall(esm)) == 2
    assert modules_in(esm) == ["export const b = 1, c = 2, d = 3;\n"]


HARNESS = """<!doctype html><html><body><div id="out"></div><script type="module">
const state = %(state)s;
const model = { get: (key) => state[key], set() {}, save_changes() {}, send() {}, on() {} };
const url = URL.createObjectURL(new Blob([%(esm)s], { type: "text/javascript" }));
try {
  const widget = (await import(url)).default;
  widget.render({ model, el: document.getElementById("out") });
  window.loaded = "yes";
} catch (error) { window.loaded = String(error); }
</script></body></html>"""


def run_in_chromium(browser, esm: str) -> tuple[object, object]:  # noqa: F811
    """Load `esm` as the trace widget in Chromium, as anywidget does (from a blob: URL); what happened."""
    trace = kalah.trace(Position.start(Variant(4, 3)), "alphabeta", 2, evaluation="store")
    widget = kalah.notebook.show_trace(trace)
    page = browser.new_page(viewport={"width": 900, "height": 700})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.set_content(
        HARNESS % {"state": json.dumps({"trace": widget.trace, "facts": widget.facts}), "esm": json.dumps(esm)}
    )
    page.wait_for_function("window.loaded !== undefined")
    page.wait_for_timeout(200)
    outcome = page.evaluate("[window.loaded, document.querySelectorAll('[data-node-id]').length, window.extraSeen]")
    page.close()
    return outcome, errors


@pytest.mark.browser
@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"{CHROMIUM} is missing")
def test_a_new_import_in_the_labs_tree_comes_along_and_runs_in_chromium(browser, lab_copy):  # noqa: F811
    (lab_copy / "web" / "static" / "lab" / "extra.js").write_text('export const EXTRA = "from extra.js";\n')
    add_import(lab_copy, 'import { EXTRA } from "./extra.js";')
    tree = lab_copy / "web" / "static" / "lab" / "tree.js"
    tree.write_text(tree.read_text(encoding="utf-8") + "\nglobalThis.extraSeen = EXTRA;\n", encoding="utf-8")
    (loaded, nodes, seen), errors = run_in_chromium(
        browser, module_graph(lab_copy / "notebook" / "static" / "trace_view.js")
    )
    assert (loaded, seen, errors) == ("yes", "from extra.js", []) and nodes > 1


@pytest.mark.browser
@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"{CHROMIUM} is missing")
def test_a_module_that_breaks_when_loaded_breaks_the_widget_visibly(browser, lab_copy):  # noqa: F811
    # a name tree.js imports that its module does not export: the browser refuses to link the graph
    add_import(lab_copy, 'import { notThere } from "./trace.js";')
    (loaded, nodes, _), _ = run_in_chromium(browser, module_graph(lab_copy / "notebook" / "static" / "trace_view.js"))
    assert "notThere" in str(loaded) and nodes == 0
    # the package's own widget loads and draws
    (loaded, nodes, _), errors = run_in_chromium(browser, module_graph(TRACE_VIEW))
    assert loaded == "yes" and nodes > 1 and not errors
