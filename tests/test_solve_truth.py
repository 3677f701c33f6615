"""The exact solver against published values and an exhaustive pure-Python negamax."""

from __future__ import annotations

import functools
import random
import types

import pytest

from helpers import scattered_position
from kalah import SWAP, Position, Variant
from kalah.core.solver import TableEntry
from kalah.endgame import build_in_memory
from kalah.solve import SolveError, clear_cache, solve
from kalah.solve.engine import engine_for as _engine
from kalah.solve.run import Run as _Run


@functools.cache
def brute(position: Position) -> int:
    """Plain negamax over kalah.Position: the final margin for the side to move."""
    if position.is_over:
        return position.margin if position.to_move == 0 else -position.margin
    best = None
    for move in position.legal_moves():
        child = position.play(move)
        value = brute(child) if child.to_move == position.to_move else -brute(child)
        best = value if best is None else max(best, value)
    return best


def brute_move_value(position: Position, move) -> int:
    child = position.play(move)
    return brute(child) if child.to_move == position.to_move else -brute(child)


@pytest.mark.parametrize(
    "variant, expected",
    [
        (Variant(6, 3), 2),
        (Variant(4, 3, empty_capture=True), 8),
        (Variant(6, 3, empty_capture=True), 2),
    ],
)
def test_published_values(variant, expected):
    result = solve(Position.start(variant), endgame=None)
    assert result.exact and result.value == expected
    assert result.best_moves and result.pv and result.pv[0] in result.best_moves


@pytest.mark.parametrize(
    "pits, empty_capture", [(2, False), (3, False), (3, True), (4, False), (4, True), (5, False), (6, True)]
)
def test_solver_matches_brute_force(pits, empty_capture):
    rng = random.Random(pits * 10 + empty_capture)
    variant = Variant(pits=pits, seeds=1, empty_capture=empty_capture)
    for _ in range(25):
        position = scattered_position(rng, variant, rng.randint(2, {2: 14, 3: 12}.get(pits, 9)))
        result = solve(position, endgame=None, threads=2)
        expected = brute(position)
        assert result.value == expected, position
        best = {move for move in position.legal_moves() if brute_move_value(position, move) == expected}
        assert set(result.best_moves) == best, position
        # the principal variation is a legal line that reaches the end with the value
        line_end, mover_sign = position, 1
        for move in result.pv:
            line_end = line_end.play(move)
        assert line_end.is_over
        final = line_end.margin if position.to_move == 0 else -line_end.margin
        assert final == expected
        del mover_sign


class _MisleadingTable:
    """The compiled solver, except that its table names ``move`` as every position's best."""

    def __init__(self, solver, move):
        self.solver, self.move = solver, move

    def lookup(self, pits):
        return TableEntry(0, 0, self.move)

    def __getattr__(self, name):
        return getattr(self.solver, name)


@pytest.mark.parametrize("threads", [1, 2])
def test_value_and_best_moves_need_not_trust_the_tables_best_move(threads):
    """The move the table names is tested above the lower bound on trust: when it is wrong, or one of several
    best moves, the moves' answers still give the value and every best move."""
    rng = random.Random(5 + threads)
    variant = Variant(pits=4, seeds=1)
    engine = _engine(variant.pits, variant.empty_capture, 18)
    ties = 0
    for _ in range(6):
        position = scattered_position(rng, variant, 10)
        expected = brute(position)
        best = {move for move in position.legal_moves() if brute_move_value(position, move) == expected}
        ties += len(best) > 1
        for named in position.legal_moves() + [None]:
            engine.solver.clear()
            misled = types.SimpleNamespace(
                solver=_MisleadingTable(engine.solver, named), database=None, core=engine.core
            )
            value, moves = _Run(misled, threads, 0.0).value_and_best_moves(position)  # type: ignore[arg-type]
            assert (value, set(moves)) == (expected, best), (position, named)
    assert ties  # some position has more than one best move


@pytest.mark.parametrize("empty_capture", [False, True])
def test_solver_with_endgame_database_matches_brute_force(empty_capture):
    variant = Variant(pits=4, seeds=1, empty_capture=empty_capture)
    database = build_in_memory(variant, 6, threads=2)
    rng = random.Random(7 + empty_capture)
    for _ in range(30):
        position = scattered_position(rng, variant, rng.randint(5, 10))
        result = solve(position, endgame=database, threads=2)
        assert result.value == brute(position), position
        assert result.endgame_seeds == 6


def test_single_thread_agrees_with_two():
    rng = random.Random(3)
    variant = Variant(pits=5, seeds=1)
    for _ in range(10):
        position = scattered_position(rng, variant, 12)
        assert solve(position, endgame=None, threads=1).value == solve(position, endgame=None, threads=2).value


def test_pie_rule_start_matches_brute_force():
    for variant in (Variant(3, 2, pie_rule=True), Variant(3, 3, pie_rule=True), Variant(2, 3, pie_rule=True)):
        start = Position.start(variant)
        result = solve(start, endgame=None)
        assert result.value == brute(start)
        after = start.play(result.pv[0])
        swap_result = solve(after, endgame=None)
        assert swap_result.value == brute(after)
        if brute_move_value(after, SWAP) == swap_result.value:
            assert SWAP in swap_result.best_moves


def test_finished_position():
    position = Position([[0, 0, 0, 10], [0, 1, 2, 5]], 0)
    result = solve(position)
    assert result.value == 10 - 8 and result.pv == [] and result.best_moves == []


def test_time_budget_gives_bounds():
    result = solve(Position.start(Variant(6, 6)), time=0.2, endgame=None)
    assert result.lower <= result.upper
    assert result.seconds < 5
    if not result.exact:
        assert "between" in result.describe() or "at" in result.describe()


def test_too_large_without_time_is_refused():
    with pytest.raises(SolveError, match="too large"):
        solve(Position.start(Variant(6, 6)))


def test_result_json_shape():
    result = solve(Position.start(Variant(3, 2)), endgame=None)
    data = result.to_dict()
    for key in ("value", "best_moves", "pv", "nodes", "seconds"):
        assert key in data


def test_two_threads_with_database_agree_with_one():
    """ABDADA marks nodes only well above the database: use positions large enough to share."""
    variant = Variant(pits=5, seeds=1)
    database = build_in_memory(variant, 6, threads=2)
    rng = random.Random(11)
    for _ in range(6):
        position = scattered_position(rng, variant, 15)
        one = solve(position, endgame=database, threads=1, best_moves=False, pv=False)
        two = solve(position, endgame=database, threads=2, best_moves=False, pv=False)
        assert one.value == two.value, position


def test_long_solve_probes_a_private_copy_of_a_database_file(tmp_path):
    from kalah.endgame import build
    from kalah.solve import databases as solve_module

    variant = Variant(pits=4, seeds=3)
    mapped = build(variant, 4, tmp_path, threads=2)
    position = Position.start(variant)  # 24 seeds: at least K + RESIDENT_MARGIN
    assert position.seeds_in_pits >= mapped.max_seeds + solve_module.RESIDENT_MARGIN
    result = solve(position, endgame=mapped.path, threads=2)
    assert result.value == solve(position, endgame=None, threads=2).value
    copies = list(solve_module._RESIDENT_DATABASES.values())
    assert len(copies) == 1 and copies[0].resident and copies[0].path == mapped.path


def test_progress_reports_tightening_bounds_that_end_at_the_value():
    seen = []
    result = solve(Position.start(Variant(4, 3)), endgame=None, progress=lambda lo, hi: seen.append((lo, hi)))
    assert seen and seen[-1] == (result.value, result.value)
    for (lo1, hi1), (lo2, hi2) in zip(seen, seen[1:], strict=False):
        assert lo1 <= lo2 and hi2 <= hi1


def test_a_timed_solve_too_short_for_the_value_still_proves_bounds():
    from kalah import Position, Variant, solve

    result = solve(Position.start(Variant(6, 4)), time=2, threads=1)
    assert not result.exact and result.value is None
    assert -48 <= result.lower <= result.upper <= 48 and (result.lower, result.upper) != (-48, 48)  # not trivial
    assert result.lower <= 8 <= result.upper  # and true: Kalah(6,4) is +8 (bench_solve.py solves it, 18 s)


def test_a_timed_solve_reports_true_bounds_for_the_root_moves_it_reached():
    from kalah import Position, Variant, solve

    start = Position.start(Variant(6, 3))
    clear_cache()  # a table that an earlier test filled with Kalah(6,3)'s proof would answer at once
    timed = solve(start, time=0.3, threads=1, endgame=None)
    assert not timed.exact  # the budget is far too short for Kalah(6,3)
    # The time left after the root's share is split among the moves: every one of them is bounded.
    assert set(timed.move_bounds) == set(start.legal_moves())
    values = {}
    for move, (low, high) in timed.move_bounds.items():
        child = start.play(move)
        value = solve(child, threads=1).value
        values[move] = value if child.to_move == start.to_move else -value
        assert low <= values[move] <= high, (move, low, high, values[move])
    assert timed.to_dict()["move_bounds"][0]["move"] in start.legal_moves()
    # The position is worth its best move: the root's bounds are at least as tight as the moves' give.
    assert timed.lower >= max(low for low, _ in timed.move_bounds.values())
    assert timed.upper <= max(high for _, high in timed.move_bounds.values())
    assert timed.lower <= max(values.values()) <= timed.upper
