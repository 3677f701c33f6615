"""How a search deepens and what its threads report: pvs to a fixed depth of 13 or more prepares its last
iteration with shallower ones four plies apart (KS_PREPARE_STEP, csrc/search.h), with the same answers as deepening
one ply at a time; the busiest thread's nodes (benchmarks/bench_threads.py); the search players' threads= option."""

from __future__ import annotations

import random

import pytest

import kalah
from helpers import random_game_positions
from kalah import Position, Variant
from kalah.core.search import ALGORITHMS, EVALUATIONS, Engine
from kalah.players import PlayerSpecError, make_player


def deep_positions() -> list[Position]:
    rng = random.Random(33)
    positions = [Position.start(), Position.start(Variant(6, 6))]
    while len(positions) < 4:
        position = random_game_positions(Variant(6, 4), rng, rng.randrange(6, 16))
        if not position.is_over and position.seeds_in_pits >= 24:
            positions.append(position)
    return positions


@pytest.mark.parametrize("move_values", [False, True])
def test_a_deep_fixed_depth_pvs_answers_what_deepening_by_one_ply_answers(move_values):
    for position in deep_positions():
        for depth in (13, 14):
            prepared = kalah.search(position, "pvs", depth=depth, move_values=move_values)
            # A deadline makes the search deepen one ply at a time (the schedule of a timed search);
            # exact_depth keeps the values those of depth-limited minimax, as at a fixed depth.
            by_one = kalah.search(
                position, "pvs", depth=depth, time=3600.0, exact_depth=True, threads=1, move_values=move_values
            )
            single = kalah.search(position, "pvs", depth=depth, iterative=False, move_values=move_values)
            for other in (by_one, single):
                assert (prepared.value, prepared.best_move, prepared.exact) == (
                    other.value,
                    other.best_move,
                    other.exact,
                ), (position, depth)
                if move_values:
                    assert [(m.move, m.value, m.bound) for m in prepared.moves] == [
                        (m.move, m.value, m.bound) for m in other.moves
                    ]
            assert prepared.stats.depth == by_one.stats.depth == depth


def test_preparing_the_last_iteration_saves_nodes():
    # Node counts are deterministic on one thread: fewer than deepening one ply at a time.
    start = Position.start()
    prepared = kalah.search(start, "pvs", depth=16, move_values=False)
    by_one = kalah.search(start, "pvs", depth=16, time=3600.0, exact_depth=True, threads=1, move_values=False)
    assert prepared.value == by_one.value and prepared.best_move == by_one.best_move
    assert prepared.stats.nodes < 0.8 * by_one.stats.nodes


def test_shallow_searches_still_deepen_one_ply_at_a_time():
    # A trace (depth 12 at most on the lab page) shows one root per iteration, from depth 1.
    traced = kalah.trace(Position.start(), "pvs", 5)
    assert [node.depth for node in traced.roots] == [1, 2, 3, 4, 5]


def test_the_busiest_thread_searched_at_least_its_share_and_at_most_all():
    engine = Engine(18)
    start = Position.start()
    one = engine.search(start, ALGORITHMS["pvs"], EVALUATIONS["strong"], 1, 14, threads=1)
    assert one["busiest_thread_nodes"] == one["nodes"]
    for threads in (2, 4):
        many = engine.search(start, ALGORITHMS["pvs"], EVALUATIONS["strong"], 1, 14, threads=threads)
        assert many["nodes"] / threads <= many["busiest_thread_nodes"] <= many["nodes"]
        assert (many["value"], many["best_move"]) == (one["value"], one["best_move"])


def test_a_search_player_takes_threads():
    player = make_player("pvs:time=0.05,threads=2")
    assert player.threads == 2 and player.spec == "pvs:time=0.05,threads=2"
    assert make_player(player.spec).spec == player.spec
    assert player.choose_move(Position.start()) in Position.start().legal_moves()
    assert make_player("alphabeta:depth=4,threads=3").threads == 3
    assert make_player("pvs:time=0.05").threads is None


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("pvs:threads=0", "threads"),
        ("pvs:threads=two", "threads"),
        ("pvs:threads=100000", "threads"),
        ("mcts:threads=2", "unknown option 'threads' for player 'mcts'; its options: playouts, seed, time"),
    ],
)
def test_bad_threads_options_are_named(spec, message):
    with pytest.raises(PlayerSpecError, match=message):
        make_player(spec)


@pytest.mark.parametrize("threads", [2, 4])
def test_prepared_searches_on_several_threads_answer_what_one_thread_does(threads):
    for position in deep_positions():
        for move_values in (False, True):
            one = kalah.search(position, "pvs", depth=13, threads=1, move_values=move_values)
            many = kalah.search(position, "pvs", depth=13, threads=threads, move_values=move_values)
            assert (many.value, many.best_move, many.exact, many.stats.depth) == (
                one.value,
                one.best_move,
                one.exact,
                one.stats.depth,
            ), position
            if move_values:  # with the best move only, the other moves' upper bounds depend on the search order
                assert [(m.move, m.value, m.bound) for m in many.moves] == [
                    (m.move, m.value, m.bound) for m in one.moves
                ]
