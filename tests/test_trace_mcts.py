"""Traced MCTS: the recorded iterations are the compiled search's own, phase by phase."""

from __future__ import annotations

import math

import pytest

import kalah
from helpers import AGREEMENT_VARIANTS
from kalah import Position, Variant
from kalah.search import SearchError
from kalah.search.mcts_trace import MCTS_TRACE_FORMAT, trace_mcts


@pytest.mark.parametrize("variant", AGREEMENT_VARIANTS + [Variant(3, 2, pie_rule=True)], ids=str)
def test_the_trace_is_the_search_and_every_selection_follows_ucb1(variant):
    position = Position.start(variant).play(Position.start(variant).legal_moves()[0])
    t = trace_mcts(position, playouts=400, seed=11)
    searched = kalah.search(position, algorithm="mcts", playouts=400, seed=11)
    assert t.result.best_move == searched.best_move and t.result.extra == searched.extra
    assert len(t.iterations) == 400 == t.result.stats.playouts
    final = t.stats()
    root_children = [node for node in t.nodes if node.parent == 0]
    assert {node.move: final[node.id].visits for node in root_children} == searched.extra["visits"]
    assert final[0].visits == 400
    assert len(t.nodes) == 1 + sum(i.expanded is not None for i in t.iterations)

    children: dict[int, list[int]] = {}
    visits = [0] * len(t.nodes)
    wins = [0.0] * len(t.nodes)
    made = 1
    for iteration in t.iterations:
        path = iteration.path
        assert path[0] == 0
        for above, below in zip(path, path[1:], strict=False):
            # selection: a node whose moves have all been tried gives way to its child of highest UCB1
            kids = children[above]
            assert len(kids) == len(t.nodes[above].position.legal_moves())
            scores = [
                wins[k] / visits[k] + t.exploration * math.sqrt(math.log(visits[above]) / visits[k]) for k in kids
            ]
            assert below == kids[scores.index(max(scores))]
        last = path[-1]
        tried = children.get(last, [])
        legal = t.nodes[last].position.legal_moves()
        assert len(tried) < len(legal) or not legal  # it stopped where a move was untried, or at a game's end
        if iteration.expanded is not None:
            # expansion: the next untried move, in the order of the legal moves
            assert iteration.expanded == made and t.nodes[made].parent == last
            assert t.nodes[made].move == legal[len(tried)]
            assert t.nodes[made].position == t.nodes[last].position.play(legal[len(tried)])
            children.setdefault(last, []).append(made)
            made += 1
        else:
            assert t.nodes[last].position.is_over and iteration.margin == t.nodes[last].position.margin
        for node in iteration.backpropagated:
            mine = iteration.margin if t.nodes[node].mover == 0 else -iteration.margin
            visits[node] += 1
            wins[node] += 1.0 if mine > 0 else 0.5 if mine == 0 else 0.0
    assert [s.visits for s in final] == visits and [s.wins for s in final] == wins


def test_stats_step_by_step_and_json():
    t = trace_mcts(Position.start(Variant(4, 3)), playouts=60, seed=1)
    assert t.stats(0)[0].visits == 0 and t.stats(10)[0].visits == 10
    assert t.stats(60) == t.stats()
    assert t.ucb(1, 10) is not None and t.ucb(0, 10) is None
    data = t.to_json()
    assert data["format"] == MCTS_TRACE_FORMAT and len(data["iterations"]) == 60
    assert data["nodes"][0]["visits"] == 60
    with pytest.raises(SearchError):
        t.stats(61)


def test_the_same_seed_gives_the_same_trace():
    first = trace_mcts(Position.start(Variant(4, 3)), playouts=100, seed=5)
    assert first.iterations == trace_mcts(Position.start(Variant(4, 3)), playouts=100, seed=5).iterations
    assert first.iterations != trace_mcts(Position.start(Variant(4, 3)), playouts=100, seed=6).iterations


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(playouts=0),
        dict(playouts=10**7),
        dict(playouts=True),
        dict(seed=-1),
        dict(exploration=-1.0),
        dict(exploration=float("nan")),
    ],
)
def test_bad_arguments(kwargs):
    with pytest.raises(SearchError):
        trace_mcts(Position.start(Variant(4, 3)), **{"playouts": 10, **kwargs})
    with pytest.raises(SearchError):
        trace_mcts("start", 10)  # type: ignore[arg-type]
