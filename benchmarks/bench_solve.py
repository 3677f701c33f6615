"""Benchmarks of the exact solver and the endgame databases (not tests: timings are noisy).

    python benchmarks/bench_solve.py                 # cold and warm Kalah(6,4), DB builds K=16,20
    python benchmarks/bench_solve.py --builds 16,20,24

Kalah(6,5) has its own script (minutes and gigabytes): bench_kalah65.py.

Cold: no database on disk, nothing cached; the time includes the in-memory
table ``kalah.solve`` builds. Warm: databases built first (K = --warm-k) in a
scratch directory. Prints markdown tables with the machine and the command, and
writes them to benchmarks/results/solve.md (or --out).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import RESULTS, figure, machine


def run_child(code: str, env: dict[str, str]) -> str:
    """Run in a fresh interpreter so that nothing is cached between measurements."""
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return out.stdout.strip()


SOLVE = """
import time, json
from kalah import Position, Variant, solve
t = time.perf_counter()
r = solve(Position.start(Variant({pits}, {seeds})), time={budget})
print(json.dumps([r.value if r.exact else r.describe(), r.nodes, time.perf_counter() - t, r.endgame_seeds, r.best_moves]))
"""

BUILD = """
import time, json
from kalah import Variant
from kalah.endgame import build
t = time.perf_counter()
d = build(Variant({pits}, 4), {k}, {directory!r})
print(json.dumps([d.positions, d.nbytes, time.perf_counter() - t]))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--builds", default="16,20", help="K values of the database builds to time")
    parser.add_argument("--warm-k", type=int, default=20, help="K of the database of the warm solve")
    parser.add_argument("--out", default=str(Path(__file__).parent / "results" / "solve.md"))
    args = parser.parse_args()

    lines = [
        "# kalah solver benchmarks",
        "",
        f"- machine: {machine()}",
        f"- command: `python benchmarks/{Path(__file__).name} {' '.join(sys.argv[1:])}`".rstrip(),
        f"- date: {time.strftime('%Y-%m-%d %H:%M')}",
        "",
    ]

    def emit(line: str = "") -> None:
        print(line, flush=True)
        lines.append(line)

    for line in lines:
        print(line)
    scratch = Path(tempfile.mkdtemp(prefix="kalah-bench-"))
    try:
        env = dict(os.environ, KALAH_ENDGAME_DIR=str(scratch / "none"))
        emit("## Solve from the start")
        emit("")
        emit("| variant | databases | value | best moves | nodes | seconds | table K |")
        emit("|---|---|---|---|---|---|---|")
        value, nodes, seconds, k, best = eval(
            run_child(SOLVE.format(pits=6, seeds=4, budget=None), env).replace("null", "None")
        )
        emit(f"| Kalah(6,4) | cold (none on disk; included) | {value:+d} | {best} | {nodes:,} | {seconds:.1f} | {k} |")
        cold = f"{value:+d} in {seconds:.1f} s"

        builds = sorted({int(k) for k in args.builds.split(",") if k} | {args.warm_k})
        directory = scratch / "db"
        results = {}
        for k in builds:
            results[k] = eval(run_child(BUILD.format(pits=6, k=k, directory=str(directory)), env))
        warm_env = dict(os.environ, KALAH_ENDGAME_DIR=str(directory))
        for path in directory.glob("*.egdb"):
            if f"-k{args.warm_k}." not in path.name:
                path.unlink()
        value, nodes, seconds, k, best = eval(
            run_child(SOLVE.format(pits=6, seeds=4, budget=None), warm_env).replace("null", "None")
        )
        emit(f"| Kalah(6,4) | warm (K={args.warm_k} on disk) | {value:+d} | {best} | {nodes:,} | {seconds:.1f} | {k} |")
        warm = f"{value:+d} in {seconds:.1f} s"
        emit("")
        emit("## Endgame database builds (6 pits, standard capture, both cores)")
        emit("")
        emit("| K | positions | file size | seconds | ns per position |")
        emit("|---|---|---|---|---|")
        for k in builds:
            positions, nbytes, seconds = results[k]
            emit(
                f"| {k} | {positions:,} | {nbytes / 2**20:.1f} MiB | {seconds:.1f} | {seconds / positions * 1e9:.0f} |"
            )
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines) + "\n")
    if out.resolve().parent == RESULTS:
        figure("solve-64-cold", "solve Kalah(6,4) from the start, cold (database build included)", cold, out.name)
        figure("solve-64-warm", f"solve Kalah(6,4), warm (K={args.warm_k} database on disk)", warm, out.name)
        figure(
            "endgame-builds",
            f"endgame database builds, 6 pits, K = {' / '.join(map(str, builds))}",
            " / ".join(f"{results[k][2]:.1f}" for k in builds) + " s",
            out.name,
        )


if __name__ == "__main__":
    main()
