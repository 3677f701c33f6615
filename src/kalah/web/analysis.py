"""Move values and best lines for the analysis panel, from ``kalah.analyse``; traces for the lab.

Everything here runs in a worker process, never on the server's event loop.
"""

from __future__ import annotations

import json
from typing import Any

from kalah.analysis import Analysis
from kalah.analysis import analyse as analyse_position
from kalah.rules import Position, line_names
from kalah.search import search, trace
from kalah.search.mcts_trace import trace_mcts


def _number(value: float | int | None) -> float | int | None:
    if value is None:
        return None
    return int(value) if float(value).is_integer() else round(float(value), 3)


def analyse(position_json: str, seconds: float = 0.5) -> dict[str, Any]:
    """The value of every legal move and the best line, for the side to move, each value marked exact or not.

    :func:`kalah.analyse` on one thread (the server shares the machine): the
    book, the endgame databases and a bounded solve first, a search for the
    rest of the time where they prove nothing. The whole analysis keeps within
    ``seconds``, the server's limit per job. Values are in seeds from the
    point of view of the player to move.
    """
    position = Position.from_json(position_json)
    found = analyse_position(position, seconds, threads=1)
    return {
        "available": True,
        "to_move": position.to_move,
        "value": found.value,
        "exact": found.exact,
        "source": found.source,
        "depth": found.depth,
        "best_move": found.best_move,
        "best_moves": list(found.best_moves),
        "moves": [
            {
                "move": entry.move,
                "value": entry.value,
                "exact": entry.exact,
                "bound": "exact" if entry.exact else "estimate",
            }
            for entry in found.moves
        ],
        "pv": list(found.pv),
        "pv_names": line_names(position, found.pv),
    }


def _encoded(data: dict[str, Any]) -> bytes:
    """JSON text of a large answer, made in the worker: encoding a tree of 100,000 nodes on the server's event
    loop would hold every other client for a fifth of a second."""
    return json.dumps(data, separators=(",", ":"), allow_nan=False).encode()


def trace_json(
    position_json: str, algorithm: str, depth: int, evaluation: str, options: dict[str, bool], max_nodes: int
) -> bytes:
    """``kalah.trace(...).to_json()`` (format kalah-trace/1, docs/trace.md) of the position in JSON, encoded."""
    position = Position.from_json(position_json)
    return _encoded(trace(position, algorithm, depth, evaluation, max_nodes=max_nodes, **options).to_json())


def mcts_trace_json(position_json: str, playouts: int, seed: int, depth: int) -> bytes:
    """UCT traced iteration by iteration (``kalah-mcts-trace/1``, docs/trace.md) beside an alpha-beta
    search of the same position to ``depth``: the lab's MCTS page shows both."""
    position = Position.from_json(position_json)
    traced = trace_mcts(position, playouts, seed=seed).to_json()
    beside = search(position, algorithm="alphabeta", depth=depth) if not position.is_over else None
    traced["alphabeta"] = (
        None
        if beside is None
        else {
            "depth": depth,
            "value": _number(beside.value),
            "best_move": beside.best_move,
            "moves": [
                {"move": entry.move, "value": _number(entry.value), "bound": entry.bound} for entry in beside.moves
            ],
            "nodes": beside.stats.nodes,
        }
    )
    return _encoded(traced)


def review_position(position_json: str, seconds: float) -> Analysis:
    """One position of a game's review (:mod:`kalah.web.review`): :func:`kalah.analyse` on one thread, for
    ``seconds``. The analysis itself is answered (it is pickled back from the worker): the server assembles
    the review from the analyses of all the positions (:func:`kalah.review.review_of_analyses`)."""
    return analyse_position(Position.from_json(position_json), seconds, threads=1)
