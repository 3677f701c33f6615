"""Move values and best lines for the analysis panel, from :func:`kalah.search.search` and
:func:`kalah.solve.solve`. Everything here runs in a worker process, never on the server's event loop.
"""

from __future__ import annotations

from typing import Any

from kalah.rules import SWAP, KalahError, Move, Position, line_names, seen_by
from kalah.search import search
from kalah.solve import solve


#: The solver is asked only about positions with at most this many seeds in the pits.
SOLVE_SEEDS = 30


def _move_key(move: Any) -> Move:
    return SWAP if move == SWAP else int(move)


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
    found = search(position, time=seconds)
    result.update(
        value=_number(found.value),
        best_move=found.best_move,
        pv=list(found.pv),
        exact=found.exact,
        moves=[{"move": _move_key(item.move), "value": _number(item.value), "bound": item.bound} for item in found.moves],
        source="search",
    )
    if exact and not result["exact"] and position.seeds_in_pits <= SOLVE_SEEDS:
        try:  # small and single-threaded: the server shares the machine
            solved = solve(position, time=seconds, threads=1, endgame=None, tt_log2=20)
        except KalahError:  # the solver gave up (too big, out of time): keep the search's answer
            solved = None
        if solved is not None and solved.value is not None:
            result.update(value=solved.value, exact=True, source="solver", pv=list(solved.pv or result["pv"]))
            if solved.best_moves:
                result["best_move"] = solved.best_moves[0]
                result["best_moves"] = list(solved.best_moves)
    legal = position.legal_moves()
    result["moves"] = [entry for entry in result["moves"] if entry["move"] in legal]
    if result["best_move"] is not None:
        result["best_move"] = _move_key(result["best_move"])
    result["pv"] = [_move_key(move) for move in result["pv"]]
    result["pv_names"] = line_names(position, result["pv"])
    return result
