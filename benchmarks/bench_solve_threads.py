"""Benchmark: two cores on one null-window test (ABDADA) against two tests side by side, and kalah.solve on 1 and 2 threads.

    python benchmarks/bench_solve_threads.py               # Kalah(6,4), database K=16 in memory (about 3 minutes)
    python benchmarks/bench_solve_threads.py --seeds 3 -k 12

Every row runs in a fresh process, with the endgame database computed in
memory (not timed) and a fresh table of 2^23 entries, so that no row finds
another's work. The test is the value's larger proof: that the value is below
value + 2 (for Kalah(6,4), below +10). Rows:

- the test on one thread, then on two (ABDADA: both search the tree, leaving
  each other's busy children for later);
- two copies of the test side by side, each on one thread with its own table:
  what two cores give two independent searches;
- `kalah.solve` (value, then best moves) on one thread and on two (the
  tests side by side, kalah.solve.parallel).

Results go to results/solve_threads.md.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import threading
import time

from common import markdown_table, report
from kalah import InvalidVariantError, Position, Variant, solve
from kalah.core.solver import Solver
from kalah.endgame import build_in_memory

TABLE_LOG2 = 23
ROWS = ("solve-1", "solve-2", "test-1", "test-2", "two-tests")


def measure(row: str, seeds: int, k: int, bar: int) -> dict[str, object]:
    """One row, in this process."""
    position = Position.start(Variant(6, seeds))
    database = build_in_memory(position.variant, k, threads=2)
    pits = [seeds] * 12
    if row.startswith("solve"):
        started = time.perf_counter()
        result = solve(position, threads=int(row[-1]), endgame=database, tt_log2=TABLE_LOG2, pv=False)
        return {
            "seconds": time.perf_counter() - started,
            "nodes": result.nodes,
            "value": result.value,
            "answer": f"{result.value:+d}, best {result.best_moves}",
        }
    solvers = [Solver(6, False, TABLE_LOG2) for _ in range(2 if row == "two-tests" else 1)]
    for solver in solvers:
        solver.set_endgame(database.table)
    outcomes: list[tuple[int, bool, int]] = []
    threads = 2 if row == "test-2" else 1
    runs = [
        threading.Thread(target=lambda s=solver: outcomes.append(s.search(pits, bar - 1, bar, threads)))
        for solver in solvers
    ]
    started = time.perf_counter()
    for run in runs:
        run.start()
    for run in runs:
        run.join()
    seconds = time.perf_counter() - started
    return {
        "seconds": seconds,
        "nodes": sum(nodes for _, _, nodes in outcomes),
        "answer": " and ".join("at least" if value >= bar else "below" for value, _, _ in outcomes) + f" {bar:+d}",
    }


def in_fresh_process(row: str, seeds: int, k: int, bar: int) -> dict[str, object]:
    out = subprocess.run(
        [sys.executable, __file__, "--row", row, "--seeds", str(seeds), "-k", str(k), "--bar", str(bar)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out.splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=4, help="seeds per pit of Kalah(6,n) (default 4)")
    parser.add_argument("-k", type=int, default=16, help="K of the endgame database computed in memory (default 16)")
    parser.add_argument("--row", choices=ROWS, help=argparse.SUPPRESS)
    parser.add_argument("--bar", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    try:
        Variant(6, args.seeds)
    except InvalidVariantError as error:
        parser.error(str(error))
    if not 1 <= args.seeds <= 4:
        parser.error(f"--seeds must be from 1 to 4 (larger ones take hours here), got {args.seeds}")
    if not 0 <= args.k <= 20:
        parser.error(f"-k must be from 0 to 20 (an in-memory database), got {args.k}")
    if args.row:
        print(json.dumps(measure(args.row, args.seeds, args.k, args.bar)))
        return
    one = in_fresh_process("solve-1", args.seeds, args.k, 0)
    bar = int(one["value"]) + 2  # type: ignore[call-overload]
    found = {"solve-1": one, **{row: in_fresh_process(row, args.seeds, args.k, bar) for row in ROWS[1:]}}
    names = {
        "test-1": "the test, one thread",
        "test-2": "the test, two threads (ABDADA)",
        "two-tests": "two copies of the test side by side, one thread and one table each",
        "solve-1": "kalah.solve, one thread",
        "solve-2": "kalah.solve, two threads (tests side by side)",
    }
    rows = [
        [names[row], found[row]["answer"], f"{found[row]['nodes']:,}", f"{found[row]['seconds']:.1f}"]
        for row in ("test-1", "test-2", "two-tests", "solve-1", "solve-2")
    ]
    body = (
        f"Kalah(6,{args.seeds}) from the start, database K={args.k} in memory (not timed), a fresh table of "
        f"2^{TABLE_LOG2} entries in each row, each row in a fresh process. The test: is the value at least {bar:+d}?\n\n"
        + markdown_table(["row", "answer", "nodes", "seconds"], rows)
    )
    report(f"Two cores on Kalah(6,{args.seeds}): one test together, or tests side by side", body, "solve_threads.md")


if __name__ == "__main__":
    main()
