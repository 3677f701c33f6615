"""Move values and best lines for the analysis panel, from ``kalah.search`` and ``kalah.solve``.

The algorithms live in other layers that may not be installed yet; then
:func:`analyse` says so instead of failing. Everything here runs in a worker
process, never on the server's event loop.
"""

from __future__ import annotations

import importlib
from typing import Any

from kalah.rules import SWAP, Position, line_names, seen_by


#: The solver is asked only about positions with at most this many seeds in the pits.
SOLVE_SEEDS = 30


def _function(name: str):
    try:
        module = importlib.import_module("kalah")
    except ImportError:  # pragma: no cover
        return None
    function = getattr(module, name, None)
    if function is None:
        try:
            function = getattr(importlib.import_module(f"kalah.{name}"), name, None)
        except ImportError:
            function = None
    return function if callable(function) else None


def analysis_available() -> bool:
    return _function("search") is not None or _function("solve") is not None


def _move_key(move: Any) -> Any:
    return SWAP if move == SWAP else int(move)


def _pairs(moves: Any) -> list[tuple[Any, Any, str]]:
    """Read a search result's per-move values, whatever container it uses."""
    if moves is None:
        return []
    if isinstance(moves, dict):
        return [(_move_key(move), value, "exact") for move, value in moves.items()]
    pairs = []
    for item in moves:
        if isinstance(item, (tuple, list)) and len(item) >= 2:
            pairs.append((_move_key(item[0]), item[1], "exact"))
        elif hasattr(item, "move"):
            pairs.append((_move_key(item.move), getattr(item, "value", None), getattr(item, "bound", "exact")))
    return pairs


def _number(value: Any) -> float | int | None:
    if value is None:
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return int(number) if number.is_integer() else round(number, 3)


def analyse(position_json: str, seconds: float = 0.5, exact: bool = True) -> dict[str, Any]:
    """The value of every legal move and the best line, for the side to move.

    Values are from the point of view of the player to move (positive is good
    for them). With ``exact`` the solver is tried first where it exists.
    """
    position = Position.from_json(position_json)
    result: dict[str, Any] = {"available": True, "to_move": position.to_move, "moves": [], "pv": [],
                              "value": None, "best_move": None, "exact": False, "source": None}
    if position.is_over:
        result.update(value=seen_by(position.margin or 0, position.to_move), exact=True,
                      source="rules")
        return result
    search, solve = _function("search"), _function("solve")
    if search is None and solve is None:
        return {"available": False, "reason": "analysis is unavailable: no search engine is installed yet"}
    if search is not None:
        found = search(position, time=seconds)
        result.update(
            value=_number(getattr(found, "value", None)),
            best_move=getattr(found, "best_move", None),
            pv=list(getattr(found, "pv", []) or []),
            exact=bool(getattr(found, "exact", False)),
            moves=[{"move": move, "value": _number(value), "bound": bound}
                   for move, value, bound in _pairs(getattr(found, "moves", None))],
            source="search",
        )
    if solve is not None and exact and not result["exact"] and position.seeds_in_pits <= SOLVE_SEEDS:
        try:  # small and single-threaded: the server shares the machine
            solved = solve(position, time=seconds, threads=1, endgame=None, tt_log2=20)
        except Exception:  # the solver may give up (too big, out of time): keep the search's answer
            solved = None
        if solved is not None and getattr(solved, "value", None) is not None:
            best = list(getattr(solved, "best_moves", []) or [])
            result.update(value=_number(solved.value), exact=True, source="solver",
                          pv=list(getattr(solved, "pv", []) or result["pv"]))
            if best:
                result["best_move"] = best[0]
                result["best_moves"] = best
    legal = position.legal_moves()
    result["moves"] = [entry for entry in result["moves"] if entry["move"] in legal]
    if result["best_move"] is not None:
        result["best_move"] = _move_key(result["best_move"])
    result["pv"] = [_move_key(move) for move in result["pv"]]
    result["pv_names"] = line_names(position, result["pv"])
    return result
