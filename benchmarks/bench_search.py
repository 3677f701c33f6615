"""The search engine: nodes and time of every algorithm against depth, raw speed, depth in one second.

    python benchmarks/bench_search.py [--max-depth 14] [--minimax-max-depth 11] [--repeats 5]

1. Nodes and seconds of minimax, alphabeta, scout, pvs and mtdf at depths 1 to
   14 from the start of Kalah(6,4) (evaluation strong; the seeds' versions:
   memoized minimax, the others with table, progressive deepening and move
   ordering). Minimax stops at --minimax-max-depth (it grows about 5x a move).
2. Nodes per second of plain fixed-depth alpha-beta (no table, pits in
   order, evaluation store) at depth 12: the best of --repeats runs.
   Target: at least 35 million nodes per second on one core.
3. How deep pvs gets from the start in 1 second (and mtdf, alphabeta).
Results go to results/search.md.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

from common import markdown_table, report

from kalah import Position, search
from kalah.core.search import Engine, reference_alphabeta
from kalah.search import EXACT_ALGORITHMS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--max-depth", type=int, default=14)
    parser.add_argument("--minimax-max-depth", type=int, default=11)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()

    start = Position.start()
    sections = []

    # 1. nodes and time against depth
    rows = []
    agree = True
    for depth in range(1, args.max_depth + 1):
        row = [depth]
        answers = set()
        for algorithm in EXACT_ALGORITHMS:
            if algorithm == "minimax" and depth > args.minimax_max_depth:
                row.append("-")
                continue
            result = search(start, algorithm, depth=depth, evaluation="strong", move_values=False)
            answers.add((result.value, result.best_move))
            row.append(f"{result.stats.nodes:,} / {result.stats.seconds:.4f}s")
        agree &= len(answers) == 1
        rows.append(row)
    sections.append(
        "## Nodes / seconds from the start of Kalah(6,4), evaluation strong\n\n"
        + markdown_table(["depth", *EXACT_ALGORITHMS], rows)
        + f"\n\nAll algorithms returned the same value and best move at every depth: {'yes' if agree else 'NO'}."
    )

    # 2. raw speed of plain alpha-beta
    engine = Engine(0)
    best = None
    for _ in range(args.repeats):
        result = search(start, "alphabeta", depth=12, evaluation="store", move_values=False, memo=False,
                        ordering=False, iterative=False, engine=engine)
        if best is None or result.stats.seconds < best.stats.seconds:
            best = result
    rate = best.stats.nodes / best.stats.seconds
    reference = min((reference_alphabeta(start, 12) for _ in range(args.repeats)), key=lambda run: run[2])
    sections.append(
        "## Plain fixed-depth alpha-beta (no table, pits in order), depth 12, evaluation store\n\n"
        + markdown_table(["search", "nodes", "seconds (best of %d)" % args.repeats, "nodes per second"],
                         [["kalah.search alphabeta (memo, ordering, iterative off)", f"{best.stats.nodes:,}",
                           f"{best.stats.seconds:.4f}", f"{rate / 1e6:.1f} M"],
                          ["the plainest C alpha-beta (yardstick, same machine, same moment)", f"{reference[1]:,}",
                           f"{reference[2]:.4f}", f"{reference[1] / reference[2] / 1e6:.1f} M"]])
        + "\n\nTarget: at least 35 M nodes per second on one core of the development machine "
        "(where a plain C version reaches about 50 M)."
    )

    # 3. depth in one second, cold: each search in a fresh process, as a user's first search
    rows = []
    for algorithm in ("pvs", "mtdf", "alphabeta"):
        for move_values in (False, True):
            result = _cold_search(algorithm, move_values)
            rows.append([algorithm, "every root move" if move_values else "best move only", result["depth"],
                         f"{result['nodes']:,}", f"{result['seconds']:.3f}", result["best_move"], result["value"]])
    sections.append("## Depth reached from the start in 1 second, cold (evaluation strong, a fresh process each)\n\n"
                    "`kalah.search(Position.start(), ALGORITHM, time=1.0, move_values=...)`: players and"
                    " `kalah compare` ask for the best move only; `kalah analyse` and the default for every root"
                    " move's exact value.\n\n"
                    + markdown_table(["algorithm", "values", "depth", "nodes", "seconds", "best move", "value"], rows))

    report("Search engine", "\n\n".join(sections), None if args.no_write else "search.md")


def _cold_search(algorithm: str, move_values: bool) -> dict:
    code = ("import json, kalah; r = kalah.search(kalah.Position.start(), %r, time=1.0, evaluation='strong',"
            " move_values=%r); print(json.dumps({'depth': r.stats.depth, 'nodes': r.stats.nodes,"
            " 'seconds': r.stats.seconds, 'best_move': r.best_move, 'value': r.value}))") % (algorithm, move_values)
    output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return json.loads(output)


if __name__ == "__main__":
    main()
