"""Move values and best lines for the analysis panel, from ``kalah.search`` and ``kalah.solve``; traces for the lab.

Everything here runs in a worker process, never on the server's event loop.
"""

from __future__ import annotations

import time
from typing import Any

from kalah.rules import Position, line_names
from kalah.search import search, trace
from kalah.search.mcts_trace import trace_mcts
from kalah.solve import SolveError, solve

#: The solver is asked only about positions with at most this many seeds in the pits.
SOLVE_SEEDS = 30


def _number(value: float | int | None) -> float | int | None:
    if value is None:
        return None
    return int(value) if float(value).is_integer() else round(float(value), 3)


def analyse(position_json: str, seconds: float = 0.5, exact: bool = True) -> dict[str, Any]:
    """The value of every legal move and the best line, for the side to move.

    Values are from the point of view of the player to move (positive is good
    for them). With ``exact`` the solver is tried as well where the position
    is small enough. The whole analysis takes at most ``seconds`` (the search
    and the solver share them), so that it keeps within the server's limit
    per job.
    """
    began = time.monotonic()
    position = Position.from_json(position_json)
    result: dict[str, Any] = {"available": True, "to_move": position.to_move, "moves": [], "pv": [],
                              "value": None, "best_move": None, "exact": False, "source": None}
    if position.is_over:
        result.update(value=position.mover_margin, exact=True, source="rules", pv_names=[])
        return result
    may_solve = exact and position.seeds_in_pits <= SOLVE_SEEDS
    found = search(position, time=seconds / 2 if may_solve else seconds)
    result.update(
        value=_number(found.value),
        best_move=found.best_move,
        pv=list(found.pv),
        exact=found.exact,
        moves=[{"move": entry.move, "value": _number(entry.value), "bound": entry.bound} for entry in found.moves],
        source="search",
    )
    left = seconds - (time.monotonic() - began)
    if may_solve and not found.exact and left > 0:
        try:  # small and single-threaded: the server shares the machine
            solved = solve(position, time=left, threads=1, endgame=None, tt_log2=20)
        except (SolveError, MemoryError):  # too big for this worker: keep the search's answer
            solved = None
        if solved is not None and solved.value is not None:
            result.update(value=solved.value, exact=True, source="solver", pv=list(solved.pv) or result["pv"])
            if solved.best_moves:
                result["best_move"] = solved.best_moves[0]
                result["best_moves"] = list(solved.best_moves)
    result["pv_names"] = line_names(position, result["pv"])
    return result


def trace_json(position_json: str, algorithm: str, depth: int, evaluation: str, options: dict[str, bool],
               max_nodes: int) -> dict[str, Any]:
    """``kalah.trace(...).to_json()`` (format kalah-trace/1, docs/trace.md) of the position in JSON."""
    position = Position.from_json(position_json)
    return trace(position, algorithm, depth, evaluation, max_nodes=max_nodes, **options).to_json()


def mcts_trace_json(position_json: str, playouts: int, seed: int, depth: int) -> dict[str, Any]:
    """UCT traced iteration by iteration (``kalah-mcts-trace/1``, docs/trace.md) beside an alpha-beta
    search of the same position to ``depth``: the lab's MCTS page shows both."""
    position = Position.from_json(position_json)
    traced = trace_mcts(position, playouts, seed=seed).to_json()
    beside = search(position, algorithm="alphabeta", depth=depth) if not position.is_over else None
    traced["alphabeta"] = None if beside is None else {
        "depth": depth, "value": _number(beside.value), "best_move": beside.best_move,
        "moves": [{"move": entry.move, "value": _number(entry.value), "bound": entry.bound} for entry in beside.moves],
        "nodes": beside.stats.nodes,
    }
    return traced
