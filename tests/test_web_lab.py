"""End-to-end tests of the lab page (/lab), in Debian's Chromium driven by Playwright.

The page draws the traces of the server's POST /api/trace (kalah.trace,
docs/trace.md); the tests ask the same route for the trace they expect.
Screenshots go to tests/artifacts/ and to pytest's tmp path.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from urllib.parse import quote

import pytest

from test_web_browser import ARTIFACTS, CHROMIUM, browser, server  # noqa: F401  (the shared fixtures)

#: Kalah(4,3) from the start: small trees (alpha-beta to depth 3 is 81 nodes).
POSITION = {
    "board": [[3, 3, 3, 3, 0], [3, 3, 3, 3, 0]],
    "to_move": 0,
    "variant": {"pits": 4, "seeds": 3, "empty_capture": False, "pie_rule": False},
}

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing (apt-get install chromium)"),
]


@pytest.fixture()
def lab(browser, server):  # noqa: F811
    """Pages of the lab; no JavaScript error may happen on any of them."""
    errors: list[str] = []
    contexts: list = []

    def open_page(width: int = 1280, height: int = 800):
        context = browser.new_context(viewport={"width": width, "height": height})
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        return page

    yield {"open": open_page}
    for context in contexts:
        context.close()
    assert not errors, f"JavaScript errors: {errors}"


def trace_of(server, position, algorithm, depth) -> dict:  # noqa: F811
    """The trace of the server's POST /api/trace, as the page asks for it."""
    import httpx

    body = {"position": position, "algorithm": algorithm, "depth": depth, "evaluation": "strong", "options": {}}
    answer = httpx.post(f"{server['url']}/api/trace", json=body, timeout=30)
    assert answer.status_code == 200, answer.text
    return answer.json()


def lab_url(server, position, algorithm, depth) -> str:  # noqa: F811
    return f"{server['url']}/lab?position={quote(json.dumps(position))}&algorithm={algorithm}&depth={depth}"


def save(page, tmp_path: Path, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    path = tmp_path / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    shutil.copy(path, ARTIFACTS / path.name)


def test_opens_from_url_and_counts_nodes_as_the_api(lab, server, tmp_path):  # noqa: F811
    position = POSITION
    trace = trace_of(server, position, "alphabeta", 3)
    page = lab["open"]()
    page.goto(lab_url(server, position, "alphabeta", 3))
    page.wait_for_selector('[data-node-id="0"][data-current="true"]')
    count = int(page.get_attribute("[data-node-count]", "data-node-count"))
    assert count == len(trace["nodes"]) == trace["result"]["nodes"]
    assert page.input_value("#algorithm") == "alphabeta" and page.input_value("#depth") == "3"
    page.click("#expand")
    assert page.locator("svg#tree [data-node-id]").count() == count
    for _ in range(9):
        page.click('[data-action="step"]')
    page.wait_for_selector('[data-node-id="9"][data-current="true"]')
    page.wait_for_selector("#board-caption:has-text('node 10')")
    save(page, tmp_path, "lab-1280")


def test_step_follows_the_visiting_order(lab, server):  # noqa: F811
    position = POSITION
    page = lab["open"]()
    page.goto(lab_url(server, position, "alphabeta", 3))
    page.wait_for_selector('[data-node-id="0"][data-current="true"]')
    count = int(page.get_attribute("[data-node-count]", "data-node-count"))
    for expected in range(1, min(count, 12)):
        page.click('[data-action="step"]')
        page.wait_for_selector(f'[data-node-id="{expected}"][data-current="true"]')
        assert page.locator('[data-current="true"]').count() == 1
    page.click('[data-action="back"]')
    page.wait_for_selector(f'[data-node-id="{min(count, 12) - 2}"][data-current="true"]')
    page.click('[data-action="end"]')
    page.wait_for_selector(f'[data-node-id="{count - 1}"][data-current="true"]')


def test_board_shows_the_position_at_the_current_node(lab, server):  # noqa: F811
    from kalah.rules import Position

    position = POSITION
    nodes = trace_of(server, position, "alphabeta", 3)["nodes"]
    page = lab["open"]()
    page.goto(lab_url(server, position, "alphabeta", 3))
    page.wait_for_selector('[data-node-id="0"][data-current="true"]')
    page.click('[data-action="step"]')
    page.click('[data-action="step"]')
    page.wait_for_selector('[data-node-id="2"][data-current="true"]')
    at = Position.from_dict(position)
    line = []
    node = nodes[2]
    while node["parent"] is not None:
        line.insert(0, node["move"])
        node = nodes[node["parent"]]
    for move in line:
        at = at.play(move)
    page.wait_for_selector("#board-caption:has-text('node 3')")
    seeds = page.eval_on_selector_all(
        "#board [data-pit]", "ps => Object.fromEntries(ps.map(p => [p.dataset.pit, Number(p.dataset.seeds)]))"
    )
    m = at.variant.pits
    assert seeds == {f"{p}-{i}": at.board[p][i] for p in (0, 1) for i in range(m)}


def test_editor_changes_the_position_and_the_url(lab, server):  # noqa: F811
    page = lab["open"]()
    page.goto(f"{server['url']}/lab")
    page.wait_for_selector("#board [data-pit]")
    page.check("#edit-mode")
    page.select_option("#pits", "3")
    page.select_option("#seeds", "2")
    page.click('#board [data-pit="0-1"]')
    page.click('#board [data-pit="1-0"]', modifiers=["Shift"])
    page.click('#board [data-store="0"]')
    board = json.loads(page.evaluate("new URLSearchParams(location.search).get('position')"))["board"]
    assert board == [[2, 3, 2, 1], [1, 2, 2, 0]]
    page.check("#empty-capture")
    page.click("#to-move")
    position = json.loads(page.evaluate("new URLSearchParams(location.search).get('position')"))
    assert position["variant"]["empty_capture"] and not position["variant"]["pie_rule"] and position["to_move"] == 1
    assert position["board"] == board


def test_phone_width_does_not_scroll_sideways(lab, server, tmp_path):  # noqa: F811
    position = POSITION
    page = lab["open"](390, 844)
    page.goto(lab_url(server, position, "alphabeta", 3))
    page.wait_for_selector('[data-node-id="0"][data-current="true"]')
    page.click('[data-action="step"]')
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    save(page, tmp_path, "lab-390")


def test_main_board_opens_its_position_in_the_lab(lab, server):  # noqa: F811
    page = lab["open"]()
    page.goto(f"{server['url']}/?anim=0")
    page.wait_for_selector('#board[data-busy="false"]')
    board = page.eval_on_selector_all(
        "#board [data-pit]", "ps => Object.fromEntries(ps.map(p => [p.dataset.pit, Number(p.dataset.seeds)]))"
    )
    href = page.get_attribute("#nav-lab", "href")
    assert href.startswith("/lab?") and page.get_attribute("#analysis ~ p a.lab-link", "href") == href
    page.click("#nav-lab")
    page.wait_for_url("**/lab?**")
    page.wait_for_selector('[data-node-id="0"][data-current="true"]')
    position = json.loads(page.evaluate("new URLSearchParams(location.search).get('position')"))
    m = len(position["board"][0]) - 1
    assert {f"{p}-{i}": position["board"][p][i] for p in (0, 1) for i in range(m)} == board and m >= 1


def test_a_large_trace_stays_usable(lab, server, tmp_path):  # noqa: F811
    """About 20,000 nodes (PVS to depth 8 from the start of Kalah(6,4)): the page draws a bounded part of the
    tree and steps anywhere in it."""
    position = {
        "board": [[4] * 6 + [0], [4] * 6 + [0]],
        "to_move": 0,
        "variant": {"pits": 6, "seeds": 4, "empty_capture": False, "pie_rule": False},
    }
    big = trace_of(server, position, "pvs", 8)
    assert len(big["nodes"]) >= 15000
    page = lab["open"]()
    page.goto(lab_url(server, position, "pvs", 8))
    page.wait_for_selector('[data-node-id="0"][data-current="true"]', timeout=30000)
    assert int(page.get_attribute("[data-node-count]", "data-node-count")) == len(big["nodes"])
    drawn = page.locator("svg#tree [data-node-id]").count()
    assert 1 < drawn <= 1500
    page.click('[data-action="end"]')
    last = len(big["nodes"]) - 1
    page.wait_for_selector(f'[data-node-id="{last}"][data-current="true"]')
    page.click("#expand")
    assert page.locator("svg#tree [data-node-id]").count() <= 1500 + 64
    page.wait_for_selector(f'[data-node-id="{last}"][data-current="true"]')
    page.click('[data-action="back"]')
    page.wait_for_selector(f'[data-node-id="{last - 1}"][data-current="true"]')
    save(page, tmp_path, "lab-large")


def test_loads_a_library_game_at_move_n_and_pasted_json(lab, server):  # noqa: F811
    import httpx

    from kalah.rules import Position

    game = httpx.post(
        f"{server['url']}/api/games", json={"players": ["human", "human"], "variant": {"pits": 5, "seeds": 3}}
    ).json()
    for move in (0, 4):
        game = httpx.post(
            f"{server['url']}/api/games/{game['id']}/moves", json={"move": move, "moves": game["moves"]}
        ).json()
    expected = Position.from_dict({"board": [[3] * 5 + [0], [3] * 5 + [0]], "to_move": 0}).play(0)
    page = lab["open"]()
    page.goto(f"{server['url']}/lab")
    page.wait_for_selector("#board [data-pit]")
    page.click("details.loaders summary")
    page.wait_for_selector(f'#game option[value="{game["id"]}"]', state="attached")
    page.select_option("#game", str(game["id"]))
    page.fill("#game-move", "1")
    page.click("#load-game")
    page.wait_for_selector('#board[data-pits="5"]')
    url_position = lambda: json.loads(page.evaluate("new URLSearchParams(location.search).get('position')"))  # noqa: E731
    assert url_position()["board"] == expected.board and url_position()["to_move"] == expected.to_move

    page.fill("#paste", '{"board": [[0, 5, 0], [2, 0, 9]], "to_move": 1}')
    page.click("#load-paste")
    page.wait_for_selector('#board[data-pits="2"][data-to-move="1"]')
    assert url_position()["board"] == [[0, 5, 0], [2, 0, 9]]
    page.fill("#paste", '{"board": [[1, 2]]}')
    page.click("#load-paste")
    page.wait_for_selector("#lab-status.error")


def test_side_by_side_counts_the_nodes_of_both(lab, server):  # noqa: F811
    position = POSITION
    page = lab["open"]()
    trace_both(page, server, position, 3)
    for algorithm in ("alphabeta", "pvs"):
        nodes = len(trace_of(server, position, algorithm, 3)["nodes"])
        row = page.locator(f'.compare-table tr[data-algorithm="{algorithm}"]').first
        assert row.locator("td").nth(1).inner_text().replace(",", "") == str(nodes)
    page.click("#run-chart")
    page.wait_for_selector("#lab-status:has-text('log scale')")
    assert page.locator("#chart polyline[data-series='mtdf']").count() == 2  # nodes and time


@pytest.mark.parametrize("width", [1280, 390])
def test_pit_letters_on_the_lab_board_are_readable(lab, server, width):  # noqa: F811
    page = lab["open"](width, 844)
    page.goto(lab_url(server, POSITION, "alphabeta", 3))
    page.wait_for_selector('[data-node-id="0"][data-current="true"]')
    # The board is drawn again once the server has answered for the node (the caption is set then): letters
    # read before it may be those of the drawing it replaces, detached (no style, no size).
    page.wait_for_selector("#board-caption:has-text('at the root')")
    letters = page.eval_on_selector_all(
        "#board .letter",
        """ls => ls.map(l => {
        const r = l.getBoundingClientRect();
        return {text: l.textContent, display: getComputedStyle(l).display, height: r.height, left: r.left, right: r.right};
    })""",
    )
    assert sorted(letter["text"] for letter in letters) == list("ABCDabcd")
    for letter in letters:
        assert (
            letter["display"] != "none" and letter["height"] >= 12 and 0 <= letter["left"] < letter["right"] <= width
        ), letter


def boxes_of(page, selector: str) -> list[dict]:
    return page.eval_on_selector_all(selector, "es => es.map(e => e.getBoundingClientRect().toJSON())")


def trace_both(page, server, position, depth):  # noqa: F811
    """Open the lab on alphabeta, press "Trace both" against pvs; the two trees."""
    page.goto(lab_url(server, position, "alphabeta", depth))
    page.wait_for_selector('[data-node-id="0"][data-current="true"]')
    page.select_option("#other", "pvs")
    page.click("#run-compare")
    page.wait_for_selector(".compare-table")
    return page.locator(".compare svg.tree")


def wait_for_move_names(page, tree) -> None:
    """Wait until ``tree`` names its moves by the side that made them (the server's tree facts came)."""
    page.wait_for_function(
        "svg => svg.querySelector('.node .move') && ![...svg.querySelectorAll('.node .move')]"
        ".some(t => t.textContent.startsWith('#'))",
        arg=tree.element_handle(),
    )


@pytest.mark.parametrize("width", [1280, 390])
def test_trace_both_draws_the_two_trees(lab, server, tmp_path, width):  # noqa: F811
    page = lab["open"](width, 844)
    trees = trace_both(page, server, POSITION, 3)
    assert trees.count() == 2
    for k, algorithm in enumerate(["alphabeta", "pvs"]):
        figure = page.locator(f'.compare-tree[data-algorithm="{algorithm}"]')
        assert figure.locator("svg.tree").count() == 1
        nodes = len(trace_of(server, POSITION, algorithm, 3)["nodes"])
        assert f"{nodes} nodes" in figure.locator("figcaption").inner_text()
        # the moves are named by the side that made them (the server's tree facts), as in the lab's own tree
        wait_for_move_names(page, trees.nth(k))
        assert trees.nth(k).locator(".node .box").count() > 1
    # the same search drawn the same way: each node the first tree shows is the lab's own tree's, named alike
    # (the overview opens less of it: what fits its box)
    drawn = (
        "svg => Object.fromEntries([...svg.querySelectorAll('[data-node-id]')].map(n => [n.dataset.nodeId,"
        " [...n.querySelectorAll('.move, .value, .window')].map(t => t.textContent).join(' ')]))"
    )
    own, first = page.eval_on_selector("svg#tree", drawn), trees.nth(0).evaluate(drawn)
    assert first and all(own.get(node) == text for node, text in first.items()), (own, first)
    first, second = boxes_of(page, ".compare svg.tree")
    if width >= 1000:  # side by side
        assert abs(first["top"] - second["top"]) < 1 and second["left"] >= first["right"]
    else:  # one above the other, each the width of the screen
        assert second["top"] >= first["bottom"] and first["width"] > 300
    assert max(first["right"], second["right"]) <= width
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    save(page, tmp_path, f"lab-compare-{width}")


def test_trace_both_opens_each_tree_on_its_last_iteration(lab, server):  # noqa: F811
    """A finished search too wide to show whole opens on its deepest iteration's root, and stays fitted when the
    server's tree facts widen it (Fit changes nothing afterwards)."""
    start = {
        "board": [[4] * 6 + [0], [4] * 6 + [0]],
        "to_move": 0,
        "variant": {"pits": 6, "seeds": 4, "empty_capture": False, "pie_rule": False},
    }
    page = lab["open"](1280, 844)
    trees = trace_both(page, server, start, 4)
    for k, algorithm in enumerate(["alphabeta", "pvs"]):
        tree = trees.nth(k)
        wait_for_move_names(page, tree)
        last_root = [node["id"] for node in trace_of(server, start, algorithm, 4)["nodes"] if node["parent"] is None][
            -1
        ]
        frame = tree.bounding_box()
        root = tree.locator(f'[data-node-id="{last_root}"]').first.bounding_box()
        assert frame["x"] <= root["x"] and root["x"] + root["width"] <= frame["x"] + frame["width"], (algorithm, root)
        opened = tree.get_attribute("viewBox")
        page.locator(f'.compare-tree[data-algorithm="{algorithm}"] [data-zoom=fit]').click()
        assert tree.get_attribute("viewBox") == opened


def test_a_depth_beyond_the_lab_and_a_trace_too_large_are_said_plainly(lab, server, tmp_path):  # noqa: F811
    """The lab cut depth 20 to 12 in silence, then showed "422: ... (max_nodes)" (issue 32, item 3)."""
    from kalah import Position

    page = lab["open"]()
    page.goto(lab_url(server, Position.start().to_dict(), "minimax", 20))
    page.wait_for_function("() => document.querySelector('#lab-status').classList.contains('error')", timeout=60_000)
    text = page.inner_text("#lab-status")
    save(page, tmp_path, "lab-too-large")
    assert "at most depth 12: depth 20 was lowered to 12" in text, text
    assert "more than 20,000 nodes, more than the lab shows: trace a smaller depth" in text, text
    assert "max_nodes" not in text and "422" not in text, text


#: The nodes a tree draws from node `from` on (a search's deepest iteration: the nodes after its root), and how many
#: of them lie wholly inside its box on the screen.
IN_SIGHT = """(svg, from = 0) => { const box = svg.getBoundingClientRect();
    const nodes = [...svg.querySelectorAll('[data-node-id]')].filter((n) => Number(n.dataset.nodeId) >= from)
        .map((n) => n.querySelector('.box'));
    const inside = nodes.filter((n) => { const r = n.getBoundingClientRect();
        return r.left >= box.left - 0.5 && r.right <= box.right + 0.5 && r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5; });
    return {drawn: nodes.length, inside: inside.length, viewBox: svg.getAttribute('viewBox'),
        scale: box.width / svg.viewBox.baseVal.width}; }"""


def test_trace_both_fits_each_tree_to_its_box_when_first_drawn(lab, server, tmp_path):  # noqa: F811
    """The trees showed a slice of themselves until Fit was pressed: now the whole tree is in its box at a legible
    size (the deepest iteration open as far as that allows), and Fit keeps it so, also after the box is resized."""
    page = lab["open"](1280, 844)
    trees = trace_both(page, server, POSITION, 3)
    for k in range(2):
        wait_for_move_names(page, trees.nth(k))
        trace = trace_of(server, POSITION, ["alphabeta", "pvs"][k], 3)
        last = [n["id"] for n in trace["nodes"] if n["parent"] is None][-1]
        # the deepest iteration is open, its root's children drawn, the whole tree in sight; alpha-beta's at a
        # legible size (PVS's re-searches make its root's row wider than the box at that size with the earlier
        # iterations beside it: it is drawn smaller, rather than cut at the box's edges)
        children = [n["id"] for n in trace["nodes"] if n["parent"] == last]
        assert all(trees.nth(k).locator(f'[data-node-id="{c}"]').count() == 1 for c in children)
        deepest = trees.nth(k).evaluate(IN_SIGHT, last)
        assert deepest["drawn"] > len(children) and deepest["inside"] == deepest["drawn"], deepest
        seen = trees.nth(k).evaluate(IN_SIGHT)
        assert (k == 1 or seen["scale"] >= 0.7 - 1e-6) and seen["inside"] == seen["drawn"], seen
        fitted = seen["viewBox"]
        page.locator(".compare-tree [data-zoom=fit]").nth(k).click()
        assert trees.nth(k).get_attribute("viewBox") == fitted  # Fit has nothing left to do
    save(page, tmp_path, "lab-compare-fitted")
    # a narrower window: the boxes shrink and the trees are fitted to them again
    first = trees.nth(0).get_attribute("viewBox")
    page.set_viewport_size({"width": 900, "height": 844})
    page.wait_for_function(
        "([svg, was]) => svg.getAttribute('viewBox') !== was", arg=[trees.nth(0).element_handle(), first]
    )
    for k in range(2):
        page.wait_for_function(
            f"() => {{ const s = document.querySelectorAll('.compare svg.tree')[{k}]; const r = s.getBoundingClientRect();"
            " return Math.abs(s.viewBox.baseVal.width / s.viewBox.baseVal.height - r.width / r.height) < 0.01; }"
        )
        before = trees.nth(k).get_attribute("viewBox")
        page.locator(".compare-tree [data-zoom=fit]").nth(k).click()
        assert trees.nth(k).get_attribute("viewBox") == before, k


#: Where a tree's drawing (its nodes, edges and cutoffs' moves) lies on the screen, and its box.
DRAWN = """svg => { const box = svg.getBoundingClientRect(), figure = svg.closest('figure').getBoundingClientRect();
    const parts = [...svg.querySelectorAll('g.nodes > *, g.edges > *')].map((e) => e.getBoundingClientRect());
    const drawn = {left: Math.min(...parts.map((r) => r.left)), right: Math.max(...parts.map((r) => r.right)),
        top: Math.min(...parts.map((r) => r.top)), bottom: Math.max(...parts.map((r) => r.bottom))};
    return {box: box.toJSON(), figure: figure.toJSON(), drawn, parts: parts.length}; }"""


@pytest.mark.parametrize("width", [1280, 390])
def test_trace_both_draws_a_wide_tree_whole_inside_its_box(lab, server, tmp_path, width):  # noqa: F811
    """PVS on Kalah(6,4) with its re-searches at the root beside the earlier iterations was wider than its box:
    the tree was cut at both edges, the earlier iterations out of sight. Each tree is drawn whole inside its box."""
    start = {
        "board": [[4] * 6 + [0], [4] * 6 + [0]],
        "to_move": 0,
        "variant": {"pits": 6, "seeds": 4, "empty_capture": False, "pie_rule": False},
    }
    page = lab["open"](width, 844)
    trees = trace_both(page, server, start, 4)
    for k in range(2):
        wait_for_move_names(page, trees.nth(k))
    for k, algorithm in enumerate(["alphabeta", "pvs"]):
        seen = trees.nth(k).evaluate(DRAWN)
        box, figure, drawn = seen["box"], seen["figure"], seen["drawn"]
        assert seen["parts"] > 10, seen
        assert figure["left"] - 0.5 <= box["left"] and box["right"] <= figure["right"] + 0.5, (algorithm, seen)
        assert box["left"] - 0.5 <= drawn["left"] and drawn["right"] <= box["right"] + 0.5, (algorithm, seen)
        assert box["top"] - 0.5 <= drawn["top"] and drawn["bottom"] <= box["bottom"] + 0.5, (algorithm, seen)
        roots = [node["id"] for node in trace_of(server, start, algorithm, 4)["nodes"] if node["parent"] is None]
        assert all(trees.nth(k).locator(f'[data-node-id="{root}"]').count() == 1 for root in roots)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    save(page, tmp_path, f"lab-compare-wide-{width}")
    # the lab's own tree is no overview: it keeps its legible size and follows the current node
    own = page.locator("svg#tree")
    assert own.evaluate("svg => svg.getBoundingClientRect().width / svg.viewBox.baseVal.width") >= 0.7 - 1e-6


def test_a_tree_drawn_before_its_box_is_laid_out_is_fitted_when_it_is(lab, server):  # noqa: F811
    """A tree loaded into a box without a size fitted a viewBox of a pixel, blank until Fit was pressed."""
    page = lab["open"](1280, 844)
    page.goto(f"{server['url']}/lab")
    page.wait_for_selector("header.topbar nav a")
    trace = trace_of(server, POSITION, "alphabeta", 2)
    seen = page.evaluate(
        """async (trace) => {
            const { TreeView } = await import('/static/lab/tree.js');
            const { indexTrace } = await import('/static/lab/trace.js');
            const holder = document.createElement('div');
            holder.hidden = true;
            holder.innerHTML = '<svg class="tree" id="late-tree"></svg>';
            document.body.appendChild(holder);
            const tree = new TreeView(holder.querySelector('svg'), () => {});
            tree.load(indexTrace(trace), trace.nodes.length, true);
            holder.hidden = false;
            await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
            await new Promise((done) => setTimeout(done, 100));
            return true;
        }""",
        trace,
    )
    assert seen
    sight = page.eval_on_selector("#late-tree", IN_SIGHT)
    assert sight["drawn"] > 1 and sight["inside"] == sight["drawn"] and sight["scale"] >= 0.7 - 1e-6, sight


@pytest.mark.parametrize("width", [1280, 390])
def test_stepping_keeps_the_nodes_root_in_view_beside_it(lab, server, width):  # noqa: F811
    """After stepping, the lab cut its root node at the tree box's edge, or left it out of sight with the line
    that leads to it (issue 48): where the current node and the root of its iteration fit in the box together,
    both are whole in view, and the root never stands cut at the top."""
    page = lab["open"](width, 800)
    page.goto(lab_url(server, POSITION, "alphabeta", 3))
    page.wait_for_selector('[data-node-id="0"][data-current="true"]')
    count = int(page.get_attribute("[data-node-count]", "data-node-count"))
    failures = []
    for step in range(1, min(count, 40)):
        page.click('[data-action="step"]')
        page.wait_for_selector(f'[data-node-id="{step}"][data-current="true"]')
        seen = page.evaluate("""() => {
            const svg = document.querySelector('svg#tree'), box = svg.getBoundingClientRect();
            const current = svg.querySelector('[data-current="true"] rect.box').getBoundingClientRect();
            const whole = (r) => r.left >= box.left - 0.5 && r.right <= box.right + 0.5 && r.top >= box.top - 0.5;
            const ids = [...svg.querySelectorAll('[data-node-id]')].map((g) => Number(g.dataset.nodeId));
            const id = Number(svg.querySelector('[data-current="true"]').dataset.nodeId);
            // the root of the current node's iteration: the last root (a node whose id starts a top-level row)
            // at or before it, drawn at the top
            const tops = [...svg.querySelectorAll('[data-node-id]')].map((g) => [Number(g.dataset.nodeId),
                g.querySelector('rect.box').getBoundingClientRect()]);
            const top = Math.min(...tops.map(([, r]) => r.top));
            const roots = tops.filter(([, r]) => Math.abs(r.top - top) < 1).filter(([n]) => n <= id);
            const [, root] = roots[roots.length - 1];
            const fits = Math.max(root.right, current.right) - Math.min(root.left, current.left) + 2 * current.width
                <= box.width;
            return {step: id, fits, current: whole(current), root: whole(root), rootCutAtTop: root.top < box.top - 0.5
                && root.bottom > box.top + 0.5};
        }""")
        if not seen["current"] or seen["rootCutAtTop"] or (seen["fits"] and not seen["root"]):
            failures.append(seen)
    assert not failures, failures
