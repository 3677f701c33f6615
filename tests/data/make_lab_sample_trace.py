"""Make tests/data/lab_sample_trace.json: a hand-made alpha-beta trace in kalah-trace/1 (docs/trace.md of labcore)."""
import json, math
from kalah.rules import Position

start = Position.from_dict({"board": [[3, 3, 3, 3, 0], [3, 3, 3, 3, 0]], "to_move": 0,
                            "variant": {"pits": 4, "seeds": 3, "empty_capture": False, "pie_rule": False}})
nodes = []

def evaluate(p):
    me = p.to_move
    return p.board[me][-1] - p.board[1 - me][-1]

def inf(x):
    return "inf" if x == math.inf else "-inf" if x == -math.inf else x

def search(p, depth, alpha, beta, parent, move):
    node = {"id": len(nodes), "parent": parent, "move": move, "depth": depth, "alpha": inf(alpha), "beta": inf(beta),
            "value": None, "bound": "exact", "cutoff": False, "table_hit": False, "kind": "search"}
    nodes.append(node)
    a0 = alpha
    if depth == 0 or p.is_over:
        node["value"] = evaluate(p)
        return node["value"]
    best = -math.inf
    for m in p.legal_moves():
        child = p.play(m)
        same = child.to_move == p.to_move
        if same:
            v = search(child, depth - 1, alpha, beta, node["id"], m)
        else:
            v = -search(child, depth - 1, -beta, -alpha, node["id"], m)
        best = max(best, v)
        alpha = max(alpha, v)
        if alpha >= beta:
            node["cutoff"] = True
            break
    node["value"] = best
    node["bound"] = "lower" if best >= beta else "upper" if best <= a0 else "exact"
    return best

value = search(start, 3, -math.inf, math.inf, None, None)
# one node marked as a table hit so the page's marking of hits is exercised
nodes[-1]["table_hit"] = True
root_children = [n for n in nodes if n["parent"] == 0]
best = max(root_children, key=lambda n: (n["value"] if start.play(n["move"]).to_move == 0 else -n["value"]))
doc = {"format": "kalah-trace/1", "position": start.to_dict(), "algorithm": "alphabeta", "depth": 3,
       "evaluation": "store", "options": {},
       "result": {"value": value, "best_move": best["move"], "pv": [best["move"]], "moves": [],
                  "nodes": len(nodes), "seconds": 0.0001, "depth": 3, "exact": False,
                  "algorithm": "alphabeta", "evaluation": "store"},
       "nodes": nodes}
open("/work/wt-labweb/tests/data/lab_sample_trace.json", "w").write(json.dumps(doc, indent=1) + "\n")
print(len(nodes), value, sum(n["cutoff"] for n in nodes))
