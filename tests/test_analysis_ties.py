"""Where several moves are worth the same, the solver's line begins with the first of its best moves,
the lowest pit, as the search breaks ties."""

from __future__ import annotations

import subprocess
import sys

from kalah import Position, solve

#: Out of the book, solved: b and c keep +8 for player 1; the solver's table held c.
SOLVER_TIE = Position.from_dict({"board": [[0, 8, 5, 0, 1], [1, 2, 2, 0, 5]], "to_move": 1, "variant": {"seeds": 3}})


def kalah(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kalah.cli", *args], capture_output=True, text=True, timeout=120)


def test_the_solvers_line_begins_with_its_first_best_move():
    for time in (None, 5.0):
        solved = solve(SOLVER_TIE, time, threads=1)
        assert solved.best_moves == [1, 2] and solved.pv[0] == 1
    shown = kalah("solve", "-p", SOLVER_TIE.to_json())
    assert "best moves: b, c" in shown.stdout and "principal variation: b " in shown.stdout
