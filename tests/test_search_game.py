"""A game, not a position: a table kept between searches changes nodes, never values or moves."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kalah import Position, Variant, solve
from kalah.core.search import Engine
from kalah.players import make_player
from kalah.search import search


def game_positions(seed: int, variant: Variant, plies: int) -> list[Position]:
    """The positions of one random game (at most ``plies`` of them, none over)."""
    rng = random.Random(seed)
    position = Position.start(variant)
    positions = []
    while not position.is_over and len(positions) < plies:
        positions.append(position)
        position = position.play(rng.choice(position.legal_moves()))
    return positions


@pytest.mark.parametrize("algorithm", ["alphabeta", "scout", "pvs", "mtdf"])
def test_kept_table_gives_the_cold_values_along_a_game(algorithm):
    engine = Engine(16)
    kept_nodes = cold_nodes = 0
    for position in game_positions(3, Variant(6, 4), 30):
        warm = search(position, algorithm, depth=7, move_values=False, engine=engine, keep_table=True)
        cold = search(position, algorithm, depth=7, move_values=False)
        assert (warm.value, warm.best_move) == (cold.value, cold.best_move)
        kept_nodes += warm.stats.nodes
        cold_nodes += cold.stats.nodes
    assert kept_nodes < cold_nodes  # the point of keeping it


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    pits=st.integers(3, 6),
    seeds=st.integers(2, 5),
    depth=st.integers(1, 6),
    empty_capture=st.booleans(),
    move_values=st.booleans(),
)
def test_kept_table_never_changes_a_value(seed, pits, seeds, depth, empty_capture, move_values):
    variant = Variant(pits, seeds, empty_capture=empty_capture)
    engine = Engine(12)  # small: entries collide and get replaced
    for position in game_positions(seed, variant, 12):
        warm = search(position, "pvs", depth=depth, move_values=move_values, engine=engine, keep_table=True)
        cold = search(position, "pvs", depth=depth, move_values=move_values)
        assert (warm.value, warm.best_move) == (cold.value, cold.best_move)
        if warm.exact != cold.exact:
            # "Proven" depends on the leaves a search visited, which a kept table changes (a proven
            # entry may answer where the cold search cut off on a heuristic leaf): one proven answer is
            # then enough, and it must be the value under perfect play.
            if position.seeds_in_pits <= 24:  # solved in well under a second
                assert solve(position, threads=1).value == warm.value
        if move_values:
            assert warm.moves == cold.moves


def test_a_player_keeps_its_table_between_moves_and_plays_the_cold_moves():
    player = make_player("pvs:depth=8")
    nodes = []
    for position in game_positions(5, Variant(6, 4), 12)[::2]:
        move = player.choose_move(position)
        cold = search(position, "pvs", depth=8, move_values=False)
        assert move == cold.best_move and player.last_info["value"] == cold.value
        nodes.append((player.last_info["nodes"], cold.stats.nodes))
    assert sum(warm for warm, _ in nodes[1:]) < sum(cold for _, cold in nodes[1:])
    player.reset()
    start = Position.start()
    player.choose_move(start)
    assert player.last_info["nodes"] == search(start, "pvs", depth=8, move_values=False).stats.nodes


def _resident_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * 4096


def test_a_warmed_engine_has_its_table_in_memory_and_searches_the_same():
    # kalah compare warms its engine so that no search's time includes the kernel zeroing fresh pages
    cold, warmed = Engine(22), Engine(22)  # 64 MiB each
    before = _resident_bytes()
    warmed.warm()
    assert _resident_bytes() - before >= 60 << 20
    position = Position.start(Variant(6, 4))
    for algorithm in ("minimax", "alphabeta", "pvs"):
        one = search(position, algorithm, depth=5, move_values=False, engine=cold)
        two = search(position, algorithm, depth=5, move_values=False, engine=warmed)
        assert (one.value, one.best_move, one.stats.nodes) == (two.value, two.best_move, two.stats.nodes)
    warmed.warm()  # after searches too: nothing in the table changes
    again = search(position, "pvs", depth=5, move_values=False, engine=warmed, keep_table=True)
    assert again.value == two.value and again.stats.nodes <= two.stats.nodes
