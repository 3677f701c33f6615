"""The exact solver: ``kalah.solve(position, time=None, ...)``.

The value of a position is the final margin (the mover's total minus the
opponent's) under perfect play by both sides. The search runs in compiled code
(``kalah.core.solver``, csrc/solve.c): MTD(f) driven null-window alpha-beta
over the seeds in the pits (the stores only add their difference, so one table
entry serves every distribution of the stores), with a large transposition
table shared by several threads (tests side by side, :mod:`kalah.solve.parallel`,
and ABDADA within a test), bounds from the seeds left, move ordering (table
move, extra turns, immediate gains, the opponent's replies) and
endgame-database probes. The first MTD(f) guess comes from a short heuristic search.

``endgame="auto"`` uses the largest database of the variant found in
:func:`kalah.endgame.default_directory`, or else computes a small one in
memory (kept for the rest of the process); ``None`` solves without one.
With ``time`` the solve stops after that many seconds and reports what it
proved (``lower <= value <= upper``).
"""

from __future__ import annotations

from .databases import planned_max_seeds, prepare_endgame
from .result import SolveError, SolveResult
from .solving import MAX_EXACT_SEEDS, MAX_SOLVE_TIME, clear_cache, solve

__all__ = [
    "MAX_EXACT_SEEDS",
    "MAX_SOLVE_TIME",
    "SolveError",
    "SolveResult",
    "clear_cache",
    "planned_max_seeds",
    "prepare_endgame",
    "solve",
]
