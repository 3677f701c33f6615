"""Benchmark: a timed solve of standard Kalah(6,6), and how its proven bounds close over time.

    python benchmarks/bench_kalah66.py --time 3600 --endgame-seeds 30   # the hour of docs/solve.md
    python benchmarks/bench_kalah66.py --time 120 --endgame-seeds 24    # a short look

The run is `kalah.solve(start, time=T)`, the library call behind `kalah solve
--seeds 6 --time T`, in this fresh process. The endgame database K is built
into the user's data directory first when it is not there (timed apart;
--endgame-seeds, default the command's own choice). Every bound the solve
proves on the start is logged with the second it came, so the table shows the
curve a plan for a cluster needs: how the interval closes against nodes and
time. Then the bounds of each first move, nodes, and peak resident memory.
Writes benchmarks/results/kalah66.md.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time

import kalah
from common import markdown_table, report
from kalah.rules import move_name
from kalah.solve import prepare_endgame


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--time", type=float, default=3600.0, help="seconds for the solve (default 3600)")
    parser.add_argument("--endgame-seeds", type=int, help="K of the database (default: the command's choice)")
    parser.add_argument("--threads", type=int, help="threads (default: every core)")
    parser.add_argument("--table", type=int, help="solver table, log2 of entries (default: the solve's)")
    args = parser.parse_args()
    if not args.time > 0:
        parser.error(f"--time must be a positive number of seconds, got {args.time}")

    start = kalah.Position.start(kalah.Variant(6, 6))
    began = time.perf_counter()
    try:
        database = prepare_endgame(start, args.endgame_seeds, threads=args.threads)
    except kalah.KalahError as error:
        parser.error(str(error))
    prepared = time.perf_counter() - began

    curve: list[tuple[float, int, int]] = []
    solve_began = time.perf_counter()

    def proven(lower: int, upper: int) -> None:
        if not curve or curve[-1][1:] != (lower, upper):
            curve.append((time.perf_counter() - solve_began, lower, upper))

    try:
        result = kalah.solve(
            start,
            time=args.time,
            threads=args.threads,
            tt_log2=args.table,
            progress=proven,
            endgame=database if database is not None else "auto",
        )
    except kalah.KalahError as error:
        parser.error(str(error))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20

    closing = markdown_table(
        ["after (s)", "the start: proven bounds", "width"],
        [[f"{at:.0f}", f"{low:+d} .. {high:+d}", high - low] for at, low, high in curve],
    )
    moves = markdown_table(
        ["first move", "proven bounds"],
        [
            [move_name(0, move), f"{low:+d}" if low == high else f"{low:+d} .. {high:+d}"]
            for move, (low, high) in result.move_bounds.items()
        ],
    )
    value = f"{result.value:+d}" if result.exact else f"{result.lower:+d} .. {result.upper:+d}"
    body = (
        f"Database: K={result.endgame_seeds}, ready after {prepared:.0f} s (found, or built), "
        f"threads: {args.threads or 'every core'}, table: {'2^' + str(args.table) if args.table else 'the default'}.\n\n"
        f"The start: **{value}**; {result.nodes:,} nodes in {result.seconds:.0f} s "
        f"({result.nodes / max(result.seconds, 1e-9) / 1e6:.2f} million a second); "
        f"peak resident memory {peak:.1f} GiB.\n\n"
        "How the bounds on the start closed (the first 70% of the budget; the rest bounds each first move):\n\n"
        + closing
        + "\n\n"
        + moves
        + "\n\nA first move's bounds are its value for the first player; the start is worth its best move."
    )
    report("Kalah(6,6), standard rule: a timed solve", body, "kalah66.md")


if __name__ == "__main__":
    sys.exit(main())
