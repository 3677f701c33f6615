"""Game-tree search: ``kalah.search(position, algorithm="pvs", depth=None, time=None, evaluation="strong")``.

The algorithms run in compiled code (``kalah.core.search``, csrc/search.c):

- ``minimax``: plain negamax (``memo=True`` memoizes exact values per depth, as the seeds do);
- ``alphabeta``: fail-soft alpha-beta with a transposition table of bound flags
  (the seeds' ``=``, ``≥``, ``≤``), progressive deepening and move ordering;
- ``scout``: Pearl's SCOUT (EVAL and TEST) with memoization, progressive
  deepening and move ordering;
- ``pvs`` (principal variation search, NegaScout) and ``mtdf`` (MTD(f));
- ``mcts``: UCT Monte-Carlo tree search with compiled random playouts.

Depth counts moves (sowings): a move that earns an extra turn uses one unit of
depth and the same side moves again. The five exact algorithms return the same
value and the same best move at the same depth and evaluation (the best move
is the lowest pit index among the moves of best value, the swap counting as
the highest); they differ in nodes and time.

Values are in seeds, from the point of view of the side to move: a finished
game counts its exact final margin (an ``int``), a position at the depth limit
its heuristic evaluation (a ``float``; internally integers of
``1/UNIT`` seed). ``exact`` is true when the value is proven: no heuristic
evaluation contributed to it, only finished games (and endgame-oracle probes).
"""

from .options import (
    ALGORITHMS,
    DEFAULT_DEPTH,
    EVALUATIONS,
    EXACT_ALGORITHMS,
    MAX_DEPTH,
    MAX_PLAYOUTS,
    MAX_THREADS,
    MAX_TIME,
    PRACTICAL_ALGORITHMS,
    AlgorithmName,
    Bound,
    EvaluationName,
    Limit,
    SearchError,
    check_algorithm,
    check_depth,
    check_evaluation,
    check_threads,
    check_time,
    default_threads,
)
from .result import MoveValue, SearchResult, SearchStats
from .run import search
from .tracing import SearchTrace, TraceNode, TraceTooLargeError, trace

__all__ = [
    "ALGORITHMS",
    "AlgorithmName",
    "Bound",
    "EVALUATIONS",
    "EXACT_ALGORITHMS",
    "DEFAULT_DEPTH",
    "EvaluationName",
    "Limit",
    "MAX_DEPTH",
    "MAX_PLAYOUTS",
    "MAX_THREADS",
    "MAX_TIME",
    "PRACTICAL_ALGORITHMS",
    "MoveValue",
    "SearchError",
    "SearchResult",
    "SearchStats",
    "SearchTrace",
    "TraceNode",
    "TraceTooLargeError",
    "check_algorithm",
    "check_depth",
    "check_evaluation",
    "check_threads",
    "check_time",
    "default_threads",
    "search",
    "trace",
]
