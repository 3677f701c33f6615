"""Benchmark: where the time of an exact solve goes (the value's null-window tests, the best moves, the line).

    python benchmarks/bench_solve_phases.py              # Kalah(6,5) from the start (about 2 minutes)
    python benchmarks/bench_solve_phases.py --seeds 4    # Kalah(6,4)
    python benchmarks/bench_solve_phases.py --threads 1 --table 30   # one thread, 2^30 table entries

One fresh process, the database the data directory holds (build it first with
`kalah solve --seeds 5` or `kalah endgame build -k 28`; without one the solve
uses what `endgame="auto"` gives). The value and the best moves are solved
together, as the one command does: MTD(f)'s tests up to the first lower
bound, then rounds of tests on the moves, each answer timed (the `progress`
callback hears every change of the bounds). Then the principal variation,
on the table the first call left (as the one command does in one call).
Results go to results/solve_phases.md.
"""

from __future__ import annotations

import argparse
import time

from common import markdown_table, report
from kalah import InvalidVariantError, Position, Variant, solve
from kalah.solve.engine import default_tt_log2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=5, help="seeds per pit of Kalah(6,n) (default 5)")
    parser.add_argument("--threads", type=int, help="solver threads (default: every core)")
    parser.add_argument("--table", type=int, help="solver table size as log2 of entries (default: the solve's own)")
    args = parser.parse_args()
    try:
        position = Position.start(Variant(pits=6, seeds=args.seeds))
    except InvalidVariantError as error:
        parser.error(str(error))
    if args.threads is not None and args.threads < 1:
        parser.error(f"--threads must be a positive integer, got {args.threads}")
    if args.table is not None and not 10 <= args.table <= 34:
        parser.error(f"--table must be from 10 to 34, got {args.table}")
    options = {"threads": args.threads, "tt_log2": args.table}

    started = time.perf_counter()
    tests: list[list[object]] = []
    last = [0.0]  # when the previous test answered (unrounded)

    def heard(lower: int, upper: int) -> None:
        now = time.perf_counter() - started
        tests.append([len(tests) + 1, f"{now:.1f}", f"{now - last[0]:.1f}", f"[{lower:+d}, {upper:+d}]"])
        last[0] = now

    value = solve(position, best_moves=True, pv=False, progress=heard, **options)
    line = solve(position, best_moves=False, pv=True, **options)
    phases = [
        [f"value and best moves {value.best_moves} (every test below)", f"{value.nodes:,}", f"{value.seconds:.1f}"],
        [f"principal variation ({len(line.pv)} moves)", f"{line.nodes:,}", f"{line.seconds:.1f}"],
        ["all", f"{value.nodes + line.nodes:,}", f"{value.seconds + line.seconds:.1f}"],
    ]
    body = (
        f"Kalah(6,{args.seeds}) from the start: value {value.value:+d}, database K={value.endgame_seeds}, "
        f"threads {args.threads or 'every core'}, table 2^{args.table or default_tt_log2(position.seeds_in_pits)} entries.\n\n"
        + markdown_table(["phase", "nodes", "seconds"], phases)
        + "\n\nThe bounds on the value as the tests proved them, a row for each change (seconds from the start of"
        " the call; the first includes the heuristic first guess, the database's load and the table's first touch;"
        " after MTD(f)'s first lower bound, the bounds change when a round of tests on the moves, two side by"
        " side, has answered):\n\n" + markdown_table(["change", "proven at s", "took s", "bounds"], tests)
    )
    report(f"Where the time of solving Kalah(6,{args.seeds}) goes", body, "solve_phases.md")


if __name__ == "__main__":
    main()
