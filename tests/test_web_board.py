"""The board as a component (web/static/board.js's createBoard): two boards on one page, in Chromium.

Each board keeps its own drawing, orientation, size and gradient ids, and reports clicks through its own
callback; a move played and animated on one leaves the other as it was."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from kalah import Position, Variant
from kalah.web.gamestate import effect_out as _effect
from test_web_browser import ARTIFACTS, browser, server  # noqa: F401  (the shared fixtures)

pytestmark = pytest.mark.browser

TWO_BOARDS = """<!doctype html><html><head><meta charset="utf-8">
<link rel="stylesheet" href="/static/style.css">
<style>body { background: #f6efe3; } .pair { display: flex; gap: 16px; } .pair > div { width: 600px; }</style>
</head><body><div class="pair"><div id="wrap-a"><svg id="a" class="board"></svg></div>
<div id="wrap-b"><svg id="b" class="board"></svg></div></div>
<script type="module">
import { createBoard } from "/static/board.js";
import { STYLE } from "/static/style.js";
window.clicks = [];
window.banners = [];
const make = (id) => createBoard(document.getElementById(id), {
  style: STYLE, animMs: () => 15, onPit: (pit) => window.clicks.push([id, pit]),
  onBanner: (text) => window.banners.push([id, text]),
});
window.boards = { a: make("a"), b: make("b") };
window.ready = true;
</script></body></html>"""


def seeds(page, board_id: str) -> list[list[int]]:
    """The board `board_id` as its data attributes tell it: two rows of pits and a store."""
    return page.evaluate(
        """(id) => {
        const svg = document.getElementById(id), m = Number(svg.dataset.pits), rows = [[], []];
        for (const p of [0, 1]) {
          for (let i = 0; i < m; i++) rows[p].push(Number(svg.querySelector(`[data-pit="${p}-${i}"]`).dataset.seeds));
          rows[p].push(Number(svg.querySelector(`[data-store="${p}"]`).dataset.seeds));
        }
        return rows;
    }""",
        board_id,
    )


def draw(page, board_id: str, position: Position, bottom: int) -> None:
    page.evaluate(
        "([id, board, toMove, legal, bottom]) => { window.boards[id].setBottom(bottom);"
        " window.boards[id].draw(board, toMove, false, { legal }); }",
        [board_id, position.board, position.to_move, position.legal_moves(), bottom],
    )


@pytest.fixture()
def two_boards(browser, server):  # noqa: F811
    context = browser.new_context(viewport={"width": 1280, "height": 700})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    url = server["url"] + "/two-boards-test"
    page.route(url, lambda route: route.fulfill(status=200, content_type="text/html", body=TWO_BOARDS))
    page.goto(url)
    page.wait_for_function("window.ready === true")
    yield page
    context.close()
    assert not errors, f"JavaScript errors: {errors}"


def test_two_boards_on_one_page_and_a_move_on_one_leaves_the_other_alone(two_boards):
    page = two_boards
    start = Position.start(Variant(6, 4))
    other = Position.start(Variant(4, 3)).play(0)
    draw(page, "a", start, 0)
    draw(page, "b", other, 1)
    assert seeds(page, "a") == start.board and seeds(page, "b") == other.board
    assert page.get_attribute("#a", "data-bottom") == "0" and page.get_attribute("#b", "data-bottom") == "1"
    b_before = page.inner_html("#b")

    # Each board has its own gradients: every url(#...) of a board names an element inside it.
    assert page.evaluate("""() => ['a', 'b'].every((id) => {
        const svg = document.getElementById(id);
        return [...svg.querySelectorAll('[fill^="url(#"], [filter^="url(#"]')].every((node) => {
          const ref = (node.getAttribute('fill') || '').startsWith('url(#') ? node.getAttribute('fill') : node.getAttribute('filter');
          const target = document.getElementById(ref.slice(5, -1));
          return target !== null && svg.contains(target);
        });
    })""")

    # A click is reported by the board clicked, with its pit.
    page.click('#a [data-pit="0-2"]')
    page.click('#b [data-pit="1-1"]')
    assert page.evaluate("window.clicks") == [["a", 2], ["b", 1]]

    # Play C on board a: it animates seed by seed (an extra turn) and ends on the position after it.
    after, _ = start.play_explained(2)
    effect = _effect(1, start, 2).model_dump(mode="json")  # the EffectOut the API sends
    page.evaluate(
        "([effect, board, toMove, legal]) => window.boards.a.animate(effect, board, toMove, false, { legal })",
        [json.loads(json.dumps(effect)), after.board, after.to_move, after.legal_moves()],
    )
    assert seeds(page, "a") == after.board and page.get_attribute("#a", "data-to-move") == str(after.to_move)
    assert page.evaluate("window.banners") == [["a", "Extra turn!"]]
    assert page.locator("#a .pit.origin").count() == 1 and page.locator("#a .sown").count() == len(effect["sown"])
    assert page.inner_html("#b") == b_before

    # Each board follows its own width: board a shown narrow is drawn again (taller, for its labels); b is not.
    view_a = page.get_attribute("#a", "viewBox")
    page.evaluate("document.getElementById('wrap-a').style.width = '300px'")
    page.wait_for_function(f"document.getElementById('a').getAttribute('viewBox') !== {json.dumps(view_a)}")
    assert seeds(page, "a") == after.board and page.inner_html("#b") == b_before
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "two-boards.png"))


def test_the_board_component_imports_no_page_module():
    """board.js and what it imports know nothing of a page: no state, no views, no page wiring."""
    static = Path(__file__).resolve().parents[1] / "src" / "kalah" / "web" / "static"
    seen: set[str] = set()
    todo = ["board.js"]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            text = (static / name).read_text(encoding="utf-8")
            todo += re.findall(r'^import [^;]*? from "\./([\w.]+)";', text, re.M)
    assert seen == {"board.js", "anim.js", "geometry.js", "upright.js", "dom.js", "svg.js"}
    assert not re.search(r"^(let|var) ", (static / "board.js").read_text(encoding="utf-8"), re.M)  # no module state


def test_a_drawing_changes_only_what_differs(two_boards):
    """A move one on touches the pits it sowed and nothing else: the gradients, the wood and every other pit's
    elements stay the very same nodes (board.js rebuilt the whole SVG, filters and all, for every seed drawn)."""
    page = two_boards
    start = Position.start(Variant(6, 4))
    after = start.play(2)  # C: sows D, E, F and the store
    draw(page, "a", start, 0)
    page.evaluate("""() => {
        const svg = document.getElementById('a');
        window.kept = { defs: svg.querySelector('defs'), wood: svg.querySelector('.wood'),
                        a: svg.querySelector('[data-pit="0-0"] ellipse'), f: svg.querySelector('[data-pit="1-5"] ellipse') };
        window.touched = new Set();
        new MutationObserver((records) => { for (const r of records) {
            const owner = (r.target.closest && r.target.closest('[data-pit], [data-store]')) || r.target;
            const hook = owner.dataset ? (owner.dataset.pit ? 'pit ' + owner.dataset.pit
                : owner.dataset.store ? 'store ' + owner.dataset.store : owner.tagName) : owner.nodeName;
            if (r.type === 'childList') window.touched.add(hook);
        } }).observe(svg, { childList: true, subtree: true });
    }""")
    draw(page, "a", after, 0)
    same = page.evaluate("""() => { const svg = document.getElementById('a');
        return { defs: svg.querySelector('defs') === window.kept.defs, wood: svg.querySelector('.wood') === window.kept.wood,
                 a: svg.querySelector('[data-pit="0-0"] ellipse') === window.kept.a,
                 f: svg.querySelector('[data-pit="1-5"] ellipse') === window.kept.f,
                 touched: [...window.touched].sort() }; }""")
    assert same["defs"] and same["wood"] and same["a"] and same["f"]
    assert same["touched"] == ["pit 0-2", "pit 0-3", "pit 0-4", "pit 0-5", "store 0"]
    assert seeds(page, "a") == after.board
    # a pit left with one seed says so in words a screen reader reads right
    assert page.get_attribute('#a [data-pit="1-0"]', "aria-label") == "pit a, 4 seeds"
    one = Position([[1, 0, 0, 0, 0, 0, 23], [0, 0, 0, 0, 0, 1, 23]], 0)
    draw(page, "a", one, 0)
    assert page.get_attribute('#a [data-pit="0-0"]', "aria-label") == "pit A, 1 seed"
    assert page.get_attribute('#a [data-pit="0-0"]', "role") == "button"
    assert page.get_attribute('#a [data-pit="1-5"]', "role") == "img"
