"""kalah.trace: the nodes recorded by the compiled search itself (kalah.core.trace, csrc/trace.h)."""

from __future__ import annotations

import json
import math
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kalah
from helpers import random_game_positions
from kalah import Position, Variant
from kalah.core.search import Engine
from kalah.search import SearchError, TraceTooLargeError
from kalah.search.tracing import KINDS, TRACE_FORMAT, SearchTrace

ALGORITHMS = ["minimax", "alphabeta", "scout", "pvs", "mtdf"]
OPTIONS = [
    {},
    {"memo": False},
    {"iterative": False},
    {"memo": False, "iterative": False},
    {"move_values": False},
    {"ordering": False, "move_values": False},
    {"iterative": True, "memo": True},
]


def _positions() -> list[Position]:
    rng = random.Random(14)
    out = [
        Position.start(Variant(4, 3)),
        Position.start(Variant(6, 3)),
        Position.start(Variant(3, 2, pie_rule=True)),
        Position.start(Variant(4, 2, empty_capture=True)),
    ]
    out += [random_game_positions(Variant(4, 3), rng, plies) for plies in (3, 7, 12)]
    out += [random_game_positions(Variant(5, 3, pie_rule=True), rng, 1)]
    return out


POSITIONS = _positions()


def _search(position: Position, algorithm: str, depth: int, **options):
    """kalah.search with a new engine (a table as fresh as the trace's)."""
    return kalah.search(position, algorithm, depth, engine=Engine(options.pop("table_bits", 20)), **options)


def _check_shape(t: SearchTrace) -> None:
    assert len(t.nodes) == t.result.stats.nodes
    assert sum(node.cutoff for node in t.nodes) == t.result.stats.cutoffs
    assert sum(node.table_hit for node in t.nodes) == t.result.stats.tt_hits
    for i, node in enumerate(t.nodes):
        assert node.id == i
        assert node.kind in KINDS
        assert node.bound in ("exact", "lower", "upper")
        if node.parent is None:
            assert node.move is None
            assert node.kind in ("root", "pass")
        else:
            assert 0 <= node.parent < i  # parents precede their children
            parent = t.nodes[node.parent]
            assert node.depth == parent.depth - 1
            assert node.move is not None
        assert (node.alpha is None) == (node.beta is None)
        if node.alpha is not None:
            assert node.alpha < node.beta
    assert t.nodes[0].kind == "root" and t.nodes[0].parent is None
    assert t.nodes[-1].parent is not None or len(t.roots) == len(t.nodes) or t.nodes[-1].kind in ("root", "pass")


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "defaults")
def test_nodes_are_the_search_statistics_and_the_result_is_the_search(algorithm, options):
    for position in POSITIONS:
        for depth in (1, 2, 4):
            t = kalah.trace(position, algorithm, depth, "strong", max_nodes=200_000, **options)
            _check_shape(t)
            plain = _search(position, algorithm, depth, **options)
            assert (t.result.value, t.result.best_move, t.result.pv) == (plain.value, plain.best_move, plain.pv)
            assert t.result.moves == plain.moves
            traced_stats = {**t.result.stats.to_dict(), "seconds": 0}
            assert traced_stats == {**plain.stats.to_dict(), "seconds": 0}


def _full_tree(position: Position, depth: int) -> int:
    """Nodes of the whole tree to ``depth`` by the reference rules (an extra turn uses one unit of depth)."""
    if depth == 0 or position.is_over:
        return 1
    return 1 + sum(_full_tree(position.play(move), depth - 1) for move in position.legal_moves())


@pytest.mark.parametrize("position", POSITIONS[:6], ids=str)
@pytest.mark.parametrize("depth", [1, 2, 3, 4])
def test_plain_minimax_visits_the_full_tree(position, depth):
    t = kalah.trace(position, "minimax", depth, memo=False, iterative=False, max_nodes=500_000)
    assert len(t.nodes) == _full_tree(position, depth)
    # each child a position one move on
    positions = [position]
    for node in t.nodes[1:]:
        positions.append(positions[node.parent].play(node.move))
        assert node.depth == depth - len(_path(t, node.id)) + 1
    for node in t.nodes:
        moves = [child.move for child in t.children(node.id)]
        if node.depth > 0 and not positions[node.id].is_over:
            # every legal move once (the root orders them; below it, minimax takes them in pit order)
            expected = positions[node.id].legal_moves()
            assert (sorted(moves, key=str) if node.parent is None else moves) == sorted(expected, key=str)
        else:
            assert moves == []


def _path(t: SearchTrace, node_id: int) -> list[int]:
    path = []
    at: int | None = node_id
    while at is not None:
        path.append(at)
        at = t.nodes[at].parent
    return path


@pytest.mark.parametrize("memo", [False, True])
def test_alphabeta_cutoffs_reach_beta(memo):
    seen = 0
    for position in POSITIONS:
        t = kalah.trace(position, "alphabeta", 5, memo=memo, max_nodes=200_000)
        for node in t.nodes:
            if node.cutoff:
                seen += 1
                assert node.bound == "lower"
                if not node.table_hit:  # the table may have narrowed the window it searched
                    assert node.value >= node.beta
            if node.kind == "search" and node.alpha is not None and not node.table_hit:
                # fail-soft: the flag says where the value fell in the window
                if node.value >= node.beta:
                    assert node.bound in ("lower", "exact")
                elif node.value <= node.alpha:
                    assert node.bound in ("upper", "exact")
    assert seen > 0


def test_windows_follow_negamax():
    # without a table a child's window is its parent's, negated unless the mover keeps the turn
    position = Position.start(Variant(4, 3))
    t = kalah.trace(position, "alphabeta", 4, memo=False, iterative=False)
    positions = [position]
    for node in t.nodes[1:]:
        positions.append(positions[node.parent].play(node.move))
    for node in t.nodes[1:]:
        parent = t.nodes[node.parent]
        same = positions[node.id].to_move == positions[node.parent].to_move
        if same:
            assert node.beta == parent.beta
        else:
            assert node.alpha == -parent.beta


def test_kinds_of_each_algorithm():
    position = Position.start(Variant(4, 3))
    kinds = {algorithm: {node.kind for node in kalah.trace(position, algorithm, 5).nodes} for algorithm in ALGORITHMS}
    assert kinds["minimax"] == {"root", "search"}
    assert kinds["alphabeta"] == {"root", "search"}
    assert kinds["scout"] == {"root", "eval", "test"}
    assert {"root", "pv", "probe"} <= kinds["pvs"] <= {"root", "pv", "probe", "research"}
    assert {"root", "pass", "search"} <= kinds["mtdf"]
    no_window = [node for node in kalah.trace(position, "minimax", 3).nodes if node.alpha is not None]
    assert no_window == []
    # MTD(f) without move values: each pass at the root is a root of its own
    t = kalah.trace(position, "mtdf", 3, move_values=False, iterative=False)
    passes = [node for node in t.roots if node.kind == "pass"]
    assert passes and all(node.depth == 3 and node.beta - node.alpha < 0.02 for node in passes)


def test_roots_are_the_iterations():
    position = Position.start(Variant(4, 3))
    t = kalah.trace(position, "alphabeta", 4)
    assert [node.depth for node in t.roots] == [1, 2, 3, 4]
    assert t.roots[-1].value == t.result.value


def test_json_format():
    position = Position.start(Variant(4, 3))
    t = kalah.trace(position, "pvs", 3, evaluation="store", memo=False)
    data = json.loads(json.dumps(t.to_json(), allow_nan=False))
    assert data["format"] == TRACE_FORMAT
    assert Position.from_dict(data["position"]) == position
    assert (data["algorithm"], data["depth"], data["evaluation"]) == ("pvs", 3, "store")
    assert data["options"] == {
        "move_values": True,
        "memo": False,
        "ordering": True,
        "iterative": True,
        "table_bits": 20,
    }
    result = data["result"]
    assert (result["value"], result["best_move"], result["nodes"]) == (t.result.value, t.result.best_move, len(t.nodes))
    assert {
        "value",
        "best_move",
        "pv",
        "moves",
        "nodes",
        "seconds",
        "depth",
        "exact",
        "algorithm",
        "evaluation",
    } <= set(result)
    assert len(data["nodes"]) == len(t.nodes)
    root = data["nodes"][0]
    assert root == {
        "id": 0,
        "parent": None,
        "move": None,
        "depth": 1,
        "alpha": "-inf",
        "beta": "inf",
        "value": t.nodes[0].value,
        "bound": "exact",
        "cutoff": False,
        "table_hit": False,
        "kind": "root",
    }
    for node, item in zip(t.nodes, data["nodes"], strict=False):
        assert item["alpha"] == ("-inf" if node.alpha == -math.inf else node.alpha)


def test_swap_is_a_move_of_the_trace():
    position = Position.start(Variant(3, 2, pie_rule=True)).play(0)
    t = kalah.trace(position, "alphabeta", 2)
    assert "swap" in {node.move for node in t.nodes}


def test_finished_position_is_one_node():
    position = Position([[0, 0, 0, 5], [0, 0, 0, 7]], 0)
    t = kalah.trace(position, "pvs", 3)
    assert len(t.nodes) == 1 and t.nodes[0].value == -2 and t.result.value == -2


def test_too_many_nodes():
    position = Position.start()
    with pytest.raises(TraceTooLargeError, match="more than 500 nodes.*smaller depth"):
        kalah.trace(position, "minimax", 4, max_nodes=500)
    assert issubclass(TraceTooLargeError, SearchError)
    exact = kalah.trace(position, "minimax", 2).result.stats.nodes
    assert len(kalah.trace(position, "minimax", 2, max_nodes=exact).nodes) == exact
    with pytest.raises(TraceTooLargeError):
        kalah.trace(position, "minimax", 2, max_nodes=exact - 1)


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda p: kalah.trace(p, "mcts", 3), "mcts cannot be traced"),
        (lambda p: kalah.trace(p, "negamax", 3), "unknown algorithm"),
        (lambda p: kalah.trace(p, "pvs", 0), "depth must be at least 1"),
        (lambda p: kalah.trace(p, "pvs", 3, time=1.0), "unknown option 'time'"),
        (lambda p: kalah.trace(p, "pvs", 3, memo="yes"), "memo must be true or false"),
        (lambda p: kalah.trace(p, "pvs", 3, max_nodes=0), "max_nodes"),
        (lambda p: kalah.trace(p, "pvs", 3, "clever"), "unknown evaluation"),
        (lambda p: kalah.trace(p.to_dict(), "pvs", 3), "kalah.Position"),
    ],
)
def test_bad_arguments(call, message):
    with pytest.raises(SearchError, match=message):
        call(Position.start(Variant(4, 3)))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.builds(
        Variant, pits=st.integers(1, 5), seeds=st.integers(1, 4), empty_capture=st.booleans(), pie_rule=st.booleans()
    ),
    seed=st.integers(0, 2**32 - 1),
    plies=st.integers(0, 20),
    algorithm=st.sampled_from(ALGORITHMS),
    depth=st.integers(1, 4),
    memo=st.booleans(),
    iterative=st.booleans(),
    move_values=st.booleans(),
)
def test_any_small_search_traces_as_it_searches(variant, seed, plies, algorithm, depth, memo, iterative, move_values):
    position = random_game_positions(variant, random.Random(seed), plies)
    options = {"memo": memo, "iterative": iterative, "move_values": move_values}
    try:
        t = kalah.trace(position, algorithm, depth, max_nodes=50_000, **options)
    except TraceTooLargeError:
        return
    _check_shape(t)
    plain = _search(position, algorithm, depth, **options)
    assert (t.result.value, t.result.best_move, t.result.stats.nodes) == (
        plain.value,
        plain.best_move,
        plain.stats.nodes,
    )


# --- POST /api/trace


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    from fastapi.testclient import TestClient

    from kalah.web import create_app

    app = create_app(tmp_path_factory.mktemp("trace") / "games.sqlite", workers=1, pool="thread")
    with TestClient(app, base_url="http://localhost") as client:
        yield client


def _without_seconds(data: dict) -> dict:
    result = {key: value for key, value in data["result"].items() if key not in ("seconds", "stats")}
    stats = {key: value for key, value in data["result"]["stats"].items() if key != "seconds"}
    return {**data, "result": {**result, "stats": stats}}


@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize(
    "options",
    [{}, {"memo": False, "iterative": False}, {"move_values": False, "ordering": False}],
    ids=["defaults", "plain", "no-values"],
)
def test_the_api_answers_the_trace_of_python(client, algorithm, options):
    position = POSITIONS[4]
    body = {
        "position": position.to_dict(),
        "algorithm": algorithm,
        "depth": 4,
        "evaluation": "seed",
        "options": options,
    }
    answer = client.post("/api/trace", json=body)
    assert answer.status_code == 200, answer.text
    expected = kalah.trace(position, algorithm, 4, "seed", **options).to_json()
    assert _without_seconds(answer.json()) == _without_seconds(json.loads(json.dumps(expected)))


@pytest.mark.parametrize(
    "body, status, message",
    [
        ({"algorithm": "mcts"}, 422, "mcts cannot be traced"),
        ({"algorithm": "negamax"}, 422, "unknown algorithm"),
        ({"depth": 13}, 422, "depth"),
        ({"depth": 0}, 422, "depth"),
        ({"evaluation": "clever"}, 422, "unknown evaluation"),
        ({"options": {"table_bits": 30}}, 422, "unknown option 'table_bits'"),
        ({"options": {"memo": "no"}}, 422, "options.memo"),
        ({"position": {"board": [[1, 2]]}}, 422, "2 rows"),
        (
            {"position": {"board": [[4] * 6 + [0]] * 2, "to_move": 0}, "algorithm": "minimax", "depth": 8},
            422,
            "more than 20,000 nodes, more than the lab shows.*smaller depth",
        ),
        ({"nodes": 5}, 422, "nodes"),
    ],
)
def test_the_api_refuses_bad_traces(client, body, status, message):
    request = {"position": POSITIONS[0].to_dict(), "algorithm": "pvs", "depth": 3, **body}
    answer = client.post("/api/trace", json=request)
    assert answer.status_code == status
    assert re.search(message, answer.json()["detail"]), answer.json()["detail"]


def test_a_refused_algorithm_is_told_only_the_algorithms_a_trace_takes(client):
    """The error of an unknown algorithm listed mcts among the accepted ones, then mcts was refused."""
    from kalah.search.tracing import TRACED_ALGORITHMS

    assert "mcts" not in TRACED_ALGORITHMS
    for algorithm in ("negamax", "mcts", "MCTS "):
        request = {"position": POSITIONS[0].to_dict(), "algorithm": algorithm, "depth": 3}
        detail = client.post("/api/trace", json=request).json()["detail"]
        assert detail.endswith(", ".join(TRACED_ALGORITHMS)), detail
        assert detail.count("mcts") == (algorithm != "negamax"), detail  # named as what was asked, not accepted
        with pytest.raises(SearchError, match="minimax, alphabeta, scout, pvs, mtdf$"):
            kalah.trace(POSITIONS[0], algorithm, 3)
    schema = client.get("/openapi.json").json()["components"]["schemas"]["TraceIn"]
    assert schema["properties"]["algorithm"]["description"] == "one of " + ", ".join(TRACED_ALGORITHMS)
