"""The distributed solve on a local Dask cluster: 1, 2 and 4 worker processes against one machine.

    python benchmarks/bench_solve_cluster.py                  # Kalah(6,4), workers 1,2,4
    python benchmarks/bench_solve_cluster.py --seeds 4 --workers 1,2 --split-plies 3

Every figure is measured cold, in a fresh interpreter (a fresh LocalCluster of
worker processes with one thread each, empty tables). The endgame database
(K = --k, 6 pits) is built once into a scratch directory first and every run
probes that file (the shared path a real cluster would mount), so its build is
not in the times. The single-machine rows are ``kalah.solve(threads=N)`` with
the same file. The times include starting the cluster's processes only in the
"with start" column. On a machine of 2 cores, 4 workers cannot beat 2: they
share the same cores.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from common import figure, markdown_table, report

CLUSTER = """
import json, time
started = time.perf_counter()
import distributed
from kalah import Position, Variant
from kalah.solve.cluster import solve_on_cluster
if __name__ == "__main__":
    with distributed.LocalCluster(n_workers={workers}, threads_per_worker=1, processes=True, dashboard_address=None) as local, \\
            distributed.Client(local) as client:
        ready = time.perf_counter()
        result, run = solve_on_cluster(Position.start(Variant({pits}, {seeds})), client, endgame={database!r},
                                       split_plies={plies})
        done = time.perf_counter()
    print(json.dumps({{"value": result.value, "best": result.best_moves, "nodes": result.nodes, "seconds": done - ready,
                      "with_start": done - started, "tests": len(run.submitted), "leaves": run.leaves}}))
"""

LOCAL = """
import json, time
started = time.perf_counter()
from kalah import Position, Variant, solve
result = solve(Position.start(Variant({pits}, {seeds})), threads={threads}, endgame={database!r}, pv=False)
done = time.perf_counter()
print(json.dumps({{"value": result.value, "best": result.best_moves, "nodes": result.nodes, "seconds": result.seconds,
                  "with_start": done - started}}))
"""

BUILD = """
from kalah import Variant
from kalah.endgame import build
print(build(Variant({pits}, 4), {k}, {directory!r}).path)
"""


def run_child(code: str) -> dict:
    """One measurement in a fresh interpreter: nothing learnt by an earlier run is kept. With the load
    average just before it (other work on the machine slows it)."""
    load = os.getloadavg()[0]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    found = json.loads(out.stdout.strip().splitlines()[-1])
    found["load"] = f"{load:.2f}"
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pits", type=int, default=6)
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--k", type=int, default=18, help="K of the endgame database every run probes")
    parser.add_argument("--workers", default="1,2,4", help="worker processes of the local clusters")
    parser.add_argument("--split-plies", type=int, default=2)
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="kalah-bench-cluster-"))
    try:
        path = subprocess.run(
            [sys.executable, "-c", BUILD.format(pits=args.pits, k=args.k, directory=str(scratch))],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        rows = []
        local = {}
        for threads in (1, 2):
            found = run_child(LOCAL.format(pits=args.pits, seeds=args.seeds, threads=threads, database=path))
            local[threads] = found["seconds"]
            rows.append(
                [
                    f"one machine, kalah.solve(threads={threads})",
                    f"{found['value']:+d}",
                    found["best"],
                    f"{found['nodes']:,}",
                    "",
                    f"{found['seconds']:.1f}",
                    f"{found['with_start']:.1f}",
                    "",
                    found["load"],
                ]
            )
        cluster = {}
        for workers in [int(n) for n in args.workers.split(",")]:
            found = run_child(
                CLUSTER.format(workers=workers, pits=args.pits, seeds=args.seeds, database=path, plies=args.split_plies)
            )
            cluster[workers] = found["seconds"]
            first = cluster[min(cluster)]
            rows.append(
                [
                    f"LocalCluster, {workers} worker process{'es' if workers > 1 else ''}",
                    f"{found['value']:+d}",
                    found["best"],
                    f"{found['nodes']:,}",
                    f"{found['tests']} on {found['leaves']} leaves",
                    f"{found['seconds']:.1f}",
                    f"{found['with_start']:.1f}",
                    f"{first / found['seconds']:.2f}",
                    found["load"],
                ]
            )
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    headers = [
        "solver",
        "value",
        "best moves",
        "nodes",
        "leaf tests",
        "seconds",
        "with start",
        "speed-up",
        "load before",
    ]
    body = (
        f"Kalah({args.pits},{args.seeds}) from the start, split {args.split_plies} plies, endgame database K={args.k} "
        f"on disk (its build not timed). Seconds: the solve alone; with start: the fresh interpreter, the "
        f"cluster's processes and the solve. Speed-up against the cluster of "
        f"{min(cluster)} worker. Load before: the 1-minute load average just before the run. This machine has {os.cpu_count()} cores and other work ran on it: 4 workers "
        f"share 2 cores, so they cannot beat 2.\n\n" + markdown_table(headers, rows)
    )
    report(f"Distributed solve of Kalah({args.pits},{args.seeds}) on a local Dask cluster", body, "solve_cluster.md")
    if args.pits == 6 and args.seeds == 4:
        figure(
            "solve-cluster",
            "solve Kalah(6,4) on a local Dask cluster, "
            + " / ".join(map(str, cluster))
            + " worker processes (one machine, 1 thread: "
            + f"{local[1]:.1f} s)",
            " / ".join(f"{seconds:.1f}" for seconds in cluster.values()) + " s",
            "solve_cluster.md",
        )


if __name__ == "__main__":
    main()
