"""Benchmark: how soon a cold solve sees its stop (what a KGP `stop` to a perfect player waits for).

    python benchmarks/bench_solve_stop.py                      # stop 0.01 to 2 s into the solve
    python benchmarks/bench_solve_stop.py --busy               # with the other core kept busy
    python benchmarks/bench_solve_stop.py --after 0.05 0.5 --seeds 5

Each run is a fresh process (a cold solver table; the endgame database of
the data directory, else a table computed in memory, which a stop also
ends) solving Kalah(6,--seeds) from the start on one thread with a 60 s
budget; its `stop` event is set --after seconds in, and the time from then
until `kalah.solve` returns is measured. With --busy a second process spins
on the other core throughout, as on a loaded machine, where every page the
cold table faults in costs the most. Results go to results/solve_stop.md.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

from common import markdown_table, report

_CHILD = """
import json, sys, threading, time
import kalah
from kalah import Position, Variant
stop, done = threading.Event(), {}
def run():
    kalah.solve(Position.start(Variant(6, int(sys.argv[2]))), 60, threads=1, pv=False, stop=stop)
    done["at"] = time.monotonic()
thread = threading.Thread(target=run)
thread.start()
time.sleep(float(sys.argv[1]))
asked = time.monotonic()
stop.set()
thread.join(120)
print(json.dumps(done["at"] - asked))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--after", type=float, nargs="+", default=[0.01, 0.03, 0.05, 0.1, 0.2, 0.3, 0.5, 1.0, 1.5, 2.0])
    parser.add_argument("--seeds", type=int, default=6, help="seeds per pit of Kalah(6,n) (default 6)")
    parser.add_argument("--busy", action="store_true", help="keep the other core busy meanwhile")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    if not 1 <= args.seeds <= 6:
        parser.error(f"--seeds must be from 1 to 6, got {args.seeds}")
    if any(not 0 <= after <= 30 for after in args.after):
        parser.error("--after takes seconds from 0 to 30")
    spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if args.busy else None
    try:
        waits = []
        for after in args.after:
            out = subprocess.run(
                [sys.executable, "-c", _CHILD, str(after), str(args.seeds)], capture_output=True, text=True, check=True
            ).stdout
            waits.append(json.loads(out))
            print(f"\rstop {after:g} s in: seen after {waits[-1]:.3f} s", end="", file=sys.stderr)
    finally:
        if spinner is not None:
            spinner.kill()
    print(file=sys.stderr)
    rows = [[f"{after:g}", f"{wait:.3f}"] for after, wait in zip(args.after, waits, strict=True)]
    body = (
        f"Kalah(6,{args.seeds}) from the start, one thread, 60 s budget, a fresh process each"
        f"{', the other core busy' if args.busy else ''}: the seconds from setting `stop` until `kalah.solve` "
        f"returned. Median {statistics.median(waits):.3f} s, most {max(waits):.3f} s.\n\n"
        + markdown_table(["stop set after (s)", "seen after (s)"], rows)
    )
    report("How soon a cold solve sees its stop", body, None if args.no_write else "solve_stop.md")


if __name__ == "__main__":
    main()
