"""A hand-made alpha-beta trace in the kalah-trace/1 format (docs/trace.md), for the lab's tests.

``python tests/data/make_lab_sample_trace.py`` rewrites tests/data/lab_sample_trace.json;
:func:`make_trace` also makes larger traces (the page's test with many nodes).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from kalah.rules import Position

SAMPLE_POSITION = {"board": [[3, 3, 3, 3, 0], [3, 3, 3, 3, 0]], "to_move": 0,
                   "variant": {"pits": 4, "seeds": 3, "empty_capture": False, "pie_rule": False}}


def _json_bound(x: float) -> Any:
    return "inf" if x == math.inf else "-inf" if x == -math.inf else x


def make_trace(position: dict[str, Any], depth: int) -> dict[str, Any]:
    """Alpha-beta (store difference as the evaluation) of ``position`` to ``depth``, every node recorded."""
    start = Position.from_dict(position)
    nodes: list[dict[str, Any]] = []

    def search(p: Position, depth: int, alpha: float, beta: float, parent: int | None, move: Any) -> float:
        node = {"id": len(nodes), "parent": parent, "move": move, "depth": depth, "alpha": _json_bound(alpha),
                "beta": _json_bound(beta), "value": None, "bound": "exact", "cutoff": False, "table_hit": False,
                "kind": "search"}
        nodes.append(node)
        first_alpha = alpha
        if depth == 0 or p.is_over:
            node["value"] = p.board[p.to_move][-1] - p.board[1 - p.to_move][-1]
            return node["value"]
        best = -math.inf
        for m in p.legal_moves():
            child = p.play(m)
            if child.to_move == p.to_move:  # an extra turn: same mover, same window
                v = search(child, depth - 1, alpha, beta, node["id"], m)
            else:
                v = -search(child, depth - 1, -beta, -alpha, node["id"], m)
            best = max(best, v)
            alpha = max(alpha, v)
            if alpha >= beta:
                node["cutoff"] = True
                break
        node["value"] = best
        node["bound"] = "lower" if best >= beta else "upper" if best <= first_alpha else "exact"
        return best

    value = search(start, depth, -math.inf, math.inf, None, None)
    nodes[-1]["table_hit"] = True  # one marked hit, so that the page's marking is exercised
    children = [n for n in nodes if n["parent"] == 0]
    best = max(children, key=lambda n: n["value"] if start.play(n["move"]).to_move == start.to_move else -n["value"])
    return {"format": "kalah-trace/1", "position": start.to_dict(), "algorithm": "alphabeta", "depth": depth,
            "evaluation": "store", "options": {},
            "result": {"value": value, "best_move": best["move"], "pv": [best["move"]], "moves": [],
                       "nodes": len(nodes), "seconds": 0.0001, "depth": depth, "exact": False,
                       "algorithm": "alphabeta", "evaluation": "store"},
            "nodes": nodes}


if __name__ == "__main__":
    out = Path(__file__).with_name("lab_sample_trace.json")
    out.write_text(json.dumps(make_trace(SAMPLE_POSITION, 3), indent=1) + "\n")
