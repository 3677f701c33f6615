"""The lab's own API (kalah.web.lab): positions along a line, facts about a traced tree; and its modules' rules."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

import kalah
from kalah.rules import Position, Variant
from kalah.web import create_app

ROOT = Path(__file__).resolve().parents[1]
LAB = ROOT / "src" / "kalah" / "web" / "static" / "lab"
#: A real trace with cutoffs: alpha-beta to depth 3 from the start of Kalah(4,3).
SAMPLE = kalah.trace(Position.start(Variant(4, 3)), "alphabeta", 3).to_json()


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    app = create_app(tmp_path_factory.mktemp("lab") / "games.sqlite", workers=1, pool="thread")
    with TestClient(app, base_url="http://localhost") as client:
        yield client


def test_the_lab_page_is_served(client):
    page = client.get("/lab")
    assert page.status_code == 200 and 'src="/static/lab/main.js"' in page.text
    assert client.get("/static/lab/tree.js").status_code == 200


def test_line_plays_the_moves_with_the_rules(client):
    start = Position.from_dict(SAMPLE["position"])
    answer = client.post("/api/lab/line", json={"position": SAMPLE["position"], "moves": [0, 1, 2]}).json()
    expected = [start, start.play(0)]
    expected += [expected[-1].play(1)]
    expected += [expected[-1].play(2)]
    assert answer["positions"] == [p.to_dict() for p in expected]
    assert answer["over"] == expected[-1].is_over


@pytest.mark.parametrize(
    "body",
    [
        {"position": SAMPLE["position"], "moves": [7]},  # no such pit
        {"position": {"board": [[1, 0], [0]]}, "moves": []},  # rows of different lengths
        {"position": SAMPLE["position"], "moves": [0] * 65},  # longer than MAX_LINE
        {"moves": [0]},  # no position
    ],
)
def test_line_refuses_bad_input_with_422(client, body):
    answer = client.post("/api/lab/line", json=body)
    assert answer.status_code == 422 and answer.json()["detail"]


def test_tree_facts_of_the_sample(client):
    nodes = SAMPLE["nodes"]
    body = {
        "position": SAMPLE["position"],
        "parent": [n["parent"] for n in nodes],
        "move": [n["move"] for n in nodes],
        "cutoff": [n["cutoff"] for n in nodes],
    }
    facts = client.post("/api/lab/tree", json=body).json()
    start = Position.from_dict(SAMPLE["position"])
    positions: list[Position] = []
    for node in nodes:
        positions.append(start if node["parent"] is None else positions[node["parent"]].play(node["move"]))
    assert facts["to_move"] == [p.to_move for p in positions]
    # every cutoff node names exactly the legal moves it did not visit; other nodes are not named
    for node in nodes:
        visited = {n["move"] for n in nodes if n["parent"] == node["id"]}
        skipped = [m for m in positions[node["id"]].legal_moves() if m not in visited]
        assert facts["pruned"].get(str(node["id"]), []) == (skipped if node["cutoff"] else [])
    assert any(facts["pruned"].values())


@pytest.mark.parametrize(
    "change",
    [
        {"parent": [None, 5]},  # a parent after its child
        {"parent": [None], "move": [None, 0]},  # lengths differ
        {"parent": [None, 0], "move": [None, 9]},  # an illegal move
    ],
)
def test_tree_refuses_bad_input_with_422(client, change):
    body = {"position": SAMPLE["position"], "parent": [None, 0], "move": [None, 0], "cutoff": [False, False], **change}
    body["cutoff"] = [False] * len(body["parent"])
    answer = client.post("/api/lab/tree", json=body)
    assert answer.status_code == 422 and answer.json()["detail"]


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 3), max_size=12))
def test_line_agrees_with_the_rules_on_any_moves(client, moves):
    position = Position.from_dict(SAMPLE["position"])
    expected = [position.to_dict()]
    try:
        for move in moves:
            position = position.play(move)
            expected.append(position.to_dict())
    except Exception:
        assert client.post("/api/lab/line", json={"position": SAMPLE["position"], "moves": moves}).status_code == 422
        return
    assert (
        client.post("/api/lab/line", json={"position": SAMPLE["position"], "moves": moves}).json()["positions"]
        == expected
    )


def test_lab_modules_are_small_typed_and_documented():
    modules = sorted(LAB.glob("*.js"))
    assert {m.name for m in modules} >= {"main.js", "trace.js", "tree.js", "editor.js", "compare.js"}
    for path in modules:
        lines = path.read_text(encoding="utf-8").splitlines()
        assert lines[0] == "// @ts-check", path.name
        assert len(lines) <= 400, path.name
        for number, line in enumerate(lines):
            if re.match(r"export (async )?function |export const \w+ = (async )?\(|export class ", line):
                assert lines[number - 1].rstrip().endswith("*/"), f"{path.name}:{number + 1}"
        # the lab reuses the main page's modules rather than copying them
        text = "\n".join(lines)
        assert "board.json" not in text and "function sow" not in text, path.name
