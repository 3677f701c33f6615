"""Benchmark: solve Kalah(6,5) from the start (long: minutes, gigabytes).

    python benchmarks/bench_kalah65.py                       # K=28 database in a scratch dir, then the solve
    python benchmarks/bench_kalah65.py --directory ~/egdb    # keep (or reuse) the database there

The endgame database (6 pits, standard capture, K = --max-seeds) is built
first and its build time reported, unless --directory already holds it (then
the table says so). The solve runs in a fresh interpreter with that database
and a time budget (--time): past it, the proven bounds are reported. The
result goes to benchmarks/results/kalah65.md.
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

BUILD = """
import json, time
from kalah import Variant
from kalah.endgame import build
t = time.perf_counter()
d = build(Variant(6, 5), {k}, {directory!r})
print(json.dumps([d.positions, d.nbytes, time.perf_counter() - t]))
"""

# The value first, then (same process, same table) the best moves and the
# principal variation, so that the two parts are timed apart.
SOLVE = """
import json, time
from kalah import Position, Variant, solve
start = Position.start(Variant(6, 5))
t = time.perf_counter()
r = solve(start, time={budget}, threads={threads}, tt_log2={tt_log2}, best_moves=False, pv=False)
value_seconds = time.perf_counter() - t
if r.exact:
    r = solve(start, time=max(1.0, {budget} - value_seconds), threads={threads}, tt_log2={tt_log2})
print(json.dumps([r.describe(), r.exact, r.best_moves, r.pv, r.nodes, value_seconds, time.perf_counter() - t,
                  r.endgame_seeds]))
"""


def run_child(code: str, env: dict[str, str]) -> list:
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-seeds", type=int, default=28, help="K of the endgame database")
    parser.add_argument("--directory", help="where the database is kept (reused when present); default: a scratch dir")
    parser.add_argument("--time", type=float, default=1200.0, help="seconds allowed for the solve")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--tt-log2", type=int, default=29, help="solver table: 2^n entries of 16 bytes")
    args = parser.parse_args()

    scratch = None
    if args.directory:
        directory = Path(args.directory).expanduser()
    else:
        scratch = Path(tempfile.mkdtemp(prefix="kalah-bench65-"))
        directory = scratch
    try:
        name = f"kalah-m6-std-k{args.max_seeds}.egdb"
        env = dict(os.environ, KALAH_ENDGAME_DIR=str(directory))
        if (directory / name).exists():
            build_row = [args.max_seeds, "", f"{(directory / name).stat().st_size / 2**30:.2f} GiB", "reused (built earlier)"]
            build_seconds = None
        else:
            positions, nbytes, build_seconds = run_child(BUILD.format(k=args.max_seeds, directory=str(directory)), env)
            build_row = [args.max_seeds, f"{positions:,}", f"{nbytes / 2**30:.2f} GiB", f"{build_seconds:.0f}"]
        for other in directory.glob("kalah-m6-std-k*.egdb"):  # the solve takes the largest: make it this one
            if other.name != name:
                raise SystemExit(f"{directory} holds {other.name} besides {name}; give a directory with only K={args.max_seeds}")
        code = SOLVE.format(budget=args.time, threads=args.threads, tt_log2=args.tt_log2)
        shown, exact, best, pv, nodes, value_seconds, seconds, k = run_child(code, env)
        solve_row = ["Kalah(6,5) from the start", shown if exact else f"{shown} (stopped at {args.time:.0f} s)",
                     best, f"{nodes:,}", f"{value_seconds:.0f}", f"{seconds:.0f}", k]
        total = "" if build_seconds is None else f"\n\nDatabase build plus solve: {build_seconds + seconds:.0f} s."
        body = (
            "## Endgame database\n\n"
            + markdown_table(["K", "positions", "size", "build seconds"], [build_row])
            + "\n\n## Solve (database on disk, copied into memory)\n\n"
            + markdown_table(["position", "value", "best moves", "nodes (best moves and PV)", "seconds to the value",
                             "seconds in all", "database K"], [solve_row])
            + total
            + (f"\n\nPrincipal variation ({len(pv)} moves, pits of the mover's side): {' '.join(map(str, pv))}" if pv else "")
        )
        report("Kalah(6,5) solve", body, "kalah65.md")
        built = "on disk before" if build_seconds is None else f"build {build_seconds:.0f} s + solve {seconds:.0f} s = {build_seconds + seconds:.0f} s"
        figure("solve-65", f"solve Kalah(6,5) from the start, K={args.max_seeds} database built first",
               f"{shown if exact else shown + ' (stopped)'}: {built}", "kalah65.md")
    finally:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
