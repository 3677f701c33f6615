"""The solver's transposition table keeps every bound a board can have (up to 255 seeds)."""

from __future__ import annotations

from kalah import Position, Variant
from kalah.core.solver import Solver
from kalah.solve import solve

# The mover's only seed goes into its store and empties its row: the opponent
# sweeps its 200 seeds, so the value is 1 - 200 = -199 (201 seeds in the pits).
PITS = [0] * 7 + [1] + [25] * 8
VALUE = -199


def test_table_keeps_bounds_beyond_127():
    solver = Solver(8, False, 16)
    assert solver.search(PITS, -300, 300)[:2] == (VALUE, False)
    assert solver.lookup(PITS) == (VALUE, VALUE, 7)
    entry = solver.lookup(PITS)
    assert entry is not None and (entry.lower, entry.upper, entry.move) == (VALUE, VALUE, 7)  # named fields
    # Later null-window tests answered from the table still tell the truth.
    assert solver.search(PITS, -100, -99)[0] <= -100
    assert solver.search(PITS, VALUE - 1, VALUE)[0] >= VALUE
    assert solver.search(PITS, VALUE, VALUE + 1)[0] <= VALUE


def test_solve_with_a_time_budget_beyond_127_seeds():
    position = Position.from_cells([0] * 7 + [1, 0] + [25] * 8 + [0], 0, Variant(8, 15))
    result = solve(position, time=30, endgame=None, threads=1)
    assert (result.value, result.lower, result.upper, result.best_moves) == (VALUE, VALUE, VALUE, [7])


def test_table_keeps_bounds_of_the_fullest_board():
    # 255 seeds in the pits, the most a board holds: a slot keeps (v + seeds) / 2 in 8 bits.
    pits = [0] * 7 + [1] + [32] * 7 + [30]
    solver = Solver(8, False, 16)
    assert solver.search(pits, -300, 300)[:2] == (1 - 254, False)
    assert solver.lookup(pits) == (1 - 254, 1 - 254, 7)


def test_table_answers_only_for_positions_it_was_told():
    solver = Solver(6, False, 12)  # 4,096 entries: most of Kalah(6,2)'s positions are overwritten
    start = [2] * 12
    assert solver.lookup(start) is None
    value, aborted, _ = solver.search(start, -24, 24)
    assert not aborted and solver.lookup(start)[:2] == (value, value)
    # No position with more seeds than the root is ever reached, so none can answer.
    assert all(solver.lookup([2] * i + [3] + [2] * (11 - i)) is None for i in range(12))
