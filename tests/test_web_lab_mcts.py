"""The lab's MCTS page (/lab/mcts) and its route POST /api/trace/mcts: UCT iteration by iteration,
exactly kalah.search.mcts_trace's, side by side with a traced alpha-beta search of the same position
(each pane stepped on its own); in Chromium at desktop and phone widths."""

from __future__ import annotations

import json
import os
import shutil
from urllib.parse import parse_qsl, quote, urlsplit

import pytest
from fastapi.testclient import TestClient

from kalah import Position, Variant, search
from kalah.search.mcts_trace import trace_mcts
from kalah.web import create_app
from test_web_browser import ARTIFACTS, CHROMIUM, browser, server  # noqa: F401  (the shared fixtures)

POSITION = Position.start(Variant(4, 3)).to_dict()


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    app = create_app(tmp_path_factory.mktemp("mcts") / "games.sqlite", workers=1, pool="thread")
    with TestClient(app, base_url="http://localhost") as client:
        yield client


def test_the_route_answers_the_trace_of_python_and_alphabeta_beside_it(client):
    answer = client.post("/api/trace/mcts", json={"position": POSITION, "playouts": 120, "seed": 4, "depth": 5})
    assert answer.status_code == 200, answer.text
    data = answer.json()
    expected = trace_mcts(Position.from_dict(POSITION), 120, seed=4).to_json()
    assert data["format"] == "kalah-mcts-trace/1"
    assert data["nodes"] == expected["nodes"] and data["iterations"] == expected["iterations"]
    beside = search(Position.from_dict(POSITION), algorithm="alphabeta", depth=5)
    assert data["alphabeta"]["value"] == beside.value and data["alphabeta"]["depth"] == 5
    assert [m["move"] for m in data["alphabeta"]["moves"]] == [m.move for m in beside.moves]
    assert client.get("/lab/mcts").status_code == 200


@pytest.mark.parametrize(
    "body",
    [
        {"position": POSITION, "playouts": 0},
        {"position": POSITION, "playouts": 5001},
        {"position": POSITION, "seed": -1},
        {"position": POSITION, "depth": 13},
        {"position": POSITION, "colour": "red"},
        {"position": {"board": [[1, 0], [0]]}},
        {"playouts": 10},
    ],
)
def test_bad_requests_are_422(client, body):
    answer = client.post("/api/trace/mcts", json=body)
    assert answer.status_code == 422 and answer.json()["detail"]


def test_a_finished_position_has_nothing_beside_it(client):
    over = {"board": [[0, 0, 0, 0, 12], [0, 0, 0, 0, 12]], "to_move": 0, "variant": POSITION["variant"]}
    data = client.post("/api/trace/mcts", json={"position": over, "playouts": 3}).json()
    assert data["alphabeta"] is None and all(step["expanded"] is None for step in data["iterations"])


def open_mcts_page(browser, server, width):  # noqa: F811
    """The MCTS page at ``width`` on UCT's trace of POSITION (80 playouts, seed 2), after its first iteration:
    the browser context, the page, the page's errors as they come, and the trace the page should show."""
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    expected = trace_mcts(Position.from_dict(POSITION), 80, seed=2)
    page.goto(f"{server['url']}/lab/mcts?position={quote(json.dumps(POSITION))}&playouts=80&seed=2&depth=4")
    page.wait_for_selector('[data-iteration="1"]')
    return context, page, errors, expected


@pytest.mark.browser
@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing (apt-get install chromium)")
@pytest.mark.parametrize("width", [1280, 390])
def test_the_page_steps_through_the_iterations(browser, server, tmp_path, width):  # noqa: F811
    context, page, errors, expected = open_mcts_page(browser, server, width)
    for _ in range(9):
        page.click('#mcts-pane [data-action="step"]')
    page.wait_for_selector('[data-iteration="10"]')
    stats = expected.stats(10)
    assert page.get_attribute('svg#mcts-tree [data-node-id="0"]', "data-visits") == "10"
    for node in page.locator("svg#mcts-tree [data-node-id]").all():
        assert int(node.get_attribute("data-visits")) == stats[int(node.get_attribute("data-node-id"))].visits
    step = expected.iterations[9]
    assert page.get_attribute(f'svg#mcts-tree [data-node-id="{step.expanded}"]', "class") == "mnode expanded backed"
    for node in step.path[1:]:
        assert page.get_attribute(f'svg#mcts-tree [data-node-id="{node}"]', "class") == "mnode selected backed"
    # backpropagation: exactly the path and the new node; the playout: its margin, hung under the new node
    backed = page.eval_on_selector_all("svg#mcts-tree .backed", "ns => ns.map(n => Number(n.dataset.nodeId))")
    assert sorted(backed) == sorted([*step.path, step.expanded])
    assert page.get_attribute("svg#mcts-tree [data-playout]", "data-margin") == str(step.margin)
    assert page.locator("#phases dt").all_inner_texts() == ["selection", "expansion", "playout", "backpropagation"]
    assert page.locator("#root-moves tr").count() == 1 + 4
    page.click('[data-action="end"]')
    page.wait_for_selector('[data-iteration="80"]')
    assert page.get_attribute("#verdict", "data-uct") == str(expected.result.best_move)  # the search's answer
    assert (
        f"depth 4: {'ABCD'[search(Position.from_dict(POSITION), algorithm='alphabeta', depth=4).best_move]}"
        in page.inner_text("#verdict")
    )
    for _ in range(3):
        page.click('#mcts-pane [data-action="back"]')  # an iteration that expands a node: the frame shows it
    page.wait_for_selector('[data-iteration="77"]')
    ARTIFACTS.mkdir(exist_ok=True)
    path = tmp_path / f"lab-mcts-{width}.png"
    page.screenshot(path=str(path), full_page=True)
    shutil.copy(path, ARTIFACTS / path.name)
    context.close()
    assert not errors, errors


@pytest.mark.browser
@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing (apt-get install chromium)")
@pytest.mark.parametrize("width", [1280, 390])
def test_one_iteration_steps_phase_by_phase(browser, server, tmp_path, width):  # noqa: F811
    context, page, errors, expected = open_mcts_page(browser, server, width)
    for _ in range(8):
        page.click('#mcts-pane [data-action="step"]')
    page.wait_for_selector('[data-iteration="9"][data-phase="4"]')
    step, before, after_ = expected.iterations[9], expected.stats(9), expected.stats(10)
    tree = "svg#mcts-tree"

    def visits() -> dict[int, int]:
        nodes = page.locator(f"{tree} [data-node-id]").all()
        return {int(n.get_attribute("data-node-id")): int(n.get_attribute("data-visits")) for n in nodes}

    def marked(kind: str) -> list[int]:
        return sorted(page.eval_on_selector_all(f"{tree} .mnode.{kind}", "ns => ns.map(n => Number(n.dataset.nodeId))"))

    def phase_texts() -> list[str]:
        return page.locator("#phases dd").all_inner_texts()

    # 1 selection: the path is marked; the new node is not in the tree yet; the counts are the last iteration's
    page.click('#mcts-pane [data-action="phase"]')
    page.wait_for_selector('[data-iteration="10"][data-phase="1"]')
    assert step.expanded not in visits() and visits() == {i: before[i].visits for i in visits()}
    assert marked("selected") == sorted(step.path) and marked("expanded") == [] and marked("backed") == []
    assert page.locator(f"{tree} [data-playout]").count() == 0
    assert phase_texts()[1:] == ["still to come"] * 3 and "selection" in page.inner_text("#phase-name")
    wait_for_board(page, "#mcts-board", after(Position.from_dict(POSITION), expected.to_json()["nodes"], step.path[-1]))
    # 2 expansion: the new node, no visit yet
    page.click('#mcts-pane [data-action="phase"]')
    page.wait_for_selector('[data-iteration="10"][data-phase="2"]')
    assert visits()[step.expanded] == 0 and marked("expanded") == [step.expanded]
    assert page.locator(f"{tree} [data-playout]").count() == 0 and phase_texts()[2:] == ["still to come"] * 2
    # 3 playout: its result hangs under the new node; nothing counted yet
    page.click('#mcts-pane [data-action="phase"]')
    page.wait_for_selector('[data-iteration="10"][data-phase="3"]')
    assert page.get_attribute(f"{tree} [data-playout]", "data-margin") == str(step.margin)
    assert marked("backed") == [] and visits()[0] == 9
    # 4 backpropagation: the counts change along the path and at the new node, as after a whole Step
    page.click('#mcts-pane [data-action="phase"]')
    page.wait_for_selector('[data-iteration="10"][data-phase="4"]')
    assert marked("backed") == sorted([*step.path, step.expanded])
    assert visits() == {i: after_[i].visits for i in visits()} and page.inner_text("#phase-name") == ""
    # and on to the next iteration's selection; Step goes back to whole iterations
    page.click('#mcts-pane [data-action="phase"]')
    page.wait_for_selector('[data-iteration="11"][data-phase="1"]')
    page.click('#mcts-pane [data-action="step"]')
    page.wait_for_selector('[data-iteration="12"][data-phase="4"]')
    page.click('#mcts-pane [data-action="phase"]')
    page.click('#mcts-pane [data-action="phase"]')
    page.wait_for_selector('[data-iteration="13"][data-phase="2"]')
    ARTIFACTS.mkdir(exist_ok=True)
    path = tmp_path / f"lab-mcts-phase-{width}.png"
    page.screenshot(path=str(path), full_page=True)
    shutil.copy(path, ARTIFACTS / path.name)
    context.close()
    assert not errors, errors


def board_of(page, svg: str) -> list[list[int]]:
    """The rows a board drew (board.js's data-pit, data-store and data-seeds), player 0 first."""
    seeds = page.eval_on_selector_all(
        f"{svg} [data-pit], {svg} [data-store]",
        "cs => cs.map(c => [c.dataset.pit || `${c.dataset.store}-store`, Number(c.dataset.seeds)])",
    )
    cells = dict(seeds)
    pits = int(page.get_attribute(svg, "data-pits"))
    return [[cells[f"{p}-{i}"] for i in range(pits)] + [cells[f"{p}-store"]] for p in (0, 1)]


def wait_for_board(page, svg: str, position: Position) -> None:
    """Until the board (drawn after the server's answer) shows the position."""
    for _ in range(100):
        if board_of(page, svg) == [list(row) for row in position.board]:
            return
        page.wait_for_timeout(50)
    assert board_of(page, svg) == [list(row) for row in position.board]


def linked(href: str) -> dict[str, str]:
    """The parameters of a link's URL."""
    return dict(parse_qsl(urlsplit(href).query))


def after(position: Position, nodes: list[dict], node_id: int) -> Position:
    """The position at a traced node: the moves from its root played out by the rules."""
    line = []
    while nodes[node_id]["parent"] is not None:
        line.insert(0, nodes[node_id]["move"])
        node_id = nodes[node_id]["parent"]
    for move in line:
        position = position.play(move)
    return position


@pytest.mark.browser
@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing (apt-get install chromium)")
@pytest.mark.parametrize("width", [1280, 390])
def test_uct_and_alphabeta_side_by_side_on_one_position(browser, server, tmp_path, width):  # noqa: F811
    import httpx

    start = Position.from_dict(POSITION)
    body = {"position": POSITION, "algorithm": "pvs", "depth": 3, "evaluation": "strong", "options": {}}
    traced = httpx.post(f"{server['url']}/api/trace", json=body, timeout=30).json()
    uct = trace_mcts(start, 60, seed=3)
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(
        f"{server['url']}/lab/mcts?position={quote(json.dumps(POSITION))}&playouts=60&seed=3&depth=3&algorithm=pvs"
    )
    page.wait_for_selector('[data-iteration="1"]')
    page.wait_for_selector('#ab-pane[data-current="0"]')
    # Both trees are drawn: UCT's after its first iteration, and pvs's whole trace, as the route answers it.
    assert page.locator("svg#mcts-tree [data-node-id]").count() == 2
    assert int(page.get_attribute("#ab-pane", "data-node-count")) == len(traced["nodes"])
    assert page.get_attribute("#ab-pane", "data-algorithm") == "pvs"
    page.wait_for_selector('#ab-tree [data-node-id="0"][data-current="true"]')
    # The same position: both boards at their roots show it.
    page.click('#mcts-pane [data-action="start"]')
    page.wait_for_selector('[data-iteration="0"]')
    wait_for_board(page, "#mcts-board", start)
    wait_for_board(page, "#ab-board", start)
    # Stepping the alpha-beta pane moves its tree and board, not UCT's.
    for _ in range(5):
        page.click('#ab-pane [data-action="step"]')
    page.wait_for_selector('#ab-tree [data-node-id="5"][data-current="true"]')
    assert page.locator('#ab-tree [data-current="true"]').count() == 1
    wait_for_board(page, "#ab-board", after(start, traced["nodes"], 5))
    assert page.get_attribute("#iteration-number", "data-iteration") == "0"
    # Stepping UCT moves its iteration and board (where the playout began), not alpha-beta's node.
    for _ in range(7):
        page.click('#mcts-pane [data-action="step"]')
    page.wait_for_selector('[data-iteration="7"]')
    step = uct.iterations[6]
    began = step.expanded if step.expanded is not None else step.path[-1]
    wait_for_board(page, "#mcts-board", after(start, uct.to_json()["nodes"], began))
    assert page.get_attribute("#ab-pane", "data-current") == "5"
    page.click('#ab-pane [data-action="back"]')
    page.wait_for_selector('#ab-tree [data-node-id="4"][data-current="true"]')
    # Another algorithm beside the same UCT: only that pane is traced again, from the same position.
    page.select_option("#ab-algorithm", "minimax")
    page.wait_for_selector('#ab-pane[data-algorithm="minimax"][data-current="0"]')
    body["algorithm"] = "minimax"
    minimax = httpx.post(f"{server['url']}/api/trace", json=body, timeout=30).json()
    assert int(page.get_attribute("#ab-pane", "data-node-count")) == len(minimax["nodes"])
    wait_for_board(page, "#ab-board", start)
    assert page.get_attribute("#iteration-number", "data-iteration") == "7"
    # The links between the labs carry the position.
    lab = page.get_attribute("#open-lab", "href")
    assert page.get_attribute("#nav-lab", "href") == lab  # the bar's Lab link too
    assert urlsplit(lab).path == "/lab" and linked(lab)["algorithm"] == "minimax"
    assert Position.from_dict(json.loads(linked(lab)["position"])) == start
    ARTIFACTS.mkdir(exist_ok=True)
    path = tmp_path / f"lab-mcts-duel-{width}.png"
    page.screenshot(path=str(path), full_page=True)
    shutil.copy(path, ARTIFACTS / path.name)
    page.goto(f"{server['url']}{lab}")
    page.wait_for_selector('[data-node-id="0"][data-current="true"]')
    mcts = page.get_attribute("#nav-mcts", "href")
    assert page.get_attribute("#open-mcts-duel", "href") == mcts
    assert urlsplit(mcts).path == "/lab/mcts" and linked(mcts)["algorithm"] == "minimax"
    assert Position.from_dict(json.loads(linked(mcts)["position"])) == start
    page.click("#nav-mcts")
    page.wait_for_selector('#ab-pane[data-algorithm="minimax"][data-current="0"]')
    wait_for_board(page, "#ab-board", start)
    context.close()
    assert not errors, errors
