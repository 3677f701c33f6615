"""kalah.search's limits as one object (kalah.Limit) and the closed sets of names as Literal types."""

from __future__ import annotations

import typing

import pytest

import kalah
from kalah import Limit, Position, Variant, search
from kalah.core import search as core
from kalah.search import ALGORITHMS, EVALUATIONS, AlgorithmName, EvaluationName, SearchError

START = Position.start(Variant(6, 4))


def test_the_literal_names_are_the_accepted_names():
    assert typing.get_args(AlgorithmName) == ALGORITHMS
    assert typing.get_args(EvaluationName) == EVALUATIONS
    assert set(ALGORITHMS) - {"mcts"} == set(core.ALGORITHMS) and set(EVALUATIONS) == set(core.EVALUATIONS)


@pytest.mark.parametrize("algorithm", ["alphabeta", "pvs", "mtdf"])
def test_a_limit_searches_as_the_same_parameters_do(algorithm):
    plain = search(START, algorithm, depth=7)
    limited = search(START, algorithm, limit=Limit(depth=7))
    assert (limited.value, limited.best_move, limited.pv, limited.stats.nodes, limited.depth) == (
        plain.value,
        plain.best_move,
        plain.pv,
        plain.stats.nodes,
        plain.depth,
    )


def test_a_limit_of_playouts_is_the_mcts_budget():
    plain = search(START, "mcts", playouts=300, seed=3)
    limited = search(START, "mcts", limit=Limit(playouts=300), seed=3)
    assert limited.stats.playouts == plain.stats.playouts == 300
    assert limited.best_move == plain.best_move


def test_a_timed_limit_with_a_soft_time_searches_deeper_than_one_move():
    result = search(START, limit=Limit(time=0.5, soft_time=0.2), threads=1)
    assert result.depth >= 2 and result.stats.seconds < 5


@pytest.mark.parametrize("extra", [{"depth": 3}, {"time": 1.0}, {"playouts": 5}])
def test_limits_are_given_one_way_not_both(extra):
    with pytest.raises(SearchError, match="not both"):
        search(START, limit=Limit(depth=3), **extra)


def test_a_limit_is_checked_as_the_parameters_are():
    with pytest.raises(SearchError, match="depth"):
        search(START, limit=Limit(depth=0))
    with pytest.raises(SearchError, match="limit must be a kalah.Limit"):
        search(START, limit={"depth": 3})  # type: ignore[arg-type]


def test_limit_is_part_of_the_public_api():
    assert kalah.Limit is Limit and "Limit" in kalah.__all__
