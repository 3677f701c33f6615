"""The lab's MCTS page (/lab/mcts) and its route POST /api/trace/mcts: UCT iteration by iteration,
exactly kalah.search.mcts_trace's, beside alpha-beta; in Chromium at desktop and phone widths."""

from __future__ import annotations

import json
import os
import shutil
from urllib.parse import quote

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


@pytest.mark.browser
@pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing (apt-get install chromium)")
@pytest.mark.parametrize("width", [1280, 390])
def test_the_page_steps_through_the_iterations(browser, server, tmp_path, width):  # noqa: F811
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    expected = trace_mcts(Position.from_dict(POSITION), 80, seed=2)
    page.goto(f"{server['url']}/lab/mcts?position={quote(json.dumps(POSITION))}&playouts=80&seed=2&depth=4")
    page.wait_for_selector('[data-iteration="1"]')
    for _ in range(9):
        page.click('[data-action="step"]')
    page.wait_for_selector('[data-iteration="10"]')
    stats = expected.stats(10)
    assert page.get_attribute('svg#mcts-tree [data-node-id="0"]', "data-visits") == "10"
    for node in page.locator("svg#mcts-tree [data-node-id]").all():
        assert int(node.get_attribute("data-visits")) == stats[int(node.get_attribute("data-node-id"))].visits
    step = expected.iterations[9]
    assert page.get_attribute(f'svg#mcts-tree [data-node-id="{step.expanded}"]', "class") == "mnode expanded"
    for node in step.path[1:]:
        assert "selected" in page.get_attribute(f'svg#mcts-tree [data-node-id="{node}"]', "class")
    assert page.locator("#root-moves tr").count() == 1 + 4
    page.click('[data-action="end"]')
    page.wait_for_selector('[data-iteration="80"]')
    assert page.get_attribute("#verdict", "data-uct") == str(expected.result.best_move)  # the search's answer
    assert (
        f"depth 4: {'ABCD'[search(Position.from_dict(POSITION), algorithm='alphabeta', depth=4).best_move]}"
        in page.inner_text("#verdict")
    )
    for _ in range(3):
        page.click('[data-action="back"]')  # an iteration that expands a node: the frame shows it
    page.wait_for_selector('[data-iteration="77"]')
    ARTIFACTS.mkdir(exist_ok=True)
    path = tmp_path / f"lab-mcts-{width}.png"
    page.screenshot(path=str(path), full_page=True)
    shutil.copy(path, ARTIFACTS / path.name)
    context.close()
    assert not errors, errors
